//! Resale derived from newer generations' price-performance, for a card the catalog has no sourced
//! resale row for (issue #44).
//!
//! Newer generations make the same performance cheaper, so a used card is worth the share of its
//! price that the price-performance path leaves at its age: [`share_at`]. [`derived_resale`] turns
//! that into a value, capped by what the card's remaining rental margin is worth and never below
//! 0, and 0 for a card whose vendor has no resale market (non-NVIDIA cards). The value is always
//! marked as derived ([`ResaleBasis`]), never a book value. The ledger uses it when a scenario's
//! market sets a resale decay (ENGINE_RULES.md, "Resale derived from price-performance (issue
//! #44)").
//!
//! The rules:
//! - **Doubling.** Price-performance doubles every `years`: the share at age `t` months is
//!   `2^(−t / (12 × years))`. Epoch AI: 2.46 years for all GPUs, 2.07 years for ML GPUs; at 2.46
//!   years a card keeps 43% of its price after 3 years and 24% after 5.
//! - **Decline.** The same performance gets `per_year` cheaper each year: the share at age `t`
//!   months is `(1 − per_year)^(t / 12)`. At about 30% a year a card keeps 34% after 3 years and
//!   17% after 5.
//! - **Precision.** Everything is in `Decimal`, never `f64`. A whole-number exponent (a doubling
//!   age that is a whole number of doubling periods, a decline age in whole years) is computed
//!   exactly by repeated multiplication: 2 years at 24 months is exactly 0.5. Otherwise the power is
//!   `exp(e × ln b)` by series in `Decimal` (28 significant digits): `ln` by the `atanh` series
//!   after scaling the base into [1, 2), `exp` by Taylor series after taking out whole powers of
//!   2; the share is within 1e-20 of the exact value (the tests check it against 40-digit
//!   references). A share below `Decimal`'s smallest step (1e-28) is 0.
//! - **Value.** `min(price × share, remaining rental margin when given)`, never below 0.
//! - **Refused**, naming the argument: `years` ≤ 0, `per_year` outside [0, 1) (the rules of
//!   `crate::market_shape::Decay::validate`, where the shape is written), a negative `price`.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::{Deserialize, Serialize};

use crate::engine::blocks::finance::powi;
use crate::engine::blocks::refused::Refused;
use crate::market_shape::Decay;

/// Where a resale value comes from: always derived, never a book value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum ResaleBasis {
    /// Derived from the price-performance path of newer generations (possibly capped by the
    /// remaining rental margin).
    DerivedFromPricePerformance,
    /// The vendor's cards have no resale market (non-NVIDIA): they resell at 0.
    NoResaleMarket,
}

/// A resale value derived from price-performance, with how it was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DerivedResale {
    /// What the card resells for: `min(price × share, remaining margin)`, at least 0; 0 without a
    /// resale market.
    pub value: Decimal,
    /// The share of the price the price-performance path leaves at the card's age (unrounded).
    pub share: Decimal,
    /// Whether the remaining rental margin, not the path, set the value.
    pub capped_by_margin: bool,
    /// Where the value comes from.
    pub basis: ResaleBasis,
}

/// The share of its price a card keeps at `age_months` on the price-performance path (1 at age
/// 0, falling towards 0). Refused: `years` ≤ 0, `per_year` outside [0, 1).
pub fn share_at(decay: Decay, age_months: u32) -> Result<Decimal, Refused> {
    decay.validate().map_err(|e| Refused::new(e.field, e.message))?;
    let t = Decimal::from(age_months);
    let twelve = Decimal::from(12u32);
    match decay {
        Decay::Doubling { years } => {
            let period_months = years
                .checked_mul(twelve)
                .ok_or_else(|| Refused::new("years", format!("the doubling period {years} is too long")))?;
            // The number of doublings since purchase: the share is 2 to minus that.
            let doublings = t
                .checked_div(period_months)
                .ok_or_else(|| Refused::new("years", format!("the doubling period {years} is too short to compute")))?;
            Ok(pow_below_one(Decimal::TWO, doublings, true))
        }
        Decay::Decline { per_year } => {
            if per_year.is_zero() || age_months == 0 {
                return Ok(Decimal::ONE);
            }
            let years = t / twelve;
            Ok(pow_below_one(Decimal::ONE - per_year, years, false))
        }
    }
}

/// The resale value of a card bought at `price`, at `age_months`, on the price-performance path
/// `decay`: `min(price × share, remaining_rental_margin when given)`, never below 0, and 0 when
/// `vendor_resells` is false (no resale market, e.g. non-NVIDIA cards). Refused: a negative
/// `price`, and what [`share_at`] refuses.
pub fn derived_resale(
    price: Decimal,
    decay: Decay,
    age_months: u32,
    remaining_rental_margin: Option<Decimal>,
    vendor_resells: bool,
) -> Result<DerivedResale, Refused> {
    if price < Decimal::ZERO {
        return Err(Refused::new(
            "price",
            format!("the price must be at least 0, got {price}"),
        ));
    }
    let share = share_at(decay, age_months)?;
    if !vendor_resells {
        return Ok(DerivedResale {
            value: Decimal::ZERO,
            share,
            capped_by_margin: false,
            basis: ResaleBasis::NoResaleMarket,
        });
    }
    let path_value = price
        .checked_mul(share)
        .ok_or_else(|| Refused::new("price", format!("the price {price} is too large to compute")))?;
    let (value, capped_by_margin) = match remaining_rental_margin {
        Some(margin) if margin < path_value => (margin, true),
        _ => (path_value, false),
    };
    Ok(DerivedResale {
        value: value.max(Decimal::ZERO),
        share,
        capped_by_margin,
        basis: ResaleBasis::DerivedFromPricePerformance,
    })
}

