//! The GPU backend's whole host path with the CUDA C kernels compiled for
//! the CPU (`kernels/cuda/emu`): runs everywhere a C++ compiler is present,
//! no GPU needed. Set `MTEVAL_REQUIRE_EMU=1` (CI does) to fail instead of
//! skipping when no compiler is found.

mod backend_parity;
mod common;

use mteval_kernels::backend::emulate::EmuExec;
use mteval_kernels::backend::{Backend, BackendError, GpuBackend, Seqs, TerRound, fallback_count};
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

parity_test!(levenshtein_kernel_equals_cpu: check_levenshtein());
parity_test!(ter_kernel_and_batched_rounds_equal_cpu: check_ter(400));
parity_test!(chrf_kernels_equal_cpu: check_chrf(800));
parity_test!(mbr_kernels_equal_cpu: check_mbr(12));

#[test]
fn ter_band_beyond_the_kernels_ring_is_left_to_the_cpu() {
    let Some(gpu) = emulated() else { return };
    // No sacrebleu pair has this band: row 2 starts 100 columns before row 1
    // ends, more than the kernel's 64-cell ring holds.
    let r: Vec<u32> = (0..200).collect();
    let band = [0u32, 201, 0, 150, 50, 201, 150, 201];
    let round = TerRound::from_parts(
        &Seqs::from_slices([&[1u32, 2, 3][..]]),
        &Seqs::from_slices([&r[..]]),
        &Seqs::from_slices([&band[..]]),
        &[0, 0, 1, 2],
    );
    let err = gpu.ter_candidates(&round).unwrap_err();
    assert!(matches!(err, BackendError::Unsupported(_)), "{err}");
}

#[test]
fn failing_kernels_fall_back_to_the_cpu() {
    let Some(ok) = emulated() else { return };
    let gpu = GpuBackend::failing_on(ok.exec().clone(), "*");
    assert!(gpu.is_gpu());
    // More rows than any TER setting the other tests pick finishes on the
    // CPU without a round on the device.
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
    let err = gpu.levenshtein(&a, &a).unwrap_err();
    assert!(err.to_string().contains("lev_myers"), "{err}");
}
