//! Scores WER cases for `scripts/diff_wer.py`:
//! `cargo run --release -q --example wer_cases < cases.jsonl` (in `kernels/`).
//!
//! Each stdin line is `{"id", "opts", "rows": [{"hyp", "refs": [str, ...]}, ...],
//! "visual": null | {"show_measures", "skip_correct", "line_width": null | int}}`;
//! each output line is `{"id", "rows": [{"ref_index", "counts": [H, S, D, I, N, P],
//! "chunks": [[tag, ref_start, ref_end, hyp_start, hyp_end], ...]}, ...],
//! "wer", "mer", "wil", "wip", "visual": null | str}` (the measures of the
//! summed counts), or `{"id", "error"}`.

use mteval_kernels::wer::{VisualizeOptions, WerConfig, WerCounts};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;

fn case(r: &Value) -> Result<Value, String> {
    let cfg = WerConfig::parse(r["opts"].as_str().unwrap_or("")).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    let mut alignments = Vec::new();
    let mut total = WerCounts::default();
    for row in r["rows"].as_array().ok_or("rows")? {
        let hyp = row["hyp"].as_str().ok_or("hyp")?;
        let refs: Vec<&str> = row["refs"].as_array().ok_or("refs")?.iter().filter_map(Value::as_str).collect();
        let a = cfg.alignment(hyp, &refs).ok_or("no reference")?;
        // The counts-only path must agree with the alignment.
        let (k, c) = cfg.best(hyp, &refs).ok_or("no reference")?;
        if (k, c) != (a.ref_index, a.counts) {
            return Err(format!("best() {k} {c:?} differs from alignment() {} {:?}", a.ref_index, a.counts));
        }
        total.add(&a.counts);
        let c = a.counts;
        rows.push(json!({
            "ref_index": a.ref_index,
            "counts": [c.hits, c.substitutions, c.deletions, c.insertions, c.ref_len, c.hyp_len],
            "chunks": a.chunks.iter().map(|c| json!([c.kind.name(), c.ref_start, c.ref_end, c.hyp_start, c.hyp_end]))
                .collect::<Vec<_>>(),
        }));
        alignments.push(a);
    }
    let visual = match &r["visual"] {
        Value::Object(v) => {
            let opts = VisualizeOptions {
                show_measures: v["show_measures"].as_bool().unwrap_or(true),
                skip_correct: v["skip_correct"].as_bool().unwrap_or(true),
                line_width: v["line_width"].as_u64().and_then(|w| usize::try_from(w).ok()),
            };
            Value::String(cfg.visualize(&alignments, opts))
        }
        _ => Value::Null,
    };
    let s = total.scores();
    Ok(json!({
        "id": r["id"], "rows": rows, "wer": s.wer, "mer": s.mer, "wil": s.wil, "wip": s.wip, "visual": visual,
    }))
}

fn main() {
    common::answer_json_lines(|r| case(r).unwrap_or_else(|e| json!({ "id": r["id"], "error": e })));
}
