//! Live what-if drivers (issue #17): a few sliders (demand, growth, prices, tariff, PUE, discount
//! rate, resale, lead time, horizon) written into a copy of the scenario file as ordinary inputs
//! and overrides, so validate → evaluate → compare and every engine rule apply unchanged.
//!
//! - **Multipliers** (`Demand`, `GpuPrice`, `OnDemandRate`, `ReservedRate`, `SpotRate`, 0 to 5)
//!   multiply the figure the plan resolves at its price point (catalog or quoted, in the file's
//!   currency): the original file is validated and `resolved × value` is written as the layer's
//!   override. A multiplier of exactly 1 writes nothing (the figure stays as it is, catalog origin
//!   and all). `GpuPrice` scales the price per GPU (a system's per-GPU share), not the platform
//!   cost; `OnDemandRate` scales every pay-as-used price: on-demand and pooled layers' price per
//!   GPU-hour and token-metered layers' prices per million tokens (blended or by kind; a cached
//!   price the file leaves to default follows the scaled input price).
//! - **Values** replace the figure: `Growth` (−0.5 to 1 a month), `Tariff` (per kWh in the file's
//!   currency), `Pue` (1 to 3), `DiscountRate` (0 to 1), `Residual` (0 to 1, owned hardware not
//!   leased), `LeadTime` (whole months 0 to 36, owned layers, replacing a catalog lead time) and
//!   `Horizon` (one of [`HORIZON_CHOICES`]).
//! - **World figures** every scenario shares (demand, growth, discount rate) are written as the
//!   scenario-level overrides `demand_scale`, `monthly_growth` and `discount_rate`, so a what-if
//!   on one scenario leaves the others as they are.

use rust_decimal::Decimal;
use rust_decimal::dec;
use serde::{Deserialize, Serialize};

use crate::catalog::Catalog;
use crate::engine::decide::decision::HORIZON_CHOICES;
use crate::engine::input::scenario_file::{FinancingMethod, LayerKind, Override, ScenarioFile, ScenarioSpec};
use crate::engine::model::scenario::{Financing, Plan, Scenario};
use crate::engine::resolve::validate::validate;
use crate::problem::Problem;

/// What a what-if driver moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum DriverKind {
    Demand,
    Growth,
    GpuPrice,
    OnDemandRate,
    ReservedRate,
    SpotRate,
    Tariff,
    Pue,
    DiscountRate,
    Residual,
    LeadTime,
    Horizon,
}

impl DriverKind {
    /// Every kind, in the order the screen lists them.
    pub const ALL: [DriverKind; 12] = [
        DriverKind::Demand,
        DriverKind::Growth,
        DriverKind::GpuPrice,
        DriverKind::OnDemandRate,
        DriverKind::ReservedRate,
        DriverKind::SpotRate,
        DriverKind::Tariff,
        DriverKind::Pue,
        DriverKind::DiscountRate,
        DriverKind::Residual,
        DriverKind::LeadTime,
        DriverKind::Horizon,
    ];

    /// Whether the value multiplies the resolved figure (else it replaces it).
    pub fn is_multiplier(self) -> bool {
        matches!(
            self,
            DriverKind::Demand
                | DriverKind::GpuPrice
                | DriverKind::OnDemandRate
                | DriverKind::ReservedRate
                | DriverKind::SpotRate
        )
    }

    /// The values accepted, inclusive (`None` above: no ceiling beyond the file's bounds).
    pub fn range(self) -> (Decimal, Option<Decimal>) {
        match self {
            k if k.is_multiplier() => (Decimal::ZERO, Some(dec!(5))),
            DriverKind::Growth => (dec!(-0.5), Some(Decimal::ONE)),
            DriverKind::Tariff => (Decimal::ZERO, None),
            DriverKind::Pue => (Decimal::ONE, Some(dec!(3))),
            DriverKind::LeadTime => (Decimal::ZERO, Some(dec!(36))),
            DriverKind::Horizon => (dec!(12), Some(dec!(60))),
            _ => (Decimal::ZERO, Some(Decimal::ONE)),
        }
    }
}

/// One slider: a kind and its value (a multiplier or the figure itself; see the module).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Driver {
    pub kind: DriverKind,
    pub value: Decimal,
}

