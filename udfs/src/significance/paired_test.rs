//! `paired_test(hyp, baseline_hyp, ref, metric [, options]) -> Struct{score,
//! baseline_score, p_value, mean, ci, signature}`: sacrebleu 2.6.0's paired
//! significance test of a system against a baseline on the same segments,
//! as an aggregate over rows that hold both hypotheses (a self-join on the
//! segment). Options: the metric's, plus `bs:N` (paired bootstrap
//! resampling, the default with N = 1000) or `ar:N` (paired approximate
//! randomization; with `bs:M` beside it, bootstrap intervals too), and
//! `seed:S` — the keys of sacrebleu's signature, so a printed signature
//! pastes back. Resamples follow the rows' order: `ORDER BY` inside the call
//! (e.g. the segment id) makes it the order sacrebleu reads its files in.

pub use crate::significance::corpus_bootstrap::paired_test_fields;
use crate::significance::corpus_bootstrap::{ARG_METRIC, ResampleFn};
use crate::udf::{ARG_HYP, ARG_OPTIONS, ARG_REF, Aggregate, Arg, FunctionDoc, Kind};

/// The `paired_test` aggregate function.
pub type PairedTestFn = ResampleFn<true, PairedTestDoc>;

crate::udf::documented!(PairedTestDoc, "paired_test");

/// The `paired_test` aggregate UDF.
pub type PairedTestUdaf = Aggregate<PairedTestFn>;

/// The documentation of `paired_test`.
pub const DOC: FunctionDoc = FunctionDoc {
    description: "sacrebleu 2.6.0's paired significance test of a system against a baseline, with its numbers for \
                  the same seed: over rows holding both hypotheses of a segment, the system's corpus `score`, the \
                  `baseline_score`, the `p_value`, and the bootstrap `mean` and `ci` (95%). Options: the metric's \
                  plus `bs:N` (paired bootstrap resampling, default 1000), or `ar:N` (approximate randomization; \
                  `bs:M` beside it adds intervals), and `seed:S` (default 12345). Rows with a NULL hypothesis on \
                  either side are skipped; `ORDER BY` inside the call orders the segments. A segment score computed \
                  elsewhere (COMET, human): `paired_test(score, baseline_score, 'score' [, options])` with number \
                  columns, the corpus score their mean, options `dir:lower` and `score:NAME` (the signature's name) \
                  besides the test's; rows with a NULL score on either side are skipped.",
    arguments: &[
        ARG_HYP,
        Arg::new("baseline_hyp", Kind::Text, "The baseline's hypothesis of the same segment: a string column."),
        ARG_REF,
        ARG_METRIC,
        Arg::new(
            "options",
            ARG_OPTIONS.kind,
            "Optional constant options: the metric's, plus `bs:N` or `ar:N`, and `seed:S`.",
        )
        .optional(),
    ],
    example: "SELECT s.system, paired_test(s.hyp, b.hyp, s.ref, 'chrf', 'bs:1000' ORDER BY s.seg_id) AS t FROM t s \
              JOIN t b ON s.seg_id = b.seg_id AND b.system = 'base' GROUP BY s.system;",
    related: &["corpus_bootstrap", "segment_stats", "corpus_chrf"],
};
