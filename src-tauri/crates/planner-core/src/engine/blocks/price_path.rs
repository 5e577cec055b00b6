//! Price paths (issue #44): how a price moves month by month, as a multiplier of its price at the
//! path's start.
//!
//! One path shape serves every price that moves in a market: the rental price per offer family,
//! the purchase price at fixed performance, the electricity tariff, staff and support. The ledger
//! does not use them yet; a file without paths gets [`PricePath::Flat`] (ENGINE_RULES.md, "Price
//! paths (issue #44)").
//!
//! The rules (month `m` counts from 0, the path's start):
//! - **Flat.** The multiplier is 1 every month.
//! - **Rate.** Compound change at `per_year` a year: the multiplier is `(1 + per_year)^(m/12)`,
//!   computed as `((1 + per_year)^(1/12))^m` with the monthly root of [`finance::nth_root`]
//!   (Newton's method in decimals), never a binary float. `-0.25` is 25% cheaper each year.
//! - **Periods.** A rate per period, compounded piecewise: each period's rate applies from its
//!   `from_month` until the next period's; before the first period the path is flat. A fall of
//!   60% a year for 12 months followed by a rise of 40% a year is `0.4` at month 12 and
//!   `0.4 × 1.4 = 0.56` at month 24.
//! - **Points.** Dated multipliers, linearly interpolated between points; before the first point
//!   the path holds the first point's multiplier, after the last the last's. An empty list of
//!   periods or points is flat.
//! - **Refused** by [`PricePath::validate`], naming the field: a rate of -1 (-100%) or below, or
//!   above 10 (+1000%); periods whose months do not strictly increase; points whose months do not
//!   strictly increase; a multiplier of 0 or below, or above 100; more than 240 periods or points.
//! - **Overflow.** [`PricePath::multiplier`] never panics: a product too large for a `Decimal`
//!   (a steep rise kept for decades) saturates at `Decimal::MAX`. On a path `validate` refuses the
//!   result is defined but meaningless (a rate at or below -100% gives 0 after month 0).

use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::engine::blocks::finance;
use crate::engine::blocks::refused::Refused;

/// The most periods or points a path may have (twenty years of monthly points).
pub const MAX_STEPS: usize = 240;

/// The highest yearly rate accepted: +1000% a year.
pub const MAX_RATE_PER_YEAR: Decimal = Decimal::TEN;

/// The highest multiplier a point may set.
pub const MAX_MULTIPLIER: Decimal = Decimal::ONE_HUNDRED;

/// How a price moves from the path's start, as a multiplier of the price at month 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PricePath {
    /// The price does not move: the multiplier is 1 every month. Written with braces, `Flat {}`,
    /// so that a stray field beside `"kind": "flat"` is refused rather than ignored.
    Flat {},
    /// Compound change at a constant rate a year (`-0.25` is 25% cheaper each year).
    Rate {
        /// The change a year, as a fraction: above -1, at most 10.
        per_year: Decimal,
    },
    /// A rate per period: each applies from its month until the next period; flat before the
    /// first.
    Periods {
        /// The periods, by strictly increasing `from_month`.
        periods: Vec<Period>,
    },
    /// Dated multipliers, linearly interpolated; flat before the first and after the last.
    Points {
        /// The points, by strictly increasing `month`.
        points: Vec<Point>,
    },
}

/// A file without a path gets flat.
impl Default for PricePath {
    fn default() -> Self {
        Self::Flat {}
    }
}

/// One period of a [`PricePath::Periods`] path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct Period {
    /// The month (from 0, the path's start) from which this rate applies.
    pub from_month: u32,
    /// The change a year during this period, as a fraction: above -1, at most 10.
    pub per_year: Decimal,
}

/// One dated multiplier of a [`PricePath::Points`] path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// The month (from 0, the path's start).
    pub month: u32,
    /// The price at that month as a multiple of the price at month 0: above 0, at most 100.
    pub multiplier: Decimal,
}

impl PricePath {
    /// Checks the rules of this path; the first breach is reported, naming its field.
    pub fn validate(&self) -> Result<(), Refused> {
        match self {
            Self::Flat {} => Ok(()),
            Self::Rate { per_year } => check_rate("per_year".to_owned(), *per_year),
            Self::Periods { periods } => validate_periods(periods),
            Self::Points { points } => validate_points(points),
        }
    }

    /// The multiplier at `month` (from 0, the path's start) for a valid path.
    ///
    /// Never panics: a value too large for a `Decimal` saturates at `Decimal::MAX`; a rate at or
    /// below -100% (refused by [`Self::validate`]) gives 0 after month 0.
    pub fn multiplier(&self, month: u32) -> Decimal {
        match self {
            Self::Flat {} => Decimal::ONE,
            Self::Rate { per_year } => compound(*per_year, month).unwrap_or(Decimal::MAX),
            Self::Periods { periods } => periods_multiplier(periods, month).unwrap_or(Decimal::MAX),
            Self::Points { points } => points_multiplier(points, month),
        }
    }

    /// The multipliers of months `0..months`.
    pub fn multipliers(&self, months: u32) -> Vec<Decimal> {
        (0..months).map(|m| self.multiplier(m)).collect()
    }
}

