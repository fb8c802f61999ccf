//! `mbr_chrf(hyp [, pseudo_ref] [, options]) OVER (PARTITION BY src)`: the
//! MBR expected utility of each row's hypothesis, the mean pairwise chrF
//! (fastchrf 0.2.1 `pairwise_chrf`, averaged as `numpy.mean(axis=1)` does)
//! against every pseudo-reference of its partition. The pseudo-references are
//! the partition's hypotheses themselves (the usual self-MBR), or the non-NULL
//! values of a second column. Options: chrF keys on fastchrf's defaults
//! (`nc:6|nw:0|beta:2|eff:yes|space:no`, Unicode whitespace) plus `self:no` to
//! leave each row's own pseudo-reference out. The whole partition is scored at
//! once (frames are ignored); NULL hypotheses give NULL and NULL
//! pseudo-references are skipped. Pseudo-references are taken in the order the
//! rows arrive, which the mean's float sum follows as numpy's does: an ORDER BY
//! in the window, or one `DataFusion` partition, makes it the input order.
//!
//! `mbr_chrf_aggregate` (see [`crate::chrf::mbr_chrf_aggregate`]) shares this file's
//! evaluator with fastchrf's `aggregate_chrf` as the utility.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Float64Array};
use datafusion::common::Result;
use datafusion::logical_expr::PartitionEvaluator;
use datafusion::logical_expr::function::PartitionEvaluatorArgs;
use mteval_kernels::ChrfConfig;
use mteval_kernels::backend::DeviceRequest;
use mteval_kernels::chrf::group::{Group, parse_mbr_options};

use crate::common::{StrCol, constant_options, constant_value, metric_err, session_backend};
use crate::udf::{ARG_HYP, ARG_OPTIONS, Arg, Documented, FunctionDoc, Kind, Window, WindowSpec};

/// The arguments of the MBR window functions. A call with two takes the
/// second as `pseudo_ref`, a string; the evaluator reads it as the options
/// when it is a constant.
pub(crate) const MBR_ARGS: [Arg; 3] = [
    ARG_HYP,
    Arg::new(
        "pseudo_ref",
        Kind::Text,
        "Optional string column of pseudo-references (default: the partition's hypotheses themselves); NULLs are \
         skipped.",
    )
    .optional(),
    Arg::new(
        "options",
        ARG_OPTIONS.kind,
        "Optional constant: chrF keys on fastchrf's defaults (`nc:6|nw:0|beta:2|eff:yes|space:no`, Unicode \
         whitespace), plus `self:no` to leave each row's own pseudo-reference out.",
    )
    .optional(),
];

/// Which utility an MBR window computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Utility {
    /// Mean pairwise chrF.
    Pairwise,
    /// Aggregate chrF.
    Aggregate,
}

/// Builds the evaluator: decides which argument is the pseudo-reference
/// column and which the options literal, and parses the options.
fn mbr_evaluator(
    name: &'static str,
    utility: Utility,
    device: Option<DeviceRequest>,
    args: &PartitionEvaluatorArgs,
) -> Result<Box<dyn PartitionEvaluator>> {
    let exprs = args.input_exprs();
    let (refs_arg, opts_arg) = match exprs.len() {
        1 => (None, None),
        2 if constant_value(&exprs[1]).is_some() => (None, Some(1)),
        2 => (Some(1), None),
        _ => (Some(1), Some(2)),
    };
    let options = match opts_arg {
        None => String::new(),
        Some(i) => constant_options(name, exprs, i)?,
    };
    let (cfg, include_self) = parse_mbr_options(&options).map_err(|e| metric_err(name, &e))?;
    Ok(Box::new(MbrEvaluator { name, utility, cfg, include_self, refs_arg, device }))
}

/// Scores one partition at a time.
#[derive(Debug)]
pub(crate) struct MbrEvaluator {
    name: &'static str,
    utility: Utility,
    cfg: ChrfConfig,
    include_self: bool,
    refs_arg: Option<usize>,
    device: Option<DeviceRequest>,
}

