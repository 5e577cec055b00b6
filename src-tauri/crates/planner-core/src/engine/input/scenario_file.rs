//! The scenario file: a versioned JSON document a person can write by hand, review and diff.
//!
//! The Rust types below *are* the format: serde reads them (refusing unknown fields, so a typo is
//! an error, not a silently ignored line), and `schemars` generates the JSON Schema committed at
//! `catalogs/samples/scenario.schema.json` (a test fails when it is stale). Money, rates and
//! fractions are decimal strings (`"6.88"`, `"0.08"`), never JSON numbers, so no value passes
//! through a binary float. Figures that come from the catalog are referenced by id; to use another
//! value (a negotiated price) write an [`Override`] with the value and the reason, and the result
//! lists it as an override.
//!
//! Layers are one flat object with a `kind`, not a tagged union, so that every error path reads
//! like the file (`scenarios[1].layers[0].price_per_gpu_hour`); which fields a kind needs and
//! which it refuses is checked by `validate`, and documented in `catalogs/samples/README.md`.

use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use crate::calendar::YearMonth;
use crate::market_shape::{Band, Decay, PricePath};
use crate::problem::Problem;
use crate::workload_kind::{DataClassification, Precision, TuningMethod, WorkloadClass, WorkloadKind};

/// The scenario-file format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The default horizon, in months.
pub const DEFAULT_HORIZON_MONTHS: u32 = 36;

/// A value the user sets in place of the catalog's, and why (a negotiated quote, a measurement).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct Override {
    pub value: Decimal,
    /// ISO 4217 code of `value` when it is money in another currency than the file's (absent: the
    /// file's). It is converted with the file's `fx`; a field that is not money refuses it.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Why this value and not the catalog's: a quote number, a measurement, a source.
    pub reason: String,
}

/// Which point of a catalog range a scenario uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum PricePoint {
    Low,
    #[default]
    Mid,
    High,
}

/// An exchange rate, written as a market quote: 1 `base` = `rate` `quote`, where one of the two
/// is the file's currency (`{"base": "EUR", "quote": "USD", "rate": "1.08"}` = 1 EUR = 1.08 USD).
/// The older form `{"currency": "USD", "rate": "0.926"}` (one unit of `currency` is worth `rate`
/// units of the file's currency) is still read; an entry uses one form or the other. Rates far
/// from the market (an inverted quote) are refused; see the `fx` module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct FxRate {
    /// The currency one unit of which is priced (market form).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// The currency the price is in (market form).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// Older form: the currency one unit of which is worth `rate` units of the file's currency.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Units of `quote` per `base` (older form: units of the file's currency per `currency`).
    pub rate: Decimal,
    /// Where the rate comes from and its date.
    pub source: String,
}

/// A whole scenario file: workloads (demand) and the scenarios (supply) that compete to serve them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// The format of this file; this build reads 1.
    pub format_version: u32,
    pub title: String,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// ISO 4217 code of every amount in the file and in the results.
    pub currency: String,
    /// First month of the horizon, YYYY-MM. Month lengths (and so hours) follow the calendar.
    pub start: YearMonth,
    /// Months evaluated, 1 to 120.
    #[serde(default = "default_horizon")]
    pub horizon_months: u32,
    /// The buyer's annual discount rate, as a fraction ("0.08" = 8%).
    pub discount_rate: Decimal,
    /// Which point of catalog ranges to use unless a scenario says otherwise.
    #[serde(default)]
    pub price_point: PricePoint,
    /// Rates for catalog figures and overrides in other currencies (accelerator prices are US
    /// dollars), as market quotes: 1 `base` = `rate` `quote`.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Vec::is_empty")]
    pub fx: Vec<FxRate>,
    pub workloads: Vec<WorkloadSpec>,
    pub scenarios: Vec<ScenarioSpec>,
    /// The company's tax profile, for the after-tax view (absent: no tax figures at all).
    // Left out when absent, so that every answer and file without a profile reads as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub tax: Option<crate::engine::input::tax_spec::TaxSpec>,
    /// How prices move over the plan, for every scenario (issue #44); a scenario's own `market`
    /// overrides it key by key. Absent: every price flat, no derived resale.
    // Left out when absent, so that every answer and file without paths reads as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub market: Option<MarketSpec>,
}

