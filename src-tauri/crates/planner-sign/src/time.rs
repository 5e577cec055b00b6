//! A UTC time passed in by the caller: the library never reads the clock.

use crate::error::SignError;
use der::DateTime;
use std::fmt;
use std::time::Duration;
use x509_cert::time::Time;

/// A moment in UTC, to the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    /// Year, 1970..=9999.
    pub year: u16,
    /// Month, 1..=12.
    pub month: u8,
    /// Day of month, 1..=31.
    pub day: u8,
    /// Hour, 0..=23.
    pub hour: u8,
    /// Minute, 0..=59.
    pub minute: u8,
    /// Second, 0..=59.
    pub second: u8,
}

impl Timestamp {
    /// A checked timestamp.
    pub fn new(year: u16, month: u8, day: u8, hour: u8, minute: u8, second: u8) -> Result<Self, SignError> {
        let t = Timestamp {
            year,
            month,
            day,
            hour,
            minute,
            second,
        };
        t.date_time()?;
        Ok(t)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    pub fn unix_seconds(&self) -> Result<u64, SignError> {
        Ok(self.date_time()?.unix_duration().as_secs())
    }

    /// The timestamp `seconds` after 1970-01-01T00:00:00Z.
    pub fn from_unix_seconds(seconds: u64) -> Result<Self, SignError> {
        let dt = DateTime::from_unix_duration(Duration::from_secs(seconds))
            .map_err(|e| SignError::BadTime(e.to_string()))?;
        Ok(Self::from_date_time(&dt))
    }

    /// ISO 8601, e.g. `2026-11-22T10:30:00Z`.
    pub fn iso8601(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// A PDF date string, e.g. `D:20261122103000Z`.
    pub(crate) fn pdf_date(&self) -> String {
        format!(
            "D:{:04}{:02}{:02}{:02}{:02}{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    pub(crate) fn date_time(&self) -> Result<DateTime, SignError> {
        DateTime::new(self.year, self.month, self.day, self.hour, self.minute, self.second).map_err(|_| {
            SignError::BadTime(format!(
                "{} is not a valid UTC time (years 1970 to 9999)",
                self.iso8601()
            ))
        })
    }

    pub(crate) fn from_date_time(dt: &DateTime) -> Self {
        Timestamp {
            year: dt.year(),
            month: dt.month(),
            day: dt.day(),
            hour: dt.hour(),
            minute: dt.minutes(),
            second: dt.seconds(),
        }
    }

    /// The X.509 form: UTCTime before 2050, GeneralizedTime from then on (RFC 5280).
    pub(crate) fn x509_time(&self) -> Result<Time, SignError> {
        let dt = self.date_time()?;
        if self.year < 2050 {
            let utc = der::asn1::UtcTime::from_date_time(dt).map_err(|e| SignError::BadTime(e.to_string()))?;
            Ok(Time::UtcTime(utc))
        } else {
            Ok(Time::GeneralTime(der::asn1::GeneralizedTime::from_date_time(dt)))
        }
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.iso8601())
    }
}

/// Reads a PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`, most parts optional) as ISO 8601 in UTC.
pub(crate) fn pdf_date_to_iso(text: &str) -> Option<String> {
    let s = text.strip_prefix("D:").unwrap_or(text);
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() < 4 {
        return None;
    }
    let part = |from: usize, len: usize, default: u32| -> Option<u32> {
        match digits.get(from..from + len) {
            Some(p) => p.parse().ok(),
            None => Some(default),
        }
    };
    let year = part(0, 4, 0)?;
    let month = part(4, 2, 1)?;
    let day = part(6, 2, 1)?;
    let hour = part(8, 2, 0)?;
    let minute = part(10, 2, 0)?;
    let second = part(12, 2, 0)?;
    let rest = &s[digits.len()..];
    let mut offset_minutes: i64 = 0;
    let mut chars = rest.chars();
    match chars.next() {
        Some(sign @ ('+' | '-')) => {
            let tail: String = chars.filter(char::is_ascii_digit).collect();
            let oh: i64 = tail.get(0..2).and_then(|p| p.parse().ok()).unwrap_or(0);
            let om: i64 = tail.get(2..4).and_then(|p| p.parse().ok()).unwrap_or(0);
            offset_minutes = oh * 60 + om;
            if sign == '-' {
                offset_minutes = -offset_minutes;
            }
        }
        Some('Z') | None => {}
        Some(_) => return None,
    }
    let t = Timestamp::new(
        u16::try_from(year).ok()?,
        u8::try_from(month).ok()?,
        u8::try_from(day).ok()?,
        u8::try_from(hour).ok()?,
        u8::try_from(minute).ok()?,
        u8::try_from(second).ok()?,
    )
    .ok()?;
    let secs = i64::try_from(t.unix_seconds().ok()?).ok()? - offset_minutes * 60;
    let utc = Timestamp::from_unix_seconds(u64::try_from(secs).ok()?).ok()?;
    Some(utc.iso8601())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn pdf_dates_become_iso_utc() {
        assert_eq!(
            pdf_date_to_iso("D:20261122103000Z").as_deref(),
            Some("2026-11-22T10:30:00Z")
        );
        assert_eq!(
            pdf_date_to_iso("D:20261122103000+02'00'").as_deref(),
            Some("2026-11-22T08:30:00Z")
        );
        assert_eq!(pdf_date_to_iso("D:2026").as_deref(), Some("2026-01-01T00:00:00Z"));
        assert_eq!(pdf_date_to_iso("garbage"), None);
    }

    #[test]
    fn invalid_times_are_refused() {
        assert!(Timestamp::new(2026, 2, 30, 0, 0, 0).is_err());
        assert!(Timestamp::new(2026, 13, 1, 0, 0, 0).is_err());
        let t = Timestamp::new(2026, 11, 22, 10, 30, 0).unwrap();
        assert_eq!(t.pdf_date(), "D:20261122103000Z");
        let later = Timestamp::from_unix_seconds(t.unix_seconds().unwrap() + 86_400).unwrap();
        assert_eq!(later.iso8601(), "2026-11-23T10:30:00Z");
    }
}
