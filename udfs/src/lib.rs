//! mteval-udfs: `DataFusion` scalar and aggregate UDFs over mteval's metric
//! kernels. One folder per metric family (its shared helpers and one file
//! per SQL function: [`bleu`], [`ter`], [`chrf`], [`charac_ter`], [`terms`],
//! [`wer`]), the functions over any metric of the table in [`significance`]
//! and [`metric_table`], the meta-evaluation of metrics in [`meta`]; the Arrow plumbing (string layouts, scalars vs
//! arrays, reference lists, NULLs, literal options) lives in [`common`],
//! the `ScalarUDFImpl` / `AggregateUDFImpl` / `WindowUDFImpl` boilerplate
//! once in [`udf`].
//!
//! ```ignore
//! let mut ctx = SessionContext::new();
//! mteval_udfs::register_all(&mut ctx)?;
//! ctx.sql("SELECT ter(hyp, ref) FROM t").await?;
//! ```

pub mod bleu;
pub mod charac_ter;
pub mod chrf;
pub mod common;
pub mod meta;
pub mod metric_table;
pub mod significance;
pub mod ter;
pub mod terms;
pub mod udf;
pub mod wer;

use std::fmt::Write as _;
use std::sync::Arc;

use datafusion::common::Result;
use datafusion::execution::FunctionRegistry;
use datafusion::logical_expr::{AggregateUDF, Documentation, ScalarUDF, WindowUDF};

pub use common::MtevalConfig;
pub use mteval_kernels as kernels;
use mteval_kernels::backend::DeviceRequest;

/// Every scalar UDF of mteval: the standard functions of the metric table's
/// rows, then the others.
#[must_use]
pub fn scalar_functions() -> Vec<Arc<ScalarUDF>> {
    let standard = metric_table::standard::scalar_functions().into_iter().map(Arc::new);
    standard
        .chain([
            Arc::new(ScalarUDF::from(bleu::compute_bleu::ComputeBleuUdf::default())),
            Arc::new(ScalarUDF::from(ter::ter_alignment::TerAlignmentUdf::default())),
            Arc::new(ScalarUDF::from(ter::ter_tokenize::TerTokenizeUdf::default())),
            Arc::new(ScalarUDF::from(wer::wer_alignment::WerAlignmentUdf::default())),
            Arc::new(ScalarUDF::from(wer::whisper_normalize::WhisperNormalizeUdf::default())),
            Arc::new(ScalarUDF::from(metric_table::segment_stats::SegmentStatsUdf::default())),
            Arc::new(ScalarUDF::from(charac_ter::EditDistanceUdf::default())),
            Arc::new(ScalarUDF::from(charac_ter::WordEditDistanceUdf::default())),
            Arc::new(ScalarUDF::from(terms::term_match::TermMatchUdf::default())),
            Arc::new(ScalarUDF::from(terms::term_match_lemmatized::TermMatchLemmatizedUdf::default())),
            Arc::new(ScalarUDF::from(metric_table::mteval_signature::MtevalSignatureUdf::default())),
        ])
        .collect()
}

/// Every aggregate UDF of mteval.
#[must_use]
pub fn aggregate_functions() -> Vec<Arc<AggregateUDF>> {
    aggregate_functions_on(None)
}

/// Every aggregate UDF of mteval, those that run on a device bound to
/// `device` (`None`: `auto`); a session's `mteval.device` overrides it.
#[must_use]
pub fn aggregate_functions_on(device: Option<DeviceRequest>) -> Vec<Arc<AggregateUDF>> {
    let standard = metric_table::standard::aggregate_functions_on(device).into_iter().map(Arc::new);
    standard
        .chain([
            Arc::new(AggregateUDF::from(significance::corpus_bootstrap::CorpusBootstrapUdaf::default())),
            Arc::new(AggregateUDF::from(significance::paired_test::PairedTestUdaf::default())),
            Arc::new(AggregateUDF::from(charac_ter::corpus_charac_ter::CorpusCharacTerUdaf::default())),
            Arc::new(AggregateUDF::from(meta::meta_corr::MetaCorrUdaf::default())),
            Arc::new(AggregateUDF::from(meta::meta_tie_opt::MetaTieOptUdaf::default())),
            Arc::new(AggregateUDF::from(meta::meta_spa::MetaSpaUdaf::default())),
            Arc::new(AggregateUDF::from(significance::comet_compare::CometCompareUdaf::default())),
            Arc::new(AggregateUDF::from(terms::corpus_term_accuracy::CorpusTermAccuracyUdaf::default())),
            Arc::new(AggregateUDF::from(
                terms::corpus_term_accuracy_lemmatized::CorpusTermAccuracyLemmatizedUdaf::default(),
            )),
        ])
        .collect()
}