/// How prices move over the plan (issue #44): each key a price path with its reason, or a
/// catalog path at a band, months counted from the file's `start` (month 0). A key left out
/// follows the catalog at the `defaults` band when one is given, else is flat. On a scenario,
/// each key set (and `defaults`) replaces the file's same key.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct MarketSpec {
    /// The rental price path of on-demand, spot and pooled layers (a reservation locks the
    /// price in force in the month it is signed).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub rental: Option<PathChoice>,
    /// An offer family's own rental path, by accelerator id: layers renting that accelerator
    /// follow it instead of `rental`.
    #[serde(default)]
    #[schemars(skip_serializing_if = "BTreeMap::is_empty")]
    pub rental_for: BTreeMap<String, PathChoice>,
    /// The path of token-metered (API) prices.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub token: Option<PathChoice>,
    /// The purchase price of owned hardware at fixed performance, by the month it is ordered.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub purchase: Option<PathChoice>,
    /// The facility's electricity tariff.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub electricity: Option<PathChoice>,
    /// Staff cost.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub staff: Option<PathChoice>,
    /// Support: owned support contracts and non-server maintenance, rented running cost per month.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub support: Option<PathChoice>,
    /// Resale derived from price-performance for owned hardware without a sourced estimate.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub resale: Option<ResaleChoice>,
    /// Every key left unset follows the catalog's matching path (and resale decay) at this band.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub defaults: Option<Band>,
}

impl MarketSpec {
    /// This market's keys, each falling back to `base`'s when not set (a scenario's market over
    /// the file's); `rental_for` merged by accelerator, this market's entries winning.
    pub fn over(&self, base: &MarketSpec) -> MarketSpec {
        let mut rental_for = base.rental_for.clone();
        rental_for.extend(self.rental_for.clone());
        MarketSpec {
            rental: self.rental.clone().or_else(|| base.rental.clone()),
            rental_for,
            token: self.token.clone().or_else(|| base.token.clone()),
            purchase: self.purchase.clone().or_else(|| base.purchase.clone()),
            electricity: self.electricity.clone().or_else(|| base.electricity.clone()),
            staff: self.staff.clone().or_else(|| base.staff.clone()),
            support: self.support.clone().or_else(|| base.support.clone()),
            resale: self.resale.clone().or_else(|| base.resale.clone()),
            defaults: self.defaults.or(base.defaults),
        }
    }
}

/// A price path: the user's own, and why (a forecast, a contract's escalation clause), written
/// `{ path, reason }`; or a catalog path at a band, `{ catalog, band }` (band: mid when left out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct PathChoice {
    /// The user's own path (not with `catalog`).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub path: Option<PricePath>,
    /// The id of a catalog path (`[[path]]` of the market catalog; not with `path`).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub catalog: Option<String>,
    /// The catalog path's band (only with `catalog`; mid when left out).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub band: Option<Band>,
    /// Where an own path comes from: required with `path`, not empty.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A price-performance decay for derived resale: the user's own, `{ decay, reason }`, or a
/// catalog decay at a band, `{ catalog, band }` (band: mid when left out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct ResaleChoice {
    /// The user's own decay (not with `catalog`).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub decay: Option<Decay>,
    /// The id of a catalog decay (`[[resale_decay]]` of the market catalog; not with `decay`).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub catalog: Option<String>,
    /// The catalog decay's band (only with `catalog`; mid when left out).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub band: Option<Band>,
    /// Where an own decay comes from: required with `decay`, not empty.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

fn default_horizon() -> u32 {
    DEFAULT_HORIZON_MONTHS
}

/// The shape of the model a workload runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct ModelSpec {
    /// Parameters in billions ("13" for a 13B model).
    pub parameters_billion: Decimal,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub layers: Option<u32>,
    /// Key/value heads (not query heads, under grouped-query attention).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub kv_heads: Option<u32>,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<u32>,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub context_tokens: Option<u32>,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub batch: Option<u32>,
}

