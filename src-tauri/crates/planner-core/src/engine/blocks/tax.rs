//! Tax depreciation and the value of its tax shield, for the after-tax view (issue #44).
//!
//! Shares of cost in, shares of cost out: [`schedule`] says which share of an asset's cost is
//! deducted in each tax year, [`tax_shield_pv`] what those deductions are worth today at a tax
//! rate and a discount rate. The ledger does not use them yet; the after-tax view will
//! (ENGINE_RULES.md, "Depreciation schedules for the after-tax view").
//!
//! The rules:
//! - **Methods.** Straight line spreads the cost evenly over the recovery period. Declining balance
//!   at 150% or 200% deducts that multiple of the straight-line rate (`1.5 / n`, `2 / n`) of the
//!   balance still to deduct, and switches to straight line over the rest of the recovery period in
//!   the first year straight line gives the larger deduction, then stays on it (as MACRS does).
//!   MACRS GDS is 200% declining balance with that switch, for the 3-, 5- and 7-year property
//!   classes, with the half-year or a mid-quarter convention.
//! - **Conventions.** The share of the first tax year the property counts as in service: none (a
//!   full year: the schedule has `n` years), half-year (one half), mid-quarter (placed in service in
//!   the middle of quarter 1, 2, 3 or 4: 7/8, 5/8, 3/8 or 1/8 of the year). With a convention the
//!   recovery period ends part-way through tax year `n + 1`, which takes what is left. Year 1's
//!   deduction is the full year's times that share.
//! - **Bonus depreciation.** A share of the cost is deducted in year 1 on top of the method; the
//!   rest of the cost is depreciated by the method over the recovery period.
//! - **Rounding.** Nothing is rounded: every share is computed in `Decimal` (28 significant
//!   digits) and the last year takes exactly the balance left, so the shares add up to exactly 1.
//!   The published MACRS tables (IRS Publication 946, Appendix A) print percentages to two
//!   decimals; `tests/tax.rs` rounds to compare with them, never the schedule itself.
//! - **Tax shield.** Each year's deduction saves `tax rate × share` at the end of that tax year:
//!   year `y` (from 1) is discounted by `(1 + r)^y` at the annual discount rate `r`.

use crate::engine::blocks::refused::Refused;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The longest recovery period accepted, in years (the longest MACRS knows: 50 years, ADS).
pub const MAX_RECOVERY_YEARS: u32 = 50;

/// How the cost not taken as bonus depreciation is spread over the recovery period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum DepreciationMethod {
    /// Equal deductions over the recovery period.
    StraightLine,
    /// 150% declining balance, switching to straight line when that gives more.
    #[serde(rename = "declining-balance-150")]
    DecliningBalance150,
    /// 200% (double) declining balance, switching to straight line when that gives more.
    #[serde(rename = "declining-balance-200")]
    DecliningBalance200,
    /// MACRS General Depreciation System: 200% declining balance switching to straight line, for
    /// the 3-, 5- and 7-year property classes (the recovery period is the class), with the
    /// half-year or a mid-quarter convention.
    MacrsGds,
}

impl DepreciationMethod {
    /// The multiple of the straight-line rate a declining-balance method deducts; `None` for
    /// straight line.
    pub fn declining_multiple(self) -> Option<Decimal> {
        match self {
            Self::StraightLine => None,
            Self::DecliningBalance150 => Some(Decimal::new(15, 1)),
            Self::DecliningBalance200 | Self::MacrsGds => Some(Decimal::TWO),
        }
    }
}

/// The quarter of the tax year the property is placed in service (mid-quarter convention).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Quarter {
    Q1,
    Q2,
    Q3,
    Q4,
}

/// When in the first tax year the property counts as placed in service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", content = "quarter", rename_all = "kebab-case")]
pub enum Convention {
    /// Full years from year 1: the schedule has as many years as the recovery period.
    None,
    /// The middle of the first tax year: half a year's deduction in year 1.
    HalfYear,
    /// The middle of a quarter: 7/8, 5/8, 3/8 or 1/8 of a year's deduction in year 1.
    MidQuarter(Quarter),
}

impl Convention {
    /// The share of the first tax year the property counts as in service.
    pub fn first_year_fraction(self) -> Decimal {
        match self {
            Self::None => Decimal::ONE,
            Self::HalfYear => Decimal::new(5, 1),
            Self::MidQuarter(Quarter::Q1) => Decimal::new(875, 3),
            Self::MidQuarter(Quarter::Q2) => Decimal::new(625, 3),
            Self::MidQuarter(Quarter::Q3) => Decimal::new(375, 3),
            Self::MidQuarter(Quarter::Q4) => Decimal::new(125, 3),
        }
    }
}

/// The share of cost deducted in each tax year, year 1 first: `recovery_years` entries without a
/// convention, one more with one. The shares are unrounded and add up to exactly 1.
///
/// `bonus_share` (0 to 1) is deducted in year 1; the rest of the cost follows `method`. Refused:
/// a recovery period of 0 or more than [`MAX_RECOVERY_YEARS`] years, MACRS GDS outside the 3-,
/// 5- and 7-year classes or without a convention, and a bonus share outside 0..1.
pub fn schedule(
    method: DepreciationMethod,
    convention: Convention,
    recovery_years: u32,
    bonus_share: Decimal,
) -> Result<Vec<Decimal>, Refused> {
    check_recovery(method, convention, recovery_years)?;
    check_share("bonus_share", bonus_share)?;
    let mut shares = spread(method, convention, recovery_years, Decimal::ONE - bonus_share);
    if let Some(first) = shares.first_mut() {
        *first += bonus_share;
    }
    Ok(shares)
}