/// Every window UDF of mteval.
#[must_use]
pub fn window_functions() -> Vec<Arc<WindowUDF>> {
    window_functions_on(None)
}

/// Every window UDF of mteval, bound to `device` (see [`aggregate_functions_on`]).
#[must_use]
pub fn window_functions_on(device: Option<DeviceRequest>) -> Vec<Arc<WindowUDF>> {
    vec![
        Arc::new(WindowUDF::from(chrf::mbr_chrf::MbrChrfUdwf::on(device))),
        Arc::new(WindowUDF::from(chrf::mbr_chrf_aggregate::MbrChrfAggregateUdwf::on(device))),
    ]
}

/// The device bound into one of mteval's aggregate or window functions (see
/// `common::bind_device`), found by its implementation's type; `None` for
/// an unbound or foreign function.
fn bound_device(inner: &dyn std::any::Any) -> Option<DeviceRequest> {
    use chrf::{mbr_chrf::MbrChrfUdwf, mbr_chrf_aggregate::MbrChrfAggregateUdwf};
    None.or_else(|| inner.downcast_ref::<metric_table::standard::MetricAggregate>()?.device())
        .or_else(|| inner.downcast_ref::<MbrChrfUdwf>()?.device())
        .or_else(|| inner.downcast_ref::<MbrChrfAggregateUdwf>()?.device())
}

/// The device bound into one of mteval's aggregate functions; with
/// [`aggregate_on`], what a plan codec needs to carry the binding.
#[must_use]
pub fn aggregate_device(f: &AggregateUDF) -> Option<DeviceRequest> {
    bound_device(f.inner().as_ref())
}

/// The device bound into one of mteval's window functions (see [`aggregate_device`]).
#[must_use]
pub fn window_device(f: &WindowUDF) -> Option<DeviceRequest> {
    bound_device(f.inner().as_ref())
}

/// mteval's aggregate function `name` bound to `device`; `None` when no
/// such function runs on a device.
#[must_use]
pub fn aggregate_on(name: &str, device: DeviceRequest) -> Option<Arc<AggregateUDF>> {
    aggregate_functions_on(Some(device)).into_iter().find(|f| f.name() == name && aggregate_device(f).is_some())
}

/// mteval's window function `name` bound to `device` (see [`aggregate_on`]).
#[must_use]
pub fn window_on(name: &str, device: DeviceRequest) -> Option<Arc<WindowUDF>> {
    window_functions_on(Some(device)).into_iter().find(|f| f.name() == name && window_device(f).is_some())
}

/// One of mteval's functions, of any kind.
#[derive(Debug, Clone)]
pub enum Function {
    /// A scalar function.
    Scalar(Arc<ScalarUDF>),
    /// An aggregate function.
    Aggregate(Arc<AggregateUDF>),
    /// A window function.
    Window(Arc<WindowUDF>),
}

impl Function {
    /// Its SQL name.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Self::Scalar(f) => f.name(),
            Self::Aggregate(f) => f.name(),
            Self::Window(f) => f.name(),
        }
    }

    /// `scalar`, `aggregate` or `window`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Scalar(_) => "scalar",
            Self::Aggregate(_) => "aggregate",
            Self::Window(_) => "window",
        }
    }

    /// Its documentation.
    #[must_use]
    pub fn documentation(&self) -> Option<&Documentation> {
        match self {
            Self::Scalar(f) => f.documentation(),
            Self::Aggregate(f) => f.documentation(),
            Self::Window(f) => f.documentation(),
        }
    }

    /// Registers it with `registry`.
    ///
    /// # Errors
    /// When the registry refuses it.
    pub fn register(self, registry: &mut dyn FunctionRegistry) -> Result<()> {
        match self {
            Self::Scalar(f) => registry.register_udf(f).map(drop),
            Self::Aggregate(f) => registry.register_udaf(f).map(drop),
            Self::Window(f) => registry.register_udwf(f).map(drop),
        }
    }
}

/// Every mteval function, in registration order (scalar, aggregate,
/// window), the aggregate and window functions bound to `device` (`None`:
/// `auto`).
#[must_use]
pub fn functions_on(device: Option<DeviceRequest>) -> Vec<Function> {
    let scalar = scalar_functions().into_iter().map(Function::Scalar);
    let aggregate = aggregate_functions_on(device).into_iter().map(Function::Aggregate);
    scalar.chain(aggregate).chain(window_functions_on(device).into_iter().map(Function::Window)).collect()
}

/// Registers every mteval function with `registry` (a `SessionContext` or `SessionState`).
///
/// # Errors
/// When the registry refuses a function.
pub fn register_all(registry: &mut dyn FunctionRegistry) -> Result<()> {
    register_all_on(registry, None)
}

