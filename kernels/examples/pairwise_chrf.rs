//! Times `pairwise_chrf` / `aggregate_chrf` the way fastchrf is timed (batch of
//! one group, hypotheses = references, best of R runs) and writes the scores
//! so a script can compare them with fastchrf's:
//! `pairwise_chrf TEXTS_FILE N REPEATS OUT_FILE [pairwise|aggregate]`.
//! `TEXTS_FILE` holds one text per line; the first N are used.

use std::io::Write;
use std::time::Instant;

use mteval_kernels::chrf::{FastChrfOptions, aggregate_chrf, pairwise_chrf};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    assert!(a.len() >= 5, "usage: pairwise_chrf TEXTS_FILE N REPEATS OUT_FILE [pairwise|aggregate]");
    let text = std::fs::read_to_string(&a[1]).expect("texts");
    let n: usize = a[2].parse().expect("N");
    let repeats: usize = a[3].parse().expect("REPEATS");
    let mode = a.get(5).map_or("pairwise", String::as_str);
    let texts: Vec<&str> = text.lines().take(n).collect();
    assert_eq!(texts.len(), n, "not enough texts");
    let batch = vec![texts];
    let o = FastChrfOptions::default();
    let mut best = f64::INFINITY;
    let mut rows: Vec<Vec<f64>> = Vec::new();
    for _ in 0..repeats {
        let t = Instant::now();
        rows = if mode == "aggregate" {
            vec![aggregate_chrf(&batch, &batch, &o).expect("aggregate").remove(0)]
        } else {
            pairwise_chrf(&batch, &batch, &o).expect("pairwise").remove(0)
        };
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mut f = std::io::BufWriter::new(std::fs::File::create(&a[4]).expect("out"));
    for r in &rows {
        let cells: Vec<String> = r.iter().map(|x| format!("{x:?}")).collect();
        writeln!(f, "[{}]", cells.join(",")).expect("write");
    }
    println!("{{\"seconds\": {best}}}");
}
