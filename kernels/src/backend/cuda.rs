//! The CUDA executor: cudarc 0.19 with the driver API and NVRTC, both loaded
//! with dlopen at first use (feature `dynamic-loading`), so this compiles and
//! runs on machines with no CUDA at all.
//!
//! * Probe before use: cudarc panics when a library is missing, so the
//!   driver and NVRTC are looked for first, then the device count.
//! * The kernel sources (`kernels/cuda/*.cu`, embedded in the binary) are
//!   compiled once per process by NVRTC: to a CUBIN for the device's own
//!   architecture (which avoids `CUDA_ERROR_UNSUPPORTED_PTX_VERSION` when
//!   NVRTC is newer than the driver), else to PTX.
//! * One launch at a time (a mutex): batches are large, and the CPU fallback
//!   of a failed batch must not interleave with other batches' kernels.
#![allow(unsafe_code)]

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::{Arc, Mutex};

use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtrMut, LaunchConfig, PinnedHostSlice, PushKernelArg,
};
use cudarc::nvrtc::{CompileOptions, Ptx};

use super::{BackendError, KArg, KernelExec};

/// The shared header and the kernel files, in the order they are compiled.
pub const SOURCES: [(&str, &str); 3] = [
    ("levenshtein.cu", include_str!("../../cuda/levenshtein.cu")),
    ("ter.cu", include_str!("../../cuda/ter.cu")),
    ("chrf.cu", include_str!("../../cuda/chrf.cu")),
];

/// The header prepended to every kernel file.
pub const COMMON: &str = include_str!("../../cuda/common.cuh");

/// Every kernel, with the file that defines it.
pub const KERNELS: [(&str, &str); 12] = [
    ("levenshtein.cu", "lev_myers"),
    ("levenshtein.cu", "lev_warp"),
    ("levenshtein.cu", "utf8_decode"),
    ("ter.cu", "ter_search"),
    ("chrf.cu", "chrf_windows"),
    ("chrf.cu", "chrf_rank"),
    ("chrf.cu", "chrf_compact"),
    ("chrf.cu", "chrf_profiles"),
    ("chrf.cu", "chrf_match_list"),
    ("chrf.cu", "chrf_match_grid"),
    ("chrf.cu", "chrf_aggregate"),
    ("chrf.cu", "chrf_mean_utility"),
];

/// Threads per block of every launch.
const BLOCK: u32 = 128;

fn full_source(src: &str) -> String {
    format!("{COMMON}\n{src}")
}

fn dev(what: &str, e: impl std::fmt::Debug) -> BackendError {
    BackendError::Device(format!("{what}: {e:?}"))
}

/// Whether the NVRTC library can be loaded (no GPU needed).
#[must_use]
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries to dlopen the library; no NVRTC function is called.
    std::panic::catch_unwind(|| unsafe { cudarc::nvrtc::sys::is_culib_present() }).unwrap_or(false)
}

