//! A resolved plan: the scenario file with every catalog reference looked up, every range reduced
//! to the chosen point, every currency converted and every default applied. `validate` builds it;
//! `evaluate` consumes it and cannot fail. The types are plain numbers so that the engine can also
//! be driven without a catalog (tests and the worked figures build them directly).

use rust_decimal::Decimal;
use serde::Serialize;

use crate::calendar::YearMonth;
use crate::engine::blocks::network::FabricCost;
use crate::engine::blocks::rack::CoolingLimit;
use crate::engine::input::scenario_file::LayerKind;
use crate::engine::model::assumption::Assumption;
use crate::engine::model::market::{MonthPath, ScenarioMarket, scaled};
use crate::engine::model::workload::Workload;

/// Everything `evaluate` needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plan {
    pub title: String,
    pub currency: String,
    pub start: YearMonth,
    pub horizon_months: u32,
    /// Annual discount rate, as a fraction.
    pub discount_rate: Decimal,
    pub workloads: Vec<Workload>,
    pub scenarios: Vec<Scenario>,
    /// The company's tax profile (`None`: no tax figures at all, as before issue #44).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tax: Option<crate::engine::model::tax_profile::TaxProfile>,
}

/// One scenario, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub layers: Vec<Layer>,
    pub facility: Option<Facility>,
    /// The fabric joining owned servers, with its speed for the split advice.
    pub fabric: Option<Fabric>,
    pub staff_per_month: Decimal,
    pub software_per_month: Decimal,
    pub storage_egress_per_month: Decimal,
    /// Egress and premium storage as a share of each month's cloud spend.
    pub egress_share_of_cloud_spend: Decimal,
    /// Engineering cost of adapting the software stack to domestic accelerators: per month, for
    /// the first `adaptation_months` months.
    pub adaptation_per_month: Decimal,
    pub adaptation_months: u32,
    /// This scenario's own scale of every workload's demand (`demand_scale`), absent: 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub demand_scale: Option<Decimal>,
    /// This scenario's own monthly growth in place of every workload's, absent: each its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monthly_growth: Option<Decimal>,
    /// This scenario's own annual discount rate, absent: the plan's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discount_rate: Option<Decimal>,
    /// The paths and resale rule of the scenario's market (issue #44); flat without `market`.
    #[serde(skip_serializing_if = "ScenarioMarket::is_flat")]
    pub market: ScenarioMarket,
    /// Every figure taken from the catalog or overridden, with where it comes from.
    pub assumptions: Vec<Assumption>,
    /// Findings of the resolution itself (data region, unusual choices).
    pub warnings: Vec<String>,
}

/// The back-end fabric of a scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fabric {
    #[serde(skip)]
    pub cost: FabricCost,
    pub id: String,
    pub port_gbps: u32,
    pub rdma: bool,
}

/// The order in which capacity serves demand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    /// Owned and leased hardware, once delivered.
    Owned,
    /// Committed cloud capacity.
    Reserved,
    /// Interruptible cloud capacity, for interruptible workloads only.
    Spot,
    /// Pay-as-you-go: on-demand, pooled, token-metered.
    OnDemand,
}

impl Tier {
    pub const ORDER: [Tier; 4] = [Tier::Owned, Tier::Reserved, Tier::Spot, Tier::OnDemand];

    pub fn of(kind: LayerKind) -> Tier {
        match kind {
            LayerKind::Owned => Tier::Owned,
            LayerKind::Reserved => Tier::Reserved,
            LayerKind::Spot => Tier::Spot,
            LayerKind::OnDemand | LayerKind::Pooled | LayerKind::TokenMetered => Tier::OnDemand,
        }
    }
}

