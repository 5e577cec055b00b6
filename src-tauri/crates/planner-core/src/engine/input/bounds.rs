//! The bounds of the numbers of a scenario file (issue #14): the limits every bound is built from,
//! and the bounds several fields share. A layer field's bound is in its row of the table of layer
//! fields; `limits` names the bound of every other field and checks a file against them (its
//! module doc says why each limit is where it is).

use rust_decimal::Decimal;
use rust_decimal::dec;

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

/// The bound of one field: the most it may be, the least a positive value may be (when there is
/// such a floor), and what it is, for the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bound {
    pub(crate) max: Decimal,
    /// A positive value below this is refused (zero is left to the field's own rules).
    pub(crate) min_positive: Option<Decimal>,
    /// What the bound is, for the message.
    pub(crate) what: &'static str,
}

/// A ceiling of `max` (`what` names it in the message).
pub(crate) const fn bound(max: Decimal, what: &'static str) -> Bound {
    Bound {
        max,
        min_positive: None,
        what,
    }
}

/// A ceiling of `max`, and a floor of `min` below which a positive value is refused.
pub(crate) const fn floor(max: Decimal, min: Decimal, what: &'static str) -> Bound {
    Bound {
        max,
        min_positive: Some(min),
        what,
    }
}

/// Money: prices, fees and costs, and any field no bound is named for (text and structured
/// fields too, whose numbers are bounded by their own keys).
pub(crate) const AMOUNT: Bound = bound(MAX_MONEY, "an amount");
/// A price per hour, per kWh, per kW-month or per million tokens.
pub(crate) const PRICE_PER_UNIT: Bound = bound(MAX_RATE_PRICE, "a price per unit");
/// A count of GPUs.
pub(crate) const GPUS: Bound = bound(MAX_GPUS, "GPUs");
/// A month count or a month number.
pub(crate) const MONTHS: Bound = bound(Decimal::from_parts(MAX_MONTHS, 0, 0, false, 0), "months");
/// Shares, rates and growth, which have their own checks (0 to 1, -1 to 1) in `validate`.
pub(crate) const SHARE: Bound = bound(dec!(1000), "a share");
