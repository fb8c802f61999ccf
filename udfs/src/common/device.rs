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
/// The device is parsed once, when it is set, and held typed.
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
    /// Device of the metric kernels: auto, cpu or cuda (`None`: unset).
    pub device: Option<DeviceRequest>,
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
            let value = value.trim();
            self.device = if value.is_empty() {
                None
            } else {
                Some(value.parse().map_err(|e| exec_datafusion_err!("mteval.device: {e}"))?)
            };
            Ok(())
        } else {
            config_err!("unknown setting 'mteval.{key}' (known: mteval.device)")
        }
    }

    fn entries(&self) -> Vec<ConfigEntry> {
        vec![ConfigEntry {
            key: format!("{}.device", Self::PREFIX),
            value: self.device.map(|d| d.to_string()),
            description: "Device of the metric kernels: auto, cpu or cuda (unset: where the functions were registered \
                          to run, auto by default)",
        }]
    }
}

impl ConfigExtension for MtevalConfig {
    const PREFIX: &'static str = "mteval";
}

/// The device a session's `mteval.device` names; `None` when it is unset.
#[must_use]
pub fn configured_device(config: &ConfigOptions) -> Option<DeviceRequest> {
    config.extensions.get::<MtevalConfig>().and_then(|c| c.device)
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
        Some(c) => configured_device(c),
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
    current: Option<DeviceRequest>,
    rebind: impl Fn(Option<DeviceRequest>) -> U + 'static,
    unchanged: fn(F) -> Expr,
    rebound: fn(F, U) -> Expr,
) -> SimplifyHook<F> {
    Box::new(move |f, ctx| {
        Ok(match new_device(current, ctx) {
            Some(d) => rebound(f, rebind(Some(d))),
            None => unchanged(f),
        })
    })
}

/// The planning session's `mteval.device` when it is set and differs from
/// the device `current` the function is bound to.
fn new_device(current: Option<DeviceRequest>, ctx: &SimplifyContext) -> Option<DeviceRequest> {
    configured_device(ctx.config_options()).filter(|d| Some(*d) != current)
}
