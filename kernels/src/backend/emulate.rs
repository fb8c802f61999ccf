//! Runs the CUDA C kernels on the CPU, for tests on machines without a GPU.
//!
//! `kernels/cuda/emu/harness.cpp` includes the kernel sources unchanged with
//! a small header (`emu.h`) that turns the CUDA keywords into C++ and a launch
//! into a loop over (block, thread). It is built with the system's C++
//! compiler (`g++`, or `$CXX`) on first use. Each launch sends the arguments
//! to a harness process and reads back every buffer, so the whole GPU host
//! path ([`super::GpuBackend`]) runs as on a GPU, on the same kernel code.
//!
//! Wire format (little endian): name length `u32`, name, threads `u64`,
//! block size `u32`, argument count `u32`, then per argument a tag byte
//! (0: `u32` scalar, 2: `u32` array, 3: `u64` array) with the scalar or a
//! `u64` length and the values. The answer is every array, in order.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

use super::{BackendError, KArg, KernelExec};

/// A buffer of the emulated device.
#[derive(Debug)]
pub enum EmuBuf {
    /// `u32` values.
    U32(Mutex<Vec<u32>>),
    /// `u64` values.
    U64(Mutex<Vec<u64>>),
}

/// The kernels compiled for the CPU (see the module docs).
#[derive(Debug, Clone)]
pub struct EmuExec {
    harness: PathBuf,
}

fn dev(e: impl std::fmt::Display) -> BackendError {
    BackendError::Device(format!("emulator: {e}"))
}

impl EmuExec {
    /// Builds the harness once per process (into the system's temp folder).
    ///
    /// # Errors
    /// No C++ compiler, or the kernels do not compile as C++.
    pub fn build() -> Result<Self, String> {
        static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
        BUILT
            .get_or_init(|| {
                // The sources where this was built, else under the current
                // folder (a binary carried to another machine, run from a
                // copy of the repository's root).
                let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("cuda/emu/harness.cpp");
                let src = if built.exists() { built } else { PathBuf::from("kernels/cuda/emu/harness.cpp") };
                let dir = std::env::temp_dir().join(format!("mteval-emu-{}", std::process::id()));
                std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                let exe = dir.join("harness");
                let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
                // MTEVAL_EMU_CXXFLAGS: more flags, e.g. `-fsanitize=address`
                // to catch a kernel reading or writing outside its buffers.
                let extra = std::env::var("MTEVAL_EMU_CXXFLAGS").unwrap_or_default();
                let out = Command::new(&cxx)
                    .args(["-std=c++20", "-pthread", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror"])
                    .args(extra.split_whitespace())
                    .arg("-o")
                    .arg(&exe)
                    .arg(&src)
                    .output()
                    .map_err(|e| format!("cannot run the C++ compiler '{cxx}': {e}"))?;
                if !out.status.success() {
                    return Err(format!(
                        "{cxx} failed on {}:\n{}",
                        src.display(),
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
                Ok(exe)
            })
            .clone()
            .map(|harness| Self { harness })
    }
}

impl KernelExec for EmuExec {
    type Buf = EmuBuf;

    fn describe(&self) -> String {
        "cuda kernels emulated on the CPU".into()
    }

    fn upload_u32(&self, v: &[u32]) -> Result<EmuBuf, BackendError> {
        Ok(EmuBuf::U32(Mutex::new(v.to_vec())))
    }

    fn upload_u64(&self, v: &[u64]) -> Result<EmuBuf, BackendError> {
        Ok(EmuBuf::U64(Mutex::new(v.to_vec())))
    }

    fn zeros_u32(&self, n: usize) -> Result<EmuBuf, BackendError> {
        Ok(EmuBuf::U32(Mutex::new(vec![0; n])))
    }

    fn zeros_u64(&self, n: usize) -> Result<EmuBuf, BackendError> {
        Ok(EmuBuf::U64(Mutex::new(vec![0; n])))
    }

    fn download_u32(&self, b: &EmuBuf, n: usize) -> Result<Vec<u32>, BackendError> {
        match b {
            EmuBuf::U32(v) => Ok(v.lock().map_err(dev)?[..n].to_vec()),
            EmuBuf::U64(_) => Err(dev("u64 buffer read as u32")),
        }
    }

    fn download_u64(&self, b: &EmuBuf, n: usize) -> Result<Vec<u64>, BackendError> {
        match b {
            EmuBuf::U64(v) => Ok(v.lock().map_err(dev)?[..n].to_vec()),
            EmuBuf::U32(_) => Err(dev("u32 buffer read as u64")),
        }
    }

    fn max_warps(&self) -> usize {
        // Emulated warps run one after another: a few of them, so that each
        // warp's loop over several segments is under test.
        64
    }

    fn launch(&self, kernel: &'static str, threads: u64, args: &[KArg<'_, EmuBuf>]) -> Result<(), BackendError> {
        let mut msg = Vec::new();
        msg.extend(u32::try_from(kernel.len()).map_err(dev)?.to_le_bytes());
        msg.extend(kernel.as_bytes());
        msg.extend(threads.to_le_bytes());
        msg.extend(256u32.to_le_bytes());
        msg.extend(u32::try_from(args.len()).map_err(dev)?.to_le_bytes());
        for a in args {
            match a {
                KArg::U32(v) => {
                    msg.push(0);
                    msg.extend(v.to_le_bytes());
                }
                KArg::Buf(EmuBuf::U32(v)) => {
                    let v = v.lock().map_err(dev)?;
                    msg.push(2);
                    msg.extend((v.len() as u64).to_le_bytes());
                    msg.extend(v.iter().flat_map(|x| x.to_le_bytes()));
                }
                KArg::Buf(EmuBuf::U64(v)) => {
                    let v = v.lock().map_err(dev)?;
                    msg.push(3);
                    msg.extend((v.len() as u64).to_le_bytes());
                    msg.extend(v.iter().flat_map(|x| x.to_le_bytes()));
                }
            }
        }
        let mut child = Command::new(&self.harness)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(dev)?;
        child.stdin.take().ok_or_else(|| dev("no stdin"))?.write_all(&msg).map_err(dev)?;
        let mut answer = Vec::new();
        child.stdout.take().ok_or_else(|| dev("no stdout"))?.read_to_end(&mut answer).map_err(dev)?;
        let out = child.wait_with_output().map_err(dev)?;
        if !out.status.success() {
            return Err(dev(format!("{kernel} failed: {}", String::from_utf8_lossy(&out.stderr))));
        }
        let mut pos = 0usize;
        let mut take = |n: usize| -> Result<&[u8], BackendError> {
            let s = answer.get(pos..pos + n).ok_or_else(|| dev("short answer"))?;
            pos += n;
            Ok(s)
        };
        for a in args {
            match a {
                KArg::U32(_) => {}
                KArg::Buf(EmuBuf::U32(v)) => {
                    let mut v = v.lock().map_err(dev)?;
                    let bytes = take(v.len() * 4)?;
                    for (x, c) in v.iter_mut().zip(bytes.chunks_exact(4)) {
                        *x = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    }
                }
                KArg::Buf(EmuBuf::U64(v)) => {
                    let mut v = v.lock().map_err(dev)?;
                    let bytes = take(v.len() * 8)?;
                    for (x, c) in v.iter_mut().zip(bytes.chunks_exact(8)) {
                        let mut b = [0u8; 8];
                        b.copy_from_slice(c);
                        *x = u64::from_le_bytes(b);
                    }
                }
            }
        }
        Ok(())
    }
}
