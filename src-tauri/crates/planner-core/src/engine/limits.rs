//! The bounds on every number a scenario file can carry (issue #14).
//!
//! The engine computes in `rust_decimal` (28 significant digits, at most about 7.9 × 10^28) and
//! cannot fail once a plan is validated, so validation must keep every product the engine forms
//! far from that limit. Each number is checked against the bound of its field, named by the last
//! key of its JSON path (an override's `value` by its field): a ceiling, and for figures the
//! engine divides by, a floor below which a positive value is refused (zero keeps its meaning).
//! A field this table does not name is held to the money ceiling, so a field added later is
//! bounded too.
//!
//! The worst products, with every bound at its end (documented in README.md, "Limits"):
//! - a month of rented compute: 10^7 GPUs × 744 h × 10^6 per GPU-hour ≈ 7.4 × 10^15, and
//!   unbounded rented layers are sized from demand: at most 10^12 useful PFLOP-hours a month
//!   (see [`MAX_MONTHLY_DEMAND_PFLOP_H`]) over at least 10^-5 useful PFLOP-hours per GPU-hour
//!   (1 TFLOPS at 1% MFU) = 10^17 GPU-hours × 10^6 = 10^23 a month, 1.2 × 10^25 over 120 months;
//! - owned hardware: 10^7 GPUs × 10^12 per GPU = 10^19; energy 10^7 GPUs × 10^3 kW × 744 h ×
//!   PUE 10 × 10^6 per kWh ≈ 7.4 × 10^19 a month;
//! - tokens: 10^12 PFLOP-hours × 3.6 × 10^18 FLOP ÷ 2 × 10^6 FLOP per token (a 10^6-parameter
//!   model, the smallest accepted) = 1.8 × 10^24 tokens × 10^6 per million = 1.8 × 10^24 a month
//!   (a price by kind of token is Σ share × price with shares of at most 1 summing to 1, so it too
//!   is at most 10^6);
//! - demand: 10^18 tokens ÷ 3.6 × 10^18 × 6 × 10^15 FLOP per token (divided first) ≈ 1.7 × 10^15
//!   PFLOP-hours, which the demand check refuses above 10^12 a month, growth included;
//! - loans: (1 + 100%)^(30 years) = 10^9.
//!
//! All stay below 10^27, two digits of headroom under the limit.

use rust_decimal::Decimal;
use rust_decimal::dec;
use serde_json::Value;

use crate::engine::scenario_file::ScenarioFile;
use crate::problem::Problem;

/// The most money a single figure of a file may be (a price, a fee, a yearly cost).
pub const MAX_MONEY: Decimal = dec!(1000000000000);
/// The most a price per hour, per kWh, per kW-month or per million tokens may be.
pub const MAX_RATE_PRICE: Decimal = dec!(1000000);
/// The most GPUs a layer may count.
pub const MAX_GPUS: Decimal = dec!(10000000);
/// The largest model, in billions of parameters.
pub const MAX_PARAMETERS_BILLION: Decimal = dec!(1000000);
/// The smallest model, in billions of parameters (one million parameters).
pub const MIN_PARAMETERS_BILLION: Decimal = dec!(0.001);
/// The most tokens a month a workload may ask for (before growth).
pub const MAX_TOKENS_PER_MONTH: Decimal = dec!(1000000000000000000);
/// The most GPU-hours a day a workload may ask for (before growth).
pub const MAX_GPU_HOURS_PER_DAY: Decimal = dec!(1000000000);
/// The most useful PFLOP-hours a workload may ask for in any month, growth included (3.6 × 10^30
/// FLOP, some 10^5 times the largest training runs of 2025).
pub const MAX_MONTHLY_DEMAND_PFLOP_H: Decimal = dec!(1000000000000);
/// The most months any month count or month number may be (100 years).
pub const MAX_MONTHS: u32 = 1200;
/// The longest loan, in months.
pub const MAX_LOAN_MONTHS: u32 = 360;
/// The lowest MFU accepted (1%): work is moved between cards by dividing by it.
pub const MIN_MFU: Decimal = dec!(0.01);
/// The lowest dense throughput an override may give, in TFLOPS.
pub const MIN_PEAK_TFLOPS: Decimal = dec!(1);

