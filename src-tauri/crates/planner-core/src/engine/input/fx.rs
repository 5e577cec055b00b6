//! Exchange rates: how a scenario file writes one, what it converts, and whether it is plausible.
//!
//! An entry of the file's `fx` is written as a market quote, `{"base": "EUR", "quote": "USD",
//! "rate": "1.08"}` = "1 EUR = 1.08 USD", where one side is the file's currency. The older form
//! `{"currency": "USD", "rate": "0.926"}` ("1 USD = 0.926 units of the file's currency") still
//! reads, so files written before keep loading; new files are written in the market form.
//!
//! A rate far from the market is refused at its path (`fx[0].rate`): the band is the reference
//! cross rate of [`REFERENCE_PER_EUR`] divided and multiplied by [`BAND_FACTOR`]. The band is wide
//! (normal moves over several years stay inside) and catches an inverted rate for any pair whose
//! rate is farther than √1.5 ≈ 1.22 from 1 (USD/JPY, EUR/CNY, GBP/INR…). An inverted rate between
//! currencies near parity (EUR/USD, USD/CHF) stays inside the band: the explicit base/quote form is
//! what guards those, since the file says which way the rate runs. A currency missing from the
//! table is not checked, and the plan warns that it was not.

use std::collections::HashMap;

use rust_decimal::Decimal;
use rust_decimal::dec;

use crate::engine::input::layer_fields::{LAYER_FIELDS, Money};
use crate::engine::input::scenario_file::FxRate;
use crate::problem::Problem;

/// Where [`REFERENCE_PER_EUR`] comes from.
pub const REFERENCE_SOURCE: &str = "ECB euro foreign exchange reference rates";
/// The date of [`REFERENCE_PER_EUR`].
pub const REFERENCE_AS_OF: &str = "2025-02-28";

/// Units of each currency one euro bought: the European Central Bank's euro foreign exchange
/// reference rates of 28 February 2025 (the daily concertation rates, published around 16:00
/// CET; read from a republication of that day's table, "Daily Euro Exchange Rate – 28 February
/// 2025", eurodripusa.net/?p=3470). Only currencies whose rate moved well under ±50% over the
/// preceding years are listed; volatile ones (TRY, ARS, BRL…) are left out rather than refused
/// wrongly. Update the table and [`REFERENCE_AS_OF`] together.
pub const REFERENCE_PER_EUR: [(&str, Decimal); 19] = [
    ("EUR", dec!(1)),
    ("USD", dec!(1.0411)),
    ("JPY", dec!(156.96)),
    ("GBP", dec!(0.82608)),
    ("CHF", dec!(0.9394)),
    ("SEK", dec!(11.1880)),
    ("NOK", dec!(11.7245)),
    ("DKK", dec!(7.4583)),
    ("PLN", dec!(4.1503)),
    ("CZK", dec!(25.029)),
    ("AUD", dec!(1.6741)),
    ("CAD", dec!(1.5019)),
    ("NZD", dec!(1.8579)),
    ("CNY", dec!(7.5782)),
    ("HKD", dec!(8.0980)),
    ("SGD", dec!(1.4037)),
    ("INR", dec!(90.9710)),
    ("KRW", dec!(1519.92)),
    ("MYR", dec!(4.6459)),
];

/// A rate is plausible between the reference divided by this factor and the reference times it.
pub const BAND_FACTOR: Decimal = dec!(1.5);

/// The fields outside a supply layer whose [`crate::engine::input::scenario_file::Override`] is
/// money, and so may carry a `currency` (a layer field's row of
/// [`crate::engine::input::layer_fields::LAYER_FIELDS`] says whether it is: [`Money::Override`]).
/// Any other override (throughput, power, PUE, carbon intensity) refuses one.
pub const OTHER_MONEY_OVERRIDES: [&str; 3] = ["tariff_per_kwh", "colocation_per_kw_month", "per_port_cost"];

/// The overrides outside a supply layer that are not money (listed so that a test can check
/// every override is one or the other).
pub const OTHER_NON_MONEY_OVERRIDES: [&str; 5] = [
    "grid_gco2_per_kwh",
    "pue",
    "demand_scale",
    "monthly_growth",
    "discount_rate",
];

/// The fields whose override is money: the layer fields whose row says so, in the table's
/// order, then [`OTHER_MONEY_OVERRIDES`].
pub fn money_overrides() -> impl Iterator<Item = &'static str> {
    LAYER_FIELDS
        .iter()
        .filter(|f| f.money == Money::Override)
        .map(|f| f.name)
        .chain(OTHER_MONEY_OVERRIDES)
}

