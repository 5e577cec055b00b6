//! The file's tax profile: a catalog preset and the file's own figures resolved into the plan's
//! [`TaxProfile`], each figure recorded as an assumption with its source (ENGINE_RULES.md, "The
//! after-tax view"). Refused at its field: an unknown preset, a figure missing without a preset,
//! a figure of the file's own without a reason, a rate or share outside 0 to 1, a tax year
//! starting outside months 1 to 12, and a method, period and convention the tax block refuses.

use super::*;
use crate::catalog::{TaxConvention, TaxMethod, TaxPreset};
use crate::engine::blocks::tax::{Convention, DepreciationMethod, Quarter, schedule};
use crate::engine::input::tax_spec::TaxSpec;
use crate::engine::model::tax_profile::TaxProfile;

/// Where a figure of the profile comes from: the preset, the file (with its reason), or the
/// default.
enum From {
    Preset,
    File,
    Default(&'static str),
}

fn method_of(m: TaxMethod) -> DepreciationMethod {
    match m {
        TaxMethod::StraightLine => DepreciationMethod::StraightLine,
        TaxMethod::DecliningBalance150 => DepreciationMethod::DecliningBalance150,
        TaxMethod::DecliningBalance200 => DepreciationMethod::DecliningBalance200,
        TaxMethod::MacrsGds => DepreciationMethod::MacrsGds,
    }
}

/// The conventions whose schedules a profile needs: one, or one per quarter for mid-quarter.
fn conventions(c: TaxConvention) -> Vec<Convention> {
    match c {
        TaxConvention::None => vec![Convention::None],
        TaxConvention::HalfYear => vec![Convention::HalfYear],
        TaxConvention::MidQuarter => [Quarter::Q1, Quarter::Q2, Quarter::Q3, Quarter::Q4]
            .into_iter()
            .map(Convention::MidQuarter)
            .collect(),
    }
}

/// A figure given by the file, else by the preset, else its default.
fn pick<T: Copy>(file: Option<T>, preset: Option<T>, default: Option<(T, &'static str)>) -> Option<(T, From)> {
    match (file, preset, default) {
        (Some(v), _, _) => Some((v, From::File)),
        (None, Some(v), _) => Some((v, From::Preset)),
        (None, None, Some((v, why))) => Some((v, From::Default(why))),
        (None, None, None) => None,
    }
}

impl<'c> Resolver<'c> {
    /// The file's tax profile and the assumptions every scenario records for it; `None` (and no
    /// assumption) without a `tax` section.
    pub(super) fn tax(&mut self, spec: Option<&TaxSpec>) -> (Option<TaxProfile>, Vec<Assumption>) {
        let Some(spec) = spec else {
            return (None, Vec::new());
        };
        let preset = self.tax_preset(spec);
        let before = self.problems.len();
        let rate = pick(spec.rate, preset.map(|p| p.rate.low), None);
        let method = pick(spec.method, preset.map(|p| p.method), None);
        let years = pick(spec.recovery_years, preset.map(|p| p.recovery_years), None);
        let convention = pick(
            spec.convention,
            preset.map(|p| p.convention),
            Some((
                TaxConvention::None,
                "no convention given: a full year's deduction in year 1",
            )),
        );
        let bonus = pick(
            spec.bonus_share,
            preset.map(|p| p.bonus_share.low),
            Some((Decimal::ZERO, "no bonus depreciation given: none")),
        );
        let month = pick(
            spec.fiscal_year_start_month,
            None,
            Some((1, "the tax year is the calendar year unless the file says otherwise")),
        );
        self.tax_reason(spec);
        let (Some(rate), Some(method), Some(years), Some(convention), Some(bonus), Some(month)) =
            (rate, method, years, convention, bonus, month)
        else {
            self.tax_missing(spec, preset);
            return (None, Vec::new());
        };
        self.fraction("tax.rate", rate.0);
        self.fraction("tax.bonus_share", bonus.0);
        if !(1..=12).contains(&month.0) {
            self.push(
                "tax.fiscal_year_start_month",
                format!(
                    "{} is not a month; give the calendar month the tax year starts in, 1 (January) to 12",
                    month.0
                ),
            );
        }
        if self.problems.len() > before {
            return (None, Vec::new());
        }
        let schedules = self.tax_schedules(method.0, convention.0, years.0, bonus.0);
        if self.problems.len() > before {
            return (None, Vec::new());
        }
        let profile = TaxProfile {
            rate: rate.0,
            method: method.0,
            recovery_years: years.0,
            convention: convention.0,
            bonus_share: bonus.0,
            fiscal_year_start_month: month.0,
            rank: spec.rank.unwrap_or_default(),
            schedules,
        };
        let assumptions = tax_assumptions(
            spec,
            preset,
            &profile,
            [&rate.1, &years.1, &bonus.1, &month.1],
            [&method.1, &convention.1],
        );
        (Some(profile), assumptions)
    }

    fn tax_preset(&mut self, spec: &TaxSpec) -> Option<&'c TaxPreset> {
        let id = spec.preset.as_deref()?;
        let found = self.catalog.tax_profile(id);
        if found.is_none() {
            let known: Vec<&str> = self.catalog.tax_profiles.iter().map(|p| p.id.as_str()).collect();
            self.push(
                "tax.preset",
                format!(
                    "no tax profile has id `{id}` in the catalog; use one of: {} (`planner catalog list --kind tax`), or give the figures with a reason",
                    if known.is_empty() { "(none)".to_owned() } else { known.join(", ") }
                ),
            );
        }
        found
    }

    /// A figure of the file's own (not the preset's) needs a reason.
    fn tax_reason(&mut self, spec: &TaxSpec) {
        let own = spec.rate.is_some()
            || spec.method.is_some()
            || spec.recovery_years.is_some()
            || spec.convention.is_some()
            || spec.bonus_share.is_some()
            || spec.fiscal_year_start_month.is_some();
        if own && spec.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
            self.push(
                "tax.reason",
                "say where the tax figures the file gives come from (a tax adviser's note, the company's filings, a statute)",
            );
        }
    }

