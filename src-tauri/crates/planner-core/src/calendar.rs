//! Calendar months of the horizon. The engine never reads a clock: the first month of the plan is
//! an input (the scenario file's `start`), and every month's length in hours follows from it, so a
//! February costs less electricity than a March, the same way on every machine.

use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The civil date (year, month 1 to 12, day 1 to 31) of a day counted from 1970-01-01 (day 0),
/// in the proleptic Gregorian calendar, negative days included (H. Hinnant's algorithm).
pub fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    // In range by construction: month 1 to 12, day 1 to 31.
    (year, u8::try_from(month).unwrap_or(1), u8::try_from(day).unwrap_or(1))
}

/// A calendar month, written `YYYY-MM`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct YearMonth {
    pub year: u16,
    /// 1 to 12.
    pub month: u8,
}

impl YearMonth {
    pub fn new(year: u16, month: u8) -> Option<YearMonth> {
        ((1..=12).contains(&month) && (1900..=2200).contains(&year)).then_some(YearMonth { year, month })
    }

    /// The month `n` months later.
    pub fn plus(self, n: u32) -> YearMonth {
        let index = u32::from(self.year) * 12 + u32::from(self.month - 1) + n;
        YearMonth {
            year: u16::try_from(index / 12).unwrap_or(u16::MAX),
            month: u8::try_from(index % 12 + 1).unwrap_or(12),
        }
    }

    pub fn days(self) -> u32 {
        let leap = (self.year.is_multiple_of(4) && !self.year.is_multiple_of(100)) || self.year.is_multiple_of(400);
        match self.month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            _ if leap => 29,
            _ => 28,
        }
    }

    pub fn hours(self) -> Decimal {
        Decimal::from(self.days() * 24)
    }
}

impl fmt::Display for YearMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

impl FromStr for YearMonth {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = || format!("`{s}` is not a month: write YYYY-MM, e.g. 2027-01");
        let (y, m) = s.split_once('-').ok_or_else(fail)?;
        if y.len() != 4 || m.len() != 2 {
            return Err(fail());
        }
        let year: u16 = y.parse().map_err(|_| fail())?;
        let month: u8 = m.parse().map_err(|_| fail())?;
        YearMonth::new(year, month).ok_or_else(fail)
    }
}

impl Serialize for YearMonth {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for YearMonth {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "specta")]
impl specta::Type for YearMonth {
    // Crosses IPC as its text form, e.g. "2027-01".
    fn definition(types: &mut specta::Types) -> specta::datatype::DataType {
        <String as specta::Type>::definition(types)
    }
}

impl JsonSchema for YearMonth {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "YearMonth".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])$",
            "description": "A calendar month, YYYY-MM."
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_from_days_agrees_with_known_dates() {
        // Day numbers from 1970-01-01, as `date -d @<days*86400>` gives them.
        for (days, date) in [
            (0, (1970, 1, 1)),
            (-1, (1969, 12, 31)),
            (11_016, (2000, 2, 29)),
            (19_723, (2024, 1, 1)),
            (20_780, (2026, 11, 23)),
            (-25_567, (1900, 1, 1)),
            (2_932_896, (9999, 12, 31)),
        ] {
            assert_eq!(civil_from_days(days), date, "day {days}");
        }
    }

    #[test]
    fn months_roll_over_years_and_know_their_length() {
        let m: YearMonth = "2027-11".parse().unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(m.plus(3).to_string(), "2028-02");
        assert_eq!(m.plus(3).days(), 29);
        assert_eq!(m.plus(15).days(), 28);
        assert!("2027-13".parse::<YearMonth>().is_err());
        assert!("27-01".parse::<YearMonth>().is_err());
    }
}