/// One workload. Give its demand as `tokens_per_month` (needs `model`) or as `gpu_hours_per_day`
/// on the accelerator `gpu_hours_on`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct WorkloadSpec {
    pub id: String,
    pub name: String,
    pub kind: WorkloadKind,
    /// For fine-tuning: full, lora or qlora.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub method: Option<TuningMethod>,
    pub class: WorkloadClass,
    #[serde(default = "default_precision")]
    pub precision: Precision,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelSpec>,
    /// Tokens trained or served per month (first month; growth applies after).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub tokens_per_month: Option<Decimal>,
    /// Inference: the shares of its tokens that are input, output and cached, which an API
    /// priced by kind of token bills apart. Needed by a token-metered layer with split prices
    /// that serves the workload; it never changes the work (every token costs 2N FLOPs).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub token_mix: Option<TokenMix>,
    /// GPU-hours per day on `gpu_hours_on` (first month; growth applies after).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub gpu_hours_per_day: Option<Decimal>,
    /// The accelerator (catalog id) the `gpu_hours_per_day` are counted on.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub gpu_hours_on: Option<String>,
    /// Model FLOPs utilisation reached on the hardware (default 0.4).
    #[serde(default = "default_mfu")]
    pub mfu: Decimal,
    /// Compound growth of demand per month, as a fraction ("0.05" = 5% a month).
    #[serde(default)]
    pub monthly_growth: Decimal,
    /// First month of activity, 0-based (default 0).
    #[serde(default)]
    pub active_from_month: u32,
    /// Number of active months (default: to the end of the horizon).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub active_months: Option<u32>,
    /// Whether the work survives interruption (checkpointed training, batch jobs).
    #[serde(default)]
    pub interruptible: bool,
    #[serde(default = "default_classification")]
    pub data_classification: DataClassification,
    /// The region (catalog id) the data must stay in, if any.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

/// The shares of an inference workload's tokens a month by kind, as fractions that sum to 1:
/// `{"input": "0.7", "output": "0.2", "cached": "0.1"}` (`cached` defaults to 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct TokenMix {
    /// Share of the tokens that are input (prompt) tokens, not read from a cache.
    pub input: Decimal,
    /// Share of the tokens that are output (generated) tokens.
    pub output: Decimal,
    /// Share of the tokens that are input tokens read from the provider's prompt cache.
    #[serde(default)]
    pub cached: Decimal,
}

fn default_precision() -> Precision {
    Precision::Bf16
}

fn default_mfu() -> Decimal {
    Decimal::new(4, 1)
}

fn default_classification() -> DataClassification {
    DataClassification::Internal
}

/// One way to supply the compute: a set of layers and the costs around them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct ScenarioSpec {
    pub id: String,
    pub name: String,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Overrides the file's price point for this scenario.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub price_point: Option<PricePoint>,
    pub layers: Vec<LayerSpec>,
    /// Where owned or leased hardware runs; required when a layer is `owned`.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub facility: Option<FacilitySpec>,
    /// The back-end fabric joining owned servers.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub network: Option<NetworkSpec>,
    /// Operations staff, full-time equivalents.
    #[serde(default)]
    pub staff_fte: Decimal,
    /// Cost of one full-time equivalent per year.
    #[serde(default)]
    pub staff_cost_per_fte_year: Decimal,
    /// Cost of one engineer-month, for adapting the software stack to a domestic accelerator.
    #[serde(default)]
    pub engineer_month_cost: Decimal,
    #[serde(default)]
    pub software_per_month: Decimal,
    #[serde(default)]
    pub storage_per_month: Decimal,
    #[serde(default)]
    pub egress_tb_per_month: Decimal,
    #[serde(default)]
    pub egress_per_tb: Decimal,
    /// Egress and premium storage as a share of the month's cloud spend (compute and
    /// commitments), as a fraction ("0.075" adds 7.5%).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub egress_share_of_cloud_spend: Option<Decimal>,
    /// This scenario's own scale of every workload's stated demand ("0.8" = 80%, 0 to 100), with
    /// its reason (a what-if kept as a scenario). Absent: the demand as the workloads state it.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub demand_scale: Option<Override>,
    /// This scenario's own monthly demand growth (−1 to 1), in place of every workload's, with
    /// its reason. Absent: each workload's own `monthly_growth`.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub monthly_growth: Option<Override>,
    /// This scenario's own annual discount rate (0 to 1), in place of the file's, with its reason.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub discount_rate: Option<Override>,
    /// This scenario's own price paths (issue #44), key by key in place of the file's `market`.
    // Left out when absent, so that every answer and file without paths reads as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub market: Option<MarketSpec>,
}