impl PartitionEvaluator for MbrEvaluator {
    fn evaluate_all(&mut self, values: &[ArrayRef], num_rows: usize) -> Result<ArrayRef> {
        let hyp_col = StrCol::from_array(self.name, values[0].as_ref())?;
        let mut rows = Vec::new();
        let mut hyps = Vec::new();
        for i in 0..num_rows {
            if let Some(h) = hyp_col.get(i) {
                rows.push(i);
                hyps.push(h);
            }
        }
        // For each row, its position among the pseudo-references (if it has one).
        let mut ref_pos: Vec<Option<usize>> = vec![None; num_rows];
        let group = match self.refs_arg {
            None => {
                for (k, &i) in rows.iter().enumerate() {
                    ref_pos[i] = Some(k);
                }
                Group::new(&self.cfg, &hyps, None).map_err(|e| metric_err(self.name, &e))?
            }
            Some(a) => {
                let ref_col = StrCol::from_array(self.name, values[a].as_ref())?;
                let mut refs = Vec::new();
                for (i, pos) in ref_pos.iter_mut().enumerate() {
                    if let Some(r) = ref_col.get(i) {
                        *pos = Some(refs.len());
                        refs.push(r);
                    }
                }
                Group::new(&self.cfg, &hyps, Some(&refs)).map_err(|e| metric_err(self.name, &e))?
            }
        };
        let skip: Vec<Option<usize>> =
            rows.iter().map(|&i| if self.include_self { None } else { ref_pos[i] }).collect();
        let backend = session_backend(self.name, None, self.device)?;
        let scores = match self.utility {
            Utility::Pairwise => group.expected_utility_skipping_on(backend.as_ref(), &skip),
            Utility::Aggregate => group.aggregate_skipping_on(backend.as_ref(), &skip),
        };
        let mut out = vec![None; num_rows];
        for (&i, s) in rows.iter().zip(scores) {
            out[i] = s;
        }
        Ok(Arc::new(Float64Array::from(out)))
    }
}

/// The MBR window functions: `mbr_chrf`, and with `AGGREGATE`
/// `mbr_chrf_aggregate` (documented in its own module).
#[derive(Debug)]
pub struct MbrFn<const AGGREGATE: bool, D>(std::marker::PhantomData<D>);

/// The `mbr_chrf` window function.
pub type MbrChrfFn = MbrFn<false, MbrChrfDoc>;

crate::udf::documented!(MbrChrfDoc, "mbr_chrf");

/// The `mbr_chrf` window UDF.
pub type MbrChrfUdwf = Window<MbrChrfFn>;

/// The documentation of `mbr_chrf`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "MBR expected utility of each row's hypothesis: the mean pairwise chrF against every \
                  pseudo-reference of its partition, fastchrf 0.2.1's `pairwise_chrf` averaged as \
                  `numpy.mean(axis=1)` does, bit for bit. The whole partition is scored at once (frames are \
                  ignored); NULL hypotheses give NULL. The mean's float sum follows the order the rows arrive: an \
                  ORDER BY in the window makes it the input order.",
    arguments: &MBR_ARGS,
    example: "SELECT src, hyp, mbr_chrf(hyp) OVER (PARTITION BY src) AS utility FROM samples;",
    related: &["mbr_chrf_aggregate", "chrf"],
};

impl<const AGGREGATE: bool, D: Documented + std::fmt::Debug> WindowSpec for MbrFn<AGGREGATE, D> {
    const NAME: &'static str = D::NAME;
    const DOC: FunctionDoc = D::DOC;

    fn evaluator(args: &PartitionEvaluatorArgs, device: Option<DeviceRequest>) -> Result<Box<dyn PartitionEvaluator>> {
        let utility = if AGGREGATE { Utility::Aggregate } else { Utility::Pairwise };
        mbr_evaluator(Self::NAME, utility, device, args)
    }
}
