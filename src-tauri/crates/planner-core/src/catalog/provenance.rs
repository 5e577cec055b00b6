//! Provenance: where a figure comes from, how old it is, and how far to trust it.
//!
//! Every number in a catalog is a [`Figure`]: a range `low..=high` (a point when both ends are
//! equal) together with a [`Provenance`] naming its sources, the date the sources state, and a
//! [`Confidence`] level. Where sources disagree the catalog keeps the range instead of picking a
//! value, so the planner sees the disagreement.

use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// How far a figure can be trusted, from the verification levels of the reference data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Confidence {
    /// Read in a primary source: a vendor datasheet, a government register, an official price feed.
    Primary,
    /// Read only in a secondary source (press, analyst page, a public repository citing the primary).
    Secondary,
    /// Derived by arithmetic, or a datasheet figure not re-opened: to be verified before relying on it.
    Estimate,
}

impl Confidence {
    /// The lowest confidence of the two: a figure derived from two inputs is as weak as the weaker.
    pub fn weakest(self, other: Confidence) -> Confidence {
        self.max_rank(other)
    }

    fn rank(self) -> u8 {
        match self {
            Confidence::Primary => 0,
            Confidence::Secondary => 1,
            Confidence::Estimate => 2,
        }
    }

    fn max_rank(self, other: Confidence) -> Confidence {
        if other.rank() > self.rank() { other } else { self }
    }
}

/// A calendar date at the precision the source gives: a year, a month or a day.
///
/// Written `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. Ordering compares the earliest day the date can
/// mean, so `2025-06` sorts before `2025-06-15`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AsOf {
    year: u16,
    month: Option<u8>,
    day: Option<u8>,
}

/// Why a text is not a date.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a date: {reason}; write YYYY, YYYY-MM or YYYY-MM-DD, e.g. 2025-06 or 2025-06-30")]
pub struct AsOfError {
    text: String,
    reason: &'static str,
}

impl AsOf {
    /// 1 January 1970, for a clock that reads nothing sensible.
    pub const EPOCH: AsOf = AsOf {
        year: 1970,
        month: Some(1),
        day: Some(1),
    };

    /// A date with day precision; `None` when the day does not exist in that month.
    pub fn ymd(year: u16, month: u8, day: u8) -> Option<AsOf> {
        let valid = (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month);
        valid.then_some(AsOf {
            year,
            month: Some(month),
            day: Some(day),
        })
    }

    pub fn year(&self) -> u16 {
        self.year
    }

    pub fn month(&self) -> Option<u8> {
        self.month
    }

    pub fn day(&self) -> Option<u8> {
        self.day
    }

    /// The last day the date can mean: itself when it names a day, else the last day of its
    /// month or year (`2027-02` → 2027-02-28).
    pub fn last_day(&self) -> AsOf {
        let month = self.month.unwrap_or(12);
        AsOf {
            year: self.year,
            month: Some(month),
            day: Some(self.day.unwrap_or_else(|| days_in_month(self.year, month))),
        }
    }
}

fn is_leap(year: u16) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

impl FromStr for AsOf {
    type Err = AsOfError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fail = |reason| AsOfError {
            text: text.to_owned(),
            reason,
        };
        let parts: Vec<&str> = text.split('-').collect();
        if parts.is_empty() || parts.len() > 3 {
            return Err(fail("expected one to three parts separated by '-'"));
        }
        let digits = |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_digit());
        if !digits(parts[0], 4) {
            return Err(fail("the year must have four digits"));
        }
        let year: u16 = parts[0].parse().map_err(|_| fail("the year is not a number"))?;
        if !(1900..=2200).contains(&year) {
            return Err(fail("the year must lie between 1900 and 2200"));
        }
        let month = match parts.get(1) {
            None => None,
            Some(m) if digits(m, 2) => {
                let m: u8 = m.parse().map_err(|_| fail("the month is not a number"))?;
                if !(1..=12).contains(&m) {
                    return Err(fail("the month must be 01 to 12"));
                }
                Some(m)
            }
            Some(_) => return Err(fail("the month must have two digits")),
        };
        let day = match (parts.get(2), month) {
            (None, _) => None,
            (Some(d), Some(m)) if digits(d, 2) => {
                let d: u8 = d.parse().map_err(|_| fail("the day is not a number"))?;
                if d == 0 || d > days_in_month(year, m) {
                    return Err(fail("that day does not exist in that month"));
                }
                Some(d)
            }
            (Some(_), _) => return Err(fail("the day must have two digits")),
        };
        Ok(AsOf { year, month, day })
    }
}

