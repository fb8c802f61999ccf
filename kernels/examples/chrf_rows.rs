//! Times the chrF kernels on the shared WMT rows:
//! `cargo run --release -p mteval-kernels --example chrf_rows [OPTIONS]`.
//! Sentence chrF on one thread over all 7,500 rows, then pairwise and
//! aggregate chrF on self-MBR groups of N = 64, 256, 1024 texts taken in
//! order from the non-empty hypotheses, en-de first (as in the shared
//! timings.md), on all cores.

use std::time::Instant;

use mteval_kernels::ChrfConfig;
use mteval_kernels::chrf::group::Group;

#[path = "common/mod.rs"]
mod common;

fn main() {
    let opts = common::options_arg();
    let cfg = ChrfConfig::parse(&opts).expect("options");
    let (rows, e) = common::timed_rows(|h, r| {
        std::hint::black_box(cfg.segment(h, &[r]));
    });
    println!(
        "sentence {}: {} rows in {e:.3}s = {:.0} rows/s (one thread)",
        cfg.name(),
        rows.len(),
        rows.len() as f64 / e
    );
    let texts: Vec<&str> = rows.iter().map(|(h, _)| h.as_str()).filter(|h| !h.is_empty()).collect();
    let fast = mteval_kernels::FastChrfOptions { word_order: cfg.word_order, ..Default::default() }.config();
    for n in [64usize, 256, 1024] {
        let group = &texts[..n];
        let t = Instant::now();
        let g = Group::new(&fast, group, None).expect("group");
        let m = g.expected_utility(false);
        let e = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let a = Group::new(&fast, group, None).expect("group").aggregate();
        let ea = t.elapsed().as_secs_f64();
        std::hint::black_box((m, a));
        println!("N={n}: pairwise {:.1} ms ({:.0} pairs/s), aggregate {:.2} ms", e * 1e3, (n * n) as f64 / e, ea * 1e3);
    }
}
