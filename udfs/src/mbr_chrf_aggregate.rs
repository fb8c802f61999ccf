//! `mbr_chrf_aggregate(hyp [, pseudo_ref] [, options]) OVER (PARTITION BY src)`:
//! fastchrf 0.2.1's `aggregate_chrf` of each row's hypothesis against all
//! pseudo-references of its partition (reference n-gram counts summed,
//! hypothesis counts multiplied by their number; Vamvas & Sennrich 2024).
//! Arguments, options and NULL handling as [`crate::mbr_chrf`].

use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::Result;
use datafusion::logical_expr::function::{PartitionEvaluatorArgs, WindowFunctionSimplification, WindowUDFFieldArgs};
use datafusion::logical_expr::{PartitionEvaluator, Signature, WindowUDF, WindowUDFImpl};

use crate::common::bind_window;
use crate::mbr_chrf::{Utility, coerce_mbr_args, mbr_evaluator, mbr_field};

crate::udf_struct!(
    /// The `mbr_chrf_aggregate` window UDF.
    MbrChrfAggregateUdwf,
    device
);

impl WindowUDFImpl for MbrChrfAggregateUdwf {
    fn name(&self) -> &'static str {
        "mbr_chrf_aggregate"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_mbr_args(self.name(), arg_types)
    }

    fn partition_evaluator(&self, args: PartitionEvaluatorArgs) -> Result<Box<dyn PartitionEvaluator>> {
        mbr_evaluator("mbr_chrf_aggregate", Utility::Aggregate, self.device, &args)
    }

    fn simplify(&self) -> Option<WindowFunctionSimplification> {
        bind_window("mbr_chrf_aggregate", self.device, |d| WindowUDF::from(Self::on(d)))
    }

    fn field(&self, field_args: WindowUDFFieldArgs) -> Result<FieldRef> {
        Ok(mbr_field(&field_args))
    }
}