/// What kind of supply a layer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum LayerKind {
    /// Hardware you hold: bought for cash, on a loan, or leased (see `financing`).
    Owned,
    /// Cloud capacity committed for a term (1 or 3 years, or any whole number of months), paid
    /// whether used or not.
    Reserved,
    /// Interruptible cloud capacity; only interruptible workloads use it.
    Spot,
    /// Pay-as-you-go cloud capacity.
    OnDemand,
    /// A shared pool (a university or group cluster) billed per GPU-hour used.
    Pooled,
    /// An API billed per million tokens; serves inference workloads that name a model.
    TokenMetered,
}

/// The length of a reserved commitment: `"1y"` (12 months) or `"3y"` (36 months), the terms the
/// catalog prices, or any whole number of months as `{"months": 6}` (a short capacity block, a
/// 24-month deal). A term of 12 or 36 months, in either form, may take the catalog offer's
/// reserved price; any other term has no catalog price and needs a quoted `price_per_gpu_hour`.
///
/// Two terms are equal when they last the same number of months (`{"months": 12}` is `"1y"`);
/// a term made from a number of months writes 12 and 36 in the short form.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum CommitTerm {
    #[serde(rename = "1y")]
    OneYear,
    #[serde(rename = "3y")]
    ThreeYears,
    /// Any whole number of months, 1 to 120: `{"months": 6}`.
    #[serde(rename = "months")]
    Months(#[schemars(range(min = 1, max = 120))] u32),
}

impl CommitTerm {
    /// The term of `months` months: `"1y"` for 12, `"3y"` for 36, else `{"months": n}`.
    pub fn of_months(months: u32) -> CommitTerm {
        match months {
            12 => CommitTerm::OneYear,
            36 => CommitTerm::ThreeYears,
            n => CommitTerm::Months(n),
        }
    }

    /// The length of the term in months.
    pub fn months(self) -> u32 {
        match self {
            CommitTerm::OneYear => 12,
            CommitTerm::ThreeYears => 36,
            CommitTerm::Months(n) => n,
        }
    }

    /// The catalog offer's price field for a term of this length (`reserved_1y_per_gpu_hour`
    /// or `reserved_3y_per_gpu_hour`), or `None` when the catalog prices no such term.
    pub fn catalog_price_field(self) -> Option<&'static str> {
        match self.months() {
            12 => Some("reserved_1y_per_gpu_hour"),
            36 => Some("reserved_3y_per_gpu_hour"),
            _ => None,
        }
    }

    /// The term in words: "1 year", "3 years", "1 month", "6 months".
    pub fn words(self) -> String {
        match self.months() {
            12 => "1 year".to_owned(),
            36 => "3 years".to_owned(),
            1 => "1 month".to_owned(),
            n => format!("{n} months"),
        }
    }
}

impl PartialEq for CommitTerm {
    fn eq(&self, other: &CommitTerm) -> bool {
        self.months() == other.months()
    }
}

impl Eq for CommitTerm {}

impl std::hash::Hash for CommitTerm {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.months().hash(state);
    }
}

/// How owned hardware is paid for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum FinancingMethod {
    #[default]
    Cash,
    /// An annuity loan on the hardware after a down payment; the balance left at the horizon is
    /// settled in the last month so that horizons compare fairly.
    Loan,
    /// An operating lease: level monthly payments for the term, no purchase, no resale.
    Lease,
}

