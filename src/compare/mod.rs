//! Comparing systems as sacrebleu's `--paired-bs` / `--paired-ar` do, over
//! a [`Corpus`]: the metrics chosen (text metrics and segment-score
//! columns), each system's statistics, the paired test against the
//! baseline (or plain corpus scores), and sacrebleu's JSON table. `mteval
//! compare` prints it; Python's `mteval.compare` returns it.

pub mod comet;
pub mod paired;

use anyhow::{Result, bail};
use mteval_kernels::backend::Backend;
use mteval_kernels::metric::FromStats;
use mteval_kernels::metric::Metric;
use mteval_kernels::significance::{self, PairedTest, SegmentStats, TestResult};

use crate::corpus::Corpus;
use crate::metrics::{MetricChoice, check_comparable, resolve_compared};

/// The text metrics compared: `metrics`, else sacrebleu's default (BLEU)
/// unless segment-score columns are given (then none).
///
/// # Errors
/// A metric the paired tests do not take.
pub fn text_metrics(metrics: &[String], score_cols: &[String]) -> Result<Vec<String>> {
    let out: Vec<String> = if metrics.is_empty() && score_cols.is_empty() {
        crate::metrics::COMPARE_DEFAULT.iter().map(|&m| m.to_owned()).collect()
    } else {
        metrics.to_vec()
    };
    check_comparable(&out, "compare")?;
    Ok(out)
}

/// The metrics compared: the text metrics with their `options`
/// (`METRIC=OPTIONS`), then the segment-score columns (`NAME[:lower]`).
///
/// # Errors
/// As [`resolve_compared`]; a metric without a score from summed statistics (`Metric::stats`).
pub fn resolve(text_metrics: &[String], options: &[String], score_cols: &[String]) -> Result<Vec<MetricChoice>> {
    let metrics = resolve_compared(text_metrics, options, score_cols)?;
    if let Some(m) = metrics.iter().find(|m| m.metric().stats().is_none()) {
        bail!("{}: mteval compare takes {}", m.column(), crate::metrics::comparable_names());
    }
    // Each row of the JSON table keys the system's name as `system` and each
    // metric by its name: a score named `system` would be a second key.
    if let Some(m) = metrics.iter().find(|m| m.display() == SYSTEM_KEY) {
        bail!(
            "a score named '{}': compare's JSON rows hold the system's name under the key '{SYSTEM_KEY}', so the \
             score would be a second key of that name; rename it",
            m.display()
        );
    }
    Ok(metrics)
}

/// The key of the system's name in each row of [`Comparison::json`].
const SYSTEM_KEY: &str = "system";

/// The outcome of [`compare`]: per system (the baseline first) and metric,
/// its result, with the metrics' display names and signatures.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The systems, the baseline first.
    pub systems: Vec<String>,
    /// The metrics' display names (`BLEU`, `chrF2`, a score column's name).
    pub names: Vec<String>,
    /// The metrics' signatures, with the test's keys when one ran.
    pub signatures: Vec<String>,
    /// `results[s][k]`: system `s`, metric `k`.
    pub results: Vec<Vec<TestResult>>,
}

/// A corpus score without resampling.
#[must_use]
pub fn plain(m: &dyn FromStats, s: &SegmentStats) -> TestResult {
    TestResult { score: m.score(&s.sums()), p_value: None, estimate: None }
}

/// The systems of `corpus` compared on `metrics` (resolved by [`resolve`])
/// with `test` against the first system, or their plain corpus scores when
/// `test` is `None`.
///
/// # Errors
/// A segment a metric refuses (naming the system), a test over fewer than
/// two systems.
pub fn compare(
    corpus: &Corpus,
    metrics: &[MetricChoice],
    test: Option<PairedTest>,
    seed: Option<u128>,
    backend: &dyn Backend,
) -> Result<Comparison> {
    if test.is_some() && corpus.systems.len() < 2 {
        bail!("paired tests need two or more systems");
    }
    let stats = corpus.all_stats(metrics, backend)?;
    let compared: Vec<&dyn Metric> = metrics.iter().map(MetricChoice::metric).collect();
    let views: Vec<&dyn FromStats> = compared.iter().filter_map(|m| m.stats()).collect();
    let results: Vec<Vec<TestResult>> = match test {
        Some(t) => significance::compare(&views, &stats, t, seed)?,
        None => stats.iter().map(|per| views.iter().zip(per).map(|(m, s)| plain(*m, s)).collect()).collect(),
    };
    let signatures = metrics
        .iter()
        .map(|m| {
            let sig = m.signature(corpus.nrefs);
            match test {
                Some(t) => significance::with_test_keys(&sig, &t.signature_keys(seed)),
                None => sig,
            }
        })
        .collect();
    Ok(Comparison {
        systems: corpus.systems.iter().map(|(n, _)| n.clone()).collect(),
        names: metrics.iter().map(MetricChoice::display).collect(),
        signatures,
        results,
    })
}

