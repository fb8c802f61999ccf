//! CPU backend vs GPU backend on the shared WMT rows: sentence TER, edit
//! distance (WMT rows, and ~1 KB strings in GCUPS), character error rate on
//! 1M rows, sentence chrF and MBR pairwise chrF at N = 256, 1024, 4096.
//! Checks that both backends give the same statistics, then prints a
//! Markdown table (median of 3 runs, process warm, GPU transfers included).
//! Then the GPU-scale workloads: sentence TER and chrF on 1,000,000 rows
//! (the shared rows repeated), MBR with the chrF utility at N = 1024 and
//! 4096 samples for each of `GPU_BENCH_SOURCES` (100) sources (one run each;
//! the first source checked against the CPU).
//!
//! With `GPU_BENCH_JSON=FILE`, every workload is also appended to FILE as a
//! JSON line: `device`, `date` (`GPU_BENCH_DATE`), `workload`, `rows`,
//! `cpu_s`, `gpu_s`, `ratio` and, for edit distances, `gcups`.
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

/// Prints where batched TER's time goes with `inner` searching: the whole
/// call, and the time inside the search calls. With one part the
/// difference is the host's work (tokenising, mapping words to ids); with
/// more, parts overlap and the search time is summed over them.
fn ter_breakdown(ter: &Ter, pairs: &[(&str, Vec<&str>)], inner: Arc<dyn Backend>, label: &str) {
    // (time in `shift_search`, calls, pairs searched)
    let spent = Arc::new(Mutex::new((Duration::ZERO, 0usize, 0usize)));
    let add = spent.clone();
    let timed = Observed::new(inner, move |call, t| {
        if let Call::ShiftSearch { pairs } = call {
            let mut s = add.lock().expect("lock");
            *s = (s.0 + t, s.1 + 1, s.2 + pairs);
        }
    });
    let runs: Vec<(Duration, (Duration, usize, usize))> = (0..3)
        .map(|_| {
            *spent.lock().expect("lock") = Default::default();
            let start = Instant::now();
            drop(ter.segments_on(&timed, pairs));
            (start.elapsed(), *spent.lock().expect("lock"))
        })
        .collect();
    let mut by_total = runs;
    by_total.sort_by_key(|r| r.0);
    let (total, (search, calls, searched)) = by_total[1];
    println!(
        "batched TER, {label}: {:.3} s ({:.0} rows/s); {searched} pairs searched in {calls} calls taking {:.3} s \
         together",
        total.as_secs_f64(),
        pairs.len() as f64 / total.as_secs_f64(),
        search.as_secs_f64(),
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

/// The GPU's name as the driver gives it (`GpuBackend`'s description
/// without its `cuda: ` prefix), or "none".
static DEVICE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Appends one workload to `$GPU_BENCH_JSON` as a JSON line.
fn record(workload: &str, rows: usize, c: f64, g: Option<f64>, gcups: Option<f64>) {
    let Ok(path) = std::env::var("GPU_BENCH_JSON") else { return };
    let mut v = serde_json::json!({
        "device": DEVICE.get().map_or("none", String::as_str),
        "date": std::env::var("GPU_BENCH_DATE").unwrap_or_default(),
        "workload": workload,
        "rows": rows,
        "cpu_s": c,
        "gpu_s": g,
        "ratio": g.map(|g| c / g),
    });
    if let Some(x) = gcups {
        v["gcups"] = serde_json::json!(x);
    }
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&path).expect("GPU_BENCH_JSON");
    std::io::Write::write_all(&mut f, format!("{v}\n").as_bytes()).expect("GPU_BENCH_JSON");
}

/// One row of the table: `items` in `c` seconds on the CPU and `g` on the GPU.
fn report(name: &str, items: usize, unit: &str, c: f64, g: Option<f64>) {
    record(name, items, c, g, None);
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
        let s = median_secs(|| drop(gpu.edit_distances(&a, &b).expect("levenshtein")));
        println!(
            "edit distance on long strings, the GPU primitive alone (code points already in arrays, {} MB): \
             {s:.3} s ({:.0} GCUPS)",
            (a.data.len() + b.data.len()) * 4 / 1_000_000,
            cells / s / 1e9
        );
        // Where the strings-in time goes: the host's counting and packing,
        // then the backend call (with MTEVAL_GPU_TRACE=1, each device
        // operation on stderr).
        let t = Instant::now();
        let la: Vec<usize> = long_pairs.par_iter().map(|(a, _)| a.chars().count()).collect();
        let lb: Vec<usize> = long_pairs.par_iter().map(|(_, b)| b.chars().count()).collect();
        let count_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let ta = backend::Texts::from_fn_par(long_pairs.len(), &la, |i| long_pairs[i].0).expect("texts");
        let tb = backend::Texts::from_fn_par(long_pairs.len(), &lb, |i| long_pairs[i].1).expect("texts");
        let pack_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        drop(gpu.edit_distances_text(&ta, &tb).expect("levenshtein_text"));
        println!(
            "edit distance on long strings, strings in, parts: counting code points {:.1} ms, laying out the batch \
             {:.1} ms, backend call (UTF-8 packed into staging memory, copies, kernels) {:.1} ms",
            count_s * 1e3,
            pack_s * 1e3,
            t.elapsed().as_secs_f64() * 1e3
        );
        record(
            "edit distance 1KB, GPU primitive alone (code points on the host)",
            long.len(),
            f64::NAN,
            Some(s),
            Some(cells / s / 1e9),
        );
        // The one-warp-per-pair kernel from each pattern size on (blocks of
        // 64 symbols), strings in.
        #[cfg(feature = "cuda")]
        for blocks in [0usize, 4, 8, 16, usize::MAX] {
            let Ok(exec) = backend::cuda::CudaExec::probe() else { break };
            let g = backend::GpuBackend::new(exec).with_lev_warp_blocks(blocks);
            let want = char_distances_on(cpu_b, &long_pairs);
            assert_eq!(char_distances_on(&g, &long_pairs), want, "lev_warp from {blocks} blocks");
            let s = median_secs(|| drop(char_distances_on(&g, &long_pairs)));
            let label = if blocks == usize::MAX { "never".to_owned() } else { format!("from {blocks} blocks") };
            println!(
                "edit distance on long strings, strings in, lev_warp {label}: {s:.3} s ({:.0} GCUPS)",
                cells / s / 1e9
            );
            record(
                &format!("edit distance 1KB, lev_warp {label}"),
                long.len(),
                f64::NAN,
                Some(s),
                Some(cells / s / 1e9),
            );
        }
    }
    record("edit distance 1KB", long.len(), c, g, g.map(|g| cells / g / 1e9));
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

/// The workloads at the scale a GPU user works at: sentence TER and chrF on
/// 1,000,000 rows, MBR with the chrF utility at N = 1024 and 4096 samples
/// for each of `GPU_BENCH_SOURCES` sources. One timed run each (after a
/// checked run on a slice), since a run is seconds long.
fn gpu_scale(rows: &[(String, String)], cpu_b: &dyn Backend, gpu_b: Option<&dyn Backend>) {
    let once = |f: &dyn Fn()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    let n_rows: usize = std::env::var("GPU_BENCH_ROWS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let million: Vec<(&str, Vec<&str>)> =
        (0..n_rows).map(|i| &rows[i % rows.len()]).map(|(h, r)| (h.as_str(), vec![r.as_str()])).collect();
    let check = &million[..million.len().min(50_000)];
    let ter = Ter::default();
    let cfg = ChrfConfig::default();
    if let Some(g) = gpu_b {
        assert_eq!(ter.segments_on(g, check), ter.segments_on(cpu_b, check), "TER at scale");
        assert_eq!(cfg.segments_on(g, check), cfg.segments_on(cpu_b, check), "chrF at scale");
    }
    let c = once(&|| drop(ter.segments_on(cpu_b, &million)));
    let g = gpu_b.map(|g| once(&|| drop(ter.segments_on(g, &million))));
    report("sentence TER", million.len(), "rows", c, g);
    assert_eq!(backend::fallback_count(), 0, "a GPU batch fell back to the CPU");
    let c = once(&|| drop(cfg.segments_on(cpu_b, &million)));
    let g = gpu_b.map(|g| once(&|| drop(cfg.segments_on(g, &million))));
    report("sentence chrF", million.len(), "rows", c, g);
    assert_eq!(backend::fallback_count(), 0, "a GPU batch fell back to the CPU");
    let sources: usize = std::env::var("GPU_BENCH_SOURCES").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let mut seen = std::collections::HashSet::new();
    let distinct: Vec<&str> =
        rows.iter().flat_map(|(h, r)| [h.as_str(), r.as_str()]).filter(|s| seen.insert(*s)).collect();
    // GPU_BENCH_MBR_N: the sample counts (default "1024 4096").
    let sizes: Vec<usize> = std::env::var("GPU_BENCH_MBR_N")
        .unwrap_or_else(|_| "1024 4096".into())
        .split_whitespace()
        .map(|v| v.parse().expect("GPU_BENCH_MBR_N"))
        .collect();
    for n in sizes {
        // Source k: N distinct sentences from position 37 k on.
        let group = |k: usize| -> Vec<&str> { (0..n).map(|i| distinct[(37 * k + i) % distinct.len()]).collect() };
        let skip: Vec<Option<usize>> = (0..n).map(Some).collect();
        let mbr = |b: &dyn Backend, k: usize| {
            let texts = group(k);
            let g = Group::new(&cfg, &texts, None).expect("group");
            g.expected_utility_skipping_on(b, &skip)
        };
        if let Some(g) = gpu_b {
            assert_eq!(mbr(g, 0), mbr(cpu_b, 0), "MBR chrF at N = {n}");
        }
        let c = once(&|| (0..sources).for_each(|k| drop(mbr(cpu_b, k))));
        let g = gpu_b.map(|g| once(&|| (0..sources).for_each(|k| drop(mbr(g, k)))));
        report(&format!("MBR chrF N={n} x {sources} sources"), n * sources, "samples", c, g);
        assert_eq!(backend::fallback_count(), 0, "a GPU batch fell back to the CPU");
    }
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "../shared/data/wmt".into());
    let rows = common::wmt_rows(&dir);
    let cpu = backend::cpu();
    // GPU_BENCH_EMULATED=1: the kernels emulated on the CPU stand in for the
    // GPU (to check the workloads, with MTEVAL_EMU_CXXFLAGS=-fsanitize=address
    // for out-of-bounds accesses, on a machine without one).
    let emulated = std::env::var("GPU_BENCH_EMULATED").is_ok_and(|v| v == "1");
    let gpu: Option<Arc<dyn Backend>> = match if emulated {
        backend::emulate::EmuExec::build()
            .map(|e| Arc::new(backend::GpuBackend::new(e)) as Arc<dyn Backend>)
            .map_err(backend::BackendError::Unavailable)
    } else {
        backend::gpu()
    } {
        Ok(g) => Some(g),
        Err(e) => {
            eprintln!("no GPU ({e}): CPU column only");
            None
        }
    };
    DEVICE.get_or_init(|| {
        gpu.as_ref().map_or("none".into(), |g| {
            let name = g.name();
            let name = name.trim_start_matches("cuda: ");
            name.rsplit_once(" (sm_").map_or(name, |(n, _)| n).to_owned()
        })
    });
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
    if only == "scale" || only.is_empty() {
        println!("GPU scale:");
        gpu_scale(&rows, cpu_b, gpu_b);
        println!();
        if only == "scale" {
            return;
        }
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
    if only == "chrf" || std::env::var("GPU_BENCH_SWEEP").is_ok_and(|v| v == "0") {
        assert_eq!(backend::fallback_count(), 0, "a GPU batch fell back to the CPU");
        return;
    }
    // Batched TER at each pipeline depth (parts of the rows searched at
    // once), then back to the default.
    let default = backend::ter_pipeline();
    println!("batched TER (default: {default} parts):");
    for depth in [1, 2, 3, 4] {
        backend::set_ter_pipeline(depth);
        let label = format!("{depth} part(s)");
        match &gpu {
            Some(g) => ter_breakdown(&ter, &pairs, g.clone(), &format!("GPU search, {label}")),
            None => ter_breakdown(&ter, &pairs, cpu.clone(), &format!("CPU stand-in for the GPU, {label}")),
        }
    }
    backend::set_ter_pipeline(default);
    assert_eq!(backend::fallback_count(), 0, "a GPU batch fell back to the CPU");
}