/// Whether the override at `path` (its last segment names the field) is an amount of money.
pub fn is_money_override(path: &str) -> bool {
    let field = path.rsplit('.').next().unwrap_or(path);
    money_overrides().any(|m| m == field)
}

fn reference_per_eur(code: &str) -> Option<Decimal> {
    REFERENCE_PER_EUR.iter().find(|(c, _)| *c == code).map(|(_, r)| *r)
}

/// The reference rate of the pair: units of `quote` one `base` bought on [`REFERENCE_AS_OF`].
pub fn reference(base: &str, quote: &str) -> Option<Decimal> {
    reference_per_eur(quote)?.checked_div(reference_per_eur(base)?)
}

/// The plausible band of a pair, in units of `quote` per `base`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    pub low: Decimal,
    pub reference: Decimal,
    pub high: Decimal,
}

/// The band of the pair, when both currencies are in the reference table.
pub fn band(base: &str, quote: &str) -> Option<Band> {
    let reference = reference(base, quote)?;
    Some(Band {
        low: reference.checked_div(BAND_FACTOR)?,
        reference,
        high: reference.checked_mul(BAND_FACTOR)?,
    })
}

/// `d` rounded to `digits` significant digits (for messages: 0.006634, 150.8, 1.08).
pub fn significant(d: Decimal, digits: u32) -> Decimal {
    if d.is_zero() {
        return d;
    }
    let mut x = d.abs();
    let mut places = digits;
    if x >= Decimal::ONE {
        let int_digits = u32::try_from(x.trunc().to_string().len()).unwrap_or(digits);
        places = digits.saturating_sub(int_digits);
    } else {
        while x < dec!(0.1) {
            x *= Decimal::TEN;
            places += 1;
        }
    }
    d.round_dp(places).normalize()
}

/// "1 EUR = 1.08 USD".
pub fn shown(base: &str, rate: Decimal, quote: &str) -> String {
    format!("1 {base} = {} {quote}", rate.normalize())
}

/// The refusal of a rate outside its pair's band, or `None` when it is inside (or the pair has
/// no band). `legacy` says the rate was written in the old form, whose direction it explains.
pub fn implausible(base: &str, quote: &str, rate: Decimal, legacy: bool) -> Option<String> {
    let b = band(base, quote)?;
    if rate >= b.low && rate <= b.high {
        return None;
    }
    let inverse = Decimal::ONE
        .checked_div(rate)
        .map(|r| significant(r, 4))
        .unwrap_or_default();
    let form = if legacy {
        format!("in the `currency` form, `rate` is how many {quote} (the file's currency) one {base} buys")
    } else {
        format!("`rate` is how many {quote} (`quote`) one {base} (`base`) buys")
    };
    Some(format!(
        "{} (that is, 1 {quote} = {inverse} {base}) is outside the plausible band {}–{} {quote} per {base} (reference {}: {REFERENCE_SOURCE} as of {REFERENCE_AS_OF}); check the direction: {form}",
        shown(base, rate, quote),
        significant(b.low, 4),
        significant(b.high, 4),
        significant(b.reference, 4),
    ))
}

/// The entry a file in `file` needs to convert amounts in `foreign`, as JSON to paste, with the
/// reference rate for orientation when known. The base is the stronger currency, so the rate
/// reads as the market quotes it (1 EUR = 1.04 USD, 1 USD = 150.8 JPY).
pub fn suggestion(foreign: &str, file: &str) -> String {
    let (base, quote) = match reference(file, foreign) {
        Some(r) if r < Decimal::ONE => (foreign, file),
        _ => (file, foreign),
    };
    let hint = reference(base, quote)
        .map(|r| format!(" (1 {base} = {} {quote} on {REFERENCE_AS_OF})", significant(r, 4)))
        .unwrap_or_default();
    format!("{{\"base\": \"{base}\", \"quote\": \"{quote}\", \"rate\": \"...\", \"source\": \"...\"}}{hint}")
}

impl FxRate {
    /// A rate in the market form: 1 `base` = `rate` `quote`.
    pub fn market(base: &str, quote: &str, rate: Decimal, source: &str) -> FxRate {
        FxRate {
            base: Some(base.to_owned()),
            quote: Some(quote.to_owned()),
            currency: None,
            rate,
            source: source.to_owned(),
        }
    }