impl Comparison {
    /// The results as sacrebleu's JSON list: per system an object, `system`
    /// first, then each metric in order, its keys `score`, `p_value`,
    /// `mean`, `ci` and `signature` in that order, at full precision
    /// (indented by 4, as sacrebleu's `json.dumps(..., indent=4)`).
    #[must_use]
    pub fn json(&self) -> String {
        let opt = |x: Option<f64>| x.map_or(Json::Null, Json::from);
        let items: Vec<Json> = self
            .systems
            .iter()
            .zip(&self.results)
            .map(|(s, per)| {
                let mut v = vec![(SYSTEM_KEY.to_owned(), Json::from(s.as_str()))];
                for ((name, sig), r) in self.names.iter().zip(&self.signatures).zip(per) {
                    let m = vec![
                        ("score".to_owned(), Json::from(r.score)),
                        ("p_value".to_owned(), opt(r.p_value)),
                        ("mean".to_owned(), opt(r.estimate.map(|e| e.mean))),
                        ("ci".to_owned(), opt(r.estimate.map(|e| e.ci))),
                        ("signature".to_owned(), Json::from(sig.as_str())),
                    ];
                    v.push((name.clone(), Json::Object(m)));
                }
                Json::Object(v)
            })
            .collect();
        format!("{}\n", Json::Array(items).pretty(4))
    }
}

/// A JSON value whose objects keep their keys in the order given (as
/// Python's dicts do; `serde_json`'s map sorts them).
#[derive(Debug, Clone)]
pub enum Json {
    /// `null`
    Null,
    /// A number, string or boolean, as `serde_json` writes it.
    Leaf(serde_json::Value),
    /// `[...]`
    Array(Vec<Json>),
    /// `{...}`, in this order.
    Object(Vec<(String, Json)>),
}

impl From<f64> for Json {
    fn from(x: f64) -> Self {
        serde_json::Number::from_f64(x).map_or(Self::Null, |n| Self::Leaf(serde_json::Value::Number(n)))
    }
}

impl From<usize> for Json {
    fn from(n: usize) -> Self {
        Self::Leaf(serde_json::Value::from(n))
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Self {
        Self::Leaf(serde_json::Value::Bool(b))
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Self {
        Self::Leaf(serde_json::Value::String(s.to_owned()))
    }
}

impl From<String> for Json {
    fn from(s: String) -> Self {
        Self::Leaf(serde_json::Value::String(s))
    }
}

impl Json {
    /// Python's `json.dumps(value, indent=indent, ensure_ascii=False)`.
    #[must_use]
    pub fn pretty(&self, indent: usize) -> String {
        let mut out = String::new();
        self.write(&mut out, indent, 0);
        out
    }

    fn write(&self, out: &mut String, indent: usize, depth: usize) {
        let pad = |out: &mut String, d: usize| {
            out.push('\n');
            out.push_str(&" ".repeat(indent * d));
        };
        match self {
            Self::Null => out.push_str("null"),
            Self::Leaf(v) => out.push_str(&v.to_string()),
            Self::Array(items) if items.is_empty() => out.push_str("[]"),
            Self::Object(items) if items.is_empty() => out.push_str("{}"),
            Self::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    pad(out, depth + 1);
                    v.write(out, indent, depth + 1);
                }
                pad(out, depth);
                out.push(']');
            }
            Self::Object(items) => {
                out.push('{');
                for (i, (k, v)) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    pad(out, depth + 1);
                    out.push_str(&serde_json::Value::String(k.clone()).to_string());
                    out.push_str(": ");
                    v.write(out, indent, depth + 1);
                }
                pad(out, depth);
                out.push('}');
            }
        }
    }
}