impl fmt::Display for AsOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(m) = self.month {
            write!(f, "-{m:02}")?;
        }
        if let Some(d) = self.day {
            write!(f, "-{d:02}")?;
        }
        Ok(())
    }
}

impl Serialize for AsOf {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for AsOf {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(|e: AsOfError| {
            serde::de::Error::custom(super::tagged(super::IssueKind::InvalidDate, &e.to_string()))
        })
    }
}

#[cfg(feature = "specta")]
impl specta::Type for AsOf {
    // Crosses IPC as its text form, e.g. "2025-06".
    fn definition(types: &mut specta::Types) -> specta::datatype::DataType {
        <String as specta::Type>::definition(types)
    }
}

/// A cited source, as the figure's reader needs it: what it is, where it is, and its date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Source {
    pub id: String,
    pub title: String,
    pub url: Option<String>,
    /// The date the source states, or, for an undated source, the date it was read.
    pub as_of: AsOf,
    /// True when the source itself carries no date and `as_of` is the date it was read.
    pub undated: bool,
}

/// Where a figure comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Provenance {
    pub sources: Vec<Source>,
    /// The date of the figure: given explicitly, or the most recent date among its sources.
    pub as_of: AsOf,
    pub confidence: Confidence,
    /// Why the figure is what it is: a derivation, a conflict between sources, a caveat.
    pub note: Option<String>,
}

/// A number with its provenance. A point value has `low == high`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Figure {
    #[cfg_attr(feature = "specta", specta(type = String))]
    pub low: Decimal,
    #[cfg_attr(feature = "specta", specta(type = String))]
    pub high: Decimal,
    pub provenance: Provenance,
}

impl Figure {
    pub fn is_point(&self) -> bool {
        self.low == self.high
    }

    /// The middle of the range: the value the engine uses when the planner has not chosen one.
    pub fn mid(&self) -> Decimal {
        (self.low + self.high) / Decimal::TWO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_day_of_a_date_is_the_end_of_what_it_can_mean() {
        let last = |t: &str| t.parse::<AsOf>().map(|a| a.last_day().to_string()).ok();
        assert_eq!(last("2027-02").as_deref(), Some("2027-02-28"));
        assert_eq!(last("2028-02").as_deref(), Some("2028-02-29"));
        assert_eq!(last("2027").as_deref(), Some("2027-12-31"));
        assert_eq!(last("2027-03-31").as_deref(), Some("2027-03-31"));
    }

    #[test]
    fn dates_parse_at_three_precisions_and_print_back() {
        for text in ["2024", "2025-06", "2024-02-29", "2026-09-25"] {
            let d: AsOf = text.parse().unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!(d.to_string(), text);
        }
    }

    #[test]
    fn impossible_dates_are_refused_with_a_reason() {
        for (text, reason) in [
            ("2025-02-29", "does not exist"),
            ("2025-13", "01 to 12"),
            ("25-01", "four digits"),
            ("June 2025", "four digits"),
            ("2025-6", "two digits"),
            ("2025-06-1", "two digits"),
            ("1800", "between"),
            ("2025-06-30-1", "one to three"),
        ] {
            let err = text.parse::<AsOf>().err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains(reason), "{text}: {err}");
        }
    }

    #[test]
    fn dates_order_by_earliest_day() {
        let a: AsOf = "2025-06".parse().unwrap_or_else(|e| unreachable!("{e}"));
        let b: AsOf = "2025-06-15".parse().unwrap_or_else(|e| unreachable!("{e}"));
        let c: AsOf = "2026".parse().unwrap_or_else(|e| unreachable!("{e}"));
        assert!(a < b && b < c);
    }

    #[test]
    fn weakest_confidence_wins() {
        assert_eq!(Confidence::Primary.weakest(Confidence::Estimate), Confidence::Estimate);
        assert_eq!(
            Confidence::Secondary.weakest(Confidence::Primary),
            Confidence::Secondary
        );
    }
}