/// Financing terms of an owned layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct FinancingSpec {
    pub method: FinancingMethod,
    /// Annual interest (loan) or implicit lease rate, as a fraction.
    #[serde(default)]
    pub annual_rate: Decimal,
    /// Loan or lease term in months (a lease at most 60 months and not beyond the useful life).
    #[serde(default)]
    pub term_months: u32,
    /// Share of the price paid up front on a loan, as a fraction.
    #[serde(default)]
    pub down_payment: Decimal,
}

/// A payment milestone: a share of the hardware price due `month` months after the order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct Milestone {
    pub month: u32,
    pub share: Decimal,
}

/// An exit: the layer stops at `month` (0-based) and `fee` is paid then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct ExitSpec {
    pub month: u32,
    #[serde(default)]
    pub fee: Decimal,
}

/// One supply layer. Which fields apply depends on `kind`; see `catalogs/samples/README.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct LayerSpec {
    pub id: String,
    pub kind: LayerKind,
    /// Catalog accelerator id (owned, pooled, token-metered).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub accelerator: Option<String>,
    /// Catalog offer id (reserved, spot, on-demand).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub offer: Option<String>,
    /// Catalog server system id (owned): GPUs per server, power and price.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// Owned: GPUs bought. Reserved: GPUs committed. Others: the most GPUs the layer may use
    /// (absent: as many as needed).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub gpus: Option<u32>,
    /// Owned: GPUs per server when no `system` is named (default 8).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub gpus_per_server: Option<u32>,
    /// Owned: purchase price per GPU in place of the catalog's.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub price_per_gpu: Option<Override>,
    /// Owned: server platform cost per GPU (CPUs, memory, chassis) when no `system` is named.
    #[serde(default)]
    pub platform_cost_per_gpu: Decimal,
    /// Owned: one-off installation and commissioning, paid on delivery.
    #[serde(default)]
    pub installation: Decimal,
    /// Cloud layers: price per GPU-hour in place of the offer's.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub price_per_gpu_hour: Option<Override>,
    /// Token-metered: one blended price per million tokens, or else the prices by kind of token
    /// below (one or the other is required).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub price_per_million_tokens: Option<Override>,
    /// Token-metered, priced by kind of token: per million input tokens (with the output price).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub price_per_million_input_tokens: Option<Override>,
    /// Token-metered, priced by kind of token: per million output tokens (with the input price).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub price_per_million_output_tokens: Option<Override>,
    /// Token-metered, priced by kind of token: per million cached input tokens (default: the
    /// input price).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub price_per_million_cached_tokens: Option<Override>,
    /// Reserved: the commitment, `"1y"`, `"3y"` or `{"months": n}` for any whole number of months.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub term: Option<CommitTerm>,
    /// Dense tensor TFLOPS at the workload's precision in place of the catalog's.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub peak_tflops: Option<Override>,
    /// MFU reached on this layer (default: each workload's own).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub mfu: Option<Decimal>,
    /// Share of hours the capacity is up (default 0.97 owned, 1 otherwise).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub availability: Option<Decimal>,
    /// Month (0-based) the layer starts: the order month for owned hardware.
    #[serde(default)]
    pub start_month: u32,
    /// Owned: months from order to delivery and installation, typed (give `lead_time_reason`:
    /// the supplier's quoted delivery, a framework agreement).
    #[serde(default)]
    pub lead_time_months: u32,
    /// Owned: why the typed `lead_time_months` (a typed lead time is an override of the catalog's).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub lead_time_reason: Option<String>,
    /// Owned: the catalog `lead_time` entry the lead time comes from, instead of a typed one
    /// (weeks converted to whole months, rounded up).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub lead_time_source: Option<String>,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub financing: Option<FinancingSpec>,
    /// Owned, cash or loan: when the price is paid (default: all on delivery).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Vec::is_empty")]
    pub payment_milestones: Vec<Milestone>,
    /// Owned: straight-line depreciation life in months (default 60).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub depreciation_life_months: Option<u32>,
    /// Owned: share of the price left after the depreciation life (book salvage, default 0).
    #[serde(default)]
    pub salvage_share: Decimal,
    /// Owned: share of the price realised by selling at the horizon, e.g. from a buy-back quote
    /// (default: the catalog's sourced resale estimate for the accelerator at its age then, or 0
    /// where the catalog has none; never the book value).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub residual_share: Option<Decimal>,
    /// Owned: where `residual_share` comes from (a quote, a buy-back offer); shown in the
    /// assumption ledger.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub residual_reason: Option<String>,
    /// Owned: support contract per year, as a share of the hardware price.
    #[serde(default)]
    pub support_rate_per_year: Decimal,
    /// Owned: maintenance per year of the capital that is not servers (installation, network,
    /// power distribution, cooling), as a share of it (a study's "10% a year of all capex").
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub non_server_maintenance_rate_per_year: Option<Decimal>,
    /// Owned and rented by the GPU-hour: running cost per GPU-hour of use beyond the price (owned:
    /// what is not energy, such as an OEM's cooling and maintenance per server-hour divided by
    /// the GPUs of a server; rented: support billed on usage, a managed-service uplift), booked
    /// as operations.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub running_cost_per_gpu_hour: Option<Decimal>,
    /// Rented: a fixed charge each month the layer is in service (a support plan, a platform or
    /// managed-service fee), booked as support.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub running_cost_per_month: Option<Decimal>,
    /// Owned: power at the wall per GPU in kW, server share included, in place of the catalog's.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub power_kw_per_gpu: Option<Override>,
    /// Owned: share of full power an idle GPU still draws (default 0.3).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub idle_power_share: Option<Decimal>,
    /// Spot: interruptions per hour (λ).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub interruptions_per_hour: Option<Decimal>,
    /// Spot: minutes to write a checkpoint (default 3).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub checkpoint_write_minutes: Option<Decimal>,
    /// Spot: minutes to restart after an interruption (default 10).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub restart_minutes: Option<Decimal>,
    /// Workload ids this layer may serve (default: all).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub serves: Option<Vec<String>>,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub exit: Option<ExitSpec>,
    /// Reserved, and owned hardware on a lease: the contract's exit clause (notice, termination
    /// fee, egress, offboarding), so the scenario shows its cost of leaving at every month.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub exit_clause: Option<crate::exit_clause::ExitClause>,
}

