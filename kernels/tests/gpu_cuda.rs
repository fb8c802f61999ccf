//! The CUDA backend on a real GPU, and NVRTC compiling every kernel.
//!
//! * `kernels_compile_with_nvrtc`: needs only NVRTC (no GPU, no driver). CI
//!   installs the pip wheel `nvidia-cuda-nvrtc-cu12`, puts it on
//!   `LD_LIBRARY_PATH` and sets `MTEVAL_REQUIRE_NVRTC=1`, so a kernel that
//!   does not compile cannot land.
//! * `cuda_backend_equals_cpu`: the CPU-vs-GPU parity suite. It runs where a
//!   GPU is found and skips elsewhere; with `MTEVAL_REQUIRE_GPU=1`
//!   (`scripts/gpu-bench.sh` sets it) a missing GPU fails the test.
#![cfg(feature = "cuda")]

mod backend_parity;
mod common;

use mteval_kernels::backend::{self, cuda};

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
    backend_parity::check_levenshtein(gpu.as_ref());
    backend_parity::check_ter(gpu.as_ref(), 7500);
    backend_parity::check_chrf(gpu.as_ref(), 7500);
    backend_parity::check_mbr(gpu.as_ref(), usize::MAX);
    assert_eq!(backend::fallback_count(), 0, "no batch fell back to the CPU");
}