/// One supply layer, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layer {
    pub id: String,
    pub kind: LayerKind,
    pub accelerator: Option<String>,
    /// Dense tensor TFLOPS at 16-bit and at 8-bit precision (8-bit falls back to 16-bit).
    pub peak_tflops_16: Decimal,
    pub peak_tflops_8: Decimal,
    pub memory_gb: Decimal,
    pub has_scale_up_link: bool,
    /// MFU on this layer; `None` uses each workload's own.
    pub mfu: Option<Decimal>,
    pub availability: Decimal,
    /// GPUs the layer holds (owned), commits (reserved) or may use at most (others; `None` = no cap).
    pub gpus: Option<u32>,
    /// First month (0-based) the layer may serve, and the month it stops (exclusive).
    pub from_month: u32,
    pub until_month: Option<u32>,
    pub price_per_gpu_hour: Decimal,
    /// Token-metered: the blended price per million tokens (zero when `token_prices` is set).
    pub price_per_million_tokens: Decimal,
    /// Token-metered and priced by kind of token: the prices per million input, output and
    /// cached tokens, which each workload pays in its token mix ([`Layer::token_price`]).
    pub token_prices: Option<TokenPrices>,
    /// Paid hours per useful hour on spot (Young/Daly), 1 elsewhere.
    pub overhead_factor: Decimal,
    /// Spot layers: the checkpointing behind `overhead_factor` and the provider's notice.
    pub spot: Option<crate::engine::blocks::spot::SpotTerms>,
    /// Indices of the workloads this layer may serve (`None`: all).
    pub serves: Option<Vec<usize>>,
    /// A fee paid in the month the layer is exited.
    pub exit_fee: Option<(u32, Decimal)>,
    /// The contract's exit clause (reserved capacity and leased hardware): what leaving costs at
    /// any month, priced by the `commitment` module; nothing is booked unless a variant exits.
    pub exit_clause: Option<crate::exit_clause::ExitClause>,
    pub owned: Option<Owned>,
    pub region: Option<String>,
    /// Rented layers: how their energy and emissions are estimated (`None`: not estimated, and
    /// the scenario's warnings say why).
    pub cloud_energy: Option<CloudEnergy>,
    /// Rented layers: running cost per GPU-hour the layer bills, beyond its price (owned
    /// hardware's is in [`Owned`]); zero when none.
    pub running_cost_per_gpu_hour: Decimal,
    /// Rented layers: a fixed charge each month the layer is in service; zero when none.
    pub running_cost_per_month: Decimal,
    /// On-demand, spot, pooled and token-metered layers: the path their price follows month by
    /// month (issue #44); `None`: flat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_path: Option<MonthPath>,
    /// Reserved and owned layers whose price a path moved: the price before it did (the month-0
    /// price per GPU-hour, or hardware price per GPU); `price_per_gpu_hour` or
    /// `Owned::hardware_per_gpu` then hold the price locked in or paid. `None`: no path moved it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_price: Option<Decimal>,
}

/// A token-metered layer's prices per million tokens by kind of token, in the plan's currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TokenPrices {
    pub input: Decimal,
    pub output: Decimal,
    /// Cached input tokens (the input price when the file gives none).
    pub cached: Decimal,
}

impl Plan {
    /// The plan as scenario `s` sees it when it carries its own demand scale, growth or
    /// discount rate (scenario-level overrides): the workloads scaled and grown as it says, its
    /// own rate, and no scenarios; `None` when it carries none, so the plan is used as it is.
    pub fn as_seen_by(&self, s: &Scenario) -> Option<Plan> {
        if s.demand_scale.is_none() && s.monthly_growth.is_none() && s.discount_rate.is_none() {
            return None;
        }
        let workloads = self
            .workloads
            .iter()
            .map(|w| {
                let mut w = w.clone();
                if let Some(scale) = s.demand_scale {
                    w.base_demand *= scale;
                }
                if let Some(g) = s.monthly_growth {
                    w.monthly_growth = g;
                }
                w
            })
            .collect();
        Some(Plan {
            title: self.title.clone(),
            currency: self.currency.clone(),
            start: self.start,
            horizon_months: self.horizon_months,
            discount_rate: s.discount_rate.unwrap_or(self.discount_rate),
            workloads,
            scenarios: Vec::new(),
            tax: self.tax.clone(),
        })
    }
}

impl Layer {
    /// The price one million tokens of workload `w` pay on this token-metered layer: the blended
    /// price, or, when the layer is priced by kind of token, Σ share × price over the workload's
    /// token mix (input, output, cached). `None` when the layer is priced by kind of token and
    /// the workload declares no mix: `validate` refuses such a pair and dispatch never routes it,
    /// so no price is ever made up.
    pub fn token_price(&self, w: &Workload) -> Option<Decimal> {
        match (&self.token_prices, &w.token_mix) {
            (None, _) => Some(self.price_per_million_tokens),
            (Some(p), Some(m)) => Some(m.input * p.input + m.output * p.output + m.cached * p.cached),
            (Some(_), None) => None,
        }
    }
}

/// The figures behind a rented layer's estimated energy. The buyer does not meter a provider's
/// servers, so the energy is an estimate: GPU-hours × `kw_per_gpu` × `pue`, and the emissions
/// that energy × `grid_gco2_per_kwh`. Reserved GPUs draw `idle_power_share` of full power in the
/// committed hours they are not used, as owned GPUs do; other rented hours count only when used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CloudEnergy {
    /// Wall power of one busy GPU with its share of the server, kW: catalog TDP × the server
    /// overhead factor ([`crate::engine::blocks::rack::SERVER_OVERHEAD_FACTOR`]), as for owned GPUs without a system.
    pub kw_per_gpu: Decimal,
    pub pue: Decimal,
    pub grid_gco2_per_kwh: Decimal,
    pub idle_power_share: Decimal,
}

/// How owned hardware is paid for, resolved to monthly rates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Financing {
    Cash,
    Loan {
        monthly_rate: Decimal,
        term_months: u32,
        down_payment: Decimal,
    },
    Lease {
        monthly_rate: Decimal,
        term_months: u32,
    },
}