/// The room owned hardware runs in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct FacilitySpec {
    /// Catalog region id: electricity tariff and grid carbon intensity.
    pub region: String,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub tariff_per_kwh: Option<Override>,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub grid_gco2_per_kwh: Option<Override>,
    /// Catalog cooling id.
    pub cooling: String,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub pue: Option<Override>,
    /// The most power a rack may draw, in kW.
    pub kw_per_rack_limit: Decimal,
    /// Catalog colocation id; absent when the room is your own.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub colocation: Option<String>,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub colocation_per_kw_month: Option<Override>,
    /// Catalog upgrade id for power distribution, paid per rack on delivery.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub power_distribution_upgrade: Option<String>,
    /// Catalog upgrade id for cooling, paid per rack on delivery.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub cooling_upgrade: Option<String>,
}

/// The back-end fabric.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct NetworkSpec {
    /// Catalog fabric id.
    pub fabric: String,
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub per_port_cost: Option<Override>,
}

/// Parses a scenario file, or says where and why it is not one.
pub fn parse(text: &str) -> Result<ScenarioFile, Problem> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        // serde_path_to_error names the document root "." (or "?" before any key is read).
        let path = if path == "." || path == "?" {
            String::new()
        } else {
            path
        };
        let message = if inner.is_syntax() || inner.is_eof() {
            // The text is not JSON at all: say where it breaks, nothing about field types.
            format!("not valid JSON: {inner}; check brackets, commas and quotes there")
        } else {
            format!("{inner}; money, rates and fractions are written as strings, e.g. \"6.88\"")
        };
        // serde quotes the offending value; a huge one is cut, not echoed whole (issue #14).
        Problem {
            path: crate::problem::clip_message(&path).into_owned(),
            message: crate::problem::clip_message(&message).into_owned(),
        }
    })
}

