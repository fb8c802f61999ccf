//! CPU backend vs GPU backend on the shared WMT rows: sentence TER, edit
//! distance (WMT rows, and ~1 KB strings in GCUPS), character error rate on
//! 1M rows, sentence chrF and MBR pairwise chrF at N = 256, 1024, 4096.
//! Checks that both backends give the same statistics, then prints a
//! Markdown table (median of 3 runs, process warm, GPU transfers included).
//!
//! `cargo run --release -p mteval-kernels --example gpu_bench -- ../shared/data/wmt`
//! (`scripts/gpu-bench.sh` runs it on the GPU machine). Without a GPU only
//! the CPU column is filled.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mteval_kernels::backend::{self, Backend, Call, Observed, Seqs};
use mteval_kernels::chrf::group::Group;
use mteval_kernels::levenshtein::char_distances_on;
use mteval_kernels::wer::{Transform, Unit, WerConfig};
use mteval_kernels::{ChrfConfig, Ter};
use rayon::prelude::*;

#[path = "common/mod.rs"]
mod common;

fn median_secs(mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..3)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[1]
}

/// Prints where batched TER's time goes with `inner` scoring the candidates:
/// the whole call, and the time inside the scoring calls. With one part the
/// difference is the host's work (tokenising, each row's DP, trace and
/// candidates per round, batch layout, choice of shift); with more, parts
/// overlap and the scoring time is summed over them.
fn ter_breakdown(ter: &Ter, pairs: &[(&str, Vec<&str>)], inner: Arc<dyn Backend>, label: &str) {
    // (time in `ter_candidates`, calls, rows scored, candidates)
    let spent = Arc::new(Mutex::new((Duration::ZERO, 0usize, 0usize, 0usize)));
    let add = spent.clone();
    let timed = Observed::new(inner, move |call, t| {
        if let Call::TerCandidates { pairs, cands } = call {
            let mut s = add.lock().expect("lock");
            *s = (s.0 + t, s.1 + 1, s.2 + pairs, s.3 + cands);
        }
    });
    let runs: Vec<(Duration, (Duration, usize, usize, usize))> = (0..3)
        .map(|_| {
            *spent.lock().expect("lock") = Default::default();
            let start = Instant::now();
            drop(ter.segments_on(&timed, pairs));
            (start.elapsed(), *spent.lock().expect("lock"))
        })
        .collect();
    let mut by_total = runs;
    by_total.sort_by_key(|r| r.0);
    let (total, (scoring, rounds, rows, cands)) = by_total[1];
    println!(
        "batched TER, {label}: {:.3} s ({:.0} rows/s); {cands} candidates of {rows} row-rounds scored in \
         {rounds} calls taking {:.3} s together",
        total.as_secs_f64(),
        pairs.len() as f64 / total.as_secs_f64(),
        scoring.as_secs_f64(),
    );
}

/// Checks that `gpu` (when there is one) gives what `cpu` gives, then times
/// both: `(cpu seconds, gpu seconds)`.
fn both<T: PartialEq + std::fmt::Debug>(
    cpu: &dyn Backend,
    gpu: Option<&dyn Backend>,
    what: &str,
    run: impl Fn(&dyn Backend) -> T,
) -> (f64, Option<f64>) {
    let want = run(cpu);
    let c = median_secs(|| drop(run(cpu)));
    let g = gpu.map(|g| {
        assert_eq!(run(g), want, "{what} differs");
        median_secs(|| drop(run(g)))
    });
    (c, g)
}

/// One row of the table: `items` in `c` seconds on the CPU and `g` on the GPU.
fn report(name: &str, items: usize, unit: &str, c: f64, g: Option<f64>) {
    let rate = |s: f64| format!("{:.3} s ({:.0} {unit}/s)", s, items as f64 / s);
    println!(
        "| {name} | {items} | {} | {} | {} |",
        rate(c),
        g.map_or("-".into(), rate),
        g.map_or("-".into(), |g| format!("{:.1}×", c / g))
    );
}

