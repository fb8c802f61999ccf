//! Times sentence TER over the shared WMT rows on one thread:
//! `cargo run --release -p mteval-kernels --example ter_rows [OPTIONS]`.

use std::time::Instant;

use mteval_kernels::Ter;

fn main() {
    let shared = std::env::var("MTEVAL_SHARED_DIR").unwrap_or_else(|_| "../shared".into());
    let opts = std::env::args().nth(1).unwrap_or_default();
    let ter = Ter::from_options(&opts).expect("options");
    let mut rows = Vec::new();
    for pair in ["en-de", "de-en", "zh-en", "en-zh", "en-ja"] {
        let text = std::fs::read_to_string(format!("{shared}/data/wmt/{pair}.jsonl")).expect("wmt rows");
        for l in text.lines() {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            rows.push((v["hyp"].as_str().unwrap_or("").to_owned(), v["ref"].as_str().unwrap_or("").to_owned(), pair));
        }
    }
    let t = Instant::now();
    let mut per_pair = std::collections::BTreeMap::new();
    for (h, r, p) in &rows {
        let t0 = Instant::now();
        let s = ter.segment(h, &[r.as_str()]).expect("ter").expect("segment");
        std::hint::black_box(s);
        *per_pair.entry(*p).or_insert(0.0) += t0.elapsed().as_secs_f64();
    }
    let e = t.elapsed().as_secs_f64();
    println!(
        "{} rows in {e:.3}s = {:.0} rows/s (one thread); per pair: {per_pair:?}",
        rows.len(),
        rows.len() as f64 / e
    );
}
