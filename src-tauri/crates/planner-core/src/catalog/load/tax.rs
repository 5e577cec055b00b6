//! The `[[tax_profile]]` entries of a `tax` catalog file: a jurisdiction's rate on profits and its
//! depreciation rule for computer hardware, each refused at its line and field when it cannot be
//! a tax profile (ENGINE_RULES.md, "The after-tax view").

use rust_decimal::Decimal;
use serde::Deserialize;
use toml::Spanned;
use toml::de::DeValue;

use super::{Ctx, Fig, ParsedFile, RawFigure, register};
use crate::catalog::issue::IssueKind;
use crate::catalog::provenance::{AsOf, Confidence, Figure};
use crate::catalog::tax_model::{TaxConvention, TaxMethod, TaxPreset};

/// The longest recovery period a preset may give, in years (the longest MACRS knows).
const MAX_RECOVERY_YEARS: u32 = 50;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTaxProfile {
    id: Spanned<String>,
    title: String,
    jurisdiction: String,
    rate: Fig,
    method: TaxMethod,
    recovery_years: Spanned<u32>,
    convention: Spanned<TaxConvention>,
    bonus_share: Option<Fig>,
    src: Option<Spanned<super::SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    note: Option<String>,
}

impl Ctx<'_> {
    /// A `[[tax_profile]]` preset (a method, so that the loader calls it without naming this
    /// module: the loader and its parts import one way).
    pub(super) fn tax_profile_entry(&mut self, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
        tax_profile_entry(self, out, path, item);
    }
}

/// A `[[tax_profile]]` preset.
fn tax_profile_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawTaxProfile>(path, item) else {
        return;
    };
    register(ctx, out, "tax_profile", path, &raw.id);
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    let provenance = ctx.entry_provenance(path, &raw.id, &d);
    let rate = ctx.figure(path, "rate", &raw.rate, &d);
    let zero = Spanned::new(raw.id.span(), RawFigure::point(Decimal::ZERO));
    let bonus_raw = raw.bonus_share.as_ref().unwrap_or(&zero);
    let bonus = ctx.figure(path, "bonus_share", bonus_raw, &d);
    let rate_ok = rate
        .as_ref()
        .is_some_and(|f| one_fraction(ctx, path, "rate", &raw.rate, f));
    let bonus_ok = bonus
        .as_ref()
        .is_some_and(|f| one_fraction(ctx, path, "bonus_share", bonus_raw, f));
    let rule_ok = recovery_rule(ctx, path, &raw);
    let (Some(provenance), Some(rate), Some(bonus_share), true, true, true) =
        (provenance, rate, bonus, rate_ok, bonus_ok, rule_ok)
    else {
        return;
    };
    out.content.tax_profiles.push(TaxPreset {
        id: raw.id.into_inner(),
        title: raw.title,
        jurisdiction: raw.jurisdiction,
        rate,
        method: raw.method,
        recovery_years: raw.recovery_years.into_inner(),
        convention: raw.convention.into_inner(),
        bonus_share,
        provenance,
        notes: raw.note,
    });
}

/// A rate or a share is one figure (not a range) from 0 to 1.
fn one_fraction(ctx: &mut Ctx<'_>, path: &str, name: &str, raw: &Fig, f: &Figure) -> bool {
    if f.low != f.high {
        ctx.push(
            &raw.span(),
            &format!("{path}.{name}"),
            IssueKind::InvalidRange,
            format!("`{name}` is one figure, not a range; give `value` (a fraction, \"0.21\" = 21%)"),
        );
        return false;
    }
    if f.high > Decimal::ONE {
        ctx.push(
            &raw.span(),
            &format!("{path}.{name}"),
            IssueKind::InvalidRange,
            format!("`{name}` is a fraction from 0 to 1 (\"0.21\" = 21%), got {}", f.high),
        );
        return false;
    }
    true
}

/// A recovery period of 1 to 50 years; MACRS GDS only for the 3-, 5- and 7-year classes and
/// with a convention (the rule the engine's tax block applies).
fn recovery_rule(ctx: &mut Ctx<'_>, path: &str, raw: &RawTaxProfile) -> bool {
    let years = *raw.recovery_years.get_ref();
    let field = format!("{path}.recovery_years");
    if !(1..=MAX_RECOVERY_YEARS).contains(&years) {
        ctx.push(
            &raw.recovery_years.span(),
            &field,
            IssueKind::InvalidRange,
            format!("a recovery period is 1 to {MAX_RECOVERY_YEARS} years, got {years}"),
        );
        return false;
    }
    if raw.method == TaxMethod::MacrsGds && !matches!(years, 3 | 5 | 7) {
        ctx.push(
            &raw.recovery_years.span(),
            &field,
            IssueKind::InvalidRange,
            format!("MACRS GDS is offered for the 3-, 5- and 7-year classes, got {years}"),
        );
        return false;
    }
    if raw.method == TaxMethod::MacrsGds && *raw.convention.get_ref() == TaxConvention::None {
        ctx.push(
            &raw.convention.span(),
            &format!("{path}.convention"),
            IssueKind::InvalidRange,
            "MACRS GDS uses the half-year or the mid-quarter convention, not none",
        );
        return false;
    }
    true
}