/// Edit distance on long strings: WMT rows run together into pairs of
/// strings of at least 1,000 code points, in GCUPS (cells of the n x m
/// table per second, in billions).
fn long_strings(rows: &[(String, String)], cpu_b: &dyn Backend, gpu_b: Option<&dyn Backend>) {
    let joined = |side: fn(&(String, String)) -> &str, start: usize| {
        let mut s = String::new();
        let mut k = start;
        while s.chars().count() < 1000 {
            s.push_str(side(&rows[k % rows.len()]));
            s.push(' ');
            k += 1;
        }
        s
    };
    let long: Vec<(String, String)> = (0..32_768).map(|i| (joined(|r| &r.0, i), joined(|r| &r.1, i + 7))).collect();
    let long_pairs: Vec<(&str, &str)> = long.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let cells: f64 = long.iter().map(|(a, b)| a.chars().count() as f64 * b.chars().count() as f64).sum();
    let (c, g) = both(cpu_b, gpu_b, "edit distance on long strings", |b| char_distances_on(b, &long_pairs));
    // The device's share: the primitive on sequences already built
    // (ordering, transfers, kernel, results back).
    if let Some(gpu) = gpu_b {
        let a = Seqs::from_fn_par(long.len(), |i| long[i].0.chars().map(u32::from));
        let b = Seqs::from_fn_par(long.len(), |i| long[i].1.chars().map(u32::from));
        let s = median_secs(|| drop(gpu.levenshtein(&a, &b).expect("levenshtein")));
        println!(
            "edit distance on long strings, the GPU primitive alone (code points already in arrays, {} MB): \
             {s:.3} s ({:.0} GCUPS)",
            (a.data.len() + b.data.len()) * 4 / 1_000_000,
            cells / s / 1e9
        );
    }
    let gcups = |s: f64| format!("{:.3} s ({:.0} GCUPS)", s, cells / s / 1e9);
    let mean_len =
        long.iter().map(|(a, b)| a.chars().count() + b.chars().count()).sum::<usize>() as f64 / 2.0 / long.len() as f64;
    println!(
        "| edit_distance, ~1 KB strings (mean {mean_len:.0} code points) | {} | {} | {} | {} |",
        long.len(),
        gcups(c),
        g.map_or("-".into(), gcups),
        g.map_or("-".into(), |g| format!("{:.1}×", c / g))
    );
}

