//! Loading the shared golden data (`../shared/data`, or `$MTEVAL_SHARED_DIR`).
//! Shared by the kernels' and the application's integration tests.
#![allow(dead_code, reason = "each test binary that includes this module uses a different part of it")]

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;

/// The `shared/` directory beside the repository (or `$MTEVAL_SHARED_DIR`).
pub fn shared_dir() -> PathBuf {
    if let Ok(d) = std::env::var("MTEVAL_SHARED_DIR") {
        return PathBuf::from(d);
    }
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let cand = dir.join("shared").join("data").join("golden");
        if cand.is_dir() {
            return dir.join("shared");
        }
        let sib = dir.join("..").join("shared").join("data").join("golden");
        if sib.is_dir() {
            return dir.join("..").join("shared");
        }
        assert!(
            dir.pop(),
            "cannot find shared/data/golden above {}; set MTEVAL_SHARED_DIR",
            env!("CARGO_MANIFEST_DIR")
        );
    }
}

pub fn read_jsonl(rel: &str) -> Vec<Value> {
    let p = shared_dir().join(rel);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("json line")).collect()
}

/// The `(pair, system, seg_id)` of a golden sentence-level record: its key
/// in [`WmtIndex`] and [`golden_by_segment`].
pub fn segment_key(r: &Value) -> (String, String, i64) {
    (r["pair"].as_str().unwrap().to_owned(), r["system"].as_str().unwrap().to_owned(), r["seg_id"].as_i64().unwrap())
}

/// The golden sentence-level records of `rel` by `(pair, system, seg_id)`.
#[allow(dead_code, reason = "each test binary that includes this module uses a different part of it")]
pub fn golden_by_segment(rel: &str) -> std::collections::HashMap<(String, String, i64), Value> {
    read_jsonl(rel).into_iter().map(|r| (segment_key(&r), r)).collect()
}

/// The golden corpus record of one system, reference set and variant among `records`.
pub fn find_corpus<'a>(records: &'a [Value], pair: &str, system: &str, refs: &str, variant: &str) -> Option<&'a Value> {
    records.iter().find(|g| g["pair"] == pair && g["system"] == system && g["refs"] == refs && g["variant"] == variant)
}

/// The golden corpus score of `rel` (e.g. `data/golden/ter_corpus.jsonl`)
/// for one system, reference set and variant.
#[allow(dead_code, reason = "each test binary that includes this module uses a different part of it")]
pub fn golden_corpus(rel: &str, pair: &str, system: &str, refs: &str, variant: &str) -> f64 {
    find_corpus(&read_jsonl(rel), pair, system, refs, variant)
        .unwrap_or_else(|| panic!("{rel}: no {pair} {system} {refs} {variant}"))["score"]
        .as_f64()
        .unwrap()
}

pub fn read_json(rel: &str) -> Value {
    let p = shared_dir().join(rel);
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display())))
        .expect("json")
}

/// One WMT row (`wmt/<pair>.jsonl`).
#[derive(Debug, Clone)]
pub struct WmtRow {
    pub pair: String,
    pub system: String,
    pub seg_id: i64,
    pub hyp: String,
    pub r#ref: String,
    pub ref2: Option<String>,
}

pub const PAIRS: [&str; 5] = ["en-de", "de-en", "zh-en", "en-zh", "en-ja"];

/// WMT rows keyed by (pair, system, `seg_id`).
pub type WmtIndex = HashMap<(String, String, i64), WmtRow>;

/// All WMT rows keyed by (pair, system, `seg_id`), plus the rows in file order.
pub fn wmt_rows() -> (WmtIndex, Vec<WmtRow>) {
    let mut map = HashMap::new();
    let mut all = Vec::new();
    for pair in PAIRS {
        for v in read_jsonl(&format!("data/wmt/{pair}.jsonl")) {
            let row = WmtRow {
                pair: pair.to_owned(),
                system: v["system"].as_str().unwrap().to_owned(),
                seg_id: v["seg_id"].as_i64().unwrap(),
                hyp: v["hyp"].as_str().unwrap().to_owned(),
                r#ref: v["ref"].as_str().unwrap().to_owned(),
                ref2: v["ref2"].as_str().map(str::to_owned),
            };
            map.insert((row.pair.clone(), row.system.clone(), row.seg_id), row.clone());
            all.push(row);
        }
    }
    (map, all)
}

