//! The shapes of a market that moves (issue #44), as a scenario file and a catalog file write
//! them: a price path ([`PricePath`]: flat, a yearly rate, a rate per period or dated points), a
//! price-performance decay ([`Decay`]: a doubling period or a yearly decline) and the band of a
//! catalog entry a scenario follows ([`Band`]: low, mid or high), with the rules
//! that refuse a shape that cannot be one ([`PricePath::validate`], [`Decay::validate`]).
//!
//! Only the shapes and their refusals live here, at the bottom of the crate, so that the catalog
//! (which ships sourced paths) and the engine (which reads them from the scenario file) spell them
//! alike. The arithmetic (a path's multiplier in a month, the share a card keeps at an age) is the
//! engine's: `engine::blocks::price_path` and `engine::blocks::resale` (ENGINE_RULES.md, "Price
//! paths (issue #44)" and "Resale derived from price-performance (issue #44)").
//!
//! The refusals (each naming its field as a file spells it):
//! - a rate of -1 (-100%) or below, or above 10 (+1000%) (`per_year`, `periods[i].per_year`);
//! - periods whose `from_month` does not strictly increase; points whose `month` does not
//!   strictly increase; a multiplier of 0 or below, or above 100; more than 240 periods or points;
//! - a doubling period of 0 years or less (`years`); a yearly decline outside 0 to below 1
//!   (`per_year`).

use std::fmt;

use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A shape refused, naming its field (`per_year`, `periods[1].from_month`, `years`) and what is
/// wrong with it, with the value given and what is accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The field at fault, as a file spells it below the shape.
    pub field: String,
    /// What is wrong with it, and what is accepted.
    pub message: String,
}

impl Refusal {
    fn new(field: impl Into<String>, message: String) -> Self {
        Self {
            field: field.into(),
            message,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for Refusal {}

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
    pub fn validate(&self) -> Result<(), Refusal> {
        match self {
            Self::Flat {} => Ok(()),
            Self::Rate { per_year } => check_rate("per_year".to_owned(), *per_year),
            Self::Periods { periods } => validate_periods(periods),
            Self::Points { points } => validate_points(points),
        }
    }
}

fn check_rate(field: String, per_year: Decimal) -> Result<(), Refusal> {
    if per_year <= -Decimal::ONE {
        return Err(Refusal::new(
            field,
            format!("{per_year} is a fall of 100% a year or more; write a rate above -1 (-0.25 is 25% cheaper a year)"),
        ));
    }
    if per_year > MAX_RATE_PER_YEAR {
        return Err(Refusal::new(
            field,
            format!(
                "{per_year} is above {MAX_RATE_PER_YEAR} (+1000% a year); write a rate of at most {MAX_RATE_PER_YEAR}"
            ),
        ));
    }
    Ok(())
}

fn check_count(field: &str, count: usize) -> Result<(), Refusal> {
    if count > MAX_STEPS {
        return Err(Refusal::new(
            field.to_owned(),
            format!("{count} entries; write at most {MAX_STEPS}"),
        ));
    }
    Ok(())
}

fn validate_periods(periods: &[Period]) -> Result<(), Refusal> {
    check_count("periods", periods.len())?;
    let mut previous: Option<u32> = None;
    for (i, period) in periods.iter().enumerate() {
        if let Some(before) = previous
            && period.from_month <= before
        {
            return Err(Refusal::new(
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

fn validate_points(points: &[Point]) -> Result<(), Refusal> {
    check_count("points", points.len())?;
    let mut previous: Option<u32> = None;
    for (i, point) in points.iter().enumerate() {
        if let Some(before) = previous
            && point.month <= before
        {
            return Err(Refusal::new(
                format!("points[{i}].month"),
                format!(
                    "month {} does not come after the previous point's month {before}; list points by strictly increasing month",
                    point.month
                ),
            ));
        }
        previous = Some(point.month);
        if point.multiplier <= Decimal::ZERO || point.multiplier > MAX_MULTIPLIER {
            return Err(Refusal::new(
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

/// How a card's price falls with age as newer generations make its performance cheaper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Decay {
    /// Price-performance doubles every `years` (more than 0): share `2^(−t / (12 × years))` at
    /// `t` months.
    Doubling { years: Decimal },
    /// The same performance gets `per_year` (0 to below 1) cheaper each year: share
    /// `(1 − per_year)^(t / 12)` at `t` months.
    Decline { per_year: Decimal },
}

impl Decay {
    /// Checks the decay: a doubling period above 0 years, a yearly decline from 0 to below 1.
    pub fn validate(&self) -> Result<(), Refusal> {
        match *self {
            Decay::Doubling { years } if years <= Decimal::ZERO => Err(Refusal::new(
                "years",
                format!("the doubling period must be more than 0 years, got {years}"),
            )),
            Decay::Decline { per_year } if per_year < Decimal::ZERO || per_year >= Decimal::ONE => Err(Refusal::new(
                "per_year",
                format!("the yearly decline must be at least 0 and below 1, got {per_year}"),
            )),
            _ => Ok(()),
        }
    }
}

/// Which band of a catalog entry's low/mid/high paths a scenario follows: `low` is the cheapest
/// price outcome, `high` the dearest (for a resale decay, `high` is the slowest fall).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Band {
    Low,
    #[default]
    Mid,
    High,
}

impl Band {
    /// The band as a file writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Band::Low => "low",
            Band::Mid => "mid",
            Band::High => "high",
        }
    }
}
