//! `mbr_chrf_aggregate(hyp [, pseudo_ref] [, options]) OVER (PARTITION BY src)`:
//! fastchrf 0.2.1's `aggregate_chrf` of each row's hypothesis against all
//! pseudo-references of its partition (reference n-gram counts summed,
//! hypothesis counts multiplied by their number; Vamvas & Sennrich 2024).
//! Arguments, options and NULL handling as [`crate::chrf::mbr_chrf`].

use crate::chrf::mbr_chrf::{MBR_ARGS, MbrFn};
use crate::udf::{FunctionDoc, Window};

/// The `mbr_chrf_aggregate` window function.
pub type MbrChrfAggregateFn = MbrFn<true, MbrChrfAggregateDoc>;

crate::udf::documented!(MbrChrfAggregateDoc, "mbr_chrf_aggregate");

/// The `mbr_chrf_aggregate` window UDF.
pub type MbrChrfAggregateUdwf = Window<MbrChrfAggregateFn>;

/// The documentation of `mbr_chrf_aggregate`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "fastchrf 0.2.1's `aggregate_chrf` of each row's hypothesis against all pseudo-references of its \
                  partition (reference n-gram counts summed, hypothesis counts multiplied by their number; Vamvas \
                  & Sennrich 2024). Arguments, options and NULLs as `mbr_chrf`.",
    arguments: &MBR_ARGS,
    example: "SELECT src, hyp, mbr_chrf_aggregate(hyp) OVER (PARTITION BY src) AS utility FROM samples;",
    related: &["mbr_chrf", "chrf"],
};
