//! Price paths (issue #44): how a price moves month by month, as a multiplier of its price at the
//! path's start.
//!
//! One path shape serves every price that moves in a market: the rental price per offer family,
//! the purchase price at fixed performance, the electricity tariff, staff and support. The shape
//! and its refusals are written at the crate root (`crate::market_shape`), where the catalog
//! reads them too; this block computes the multipliers. A file without paths gets
//! [`PricePath::Flat`] (ENGINE_RULES.md, "Price paths (issue #44)").
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

use crate::engine::blocks::finance;
use crate::market_shape::{Period, Point, PricePath};

impl PricePath {
    /// The multiplier at `month` (from 0, the path's start) for a valid path.
    ///
    /// Never panics: a value too large for a `Decimal` saturates at `Decimal::MAX`; a rate at or
    /// below -100% (refused by [`PricePath::validate`]) gives 0 after month 0.
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