/// The drivers set, and the scenario they apply to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct WhatIf {
    pub drivers: Vec<Driver>,
    /// None: every compared scenario.
    #[serde(default)]
    pub scenario: Option<String>,
}

/// What a driver replaces over the scenarios it applies to, for the slider's label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DriverBase {
    pub kind: DriverKind,
    /// The values the driver replaces over the scenarios it applies to (equal when one value).
    pub low: Decimal,
    pub high: Decimal,
    /// How many layers/facilities/workloads it touches; 0 = nothing to apply to.
    pub applies_to: u32,
    pub label: String,
    pub unit: String,
}

/// Every driver outside its range, a kind given twice or an unknown scenario, at its path
/// (`drivers[1].value`, `drivers[2].kind`, `scenario`).
pub fn check(file: &ScenarioFile, what_if: &WhatIf) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut push = |path: String, message: String| problems.push(Problem { path, message });
    if let Some(id) = &what_if.scenario
        && !file.scenarios.iter().any(|s| &s.id == id)
    {
        push(
            "scenario".into(),
            format!("there is no scenario `{id}` to apply the what-if to"),
        );
    }
    for (i, d) in what_if.drivers.iter().enumerate() {
        if what_if.drivers[..i].iter().any(|e| e.kind == d.kind) {
            push(
                format!("drivers[{i}].kind"),
                "this driver is given twice; give each once".into(),
            );
        }
        let (low, high) = d.kind.range();
        let v = d.value;
        if v < low || high.is_some_and(|h| v > h) {
            let upper = high.map_or_else(|| "or more".to_owned(), |h| format!("to {}", h.normalize()));
            push(
                format!("drivers[{i}].value"),
                format!("{} is outside {} {upper}", v.normalize(), low.normalize()),
            );
        } else if d.kind == DriverKind::LeadTime && !v.fract().is_zero() {
            push(
                format!("drivers[{i}].value"),
                format!("{} is not a whole number of months", v.normalize()),
            );
        } else if d.kind == DriverKind::Horizon && !HORIZON_CHOICES.iter().any(|h| Decimal::from(*h) == v) {
            push(
                format!("drivers[{i}].value"),
                format!(
                    "{} months is not one of the horizons compared (12, 24, 36 or 60)",
                    v.normalize()
                ),
            );
        }
    }
    problems
}

/// The plan of `file`'s scenarios that validate (a scenario with a problem is left out, as the
/// comparison leaves it out); `None` when none does or a workload or setting is wrong. What
/// `bases` and `apply` read; a caller that wants both resolves once and passes it to
/// `bases_resolved` and `apply_resolved` (validation is a fifth of a what-if move).
pub fn resolve(file: &ScenarioFile, catalog: &Catalog) -> Option<Plan> {
    let problems = match validate(catalog, file, None) {
        Ok(plan) => return Some(plan),
        Err(problems) => problems,
    };
    let mut bad = Vec::new();
    for p in &problems {
        let index = p
            .path
            .strip_prefix("scenarios[")
            .and_then(|rest| rest.split_once(']'))
            .and_then(|(i, _)| i.parse::<usize>().ok())?;
        bad.push(index);
    }
    let mut good = file.clone();
    good.scenarios = file
        .scenarios
        .iter()
        .enumerate()
        .filter(|(i, _)| !bad.contains(i))
        .map(|(_, s)| s.clone())
        .collect();
    validate(catalog, &good, None).ok()
}

fn targeted<'a>(file: &'a ScenarioFile, scenario: Option<&'a str>) -> impl Iterator<Item = &'a ScenarioSpec> + 'a {
    file.scenarios
        .iter()
        .filter(move |s| scenario.is_none_or(|id| s.id == id))
}