/// Registers every mteval function with `registry`, the aggregate and window
/// functions bound to `device` (`None`: `auto`). Scalar functions see the
/// session's settings with every call; give the session `mteval.device` for
/// them (and to override `device` for a query).
///
/// # Errors
/// When the registry refuses a function.
pub fn register_all_on(registry: &mut dyn FunctionRegistry, device: Option<DeviceRequest>) -> Result<()> {
    functions_on(device).into_iter().try_for_each(|f| f.register(registry))
}

/// Every mteval function's name, kind (`scalar`, `aggregate`, `window`) and
/// documentation, in registration order.
#[must_use]
pub fn documented_functions() -> Vec<(String, &'static str, Option<Documentation>)> {
    functions_on(None).iter().map(|f| (f.name().to_owned(), f.kind(), f.documentation().cloned())).collect()
}

/// The README's table of SQL functions, generated from their
/// documentation (a test keeps the README equal to it).
#[must_use]
pub fn markdown_function_table() -> String {
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut s = String::from("| function | kind | what |\n|---|---|---|\n");
    for (_, kind, doc) in documented_functions() {
        let Some(doc) = doc else { continue };
        let _ = writeln!(s, "| `{}` | {kind} | {} |", cell(&doc.syntax_example), cell(&doc.description));
    }
    s
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn mteval_settings_round_trip_through_their_entries() {
        // A Ballista cluster receives a session's settings as its entries
        // and sets each again by name: the key must keep its prefix.
        use datafusion::common::config::ConfigOptions;
        let mut opts = ConfigOptions::new();
        opts.extensions.insert(MtevalConfig::default());
        opts.set("mteval.device", "cpu").unwrap();
        let entries = opts.entries();
        let e = entries.iter().find(|e| e.key == "mteval.device").expect("mteval.device among the entries");
        assert_eq!(e.value.as_deref(), Some("cpu"));
        let mut other = ConfigOptions::new();
        other.extensions.insert(MtevalConfig::default());
        for e in entries.iter().filter(|e| e.key.starts_with("mteval.")) {
            if let Some(v) = &e.value {
                other.set(&e.key, v).unwrap_or_else(|err| panic!("{}: {err}", e.key));
            }
        }
        assert_eq!(other.extensions.get::<MtevalConfig>().unwrap().device, Some(DeviceRequest::Cpu));
        // Parsed when set: a typo is refused by name, and the empty value unsets.
        assert!(other.set("mteval.device", "gpu0").unwrap_err().to_string().contains("mteval.device"));
        other.set("mteval.device", " ").unwrap();
        assert_eq!(other.extensions.get::<MtevalConfig>().unwrap().device, None);
        assert!(other.set("mteval.nonsense", "x").unwrap_err().to_string().contains("mteval.nonsense"));
    }

    #[test]
    fn names_are_unique() {
        let mut seen = HashSet::new();
        for f in functions_on(None) {
            assert!(seen.insert(f.name().to_owned()), "duplicate {}", f.name());
        }
        for n in [
            "ter",
            "corpus_ter",
            "chrf",
            "chrf_stats",
            "corpus_chrf",
            "mbr_chrf",
            "mbr_chrf_aggregate",
            "charac_ter",
            "corpus_charac_ter",
            "edit_distance",
            "word_edit_distance",
            "term_match",
            "term_match_lemmatized",
            "corpus_term_accuracy",
            "corpus_term_accuracy_lemmatized",
            "wer",
            "mer",
            "wil",
            "wip",
            "wer_stats",
            "corpus_wer",
            "wer_alignment",
        ] {
            assert!(seen.contains(n), "{n} not registered");
        }
    }

    #[test]
    fn every_function_is_documented() {
        for (name, kind, doc) in documented_functions() {
            let doc = doc.unwrap_or_else(|| panic!("{name} has no documentation"));
            assert!(doc.description.len() > 40, "{name}: {}", doc.description);
            assert!(doc.syntax_example.starts_with(&format!("{name}(")), "{name}: {}", doc.syntax_example);
            let args = doc.arguments.unwrap_or_default();
            assert!(!args.is_empty(), "{name} ({kind}) documents no argument");
            for (a, what) in &args {
                assert!(doc.syntax_example.contains(a.as_str()), "{name}: argument {a} not in the syntax");
                assert!(!what.is_empty(), "{name}: argument {a}");
            }
            let sql = doc.sql_example.unwrap_or_default();
            assert!(sql.contains(&format!("{name}(")), "{name}: example {sql}");
            for r in doc.related_udfs.unwrap_or_default() {
                assert!(
                    documented_functions().iter().any(|(n, ..)| *n == r),
                    "{name}: related function {r} does not exist"
                );
            }
        }
    }
}
