//! The CUDA backend on a real GPU, and NVRTC compiling every kernel.
//!
//! * `kernels_compile_with_nvrtc`: needs only NVRTC (no GPU, no driver). CI
//!   installs the pip wheel `nvidia-cuda-nvrtc-cu12`, puts it on
//!   `LD_LIBRARY_PATH` and sets `MTEVAL_REQUIRE_NVRTC=1`, so a kernel that
//!   does not compile cannot land.
//! * `cuda_backend_equals_cpu`: the CPU-vs-GPU parity suite. It runs where a
//!   GPU is found and skips elsewhere; with `MTEVAL_REQUIRE_GPU=1`
//!   (`scripts/gpu-bench.sh` sets it) a missing GPU fails the test. After
//!   the parity checks it forces the two faults a GPU run meets, a failing
//!   kernel and a real out-of-memory (most of the device's memory held by
//!   the test), and checks that each batch is recomputed on the CPU with the
//!   same results and that the device works again afterwards. (One test, so
//!   that the process-wide fallback count is read without a race.)
#![cfg(feature = "cuda")]

mod backend_parity;
mod common;

use mteval_kernels::backend::{self, Backend, CpuBackend, GpuBackend, cuda};
use mteval_kernels::levenshtein::char_distances_on;
use mteval_kernels::{ChrfConfig, Ter};

fn required(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| v == "1")
}

#[test]
fn kernels_compile_with_nvrtc() {
    if !cuda::nvrtc_present() {
        assert!(!required("MTEVAL_REQUIRE_NVRTC"), "MTEVAL_REQUIRE_NVRTC=1 but NVRTC was not found");
        eprintln!("skipped: NVRTC not found");
        return;
    }
    for arch in ["compute_80", "compute_90"] {
        if let Err(e) = cuda::compile_all_ptx(arch) {
            panic!("{arch}: {e}");
        }
    }
    // What a device compiles first: a CUBIN for its own architecture (A100, H100/H200).
    for (major, minor) in [(8, 0), (9, 0)] {
        if let Err(e) = cuda::compile_all_cubin(major, minor) {
            panic!("sm_{major}{minor}: {e}");
        }
    }
    // A broken kernel is reported with NVRTC's log, not accepted.
    let err = cuda::check_source("extern \"C\" __global__ void k(u32* o) { o[0] = not_defined(1); }", "compute_80")
        .unwrap_err();
    assert!(err.contains("not_defined"), "{err}");
}

#[test]
fn cuda_backend_equals_cpu() {
    let gpu = match backend::gpu() {
        Ok(g) => g,
        Err(e) => {
            assert!(!required("MTEVAL_REQUIRE_GPU"), "MTEVAL_REQUIRE_GPU=1 but {e}");
            eprintln!("skipped: {e}");
            return;
        }
    };
    eprintln!("backend: {}", gpu.name());
    backend_parity::check_levenshtein(gpu.as_ref(), 300);
    // Every pair through the one-warp-per-pair kernel, and none.
    for blocks in [0, usize::MAX] {
        let exec = cuda::CudaExec::probe().expect("GPU");
        backend_parity::check_levenshtein(&GpuBackend::new(exec).with_lev_warp_blocks(blocks), 300);
    }
    backend_parity::check_ter(gpu.as_ref(), 7500);
    backend_parity::check_chrf(gpu.as_ref(), 7500);
    backend_parity::check_mbr(gpu.as_ref(), usize::MAX);
    assert_eq!(backend::fallback_count(), 0, "no batch fell back to the CPU");
    failing_kernels_fall_back_to_the_cpu();
    out_of_memory_falls_back_to_the_cpu();
    // Last: its 400 MB of match counts stay reserved in the stream's memory
    // pool after they are freed, so that an out-of-memory test after it
    // would find room where it meant to find none.
    backend_parity::check_mbr_large(gpu.as_ref(), 4096);
}

/// Every launch fails: each batch is recomputed on the CPU, counted.
fn failing_kernels_fall_back_to_the_cpu() {
    let gpu = GpuBackend::failing_on(cuda::CudaExec::probe().expect("GPU"), "*");
    let rows: Vec<(&str, Vec<&str>)> =
        [("a b c d", vec!["c d a b"]), ("x", vec!["y z", "x"])].into_iter().cycle().take(300).collect();
    let before = backend::fallback_count();
    let ter = Ter::default();
    assert_eq!(ter.segments_on(&gpu, &rows), ter.segments_on(&CpuBackend, &rows));
    let cfg = ChrfConfig::default();
    assert_eq!(cfg.segments_on(&gpu, &rows), cfg.segments_on(&CpuBackend, &rows));
    assert!(backend::fallback_count() >= before + 2, "each failed batch is counted");
    eprintln!("failing kernels: {} batches recomputed on the CPU", backend::fallback_count() - before);
}

/// A real out-of-memory: the test holds all but 64 MiB of the device's free
/// memory, then asks for edit distances whose buffers need more. The batch
/// is recomputed on the CPU; once the memory is released the device serves
/// the same batch itself.
fn out_of_memory_falls_back_to_the_cpu() {
    let exec = cuda::CudaExec::probe().expect("GPU");
    let ctx = exec.context().clone();
    let gpu = GpuBackend::new(exec);
    // 20,000 pairs of 2,000 code points: 320 MB of sequences on the device.
    let text: String = "abcdefghijklmnopqrstuvwxyz".chars().cycle().step_by(7).take(2000).collect();
    let other: String = text.chars().rev().collect();
    let pairs: Vec<(&str, &str)> = (0..20_000).map(|i| (&text[i % 50..], &other[..2000 - i % 70])).collect();
    let want = char_distances_on(&CpuBackend, &pairs);
    ctx.bind_to_thread().expect("bind");
    let (free, total) = ctx.mem_get_info().expect("memory info");
    let hold = free.saturating_sub(64 << 20);
    let hog = ctx.default_stream().alloc_zeros::<u8>(hold).expect("hold the device's memory");
    let before = backend::fallback_count();
    assert_eq!(char_distances_on(&gpu, &pairs), want, "edit distances with the device's memory held");
    assert_eq!(backend::fallback_count(), before + 1, "the out-of-memory batch fell back to the CPU, counted");
    eprintln!("out of memory: held {hold} of {total} bytes; the batch was recomputed on the CPU");
    drop(hog);
    assert!(gpu.is_gpu());
    assert_eq!(char_distances_on(&gpu, &pairs), want, "edit distances once the memory is released");
    assert_eq!(backend::fallback_count(), before + 1, "the device serves the batch again");
}
