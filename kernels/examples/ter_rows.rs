//! Times sentence TER over the shared WMT rows on one thread:
//! `cargo run --release -p mteval-kernels --example ter_rows [OPTIONS]`.

use std::time::Instant;

use mteval_kernels::Ter;

#[path = "common/mod.rs"]
mod common;

fn main() {
    let ter = Ter::from_options(&common::options_arg()).expect("options");
    let rows = common::wmt_rows_by_pair(&common::shared_wmt_dir());
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