/// A copy of `file` with every driver of `what_if` written into it as inputs and overrides whose
/// reason is `reason`, on the scenario it names (else every scenario); the drivers' problems at
/// their paths when any is out of range. Multipliers read the figures `file` resolves to; a
/// scenario that does not validate takes only the drivers that need no resolved figure.
pub fn apply(
    file: &ScenarioFile,
    catalog: &Catalog,
    what_if: &WhatIf,
    reason: &str,
) -> Result<ScenarioFile, Vec<Problem>> {
    let needs_plan = what_if
        .drivers
        .iter()
        .any(|d| d.kind.is_multiplier() && d.kind != DriverKind::Demand && d.value != Decimal::ONE);
    let plan = if needs_plan && check(file, what_if).is_empty() {
        resolve(file, catalog)
    } else {
        None
    };
    apply_resolved(file, plan.as_ref(), what_if, reason)
}

/// `apply` with `file` already resolved (`resolve(file, catalog)`).
pub fn apply_resolved(
    file: &ScenarioFile,
    plan: Option<&Plan>,
    what_if: &WhatIf,
    reason: &str,
) -> Result<ScenarioFile, Vec<Problem>> {
    let problems = check(file, what_if);
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut out = file.clone();
    if what_if.drivers.is_empty() {
        return Ok(out);
    }
    for spec in &mut out.scenarios {
        if what_if.scenario.as_ref().is_some_and(|id| *id != spec.id) {
            continue;
        }
        let resolved = plan.and_then(|p| p.scenarios.iter().find(|s| s.id == spec.id));
        for d in &what_if.drivers {
            apply_driver(spec, resolved, d, reason);
        }
    }
    if let Some(h) = what_if.drivers.iter().find(|d| d.kind == DriverKind::Horizon) {
        out.horizon_months = u32::try_from(h.value.trunc()).unwrap_or(out.horizon_months);
    }
    Ok(out)
}

fn overriding(value: Decimal, reason: &str) -> Option<Override> {
    Some(Override {
        value: value.normalize(),
        currency: None,
        reason: reason.to_owned(),
    })
}

/// `resolved × m` as an override, or `None` when the product leaves the decimal's range.
fn scaled(resolved: Decimal, m: Decimal, reason: &str) -> Option<Override> {
    resolved.checked_mul(m).and_then(|v| overriding(v, reason))
}

/// Writes driver `d` into scenario `spec` (`resolved`: the scenario as the original file resolves).
fn apply_driver(spec: &mut ScenarioSpec, resolved: Option<&Scenario>, d: &Driver, reason: &str) {
    let v = d.value;
    if d.kind.is_multiplier() && v == Decimal::ONE {
        return;
    }
    match d.kind {
        DriverKind::Demand => {
            let now = spec.demand_scale.as_ref().map_or(Decimal::ONE, |o| o.value);
            spec.demand_scale = scaled(now, v, reason);
        }
        DriverKind::Growth => spec.monthly_growth = overriding(v, reason),
        DriverKind::DiscountRate => spec.discount_rate = overriding(v, reason),
        DriverKind::Tariff => {
            if let Some(f) = &mut spec.facility {
                f.tariff_per_kwh = overriding(v, reason);
            }
        }
        DriverKind::Pue => {
            if let Some(f) = &mut spec.facility {
                f.pue = overriding(v, reason);
            }
        }
        DriverKind::Residual | DriverKind::LeadTime => owned_driver(spec, d, reason),
        DriverKind::GpuPrice | DriverKind::OnDemandRate | DriverKind::ReservedRate | DriverKind::SpotRate => {
            if let Some(r) = resolved {
                price_driver(spec, r, d, reason);
            }
        }
        DriverKind::Horizon => {}
    }
}

fn leased(l: &crate::engine::input::scenario_file::LayerSpec) -> bool {
    l.financing.as_ref().is_some_and(|f| f.method == FinancingMethod::Lease)
}

/// Residual share (owned hardware not leased) and lead time (owned layers).
fn owned_driver(spec: &mut ScenarioSpec, d: &Driver, reason: &str) {
    for l in spec.layers.iter_mut().filter(|l| l.kind == LayerKind::Owned) {
        if d.kind == DriverKind::Residual {
            if !leased(l) {
                l.residual_share = Some(d.value.normalize());
                l.residual_reason = Some(reason.to_owned());
            }
        } else {
            let months = u32::try_from(d.value.trunc()).unwrap_or(0);
            l.lead_time_source = None;
            l.lead_time_months = months;
            l.lead_time_reason = (months > 0).then(|| reason.to_owned());
        }
    }
}

