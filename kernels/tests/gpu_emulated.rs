//! The GPU backend's whole host path with the CUDA C kernels compiled for
//! the CPU (`kernels/cuda/emu`): runs everywhere a C++ compiler is present,
//! no GPU needed. Set `MTEVAL_REQUIRE_EMU=1` (CI does) to fail instead of
//! skipping when no compiler is found.

mod backend_parity;
mod common;

use mteval_kernels::backend::emulate::EmuExec;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mteval_kernels::backend::{AutoBackend, Backend, GpuBackend, Observed, Seqs, Work, fallback_count};
use mteval_kernels::chrf::group::Group;
use mteval_kernels::levenshtein::char_distances_on;
use mteval_kernels::{ChrfConfig, Ter};

fn emulated() -> Option<GpuBackend<EmuExec>> {
    match EmuExec::build() {
        Ok(e) => Some(GpuBackend::new(e)),
        Err(e) if std::env::var("MTEVAL_REQUIRE_EMU").is_ok_and(|v| v == "1") => panic!("{e}"),
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

/// A test that runs the parity check `backend_parity::$check(&gpu, ARGS)`
/// on the emulated backend, where there is one.
macro_rules! parity_test {
    ($name:ident: $check:ident($($arg:expr),*)) => {
        #[test]
        fn $name() {
            let Some(gpu) = emulated() else { return };
            backend_parity::$check(&gpu $(, $arg)*);
        }
    };
}

parity_test!(levenshtein_kernel_equals_cpu: check_levenshtein(300));

/// Every edit distance through the one-warp-per-pair kernel (its 32 lanes
/// emulated as 32 contexts of one host thread), short patterns included.
#[test]
fn levenshtein_warp_kernel_equals_cpu() {
    let Some(gpu) = emulated() else { return };
    backend_parity::check_levenshtein(&gpu.with_lev_warp_blocks(0), 40);
}
parity_test!(ter_search_kernel_equals_cpu: check_ter(400));

/// Stress rounds of TER's search kernel: fresh random pairs from several seeds.
#[test]
fn ter_search_kernel_stress() {
    let Some(gpu) = emulated() else { return };
    for seed in 100..104 {
        backend_parity::check_ter_search(&gpu, seed, 1500);
    }
}
parity_test!(chrf_kernels_equal_cpu: check_chrf(800));
parity_test!(mbr_kernels_equal_cpu: check_mbr(12));

#[test]
fn ter_band_beyond_the_kernels_ring_is_searched_on_the_cpu() {
    let Some(gpu) = emulated() else { return };
    // A reference 100 times its hypothesis: band rows of 100 columns, more
    // than the kernel's 64-cell ring. That pair is searched on the CPU, the
    // other on the device, within the one call (no fallback of the batch).
    let r: Vec<u32> = (0..200).map(|w| w % 7).collect();
    let hyps = Seqs::from_slices([&[1u32, 2][..], &[3, 1, 2, 5][..]]);
    let refs = Seqs::from_slices([&r[..], &[1, 2, 3, 5][..]]);
    let before = fallback_count();
    let got = gpu.shift_search(&hyps, &refs).unwrap();
    assert_eq!(got, mteval_kernels::backend::CpuBackend.shift_search(&hyps, &refs).unwrap());
    assert_eq!(got[1], (1, 1), "one shift of the block 1 2");
    assert_eq!(fallback_count(), before);
}

#[test]
fn failing_kernels_fall_back_to_the_cpu() {
    let Some(ok) = emulated() else { return };
    let gpu = GpuBackend::failing_on(ok.exec().clone(), "*");
    assert!(gpu.is_gpu());
    let rows: Vec<(&str, Vec<&str>)> =
        [("a b c d", vec!["c d a b"]), ("x", vec!["y z", "x"])].into_iter().cycle().take(300).collect();
    let before = fallback_count();
    let ter = Ter::default();
    let cpu = mteval_kernels::backend::CpuBackend;
    assert_eq!(ter.segments_on(&gpu, &rows), ter.segments_on(&cpu, &rows));
    let cfg = ChrfConfig::default();
    assert_eq!(cfg.segments_on(&gpu, &rows), cfg.segments_on(&cpu, &rows));
    assert!(fallback_count() >= before + 2, "each failed batch is counted");
    // The primitive itself reports the failure, naming the kernel.
    let a = mteval_kernels::backend::Seqs::from_slices([&[1u32, 2][..]]);
    let err = gpu.edit_distances(&a, &a).unwrap_err();
    assert!(err.to_string().contains("lev_myers"), "{err}");
}

/// `auto` with a GPU: sentence TER and chrF, short edit distances and the
/// MBR chrF matrices stay on the CPU (no batch reaches the device); edit
/// distances over long strings go to the device. Results are the CPU's
/// either way. The device is the CPU taken for a GPU: the routing is under
/// test here, the kernels' parity on such batches in the tests above (the
/// emulated warps would spend a minute on the long batch).
#[test]
fn auto_sends_only_long_edit_distances_to_the_gpu() {
    // A GPU-like device, counting the batches it is given.
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let device: Arc<dyn Backend> = Arc::new(mteval_kernels::backend::CpuBackend);
    let counting = Arc::new(Observed::new(device, move |_, _| {
        seen.fetch_add(1, Ordering::Relaxed);
    }));
    let auto = AutoBackend::new(counting.clone());
    let cpu = mteval_kernels::backend::CpuBackend;
    let rows = backend_parity::wmt_sample(3, 2000);
    let pairs: Vec<(&str, Vec<&str>)> = rows.iter().map(|r| (r.hyp.as_str(), vec![r.r#ref.as_str()])).collect();
    let ter = Ter::default();
    assert_eq!(ter.segments_on(&auto, &pairs), ter.segments_on(&cpu, &pairs));
    let cfg = ChrfConfig::default();
    assert_eq!(cfg.segments_on(&auto, &pairs), cfg.segments_on(&cpu, &pairs));
    let short: Vec<(&str, &str)> = pairs.iter().map(|(h, r)| (*h, r[0])).collect();
    assert_eq!(char_distances_on(&auto, &short), char_distances_on(&cpu, &short));
    let texts: Vec<&str> = short.iter().take(64).map(|p| p.0).collect();
    let group = Group::new(&cfg, &texts, None).expect("group");
    let sums = |b: &dyn Backend| group.pairwise_map_on(b, |_, row| row.iter().map(|x| x.to_bits()).sum::<u64>());
    assert_eq!(sums(&auto), sums(&cpu));
    assert_eq!(calls.load(Ordering::Relaxed), 0, "no batch reached the device");
    // 1,024 pairs of about 600 code points a side.
    let long: Vec<String> =
        (0..1030).map(|i| short[i % short.len()..].iter().map(|p| p.0).collect::<Vec<_>>().concat()).collect();
    let long: Vec<String> = long.iter().map(|s| s.chars().take(600).collect()).collect();
    let long_pairs: Vec<(&str, &str)> = (0..1024).map(|i| (long[i].as_str(), long[i + 5].as_str())).collect();
    assert_eq!(char_distances_on(&auto, &long_pairs), char_distances_on(&cpu, &long_pairs));
    assert_eq!(calls.load(Ordering::Relaxed), 1, "the long strings went to the device in one batch");
    // The rule itself, at its edges.
    let edit = |pairs: usize, symbols: u64| auto.offload(&Work::EditDistance { pairs, symbols });
    assert!(edit(1024, 1024 * 1024));
    assert!(!edit(1024, 1024 * 1024 - 1));
    assert!(!edit(1023, 1023 * 4096));
    assert!(!auto.offload(&Work::TerSegments { rows: 1 << 20 }));
    assert!(!auto.offload(&Work::ChrfPairwise { hyps: 1024, refs: 1024 }));
    assert!(auto.offload(&Work::ChrfMeanUtility { hyps: 1024, refs: 1024 }));
    assert!(!auto.offload(&Work::ChrfMeanUtility { hyps: 1024, refs: 1023 }));
    assert!(counting.offload(&Work::TerSegments { rows: 1 }), "a GPU asked for by name takes everything");
}

/// The harness binds each argument to its kernel parameter by position and
/// kind: a launch with the wrong arguments is an error naming the kernel,
/// not a kernel reading the wrong buffer.
#[test]
fn emulated_launches_check_their_arguments() {
    use mteval_kernels::backend::{KArg, KernelExec};
    let Some(gpu) = emulated() else { return };
    let exec = gpu.exec();
    let buf = exec.upload_u32(&[1, 2, 3]).unwrap();
    let err = |kernel: &'static str, args: &[KArg<'_, _>]| exec.launch(kernel, 32, args).unwrap_err().to_string();
    let e = err("ter_search", &[KArg::U32(1)]);
    assert!(e.contains("ter_search") && e.contains("wrong number of arguments"), "{e}");
    let e = err("utf8_decode", &[KArg::U32(0); 6]);
    assert!(e.contains("utf8_decode") && e.contains("u32 array parameter got another argument"), "{e}");
    let e = err("no_such_kernel", &[KArg::Buf(&buf)]);
    assert!(e.contains("unknown kernel no_such_kernel"), "{e}");
}

/// A warp whose lanes part (one leaves the kernel while the others wait at
/// `__syncwarp`) is an error naming the block and the thread, not a hang;
/// the same kernel with its lanes together runs.
#[test]
fn diverging_warp_lanes_are_an_error() {
    use mteval_kernels::backend::{KArg, KernelExec};
    let Some(gpu) = emulated() else { return };
    let exec = gpu.exec();
    exec.launch("emu_diverging_warp", 64, &[KArg::U32(1)]).expect("a warp whose lanes stay together");
    let e = exec.launch("emu_diverging_warp", 64, &[KArg::U32(0)]).unwrap_err().to_string();
    assert!(e.contains("warp lanes diverged (block 0, thread 3): a lane left the kernel while another waits"), "{e}");
}