/// TER option strings (mteval syntax) for the golden variant names.
pub fn ter_variant_options(variant: &str) -> &'static str {
    match variant {
        "default" => "",
        "case_sensitive" => "case:mixed",
        "normalized" => "norm:yes",
        "no_punct" => "punct:no",
        "asian_support" => "asian:yes",
        "normalized_asian" => "norm:yes|asian:yes",
        "no_punct_asian" => "punct:no|asian:yes",
        "all" => "norm:yes|punct:no|asian:yes|case:mixed",
        _ => panic!("unknown TER variant {variant}"),
    }
}

pub const TER_VARIANTS: [&str; 8] = [
    "default",
    "case_sensitive",
    "normalized",
    "no_punct",
    "asian_support",
    "normalized_asian",
    "no_punct_asian",
    "all",
];

/// sacrebleu keyword options (`{"normalized": true, ...}`) to mteval syntax.
pub fn ter_options_from_json(o: &Value) -> String {
    let b = |k: &str| o.get(k).and_then(Value::as_bool).unwrap_or(false);
    let mut parts = Vec::new();
    if b("case_sensitive") {
        parts.push("case:mixed");
    }
    if b("normalized") {
        parts.push("norm:yes");
    }
    if b("no_punct") {
        parts.push("punct:no");
    }
    if b("asian_support") {
        parts.push("asian:yes");
    }
    parts.join("|")
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// One language pair as the repository's golden generators read it
/// (`scripts/_common.py::load_pair`): systems sorted by name, each system's
/// hypotheses in `seg_id` order, and the baseline's (first system's)
/// references, `ref` then `ref2` where present.
pub struct Pair {
    pub systems: Vec<(String, Vec<String>)>,
    pub refs: Vec<Vec<String>>,
}

/// The cases of the repository's golden file `name` (`{"cases": [{"pair",
/// ...}]}`), each with its language pair's systems with one reference and
/// with two (each pair loaded once).
pub fn golden_pair_cases(name: &str) -> Vec<(Value, std::rc::Rc<(Pair, Pair)>)> {
    let mut loaded: HashMap<String, std::rc::Rc<(Pair, Pair)>> = HashMap::new();
    let golden = repo_golden(name);
    golden["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let pair = case["pair"].as_str().unwrap();
            let data = loaded
                .entry(pair.to_owned())
                .or_insert_with(|| std::rc::Rc::new((load_pair(pair, false), load_pair(pair, true))));
            (case.clone(), data.clone())
        })
        .collect()
}

pub fn load_pair(pair: &str, two_refs: bool) -> Pair {
    let (_, rows) = wmt_rows();
    let mut rows: Vec<WmtRow> = rows.into_iter().filter(|r| r.pair == pair).collect();
    rows.sort_by(|a, b| (&a.system, a.seg_id).cmp(&(&b.system, b.seg_id)));
    let mut systems: Vec<(String, Vec<String>)> = Vec::new();
    let mut refs = Vec::new();
    for r in &rows {
        if systems.last().is_none_or(|(s, _)| *s != r.system) {
            systems.push((r.system.clone(), Vec::new()));
        }
        let first = systems.len() == 1;
        systems.last_mut().unwrap().1.push(r.hyp.clone());
        if first {
            let mut v = vec![r.r#ref.clone()];
            if two_refs && let Some(r2) = &r.ref2 {
                v.push(r2.clone());
            }
            refs.push(v);
        }
    }
    Pair { systems, refs }
}

/// A file of the repository's own golden data (`tests/golden/`), generated
/// by `scripts/make_*_golden.py` with the pinned reference tools.
pub fn repo_golden(name: &str) -> Value {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let p = [here.join("tests"), here.join("..").join("tests")]
        .into_iter()
        .map(|t| t.join("golden").join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("tests/golden/{name} not found from {}", here.display()));
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display())))
        .expect("json")
}

/// The score `formula` gives segment `i` (from 0) of the `s`-th system
/// (sorted by name, from 0): `seeded_score` of
/// `scripts/make_significance_golden.py`, the score columns of its
/// segment-score cases (integer arithmetic, then one or two float
/// operations, so Python and Rust get the same doubles).
#[allow(clippy::cast_precision_loss, reason = "the integers are below 10,007")]
pub fn seeded_score(formula: &str, s: usize, i: usize) -> f64 {
    match formula {
        "frac" => ((i * 7919 + s * 104_729) % 10_007) as f64 / 10_007.0,
        "neg" => ((i * 31 + s * 977 + (i * i) % 13) % 2501) as f64 / 100.0 - 5.0,
        _ => panic!("unknown seeded score formula {formula}"),
    }
}