/// The price multipliers, on each layer they apply to, from its resolved price.
fn price_driver(spec: &mut ScenarioSpec, resolved: &Scenario, d: &Driver, reason: &str) {
    let m = d.value;
    for l in &mut spec.layers {
        let Some(r) = resolved.layers.iter().find(|r| r.id == l.id) else {
            continue;
        };
        match (d.kind, l.kind) {
            (DriverKind::GpuPrice, LayerKind::Owned) => {
                // The month-0 price (before a purchase path moved it): the copy's own path applies again.
                if let Some(o) = &r.owned {
                    let price = r.base_price.unwrap_or(o.hardware_per_gpu);
                    l.price_per_gpu = scaled(price - l.platform_cost_per_gpu, m, reason);
                }
            }
            (DriverKind::OnDemandRate, LayerKind::OnDemand | LayerKind::Pooled)
            | (DriverKind::ReservedRate, LayerKind::Reserved)
            | (DriverKind::SpotRate, LayerKind::Spot) => {
                // The month-0 price (before a reservation locked a moved price in).
                l.price_per_gpu_hour = scaled(r.base_price.unwrap_or(r.price_per_gpu_hour), m, reason);
            }
            (DriverKind::OnDemandRate, LayerKind::TokenMetered) => match &r.token_prices {
                Some(p) => {
                    l.price_per_million_input_tokens = scaled(p.input, m, reason);
                    l.price_per_million_output_tokens = scaled(p.output, m, reason);
                    if l.price_per_million_cached_tokens.is_some() {
                        l.price_per_million_cached_tokens = scaled(p.cached, m, reason);
                    }
                }
                None => l.price_per_million_tokens = scaled(r.price_per_million_tokens, m, reason),
            },
            _ => {}
        }
    }
}

/// Low, high and count of `values`; zeros when there are none.
fn spread(values: &[Decimal]) -> (Decimal, Decimal, u32) {
    let low = values.iter().copied().min().unwrap_or_default();
    let high = values.iter().copied().max().unwrap_or_default();
    (low, high, u32::try_from(values.len()).unwrap_or(u32::MAX))
}

/// For each driver kind, what it replaces over the scenarios `what_if_scenario` names (else
/// every scenario of `file`): the low and high of the figures (resolved at the price point, in
/// the file's currency), how many it touches, and its label and unit in plain words.
pub fn bases(file: &ScenarioFile, catalog: &Catalog, what_if_scenario: Option<&str>) -> Vec<DriverBase> {
    bases_resolved(file, resolve(file, catalog).as_ref(), what_if_scenario)
}

/// `bases` with `file` already resolved (`resolve(file, catalog)`).
pub fn bases_resolved(file: &ScenarioFile, plan: Option<&Plan>, what_if_scenario: Option<&str>) -> Vec<DriverBase> {
    let specs: Vec<&ScenarioSpec> = targeted(file, what_if_scenario).collect();
    let resolved: Vec<&Scenario> = plan
        .map(|p| {
            p.scenarios
                .iter()
                .filter(|s| specs.iter().any(|t| t.id == s.id))
                .collect()
        })
        .unwrap_or_default();
    let cur = &file.currency;
    DriverKind::ALL
        .iter()
        .map(|&kind| {
            let values = base_values(kind, file, &specs, &resolved);
            let (low, high, applies_to) = spread(&values);
            let (label, mut unit) = words(kind, cur);
            if kind == DriverKind::OnDemandRate
                && applies_to > 0
                && layer_prices(&resolved, &[LayerKind::OnDemand, LayerKind::Pooled]).is_empty()
            {
                unit = format!("{cur} per million tokens");
            }
            DriverBase {
                kind,
                low,
                high,
                applies_to,
                label: label.to_owned(),
                unit,
            }
        })
        .collect()
}

fn layer_prices(resolved: &[&Scenario], kinds: &[LayerKind]) -> Vec<Decimal> {
    resolved
        .iter()
        .flat_map(|s| &s.layers)
        .filter(|l| kinds.contains(&l.kind))
        .map(|l| l.base_price.unwrap_or(l.price_per_gpu_hour))
        .collect()
}