/// The present value of the tax saved by a schedule's deductions, as a share of cost: each year's
/// `tax_rate × share`, saved at the end of tax year `y` (from 1) and discounted by `(1 + r)^y`.
///
/// Refused: a tax or discount rate outside 0..1, a share outside 0..1, shares adding up to more
/// than 1, or more years than a schedule can have.
pub fn tax_shield_pv(
    schedule: &[Decimal],
    tax_rate: Decimal,
    annual_discount_rate: Decimal,
) -> Result<Decimal, Refused> {
    check_share("tax_rate", tax_rate)?;
    check_share("annual_discount_rate", annual_discount_rate)?;
    check_schedule(schedule)?;
    let step = Decimal::ONE + annual_discount_rate;
    let mut growth = Decimal::ONE;
    let mut discounted = Decimal::ZERO;
    for share in schedule {
        growth = growth
            .checked_mul(step)
            .ok_or_else(|| Refused::new("schedule", "too many years to discount".to_owned()))?;
        discounted += *share / growth;
    }
    Ok(tax_rate * discounted)
}

/// Spreads `basis` (the cost less the bonus, as a share) over the tax years by the method and the
/// convention. The last year takes the balance left, so the entries add up to exactly `basis`.
fn spread(method: DepreciationMethod, convention: Convention, recovery_years: u32, basis: Decimal) -> Vec<Decimal> {
    let period = Decimal::from(recovery_years);
    let declining_rate = method.declining_multiple().map(|m| m / period);
    let tax_years = match convention {
        Convention::None => recovery_years,
        Convention::HalfYear | Convention::MidQuarter(_) => recovery_years + 1,
    };
    let mut balance = basis;
    // Years of the recovery period used before the current tax year.
    let mut elapsed = Decimal::ZERO;
    let mut on_straight_line = declining_rate.is_none();
    let mut shares = Vec::with_capacity(tax_years as usize);
    for year in 0..tax_years {
        let in_service = if year == 0 {
            convention.first_year_fraction()
        } else {
            Decimal::ONE
        };
        let left = period - elapsed;
        let deduction = if left <= in_service {
            // The recovery period ends in this tax year: it takes what is left.
            balance
        } else {
            let straight = balance * in_service / left;
            match declining_rate {
                Some(rate) if !on_straight_line => {
                    // A recovery period shorter than the multiple (1 or 2 years) could ask for
                    // more than is left; it never deducts more than the balance.
                    let declining = (balance * rate * in_service).min(balance);
                    if straight > declining {
                        on_straight_line = true;
                        straight
                    } else {
                        declining
                    }
                }
                _ => straight,
            }
        };
        shares.push(deduction);
        balance -= deduction;
        elapsed += in_service;
    }
    shares
}

fn check_recovery(method: DepreciationMethod, convention: Convention, recovery_years: u32) -> Result<(), Refused> {
    if recovery_years == 0 {
        return Err(Refused::new(
            "recovery_years",
            "a recovery period is at least 1 year (got 0)".to_owned(),
        ));
    }
    if recovery_years > MAX_RECOVERY_YEARS {
        return Err(Refused::new(
            "recovery_years",
            format!("a recovery period is at most {MAX_RECOVERY_YEARS} years (got {recovery_years})"),
        ));
    }
    if method == DepreciationMethod::MacrsGds {
        if !matches!(recovery_years, 3 | 5 | 7) {
            return Err(Refused::new(
                "recovery_years",
                format!("MACRS GDS is offered for the 3-, 5- and 7-year property classes (got {recovery_years})"),
            ));
        }
        if convention == Convention::None {
            return Err(Refused::new(
                "convention",
                "MACRS GDS uses the half-year or a mid-quarter convention, not none".to_owned(),
            ));
        }
    }
    Ok(())
}

/// A share or a rate as a fraction: from 0 to 1 inclusive ("0.21" = 21%).
fn check_share(field: &'static str, value: Decimal) -> Result<(), Refused> {
    if !(Decimal::ZERO..=Decimal::ONE).contains(&value) {
        return Err(Refused::new(
            field,
            format!("must be a fraction from 0 to 1 (\"0.21\" = 21%), got {value}"),
        ));
    }
    Ok(())
}

fn check_schedule(schedule: &[Decimal]) -> Result<(), Refused> {
    let most = MAX_RECOVERY_YEARS as usize + 1;
    if schedule.len() > most {
        return Err(Refused::new(
            "schedule",
            format!("at most {most} tax years (got {})", schedule.len()),
        ));
    }
    let mut total = Decimal::ZERO;
    for (year, share) in schedule.iter().enumerate() {
        if !(Decimal::ZERO..=Decimal::ONE).contains(share) {
            return Err(Refused::new(
                "schedule",
                format!("year {}: a share of cost from 0 to 1, got {share}", year + 1),
            ));
        }
        total += *share;
    }
    if total > Decimal::ONE {
        return Err(Refused::new(
            "schedule",
            format!("the shares add up to {total}, more than the whole cost"),
        ));
    }
    Ok(())
}