/// Writes a scenario file as pretty JSON (two-space indent, fields in declaration order).
///
/// The types serialize totally (every key, `null` for an absent option), which is what the IPC
/// answers carry; a file stays minimal: it leaves out every absent option and the `fx` and
/// `payment_milestones` lists when they are empty (issue #15). The schema says the same through
/// the fields' `#[schemars(skip_serializing_if)]`.
pub fn to_json(file: &ScenarioFile) -> String {
    let Ok(mut value) = FileValue::of(file) else {
        return String::new();
    };
    value.drop_nulls();
    if let FileValue::Object(root) = &mut value {
        drop_empty_list(root, "fx");
        for scenario in list(root, "scenarios") {
            if let FileValue::Object(scenario) = scenario {
                list(scenario, "layers").for_each(layer_file_form);
            }
        }
    }
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// Serializes a layer as a scenario file writes it (see [`to_json`]), for output that shows one
/// (`#[serde(serialize_with = ...)]`).
pub fn serialize_layer_as_in_file<S: serde::Serializer>(layer: &LayerSpec, serializer: S) -> Result<S::Ok, S::Error> {
    let mut value = FileValue::of(layer).map_err(serde::ser::Error::custom)?;
    value.drop_nulls();
    layer_file_form(&mut value);
    value.serialize(serializer)
}

fn layer_file_form(layer: &mut FileValue) {
    if let FileValue::Object(layer) = layer {
        drop_empty_list(layer, "payment_milestones");
    }
}

/// A JSON value whose objects keep their keys in the order written.
enum FileValue {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<FileValue>),
    Object(Vec<(String, FileValue)>),
}

impl FileValue {
    /// `value` as JSON, keys in the order serialized (serde_json's `Value` would sort them).
    fn of<T: Serialize>(value: &T) -> Result<FileValue, serde_json::Error> {
        serde_json::from_str(&serde_json::to_string(value)?)
    }

    /// Leaves out every key whose value is `null`, at any depth: in a file an absent option is
    /// not written.
    fn drop_nulls(&mut self) {
        match self {
            FileValue::Object(entries) => {
                entries.retain(|(_, v)| !matches!(v, FileValue::Null));
                entries.iter_mut().for_each(|(_, v)| v.drop_nulls());
            }
            FileValue::Array(items) => items.iter_mut().for_each(FileValue::drop_nulls),
            FileValue::Null | FileValue::Bool(_) | FileValue::Number(_) | FileValue::String(_) => {}
        }
    }
}

fn drop_empty_list(entries: &mut Vec<(String, FileValue)>, key: &str) {
    entries.retain(|(k, v)| !(k == key && matches!(v, FileValue::Array(items) if items.is_empty())));
}

fn list<'a>(entries: &'a mut [(String, FileValue)], key: &str) -> impl Iterator<Item = &'a mut FileValue> {
    entries
        .iter_mut()
        .filter(move |(k, _)| k == key)
        .flat_map(|(_, v)| match v {
            FileValue::Array(items) => items.iter_mut(),
            _ => [].iter_mut(),
        })
}

