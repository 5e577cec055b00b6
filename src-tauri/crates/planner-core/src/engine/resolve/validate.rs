//! Validation and resolution: a scenario file and a catalog in, a [`Plan`] or every problem out.
//!
//! This is the only step that can refuse input. It checks every field (signs, fractions at most
//! 1, horizon 1–120, lease terms, references to catalog ids and to workloads), looks up catalog
//! figures at the scenario's price point, converts currencies with the file's explicit rates
//! (catalog figures, and overrides that name their `currency`; see [`crate::engine::input::fx`]), and records
//! each figure it used as an [`Assumption`]. Problems carry the JSON path of the field
//! (`scenarios[1].layers[0].price_per_gpu_hour`) and a sentence saying what to do. Once a plan is
//! returned, `evaluate` cannot fail.
//!
//! The price-point rule: every catalog range resolves to the scenario's point (`low`, `mid` =
//! the midpoint, or `high`; default `mid`), except the bounds of feasibility: memory uses the low
//! end (the conservative one) and a cooling technology contributes both ends (typical and
//! maximum density).

use std::collections::HashMap;

use rust_decimal::Decimal;
use rust_decimal::dec;

use crate::catalog::provenance::Figure;
use crate::catalog::{Accelerator, Catalog, FabricTechnology, UpgradeKind};
use crate::engine::blocks::finance::monthly_rate;
use crate::engine::blocks::network::FabricCost;
use crate::engine::blocks::rack::{CoolingLimit, SERVER_OVERHEAD_FACTOR};
use crate::engine::blocks::sizing::{memory_fit, memory_need};
use crate::engine::blocks::spot::{Checkpointing, overhead_factor};
use crate::engine::input::layer_fields::{LAYER_FIELDS, is_cloud};
use crate::engine::input::scenario_file::kind_id;
use crate::engine::input::scenario_file::{
    CommitTerm, FORMAT_VERSION, FacilitySpec, FinancingMethod, LayerKind, LayerSpec, NetworkSpec, Override, PricePoint,
    ScenarioFile, ScenarioSpec, TokenMix, WorkloadSpec,
};
use crate::engine::model::assumption::{Assumption, Origin};
use crate::engine::model::scenario::{
    CloudEnergy, Fabric, Facility, Financing, Layer, Owned, Plan, Scenario, TokenPrices,
};
use crate::engine::model::workload::{FLOP_PER_PFLOP_HOUR, Workload, flops_per_token, useful_pflop_per_gpu_hour};
use crate::error::{ErrorCode, ErrorDetail, PlannerError};
use crate::exit_clause::ExitClause;
use crate::problem::{MAX_HORIZON_MONTHS, Problem};
use crate::workload_kind::ModelShape;
use crate::workload_kind::{TuningMethod, WorkloadKind};

mod facility;
mod layers;
mod market;
mod owned;
mod rented;
mod scenarios;
mod tax;
mod workloads;

/// The longest operating lease accepted, in months.
pub const MAX_LEASE_MONTHS: u32 = 60;
/// Default share of hours owned hardware is up.
pub const DEFAULT_OWNED_AVAILABILITY: Decimal = dec!(0.97);
/// Default depreciation life of owned hardware, months.
pub const DEFAULT_LIFE_MONTHS: u32 = 60;
/// Default share of full power an idle GPU draws.
pub const DEFAULT_IDLE_POWER_SHARE: Decimal = dec!(0.3);
/// How far the shares of a workload's token mix may sum from 1.
pub const TOKEN_MIX_TOLERANCE: Decimal = dec!(0.000000001);
/// The catalog region whose grid intensity a rented layer's energy is counted at when its offer
/// states no region (or there is no offer).
pub const CLOUD_FALLBACK_REGION: &str = "world";

/// Turns problems into the boundary error, one detail per problem with its field path.
pub fn to_error(problems: &[Problem], file: Option<&str>) -> PlannerError {
    let n = problems.len();
    PlannerError {
        code: ErrorCode::InvalidInput,
        message: format!(
            "The scenario file has {n} problem{}; nothing was evaluated. Fix each field listed and run again.",
            if n == 1 { "" } else { "s" }
        ),
        details: problems
            .iter()
            .map(|p| ErrorDetail {
                file: file.map(str::to_owned),
                line: None,
                column: None,
                field: Some(p.path.clone()),
                kind: Some("invalid-input".to_owned()),
                message: p.message.clone(),
            })
            .collect(),
    }
}