    /// The pair as written, (base, quote) with 1 base = `rate` quote, in a file in `file`; `None`
    /// when the entry mixes or lacks forms.
    pub fn pair<'a>(&'a self, file: &'a str) -> Option<(&'a str, &'a str)> {
        match (&self.base, &self.quote, &self.currency) {
            (Some(b), Some(q), None) => Some((b, q)),
            (None, None, Some(c)) => Some((c, file)),
            _ => None,
        }
    }

    /// The currency this entry converts from in a file in `file`, and how many units of `file`
    /// one unit of it is worth; `None` when the entry is malformed, neither side is `file`, or
    /// the rate is not above zero.
    pub fn against<'a>(&'a self, file: &'a str) -> Option<(&'a str, Decimal)> {
        let (b, q) = self.pair(file)?;
        if self.rate <= Decimal::ZERO || b == q {
            return None;
        }
        if q == file {
            Some((b, self.rate))
        } else if b == file {
            Some((q, Decimal::ONE.checked_div(self.rate)?))
        } else {
            None
        }
    }

    /// The rate as a sentence, "1 EUR = 1.08 USD", in the direction it is written.
    pub fn shown(&self, file: &str) -> String {
        match self.pair(file) {
            Some((b, q)) => shown(b, self.rate, q),
            None => self.rate.normalize().to_string(),
        }
    }
}

/// A rate ready to convert amounts into the file's currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    /// Units of the file's currency one unit of the other currency is worth.
    pub per_unit: Decimal,
    /// The rate as written, "1 EUR = 1.08 USD".
    pub shown: String,
}

/// The file's `fx`, checked: the rates by the currency they convert from, every problem at its
/// path, and warnings for rates that could not be checked for plausibility.
#[derive(Debug, Default)]
pub struct Checked {
    pub rates: HashMap<String, Conversion>,
    pub problems: Vec<Problem>,
    pub warnings: Vec<String>,
}

fn is_code(c: &str) -> bool {
    c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase())
}

