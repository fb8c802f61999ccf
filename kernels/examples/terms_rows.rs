//! Scores term match accuracy cases for `scripts/diff_terms.py`:
//! `cargo run --release -q -p mteval-kernels --example terms_rows < cases.jsonl`.
//!
//! Each stdin line is `{"id", "hyp", "terms": [[alt, ...], ...], "lemmas":
//! [{"lemma": str|null, "start": int, "end": int}, ...]}`; each output line is
//! `{"id", "exact_direct", "lemmatized_raw", "count"}`, every field a number
//! (`count`: `[exact, lemmatized, wrong]`) or `{"error": "Type: message"}`.

use mteval_kernels::MetricError;
use mteval_kernels::terms::{Lemma, count_matches, exact_matches, lemmatized_matches};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;

fn field<T: Into<Value>>(r: Result<T, MetricError>) -> Value {
    match r {
        Ok(v) => v.into(),
        Err(MetricError::InvalidInput { reason, .. } | MetricError::InvalidOption { reason, .. }) => {
            json!({ "error": reason })
        }
        Err(
            e @ (MetricError::UnknownMetric { .. } | MetricError::AmbiguousMetric { .. } | MetricError::Utility { .. }),
        ) => {
            json!({ "error": e.to_string() })
        }
    }
}

fn main() {
    common::answer_json_lines(|r| {
        let hyp = r["hyp"].as_str().expect("hyp");
        let terms: Vec<Vec<&str>> = r["terms"]
            .as_array()
            .expect("terms")
            .iter()
            .map(|t| t.as_array().expect("term").iter().map(|a| a.as_str().expect("alternative")).collect())
            .collect();
        let lemmas: Vec<Lemma> = r["lemmas"]
            .as_array()
            .expect("lemmas")
            .iter()
            .map(|l| {
                let off = |k: &str| usize::try_from(l[k].as_u64().expect("offset")).expect("offset");
                Lemma::new(l["lemma"].as_str(), off("start"), off("end"))
            })
            .collect();
        let count = count_matches(hyp, &lemmas, &terms).map(|c| json!([c.exact, c.lemmatized, c.wrong()]));
        json!({
            "id": r["id"],
            "exact_direct": exact_matches(hyp, &terms),
            "lemmatized_raw": field(lemmatized_matches(hyp, &lemmas, &terms)),
            "count": field(count),
        })
    });
}