/// ln 2 to 28 decimals (0.693147180559945309417232121458...).
const LN_2: Decimal = Decimal::from_parts(0xAA7A_65BF, 0x81F5_2F01, 0x1665_943F, false, 28);

/// The smallest term the series keep adding (below `Decimal`'s 28-decimal step).
fn negligible(term: Decimal) -> bool {
    term.abs() < Decimal::new(1, 28)
}

/// `base^(−e)` when `invert`, else `base^e`, for `e` ≥ 0 and a result at most 1 (a base above 1
/// inverted, or a base in (0, 1)). A result below `Decimal`'s smallest step is 0.
fn pow_below_one(base: Decimal, e: Decimal, invert: bool) -> Decimal {
    if e.is_zero() {
        return Decimal::ONE;
    }
    if e.fract().is_zero() {
        // A whole exponent: exact by repeated multiplication.
        let Some(whole) = e.to_u32() else {
            // More than 4 billion whole periods: far below the smallest step.
            return Decimal::ZERO;
        };
        return match powi(base, whole) {
            Some(p) if invert => Decimal::ONE.checked_div(p).unwrap_or(Decimal::ZERO),
            Some(p) => p,
            // Overflow of a base above 1 means a share far below the smallest step.
            None => Decimal::ZERO,
        };
    }
    let ln_base = ln(base);
    let y = match ln_base.checked_mul(e) {
        Some(y) if invert => -y,
        Some(y) => y,
        None => return Decimal::ZERO,
    };
    exp_non_positive(y)
}

/// The natural logarithm of `x` > 0: `x = m × 2^k` with `m` in [1, 2), then
/// `ln m = 2 atanh((m − 1) / (m + 1))` by series (the ratio is below 1/3).
fn ln(x: Decimal) -> Decimal {
    let mut m = x;
    let mut k: i64 = 0;
    while m >= Decimal::TWO {
        m /= Decimal::TWO;
        k += 1;
    }
    while m < Decimal::ONE {
        m *= Decimal::TWO;
        k -= 1;
    }
    let z = (m - Decimal::ONE) / (m + Decimal::ONE);
    let z2 = z * z;
    let mut power = z;
    let mut sum = Decimal::ZERO;
    let mut n: u32 = 1;
    while n < 400 {
        let term = power / Decimal::from(n);
        if negligible(term) {
            break;
        }
        sum += term;
        power *= z2;
        n += 2;
    }
    Decimal::from(k) * LN_2 + Decimal::TWO * sum
}

/// `e^y` for `y` ≤ 0: `y = k ln 2 + r` with `|r|` ≤ ln 2 / 2, `e^r` by Taylor series, then divided
/// by `2^−k`. 0 when the result is below `Decimal`'s smallest step.
fn exp_non_positive(y: Decimal) -> Decimal {
    if y.is_zero() {
        return Decimal::ONE;
    }
    // 2^-96 is far below the smallest step; so is anything smaller.
    let floor = Decimal::from(-96i64) * LN_2;
    if y < floor {
        return Decimal::ZERO;
    }
    let k = (y / LN_2).round();
    let r = y - k * LN_2;
    let mut term = Decimal::ONE;
    let mut sum = Decimal::ONE;
    let mut n: u32 = 1;
    while n < 100 {
        term = term * r / Decimal::from(n);
        if negligible(term) {
            break;
        }
        sum += term;
        n += 1;
    }
    // k is between -96 and 0 here.
    let halvings = (-k).to_u32().unwrap_or(0);
    match powi(Decimal::TWO, halvings) {
        Some(p) => sum.checked_div(p).unwrap_or(Decimal::ZERO),
        None => Decimal::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_2_constant_is_ln_2() {
        assert_eq!(LN_2.to_string(), "0.6931471805599453094172321215");
    }

    #[test]
    fn ln_and_exp_invert_each_other() {
        for x in ["0.7", "0.5", "0.123", "0.999"] {
            let x: Decimal = x.parse().unwrap();
            let back = exp_non_positive(ln(x));
            assert!((back - x).abs() < Decimal::new(1, 24), "{x} -> {back}");
        }
    }

    #[test]
    fn exp_minus_one_is_one_over_e() {
        let e_inv = exp_non_positive(-Decimal::ONE);
        let reference: Decimal = "0.3678794411714423215955237702".parse().unwrap();
        assert!((e_inv - reference).abs() < Decimal::new(1, 25), "{e_inv}");
    }
}
