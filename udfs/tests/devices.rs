//! The device travels with each session: two sessions in one process with
//! different `mteval.device` settings plan and run their functions on their
//! own device, and neither changes the other.

use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::datatypes::Float64Type;
use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
use datafusion::logical_expr::{Expr, WindowFunctionDefinition};
use datafusion::prelude::{SessionConfig, SessionContext};
use mteval_kernels::backend::{DeviceRequest, backend_for};
use mteval_udfs::{MtevalConfig, aggregate_device, register_all, register_all_on, window_device};

const DATA: &str = "(VALUES ('g', 'the cat sat on the mat', 'on the mat the cat sat'), \
     ('g', 'a b c d', 'a b d c'), ('h', 'hello world', 'hello there world'))";

fn corpus_query() -> String {
    format!("SELECT corpus_ter(h, r) AS t, corpus_chrf(h, r) AS c FROM {DATA} AS v(g, h, r)")
}

fn window_query() -> String {
    format!(
        "SELECT mbr_chrf(h) OVER (PARTITION BY g ORDER BY h) AS m, \
         mbr_chrf_aggregate(h) OVER (PARTITION BY g ORDER BY h) AS a FROM {DATA} AS v(g, h, r) ORDER BY h"
    )
}

async fn session(device: Option<&str>, registered: Option<DeviceRequest>) -> SessionContext {
    let cfg = SessionConfig::new().with_option_extension(MtevalConfig::default());
    let mut ctx = SessionContext::new_with_config(cfg);
    register_all_on(&mut ctx, registered).unwrap();
    if let Some(d) = device {
        ctx.sql(&format!("SET mteval.device = '{d}'")).await.unwrap();
    }
    ctx
}

/// The devices bound into the mteval aggregate and window functions of the
/// optimized plan of `sql`, in plan order (`None`: unbound, i.e. `auto`).
async fn bound_devices(ctx: &SessionContext, sql: &str) -> Vec<Option<DeviceRequest>> {
    let plan = ctx.sql(sql).await.unwrap().into_optimized_plan().unwrap();
    let mut out = Vec::new();
    plan.apply(|node| {
        node.apply_expressions(|e| {
            e.apply(|e| {
                match e {
                    Expr::AggregateFunction(f) if f.func.name().starts_with("corpus_") => {
                        out.push(aggregate_device(&f.func));
                    }
                    Expr::WindowFunction(w) => {
                        if let WindowFunctionDefinition::WindowUDF(u) = &w.fun {
                            out.push(window_device(u));
                        }
                    }
                    _ => {}
                }
                Ok(TreeNodeRecursion::Continue)
            })
        })
    })
    .unwrap();
    out
}

async fn floats(ctx: &SessionContext, sql: &str) -> datafusion::common::Result<Vec<Option<f64>>> {
    let batches = ctx.sql(sql).await?.collect().await?;
    let mut out = Vec::new();
    for b in &batches {
        for c in b.columns() {
            let a = c.as_primitive::<Float64Type>();
            out.extend((0..a.len()).map(|i| a.is_valid(i).then(|| a.value(i))));
        }
    }
    Ok(out)
}

#[tokio::test]
async fn two_sessions_keep_their_own_devices() {
    let cpu = session(Some("cpu"), None).await;
    let cuda = session(Some("cuda"), None).await;
    let unset = session(None, None).await;
    let gpu_present = backend_for(DeviceRequest::Cuda).is_ok();

    for q in [corpus_query(), window_query()] {
        assert_eq!(bound_devices(&cpu, &q).await, [Some(DeviceRequest::Cpu); 2], "{q}");
        assert_eq!(bound_devices(&cuda, &q).await, [Some(DeviceRequest::Cuda); 2], "{q}");
        assert_eq!(bound_devices(&unset, &q).await, [None, None], "{q}");
        // Planning in the CUDA session did not move the CPU session.
        assert_eq!(bound_devices(&cpu, &q).await, [Some(DeviceRequest::Cpu); 2], "{q}");

        let on_cpu = floats(&cpu, &q).await.unwrap();
        assert_eq!(on_cpu.len(), if q.contains("OVER") { 6 } else { 2 });
        assert!(on_cpu.iter().all(|v| v.is_some_and(f64::is_finite)), "{on_cpu:?}");
        assert_eq!(floats(&unset, &q).await.unwrap(), on_cpu, "auto scores as the CPU does");
        match floats(&cuda, &q).await {
            Ok(v) => {
                assert!(gpu_present, "cuda without a GPU must fail");
                assert_eq!(v, on_cpu, "GPU scores equal the CPU's");
            }
            Err(e) => {
                assert!(!gpu_present, "{e}");
                assert!(e.to_string().contains("device 'cuda' was requested"), "{e}");
            }
        }
        assert_eq!(floats(&cpu, &q).await.unwrap(), on_cpu, "the CPU session still runs");
    }

    // Scalar functions read the session's setting with every call.
    let scalar =
        "SELECT ter('a b c', 'a c b') AS t, chrf('a b c', 'a c b') AS c, edit_distance('kitten', 'sitting') AS d";
    assert!(cpu.sql(scalar).await.unwrap().collect().await.is_ok());
    let r = cuda.sql(scalar).await.unwrap().collect().await;
    assert_eq!(r.is_ok(), gpu_present, "{r:?}");
}

#[tokio::test]
async fn registered_device_is_the_default_and_a_setting_overrides_it() {
    let q = corpus_query();
    let ctx = session(None, Some(DeviceRequest::Cpu)).await;
    assert_eq!(bound_devices(&ctx, &q).await, [Some(DeviceRequest::Cpu); 2]);
    ctx.sql("SET mteval.device = 'cuda'").await.unwrap();
    assert_eq!(bound_devices(&ctx, &q).await, [Some(DeviceRequest::Cuda); 2]);
    // Empty: unset again (DataFusion's RESET does not reach a settings
    // extension; the CLI turns `RESET mteval.device` into this).
    ctx.sql("SET mteval.device = ''").await.unwrap();
    assert_eq!(bound_devices(&ctx, &q).await, [Some(DeviceRequest::Cpu); 2]);

    // A plain registration is unbound (auto).
    let mut plain =
        SessionContext::new_with_config(SessionConfig::new().with_option_extension(MtevalConfig::default()));
    register_all(&mut plain).unwrap();
    assert_eq!(bound_devices(&plain, &q).await, [None, None]);

    // A bad device is refused when set, naming the setting.
    let e = ctx.sql("SET mteval.device = 'tpu'").await.unwrap_err().to_string();
    assert!(e.contains("mteval.device") && e.contains("unknown device 'tpu'"), "{e}");
}