/// Character error rate (jiwer's cer, default transform: stripped strings,
/// characters) on 1M rows: the CPU column is the WER kernel's alignment
/// (counts for every measure), the GPU column the device's distances, which
/// are the errors (S + D + I) of that alignment; both give the same corpus
/// CER, bit for bit.
fn character_error_rate(rows: &[(String, String)], cpu_b: &dyn Backend, gpu_b: Option<&dyn Backend>) {
    let million: Vec<(&str, &str)> =
        (0..1_000_000).map(|i| &rows[i % rows.len()]).map(|(h, r)| (h.trim(), r.trim())).collect();
    let cer_cfg = WerConfig { unit: Unit::Char, transform: Transform::Default };
    let cpu_cer = || -> (u64, u64) {
        million
            .par_iter()
            .map(|(h, r)| cer_cfg.counts(h, r))
            .map(|c| (c.substitutions + c.deletions + c.insertions, c.ref_len))
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    };
    let ref_chars: u64 = million.par_iter().map(|(_, r)| r.chars().count() as u64).sum();
    let dist_cer = |b: &dyn Backend| -> (u64, u64) {
        (
            char_distances_on(b, &million).iter().map(|&d| d as u64).sum(),
            million.par_iter().map(|(_, r)| r.chars().count() as u64).sum(),
        )
    };
    let want = cpu_cer();
    assert_eq!(want.1, ref_chars, "reference characters");
    assert_eq!(dist_cer(cpu_b), want, "CER from distances (CPU backend) against the WER kernel");
    let c = median_secs(|| {
        std::hint::black_box(cpu_cer());
    });
    let g = gpu_b.map(|g| {
        assert_eq!(dist_cer(g), want, "CER from GPU distances");
        median_secs(|| {
            std::hint::black_box(dist_cer(g));
        })
    });
    println!(
        "corpus CER over 1M rows: {} ({} errors / {} reference characters)",
        want.0 as f64 / want.1 as f64,
        want.0,
        want.1
    );
    report("character error rate (jiwer cer; CPU: alignment, GPU: distances)", million.len(), "rows", c, g);
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "../shared/data/wmt".into());
    let rows = common::wmt_rows(&dir);
    let cpu = backend::cpu();
    let gpu: Option<Arc<dyn Backend>> = match backend::gpu() {
        Ok(g) => Some(g),
        Err(e) => {
            eprintln!("no GPU ({e}): CPU column only");
            None
        }
    };
    println!(
        "rows: {} WMT22 (hyp, ref) pairs; CPU: {}; GPU: {}",
        rows.len(),
        cpu.name(),
        gpu.as_ref().map_or("none".into(), |g| g.name())
    );
    println!();
    println!("| workload | items | CPU backend | GPU backend | GPU / CPU |");
    println!("|---|---:|---:|---:|---:|");
    let (cpu_b, gpu_b) = (cpu.as_ref(), gpu.as_deref());
    // GPU_BENCH_ONLY=long or chrf: the long-string edit distances alone, or
    // the chrF rows alone (for a profiler).
    let only = std::env::var("GPU_BENCH_ONLY").unwrap_or_default();
    if only == "long" {
        long_strings(&rows, cpu_b, gpu_b);
        return;
    }
    let pairs: Vec<(&str, Vec<&str>)> = rows.iter().map(|(h, r)| (h.as_str(), vec![r.as_str()])).collect();
    let ter = Ter::default();
    if only != "chrf" {
        let (c, g) = both(cpu_b, gpu_b, "TER", |b| ter.segments_on(b, &pairs));
        report("sentence TER", pairs.len(), "rows", c, g);

        let ed: Vec<(&str, &str)> = rows.iter().map(|(h, r)| (h.as_str(), r.as_str())).collect();
        let (c, g) = both(cpu_b, gpu_b, "edit distance", |b| char_distances_on(b, &ed));
        report("edit_distance (code points)", ed.len(), "pairs", c, g);

        long_strings(&rows, cpu_b, gpu_b);
        character_error_rate(&rows, cpu_b, gpu_b);
    }

    let cfg = ChrfConfig::default();
    let (c, g) = both(cpu_b, gpu_b, "chrF", |b| cfg.segments_on(b, &pairs));
    report("sentence chrF", pairs.len(), "rows", c, g);

    for n in [256usize, 1024, 4096] {
        // N distinct WMT sentences (hypotheses, then references when short of hypotheses).
        let mut seen = std::collections::HashSet::new();
        let texts: Vec<&str> =
            rows.iter().flat_map(|(h, r)| [h.as_str(), r.as_str()]).filter(|s| seen.insert(*s)).take(n).collect();
        // Strings in, matrix out: the group (characters, words; n-gram
        // profiles for the CPU backend) is built inside the timed call.
        let (c, g) = both(cpu_b, gpu_b, &format!("pairwise chrF at N = {n}"), |b| {
            let group = Group::new(&cfg, &texts, None).expect("group");
            group.pairwise_map_on(b, |_, row| row.iter().map(|x| x.to_bits()).sum::<u64>())
        });
        report(&format!("pairwise chrF N = {}", texts.len()), texts.len() * texts.len(), "pairs", c, g);
    }
    println!();
    println!("pairwise chrF: strings in, N × N chrF out (the group's n-grams built inside the timed call)");
    if only == "chrf" {
        return;
    }
    // Batched TER at each pipeline depth (parts of the rows whose rounds run
    // at once) and CPU tail (fewest unfinished rows for a round on the
    // device), then back to the defaults.
    let defaults = (backend::ter_pipeline(), backend::ter_cpu_tail());
    println!("batched TER (defaults: {} parts, CPU tail below {} rows):", defaults.0, defaults.1);
    for depth in [1, 2, 3, 4] {
        for tail in [0, 32, 128, 512] {
            backend::set_ter_pipeline(depth);
            backend::set_ter_cpu_tail(tail);
            let label = format!("{depth} part(s), CPU tail below {tail} rows");
            match &gpu {
                Some(g) => ter_breakdown(&ter, &pairs, g.clone(), &format!("GPU scoring, {label}")),
                None => ter_breakdown(&ter, &pairs, cpu.clone(), &format!("CPU stand-in for the GPU, {label}")),
            }
        }
    }
    backend::set_ter_pipeline(defaults.0);
    backend::set_ter_cpu_tail(defaults.1);
    assert_eq!(backend::fallback_count(), 0, "a GPU batch fell back to the CPU");
}