/// Runs `compile` on every kernel file (shared header prepended), without a
/// GPU; errors are prefixed with the file's name.
fn compile_each(compile: impl Fn(&str) -> Result<(), String>) -> Result<(), String> {
    if !nvrtc_present() {
        return Err("NVRTC (libnvrtc.so or libnvrtc.so.12) was not found; put its folder on LD_LIBRARY_PATH".into());
    }
    for (name, src) in SOURCES {
        compile(&full_source(src)).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// Compiles every kernel file to PTX for `arch` (e.g. `compute_90`) with
/// NVRTC, without a GPU: what CI runs so that a kernel that does not compile
/// cannot land.
///
/// # Errors
/// NVRTC missing, or a compile error with NVRTC's log.
pub fn compile_all_ptx(arch: &'static str) -> Result<(), String> {
    compile_each(|src| compile_ptx(src, arch).map(|_| ()))
}

/// Compiles every kernel file to a CUBIN for `sm_<major><minor>` with NVRTC,
/// without a GPU: the path a device takes first (see [`CudaExec`]).
///
/// # Errors
/// NVRTC missing, or a compile error.
pub fn compile_all_cubin(major: i32, minor: i32) -> Result<(), String> {
    compile_each(|src| {
        // A CUBIN is an ELF image.
        let bin = compile_cubin(src, major, minor)?;
        if bin.starts_with(b"\x7fELF") {
            Ok(())
        } else {
            Err(format!("NVRTC's CUBIN for sm_{major}{minor} is not an ELF image"))
        }
    })
}

/// Compiles one CUDA C source (with the shared header prepended) to PTX for
/// `arch`; the error is NVRTC's log.
///
/// # Errors
/// NVRTC's compile log.
pub fn check_source(src: &str, arch: &'static str) -> Result<(), String> {
    compile_ptx(&full_source(src), arch).map(|_| ())
}

fn compile_ptx(src: &str, arch: &'static str) -> Result<Ptx, String> {
    // No fused multiply-adds: the float64 kernels (chrF's F-score) round
    // each operation as the CPU does.
    let opts = CompileOptions {
        arch: Some(arch),
        options: vec!["--std=c++17".into(), "--fmad=false".into()],
        ..Default::default()
    };
    cudarc::nvrtc::compile_ptx_with_opts(src, opts).map_err(|e| match e {
        cudarc::nvrtc::CompileError::CompileError { log, .. } => log.to_string_lossy().into_owned(),
        other => format!("{other:?}"),
    })
}

/// Compiles to a CUBIN for `sm_<major><minor>` through NVRTC's C API.
fn compile_cubin(src: &str, major: i32, minor: i32) -> Result<Vec<u8>, String> {
    use cudarc::nvrtc::{result, sys};
    let c_src = CString::new(src).map_err(|e| e.to_string())?;
    let prog = result::create_program(&c_src, None).map_err(|e| format!("{e:?}"))?;
    let opts = [format!("--gpu-architecture=sm_{major}{minor}"), "--std=c++17".to_owned(), "--fmad=false".to_owned()];
    // SAFETY: `prog` was just created and is destroyed once below.
    let compiled = unsafe { result::compile_program(prog, &opts) };
    let res = compiled.map_err(|e| format!("{e:?}")).and_then(|()| {
        let mut size = 0usize;
        // SAFETY: `prog` compiled; NVRTC writes the size, then `size` bytes.
        unsafe { sys::nvrtcGetCUBINSize(prog, &raw mut size).result() }.map_err(|e| format!("{e:?}"))?;
        let mut bin = vec![0u8; size];
        unsafe { sys::nvrtcGetCUBIN(prog, bin.as_mut_ptr().cast()).result() }.map_err(|e| format!("{e:?}"))?;
        Ok(bin)
    });
    // SAFETY: created above, not destroyed before.
    let _ = unsafe { result::destroy_program(prog) };
    res
}

/// A device buffer.
#[derive(Debug)]
pub enum CudaBuf {
    /// `u32` values.
    U32(CudaSlice<u32>),
    /// `u64` values.
    U64(CudaSlice<u64>),
}

/// A GPU with the kernels loaded.
pub struct CudaExec {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    funcs: HashMap<&'static str, CudaFunction>,
    describe: String,
    lock: Mutex<()>,
    /// Pinned host memory that [`KernelExec::upload_u32_with`] writes a
    /// batch into and copies from, kept between batches (as large as the
    /// largest upload so far, up to [`STAGING_MAX_WORDS`]).
    staging: Mutex<Option<PinnedHostSlice<u32>>>,
}

/// The largest upload staged in pinned memory (1 GiB); larger ones go from
/// ordinary memory, so that the process never pins more than this.
const STAGING_MAX_WORDS: usize = 1 << 28;

impl std::fmt::Debug for CudaExec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe)
    }
}

fn unavailable(why: impl Into<String>) -> BackendError {
    BackendError::Unavailable(why.into())
}

/// Whether the CUDA driver library and NVRTC can be loaded (dlopen only: no
/// device is opened and nothing is compiled).
///
/// # Errors
/// [`BackendError::Unavailable`] naming the missing library.
pub fn libraries_present() -> Result<(), BackendError> {
    // SAFETY: dlopen probe only.
    let driver = std::panic::catch_unwind(|| unsafe { cudarc::driver::sys::is_culib_present() }).unwrap_or(false);
    if !driver {
        return Err(unavailable("the CUDA driver library (libcuda.so.1) was not found"));
    }
    if !nvrtc_present() {
        return Err(unavailable(
            "NVRTC (libnvrtc.so or libnvrtc.so.12) was not found; install the CUDA runtime compiler \
             (e.g. pip's nvidia-cuda-nvrtc-cu12) and put its lib folder on LD_LIBRARY_PATH \
             (CUDA 13: the toolkit's lib64, which has libnvrtc.so)",
        ));
    }
    Ok(())
}

