//! Times the `CharacTER` kernel on the shared WMT rows, one thread:
//! `cargo run --release -p mteval-kernels --example cer_rows [OPTIONS]`.

use std::time::Instant;

use mteval_kernels::CharacTerConfig;

#[path = "common/mod.rs"]
mod common;

fn main() {
    let opts = common::options_arg();
    let cfg = CharacTerConfig::parse(&opts).expect("options");
    let mut sum = 0.0;
    let (rows, e) = common::timed_rows(|h, r| sum += cfg.sentence(h, r).expect("row within the length limit"));
    let mut buckets = [(0usize, 0.0f64); 5];
    for (h, r) in &rows {
        let n = h.split_whitespace().count();
        let b = match n {
            0..=20 => 0,
            21..=40 => 1,
            41..=80 => 2,
            81..=120 => 3,
            _ => 4,
        };
        let t = Instant::now();
        std::hint::black_box(cfg.sentence(h, r).ok());
        buckets[b].0 += 1;
        buckets[b].1 += t.elapsed().as_secs_f64();
    }
    for (b, (n, s)) in ["<=20", "21-40", "41-80", "81-120", ">120"].iter().zip(buckets) {
        println!("  hyp words {b}: {n} rows, {s:.3}s");
    }
    {
        use rayon::prelude::*;
        let t = Instant::now();
        let s: f64 = rows.par_iter().with_min_len(16).map(|(h, r)| cfg.sentence(h, r).unwrap_or(f64::NAN)).sum();
        let e = t.elapsed().as_secs_f64();
        println!("all cores: {} rows in {e:.3}s = {:.0} rows/s (sum {s:.3})", rows.len(), rows.len() as f64 / e);
    }
    println!(
        "CharacTER ({opts}): {} rows in {e:.3}s = {:.0} rows/s (one thread), mean {:.6}",
        rows.len(),
        rows.len() as f64 / e,
        sum / rows.len() as f64
    );
}