impl Serialize for FileValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            FileValue::Null => serializer.serialize_unit(),
            FileValue::Bool(b) => serializer.serialize_bool(*b),
            FileValue::Number(n) => n.serialize(serializer),
            FileValue::String(s) => serializer.serialize_str(s),
            FileValue::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            FileValue::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for FileValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = FileValue;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<FileValue, E> {
                Ok(FileValue::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<FileValue, E> {
                Ok(FileValue::Bool(b))
            }
            fn visit_u64<E>(self, n: u64) -> Result<FileValue, E> {
                Ok(FileValue::Number(n.into()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<FileValue, E> {
                Ok(FileValue::Number(n.into()))
            }
            fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<FileValue, E> {
                serde_json::Number::from_f64(n)
                    .map(FileValue::Number)
                    .ok_or_else(|| E::custom("not a finite number"))
            }
            fn visit_str<E>(self, s: &str) -> Result<FileValue, E> {
                Ok(FileValue::String(s.to_owned()))
            }
            fn visit_string<E>(self, s: String) -> Result<FileValue, E> {
                Ok(FileValue::String(s))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<FileValue, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(FileValue::Array(items))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<FileValue, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(FileValue::Object(entries))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// The JSON Schema of the format, pretty-printed, as committed at `catalogs/samples/scenario.schema.json`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(ScenarioFile);
    let mut value = schema.to_value();
    strings_only(&mut value);
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// schemars describes a decimal as "string or number"; this format accepts strings only (a
/// number would pass through a binary float), so the schema says so.
fn strings_only(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            let is_decimal = map
                .get("pattern")
                .and_then(|p| p.as_str())
                .is_some_and(|p| p.starts_with("^-?\\d+(\\.\\d+)?"));
            if is_decimal {
                map.insert("type".into(), serde_json::Value::String("string".into()));
                map.insert("pattern".into(), serde_json::Value::String("^-?\\d+(\\.\\d+)?$".into()));
            }
            for child in map.values_mut() {
                strings_only(child);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strings_only),
        _ => {}
    }
}

/// The scenario-file name of a kind (`on-demand`), also the id of a scenario's first layer of it.
pub fn kind_id(kind: LayerKind) -> &'static str {
    match kind {
        LayerKind::Owned => "owned",
        LayerKind::Reserved => "reserved",
        LayerKind::Spot => "spot",
        LayerKind::OnDemand => "on-demand",
        LayerKind::Pooled => "pooled",
        LayerKind::TokenMetered => "token-metered",
    }
}

/// A layer of `kind` with every optional field empty and every default the engine's (a reserved
/// layer commits for one year until told otherwise).
pub fn empty_layer(id: &str, kind: LayerKind) -> LayerSpec {
    LayerSpec {
        id: id.to_owned(),
        kind,
        accelerator: None,
        offer: None,
        system: None,
        gpus: None,
        gpus_per_server: None,
        price_per_gpu: None,
        platform_cost_per_gpu: Decimal::ZERO,
        installation: Decimal::ZERO,
        price_per_gpu_hour: None,
        price_per_million_tokens: None,
        price_per_million_input_tokens: None,
        price_per_million_output_tokens: None,
        price_per_million_cached_tokens: None,
        term: (kind == LayerKind::Reserved).then_some(CommitTerm::OneYear),
        peak_tflops: None,
        mfu: None,
        availability: None,
        start_month: 0,
        lead_time_months: 0,
        lead_time_reason: None,
        lead_time_source: None,
        financing: None,
        payment_milestones: Vec::new(),
        depreciation_life_months: None,
        salvage_share: Decimal::ZERO,
        residual_share: None,
        residual_reason: None,
        support_rate_per_year: Decimal::ZERO,
        non_server_maintenance_rate_per_year: None,
        running_cost_per_gpu_hour: None,
        running_cost_per_month: None,
        power_kw_per_gpu: None,
        idle_power_share: None,
        interruptions_per_hour: None,
        checkpoint_write_minutes: None,
        restart_minutes: None,
        serves: None,
        exit: None,
        exit_clause: None,
    }
}

#[cfg(test)]
mod parse_tests {
    use super::*;

    #[test]
    fn broken_json_says_where_without_a_field_path() {
        let p = parse("{\"format_version\": 1, \"currency\": \"USD\"\n").unwrap_err();
        assert_eq!(p.path, "");
        assert!(
            p.message
                .starts_with("not valid JSON: EOF while parsing an object at line 2"),
            "{}",
            p.message
        );
    }

    #[test]
    fn a_number_where_a_string_belongs_names_the_field_and_the_rule() {
        let p = parse("{\"format_version\": 1, \"currency\": \"USD\", \"discount_rate\": 0.08}").unwrap_err();
        assert_eq!(p.path, "discount_rate");
        assert!(p.message.contains("written as strings"), "{}", p.message);
    }
}