/// Fields that hold text (ids, names, codes, reasons): a text that reads as a number is not one.
const TEXT_KEYS: [&str; 30] = [
    "id",
    "name",
    "title",
    "description",
    "reason",
    "source",
    "currency",
    "base",
    "quote",
    "start",
    "accelerator",
    "offer",
    "system",
    "region",
    "cooling",
    "colocation",
    "fabric",
    "power_distribution_upgrade",
    "cooling_upgrade",
    "gpu_hours_on",
    "residual_reason",
    "lead_time_reason",
    "lead_time_source",
    "serves",
    "kind",
    "method",
    "class",
    "precision",
    "price_point",
    "data_classification",
];

/// The bound of one field.
#[derive(Debug, Clone, Copy)]
struct Bound {
    max: Decimal,
    /// A positive value below this is refused (zero is left to the field's own rules).
    min_positive: Option<Decimal>,
    /// What the bound is, for the message.
    what: &'static str,
}

const fn bound(max: Decimal, what: &'static str) -> Bound {
    Bound {
        max,
        min_positive: None,
        what,
    }
}

const fn floor(max: Decimal, min: Decimal, what: &'static str) -> Bound {
    Bound {
        max,
        min_positive: Some(min),
        what,
    }
}

/// The bound of the field named `key` (the last key of its path).
fn bound_of(key: &str) -> Bound {
    match key {
        "price_per_gpu_hour"
        | "running_cost_per_gpu_hour"
        | "price_per_million_tokens"
        | "price_per_million_input_tokens"
        | "price_per_million_output_tokens"
        | "price_per_million_cached_tokens"
        | "tariff_per_kwh"
        | "colocation_per_kw_month" => bound(MAX_RATE_PRICE, "a price per unit"),
        "gpus" => bound(MAX_GPUS, "GPUs"),
        "demand_scale" => bound(dec!(100), "a scale of demand"),
        "gpus_per_server" => bound(dec!(1024), "GPUs per server"),
        "parameters_billion" => floor(MAX_PARAMETERS_BILLION, MIN_PARAMETERS_BILLION, "billion parameters"),
        "tokens_per_month" => bound(MAX_TOKENS_PER_MONTH, "tokens a month"),
        "gpu_hours_per_day" => bound(MAX_GPU_HOURS_PER_DAY, "GPU-hours a day"),
        "layers" | "kv_heads" => bound(dec!(100000), "a model dimension"),
        "head_dim" => bound(dec!(100000), "a head dimension"),
        "context_tokens" => bound(dec!(100000000), "tokens of context"),
        "batch" => bound(dec!(1000000), "sequences in a batch"),
        "staff_fte" => bound(dec!(1000000), "full-time equivalents"),
        "egress_tb_per_month" | "data_tb" => bound(dec!(1000000000), "terabytes"),
        "mfu" => floor(Decimal::ONE, MIN_MFU, "MFU"),
        "peak_tflops" => floor(dec!(10000000), MIN_PEAK_TFLOPS, "TFLOPS"),
        "power_kw_per_gpu" => floor(dec!(1000), dec!(0.001), "kW per GPU"),
        "kw_per_rack_limit" => floor(dec!(100000), dec!(0.1), "kW per rack"),
        "pue" => bound(dec!(10), "PUE"),
        "grid_gco2_per_kwh" => bound(dec!(100000), "gCO2 per kWh"),
        "interruptions_per_hour" => floor(dec!(1000), dec!(0.000001), "interruptions per hour"),
        "checkpoint_write_minutes" | "restart_minutes" => bound(dec!(100000), "minutes"),
        "rate" => floor(dec!(1000000), dec!(0.000001), "an exchange rate"),
        "term_months" => bound(Decimal::from(MAX_LOAN_MONTHS), "months"),
        "format_version" => bound(dec!(1000000), "a format version"),
        "horizon_months"
        | "start_month"
        | "lead_time_months"
        | "active_from_month"
        | "active_months"
        | "depreciation_life_months"
        | "month"
        | "notice_months" => bound(Decimal::from(MAX_MONTHS), "months"),
        // Shares, rates and growth have their own checks (0 to 1, -1 to 1) in `validate`.
        "availability"
        | "monthly_growth"
        | "discount_rate"
        | "annual_rate"
        | "down_payment"
        | "share"
        | "salvage_share"
        | "residual_share"
        | "support_rate_per_year"
        | "non_server_maintenance_rate_per_year"
        | "idle_power_share"
        | "egress_share_of_cloud_spend"
        // A token mix's shares (`token_mix.input`, `.output`, `.cached`).
        | "input"
        | "output"
        | "cached" => bound(dec!(1000), "a share"),
        // Money: prices, fees and costs, and any field not named above.
        _ => bound(MAX_MONEY, "an amount"),
    }
}

