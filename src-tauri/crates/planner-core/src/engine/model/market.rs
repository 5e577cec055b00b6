//! Price paths as a resolved plan carries them (issue #44): each path's multipliers for the
//! months of the horizon, computed once by `validate`, so that `evaluate` only reads them.
//!
//! A plan without paths carries none (`None` everywhere), and every figure is then booked exactly
//! as before: [`scaled`] returns the amount untouched when there is no path (ENGINE_RULES.md,
//! "Price paths in the ledger (issue #44)").

use rust_decimal::Decimal;
use serde::Serialize;

use crate::calendar::YearMonth;
use crate::engine::blocks::resale::{DerivedResale, derived_resale};
use crate::market_shape::{Decay, PricePath};

/// A price path resolved for a plan: the path, and its multipliers for months `0..horizon`
/// (month 0 is the plan's start month).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MonthPath {
    pub path: PricePath,
    #[serde(skip)]
    months: Vec<Decimal>,
}

impl MonthPath {
    /// The path with its multipliers for months `0..horizon` computed.
    pub fn new(path: PricePath, horizon: u32) -> MonthPath {
        let months = path.multipliers(horizon);
        MonthPath { path, months }
    }

    /// The multiplier in month `m` (from the plan's start).
    pub fn at(&self, m: u32) -> Decimal {
        usize::try_from(m)
            .ok()
            .and_then(|i| self.months.get(i).copied())
            .unwrap_or_else(|| self.path.multiplier(m))
    }

    /// The mean multiplier over months `0..horizon`, each month weighted by its hours:
    /// `Σ hours(m) × multiplier(m) ÷ Σ hours(m)`; 1 over no hours.
    pub fn hours_weighted_mean(&self, start: YearMonth, horizon: u32) -> Decimal {
        let (mut weighted, mut hours) = (Decimal::ZERO, Decimal::ZERO);
        for m in 0..horizon {
            let h = start.plus(m).hours();
            weighted += h * self.at(m);
            hours += h;
        }
        if hours.is_zero() {
            Decimal::ONE
        } else {
            weighted / hours
        }
    }
}

/// `amount × path(m)`, or `amount` itself when there is no path (a plan without paths books
/// exactly what it booked before paths existed).
pub fn scaled(amount: Decimal, path: Option<&MonthPath>, m: u32) -> Decimal {
    match path {
        Some(p) => amount * p.at(m),
        None => amount,
    }
}

/// The paths and the resale rule a scenario applies as a whole (the layers carry their own
/// rental, token, reservation and purchase prices).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ScenarioMarket {
    /// The facility's electricity tariff.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub electricity: Option<MonthPath>,
    /// Staff cost per month.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub staff: Option<MonthPath>,
    /// Support: owned hardware's support contracts and non-server maintenance, rented layers'
    /// running cost per month.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub support: Option<MonthPath>,
    /// The price-performance decay owned hardware without a sourced resale estimate resells by.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resale: Option<Decay>,
}

impl ScenarioMarket {
    /// No path and no resale rule: the scenario is booked as before paths existed.
    pub fn is_flat(&self) -> bool {
        self.electricity.is_none() && self.staff.is_none() && self.support.is_none() && self.resale.is_none()
    }
}

/// The most a path may multiply a price within the horizon (or in a reservation's signing
/// month): ten times its month-0 value. It keeps every product the ledger forms within the
/// decimal's range (`limits.rs` bounds them below 10^27 before any path).
pub const MAX_PATH_MULTIPLIER: Decimal = Decimal::TEN;

/// The residual share (of the hardware price paid per GPU, `price`) of owned hardware resold at
/// `age` months by the price-performance `decay`, capped by `cap` (per GPU), 0 when the vendor has
/// no resale market: `derived_resale`'s value over the price (its share when the cap does not
/// bind). With the resale block's answer; `None` when the block refuses the decay.
pub fn derived_residual_share(
    decay: Decay,
    price: Decimal,
    age: u32,
    cap: Option<Decimal>,
    vendor_resells: bool,
) -> Option<(Decimal, DerivedResale)> {
    let r = derived_resale(price, decay, age, cap, vendor_resells).ok()?;
    let share = if !vendor_resells {
        Decimal::ZERO
    } else if r.capped_by_margin && price > Decimal::ZERO {
        r.value / price
    } else {
        r.share
    };
    Some((share, r))
}

/// Whether a vendor's cards have a resale market: NVIDIA's do; others resell at 0.
pub fn vendor_resells(vendor: &str) -> bool {
    vendor.eq_ignore_ascii_case("NVIDIA")
}