    /// Each figure neither the file nor a preset gives, at its path.
    fn tax_missing(&mut self, spec: &TaxSpec, preset: Option<&TaxPreset>) {
        if spec.preset.is_some() && preset.is_none() {
            // The unknown preset is already reported; its figures are not missing on their own.
            return;
        }
        for (field, given) in [
            ("rate", spec.rate.is_some()),
            ("method", spec.method.is_some()),
            ("recovery_years", spec.recovery_years.is_some()),
        ] {
            if !given {
                self.push(
                    format!("tax.{field}"),
                    format!("give the `{field}`, or a `preset` from the catalog that gives it"),
                );
            }
        }
    }

    /// The schedules of the profile (one per quarter under mid-quarter), or the tax block's
    /// refusal at its field.
    fn tax_schedules(&mut self, method: TaxMethod, c: TaxConvention, years: u32, bonus: Decimal) -> Vec<Vec<Decimal>> {
        let mut out = Vec::new();
        for convention in conventions(c) {
            match schedule(method_of(method), convention, years, bonus) {
                Ok(s) => out.push(s),
                Err(r) => {
                    self.push(format!("tax.{}", r.field), r.message);
                    return Vec::new();
                }
            }
        }
        out
    }
}

/// The assumptions a tax profile adds to every scenario: the rate, the recovery period, the
/// bonus share, the first month of the tax year, and each tax year's share of the depreciable
/// basis (per quarter placed in service under mid-quarter), each with its source.
fn tax_assumptions(
    spec: &TaxSpec,
    preset: Option<&TaxPreset>,
    p: &TaxProfile,
    from: [&From; 4],
    rule_from: [&From; 2],
) -> Vec<Assumption> {
    let [rate_from, years_from, bonus_from, month_from] = from;
    let mut out = vec![
        tax_assumption(spec, preset, "rate", p.rate, rate_from),
        tax_assumption(
            spec,
            preset,
            "recovery_years",
            Decimal::from(p.recovery_years),
            years_from,
        ),
        tax_assumption(spec, preset, "bonus_share", p.bonus_share, bonus_from),
        tax_assumption(
            spec,
            preset,
            "fiscal_year_start_month",
            Decimal::from(p.fiscal_year_start_month),
            month_from,
        ),
    ];
    let words = format!(
        "{}, convention {}, {} years, bonus share {}",
        p.method.as_str(),
        p.convention.as_str(),
        p.recovery_years,
        p.bonus_share.normalize()
    );
    // The schedule is the preset's when every figure behind it is.
    let rule = if [rule_from[0], rule_from[1], years_from, bonus_from]
        .iter()
        .all(|f| matches!(f, From::Preset))
    {
        &From::Preset
    } else {
        &From::File
    };
    let quarters = p.schedules.len() == 4;
    for (q, schedule) in p.schedules.iter().enumerate() {
        for (y, share) in schedule.iter().enumerate() {
            let field = if quarters {
                format!("schedule.q{}.year_{}", q + 1, y + 1)
            } else {
                format!("schedule.year_{}", y + 1)
            };
            let mut a = tax_assumption(spec, preset, &field, *share, rule);
            if let Origin::Override { reason } = &mut a.origin {
                *reason = format!("{reason} ({words})");
            }
            if let Origin::Catalog { field, .. } = &mut a.origin {
                *field = format!("schedule ({words})");
            }
            out.push(a);
        }
    }
    out
}

fn tax_assumption(spec: &TaxSpec, preset: Option<&TaxPreset>, field: &str, value: Decimal, from: &From) -> Assumption {
    let origin = match (from, preset) {
        (From::Preset, Some(p)) => {
            let figure = match field {
                "rate" => Some(&p.rate),
                "bonus_share" => Some(&p.bonus_share),
                _ => None,
            };
            let provenance = figure.map_or(&p.provenance, |f| &f.provenance);
            Origin::Catalog {
                entry: p.id.clone(),
                field: field.to_owned(),
                point: PricePoint::Mid,
                low: value,
                high: value,
                currency: None,
                as_of: provenance.as_of.to_string(),
                confidence: provenance.confidence,
                sources: provenance
                    .sources
                    .iter()
                    .map(|s| format!("{} ({})", s.title, s.as_of))
                    .collect(),
            }
        }
        (From::Default(why), _) => Origin::Derived {
            rule: (*why).to_owned(),
        },
        _ => Origin::Override {
            reason: spec.reason.clone().unwrap_or_default(),
        },
    };
    Assumption {
        path: format!("tax.{field}"),
        value,
        origin,
    }
}
