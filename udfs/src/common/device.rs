//! mteval's session settings (`mteval.device`) and the binding of the
//! session's device into aggregate and window functions.

use std::sync::Arc;

use datafusion::common::config::{ConfigEntry, ConfigExtension, ConfigOptions, ExtensionOptions};
use datafusion::common::{Result, config_err, exec_datafusion_err};
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::simplify::SimplifyContext;
use mteval_kernels::backend::{Backend, DeviceRequest, backend_for};

/// mteval's session settings, under the `mteval.` prefix:
/// `SET mteval.device = 'cuda'` (`auto`, `cpu` or `cuda`; empty: unset, so
/// the functions run where they were registered to run, `auto` by default).
/// Add it with `SessionConfig::with_option_extension(MtevalConfig::default())`.
///
/// Written out rather than with `extensions_options!`, whose `entries()`
/// name the keys without their prefix (`device`): a session's settings are
/// sent to a Ballista cluster as its entries and set again there by name, so
/// an unprefixed key would be dropped on the way. Here they are `mteval.KEY`,
/// and an unset key has no value, so it leaves the receiving node's own
/// default in place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MtevalConfig {
    /// Device of the metric kernels: auto, cpu or cuda (empty: unset).
    pub device: String,
}

impl ExtensionOptions for MtevalConfig {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }

    fn cloned(&self) -> Box<dyn ExtensionOptions> {
        Box::new(self.clone())
    }

    fn set(&mut self, key: &str, value: &str) -> Result<()> {
        if key == "device" {
            if !value.trim().is_empty() {
                value.parse::<DeviceRequest>().map_err(|e| exec_datafusion_err!("mteval.device: {e}"))?;
            }
            value.trim().clone_into(&mut self.device);
            Ok(())
        } else {
            config_err!("unknown setting 'mteval.{key}' (known: mteval.device)")
        }
    }

    fn entries(&self) -> Vec<ConfigEntry> {
        vec![ConfigEntry {
            key: format!("{}.device", Self::PREFIX),
            value: Some(self.device.clone()).filter(|d| !d.is_empty()),
            description: "Device of the metric kernels: auto, cpu or cuda (unset: where the functions were registered \
                          to run, auto by default)",
        }]
    }
}

impl ConfigExtension for MtevalConfig {
    const PREFIX: &'static str = "mteval";
}

/// The device a session's `mteval.device` names; `None` when it is unset.
///
/// # Errors
/// An unknown device name.
pub fn configured_device(name: &str, config: &ConfigOptions) -> Result<Option<DeviceRequest>> {
    match config.extensions.get::<MtevalConfig>().map(|c| c.device.trim()).filter(|d| !d.is_empty()) {
        Some(d) => d.parse().map(Some).map_err(|e| exec_datafusion_err!("{name}: mteval.device: {e}")),
        None => Ok(None),
    }
}

/// The backend a function runs on: the session's `mteval.device` when set
/// (`config`: scalar functions get the session's settings with each call),
/// else `bound` (the device an aggregate or window function was bound to when
/// the query was planned, or a function was registered with), else `auto`.
///
/// # Errors
/// An unknown device, or `cuda` requested without a usable GPU.
pub fn session_backend(
    name: &str,
    config: Option<&ConfigOptions>,
    bound: Option<DeviceRequest>,
) -> Result<Arc<dyn Backend>> {
    let configured = match config {
        Some(c) => configured_device(name, c)?,
        None => None,
    };
    backend_for(configured.or(bound).unwrap_or_default()).map_err(|e| exec_datafusion_err!("{name}: {e}"))
}

/// A simplification hook of a call `F` (an aggregate or window call).
pub(crate) type SimplifyHook<F> = Box<dyn Fn(F, &SimplifyContext) -> Result<Expr>>;

/// Binds the session's device into an aggregate or window function when a
/// query is planned: the function's simplification hook. `DataFusion` gives
/// aggregate and window functions no session settings when they run, but
/// this hook sees them, so the `mteval.device` of the planning session
/// becomes part of the plan (and travels with it to a cluster's executors,
/// see the codecs of the CLI's cluster module). `rebind(d)` is the function
/// bound to `d`; `rebound(f, g)` is the call `f` with `g` as its function;
/// with `mteval.device` unset (or the bound device already) the call stays
/// as it is (`unchanged(f)`).
pub(crate) fn bind_device<F: 'static, U: 'static>(
    name: &'static str,
    current: Option<DeviceRequest>,
    rebind: fn(Option<DeviceRequest>) -> U,
    unchanged: fn(F) -> Expr,
    rebound: fn(F, U) -> Expr,
) -> SimplifyHook<F> {
    Box::new(move |f, ctx| {
        Ok(match new_device(name, current, ctx)? {
            Some(d) => rebound(f, rebind(Some(d))),
            None => unchanged(f),
        })
    })
}

/// The planning session's `mteval.device` when it is set and differs from
/// the device `current` the function is bound to.
fn new_device(name: &str, current: Option<DeviceRequest>, ctx: &SimplifyContext) -> Result<Option<DeviceRequest>> {
    Ok(configured_device(name, ctx.config_options())?.filter(|d| Some(*d) != current))
}
