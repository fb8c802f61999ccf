//! The device the metric kernels run on, chosen once per process from the
//! command line (`--device`) or `MTEVAL_DEVICE`: the default of every
//! session the process opens (their `mteval.device`, which `SET` changes
//! for that session only) and the device of the work done outside SQL (text
//! mode, `compare`, `report`, `mbr`). Cluster roles get it as an argument.

use std::sync::{Arc, OnceLock};

use anyhow::Result;
use mteval_kernels::backend::{Backend, DeviceRequest, backend_for};

static DEVICE: OnceLock<Option<DeviceRequest>> = OnceLock::new();

/// Parses a device name (`auto`, `cpu`, `cuda`).
///
/// # Errors
/// Another name, listing the known ones.
pub fn parse(s: &str) -> std::result::Result<DeviceRequest, String> {
    s.parse()
}

/// The device asked for: `flag` (`--device`), else `MTEVAL_DEVICE`, else
/// `None` (`auto`). A typo in the variable (`MTEVAL_DEVICE=gpu0`) is an
/// error, not a quiet `auto`.
///
/// # Errors
/// An unknown device name in the variable.
pub fn requested(flag: Option<DeviceRequest>) -> Result<Option<DeviceRequest>> {
    Ok(match flag {
        Some(d) => Some(d),
        None => match std::env::var("MTEVAL_DEVICE") {
            Ok(v) => Some(parse(&v).map_err(|e| anyhow::anyhow!("MTEVAL_DEVICE: {e}"))?),
            Err(_) => None,
        },
    })
}

/// Sets the process's device (the first call wins); with `cuda`, fails at
/// once when no GPU is usable, before any input is read.
///
/// # Errors
/// `cuda` without a usable GPU.
pub fn set(device: Option<DeviceRequest>) -> Result<()> {
    let _ = DEVICE.set(device);
    if device == Some(DeviceRequest::Cuda) {
        backend_for(DeviceRequest::Cuda)?;
    }
    Ok(())
}

/// The process's device; `None`: not given (`auto`).
#[must_use]
pub fn get() -> Option<DeviceRequest> {
    DEVICE.get().copied().flatten()
}

/// The backend of the process's device.
///
/// # Errors
/// `cuda` without a usable GPU.
pub fn backend() -> Result<Arc<dyn Backend>> {
    Ok(backend_for(get().unwrap_or_default())?)
}