fn check_rate(field: String, per_year: Decimal) -> Result<(), Refused> {
    if per_year <= -Decimal::ONE {
        return Err(Refused::new(
            field,
            format!("{per_year} is a fall of 100% a year or more; write a rate above -1 (-0.25 is 25% cheaper a year)"),
        ));
    }
    if per_year > MAX_RATE_PER_YEAR {
        return Err(Refused::new(
            field,
            format!(
                "{per_year} is above {MAX_RATE_PER_YEAR} (+1000% a year); write a rate of at most {MAX_RATE_PER_YEAR}"
            ),
        ));
    }
    Ok(())
}

fn check_count(field: &str, count: usize) -> Result<(), Refused> {
    if count > MAX_STEPS {
        return Err(Refused::new(
            field.to_owned(),
            format!("{count} entries; write at most {MAX_STEPS}"),
        ));
    }
    Ok(())
}

fn validate_periods(periods: &[Period]) -> Result<(), Refused> {
    check_count("periods", periods.len())?;
    let mut previous: Option<u32> = None;
    for (i, period) in periods.iter().enumerate() {
        if let Some(before) = previous
            && period.from_month <= before
        {
            return Err(Refused::new(
                format!("periods[{i}].from_month"),
                format!(
                    "month {} does not come after the previous period's month {before}; list periods by strictly increasing from_month",
                    period.from_month
                ),
            ));
        }
        previous = Some(period.from_month);
        check_rate(format!("periods[{i}].per_year"), period.per_year)?;
    }
    Ok(())
}

fn validate_points(points: &[Point]) -> Result<(), Refused> {
    check_count("points", points.len())?;
    let mut previous: Option<u32> = None;
    for (i, point) in points.iter().enumerate() {
        if let Some(before) = previous
            && point.month <= before
        {
            return Err(Refused::new(
                format!("points[{i}].month"),
                format!(
                    "month {} does not come after the previous point's month {before}; list points by strictly increasing month",
                    point.month
                ),
            ));
        }
        previous = Some(point.month);
        if point.multiplier <= Decimal::ZERO || point.multiplier > MAX_MULTIPLIER {
            return Err(Refused::new(
                format!("points[{i}].multiplier"),
                format!(
                    "{} is outside the accepted range; write a multiplier above 0 and at most {MAX_MULTIPLIER} (1 is the price at month 0)",
                    point.multiplier
                ),
            ));
        }
    }
    Ok(())
}

/// `((1 + per_year)^(1/12))^months`; `None` on overflow. A rate at or below -1 gives 0 after
/// month 0 (no root exists; the price is gone).
fn compound(per_year: Decimal, months: u32) -> Option<Decimal> {
    if months == 0 {
        return Some(Decimal::ONE);
    }
    let base = Decimal::ONE + per_year;
    if base <= Decimal::ZERO {
        return Some(Decimal::ZERO);
    }
    let monthly = finance::nth_root(base, 12)?;
    finance::powi(monthly, months)
}

/// The product over the periods of each rate compounded for the months of that period before
/// `month`; `None` on overflow.
fn periods_multiplier(periods: &[Period], month: u32) -> Option<Decimal> {
    let mut product = Decimal::ONE;
    for (i, period) in periods.iter().enumerate() {
        if month <= period.from_month {
            break;
        }
        let end = periods.get(i + 1).map_or(month, |next| next.from_month.min(month));
        let months = end.saturating_sub(period.from_month);
        product = product.checked_mul(compound(period.per_year, months)?)?;
    }
    Some(product)
}

/// Linear interpolation between the points, flat outside them; 1 with no points.
fn points_multiplier(points: &[Point], month: u32) -> Decimal {
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return Decimal::ONE;
    };
    if month <= first.month {
        return first.multiplier;
    }
    if month >= last.month {
        return last.multiplier;
    }
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if month <= b.month {
            if b.month <= a.month {
                // Not strictly increasing (refused by `validate`): take the later point.
                return b.multiplier;
            }
            let span = Decimal::from(b.month - a.month);
            let along = Decimal::from(month.saturating_sub(a.month));
            return a.multiplier + (b.multiplier - a.multiplier) * along / span;
        }
    }
    last.multiplier
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn a_steep_rise_kept_for_decades_saturates() {
        let path = PricePath::Rate { per_year: dec!(10) };
        assert_eq!(path.multiplier(12 * 100), Decimal::MAX);
    }

    #[test]
    fn empty_periods_and_points_are_flat() {
        let periods = PricePath::Periods { periods: vec![] };
        let points = PricePath::Points { points: vec![] };
        assert_eq!(periods.multiplier(17), Decimal::ONE);
        assert_eq!(points.multiplier(17), Decimal::ONE);
    }

    #[test]
    fn a_rate_of_minus_one_is_zero_after_the_start() {
        let path = PricePath::Rate { per_year: dec!(-1) };
        assert_eq!(path.multiplier(0), Decimal::ONE);
        assert_eq!(path.multiplier(1), Decimal::ZERO);
    }
}
