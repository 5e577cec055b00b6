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
use crate::engine::blocks::sizing::{ModelShape, memory_fit, memory_need};
use crate::engine::blocks::spot::{Checkpointing, overhead_factor};
use crate::engine::input::scenario_file::kind_id;
use crate::engine::input::scenario_file::{
    CommitTerm, FORMAT_VERSION, FacilitySpec, FinancingMethod, LayerKind, LayerSpec, NetworkSpec, Override, PricePoint,
    ScenarioFile, ScenarioSpec, TokenMix, WorkloadSpec,
};
use crate::engine::model::scenario::{
    Assumption, CloudEnergy, Fabric, Facility, Financing, Layer, Origin, Owned, Plan, Scenario, TokenPrices,
};
use crate::engine::model::workload::{
    FLOP_PER_PFLOP_HOUR, TuningMethod, Workload, WorkloadKind, flops_per_token, useful_pflop_per_gpu_hour,
};
use crate::error::{ErrorCode, ErrorDetail, PlannerError};
use crate::exit_clause::ExitClause;
pub use crate::problem::{MAX_HORIZON_MONTHS, Problem};

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
    };
    v.file_level(file, horizon);
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
        if let Some(s) = v.scenario(i, s, file, &workloads) {
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

    fn workload(&mut self, i: usize, w: &WorkloadSpec) -> Option<Workload> {
        let p = format!("workloads[{i}]");
        let before = self.problems.len();
        if w.id.trim().is_empty() {
            self.push(format!("{p}.id"), "give the workload an id");
        }
        self.positive_fraction(&format!("{p}.mfu"), w.mfu);
        if w.monthly_growth < dec!(-1) || w.monthly_growth > Decimal::ONE {
            self.push(
                format!("{p}.monthly_growth"),
                format!("{} is not a monthly growth between -1 and 1", w.monthly_growth),
            );
        }
        if w.active_months == Some(0) {
            self.push(
                format!("{p}.active_months"),
                "a workload must be active at least one month; leave the field out for the whole horizon",
            );
        }
        let method = self.tuning_method(&p, w);
        let token_mix = self.token_mix(&p, w);
        if let Some(region) = &w.region
            && self.catalog.region(region).is_none()
        {
            self.push(
                format!("{p}.region"),
                format!("no region has id `{region}` in the catalog"),
            );
        }
        let parameters = w.model.as_ref().map(|m| m.parameters_billion * dec!(1000000000));
        if let Some(m) = &w.model
            && m.parameters_billion <= Decimal::ZERO
        {
            self.push(
                format!("{p}.model.parameters_billion"),
                "the model needs more than zero parameters",
            );
        }
        let fpt = parameters.map(|n| flops_per_token(w.kind, method, n));
        let (base, per_day) = self.base_demand(&p, w, fpt);
        if self.problems.len() == before {
            self.demand_in_range(&p, w, base, per_day);
        }
        if self.problems.len() > before {
            return None;
        }
        let shape = w.model.as_ref().map(|m| ModelShape {
            parameters: m.parameters_billion * dec!(1000000000),
            precision: w.precision,
            layers: m.layers,
            kv_heads: m.kv_heads,
            head_dim: m.head_dim,
            context_tokens: m.context_tokens,
            batch: m.batch,
        });
        let need_gb = shape.as_ref().map(|s| memory_need(s, w.kind, method).total_gb);
        let (shadow, shadow_source) = self.shadow_price(&p, w.precision, w.mfu, need_gb);
        Some(Workload {
            id: w.id.clone(),
            name: w.name.clone(),
            kind: w.kind,
            method,
            class: w.class,
            precision: w.precision,
            interruptible: w.interruptible,
            data_classification: w.data_classification,
            region: w.region.clone(),
            parameters,
            flops_per_token: fpt,
            token_mix,
            base_demand: base,
            per_day,
            monthly_growth: w.monthly_growth,
            active_from: w.active_from_month,
            active_months: w.active_months,
            mfu: w.mfu,
            shape,
            shadow_price_per_pflop_h: shadow,
            shadow_source,
        })
    }

    /// The tuning method a workload trains with: full fine-tuning unless it says otherwise, and
    /// none for work that is not fine-tuning (where giving one is refused).
    fn tuning_method(&mut self, p: &str, w: &WorkloadSpec) -> Option<TuningMethod> {
        match (w.kind, w.method) {
            (WorkloadKind::FineTuning, None) => Some(TuningMethod::Full),
            (WorkloadKind::FineTuning, m) => m,
            (_, Some(_)) => {
                self.push(format!("{p}.method"), "`method` applies to fine-tuning only");
                None
            }
            (_, None) => None,
        }
    }

    /// A workload's token mix, when it gives one: inference only, each share a fraction, the
    /// three summing to 1 (within [`TOKEN_MIX_TOLERANCE`]).
    fn token_mix(&mut self, p: &str, w: &WorkloadSpec) -> Option<TokenMix> {
        let mix = w.token_mix.as_ref()?;
        let at = format!("{p}.token_mix");
        if w.kind != WorkloadKind::Inference {
            self.push(
                at,
                "`token_mix` applies to inference workloads only: it splits the tokens an API serves into input, output and cached",
            );
            return None;
        }
        for (name, share) in [("input", mix.input), ("output", mix.output), ("cached", mix.cached)] {
            self.fraction(&format!("{at}.{name}"), share);
        }
        let sum = mix.input + mix.output + mix.cached;
        if (sum - Decimal::ONE).abs() > TOKEN_MIX_TOLERANCE {
            self.push(
                at,
                format!(
                    "the shares of input, output and cached tokens sum to {}, not 1: give each as a fraction of the workload's tokens per month (e.g. \"0.7\", \"0.2\", \"0.1\")",
                    sum.normalize()
                ),
            );
        }
        Some(mix.clone())
    }

    /// A workload's demand in its first month, in useful PFLOP-hours, and whether it is counted
    /// per day: from tokens a month (with the model's FLOPs per token `fpt`), or from GPU-hours a
    /// day on a named accelerator; exactly one of the two.
    fn base_demand(&mut self, p: &str, w: &WorkloadSpec, fpt: Option<Decimal>) -> (Decimal, bool) {
        match (w.tokens_per_month, w.gpu_hours_per_day) {
            (Some(t), None) => {
                self.non_negative(&format!("{p}.tokens_per_month"), t);
                if w.gpu_hours_on.is_some() {
                    self.push(
                        format!("{p}.gpu_hours_on"),
                        "`gpu_hours_on` goes with `gpu_hours_per_day`, not with tokens",
                    );
                }
                match fpt {
                    // Divided first: tokens × FLOPs per token can pass the decimal's limit.
                    Some(f) => (t / FLOP_PER_PFLOP_HOUR * f, false),
                    None => {
                        self.push(
                            format!("{p}.model"),
                            "demand in tokens needs the model (`model.parameters_billion`) to count FLOPs",
                        );
                        (Decimal::ZERO, false)
                    }
                }
            }
            (None, Some(h)) => self.gpu_hours_demand(p, w, h),
            _ => {
                self.push(
                    p,
                    "give the demand as exactly one of `tokens_per_month` or `gpu_hours_per_day`",
                );
                (Decimal::ZERO, false)
            }
        }
    }

    /// Demand given as `h` GPU-hours a day on the accelerator `gpu_hours_on` names, converted at
    /// its dense peak and the workload's MFU.
    fn gpu_hours_demand(&mut self, p: &str, w: &WorkloadSpec, h: Decimal) -> (Decimal, bool) {
        self.non_negative(&format!("{p}.gpu_hours_per_day"), h);
        let peak = match &w.gpu_hours_on {
            None => {
                self.push(
                    format!("{p}.gpu_hours_on"),
                    "say which accelerator (catalog id) the GPU-hours are counted on",
                );
                None
            }
            Some(id) => {
                let path = format!("{p}.gpu_hours_on");
                let prec = w.precision;
                self.accelerator(&path, id).map(|a| peak_of(a, prec.uses_8bit_peak()))
            }
        };
        match peak {
            Some(Some(peak)) => (h * useful_pflop_per_gpu_hour(peak, w.mfu), true),
            Some(None) => {
                self.push(
                    format!("{p}.gpu_hours_on"),
                    "this accelerator publishes no dense tensor throughput; count the GPU-hours on one that does",
                );
                (Decimal::ZERO, true)
            }
            None => (Decimal::ZERO, true),
        }
    }

    /// Whether demand `base` (per day when `per_day`) of workload `w`, grown at `growth` a month
    /// over its months in the horizon, stays within
    /// [`crate::engine::input::limits::MAX_MONTHLY_DEMAND_PFLOP_H`] in every month; with those months and
    /// the growth factor over them.
    fn demand_fits(
        &self,
        w: &WorkloadSpec,
        base: Decimal,
        per_day: bool,
        growth: Decimal,
    ) -> (u32, Option<Decimal>, bool) {
        let max = crate::engine::input::limits::MAX_MONTHLY_DEMAND_PFLOP_H;
        let months = self.horizon.saturating_sub(w.active_from_month);
        let months = w.active_months.map_or(months, |n| n.min(months));
        let per_month = if per_day {
            base.checked_mul(dec!(31))
        } else {
            Some(base)
        };
        let factor = crate::engine::blocks::finance::powi(Decimal::ONE + growth, months);
        let peak = match (per_month, factor) {
            (Some(d), Some(f)) if f <= max => d.checked_mul(f),
            _ => None,
        };
        (months, factor, peak.is_some_and(|d| d <= max))
    }

    /// Refuses demand that, grown over the workload's months in the horizon, would ask for more
    /// than [`crate::engine::input::limits::MAX_MONTHLY_DEMAND_PFLOP_H`] in a month, or whose growth factor alone
    /// passes it: the engine compounds the growth month by month and sizes layers from it.
    fn demand_in_range(&mut self, p: &str, w: &WorkloadSpec, base: Decimal, per_day: bool) {
        let (months, factor, fits) = self.demand_fits(w, base, per_day, w.monthly_growth);
        if fits {
            return;
        }
        let max = crate::engine::input::limits::MAX_MONTHLY_DEMAND_PFLOP_H;
        let field = if w.monthly_growth > Decimal::ZERO && factor.is_none_or(|f| f > Decimal::ONE) {
            "monthly_growth"
        } else if per_day {
            "gpu_hours_per_day"
        } else {
            "tokens_per_month"
        };
        self.push(
            format!("{p}.{field}"),
            format!(
                "this demand, grown over its {months} month(s) in the horizon, asks for more than {} useful PFLOP-hours in a month, beyond what the planner evaluates; lower the demand or its growth (see Limits in the README)",
                max.normalize()
            ),
        );
    }

    /// The shadow price of a workload's unserved work, per useful PFLOP-hour: the on-demand
    /// price of the catalog offer that serves one useful PFLOP-hour of it most cheaply (at the
    /// file's price point, the workload's precision and MFU, the speed rule's midpoint
    /// throughput), in the file's currency, among the offers whose card holds the work's memory
    /// need (`need_gb`, when the workload gives its model) in one server ([`memory_fit`]); only
    /// when none does, among those that hold it across servers, then any. Offers in a currency
    /// the file has no rate for are passed over; with none left the price is zero and the
    /// assumption says so.
    fn shadow_price(
        &mut self,
        p: &str,
        precision: crate::engine::model::workload::Precision,
        mfu: Decimal,
        need_gb: Option<Decimal>,
    ) -> (Decimal, Option<Assumption>) {
        let mut best: Option<((u8, Decimal), &crate::catalog::Offer, &Figure, Decimal)> = None;
        for o in &self.catalog.offers {
            let Some(fig) = o.on_demand_per_gpu_hour.as_ref() else {
                continue;
            };
            let Some(acc) = self.catalog.accelerator(&o.accelerator) else {
                continue;
            };
            let Some(peak) = peak_of(acc, precision.uses_8bit_peak()) else {
                continue;
            };
            let useful = useful_pflop_per_gpu_hour(peak, mfu);
            let rate = if o.currency == self.currency {
                Some(Decimal::ONE)
            } else {
                self.fx.get(&o.currency).map(|c| c.per_unit)
            };
            let (Some(rate), true) = (rate, useful > Decimal::ZERO) else {
                continue;
            };
            let per_useful = at(fig, self.point) * rate / useful;
            // A card that cannot hold the work cannot price it while one that can is offered.
            let fit = need_gb.map_or(0, |need| memory_fit(need, acc.memory_gb.low, acc.has_scale_up_link()));
            if best.is_none_or(|b| (fit, per_useful) < b.0) {
                best = Some(((fit, per_useful), o, fig, rate));
            }
        }
        let Some(((_, price), offer, fig, rate)) = best else {
            return (Decimal::ZERO, None);
        };
        // The price was converted into the file's currency: its range is given in it too, and
        // the assumption names that currency.
        let assumption = Assumption {
            path: format!("{p}.unserved_work_price"),
            value: at(fig, self.point) * rate,
            origin: Origin::Catalog {
                entry: offer.id.clone(),
                field: "on_demand_per_gpu_hour".to_owned(),
                point: self.point,
                low: fig.low * rate,
                high: fig.high * rate,
                currency: Some(self.currency.clone()),
                as_of: fig.provenance.as_of.to_string(),
                confidence: fig.provenance.confidence,
                sources: fig
                    .provenance
                    .sources
                    .iter()
                    .map(|s| format!("{} ({})", s.title, s.as_of))
                    .collect(),
            },
        };
        (price, Some(assumption))
    }

    fn scenario(
        &mut self,
        i: usize,
        s: &ScenarioSpec,
        file: &ScenarioFile,
        workloads: &[Workload],
    ) -> Option<Scenario> {
        let p = format!("scenarios[{i}]");
        let before = self.problems.len();
        self.assumptions.clear();
        self.warnings.clear();
        self.point = s.price_point.unwrap_or(file.price_point);
        let point = self.point;
        for (name, value) in [
            ("staff_fte", s.staff_fte),
            ("staff_cost_per_fte_year", s.staff_cost_per_fte_year),
            ("engineer_month_cost", s.engineer_month_cost),
            ("software_per_month", s.software_per_month),
            ("storage_per_month", s.storage_per_month),
            ("egress_tb_per_month", s.egress_tb_per_month),
            ("egress_per_tb", s.egress_per_tb),
        ] {
            self.non_negative(&format!("{p}.{name}"), value);
        }
        self.fraction(
            &format!("{p}.egress_share_of_cloud_spend"),
            s.egress_share_of_cloud_spend.unwrap_or_default(),
        );
        if s.layers.is_empty() {
            self.push(format!("{p}.layers"), "a scenario needs at least one supply layer");
        }
        let facility = s
            .facility
            .as_ref()
            .map(|f| self.facility(&format!("{p}.facility"), f, point));
        let fabric = s.network.as_ref().and_then(|n| self.fabric(&p, n, point));
        let mut warnings = self.fx_warnings.clone();
        let (layers, adaptation_months) = self.scenario_layers(&p, s, file, facility.as_ref(), &mut warnings);
        if adaptation_months > Decimal::ZERO && s.engineer_month_cost.is_zero() {
            self.push(
                format!("{p}.engineer_month_cost"),
                "a domestic accelerator needs engineering months to adapt the software stack; give the cost of one engineer-month",
            );
        }
        if self.problems.len() > before {
            return None;
        }
        let world = self.world_overrides(&p, s, file, workloads);
        if self.problems.len() > before {
            return None;
        }
        let months = crate::engine::blocks::sizing::ceil_u32(adaptation_months);
        // Every scenario prices work it leaves undone at the workloads' shadow prices: each
        // scenario's assumption list cites where they come from.
        self.assumptions
            .extend(workloads.iter().filter_map(|w| w.shadow_source.clone()));
        warnings.append(&mut self.warnings);
        Some(Scenario {
            id: s.id.clone(),
            name: s.name.clone(),
            layers,
            facility,
            fabric,
            staff_per_month: s.staff_fte * s.staff_cost_per_fte_year / dec!(12),
            software_per_month: s.software_per_month,
            storage_egress_per_month: s.storage_per_month + s.egress_tb_per_month * s.egress_per_tb,
            egress_share_of_cloud_spend: s.egress_share_of_cloud_spend.unwrap_or_default(),
            adaptation_per_month: if months == 0 {
                Decimal::ZERO
            } else {
                adaptation_months * s.engineer_month_cost / Decimal::from(months)
            },
            adaptation_months: months,
            demand_scale: world.demand_scale,
            monthly_growth: world.monthly_growth,
            discount_rate: world.discount_rate,
            assumptions: std::mem::take(&mut self.assumptions),
            warnings,
        })
    }

    /// The scenario's own demand scale, monthly growth and discount rate (scenario-level
    /// overrides of figures every scenario otherwise shares), each in its range, with its reason
    /// recorded; the scaled and grown demand of every workload is held to the demand bound.
    fn world_overrides(
        &mut self,
        p: &str,
        s: &ScenarioSpec,
        file: &ScenarioFile,
        workloads: &[Workload],
    ) -> WorldFigures {
        let world = WorldFigures {
            demand_scale: self.scenario_override(
                &format!("{p}.demand_scale"),
                s.demand_scale.as_ref(),
                (Decimal::ZERO, dec!(100)),
                "a scale of the stated demand between 0 and 100 (\"0.8\" for 80%)",
            ),
            monthly_growth: self.scenario_override(
                &format!("{p}.monthly_growth"),
                s.monthly_growth.as_ref(),
                (dec!(-1), Decimal::ONE),
                "a monthly growth between -1 and 1",
            ),
            discount_rate: self.scenario_override(
                &format!("{p}.discount_rate"),
                s.discount_rate.as_ref(),
                (Decimal::ZERO, Decimal::ONE),
                "an annual rate between 0 and 1 (\"0.08\" for 8%)",
            ),
        };
        if world.demand_scale.is_none() && world.monthly_growth.is_none() {
            return world;
        }
        let scale = world.demand_scale.unwrap_or(Decimal::ONE);
        for spec in &file.workloads {
            let Some(w) = workloads.iter().find(|w| w.id == spec.id) else {
                continue;
            };
            let growth = world.monthly_growth.unwrap_or(spec.monthly_growth);
            let fits = w
                .base_demand
                .checked_mul(scale)
                .is_some_and(|base| self.demand_fits(spec, base, w.per_day, growth).2);
            if !fits {
                let field = if world.demand_scale.is_some() {
                    "demand_scale"
                } else {
                    "monthly_growth"
                };
                self.push(
                    format!("{p}.{field}"),
                    format!(
                        "workload `{}`, scaled and grown as this scenario says, asks for more than {} useful PFLOP-hours in a month, beyond what the planner evaluates; lower the scale or the growth",
                        spec.id,
                        crate::engine::input::limits::MAX_MONTHLY_DEMAND_PFLOP_H.normalize()
                    ),
                );
            }
        }
        world
    }

    /// A scenario-level override: its value within `range` (else refused with `what`), a reason
    /// given, no currency (it is not money); recorded as an assumption at `path`.
    fn scenario_override(
        &mut self,
        path: &str,
        o: Option<&Override>,
        range: (Decimal, Decimal),
        what: &str,
    ) -> Option<Decimal> {
        let o = o?;
        if o.value < range.0 || o.value > range.1 {
            self.push(path, format!("{} is not {what}", o.value));
        }
        if o.reason.trim().is_empty() {
            self.push(
                format!("{path}.reason"),
                "say why this scenario departs from the shared figure (a what-if, a measurement, a source)",
            );
        }
        if o.currency.is_some() {
            self.push(
                format!("{path}.currency"),
                "this figure is not money, so it has no currency; remove `currency`",
            );
        }
        self.assumptions.push(Assumption {
            path: path.to_owned(),
            value: o.value,
            origin: Origin::Override {
                reason: o.reason.clone(),
            },
        });
        Some(o.value)
    }

    /// The scenario's network fabric from the catalog, its price per port taken from the catalog
    /// or an override; a quoted price per port replaces the catalog's part-by-part pricing.
    fn fabric(&mut self, p: &str, n: &NetworkSpec, point: PricePoint) -> Option<Fabric> {
        let path = format!("{p}.network.fabric");
        let Some(fab) = self.catalog.fabric(&n.fabric) else {
            self.push(path, format!("no fabric has id `{}` in the catalog", n.fabric));
            return None;
        };
        let fab = fab.clone();
        // A quoted price per port is all-in: it replaces the catalog's part-by-part pricing
        // (switches and optics), which would otherwise ignore it.
        let by_parts = n.per_port_cost.is_none();
        // The parts are priced (and so recorded as assumptions) only when the network plan
        // uses them: a switch radix of at least 2 and a price for both switches and optics.
        let parts = match (fab.switch_radix, &fab.switch_cost, &fab.optic_cost) {
            (Some(radix), Some(switch), Some(optic)) if by_parts && radix >= 2 => {
                Some((radix, switch.clone(), optic.clone()))
            }
            _ => None,
        };
        let rate = self.fx_rate(&path, &fab.currency);
        let (per_port, switch_radix, switch_cost, optic_cost) = match parts {
            Some((radix, switch, optic)) => {
                let at_fabric = format!("{p}.network.fabric");
                let currency = Some(fab.currency.as_str());
                let switch = self.take_catalog(&at_fabric, &fab.id, "switch_cost", &switch, currency, point);
                let optic = self.take_catalog(&at_fabric, &fab.id, "optic_cost", &optic, currency, point);
                (
                    at(&fab.per_port_cost, point) * rate,
                    Some(u32::from(radix)),
                    Some(switch),
                    Some(optic),
                )
            }
            None => {
                let per_port = self.figure_or_override(
                    &format!("{p}.network.per_port_cost"),
                    n.per_port_cost.as_ref(),
                    &fab.id,
                    "per_port_cost",
                    Some(&fab.per_port_cost),
                    Some(&fab.currency),
                    point,
                );
                (per_port, None, None, None)
            }
        };
        Some(Fabric {
            cost: FabricCost {
                id: fab.id.clone(),
                per_port_cost: per_port,
                switch_radix,
                switch_cost,
                optic_cost,
            },
            id: fab.id.clone(),
            port_gbps: fab.port_gbps,
            rdma: fab.technology != FabricTechnology::Ethernet,
        })
    }

    /// The scenario's layers, each resolved (ids unique, an owned layer only with a facility),
    /// with the engineering months its domestic accelerators need to adapt the software stack
    /// (the most any owned or pooled layer needs) and the data-residency warnings.
    fn scenario_layers(
        &mut self,
        p: &str,
        s: &ScenarioSpec,
        file: &ScenarioFile,
        facility: Option<&Facility>,
        warnings: &mut Vec<String>,
    ) -> (Vec<Layer>, Decimal) {
        let point = self.point;
        let workload_ids: HashMap<&str, usize> = file
            .workloads
            .iter()
            .enumerate()
            .map(|(k, w)| (w.id.as_str(), k))
            .collect();
        let mut layer_ids = HashMap::new();
        let mut layers = Vec::new();
        let mut adaptation_months = Decimal::ZERO;
        for (j, l) in s.layers.iter().enumerate() {
            let lp = format!("{p}.layers[{j}]");
            if layer_ids.insert(l.id.clone(), j).is_some() {
                self.push(
                    format!("{lp}.id"),
                    format!("layer id `{}` is used twice in this scenario", l.id),
                );
            }
            if l.kind == LayerKind::Owned && s.facility.is_none() {
                self.push(
                    format!("{p}.facility"),
                    "an owned layer needs a `facility` (region, cooling, rack limit)",
                );
            }
            if let Some(layer) = self.layer(&lp, l, &workload_ids, self.horizon, facility, point) {
                if let Some(acc) = layer.accelerator.as_deref().and_then(|a| self.catalog.accelerator(a))
                    && let Some(m) = &acc.adaptation_months
                    && matches!(l.kind, LayerKind::Owned | LayerKind::Pooled)
                {
                    adaptation_months = adaptation_months.max(at(m, point));
                }
                self.region_warnings(&layer, file, warnings);
                self.token_mixes(&layer, file);
                layers.push(layer);
            }
        }
        (layers, adaptation_months)
    }

    /// A layer priced by kind of token bills each workload it may serve by the workload's token
    /// mix: a workload it could serve (inference naming a model) without one is a problem at the
    /// workload's `token_mix`, never a made-up mix; each mix it uses is recorded as the planner's
    /// declared figure.
    fn token_mixes(&mut self, layer: &Layer, file: &ScenarioFile) {
        if layer.token_prices.is_none() {
            return;
        }
        for (k, w) in file.workloads.iter().enumerate() {
            let may_serve = layer.serves.as_ref().is_none_or(|s| s.contains(&k));
            if !may_serve || w.kind != WorkloadKind::Inference || w.model.is_none() {
                continue;
            }
            let at = format!("workloads[{k}].token_mix");
            match &w.token_mix {
                None => {
                    if !self.problems.iter().any(|p| p.path == at) {
                        self.push(
                            at,
                            format!(
                                "layer `{}` prices input, output and cached tokens apart and may serve this workload: give the workload's token_mix: the share of input, output and cached tokens",
                                layer.id
                            ),
                        );
                    }
                }
                Some(mix) => {
                    for (kind, share) in [("input", mix.input), ("output", mix.output), ("cached", mix.cached)] {
                        let path = format!("{at}.{kind}");
                        if self.assumptions.iter().any(|a| a.path == path) {
                            continue;
                        }
                        self.assumptions.push(Assumption {
                            path,
                            value: share,
                            origin: Origin::Override {
                                reason: format!(
                                    "the planner's declared share of {kind} tokens in workload `{}`'s tokens per month",
                                    w.id
                                ),
                            },
                        });
                    }
                }
            }
        }
    }

    fn region_warnings(&self, layer: &Layer, file: &ScenarioFile, warnings: &mut Vec<String>) {
        use crate::engine::model::workload::DataClassification::{Confidential, Restricted};
        for (k, w) in file.workloads.iter().enumerate() {
            let spot_refused = layer.kind == LayerKind::Spot
                && !(w.interruptible && w.class != crate::engine::model::workload::WorkloadClass::Steady);
            let served = layer.serves.as_ref().is_none_or(|s| s.contains(&k)) && !spot_refused;
            let sensitive = matches!(w.data_classification, Confidential | Restricted);
            if let (true, true, Some(want), Some(have)) = (served, sensitive, &w.region, &layer.region)
                && !have.starts_with(want.as_str())
            {
                warnings.push(format!(
                        "layer `{}` runs in `{have}` but workload `{}` holds {:?} data that must stay in `{want}`; restrict it with `serves` or check the transfer mechanism",
                        layer.id, w.id, w.data_classification
                    ));
            }
        }
    }

    fn facility(&mut self, p: &str, f: &FacilitySpec, point: PricePoint) -> Facility {
        let region = self.catalog.region(&f.region).cloned();
        if region.is_none() {
            self.push(
                format!("{p}.region"),
                format!("no region has id `{}` in the catalog", f.region),
            );
        }
        let (rid, rcur) = region.as_ref().map_or((String::new(), self.currency.clone()), |r| {
            (r.id.clone(), r.currency.clone())
        });
        let tariff = match (
            &f.tariff_per_kwh,
            region.as_ref().and_then(|r| r.tariff_per_kwh.as_ref()),
        ) {
            (Some(o), _) => self.take_override(&format!("{p}.tariff_per_kwh"), o),
            (None, Some(fig)) => self.take_catalog(
                &format!("{p}.tariff_per_kwh"),
                &rid,
                "tariff_per_kwh",
                fig,
                Some(&rcur),
                point,
            ),
            (None, None) => {
                if region.is_some() {
                    self.push(
                        format!("{p}.tariff_per_kwh"),
                        format!(
                            "the catalog has no tariff for `{}`; give {{\"value\": \"...\", \"reason\": \"...\"}}",
                            f.region
                        ),
                    );
                }
                Decimal::ZERO
            }
        };
        let grid = match (
            &f.grid_gco2_per_kwh,
            region.as_ref().and_then(|r| r.grid_gco2_per_kwh.as_ref()),
        ) {
            (Some(o), _) => self.take_override(&format!("{p}.grid_gco2_per_kwh"), o),
            (None, Some(fig)) => self.take_catalog(
                &format!("{p}.grid_gco2_per_kwh"),
                &rid,
                "grid_gco2_per_kwh",
                fig,
                None,
                point,
            ),
            (None, None) => Decimal::ZERO,
        };
        let cooling = self.catalog.cooling(&f.cooling).cloned();
        if cooling.is_none() {
            self.push(
                format!("{p}.cooling"),
                format!("no cooling technology has id `{}` in the catalog", f.cooling),
            );
        }
        let pue = match (&f.pue, &cooling) {
            (Some(o), _) => self.take_override(&format!("{p}.pue"), o),
            (None, Some(c)) => self.take_catalog(&format!("{p}.pue"), &c.id, "pue", &c.pue, None, point),
            (None, None) => Decimal::ONE,
        };
        if pue < Decimal::ONE {
            self.push(
                format!("{p}.pue"),
                format!("a PUE of {pue} is below 1, which no facility reaches"),
            );
        }
        if f.kw_per_rack_limit <= Decimal::ZERO {
            self.push(
                format!("{p}.kw_per_rack_limit"),
                "the rack power limit must be above zero kW",
            );
        }
        let colocation = self.colocation(p, f, point);
        let pd = self.facility_upgrade(
            p,
            "power_distribution_upgrade",
            f.power_distribution_upgrade.as_deref(),
            UpgradeKind::PowerDistribution,
            point,
        );
        let cu = self.facility_upgrade(
            p,
            "cooling_upgrade",
            f.cooling_upgrade.as_deref(),
            UpgradeKind::Cooling,
            point,
        );
        Facility {
            pue,
            tariff_per_kwh: tariff,
            grid_gco2_per_kwh: grid,
            kw_per_rack_limit: f.kw_per_rack_limit,
            cooling: cooling.map(|c| CoolingLimit {
                id: c.id.clone(),
                liquid: c.liquid,
                typical_kw: c.kw_per_rack.low,
                max_kw: c.kw_per_rack.high,
            }),
            colocation_per_kw_month: colocation,
            power_distribution_per_rack: pd,
            cooling_upgrade_per_rack: cu,
        }
    }

    /// The colocation price per kW and month: an override, else the named catalog market's.
    fn colocation(&mut self, p: &str, f: &FacilitySpec, point: PricePoint) -> Decimal {
        match (&f.colocation, &f.colocation_per_kw_month) {
            (_, Some(o)) => self.take_override(&format!("{p}.colocation_per_kw_month"), o),
            (Some(id), None) => match self.catalog.facility.colocation.iter().find(|c| &c.id == id).cloned() {
                Some(c) => self.take_catalog(
                    &format!("{p}.colocation"),
                    &c.id,
                    "per_kw_month",
                    &c.per_kw_month,
                    Some(&c.currency),
                    point,
                ),
                None => {
                    self.push(
                        format!("{p}.colocation"),
                        format!("no colocation market has id `{id}` in the catalog"),
                    );
                    Decimal::ZERO
                }
            },
            (None, None) => Decimal::ZERO,
        }
    }

    /// The cost per rack of the facility upgrade `id` names (the field `field` of the facility
    /// at `p`), which must be of `kind`; 0 when none is named.
    fn facility_upgrade(
        &mut self,
        p: &str,
        field: &str,
        id: Option<&str>,
        kind: UpgradeKind,
        point: PricePoint,
    ) -> Decimal {
        let Some(id) = id else { return Decimal::ZERO };
        match self.catalog.facility.upgrades.iter().find(|u| u.id == id).cloned() {
            Some(u) if u.kind == kind => self.take_catalog(
                &format!("{p}.{field}"),
                &u.id,
                "cost",
                &u.cost,
                Some(&u.currency),
                point,
            ),
            Some(_) => {
                self.push(
                    format!("{p}.{field}"),
                    format!("upgrade `{id}` is not of the kind this field needs"),
                );
                Decimal::ZERO
            }
            None => {
                self.push(
                    format!("{p}.{field}"),
                    format!("no facility upgrade has id `{id}` in the catalog"),
                );
                Decimal::ZERO
            }
        }
    }

    /// Refuses fields that do not apply to the layer's kind, so a file says only what it means.
    fn kind_fields(&mut self, p: &str, l: &LayerSpec) {
        let owned = l.kind == LayerKind::Owned;
        let cloud = matches!(l.kind, LayerKind::Reserved | LayerKind::Spot | LayerKind::OnDemand);
        let token = l.kind == LayerKind::TokenMetered;
        let checks: [(&str, bool, bool); 20] = [
            ("offer", l.offer.is_some(), cloud),
            ("system", l.system.is_some(), owned),
            ("accelerator", l.accelerator.is_some(), !cloud || l.offer.is_none()),
            ("price_per_gpu", l.price_per_gpu.is_some(), owned),
            ("financing", l.financing.is_some(), owned),
            ("payment_milestones", !l.payment_milestones.is_empty(), owned),
            ("term", l.term.is_some(), l.kind == LayerKind::Reserved),
            (
                "price_per_gpu_hour",
                l.price_per_gpu_hour.is_some(),
                cloud || l.kind == LayerKind::Pooled,
            ),
            ("price_per_million_tokens", l.price_per_million_tokens.is_some(), token),
            (
                "price_per_million_input_tokens",
                l.price_per_million_input_tokens.is_some(),
                token,
            ),
            (
                "price_per_million_output_tokens",
                l.price_per_million_output_tokens.is_some(),
                token,
            ),
            (
                "price_per_million_cached_tokens",
                l.price_per_million_cached_tokens.is_some(),
                token,
            ),
            (
                "interruptions_per_hour",
                l.interruptions_per_hour.is_some(),
                l.kind == LayerKind::Spot,
            ),
            ("residual_share", l.residual_share.is_some(), owned),
            ("power_kw_per_gpu", l.power_kw_per_gpu.is_some(), owned),
            ("lead_time_months", l.lead_time_months > 0, owned),
            ("lead_time_source", l.lead_time_source.is_some(), owned),
            ("lead_time_reason", l.lead_time_reason.is_some(), owned),
            (
                "non_server_maintenance_rate_per_year",
                l.non_server_maintenance_rate_per_year.is_some(),
                owned,
            ),
            (
                "running_cost_per_gpu_hour",
                l.running_cost_per_gpu_hour.is_some(),
                owned,
            ),
        ];
        for (field, present, allowed) in checks {
            if present && !allowed {
                self.push(
                    format!("{p}.{field}"),
                    format!("`{field}` does not apply to a layer of kind `{}`", kind_id(l.kind)),
                );
            }
        }
    }

    /// Resolves one supply layer in stages: the checks on its own fields, the workloads it
    /// serves, its hardware (offer, system, accelerator), its throughput, its exit (a fixed month
    /// or a clause), the terms its kind pays on, and the energy estimate of a rented layer. Every
    /// problem is reported; the layer is `None` when any was found.
    fn layer(
        &mut self,
        p: &str,
        l: &LayerSpec,
        workloads: &HashMap<&str, usize>,
        horizon: u32,
        facility: Option<&Facility>,
        point: PricePoint,
    ) -> Option<Layer> {
        let before = self.problems.len();
        self.layer_fields(p, l);
        let serves = self.layer_serves(p, l, workloads);
        let hw = self.layer_hardware(p, l);
        let (peak16, peak8) = self.layer_peak(p, l, hw.acc);
        let memory_gb = hw.acc.map_or(Decimal::ZERO, |a| a.memory_gb.low);
        let has_scale_up = hw.acc.is_some_and(|a| a.has_scale_up_link());
        if let Some(g) = l.gpus
            && g == 0
        {
            self.push(
                format!("{p}.gpus"),
                "a layer with zero GPUs serves nothing; remove it or give a count",
            );
        }
        let exit_fee = self.layer_exit_fee(p, l, horizon);
        let exit_clause = self.layer_exit_clause(p, l);
        let _ = facility;
        let terms = self.kind_terms(p, l, &hw, exit_fee, point);
        if exit_clause.is_some() {
            self.clause_applies(p, l, terms.owned.as_ref());
        }
        let cloud_energy = if l.kind == LayerKind::Owned {
            None
        } else {
            self.cloud_energy(p, &l.id, l.idle_power_share, hw.offer, hw.acc, point)
        };
        if l.kind != LayerKind::Owned && (l.platform_cost_per_gpu > Decimal::ZERO || l.installation > Decimal::ZERO) {
            self.push(
                format!("{p}.installation"),
                "installation and platform costs apply to owned layers only",
            );
        }
        if self.problems.len() > before {
            return None;
        }
        Some(Layer {
            id: l.id.clone(),
            kind: l.kind,
            accelerator: hw.acc_id,
            peak_tflops_16: peak16,
            peak_tflops_8: peak8,
            memory_gb,
            has_scale_up_link: has_scale_up,
            mfu: l.mfu,
            availability: l.availability.unwrap_or(if l.kind == LayerKind::Owned {
                DEFAULT_OWNED_AVAILABILITY
            } else {
                Decimal::ONE
            }),
            gpus: terms.gpus,
            from_month: terms.owned.as_ref().map_or(l.start_month, |o| o.delivery_month),
            until_month: terms.until,
            price_per_gpu_hour: terms.price_per_gpu_hour,
            price_per_million_tokens: terms.price_per_million_tokens,
            token_prices: terms.token_prices,
            overhead_factor: terms.overhead,
            spot: terms.spot,
            serves,
            exit_fee,
            exit_clause,
            owned: terms.owned,
            region: terms.region,
            cloud_energy,
        })
    }

    /// The checks on a layer's own fields: those its kind refuses, its MFU and availability as
    /// fractions, its platform and installation costs not negative.
    fn layer_fields(&mut self, p: &str, l: &LayerSpec) {
        self.kind_fields(p, l);
        if let Some(m) = l.mfu {
            self.positive_fraction(&format!("{p}.mfu"), m);
        }
        if let Some(a) = l.availability {
            self.fraction(&format!("{p}.availability"), a);
        }
        for (name, v) in [
            ("platform_cost_per_gpu", l.platform_cost_per_gpu),
            ("installation", l.installation),
        ] {
            self.non_negative(&format!("{p}.{name}"), v);
        }
    }

    /// The workloads a layer serves, by index, when it names them (every id must exist).
    fn layer_serves(&mut self, p: &str, l: &LayerSpec, workloads: &HashMap<&str, usize>) -> Option<Vec<usize>> {
        l.serves.as_ref().map(|ids| {
            ids.iter()
                .enumerate()
                .filter_map(|(k, id)| {
                    let found = workloads.get(id.as_str()).copied();
                    if found.is_none() {
                        self.push(format!("{p}.serves[{k}]"), format!("no workload has id `{id}`"));
                    }
                    found
                })
                .collect::<Vec<usize>>()
        })
    }

    /// A layer's hardware: the catalog offer it rents from, the server system it buys, and the
    /// accelerator, named directly, through the system, or through the offer.
    fn layer_hardware(&mut self, p: &str, l: &LayerSpec) -> LayerHardware<'c> {
        let offer = match (&l.offer, l.kind) {
            (Some(id), _) => {
                let o = self.catalog.offer(id);
                if o.is_none() {
                    self.push(
                        format!("{p}.offer"),
                        format!("no offer has id `{id}` in the catalog; see `planner catalog list --kind offers`"),
                    );
                }
                o
            }
            (None, LayerKind::Reserved | LayerKind::Spot | LayerKind::OnDemand) if l.accelerator.is_none() => {
                self.push(
                    format!("{p}.offer"),
                    format!("a `{}` layer needs the catalog offer it buys from (or an `accelerator` and a quoted `price_per_gpu_hour`)", kind_id(l.kind)),
                );
                None
            }
            (None, _) => None,
        };
        let system = match &l.system {
            Some(id) => {
                let s = self.catalog.facility.systems.iter().find(|s| &s.id == id);
                if s.is_none() {
                    self.push(
                        format!("{p}.system"),
                        format!("no server system has id `{id}` in the catalog"),
                    );
                }
                s
            }
            None => None,
        };
        let acc_id = l
            .accelerator
            .clone()
            .or_else(|| system.as_ref().map(|s| s.accelerator.clone()))
            .or_else(|| offer.as_ref().map(|o| o.accelerator.clone()));
        let acc = match (&acc_id, l.kind) {
            (Some(id), _) => {
                let path = if l.accelerator.is_some() {
                    format!("{p}.accelerator")
                } else {
                    format!("{p}.offer")
                };
                self.accelerator(&path, id)
            }
            (None, LayerKind::TokenMetered) => None,
            (None, _) => {
                self.push(
                    format!("{p}.accelerator"),
                    "name the accelerator (catalog id), a `system`, or an `offer`",
                );
                None
            }
        };
        if let (Some(a), Some(s)) = (&l.accelerator, &system)
            && a != &s.accelerator
        {
            self.push(
                format!("{p}.accelerator"),
                format!("system `{}` holds `{}`, not `{a}`", s.id, s.accelerator),
            );
        }
        LayerHardware {
            offer,
            system,
            acc_id,
            acc,
        }
    }

    /// Throughput, dense 16-bit and 8-bit TFLOPS: from the catalog or an override; token-metered
    /// layers need none.
    fn layer_peak(&mut self, p: &str, l: &LayerSpec, acc: Option<&Accelerator>) -> (Decimal, Decimal) {
        match (&l.peak_tflops, acc) {
            (Some(o), _) => {
                let v = self.take_override(&format!("{p}.peak_tflops"), o);
                (v, v)
            }
            (None, Some(a)) => {
                let id = a.id.clone();
                // The speed rule: a price point moves prices, never speeds. Throughput is taken
                // at the midpoint of its range here and where demand in GPU-hours is converted
                // (`peak_of`), so ten GPU-hours a day on a card are ten hours on that card at
                // any price point.
                let p16 = a.bf16_tflops.as_ref().map(|f| {
                    self.take_catalog(
                        &format!("{p}.peak_tflops"),
                        &id,
                        "bf16_tflops",
                        f,
                        None,
                        PricePoint::Mid,
                    )
                });
                let p8 = a.fp8_tflops.as_ref().map(Figure::mid);
                match p16 {
                    Some(p16) if p16 > Decimal::ZERO => (p16, p8.unwrap_or(p16)),
                    _ if l.kind == LayerKind::TokenMetered => (Decimal::ZERO, Decimal::ZERO),
                    _ => {
                        self.push(
                            format!("{p}.peak_tflops"),
                            format!("the catalog gives no dense BF16/FP16 throughput for `{id}`; give {{\"value\": \"...\", \"reason\": \"...\"}}"),
                        );
                        (Decimal::ZERO, Decimal::ZERO)
                    }
                }
            }
            (None, None) => (Decimal::ZERO, Decimal::ZERO),
        }
    }

    /// A fixed-month exit: the month (inside the horizon) and the fee paid then.
    fn layer_exit_fee(&mut self, p: &str, l: &LayerSpec, horizon: u32) -> Option<(u32, Decimal)> {
        l.exit.as_ref().map(|e| {
            if e.month >= horizon {
                self.push(
                    format!("{p}.exit.month"),
                    format!(
                        "month {} is beyond the horizon of {horizon} months (months count from 0)",
                        e.month
                    ),
                );
            }
            self.non_negative(&format!("{p}.exit.fee"), e.fee);
            (e.month, e.fee)
        })
    }

    /// An exit clause, checked as a contract states it; refused beside a fixed-month exit.
    fn layer_exit_clause(&mut self, p: &str, l: &LayerSpec) -> Option<ExitClause> {
        l.exit_clause.as_ref().map(|c| {
            for problem in crate::exit_clause::validate_clause(c, &format!("{p}.exit_clause")) {
                self.push(problem.path, problem.message);
            }
            if l.exit.is_some() {
                self.push(
                    format!("{p}.exit_clause"),
                    "this layer already leaves at a fixed month through `exit`; an exit clause prices leaving at any month (remove one of the two)",
                );
            }
            c.clone()
        })
    }

    /// What a layer pays and when it ends, by its kind: the price per GPU-hour of an on-demand,
    /// reserved or spot offer (or its override), a reserved term, the spot checkpoint overhead,
    /// the internal price of a pool, the price per million tokens, or the owned hardware.
    fn kind_terms(
        &mut self,
        p: &str,
        l: &LayerSpec,
        hw: &LayerHardware,
        exit_fee: Option<(u32, Decimal)>,
        point: PricePoint,
    ) -> KindTerms {
        let offer = hw.offer;
        let mut terms = KindTerms {
            price_per_gpu_hour: Decimal::ZERO,
            price_per_million_tokens: Decimal::ZERO,
            token_prices: None,
            overhead: Decimal::ONE,
            spot: None,
            until: exit_fee.map(|e| e.0),
            owned: None,
            region: offer.map(|o| o.region.clone()),
            gpus: l.gpus,
        };
        match l.kind {
            LayerKind::OnDemand => {
                let fig = offer.and_then(|o| o.on_demand_per_gpu_hour.clone());
                terms.price_per_gpu_hour = self.offer_price(p, l, offer, "on_demand_per_gpu_hour", fig.as_ref(), point);
            }
            LayerKind::Reserved => self.reserved_terms(p, l, offer, point, &mut terms),
            LayerKind::Spot => {
                let fig = offer.and_then(|o| o.spot_per_gpu_hour.clone());
                terms.price_per_gpu_hour = self.offer_price(p, l, offer, "spot_per_gpu_hour", fig.as_ref(), point);
                let checkpointing = self.spot_checkpointing(p, l);
                terms.overhead = overhead_factor(&checkpointing);
                let notice_s = offer.and_then(|o| {
                    o.spot_notice_s.as_ref().map(|f| {
                        self.take_catalog(&format!("{p}.spot_notice_s"), &o.id, "spot_notice_s", f, None, point)
                    })
                });
                terms.spot = Some(crate::engine::blocks::spot::SpotTerms {
                    checkpointing,
                    notice_s,
                    provider: offer.map(|o| o.provider.clone()),
                });
            }
            LayerKind::Pooled => match &l.price_per_gpu_hour {
                Some(o) => terms.price_per_gpu_hour = self.take_override(&format!("{p}.price_per_gpu_hour"), o),
                None => self.push(format!("{p}.price_per_gpu_hour"), "a pooled layer needs its internal price per GPU-hour, with the reason (e.g. the pool's charge-back rate)"),
            },
            LayerKind::TokenMetered => self.token_terms(p, l, &mut terms),
            LayerKind::Owned => {
                terms.region = None;
                terms.owned = self.owned(p, l, hw.acc, hw.system, point);
                terms.gpus = terms.owned.as_ref().map(|o: &Owned| o.gpus);
                if let Some(o) = &terms.owned
                    && let Financing::Lease { term_months, .. } = o.financing
                {
                    let end = o.delivery_month + term_months;
                    terms.until = Some(terms.until.map_or(end, |u| u.min(end)));
                }
            }
        }
        terms
    }

    /// A token-metered layer's price: one blended price per million tokens, or prices by kind of
    /// token (input and output, cached defaulting to input), never both.
    fn token_terms(&mut self, p: &str, l: &LayerSpec, terms: &mut KindTerms) {
        let split = l.price_per_million_input_tokens.is_some()
            || l.price_per_million_output_tokens.is_some()
            || l.price_per_million_cached_tokens.is_some();
        match (&l.price_per_million_tokens, split) {
            (Some(_), true) => self.push(
                format!("{p}.price_per_million_tokens"),
                "give one price or the other: the blended `price_per_million_tokens`, or the prices by kind of token (`price_per_million_input_tokens`, `price_per_million_output_tokens`, optionally `price_per_million_cached_tokens`); remove one",
            ),
            (Some(o), false) => {
                terms.price_per_million_tokens = self.take_override(&format!("{p}.price_per_million_tokens"), o);
            }
            (None, true) => terms.token_prices = self.split_token_prices(p, l),
            (None, false) => self.push(
                format!("{p}.price_per_million_tokens"),
                "a token-metered layer needs its price per million tokens, with the reason (or its prices per million input and output tokens)",
            ),
        }
    }

    /// The prices by kind of token of a token-metered layer, each an override with its reason:
    /// input and output both required; cached, when not given, at the input price, recorded so.
    fn split_token_prices(&mut self, p: &str, l: &LayerSpec) -> Option<TokenPrices> {
        let mut price = |field: &str, what: &str, o: Option<&Override>| {
            let path = format!("{p}.{field}");
            match o {
                Some(o) => Some(self.take_override(&path, o)),
                None => {
                    self.push(
                        path,
                        format!("give the price per million {what} tokens too, with the reason: a layer priced by kind of token needs its input and its output price"),
                    );
                    None
                }
            }
        };
        let input = price(
            "price_per_million_input_tokens",
            "input",
            l.price_per_million_input_tokens.as_ref(),
        );
        let output = price(
            "price_per_million_output_tokens",
            "output",
            l.price_per_million_output_tokens.as_ref(),
        );
        let (input, output) = (input?, output?);
        let cached = match &l.price_per_million_cached_tokens {
            Some(o) => self.take_override(&format!("{p}.price_per_million_cached_tokens"), o),
            None => {
                let input_path = format!("{p}.price_per_million_input_tokens");
                let input_reason = self
                    .assumptions
                    .iter()
                    .rev()
                    .find(|a| a.path == input_path)
                    .and_then(|a| match &a.origin {
                        Origin::Override { reason } => Some(reason.clone()),
                        Origin::Catalog { .. } => None,
                    })
                    .unwrap_or_default();
                self.assumptions.push(Assumption {
                    path: format!("{p}.price_per_million_cached_tokens"),
                    value: input,
                    origin: Origin::Override {
                        reason: format!(
                            "no price for cached tokens given: cached tokens are billed at the input price ({input_reason})"
                        ),
                    },
                });
                input
            }
        };
        Some(TokenPrices { input, output, cached })
    }

    /// A rented layer's price per GPU-hour: its override, else the offer's figure `field`.
    fn offer_price(
        &mut self,
        p: &str,
        l: &LayerSpec,
        offer: Option<&crate::catalog::Offer>,
        field: &str,
        fig: Option<&Figure>,
        point: PricePoint,
    ) -> Decimal {
        let offer_id = offer.map(|o| o.id.clone()).unwrap_or_default();
        let offer_cur = offer.map(|o| o.currency.clone());
        self.figure_or_override(
            &format!("{p}.price_per_gpu_hour"),
            l.price_per_gpu_hour.as_ref(),
            &offer_id,
            field,
            fig,
            offer_cur.as_deref(),
            point,
        )
    }

    /// A reserved layer's term, GPUs committed and price for the term. The commitment runs its
    /// whole term; an exit ends it early for a fee. A term that outlasts the horizon is paid only
    /// inside the horizon (the rest shows in results). A term of 12 or 36 months may take the
    /// offer's reserved price; any other length (`{"months": n}`) has no catalog price and needs
    /// the quoted `price_per_gpu_hour`.
    fn reserved_terms(
        &mut self,
        p: &str,
        l: &LayerSpec,
        offer: Option<&crate::catalog::Offer>,
        point: PricePoint,
        terms: &mut KindTerms,
    ) {
        let term = match l.term {
            Some(t) => t,
            None => {
                self.push(
                    format!("{p}.term"),
                    "a reserved layer needs its commitment term: \"1y\", \"3y\" or a number of months as {\"months\": 6}",
                );
                CommitTerm::OneYear
            }
        };
        let months = term.months();
        if months == 0 || months > MAX_HORIZON_MONTHS {
            self.push(
                format!("{p}.term.months"),
                format!(
                    "a commitment of {months} months is outside 1 to {MAX_HORIZON_MONTHS} months; give the contract's term in whole months"
                ),
            );
        }
        if l.gpus.is_none() {
            self.push(
                format!("{p}.gpus"),
                "a reserved layer needs the number of GPUs committed",
            );
        }
        terms.price_per_gpu_hour = match term.catalog_price_field() {
            Some(field) => {
                let fig = offer.and_then(|o| {
                    if months == 36 {
                        o.reserved_3y_per_gpu_hour.clone()
                    } else {
                        o.reserved_1y_per_gpu_hour.clone()
                    }
                });
                self.offer_price(p, l, offer, field, fig.as_ref(), point)
            }
            None => match &l.price_per_gpu_hour {
                Some(o) => self.take_override(&format!("{p}.price_per_gpu_hour"), o),
                None => {
                    self.push(
                        format!("{p}.price_per_gpu_hour"),
                        format!(
                            "a reserved term of {} has no catalog price (the catalog prices 12- and 36-month terms): give the quoted price as `price_per_gpu_hour`, {{\"value\": \"...\", \"reason\": \"...\"}}",
                            term.words()
                        ),
                    );
                    Decimal::ZERO
                }
            },
        };
        let end = l.start_month.saturating_add(months);
        terms.until = Some(terms.until.map_or(end, |u| u.min(end)));
    }

    /// A spot layer's checkpointing: its interruption rate, checkpoint write and restart times
    /// (defaults 3 and 10 minutes), from which the overhead factor follows (Young/Daly).
    fn spot_checkpointing(&mut self, p: &str, l: &LayerSpec) -> Checkpointing {
        let lambda = match l.interruptions_per_hour {
            Some(v) => {
                self.non_negative(&format!("{p}.interruptions_per_hour"), v);
                v
            }
            None => {
                self.push(
                    format!("{p}.interruptions_per_hour"),
                    "a spot layer needs the expected interruptions per hour (e.g. \"0.25\" for one per 4 hours)",
                );
                Decimal::ZERO
            }
        };
        let c = l.checkpoint_write_minutes.unwrap_or(dec!(3));
        let r = l.restart_minutes.unwrap_or(dec!(10));
        self.non_negative(&format!("{p}.checkpoint_write_minutes"), c);
        self.non_negative(&format!("{p}.restart_minutes"), r);
        Checkpointing {
            interruptions_per_hour: lambda.max(Decimal::ZERO),
            checkpoint_write_h: c.max(Decimal::ZERO) / dec!(60),
            restart_h: r.max(Decimal::ZERO) / dec!(60),
        }
    }

    /// A clause prices ending a commitment early, so only layers with a commitment schedule
    /// (reserved capacity, leased hardware) may carry one; see `catalogs/samples/README.md`.
    fn clause_applies(&mut self, p: &str, l: &LayerSpec, owned: Option<&Owned>) {
        let refusal = match l.kind {
            LayerKind::Reserved => None,
            LayerKind::Owned => match owned.map(|o| &o.financing) {
                Some(Financing::Lease { .. }) | None => None,
                Some(_) => Some(
                    "owned hardware paid in cash or by a loan commits to no contract payments a clause could end; an exit clause applies to reserved capacity and leased hardware",
                ),
            },
            _ => Some(
                "this layer commits to no payments (it is paid as used): an exit clause applies to reserved capacity and leased hardware only",
            ),
        };
        if let Some(message) = refusal {
            self.push(format!("{p}.exit_clause"), message);
        }
    }

    /// How a rented layer's energy and emissions are estimated, each figure recorded as an
    /// assumption under `<layer>.estimated_energy`: the accelerator's catalog TDP × the server
    /// overhead factor, the provider's published fleet PUE (else the catalog's cloud default, an
    /// industry average, labelled so), and the grid intensity of the offer's `grid_region` (else
    /// of the [`CLOUD_FALLBACK_REGION`], labelled so). `None`, with a warning, when a figure is
    /// missing: the layer's energy then counts as 0 and the warning says so.
    fn cloud_energy(
        &mut self,
        p: &str,
        layer: &str,
        idle_power_share: Option<Decimal>,
        offer: Option<&crate::catalog::Offer>,
        acc: Option<&Accelerator>,
        point: PricePoint,
    ) -> Option<CloudEnergy> {
        let not_estimated =
            |why: String| format!("layer `{layer}`: {why}; its energy and emissions are not estimated (counted as 0)");
        let Some(acc) = acc else {
            self.warnings
                .push(not_estimated("the layer names no accelerator".to_owned()));
            return None;
        };
        let Some(tdp) = &acc.tdp_w else {
            self.warnings.push(not_estimated(format!(
                "the catalog gives no power (TDP) for `{}`",
                acc.id
            )));
            return None;
        };
        let ep = format!("{p}.estimated_energy");
        let pue_fig = match offer.and_then(|o| self.catalog.provider_pue(&o.provider)) {
            Some(b) => Some((b, "pue (the provider's published fleet average)".to_owned())),
            None => self.catalog.cloud_default_pue().map(|b| {
                let whose = match offer {
                    Some(o) => format!("`{}` publishes none", o.provider),
                    None => "the layer names no provider".to_owned(),
                };
                (b, format!("pue (industry average: {whose})"))
            }),
        };
        let Some((bench, pue_field)) = pue_fig else {
            self.warnings.push(not_estimated(
                "the catalog has no PUE for the provider and no cloud default PUE".to_owned(),
            ));
            return None;
        };
        let (region_id, grid_field) = match offer.and_then(|o| o.grid_region.clone()) {
            Some(r) => (r, "grid_gco2_per_kwh (the offer's region)".to_owned()),
            None => (
                CLOUD_FALLBACK_REGION.to_owned(),
                format!("grid_gco2_per_kwh (`{CLOUD_FALLBACK_REGION}` average: the offer states no region)"),
            ),
        };
        let Some((rid, grid_fig)) = self
            .catalog
            .region(&region_id)
            .and_then(|r| r.grid_gco2_per_kwh.clone().map(|g| (r.id.clone(), g)))
        else {
            self.warnings.push(not_estimated(format!(
                "the catalog gives no grid intensity for region `{region_id}`"
            )));
            return None;
        };
        let (bench_id, bench_pue) = (bench.id.clone(), bench.pue.clone());
        let watts = self.take_catalog(&format!("{ep}.tdp_w"), &acc.id, "tdp_w", tdp, None, point);
        let pue = self.take_catalog(&format!("{ep}.pue"), &bench_id, &pue_field, &bench_pue, None, point);
        let grid = self.take_catalog(
            &format!("{ep}.grid_gco2_per_kwh"),
            &rid,
            &grid_field,
            &grid_fig,
            None,
            point,
        );
        let idle = idle_power_share.unwrap_or(DEFAULT_IDLE_POWER_SHARE);
        self.fraction(&format!("{p}.idle_power_share"), idle);
        Some(CloudEnergy {
            kw_per_gpu: watts / dec!(1000) * SERVER_OVERHEAD_FACTOR,
            pue,
            grid_gco2_per_kwh: grid,
            idle_power_share: idle,
        })
    }

    /// The share of the hardware price the hardware sells for at the horizon, recorded as an
    /// assumption at `<layer>.residual_share`: the user's `residual_share` (an override), else the
    /// catalog's resale estimate for the accelerator at its age at the horizon (horizon − delivery
    /// month), else 0 with a warning. Never the book value: that is an accounting figure, not a
    /// price a buyer pays.
    fn residual(
        &mut self,
        p: &str,
        l: &LayerSpec,
        acc: Option<&Accelerator>,
        delivery: u32,
        leased: bool,
        point: PricePoint,
    ) -> Decimal {
        let path = format!("{p}.residual_share");
        if let Some(r) = l.residual_share {
            self.fraction(&path, r);
            let reason = l.residual_reason.clone().filter(|r| !r.trim().is_empty());
            if reason.is_none() {
                self.warnings.push(format!(
                    "layer `{}`: residual_share {r} has no residual_reason; say where the resale price comes from (a quote, a buy-back offer)",
                    l.id
                ));
            }
            self.assumptions.push(Assumption {
                path,
                value: r,
                origin: Origin::Override {
                    reason: reason.unwrap_or_else(|| "given in the scenario file; no reason stated".to_owned()),
                },
            });
            return r;
        }
        // Leased hardware goes back to the lessor; hardware delivered after the horizon is not sold.
        if leased || delivery >= self.horizon {
            return Decimal::ZERO;
        }
        let age = self.horizon - delivery;
        self.catalog_resale(&path, &l.id, acc, age, point)
    }

    /// The catalog's sourced resale estimate for accelerator `acc` at `age` months, at `point`,
    /// recorded as an assumption at `path`; 0 with a warning when no estimate covers it.
    fn catalog_resale(
        &mut self,
        path: &str,
        layer_id: &str,
        acc: Option<&Accelerator>,
        age: u32,
        point: PricePoint,
    ) -> Decimal {
        let Some(acc) = acc else {
            self.warnings.push(format!(
                "layer `{layer_id}`: no accelerator is known, so no sourced resale estimate: resale counted as 0; give residual_share with a reason to use a quote"
            ));
            return Decimal::ZERO;
        };
        let Some(curve) = self.catalog.resale_for(acc) else {
            self.warnings.push(format!(
                "no sourced resale estimate for `{}`: resale counted as 0; give residual_share with a reason to use a quote",
                acc.id
            ));
            return Decimal::ZERO;
        };
        match curve.share_at(age) {
            Some(fig) => {
                let field = format!("resale share at {age} months");
                let (id, fig) = (curve.id.clone(), fig);
                self.take_catalog(path, &id, &field, &fig, None, point)
            }
            None => {
                self.warnings.push(format!(
                    "no sourced resale estimate for `{}` at {age} months (the estimate `{}` stops at {} months): resale counted as 0; give residual_share with a reason to use a quote",
                    acc.id,
                    curve.id,
                    curve.last_age()
                ));
                Decimal::ZERO
            }
        }
    }

    /// An owned layer in stages: GPUs and servers, the hardware price, the server power, the
    /// running-cost rates, the financing, the resale share and the payment milestones.
    fn owned(
        &mut self,
        p: &str,
        l: &LayerSpec,
        acc: Option<&Accelerator>,
        system: Option<&crate::catalog::ServerSystem>,
        point: PricePoint,
    ) -> Option<Owned> {
        let gpus = match l.gpus {
            Some(g) => g,
            None => {
                self.push(format!("{p}.gpus"), "an owned layer needs the number of GPUs bought");
                0
            }
        };
        let per_server = system
            .map(|s| u32::from(s.gpus))
            .or(l.gpus_per_server)
            .unwrap_or(8)
            .max(1);
        if system.is_some() && l.gpus_per_server.is_some() {
            self.push(
                format!("{p}.gpus_per_server"),
                "the system sets the GPUs per server; remove `gpus_per_server`",
            );
        }
        let hardware = self.hardware_price(p, l, acc, system, point);
        let server_kw = self.server_kw(p, l, acc, system, per_server, point);
        let life = l.depreciation_life_months.unwrap_or(DEFAULT_LIFE_MONTHS);
        if life == 0 {
            self.push(
                format!("{p}.depreciation_life_months"),
                "the depreciation life must be at least one month",
            );
        }
        self.fraction(&format!("{p}.salvage_share"), l.salvage_share);
        self.fraction(&format!("{p}.support_rate_per_year"), l.support_rate_per_year);
        self.fraction(
            &format!("{p}.non_server_maintenance_rate_per_year"),
            l.non_server_maintenance_rate_per_year.unwrap_or_default(),
        );
        self.non_negative(
            &format!("{p}.running_cost_per_gpu_hour"),
            l.running_cost_per_gpu_hour.unwrap_or_default(),
        );
        let idle = l.idle_power_share.unwrap_or(DEFAULT_IDLE_POWER_SHARE);
        self.fraction(&format!("{p}.idle_power_share"), idle);
        let financing = self.financing(p, l, life);
        let delivery = l.start_month + self.lead_time(p, l, point);
        let leased = matches!(financing, Financing::Lease { .. });
        let residual_share = self.residual(p, l, acc, delivery, leased, point);
        let milestones = self.milestones(p, l, delivery);
        Some(Owned {
            gpus,
            gpus_per_server: per_server,
            server_kw,
            hardware_per_gpu: hardware,
            installation: l.installation,
            order_month: l.start_month,
            delivery_month: delivery,
            financing,
            milestones,
            life_months: life.max(1),
            salvage_share: l.salvage_share,
            residual_share,
            support_rate_per_year: l.support_rate_per_year,
            non_server_maintenance_rate_per_year: l.non_server_maintenance_rate_per_year.unwrap_or_default(),
            running_cost_per_gpu_hour: l.running_cost_per_gpu_hour.unwrap_or_default(),
            idle_power_share: idle,
            retired: None,
        })
    }

    /// An owned layer's lead time in months, recorded as an assumption: the catalog entry named by
    /// `lead_time_source` (its weeks at the chosen point, rounded up to whole months of
    /// 365.25 ÷ 12 days), or the typed `lead_time_months` as an override with its reason (a
    /// warning when the reason is missing); 0 when neither is given.
    fn lead_time(&mut self, p: &str, l: &LayerSpec, point: PricePoint) -> u32 {
        let typed = l.lead_time_months;
        let Some(id) = l.lead_time_source.as_deref() else {
            if typed > 0 {
                let reason = l.lead_time_reason.clone().filter(|r| !r.trim().is_empty());
                if reason.is_none() {
                    self.warnings.push(format!(
                        "layer `{}`: lead_time_months {typed} has no lead_time_reason; say where the delivery time comes from (the supplier's quote), or take it from the catalog with lead_time_source",
                        l.id
                    ));
                }
                self.assumptions.push(Assumption {
                    path: format!("{p}.lead_time_months"),
                    value: Decimal::from(typed),
                    origin: Origin::Override {
                        reason: reason.unwrap_or_else(|| "given in the scenario file; no reason stated".to_owned()),
                    },
                });
            }
            return typed;
        };
        let path = format!("{p}.lead_time_source");
        if typed > 0 {
            self.push(
                path,
                "the lead time is given twice: take it from the catalog (`lead_time_source`) or type it with its reason (`lead_time_months`), not both",
            );
            return typed;
        }
        let catalog = self.catalog;
        let Some(entry) = catalog.facility.lead_times.iter().find(|e| e.id == id) else {
            let known: Vec<&str> = catalog.facility.lead_times.iter().map(|e| e.id.as_str()).collect();
            self.push(
                path,
                format!(
                    "`{id}` is not a lead time in the catalog; choose one of: {}",
                    known.join(", ")
                ),
            );
            return 0;
        };
        let weeks = self.take_catalog(
            &format!("{p}.lead_time_weeks"),
            &entry.id,
            "weeks",
            &entry.weeks,
            None,
            point,
        );
        crate::engine::blocks::sizing::lead_time_months(weeks)
    }

    /// The price of one owned GPU: an override, else the system's price per GPU, else the
    /// accelerator's; plus the platform cost per GPU.
    fn hardware_price(
        &mut self,
        p: &str,
        l: &LayerSpec,
        acc: Option<&Accelerator>,
        system: Option<&crate::catalog::ServerSystem>,
        point: PricePoint,
    ) -> Decimal {
        let price_path = format!("{p}.price_per_gpu");
        let price = match (
            &l.price_per_gpu,
            system.and_then(|s| s.price_usd.as_ref().map(|f| (s, f))),
            acc,
        ) {
            (Some(o), _, _) => self.take_override(&price_path, o),
            (None, Some((s, f)), _) => {
                self.take_catalog(&price_path, &s.id, "price_usd", f, Some("USD"), point) / Decimal::from(s.gpus.max(1))
            }
            (None, None, Some(a)) => match &a.price_usd {
                Some(f) => self.take_catalog(&price_path, &a.id, "price_usd", f, Some("USD"), point),
                None => {
                    self.push(&price_path, format!("the catalog has no purchase price for `{}`; give {{\"value\": \"...\", \"reason\": \"...\"}}", a.id));
                    Decimal::ZERO
                }
            },
            (None, None, None) => Decimal::ZERO,
        };
        price + l.platform_cost_per_gpu
    }

    /// The wall power of one server at full load, kW: an override per GPU, else the system's
    /// maximum, else the accelerator's TDP with the server overhead factor.
    fn server_kw(
        &mut self,
        p: &str,
        l: &LayerSpec,
        acc: Option<&Accelerator>,
        system: Option<&crate::catalog::ServerSystem>,
        per_server: u32,
        point: PricePoint,
    ) -> Decimal {
        let power_path = format!("{p}.power_kw_per_gpu");
        match (
            &l.power_kw_per_gpu,
            system,
            acc.and_then(|a| a.tdp_w.as_ref().map(|t| (a, t))),
        ) {
            (Some(o), _, _) => self.take_override(&power_path, o) * Decimal::from(per_server),
            (None, Some(s), _) => self.take_catalog(&power_path, &s.id, "max_power_kw", &s.max_power_kw, None, point),
            (None, None, Some((a, tdp))) => {
                let w = self.take_catalog(&power_path, &a.id, "tdp_w", tdp, None, point);
                Decimal::from(per_server) * w / dec!(1000) * SERVER_OVERHEAD_FACTOR
            }
            (None, None, None) => {
                self.push(
                    &power_path,
                    "the catalog gives no power for this hardware; give the wall power per GPU in kW",
                );
                Decimal::ZERO
            }
        }
    }

    /// How owned hardware is paid: cash, a loan (term, down payment) or a lease (no longer than
    /// the depreciation life `life`, paid by the lease rather than by milestones).
    fn financing(&mut self, p: &str, l: &LayerSpec, life: u32) -> Financing {
        let fin = l
            .financing
            .clone()
            .unwrap_or(crate::engine::input::scenario_file::FinancingSpec {
                method: FinancingMethod::Cash,
                annual_rate: Decimal::ZERO,
                term_months: 0,
                down_payment: Decimal::ZERO,
            });
        let fp = format!("{p}.financing");
        if fin.annual_rate < Decimal::ZERO || fin.annual_rate > Decimal::ONE {
            self.push(
                format!("{fp}.annual_rate"),
                format!("{} is not an annual rate between 0 and 1", fin.annual_rate),
            );
        }
        let rate = monthly_rate(fin.annual_rate.max(Decimal::ZERO)).unwrap_or_default();
        match fin.method {
            FinancingMethod::Cash => {
                if fin.term_months > 0 || !fin.annual_rate.is_zero() || !fin.down_payment.is_zero() {
                    self.push(fp.clone(), "cash financing takes no rate, term or down payment");
                }
                Financing::Cash
            }
            FinancingMethod::Loan => {
                if fin.term_months == 0 {
                    self.push(format!("{fp}.term_months"), "a loan needs a term of at least one month");
                }
                self.fraction(&format!("{fp}.down_payment"), fin.down_payment);
                Financing::Loan {
                    monthly_rate: rate,
                    term_months: fin.term_months,
                    down_payment: fin.down_payment,
                }
            }
            FinancingMethod::Lease => {
                if fin.term_months == 0 || fin.term_months > MAX_LEASE_MONTHS || fin.term_months > life {
                    self.push(
                        format!("{fp}.term_months"),
                        format!(
                            "a lease of {} months is not allowed: give 1 to {MAX_LEASE_MONTHS} months, and no longer than the depreciation life ({life} months)",
                            fin.term_months
                        ),
                    );
                }
                if !fin.down_payment.is_zero() {
                    self.push(format!("{fp}.down_payment"), "a lease takes no down payment");
                }
                if !l.payment_milestones.is_empty() {
                    self.push(
                        format!("{p}.payment_milestones"),
                        "leased hardware is paid by the lease, not by milestones",
                    );
                }
                Financing::Lease {
                    monthly_rate: rate,
                    term_months: fin.term_months,
                }
            }
        }
    }

    /// The hardware's payment milestones as (absolute month, share), the shares adding up to 1;
    /// all on delivery when the file gives none.
    fn milestones(&mut self, p: &str, l: &LayerSpec, delivery: u32) -> Vec<(u32, Decimal)> {
        if l.payment_milestones.is_empty() {
            vec![(delivery, Decimal::ONE)]
        } else {
            let mut total = Decimal::ZERO;
            for (k, m) in l.payment_milestones.iter().enumerate() {
                self.fraction(&format!("{p}.payment_milestones[{k}].share"), m.share);
                total += m.share;
            }
            if total != Decimal::ONE {
                self.push(
                    format!("{p}.payment_milestones"),
                    format!("the milestone shares add up to {total}, not 1"),
                );
            }
            l.payment_milestones
                .iter()
                .map(|m| (l.start_month + m.month, m.share))
                .collect()
        }
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
