//! The `[[path]]` and `[[resale_decay]]` entries of a `market` catalog file: price paths and
//! price-performance decays, each with a low, a mid and a high band, refused at their line and
//! field when a band is not a path or a decay the engine can follow (ENGINE_RULES.md, "Price
//! paths in the ledger (issue #44)").

use serde::Deserialize;
use toml::Spanned;
use toml::de::DeValue;

use super::{Ctx, ParsedFile, register};
use crate::catalog::issue::IssueKind;
use crate::catalog::market_model::{MarketPath, PathUse, ResaleDecayEntry};
use crate::catalog::provenance::{AsOf, Confidence};
use crate::market_shape::{Decay, PricePath, Refusal};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPath {
    id: Spanned<String>,
    title: String,
    applies_to: PathUse,
    #[serde(default)]
    accelerators: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    regions: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    default: Option<Spanned<bool>>,
    low: Spanned<PricePath>,
    mid: Spanned<PricePath>,
    high: Spanned<PricePath>,
    src: Option<Spanned<super::SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDecay {
    id: Spanned<String>,
    title: String,
    #[serde(default)]
    default: Option<Spanned<bool>>,
    low: Spanned<Decay>,
    mid: Spanned<Decay>,
    high: Spanned<Decay>,
    src: Option<Spanned<super::SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    note: Option<String>,
}

impl Ctx<'_> {
    /// A `[[path]]` entry (a method, so that the loader calls it without naming this module).
    pub(super) fn market_path_entry(&mut self, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
        market_path_entry(self, out, path, item);
    }

    /// A `[[resale_decay]]` entry.
    pub(super) fn resale_decay_entry(&mut self, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
        resale_decay_entry(self, out, path, item);
    }
}

/// Each band checked by `check`, refused at `<path>.<band>.<field>`; true when all three pass.
fn bands_ok<T>(
    ctx: &mut Ctx<'_>,
    path: &str,
    bands: [(&str, &Spanned<T>); 3],
    check: fn(&T) -> Result<(), Refusal>,
) -> bool {
    let mut ok = true;
    for (name, band) in bands {
        if let Err(e) = check(band.get_ref()) {
            ctx.push(
                &band.span(),
                &format!("{path}.{name}.{}", e.field),
                IssueKind::InvalidRange,
                e.message,
            );
            ok = false;
        }
    }
    ok
}

/// Records where an entry claims to be the default for `key`, to find two defaults once every
/// file is read.
fn claim_default(
    ctx: &Ctx<'_>,
    out: &mut ParsedFile,
    key: String,
    path: &str,
    default: Option<&Spanned<bool>>,
) -> bool {
    match default {
        Some(d) if *d.get_ref() => {
            let site = ctx.site(&d.span(), &format!("{path}.default"));
            out.market_defaults.push((key, site));
            true
        }
        _ => false,
    }
}

/// Ids listed in `accelerators` or `regions`, recorded as references (checked once every file is
/// read); refused when the entry's use does not take them.
fn references(
    ctx: &mut Ctx<'_>,
    out: &mut ParsedFile,
    path: &str,
    name: &str,
    list: Option<&Spanned<Vec<Spanned<String>>>>,
    allowed: bool,
) -> (Vec<String>, bool) {
    let Some(list) = list else {
        return (Vec::new(), true);
    };
    if !allowed {
        let only = if name == "accelerators" {
            "rental"
        } else {
            "electricity"
        };
        ctx.push(
            &list.span(),
            &format!("{path}.{name}"),
            IssueKind::UnknownField,
            format!("`{name}` narrows a path that applies_to {only}; remove it from this entry"),
        );
        return (Vec::new(), false);
    }
    let mut ids = Vec::new();
    for (i, id) in list.get_ref().iter().enumerate() {
        let site = ctx.site(&id.span(), &format!("{path}.{name}[{i}]"));
        let entry = (id.get_ref().clone(), site);
        if name == "accelerators" {
            out.accelerator_refs.push(entry);
        } else {
            out.region_refs.push(entry);
        }
        ids.push(id.get_ref().clone());
    }
    (ids, true)
}

/// A `[[path]]` entry.
fn market_path_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawPath>(path, item) else {
        return;
    };
    register(ctx, out, "path", path, &raw.id);
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    let provenance = ctx.entry_provenance(path, &raw.id, &d);
    let bands = [("low", &raw.low), ("mid", &raw.mid), ("high", &raw.high)];
    let bands_ok = bands_ok(ctx, path, bands, PricePath::validate);
    let use_ = raw.applies_to;
    let (accelerators, acc_ok) = references(
        ctx,
        out,
        path,
        "accelerators",
        raw.accelerators.as_ref(),
        use_ == PathUse::Rental,
    );
    let (regions, reg_ok) = references(
        ctx,
        out,
        path,
        "regions",
        raw.regions.as_ref(),
        use_ == PathUse::Electricity,
    );
    let default = claim_default(ctx, out, format!("path {}", use_.as_str()), path, raw.default.as_ref());
    let (Some(provenance), true, true, true) = (provenance, bands_ok, acc_ok, reg_ok) else {
        return;
    };
    out.content.market_paths.push(MarketPath {
        id: raw.id.into_inner(),
        title: raw.title,
        applies_to: use_,
        accelerators,
        regions,
        default,
        low: raw.low.into_inner(),
        mid: raw.mid.into_inner(),
        high: raw.high.into_inner(),
        provenance: with_note(provenance, raw.note.clone()),
        notes: raw.note,
    });
}

/// A `[[resale_decay]]` entry.
fn resale_decay_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawDecay>(path, item) else {
        return;
    };
    register(ctx, out, "resale_decay", path, &raw.id);
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    let provenance = ctx.entry_provenance(path, &raw.id, &d);
    let bands = [("low", &raw.low), ("mid", &raw.mid), ("high", &raw.high)];
    let bands_ok = bands_ok(ctx, path, bands, Decay::validate);
    let default = claim_default(ctx, out, "resale_decay".to_owned(), path, raw.default.as_ref());
    let (Some(provenance), true) = (provenance, bands_ok) else {
        return;
    };
    out.content.resale_decays.push(ResaleDecayEntry {
        id: raw.id.into_inner(),
        title: raw.title,
        default,
        low: raw.low.into_inner(),
        mid: raw.mid.into_inner(),
        high: raw.high.into_inner(),
        provenance: with_note(provenance, raw.note.clone()),
        notes: raw.note,
    });
}

/// The entry's provenance carrying its note (what is measured, what is derived).
fn with_note(
    mut p: crate::catalog::provenance::Provenance,
    note: Option<String>,
) -> crate::catalog::provenance::Provenance {
    p.note = note;
    p
}