/// The figures a driver of `kind` replaces, one per thing it touches.
fn base_values(kind: DriverKind, file: &ScenarioFile, specs: &[&ScenarioSpec], resolved: &[&Scenario]) -> Vec<Decimal> {
    let owned = || resolved.iter().flat_map(|s| &s.layers).filter_map(|l| l.owned.as_ref());
    let facilities = || resolved.iter().filter_map(|s| s.facility.as_ref());
    let per_workload = |f: &dyn Fn(&ScenarioSpec, &crate::engine::input::scenario_file::WorkloadSpec) -> Decimal| {
        specs
            .iter()
            .flat_map(|s| file.workloads.iter().map(move |w| f(s, w)))
            .collect::<Vec<_>>()
    };
    match kind {
        DriverKind::Demand => per_workload(&|s, _| s.demand_scale.as_ref().map_or(Decimal::ONE, |o| o.value)),
        DriverKind::Growth => per_workload(&|s, w| s.monthly_growth.as_ref().map_or(w.monthly_growth, |o| o.value)),
        DriverKind::DiscountRate => specs
            .iter()
            .map(|s| s.discount_rate.as_ref().map_or(file.discount_rate, |o| o.value))
            .collect(),
        DriverKind::Horizon => specs.iter().map(|_| Decimal::from(file.horizon_months)).collect(),
        DriverKind::GpuPrice => resolved
            .iter()
            .flat_map(|s| {
                let spec = specs.iter().find(|t| t.id == s.id);
                s.layers.iter().filter_map(move |l| {
                    let platform = spec
                        .and_then(|t| t.layers.iter().find(|x| x.id == l.id))
                        .map_or(Decimal::ZERO, |x| x.platform_cost_per_gpu);
                    l.owned
                        .as_ref()
                        .map(|o| l.base_price.unwrap_or(o.hardware_per_gpu) - platform)
                })
            })
            .collect(),
        DriverKind::OnDemandRate => {
            let hourly = layer_prices(resolved, &[LayerKind::OnDemand, LayerKind::Pooled]);
            if hourly.is_empty() {
                resolved
                    .iter()
                    .flat_map(|s| &s.layers)
                    .filter(|l| l.kind == LayerKind::TokenMetered)
                    .map(|l| l.token_prices.map_or(l.price_per_million_tokens, |p| p.input))
                    .collect()
            } else {
                hourly
            }
        }
        DriverKind::ReservedRate => layer_prices(resolved, &[LayerKind::Reserved]),
        DriverKind::SpotRate => layer_prices(resolved, &[LayerKind::Spot]),
        DriverKind::Tariff => facilities().map(|f| f.tariff_per_kwh).collect(),
        DriverKind::Pue => facilities().map(|f| f.pue).collect(),
        DriverKind::Residual => owned()
            .filter(|o| !matches!(o.financing, Financing::Lease { .. }))
            .map(|o| o.residual_share)
            .collect(),
        DriverKind::LeadTime => owned()
            .map(|o| Decimal::from(o.delivery_month.saturating_sub(o.order_month)))
            .collect(),
    }
}

/// A driver's label and unit in plain words.
fn words(kind: DriverKind, cur: &str) -> (&'static str, String) {
    match kind {
        DriverKind::Demand => ("Demand, as a share of the stated demand", "× stated".into()),
        DriverKind::Growth => ("Monthly demand growth", "a month".into()),
        DriverKind::GpuPrice => ("Price of owned GPUs", format!("{cur} per GPU")),
        DriverKind::OnDemandRate => ("On-demand, pooled and API prices", format!("{cur} per GPU-hour")),
        DriverKind::ReservedRate => ("Reserved price", format!("{cur} per GPU-hour")),
        DriverKind::SpotRate => ("Spot price", format!("{cur} per GPU-hour")),
        DriverKind::Tariff => ("Electricity tariff", format!("{cur} per kWh")),
        DriverKind::Pue => ("PUE of the room", "PUE".into()),
        DriverKind::DiscountRate => ("Discount rate", "a year".into()),
        DriverKind::Residual => ("Resale at the horizon", "of the price".into()),
        DriverKind::LeadTime => ("Lead time of owned hardware", "months".into()),
        DriverKind::Horizon => ("Horizon", "months".into()),
    }
}