/// The owned-hardware part of a layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Owned {
    pub gpus: u32,
    pub gpus_per_server: u32,
    /// Wall power of one server at full load, kW.
    pub server_kw: Decimal,
    pub hardware_per_gpu: Decimal,
    pub installation: Decimal,
    /// Month (0-based) the hardware is ordered, and the month it serves from.
    pub order_month: u32,
    pub delivery_month: u32,
    pub financing: Financing,
    /// (month, share of the price), months absolute (0-based).
    pub milestones: Vec<(u32, Decimal)>,
    pub life_months: u32,
    pub salvage_share: Decimal,
    /// Share of the hardware price the hardware sells for at the horizon: the user's
    /// `residual_share`, else the catalog's sourced resale estimate at the hardware's age then,
    /// else 0 (never the book value).
    pub residual_share: Decimal,
    pub support_rate_per_year: Decimal,
    /// Maintenance per year of the capital that is not servers, as a share of it.
    pub non_server_maintenance_rate_per_year: Decimal,
    /// Running cost per GPU-hour of use that is not energy.
    pub running_cost_per_gpu_hour: Decimal,
    pub idle_power_share: Decimal,
    /// GPUs taken out before the horizon: set only in a plan variant (`exit_kinds`) that sells
    /// the hardware early, returns it to its lessor or scales the layer down; `validate` leaves it
    /// `None`, and a layer without it is booked exactly as before.
    pub retired: Option<Retirement>,
}

/// GPUs of an owned layer taken out of service before the horizon, in a plan variant.
///
/// From `month` on, `gpus` of the layer's GPUs no longer serve or run (their electricity,
/// support and colocation stop), and in `month` they are disposed of: sold for `resale_share` of
/// their hardware price, or, for leased hardware (`resale_share` 0), returned to the lessor, whose
/// payments stop in `month`. When `gpus` is all of the layer's GPUs the layer ends (its
/// `until_month` is `month`): its depreciation stops, a loan's outstanding balance is paid off in
/// `month` and nothing is resold at the horizon. When fewer are taken out the layer runs on with
/// the rest, a loan runs on unchanged, and the depreciation and the resale at the horizon are
/// those of the GPUs kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Retirement {
    /// The first month (0-based) the retired GPUs do not serve; the month they are disposed of.
    pub month: u32,
    /// How many of the layer's GPUs leave.
    pub gpus: u32,
    /// The share of their hardware price they sell for in `month` (0: returned, not sold).
    pub resale_share: Decimal,
}

impl Owned {
    /// The retirement that ends the whole layer, if any.
    pub fn retired_whole(&self) -> Option<Retirement> {
        self.retired.filter(|r| r.gpus >= self.gpus)
    }

    /// The share of the layer's GPUs still in service in month `m` when some were retired before
    /// or in it; `None` when all of them are (no retirement yet), so the untouched path multiplies
    /// by nothing.
    pub fn kept_share(&self, m: u32) -> Option<Decimal> {
        let r = self.retired.filter(|r| m >= r.month)?;
        Some(Decimal::from(self.gpus.saturating_sub(r.gpus)) / Decimal::from(self.gpus.max(1)))
    }

    /// GPUs in service in month `m` (before retirement: all of them).
    pub fn gpus_at(&self, m: u32) -> u32 {
        match self.retired.filter(|r| m >= r.month) {
            Some(r) => self.gpus.saturating_sub(r.gpus),
            None => self.gpus,
        }
    }
}

/// The room, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Facility {
    pub pue: Decimal,
    pub tariff_per_kwh: Decimal,
    pub grid_gco2_per_kwh: Decimal,
    pub kw_per_rack_limit: Decimal,
    pub cooling: Option<CoolingLimit>,
    pub colocation_per_kw_month: Decimal,
    pub power_distribution_per_rack: Decimal,
    pub cooling_upgrade_per_rack: Decimal,
}

/// What renting out an owned layer's GPU would still earn after it is sold (the cap on derived
/// resale, per GPU): the cheapest hourly price in month `price_month` among the scenario's
/// on-demand and pooled layers renting the same accelerator, less the owned layer's running cost
/// per GPU-hour, × the hours of its depreciation life left from month `from_month` on (calendar
/// hours from `start`), × its availability; never below 0. `None` when the scenario rents no
/// such layer (no cap).
pub fn rental_margin(
    layers: &[Layer],
    owned_layer: &Layer,
    o: &Owned,
    start: YearMonth,
    from_month: u32,
    price_month: u32,
) -> Option<Decimal> {
    let accelerator = owned_layer.accelerator.as_deref()?;
    let hourly = layers
        .iter()
        .filter(|l| matches!(l.kind, LayerKind::OnDemand | LayerKind::Pooled))
        .filter(|l| l.accelerator.as_deref() == Some(accelerator))
        .map(|l| scaled(l.price_per_gpu_hour, l.price_path.as_ref(), price_month))
        .min()?;
    let life_end = o.delivery_month.saturating_add(o.life_months);
    let hours_left: Decimal = (from_month..life_end).map(|m| start.plus(m).hours()).sum();
    let margin = (hourly - o.running_cost_per_gpu_hour) * hours_left * owned_layer.availability;
    Some(margin.max(Decimal::ZERO))
}