/// Checks a scenario file against a catalog and resolves it. `horizon` (from the command line)
/// replaces the file's horizon when given.
pub fn validate(catalog: &Catalog, file: &ScenarioFile, horizon: Option<u32>) -> Result<Plan, Vec<Problem>> {
    // Numbers beyond the engine's bounds are refused before any arithmetic is done with them
    // (issue #14): the engine cannot fail, so it must never see them.
    // A horizon outside 1 to 120 is no risk to the arithmetic (it only counts months): it is
    // reported with the file's other problems by `file_level`, and resolution runs on a horizon
    // held inside that range meanwhile.
    let out_of_range = crate::engine::input::limits::check(file);
    if !out_of_range.is_empty() {
        return Err(out_of_range);
    }
    let mut v = Resolver {
        catalog,
        problems: Vec::new(),
        currency: file.currency.clone(),
        fx: HashMap::new(),
        fx_warnings: Vec::new(),
        point: file.price_point,
        assumptions: Vec::new(),
        horizon: horizon.unwrap_or(file.horizon_months).clamp(1, MAX_HORIZON_MONTHS),
        warnings: Vec::new(),
        derive_resale: false,
    };
    v.file_level(file, horizon);
    if let Some(m) = &file.market {
        v.check_market("market", m);
    }
    let (tax, tax_assumptions) = v.tax(file.tax.as_ref());
    let workloads: Vec<Workload> = file
        .workloads
        .iter()
        .enumerate()
        .filter_map(|(i, w)| v.workload(i, w))
        .collect();
    let mut scenarios = Vec::new();
    let mut seen = HashMap::new();
    if file.scenarios.is_empty() {
        v.push("scenarios", "give at least one scenario");
    }
    for (i, s) in file.scenarios.iter().enumerate() {
        if seen.insert(s.id.clone(), i).is_some() {
            v.push(
                format!("scenarios[{i}].id"),
                format!("scenario id `{}` is used twice; ids must be unique", s.id),
            );
        }
        if let Some(mut s) = v.scenario(i, s, file, &workloads) {
            s.assumptions.extend(tax_assumptions.iter().cloned());
            scenarios.push(s);
        }
    }
    if !v.problems.is_empty() {
        return Err(v.problems);
    }
    Ok(Plan {
        title: file.title.clone(),
        currency: file.currency.clone(),
        start: file.start,
        horizon_months: horizon.unwrap_or(file.horizon_months),
        discount_rate: file.discount_rate,
        workloads,
        scenarios,
        tax,
    })
}

/// The catalog's sourced resale share for owned hardware of accelerator `accelerator` (a catalog
/// id) at `age` months old, at price point `point`: the rule `validate` applies at the horizon,
/// for any other age (an early sale in a plan variant). Returns the share, the assumption it is
/// recorded as (at `path`), and the warnings; without an estimate covering the accelerator at that
/// age the share is 0, no assumption is made and a warning says so.
pub fn catalog_resale_share(
    catalog: &Catalog,
    accelerator: Option<&str>,
    layer_id: &str,
    age: u32,
    point: PricePoint,
    path: &str,
) -> (Decimal, Option<Assumption>, Vec<String>) {
    let mut v = Resolver {
        catalog,
        problems: Vec::new(),
        currency: String::new(),
        fx: HashMap::new(),
        fx_warnings: Vec::new(),
        point,
        assumptions: Vec::new(),
        horizon: MAX_HORIZON_MONTHS,
        warnings: Vec::new(),
        derive_resale: false,
    };
    let acc = accelerator.and_then(|a| catalog.accelerator(a));
    let share = v.catalog_resale(path, layer_id, acc, age, point);
    (share, v.assumptions.pop(), v.warnings)
}

struct Resolver<'c> {
    catalog: &'c Catalog,
    problems: Vec<Problem>,
    currency: String,
    /// Rates by the currency they convert from (see [`crate::engine::input::fx`]).
    fx: HashMap<String, crate::engine::input::fx::Conversion>,
    /// Findings on `fx` that every scenario's warnings repeat (rates not checked for plausibility).
    fx_warnings: Vec<String>,
    point: PricePoint,
    assumptions: Vec<Assumption>,
    /// The horizon the plan is evaluated over (the file's, or the one given to `validate`).
    horizon: u32,
    /// Findings while resolving a scenario's layers, moved into its warnings.
    warnings: Vec<String>,
    /// Whether the scenario's market derives resale from price-performance (issue #44): owned
    /// hardware without a sourced estimate then gets its resale from `market`, not 0.
    derive_resale: bool,
}

fn at(figure: &Figure, point: PricePoint) -> Decimal {
    match point {
        PricePoint::Low => figure.low,
        PricePoint::Mid => figure.mid(),
        PricePoint::High => figure.high,
    }
}