/// Checks every entry of a file's `fx` against the file's currency `file`.
pub fn check(fx: &[FxRate], file: &str) -> Checked {
    let mut out = Checked::default();
    fn push(problems: &mut Vec<Problem>, path: String, message: String) {
        problems.push(Problem { path, message });
    }
    for (i, r) in fx.iter().enumerate() {
        let p = format!("fx[{i}]");
        let before = out.problems.len();
        // Which form, and the path of the currency the entry converts from (for duplicates).
        let mut foreign_path = format!("{p}.currency");
        match (&r.base, &r.quote, &r.currency) {
            (Some(_), _, Some(_)) | (_, Some(_), Some(_)) => push(
                &mut out.problems,
                p.clone(),
                "write the rate in one form: `base` and `quote` (1 base = rate quote), or the older `currency` (1 currency = rate units of the file's currency), not both".to_owned(),
            ),
            (None, None, Some(c)) => {
                if !is_code(c) {
                    push(&mut out.problems, format!("{p}.currency"), format!("`{c}` is not an ISO 4217 code"));
                } else if c == file {
                    // Harmless (amounts in the file's currency are never converted), as old files
                    // may hold it; said, not refused.
                    out.warnings.push(format!("`{p}` gives a rate for {c}, the file's own currency; it has no effect"));
                }
            }
            (Some(b), Some(q), None) => {
                for (field, code) in [("base", b), ("quote", q)] {
                    if !is_code(code) {
                        push(&mut out.problems, format!("{p}.{field}"), format!("`{code}` is not an ISO 4217 code"));
                    }
                }
                if out.problems.len() == before {
                    if b == q {
                        push(&mut out.problems, format!("{p}.quote"), format!("`base` and `quote` are both {b}; a rate joins two currencies"));
                    } else if b != file && q != file {
                        push(
                            &mut out.problems,
                            format!("{p}.base"),
                            format!("one side of the rate must be the file's currency {file}: write 1 {b} = rate {file}, or 1 {file} = rate {b} and so on"),
                        );
                    }
                }
                foreign_path = if q == file { format!("{p}.base") } else { format!("{p}.quote") };
            }
            (Some(_), None, None) => push(&mut out.problems, format!("{p}.quote"), format!("give the `quote` currency: 1 base = rate quote, one of them {file}")),
            (None, Some(_), None) => push(&mut out.problems, format!("{p}.base"), format!("give the `base` currency: 1 base = rate quote, one of them {file}")),
            (None, None, None) => push(
                &mut out.problems,
                p.clone(),
                format!("give `base`, `quote` and `rate` (1 base = rate quote), one side being the file's currency {file}"),
            ),
        }
        if r.rate <= Decimal::ZERO {
            push(
                &mut out.problems,
                format!("{p}.rate"),
                "an exchange rate must be above zero".to_owned(),
            );
        }
        if r.source.trim().is_empty() {
            push(
                &mut out.problems,
                format!("{p}.source"),
                "say where the rate comes from and its date".to_owned(),
            );
        }
        if out.problems.len() > before {
            continue;
        }
        let (Some((b, q)), Some((foreign, per_unit))) = (r.pair(file), r.against(file)) else {
            continue;
        };
        match band(b, q) {
            Some(_) => {
                if let Some(message) = implausible(b, q, r.rate, r.currency.is_some()) {
                    push(&mut out.problems, format!("{p}.rate"), message);
                    continue;
                }
            }
            None => {
                let missing = if reference_per_eur(b).is_none() { b } else { q };
                out.warnings.push(format!(
                    "the rate {} (`{p}`) was not checked for plausibility: {missing} has no reference rate in the built-in table ({REFERENCE_SOURCE} as of {REFERENCE_AS_OF}); check its direction by hand",
                    r.shown(file)
                ));
            }
        }
        let conversion = Conversion {
            per_unit,
            shown: r.shown(file),
        };
        if out.rates.insert(foreign.to_owned(), conversion).is_some() {
            push(
                &mut out.problems,
                foreign_path,
                format!("{foreign} has two rates; keep one"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn significant_digits_for_messages() {
        assert_eq!(significant(dec!(150.7636), 4).to_string(), "150.8");
        assert_eq!(significant(dec!(0.0066328), 4).to_string(), "0.006633");
        assert_eq!(significant(dec!(1.08), 4).to_string(), "1.08");
        assert_eq!(significant(dec!(1519.92), 4).to_string(), "1520");
    }

    #[test]
    fn reference_cross_rates() {
        // 156.96 / 1.0411 JPY per USD.
        assert_eq!(significant(reference("USD", "JPY").unwrap(), 4), dec!(150.8));
        assert_eq!(reference("EUR", "USD"), Some(dec!(1.0411)));
        assert!(reference("USD", "XAU").is_none());
    }

    #[test]
    fn both_forms_convert_the_same_way() {
        let old = FxRate {
            base: None,
            quote: None,
            currency: Some("USD".into()),
            rate: dec!(0.925),
            source: "s".into(),
        };
        let new = FxRate::market("USD", "EUR", dec!(0.925), "s");
        assert_eq!(old.against("EUR"), Some(("USD", dec!(0.925))));
        assert_eq!(new.against("EUR"), old.against("EUR"));
        assert_eq!(old.shown("EUR"), "1 USD = 0.925 EUR");
        let inverted = FxRate::market("EUR", "USD", dec!(1.08), "s");
        let (c, per) = inverted.against("EUR").unwrap();
        assert_eq!(c, "USD");
        assert_eq!(per.round_dp(6), dec!(0.925926));
    }

    #[test]
    fn an_inverted_eur_usd_rate_is_inside_the_band_but_an_inverted_yen_is_not() {
        // Near parity the band cannot tell the directions apart: the base/quote form does.
        assert!(implausible("EUR", "USD", dec!(0.93), false).is_none());
        let m = implausible("USD", "JPY", dec!(0.0066), false).unwrap();
        assert!(m.starts_with("1 USD = 0.0066 JPY (that is, 1 JPY = 151.5 USD) is outside the plausible band 100.5–226.1 JPY per USD (reference 150.8"), "{m}");
    }

    #[test]
    fn suggestions_read_as_the_market_quotes() {
        assert!(suggestion("USD", "EUR").starts_with("{\"base\": \"EUR\", \"quote\": \"USD\""));
        assert!(suggestion("JPY", "USD").starts_with("{\"base\": \"USD\", \"quote\": \"JPY\""));
        assert!(suggestion("USD", "JPY").starts_with("{\"base\": \"USD\", \"quote\": \"JPY\""));
        assert!(suggestion("USD", "GBP").starts_with("{\"base\": \"GBP\", \"quote\": \"USD\""));
    }
}
