//! Device selection: `--device`, `MTEVAL_DEVICE` and `SET mteval.device`.
//! On a machine without a GPU, `cuda` must fail with a clear error and
//! `auto` must run on the CPU with one info line; the scores are the same on
//! every device.

use crate::cli::{mteval, stderr};

fn has_gpu() -> bool {
    mteval_kernels::backend::gpu().is_ok()
}

fn sql(args: &[&str]) -> (bool, String, String) {
    let o = mteval(args);
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into_owned(), stderr(&o))
}

const QUERY: &str = "SELECT ter('the cat sat on the mat', 'on the mat the cat sat') AS t, \
     chrf('the cat sat on the mat', 'the cat is on the mat') AS c, edit_distance('kitten', 'sitting') AS d";

#[test]
fn devices_give_the_same_scores_and_cuda_without_gpu_is_an_error() {
    let (ok, cpu_out, _) = sql(&["--device", "cpu", "sql", "--format", "csv", "-c", QUERY]);
    assert!(ok);
    // One shift of "on the mat" (1 edit / 6 words); kitten -> sitting is 3 edits.
    assert_eq!(cpu_out.trim(), "t,c,d\n16.666666666666664,64.5779420625287,3", "{cpu_out}");
    let (ok, auto_out, auto_err) = sql(&["--verbose", "--device", "auto", "sql", "--format", "csv", "-c", QUERY]);
    assert!(ok, "{auto_err}");
    assert_eq!(auto_out, cpu_out, "auto gives the CPU's scores");
    let (ok, set_out, err) = sql(&["sql", "--format", "csv", "-c", &format!("SET mteval.device = 'cpu'; {QUERY}")]);
    assert!(ok, "{err}");
    assert_eq!(set_out, cpu_out);
    // RESET returns to the command line's device (DataFusion alone refuses
    // RESET of an extension's setting).
    let (ok, shown, err) = sql(&[
        "--device",
        "cpu",
        "sql",
        "--format",
        "csv",
        "-c",
        "SET mteval.device = 'auto'; RESET mteval.device; SELECT value FROM information_schema.df_settings WHERE name = 'mteval.device'",
    ]);
    assert!(ok, "{err}");
    assert_eq!(shown.trim(), "value\ncpu");
    if has_gpu() {
        let (ok, gpu_out, err) = sql(&["--device", "cuda", "sql", "--format", "csv", "-c", QUERY]);
        assert!(ok, "{err}");
        assert_eq!(gpu_out, cpu_out, "GPU scores equal the CPU's");
    } else {
        assert_eq!(auto_err.matches("using the CPU backend").count(), 1, "one info line with --verbose: {auto_err}");
        let (ok, _, err) = sql(&["--device", "cuda", "sql", "-c", QUERY]);
        assert!(!ok);
        assert!(err.contains("device 'cuda' was requested but"), "{err}");
        let (ok, _, err) = sql(&["sql", "-c", &format!("SET mteval.device = 'cuda'; {QUERY}")]);
        assert!(!ok);
        assert!(err.contains("device 'cuda' was requested"), "{err}");
    }
    let (ok, _, err) = sql(&["sql", "-c", &format!("SET mteval.device = 'tpu'; {QUERY}")]);
    assert!(!ok);
    assert!(err.contains("unknown device 'tpu'"), "{err}");
    let o = mteval(&["--device", "tpu", "sql", "-c", "SELECT 1"]);
    assert_eq!(o.status.code(), Some(2), "a bad --device is a usage error");
}
