//! Times BLEU's tokenizer and segment statistics over the shared WMT rows on
//! one thread, hypothesis and reference, the best of five passes:
//! `cargo run --release -p mteval-kernels --example bleu_rows [OPTIONS]`
//! (e.g. `tok:intl`, `tok:char`; default sacrebleu's `13a`).

use std::time::Instant;

use mteval_kernels::BleuConfig;

#[path = "common/mod.rs"]
mod common;

fn main() {
    let bleu = BleuConfig::parse(&common::options_arg()).expect("options");
    let rows = common::wmt_rows_by_pair(&common::shared_wmt_dir());
    let best = |pass: &dyn Fn() -> usize| {
        (0..5)
            .map(|_| {
                let t = Instant::now();
                let out = pass();
                (t.elapsed().as_secs_f64(), out)
            })
            .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a })
    };
    let (tokenize, chars) = best(&|| {
        rows.iter().map(|(h, r, _)| std::hint::black_box(bleu.preprocess(h)).len() + bleu.preprocess(r).len()).sum()
    });
    let (segment, _) = best(&|| {
        rows.iter()
            .map(|(h, r, _)| std::hint::black_box(bleu.segment(h, &[r.as_str()]).expect("a reference")).len())
            .sum()
    });
    println!(
        "{} rows: tokenizing both sides {tokenize:.3}s = {:.0} rows/s ({chars} bytes out); statistics {segment:.3}s = \
         {:.0} rows/s (one thread)",
        rows.len(),
        rows.len() as f64 / tokenize,
        rows.len() as f64 / segment
    );
}