fn is_currency_code(c: &str) -> bool {
    c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase())
}

impl<'c> Resolver<'c> {
    fn push(&mut self, path: impl Into<String>, message: impl Into<String>) {
        // Messages quote values from the file (ids, codes): a long one is cut, not echoed whole.
        let message = message.into();
        self.problems.push(Problem {
            path: path.into(),
            message: crate::problem::clip_message(&message).into_owned(),
        });
    }

    fn non_negative(&mut self, path: &str, value: Decimal) {
        if value < Decimal::ZERO {
            self.push(path, format!("{value} is negative; give zero or more"));
        }
    }

    /// A fraction between 0 and 1 (0% to 100%).
    fn fraction(&mut self, path: &str, value: Decimal) {
        if value < Decimal::ZERO || value > Decimal::ONE {
            self.push(
                path,
                format!("{value} is not a fraction between 0 and 1; write shares as fractions (\"0.97\" for 97%), never above 1 (100%)"),
            );
        }
    }

    /// A fraction strictly above 0, at most 1.
    fn positive_fraction(&mut self, path: &str, value: Decimal) {
        if value <= Decimal::ZERO || value > Decimal::ONE {
            self.push(path, format!("{value} must be above 0 and at most 1 (100%)"));
        }
    }

    fn fx_rate(&mut self, path: &str, currency: &str) -> Decimal {
        if currency == self.currency {
            return Decimal::ONE;
        }
        match self.fx.get(currency) {
            Some(r) => r.per_unit,
            None => {
                let msg = format!(
                    "this catalog figure is in {currency} and the file is in {}; add {} to `fx`",
                    self.currency,
                    crate::engine::input::fx::suggestion(currency, &self.currency)
                );
                self.push(path, msg);
                Decimal::ONE
            }
        }
    }

    /// A user value in place of a catalog figure: checked, and recorded with its reason.
    fn take_override(&mut self, path: &str, o: &Override) -> Decimal {
        self.non_negative(path, o.value);
        if o.reason.trim().is_empty() {
            self.push(
                format!("{path}.reason"),
                "say why this value replaces the catalog's (a quote, a measurement, a source)",
            );
        }
        let (value, reason) = self.override_currency(path, o);
        self.assumptions.push(Assumption {
            path: path.to_owned(),
            value,
            origin: Origin::Override { reason },
        });
        value
    }

    /// An override's value in the file's currency, and its reason saying what was converted
    /// ("quote 42 (USD 2.50 at 1 EUR = 1.08 USD)"). A `currency` is for money fields only.
    fn override_currency(&mut self, path: &str, o: &Override) -> (Decimal, String) {
        let Some(cur) = o.currency.as_deref() else {
            return (o.value, o.reason.clone());
        };
        if !crate::engine::input::fx::is_money_override(path) {
            self.push(
                format!("{path}.currency"),
                format!("this figure is not money, so it has no currency; remove `\"currency\": \"{cur}\"`"),
            );
            return (o.value, o.reason.clone());
        }
        if !is_currency_code(cur) {
            self.push(
                format!("{path}.currency"),
                format!("`{cur}` is not an ISO 4217 code; write three capital letters, e.g. USD or EUR"),
            );
            return (o.value, o.reason.clone());
        }
        if cur == self.currency {
            return (o.value, o.reason.clone());
        }
        match self.fx.get(cur) {
            Some(r) => (
                o.value * r.per_unit,
                format!("{} ({cur} {} at {})", o.reason, o.value, r.shown),
            ),
            None => {
                let msg = format!(
                    "this value is in {cur} and the file is in {}; add {} to `fx`",
                    self.currency,
                    crate::engine::input::fx::suggestion(cur, &self.currency)
                );
                self.push(path, msg);
                (o.value, o.reason.clone())
            }
        }
    }

    /// A catalog figure at the chosen point, converted from `currency` (when money), recorded.
    fn take_catalog(
        &mut self,
        path: &str,
        entry: &str,
        field: &str,
        figure: &Figure,
        currency: Option<&str>,
        point: PricePoint,
    ) -> Decimal {
        let rate = match currency {
            Some(c) => self.fx_rate(path, c),
            None => Decimal::ONE,
        };
        let value = at(figure, point) * rate;
        self.assumptions.push(Assumption {
            path: path.to_owned(),
            value,
            origin: Origin::Catalog {
                entry: entry.to_owned(),
                field: field.to_owned(),
                point,
                low: figure.low,
                high: figure.high,
                currency: currency.map(str::to_owned),
                as_of: figure.provenance.as_of.to_string(),
                confidence: figure.provenance.confidence,
                sources: figure
                    .provenance
                    .sources
                    .iter()
                    .map(|s| format!("{} ({})", s.title, s.as_of))
                    .collect(),
            },
        });
        value
    }

