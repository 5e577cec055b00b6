//! Which figures of a new catalog the workspace does not take, because a scenario keeps its own
//! value (an override with its reason, or a price from an RFP quote) for them (issue #18).
//!
//! Overrides live in the scenarios, not in the catalog, so replacing the catalog never replaces
//! them; this module only says so beside each changed figure: "your quote stays".

use crate::catalog::Catalog;
use crate::catalog::diff::{CatalogDiff, EntryChangeKind, Freshness};
use crate::catalog::provenance::AsOf;
use crate::engine::input::scenario_file::{LayerKind, Override, ScenarioSpec};
use crate::engine::model::assumption::{Assumption, Origin};

/// Whether a cloud layer of `kind` prices from the offer's `field`: on-demand from the on-demand
/// rate, spot from the spot rate, reserved from a reserved rate or, without one, from the
/// on-demand rate less the advertised commitment discount.
fn rate_of(kind: LayerKind, field: &str) -> bool {
    match kind {
        LayerKind::OnDemand => field == "on_demand_per_gpu_hour",
        LayerKind::Spot => field == "spot_per_gpu_hour",
        LayerKind::Reserved => matches!(
            field,
            "reserved_1y_per_gpu_hour" | "reserved_3y_per_gpu_hour" | "on_demand_per_gpu_hour" | "commit_discount_pct"
        ),
        _ => false,
    }
}

/// The override a scenario gives in place of `kind` `entry`'s `field`, with where it sits.
fn overrides_for<'s>(s: &'s ScenarioSpec, kind: &str, entry: &str, field: &str) -> Vec<(String, &'s Override)> {
    let mut out = Vec::new();
    for l in &s.layers {
        let o = match (kind, field) {
            ("offer", field) if l.offer.as_deref() == Some(entry) && rate_of(l.kind, field) => {
                l.price_per_gpu_hour.as_ref()
            }
            ("accelerator", "price_usd") if l.accelerator.as_deref() == Some(entry) && l.system.is_none() => {
                l.price_per_gpu.as_ref()
            }
            ("accelerator", "bf16_tflops" | "fp8_tflops") if l.accelerator.as_deref() == Some(entry) => {
                l.peak_tflops.as_ref()
            }
            ("accelerator", "tdp_w") if l.accelerator.as_deref() == Some(entry) => l.power_kw_per_gpu.as_ref(),
            ("system", "price_usd") if l.system.as_deref() == Some(entry) => l.price_per_gpu.as_ref(),
            ("system", "max_power_kw") if l.system.as_deref() == Some(entry) => l.power_kw_per_gpu.as_ref(),
            _ => None,
        };
        if let Some(o) = o {
            out.push((format!("layer {}", l.id), o));
        }
    }
    if let Some(f) = &s.facility {
        let o = match (kind, field) {
            ("region", "tariff_per_kwh") if f.region == entry => f.tariff_per_kwh.as_ref(),
            ("region", "grid_gco2_per_kwh") if f.region == entry => f.grid_gco2_per_kwh.as_ref(),
            ("cooling", "pue") if f.cooling == entry => f.pue.as_ref(),
            ("colocation", "per_kw_month") if f.colocation.as_deref() == Some(entry) => {
                f.colocation_per_kw_month.as_ref()
            }
            _ => None,
        };
        if let Some(o) = o {
            out.push(("facility".to_owned(), o));
        }
    }
    if let Some(n) = &s.network
        && kind == "fabric"
        && field == "per_port_cost"
        && n.fabric == entry
        && let Some(o) = &n.per_port_cost
    {
        out.push(("network".to_owned(), o));
    }
    out
}

/// Fills each changed figure's `kept` with the scenarios that keep their own value for it.
pub fn mark_kept(diff: &mut CatalogDiff, scenarios: &[ScenarioSpec]) {
    for entry in diff.entries.iter_mut().filter(|e| e.change != EntryChangeKind::Added) {
        for figure in &mut entry.figures {
            for s in scenarios {
                for (place, o) in overrides_for(s, &entry.kind, &entry.id, &figure.field) {
                    let whose = if o.reason.starts_with("RFP quote") {
                        "quote"
                    } else {
                        "override"
                    };
                    figure.kept.push(format!(
                        "your {whose} stays: {} ({place}) keeps {} ({})",
                        s.name, o.value, o.reason
                    ));
                }
            }
        }
    }
}

/// How stale a figure a scenario relies on is: its age and the threshold it passed, in months;
/// `None` for an override (the user's own figure) or a figure within its threshold.
pub fn stale_age(a: &Assumption, catalog: &Catalog, freshness: &Freshness, today: AsOf) -> Option<(u32, u32)> {
    let Origin::Catalog { entry, as_of, .. } = &a.origin else {
        return None;
    };
    let limit = freshness.limit_for_entry(catalog, entry);
    Freshness::is_stale(as_of, today, limit).map(|age| (age, limit))
}

/// How many of `assumptions` are stale on `today`.
pub fn stale_count(assumptions: &[Assumption], catalog: &Catalog, freshness: &Freshness, today: AsOf) -> u32 {
    let n = assumptions
        .iter()
        .filter(|a| stale_age(a, catalog, freshness, today).is_some())
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}