impl CudaExec {
    /// Finds the driver, NVRTC and device 0, and compiles the kernels for it.
    ///
    /// # Errors
    /// [`BackendError::Unavailable`] saying what is missing.
    pub fn probe() -> Result<Self, BackendError> {
        libraries_present()?;
        std::panic::catch_unwind(Self::open).unwrap_or_else(|_| Err(unavailable("the CUDA driver panicked on start")))
    }

    fn open() -> Result<Self, BackendError> {
        let n = CudaContext::device_count().map_err(|e| unavailable(format!("no CUDA device ({e:?})")))?;
        if n < 1 {
            return Err(unavailable("no CUDA device"));
        }
        let ctx = CudaContext::new(0).map_err(|e| unavailable(format!("cannot open CUDA device 0 ({e:?})")))?;
        let (major, minor) = ctx.compute_capability().map_err(|e| unavailable(format!("{e:?}")))?;
        let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
        let mut funcs = HashMap::new();
        for (file, src) in SOURCES {
            let src = full_source(src);
            let image = compile_cubin(&src, major, minor)
                .map(Ptx::from_binary)
                .or_else(|cubin_err| {
                    compile_ptx(&src, "compute_80").map_err(|e| format!("CUBIN: {cubin_err}; PTX: {e}"))
                })
                .map_err(|e| unavailable(format!("the kernels in {file} did not compile: {e}")))?;
            let module = ctx.load_module(image).map_err(|e| unavailable(format!("loading {file}: {e:?}")))?;
            for (f, k) in KERNELS {
                if f == file {
                    let func = module.load_function(k).map_err(|e| unavailable(format!("kernel {k}: {e:?}")))?;
                    funcs.insert(k, func);
                }
            }
        }
        let stream = ctx.default_stream();
        // SAFETY: one stream only, and every launch is followed by a
        // synchronize, so no buffer is used across streams or freed while in
        // use; cross-stream events (two per allocation) would only cost time.
        unsafe { ctx.disable_event_tracking() };
        let describe = format!("cuda: {name} (sm_{major}{minor})");
        Ok(Self { ctx, stream, funcs, describe, lock: Mutex::new(()), staging: Mutex::new(None) })
    }

    /// The CUDA context.
    #[must_use]
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The first `n` values of a device buffer.
    fn download<T: cudarc::driver::DeviceRepr>(&self, s: &CudaSlice<T>, n: usize) -> Result<Vec<T>, BackendError> {
        let mut v = self.stream.clone_dtoh(s).map_err(|e| dev("copy from the GPU", e))?;
        v.truncate(n);
        Ok(v)
    }
}

/// `MTEVAL_GPU_TRACE=1`: every device operation waits for the device and
/// prints its time and size to stderr (for breakdowns in benchmarks).
fn trace_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("MTEVAL_GPU_TRACE").is_ok_and(|v| v == "1"))
}

impl CudaExec {
    /// Runs `f`; with tracing on, waits for the device and prints the time.
    fn traced<T>(
        &self,
        op: &str,
        bytes: usize,
        f: impl FnOnce() -> Result<T, BackendError>,
    ) -> Result<T, BackendError> {
        if !trace_on() {
            return f();
        }
        let t = std::time::Instant::now();
        let r = f();
        let _ = self.stream.synchronize();
        eprintln!("gpu trace: {op} {bytes} bytes {:.3} ms", t.elapsed().as_secs_f64() * 1e3);
        r
    }
}

impl KernelExec for CudaExec {
    type Buf = CudaBuf;

    fn describe(&self) -> String {
        self.describe.clone()
    }

    fn upload_u32(&self, v: &[u32]) -> Result<CudaBuf, BackendError> {
        // Never a zero-size allocation.
        let v = if v.is_empty() { &[0u32][..] } else { v };
        self.traced("upload", 4 * v.len(), || {
            self.stream.clone_htod(v).map(CudaBuf::U32).map_err(|e| dev("copy to the GPU", e))
        })
    }

    fn upload_u64(&self, v: &[u64]) -> Result<CudaBuf, BackendError> {
        let v = if v.is_empty() { &[0u64][..] } else { v };
        self.traced("upload", 8 * v.len(), || {
            self.stream.clone_htod(v).map(CudaBuf::U64).map_err(|e| dev("copy to the GPU", e))
        })
    }

