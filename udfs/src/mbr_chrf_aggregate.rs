//! `mbr_chrf_aggregate(hyp [, pseudo_ref] [, options]) OVER (PARTITION BY src)`:
//! fastchrf 0.2.1's `aggregate_chrf` of each row's hypothesis against all
//! pseudo-references of its partition (reference n-gram counts summed,
//! hypothesis counts multiplied by their number; Vamvas & Sennrich 2024).
//! Arguments, options and NULL handling as [`crate::mbr_chrf`].

use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::Result;
use datafusion::logical_expr::PartitionEvaluator;
use datafusion::logical_expr::function::{PartitionEvaluatorArgs, WindowUDFFieldArgs};
use mteval_kernels::backend::DeviceRequest;

use crate::mbr_chrf::{MBR_ARGS, Utility, coerce_mbr_args, mbr_evaluator, mbr_field};
use crate::udf::{FunctionDoc, Window, WindowSpec};

/// The `mbr_chrf_aggregate` window function.
#[derive(Debug)]
pub struct MbrChrfAggregateFn;

/// The `mbr_chrf_aggregate` window UDF.
pub type MbrChrfAggregateUdwf = Window<MbrChrfAggregateFn>;

impl WindowSpec for MbrChrfAggregateFn {
    const NAME: &'static str = "mbr_chrf_aggregate";
    const DOC: FunctionDoc = FunctionDoc {
        description: "fastchrf 0.2.1's `aggregate_chrf` of each row's hypothesis against all pseudo-references of \
                      its partition (reference n-gram counts summed, hypothesis counts multiplied by their number; \
                      Vamvas & Sennrich 2024). Arguments, options and NULLs as `mbr_chrf`.",
        syntax: "mbr_chrf_aggregate(hyp [, pseudo_ref] [, options]) OVER (PARTITION BY ...) -> float64",
        arguments: &MBR_ARGS,
        example: "SELECT src, hyp, mbr_chrf_aggregate(hyp) OVER (PARTITION BY src) AS utility FROM samples;",
        related: &["mbr_chrf", "chrf"],
    };

    fn coerce(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_mbr_args(Self::NAME, arg_types)
    }

    fn field(args: &WindowUDFFieldArgs<'_>) -> FieldRef {
        mbr_field(args)
    }

    fn evaluator(args: &PartitionEvaluatorArgs, device: Option<DeviceRequest>) -> Result<Box<dyn PartitionEvaluator>> {
        mbr_evaluator(Self::NAME, Utility::Aggregate, device, args)
    }
}