/// The bound of the field named `key` (the last key of its JSON path; an override's by its field):
/// the most it may be, and the least a positive value may be, when there is such a floor.
pub fn range_of(key: &str) -> (Decimal, Option<Decimal>) {
    let b = bound_of(key);
    (b.max, b.min_positive)
}

/// Every number of `file` outside its bound, at its JSON path, with the bound in the message.
pub fn check(file: &ScenarioFile) -> Vec<Problem> {
    let mut out = Vec::new();
    match serde_json::to_value(file) {
        Ok(v) => walk(&v, &mut Vec::new(), "", &mut out),
        Err(e) => out.push(Problem {
            path: String::new(),
            message: format!("the file cannot be checked ({e})"),
        }),
    }
    out
}

/// One step of a JSON path: a key, or an index into an array.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The path `steps` spell, as `validate` names fields: `scenarios[0].layers[1].gpus`.
fn path_of(steps: &[Step<'_>]) -> String {
    let mut path = String::new();
    for step in steps {
        match step {
            Step::Key(k) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Step::Index(i) => {
                path.push('[');
                path.push_str(&i.to_string());
                path.push(']');
            }
        }
    }
    path
}

/// Checks every number under `v`, whose path is `steps` and whose field is named `key`. The path
/// is spelled only for a number out of bounds: a file within them (every file the engine
/// evaluates, each what-if move included) costs no text.
fn walk<'a>(v: &'a Value, steps: &mut Vec<Step<'a>>, key: &'a str, out: &mut Vec<Problem>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                // An override's `value` (and a fee's) is bounded as the field it belongs to.
                let named = if k == "value" { key } else { k.as_str() };
                steps.push(Step::Key(k));
                walk(child, steps, named, out);
                steps.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                steps.push(Step::Index(i));
                walk(child, steps, key, out);
                steps.pop();
            }
        }
        Value::String(s) => {
            if TEXT_KEYS.contains(&key) {
                return;
            }
            if let Ok(d) = s.parse::<Decimal>() {
                number(d, steps, key, out);
            }
        }
        Value::Number(n) => {
            let d = n
                .as_u64()
                .map(Decimal::from)
                .or_else(|| n.as_i64().map(Decimal::from))
                .unwrap_or(Decimal::MAX);
            number(d, steps, key, out);
        }
        Value::Null | Value::Bool(_) => {}
    }
}

fn number(d: Decimal, steps: &[Step<'_>], key: &str, out: &mut Vec<Problem>) {
    let b = bound_of(key);
    if d.abs() > b.max {
        out.push(Problem {
            path: path_of(steps),
            message: format!(
                "{} is beyond what the planner evaluates here ({} at most, {}); see Limits in the README",
                crate::problem::clip(&d.normalize().to_string()),
                b.max.normalize(),
                b.what
            ),
        });
    } else if let Some(min) = b.min_positive
        && d > Decimal::ZERO
        && d < min
    {
        out.push(Problem {
            path: path_of(steps),
            message: format!(
                "{} is too small to evaluate ({} at least, {}); see Limits in the README",
                d.normalize(),
                min.normalize(),
                b.what
            ),
        });
    }
}
