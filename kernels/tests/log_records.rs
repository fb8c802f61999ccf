//! The kernels print nothing: their notes (no usable GPU, a GPU batch
//! recomputed on the CPU) are `log` records with target `mteval`, which the
//! application routes (the CLI prints them to standard error).

use std::sync::Mutex;

use mteval_kernels::backend::{BackendError, DeviceRequest, backend_for, gpu, or_cpu};

static RECORDS: Mutex<Vec<(log::Level, String, String)>> = Mutex::new(Vec::new());

struct Capture;

impl log::Log for Capture {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        true
    }

    fn log(&self, r: &log::Record<'_>) {
        RECORDS.lock().unwrap().push((r.level(), r.target().to_owned(), r.args().to_string()));
    }

    fn flush(&self) {}
}

#[test]
fn notes_are_log_records() {
    log::set_logger(&Capture).unwrap();
    log::set_max_level(log::LevelFilter::Trace);

    let backend = backend_for(DeviceRequest::Auto).unwrap();
    let records = RECORDS.lock().unwrap().clone();
    match gpu() {
        Ok(_) => assert!(backend.is_gpu() && records.is_empty(), "{records:?}"),
        Err(e) => {
            assert!(!backend.is_gpu());
            assert_eq!(records.len(), 1, "{records:?}");
            assert_eq!(records[0].0, log::Level::Info);
            assert_eq!(records[0].1, "mteval");
            assert_eq!(records[0].2, format!("{e}; using the CPU backend"));
        }
    }
    // Once per process.
    let _ = backend_for(DeviceRequest::Auto).unwrap();
    assert_eq!(RECORDS.lock().unwrap().len(), records.len());

    // A failed GPU batch is recomputed on the CPU with a warning; an
    // unsupported one silently.
    RECORDS.lock().unwrap().clear();
    let v = or_cpu("test batch", || Err(BackendError::Device("out of memory".into())), || 7);
    assert_eq!(v, 7);
    let v = or_cpu("test batch", || Err(BackendError::Unsupported("order 9".into())), || 8);
    assert_eq!(v, 8);
    let records = RECORDS.lock().unwrap().clone();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].0, log::Level::Warn);
    assert_eq!(
        records[0].2,
        "test batch failed on the GPU (GPU error: out of memory); recomputing this batch on the CPU"
    );
}