    fn upload_u32_with(&self, n: usize, fill: &(dyn Fn(&mut [u32]) + Sync)) -> Result<CudaBuf, BackendError> {
        if n == 0 || n > STAGING_MAX_WORDS {
            let mut v = vec![0u32; n];
            fill(&mut v);
            return self.upload_u32(&v);
        }
        self.traced("upload (pinned)", 4 * n, || {
            let mut staging =
                self.staging.lock().map_err(|_| BackendError::Device("GPU staging lock poisoned".into()))?;
            if staging.as_ref().is_none_or(|p| p.len() < n) {
                // The old buffer is freed before a larger one is pinned.
                *staging = None;
                // SAFETY: the memory is written by `fill` before it is read
                // (only the first `n` words are copied).
                let pinned =
                    unsafe { self.ctx.alloc_pinned::<u32>(n) }.map_err(|e| dev("pinned host allocation", e))?;
                *staging = Some(pinned);
            }
            let Some(pinned) = staging.as_mut() else { unreachable!("staging set above") };
            let host = pinned.as_mut_slice().map_err(|e| dev("pinned host memory", e))?;
            fill(&mut host[..n]);
            // SAFETY: `alloc` leaves the device memory unset; the copy below
            // writes all of it.
            let mut buf = unsafe { self.stream.alloc::<u32>(n) }.map_err(|e| dev("GPU allocation", e))?;
            {
                let (dst, _record) = buf.device_ptr_mut(&self.stream);
                // SAFETY: `host[..n]` and `buf` hold n words; the copy is
                // waited for below, before the staging memory can be written
                // again.
                unsafe { cudarc::driver::result::memcpy_htod_async(dst, &host[..n], self.stream.cu_stream()) }
                    .map_err(|e| dev("copy to the GPU", e))?;
            }
            self.stream.synchronize().map_err(|e| dev("copy to the GPU", e))?;
            Ok(CudaBuf::U32(buf))
        })
    }

    fn zeros_u32(&self, n: usize) -> Result<CudaBuf, BackendError> {
        self.traced("zeros", 4 * n, || {
            self.stream.alloc_zeros::<u32>(n.max(1)).map(CudaBuf::U32).map_err(|e| dev("GPU allocation", e))
        })
    }

    fn zeros_u64(&self, n: usize) -> Result<CudaBuf, BackendError> {
        self.traced("zeros", 8 * n, || {
            self.stream.alloc_zeros::<u64>(n.max(1)).map(CudaBuf::U64).map_err(|e| dev("GPU allocation", e))
        })
    }

    fn download_u32(&self, b: &CudaBuf, n: usize) -> Result<Vec<u32>, BackendError> {
        let CudaBuf::U32(s) = b else { return Err(BackendError::Device("u64 buffer read as u32".into())) };
        self.traced("download", 4 * n, || self.download(s, n))
    }

    fn download_u64(&self, b: &CudaBuf, n: usize) -> Result<Vec<u64>, BackendError> {
        let CudaBuf::U64(s) = b else { return Err(BackendError::Device("u32 buffer read as u64".into())) };
        self.download(s, n)
    }

    fn launch(&self, kernel: &'static str, threads: u64, args: &[KArg<'_, CudaBuf>]) -> Result<(), BackendError> {
        let _guard = self.lock.lock().map_err(|_| BackendError::Device("GPU lock poisoned".into()))?;
        let func = self.funcs.get(kernel).ok_or_else(|| BackendError::Device(format!("unknown kernel {kernel}")))?;
        let blocks = u32::try_from(threads.div_ceil(u64::from(BLOCK)))
            .map_err(|_| BackendError::Unsupported(format!("{threads} threads in one launch")))?;
        let scalars: Vec<u32> = args.iter().map(|a| if let KArg::U32(v) = a { *v } else { 0 }).collect();
        let mut b = self.stream.launch_builder(func);
        for (a, s) in args.iter().zip(&scalars) {
            match a {
                KArg::U32(_) => b.arg(s),
                KArg::Buf(CudaBuf::U32(x)) => b.arg(x),
                KArg::Buf(CudaBuf::U64(x)) => b.arg(x),
            };
        }
        let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: the argument list matches the kernel's parameters (the
        // emulated launches in the tests check the same order and types), and
        // every buffer is as long as the kernel indexes it.
        let t = std::time::Instant::now();
        unsafe { b.launch(cfg) }.map_err(|e| dev(kernel, e))?;
        let r = self.stream.synchronize().map_err(|e| dev(kernel, e));
        if trace_on() {
            eprintln!("gpu trace: kernel {kernel} {threads} threads {:.3} ms", t.elapsed().as_secs_f64() * 1e3);
        }
        r
    }
}