    /// An override if given, else the catalog figure, else a problem saying to give one.
    #[allow(clippy::too_many_arguments)]
    fn figure_or_override(
        &mut self,
        path: &str,
        o: Option<&Override>,
        entry: &str,
        field: &str,
        figure: Option<&Figure>,
        currency: Option<&str>,
        point: PricePoint,
    ) -> Decimal {
        match (o, figure) {
            (Some(o), _) => self.take_override(path, o),
            (None, Some(f)) => self.take_catalog(path, entry, field, f, currency, point),
            (None, None) => {
                self.push(
                    path,
                    format!(
                        "the catalog has no `{field}` for `{entry}`; give {{\"value\": \"...\", \"reason\": \"...\"}}"
                    ),
                );
                Decimal::ZERO
            }
        }
    }

    fn file_level(&mut self, file: &ScenarioFile, horizon: Option<u32>) {
        if file.format_version != FORMAT_VERSION {
            self.push(
                "format_version",
                format!(
                    "this build reads format_version {FORMAT_VERSION}, the file says {}",
                    file.format_version
                ),
            );
        }
        if !is_currency_code(&file.currency) {
            self.push(
                "currency",
                format!(
                    "`{}` is not an ISO 4217 code; write three capital letters, e.g. USD or EUR",
                    file.currency
                ),
            );
        }
        let h = horizon.unwrap_or(file.horizon_months);
        if !(1..=MAX_HORIZON_MONTHS).contains(&h) {
            let origin = if horizon.is_some() { " (from --horizon)" } else { "" };
            self.push(
                "horizon_months",
                format!("a horizon of {h} months{origin} is outside 1 to {MAX_HORIZON_MONTHS}"),
            );
        }
        if file.discount_rate < Decimal::ZERO || file.discount_rate > Decimal::ONE {
            self.push(
                "discount_rate",
                format!(
                    "{} is not an annual rate between 0 and 1 (\"0.08\" for 8%)",
                    file.discount_rate
                ),
            );
        }
        let fx = crate::engine::input::fx::check(&file.fx, &file.currency);
        self.problems.extend(fx.problems);
        self.fx = fx.rates;
        self.fx_warnings = fx.warnings;
        if file.workloads.is_empty() {
            self.push("workloads", "give at least one workload");
        }
        let mut ids = HashMap::new();
        for (i, w) in file.workloads.iter().enumerate() {
            if ids.insert(w.id.clone(), i).is_some() {
                self.push(
                    format!("workloads[{i}].id"),
                    format!("workload id `{}` is used twice", w.id),
                );
            }
        }
    }

    fn accelerator(&mut self, path: &str, id: &str) -> Option<&'c Accelerator> {
        let found = self.catalog.accelerator(id);
        if found.is_none() {
            self.push(
                path,
                format!("no accelerator has id `{id}` in the catalog; see `planner catalog list --kind accelerators`"),
            );
        }
        found
    }
}

/// A layer's hardware as the catalog gives it.
struct LayerHardware<'c> {
    offer: Option<&'c crate::catalog::Offer>,
    system: Option<&'c crate::catalog::ServerSystem>,
    acc_id: Option<String>,
    acc: Option<&'c Accelerator>,
}

/// What a layer pays and when it ends, as its kind sets them.
struct KindTerms {
    price_per_gpu_hour: Decimal,
    price_per_million_tokens: Decimal,
    token_prices: Option<TokenPrices>,
    overhead: Decimal,
    spot: Option<crate::engine::blocks::spot::SpotTerms>,
    until: Option<u32>,
    owned: Option<Owned>,
    region: Option<String>,
    gpus: Option<u32>,
}

/// An accelerator's dense peak TFLOPS (catalog midpoint) at 8-bit precision (falling back to
/// 16-bit) or at 16-bit.
pub(crate) fn peak_of(a: &Accelerator, eight_bit: bool) -> Option<Decimal> {
    let p16 = a.bf16_tflops.as_ref().map(Figure::mid);
    let p8 = a.fp8_tflops.as_ref().map(Figure::mid);
    if eight_bit { p8.or(p16) } else { p16 }
}

/// A scenario's own figures in place of those every scenario shares (absent: the shared ones).
struct WorldFigures {
    demand_scale: Option<Decimal>,
    monthly_growth: Option<Decimal>,
    discount_rate: Option<Decimal>,
}
