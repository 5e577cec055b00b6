//! Loading catalog files: TOML text in, a checked [`Catalog`] or every issue out.
//!
//! The loader works in two passes over each file. The first deserializes each entry on its own,
//! so one bad entry does not hide the problems of the next; serde and toml give the line and the
//! field path of every structural error. The second resolves provenance (source ids, default
//! confidence and dates) and checks the values (ranges, signs, references). A file with any issue
//! contributes nothing: the caller gets the complete list and no half-loaded catalog.
//!
//! Numbers may be written as TOML integers, floats or strings. A float is read back through its
//! shortest round-trip text, which equals what the author typed for up to 15 significant digits;
//! longer numbers must be written as strings to stay exact.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, MapAccess, SeqAccess, Visitor};
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

use super::issue::{CatalogError, CatalogIssue, IssueKind, LineIndex, tagged, untag};
use super::model::*;
use super::provenance::{AsOf, Confidence, Figure, Provenance, Source};
use super::tax_model::TaxPreset;

mod market;
mod tax;

/// The catalog file format this build reads. A file declaring a higher `format` is refused.
pub const FORMAT_VERSION: u32 = 1;

// ----- numbers --------------------------------------------------------------------------------

/// Parses a decimal written as text: digits, an optional sign and an optional `.` fraction.
fn parse_decimal_text(text: &str) -> Result<Decimal, String> {
    let t = text.trim();
    let body = t.strip_prefix('-').unwrap_or(t);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let well_formed = !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
        && !(body.contains('.') && frac.is_empty());
    let fail = || {
        tagged(
            IssueKind::MalformedNumber,
            &format!(
                "`{text}` is not a number: write digits with a '.' decimal point and no thousands \
                 separators, units or symbols, e.g. 3.35 or 25000"
            ),
        )
    };
    if !well_formed {
        return Err(fail());
    }
    Decimal::from_str(t).map_err(|_| fail())
}

fn decimal_from_f64(v: f64) -> Result<Decimal, String> {
    if !v.is_finite() {
        return Err(tagged(
            IssueKind::MalformedNumber,
            &format!("`{v}` is not a finite number; write a plain decimal such as 0.55"),
        ));
    }
    // Rust prints the shortest text that reads back to the same f64: the author's own digits.
    parse_decimal_text(&v.to_string())
}

struct NumberVisitor;

impl Visitor<'_> for NumberVisitor {
    type Value = Decimal;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number, e.g. 3.35 or 25000")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Decimal, E> {
        Ok(Decimal::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Decimal, E> {
        Ok(Decimal::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Decimal, E> {
        decimal_from_f64(v).map_err(E::custom)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Decimal, E> {
        parse_decimal_text(v).map_err(E::custom)
    }
}

/// A number as written in a catalog file.
struct RawNumber(Decimal);

impl<'de> Deserialize<'de> for RawNumber {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumberVisitor).map(RawNumber)
    }
}

/// One source id or a list of them.
#[derive(Debug, Clone)]
pub(crate) struct SrcList(pub(crate) Vec<String>);

impl<'de> Deserialize<'de> for SrcList {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SrcList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a source id or a list of source ids")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<SrcList, E> {
                Ok(SrcList(vec![v.to_owned()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SrcList, A::Error> {
                let mut out = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    out.push(s);
                }
                Ok(SrcList(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// A figure as written: a bare number, or a table with `value` or `low`/`high` and provenance.
#[derive(Debug, Clone)]
struct RawFigure {
    low: Decimal,
    high: Decimal,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    note: Option<String>,
}

const FIGURE_FIELDS: &[&str] = &["value", "low", "high", "src", "conf", "as_of", "note"];

impl<'de> Deserialize<'de> for RawFigure {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawFigure;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, or a table such as { value = 80, src = \"...\", conf = \"primary\" }")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawFigure, E> {
                Ok(RawFigure::point(Decimal::from(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawFigure, E> {
                Ok(RawFigure::point(Decimal::from(v)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawFigure, E> {
                decimal_from_f64(v).map(RawFigure::point).map_err(E::custom)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawFigure, E> {
                parse_decimal_text(v).map(RawFigure::point).map_err(E::custom)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawFigure, A::Error> {
                let (mut value, mut low, mut high) = (None, None, None);
                let mut fig = RawFigure::point(Decimal::ZERO);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "value" => value = Some(map.next_value::<RawNumber>()?.0),
                        "low" => low = Some(map.next_value::<RawNumber>()?.0),
                        "high" => high = Some(map.next_value::<RawNumber>()?.0),
                        "src" => fig.src = Some(map.next_value()?),
                        "conf" => fig.conf = Some(map.next_value()?),
                        "as_of" => fig.as_of = Some(map.next_value()?),
                        "note" => fig.note = Some(map.next_value()?),
                        other => return Err(de::Error::unknown_field(other, FIGURE_FIELDS)),
                    }
                }
                match (value, low, high) {
                    (Some(v), None, None) => (fig.low, fig.high) = (v, v),
                    (None, Some(l), Some(h)) => (fig.low, fig.high) = (l, h),
                    (Some(_), _, _) => {
                        return Err(de::Error::custom(tagged(
                            IssueKind::InvalidRange,
                            "give either `value` or both `low` and `high`, not both forms",
                        )));
                    }
                    (None, Some(_), None) => return Err(de::Error::missing_field("high")),
                    (None, None, Some(_)) => return Err(de::Error::missing_field("low")),
                    (None, None, None) => return Err(de::Error::missing_field("value")),
                }
                Ok(fig)
            }
        }
        d.deserialize_any(V)
    }
}

impl RawFigure {
    fn point(v: Decimal) -> RawFigure {
        RawFigure {
            low: v,
            high: v,
            src: None,
            conf: None,
            as_of: None,
            note: None,
        }
    }
}

type Fig = Spanned<RawFigure>;

// ----- raw file structure ---------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeader {
    kind: CatalogKind,
    format: u32,
    version: String,
    title: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSource {
    title: String,
    url: Option<String>,
    as_of: AsOf,
    #[serde(default)]
    undated: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAccelerator {
    id: Spanned<String>,
    name: String,
    vendor: String,
    family: Family,
    launch_year: u16,
    memory_type: String,
    scale_up: String,
    form_factor: String,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    memory_gb: Fig,
    bandwidth_tbps: Option<Fig>,
    bf16_tflops: Option<Fig>,
    fp8_tflops: Option<Fig>,
    tdp_w: Option<Fig>,
    price_usd: Option<Fig>,
    adaptation_months: Option<Fig>,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOffer {
    id: Spanned<String>,
    provider: String,
    provider_kind: ProviderKind,
    accelerator: Spanned<String>,
    sku: String,
    gpus_per_instance: Spanned<u16>,
    region: String,
    currency: Option<Spanned<String>>,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    on_demand_per_gpu_hour: Option<Fig>,
    reserved_1y_per_gpu_hour: Option<Fig>,
    reserved_3y_per_gpu_hour: Option<Fig>,
    commit_discount_pct: Option<Fig>,
    spot_per_gpu_hour: Option<Fig>,
    spot_notice_s: Option<Fig>,
    grid_region: Option<Spanned<String>>,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResale {
    id: Spanned<String>,
    family: Option<Family>,
    vendor: Option<String>,
    accelerator: Option<Spanned<String>>,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    #[serde(default)]
    point: Vec<RawResalePoint>,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResalePoint {
    age_months: Spanned<u32>,
    share: Fig,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCooling {
    id: Spanned<String>,
    name: String,
    liquid: bool,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    kw_per_rack: Fig,
    pue: Fig,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUpgrade {
    id: Spanned<String>,
    name: String,
    kind: UpgradeKind,
    currency: Option<Spanned<String>>,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    cost: Fig,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawColocation {
    id: Spanned<String>,
    market: String,
    currency: Option<Spanned<String>>,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    per_kw_month: Fig,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSystem {
    id: Spanned<String>,
    name: String,
    accelerator: Spanned<String>,
    gpus: Spanned<u16>,
    liquid_cooled: bool,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    max_power_kw: Fig,
    price_usd: Option<Fig>,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPue {
    id: Spanned<String>,
    name: String,
    provider: Option<String>,
    #[serde(default)]
    cloud_default: bool,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    pue: Fig,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLeadTime {
    id: Spanned<String>,
    item: String,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    weeks: Fig,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFabric {
    id: Spanned<String>,
    name: String,
    technology: FabricTechnology,
    port_gbps: u32,
    pools: Vec<Pool>,
    currency: Option<Spanned<String>>,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    per_port_cost: Fig,
    switch_radix: Option<u16>,
    switch_cost: Option<Fig>,
    optic_cost: Option<Fig>,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRegion {
    id: Spanned<String>,
    name: String,
    currency: Option<Spanned<String>>,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    tariff_per_kwh: Option<Fig>,
    grid_gco2_per_kwh: Option<Fig>,
    notes: Option<String>,
}

// ----- per-file context -----------------------------------------------------------------------

/// Where an entry id or a reference stands, for the checks that span files.
#[derive(Debug, Clone)]
struct Site {
    file: String,
    line: u32,
    column: u32,
    field: String,
}

/// The entries of one file, before the checks that span files.
#[derive(Debug, Clone, Default)]
struct Content {
    accelerators: Vec<Accelerator>,
    offers: Vec<Offer>,
    facility: Facility,
    fabrics: Vec<Fabric>,
    regions: Vec<Region>,
    resale: Vec<ResaleCurve>,
    tax_profiles: Vec<TaxPreset>,
    market_paths: Vec<super::market_model::MarketPath>,
    resale_decays: Vec<super::market_model::ResaleDecayEntry>,
}

/// One catalog file, parsed and checked on its own.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    info: CatalogFileInfo,
    content: Content,
    /// (group, id, where) for every entry, to find duplicates across files.
    ids: Vec<(&'static str, String, Site)>,
    /// (accelerator id, where) for every reference to an accelerator.
    accelerator_refs: Vec<(String, Site)>,
    /// (region id, where) for every reference to a region.
    region_refs: Vec<(String, Site)>,
    /// (what a resale estimate covers, where), to find two estimates for the same target.
    resale_targets: Vec<(String, Site)>,
    /// (what a market entry is the default for, where), to find two defaults for one use.
    market_defaults: Vec<(String, Site)>,
}

impl ParsedFile {
    pub fn info(&self) -> &CatalogFileInfo {
        &self.info
    }
}

pub(crate) struct Ctx<'t> {
    pub(crate) file: &'t str,
    pub(crate) text: &'t str,
    /// Line starts of `text`, to locate issues and entries without rescanning the file.
    pub(crate) lines: LineIndex,
    pub(crate) sources: BTreeMap<String, Source>,
    /// Sources whose own definition failed: citing them is already reported, not reported again.
    pub(crate) broken_sources: Vec<String>,
    pub(crate) issues: Vec<CatalogIssue>,
}

/// Provenance given on an entry, used by every figure of the entry that gives none of its own.
struct Defaults {
    sources: Option<Vec<Source>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
}

impl<'t> Ctx<'t> {
    /// Reads the file's `[sources.*]` tables into `sources`; the id of a source that does not
    /// read goes to `broken_sources`.
    pub(crate) fn read_sources(&mut self, table: &DeTable<'_>) {
        let Some(sources) = table.get("sources") else { return };
        match sources.get_ref().as_table() {
            Some(src_table) => {
                for (key, value) in src_table.iter() {
                    let id = key.get_ref().as_ref().to_owned();
                    let Some(raw) = self.de::<RawSource>(&format!("sources.{id}"), value) else {
                        self.broken_sources.push(id);
                        continue;
                    };
                    let source = Source {
                        id: id.clone(),
                        title: raw.title,
                        url: raw.url,
                        as_of: raw.as_of,
                        undated: raw.undated,
                    };
                    self.sources.insert(id, source);
                }
            }
            None => self.push(
                &sources.span(),
                "sources",
                IssueKind::WrongType,
                "`sources` must be a table of tables: [sources.my-source-id]",
            ),
        }
    }

    fn site(&self, span: &Range<usize>, field: &str) -> Site {
        let (line, column) = self.lines.line_col(self.text, span.start);
        Site {
            file: self.file.to_owned(),
            line,
            column,
            field: field.to_owned(),
        }
    }

    pub(crate) fn push(&mut self, span: &Range<usize>, field: &str, kind: IssueKind, message: impl Into<String>) {
        let (line, column) = self.lines.line_col(self.text, span.start);
        self.issues.push(CatalogIssue {
            file: self.file.to_owned(),
            line,
            column,
            field: crate::problem::clip(field).into_owned(),
            kind,
            // Messages quote values from the file; a long one is cut, not echoed whole.
            message: crate::problem::clip_message(&message.into()).into_owned(),
        });
    }

    /// Deserializes one value, recording any error with its line and full field path.
    pub(crate) fn de<T: DeserializeOwned>(&mut self, prefix: &str, value: &Spanned<DeValue<'_>>) -> Option<T> {
        let deserializer = ValueDeserializer::from(value.clone());
        match serde_path_to_error::deserialize::<_, T>(deserializer) {
            Ok(v) => Some(v),
            Err(err) => {
                let path = clean_path(prefix, &err.path().to_string());
                let inner = err.into_inner();
                let span = inner.span().unwrap_or_else(|| value.span());
                let (tag, text) = untag(inner.message());
                let (kind, field, message) = classify(tag, text, path);
                self.push(&span, &field, kind, message);
                None
            }
        }
    }

    pub(crate) fn resolve_sources(&mut self, field: &str, list: &Spanned<SrcList>) -> Option<Vec<Source>> {
        if list.get_ref().0.is_empty() {
            self.push(
                &list.span(),
                field,
                IssueKind::MissingProvenance,
                "the source list is empty: name at least one source id",
            );
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        for id in &list.get_ref().0 {
            match self.sources.get(id) {
                Some(s) => out.push(s.clone()),
                None if self.broken_sources.contains(id) => ok = false,
                None => {
                    let known: Vec<&str> = self.sources.keys().map(String::as_str).collect();
                    self.push(
                        &list.span(),
                        field,
                        IssueKind::UnknownSource,
                        format!(
                            "source `{id}` is not defined in this file; add a [sources.{id}] table or use one of: {}",
                            if known.is_empty() {
                                "(none defined)".to_owned()
                            } else {
                                known.join(", ")
                            }
                        ),
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    fn defaults(
        &mut self,
        path: &str,
        src: &Option<Spanned<SrcList>>,
        conf: Option<Confidence>,
        as_of: Option<AsOf>,
    ) -> Option<Defaults> {
        let sources = match src {
            Some(list) => Some(self.resolve_sources(&format!("{path}.src"), list)?),
            None => None,
        };
        Some(Defaults { sources, conf, as_of })
    }

    /// Provenance of an entry's descriptive fields: the entry's own `src` and `conf`, required.
    fn entry_provenance(&mut self, path: &str, id: &Spanned<String>, d: &Defaults) -> Option<Provenance> {
        match (&d.sources, d.conf) {
            (Some(sources), Some(confidence)) => Some(Provenance {
                sources: sources.clone(),
                as_of: d.as_of.or_else(|| latest(sources))?,
                confidence,
                note: None,
            }),
            _ => {
                self.push(
                    &id.span(),
                    path,
                    IssueKind::MissingProvenance,
                    "this entry's descriptive fields need a source: give `src` and `conf` on the entry",
                );
                None
            }
        }
    }

    fn figure(&mut self, path: &str, name: &str, raw: &Fig, d: &Defaults) -> Option<Figure> {
        let field = format!("{path}.{name}");
        let span = raw.span();
        let fig = raw.get_ref();
        let mut ok = true;
        if fig.low < Decimal::ZERO || fig.high < Decimal::ZERO {
            self.push(
                &span,
                &field,
                IssueKind::NegativeValue,
                format!("`{name}` cannot be negative; write the magnitude"),
            );
            ok = false;
        }
        if fig.low > fig.high {
            self.push(
                &span,
                &field,
                IssueKind::InvalidRange,
                format!(
                    "the range is reversed: low {} is above high {}; swap them",
                    fig.low, fig.high
                ),
            );
            ok = false;
        }
        let sources = match &fig.src {
            Some(list) => self.resolve_sources(&format!("{field}.src"), list),
            None => d.sources.clone(),
        };
        let confidence = fig.conf.or(d.conf);
        let (Some(sources), Some(confidence)) = (sources, confidence) else {
            if fig.src.is_none() && d.sources.is_none() || confidence.is_none() {
                self.push(
                    &span,
                    &field,
                    IssueKind::MissingProvenance,
                    format!(
                        "`{name}` has no {}: give it on the figure or on its entry",
                        if confidence.is_none() {
                            "confidence (`conf`)"
                        } else {
                            "source (`src`)"
                        }
                    ),
                );
            }
            return None;
        };
        let as_of = fig.as_of.or(d.as_of).or_else(|| latest(&sources))?;
        ok.then(|| Figure {
            low: fig.low,
            high: fig.high,
            provenance: Provenance {
                sources,
                as_of,
                confidence,
                note: fig.note.clone(),
            },
        })
    }

    /// An optional figure: `Some(None)` when absent, `None` when present but wrong.
    fn opt_figure(&mut self, path: &str, name: &str, raw: &Option<Fig>, d: &Defaults) -> Option<Option<Figure>> {
        match raw {
            None => Some(None),
            Some(raw) => self.figure(path, name, raw, d).map(Some),
        }
    }

    fn currency(&mut self, path: &str, raw: &Option<Spanned<String>>) -> Option<String> {
        match raw {
            None => Some("USD".to_owned()),
            Some(c) if c.get_ref().len() == 3 && c.get_ref().bytes().all(|b| b.is_ascii_uppercase()) => {
                Some(c.get_ref().clone())
            }
            Some(c) => {
                self.push(
                    &c.span(),
                    &format!("{path}.currency"),
                    IssueKind::UnknownValue,
                    format!(
                        "`{}` is not an ISO 4217 currency code; write three capital letters such as USD, EUR or SGD",
                        c.get_ref()
                    ),
                );
                None
            }
        }
    }
}

fn latest(sources: &[Source]) -> Option<AsOf> {
    sources.iter().map(|s| s.as_of).max()
}

/// Drops serde plumbing from a path and puts the entry's own path in front.
fn clean_path(prefix: &str, path: &str) -> String {
    let path: Vec<&str> = path
        .split('.')
        .filter(|seg| !seg.is_empty() && *seg != "?" && !seg.starts_with("$__"))
        .collect();
    match (prefix.is_empty(), path.is_empty()) {
        (_, true) => prefix.to_owned(),
        (true, false) => path.join("."),
        (false, false) => format!("{prefix}.{}", path.join(".")),
    }
}

/// Turns a serde message into an issue kind, a field path and advice.
fn classify(tag: Option<IssueKind>, text: &str, path: String) -> (IssueKind, String, String) {
    if let Some(kind) = tag {
        return (kind, path, text.to_owned());
    }
    let quoted = text.split('`').nth(1).unwrap_or_default();
    if text.starts_with("missing field") {
        let field = if path.is_empty() {
            quoted.to_owned()
        } else {
            format!("{path}.{quoted}")
        };
        (
            IssueKind::MissingField,
            field,
            format!("{text}: add `{quoted} = ...` here (catalogs/README.md lists the fields)"),
        )
    } else if text.starts_with("unknown field") {
        (
            IssueKind::UnknownField,
            path,
            format!("{text}; remove it or correct its spelling"),
        )
    } else if text.starts_with("unknown variant") {
        (
            IssueKind::UnknownValue,
            path,
            text.replace("unknown variant", "unknown value"),
        )
    } else if text.starts_with("invalid type")
        || text.starts_with("invalid value")
        || text.starts_with("invalid length")
    {
        (IssueKind::WrongType, path, plain_type_names(text))
    } else {
        (IssueKind::Syntax, path, text.to_owned())
    }
}

/// Rust type names mean nothing to a catalog author; say what they mean.
fn plain_type_names(text: &str) -> String {
    text.replace(
        "expected u16",
        "expected a whole number from 0 to 65535 (without quotes)",
    )
    .replace("expected u32", "expected a whole number (without quotes)")
    .replace("expected a boolean", "expected true or false (without quotes)")
}

// ----- parsing a file -------------------------------------------------------------------------

/// The top-level arrays a file of each kind may hold.
fn entry_keys(kind: CatalogKind) -> &'static [&'static str] {
    match kind {
        CatalogKind::Accelerators => &["accelerator", "resale"],
        CatalogKind::Offers => &["offer"],
        CatalogKind::Facility => &["cooling", "upgrade", "colocation", "system", "pue", "lead_time"],
        CatalogKind::Fabrics => &["fabric"],
        CatalogKind::Regions => &["region"],
        CatalogKind::Tax => &["tax_profile"],
        CatalogKind::Market => &["path", "resale_decay"],
    }
}

/// Parses `text` (the file `file`) as TOML, with a context that collects located issues. Any
/// syntax error ends it: every syntax issue is returned, each with its line and column.
pub(crate) fn open_toml<'t>(file: &'t str, text: &'t str) -> Result<(Ctx<'t>, Spanned<DeTable<'t>>), CatalogError> {
    let mut ctx = Ctx {
        file,
        text,
        lines: LineIndex::new(text),
        sources: BTreeMap::new(),
        broken_sources: Vec::new(),
        issues: Vec::new(),
    };
    let (root, syntax) = DeTable::parse_recoverable(text);
    if !syntax.is_empty() {
        for err in syntax {
            let span = err.span().unwrap_or(0..0);
            ctx.push(
                &span,
                "",
                IssueKind::Syntax,
                format!("{}; fix the TOML syntax here", err.message().trim_end()),
            );
        }
        return Err(CatalogError { issues: ctx.issues });
    }
    Ok((ctx, root))
}

/// Parses and checks one catalog file. `file` is the name used in messages.
pub fn parse_file(file: &str, text: &str) -> Result<ParsedFile, CatalogError> {
    let (mut ctx, root) = open_toml(file, text)?;
    let table = root.get_ref();
    let Some(header) = catalog_header(&mut ctx, table) else {
        return Err(CatalogError { issues: ctx.issues });
    };
    let allowed = entry_keys(header.kind);
    unknown_tables(&mut ctx, table, header.kind, allowed);
    ctx.read_sources(table);

    let mut parsed = ParsedFile {
        info: CatalogFileInfo {
            file: file.to_owned(),
            kind: header.kind,
            format: header.format,
            version: header.version,
            title: header.title,
            entries: 0,
        },
        content: Content::default(),
        ids: Vec::new(),
        accelerator_refs: Vec::new(),
        region_refs: Vec::new(),
        resale_targets: Vec::new(),
        market_defaults: Vec::new(),
    };

    for key in allowed {
        let Some(array_value) = table.get(*key) else { continue };
        let Some(items) = array_value.get_ref().as_array() else {
            ctx.push(
                &array_value.span(),
                key,
                IssueKind::WrongType,
                format!("write each entry as [[{key}]] (double brackets)"),
            );
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let path = format!("{key}[{i}]");
            parse_entry(&mut ctx, &mut parsed, key, &path, item);
        }
    }

    if ctx.issues.is_empty() {
        parsed.info.entries = u32::try_from(parsed.ids.len()).unwrap_or(u32::MAX);
        Ok(parsed)
    } else {
        Err(CatalogError { issues: ctx.issues })
    }
}

/// The file's `[catalog]` header, in a format this app reads; `None` (the problem reported)
/// otherwise.
fn catalog_header(ctx: &mut Ctx<'_>, table: &DeTable<'_>) -> Option<RawHeader> {
    let Some(header_value) = table.get("catalog") else {
        ctx.push(
            &(0..0),
            "catalog",
            IssueKind::BadHeader,
            "the file has no [catalog] table; start it with [catalog] giving kind, format, version and title",
        );
        return None;
    };
    let header = ctx.de::<RawHeader>("catalog", header_value)?;
    if header.format > FORMAT_VERSION {
        ctx.push(
            &header_value.span(),
            "catalog.format",
            IssueKind::UnsupportedFormat,
            format!(
                "this file uses catalog format {} but this Compute Planner reads format {FORMAT_VERSION} at most; update the app or use a catalog made for it",
                header.format
            ),
        );
        return None;
    }
    if header.format == 0 {
        ctx.push(
            &header_value.span(),
            "catalog.format",
            IssueKind::UnsupportedFormat,
            format!("format 0 does not exist; write format = {FORMAT_VERSION}"),
        );
        return None;
    }
    Some(header)
}

/// Reports every top-level table a file of `kind` may not hold (it may hold `[catalog]`,
/// `[sources.*]` and the entry arrays in `allowed`).
fn unknown_tables(ctx: &mut Ctx<'_>, table: &DeTable<'_>, kind: CatalogKind, allowed: &[&str]) {
    for (key, _) in table.iter() {
        let k = key.get_ref().as_ref();
        if k != "catalog" && k != "sources" && !allowed.contains(&k) {
            ctx.push(
                &key.span(),
                k,
                IssueKind::UnknownField,
                format!(
                    "a {} file has no `{k}` table; it may hold [catalog], [sources.*] and {}",
                    kind.as_str(),
                    allowed
                        .iter()
                        .map(|a| format!("[[{a}]]"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }
}

/// Reads one entry of the array `key` at `path` into `out`: its id registered (duplicates are
/// found once every file is read), its references to accelerators and regions recorded for the
/// same check, and the entry itself when it is valid.
fn parse_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, key: &'static str, path: &str, item: &Spanned<DeValue<'_>>) {
    match key {
        "accelerator" => accelerator_entry(ctx, out, path, item),
        "offer" => offer_entry(ctx, out, path, item),
        "cooling" => cooling_entry(ctx, out, path, item),
        "upgrade" => upgrade_entry(ctx, out, path, item),
        "colocation" => colocation_entry(ctx, out, path, item),
        "system" => system_entry(ctx, out, path, item),
        "pue" => pue_entry(ctx, out, path, item),
        "lead_time" => lead_time_entry(ctx, out, path, item),
        "resale" => resale_entry(ctx, out, path, item),
        "fabric" => fabric_entry(ctx, out, path, item),
        "region" => region_entry(ctx, out, path, item),
        "tax_profile" => ctx.tax_profile_entry(out, path, item),
        "path" => ctx.market_path_entry(out, path, item),
        "resale_decay" => ctx.resale_decay_entry(out, path, item),
        _ => {}
    }
}

/// Records an entry's id and where it is given.
fn register(ctx: &Ctx<'_>, out: &mut ParsedFile, key: &'static str, path: &str, id: &Spanned<String>) {
    let site = ctx.site(&id.span(), &format!("{path}.id"));
    out.ids.push((key, id.get_ref().clone(), site));
}

/// An `[[accelerator]]` entry.
fn accelerator_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawAccelerator>(path, item) else {
        return;
    };
    register(ctx, out, "accelerator", path, &raw.id);
    if let Some(a) = accelerator(ctx, path, raw) {
        out.content.accelerators.push(a);
    }
}

/// An `[[offer]]` entry, with the accelerator it rents out and the grid region it names.
fn offer_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawOffer>(path, item) else {
        return;
    };
    register(ctx, out, "offer", path, &raw.id);
    let site = ctx.site(&raw.accelerator.span(), &format!("{path}.accelerator"));
    out.accelerator_refs.push((raw.accelerator.get_ref().clone(), site));
    if let Some(r) = &raw.grid_region {
        let site = ctx.site(&r.span(), &format!("{path}.grid_region"));
        out.region_refs.push((r.get_ref().clone(), site));
    }
    if let Some(o) = offer(ctx, path, raw) {
        out.content.offers.push(o);
    }
}

/// A `[[cooling]]` technology: its rack power and PUE.
fn cooling_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawCooling>(path, item) else {
        return;
    };
    register(ctx, out, "cooling", path, &raw.id);
    let d = ctx.defaults(path, &raw.src, raw.conf, raw.as_of);
    let Some(d) = d else { return };
    let kw = ctx.figure(path, "kw_per_rack", &raw.kw_per_rack, &d);
    let pue = ctx.figure(path, "pue", &raw.pue, &d);
    if let (Some(kw_per_rack), Some(pue)) = (kw, pue) {
        out.content.facility.cooling.push(Cooling {
            id: raw.id.into_inner(),
            name: raw.name,
            liquid: raw.liquid,
            kw_per_rack,
            pue,
            notes: raw.notes,
        });
    }
}

/// A facility `[[upgrade]]` and its cost.
fn upgrade_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawUpgrade>(path, item) else {
        return;
    };
    register(ctx, out, "upgrade", path, &raw.id);
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    let currency = ctx.currency(path, &raw.currency);
    let cost = ctx.figure(path, "cost", &raw.cost, &d);
    if let (Some(currency), Some(cost)) = (currency, cost) {
        out.content.facility.upgrades.push(Upgrade {
            id: raw.id.into_inner(),
            name: raw.name,
            kind: raw.kind,
            currency,
            cost,
            notes: raw.notes,
        });
    }
}

/// A `[[colocation]]` market and its price per kW and month.
fn colocation_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawColocation>(path, item) else {
        return;
    };
    register(ctx, out, "colocation", path, &raw.id);
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    let currency = ctx.currency(path, &raw.currency);
    let price = ctx.figure(path, "per_kw_month", &raw.per_kw_month, &d);
    if let (Some(currency), Some(per_kw_month)) = (currency, price) {
        out.content.facility.colocation.push(Colocation {
            id: raw.id.into_inner(),
            market: raw.market,
            currency,
            per_kw_month,
            notes: raw.notes,
        });
    }
}

/// A server `[[system]]`, with the accelerator it holds.
fn system_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawSystem>(path, item) else {
        return;
    };
    register(ctx, out, "system", path, &raw.id);
    let site = ctx.site(&raw.accelerator.span(), &format!("{path}.accelerator"));
    out.accelerator_refs.push((raw.accelerator.get_ref().clone(), site));
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    let gpus_ok = positive_count(ctx, path, "gpus", &raw.gpus);
    let power = ctx.figure(path, "max_power_kw", &raw.max_power_kw, &d);
    let price = ctx.opt_figure(path, "price_usd", &raw.price_usd, &d);
    if let (true, Some(max_power_kw), Some(price_usd)) = (gpus_ok, power, price) {
        out.content.facility.systems.push(ServerSystem {
            id: raw.id.into_inner(),
            name: raw.name,
            accelerator: raw.accelerator.into_inner(),
            gpus: raw.gpus.into_inner(),
            liquid_cooled: raw.liquid_cooled,
            max_power_kw,
            price_usd,
            notes: raw.notes,
        });
    }
}

/// A `[[pue]]` benchmark (a provider's published fleet average, or the cloud default).
fn pue_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawPue>(path, item) else {
        return;
    };
    register(ctx, out, "pue", path, &raw.id);
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    if let Some(pue) = ctx.figure(path, "pue", &raw.pue, &d) {
        out.content.facility.pue_benchmarks.push(PueBenchmark {
            id: raw.id.into_inner(),
            name: raw.name,
            pue,
            provider: raw.provider,
            cloud_default: raw.cloud_default,
            notes: raw.notes,
        });
    }
}

/// A `[[lead_time]]` for an item, in weeks.
fn lead_time_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawLeadTime>(path, item) else {
        return;
    };
    register(ctx, out, "lead_time", path, &raw.id);
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    if let Some(weeks) = ctx.figure(path, "weeks", &raw.weeks, &d) {
        out.content.facility.lead_times.push(LeadTime {
            id: raw.id.into_inner(),
            item: raw.item,
            weeks,
            notes: raw.notes,
        });
    }
}

/// A `[[resale]]` curve, with the accelerator it prices when it names one.
fn resale_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawResale>(path, item) else {
        return;
    };
    register(ctx, out, "resale", path, &raw.id);
    if let Some(a) = &raw.accelerator {
        let site = ctx.site(&a.span(), &format!("{path}.accelerator"));
        out.accelerator_refs.push((a.get_ref().clone(), site));
    }
    let site = ctx.site(&raw.id.span(), &format!("{path}.id"));
    if let Some((key, curve)) = resale(ctx, path, raw) {
        out.resale_targets.push((key, site));
        out.content.resale.push(curve);
    }
}

/// A network `[[fabric]]` and its prices; it must name the pools it suits.
fn fabric_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawFabric>(path, item) else {
        return;
    };
    register(ctx, out, "fabric", path, &raw.id);
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    let currency = ctx.currency(path, &raw.currency);
    let per_port = ctx.figure(path, "per_port_cost", &raw.per_port_cost, &d);
    let switch = ctx.opt_figure(path, "switch_cost", &raw.switch_cost, &d);
    let optic = ctx.opt_figure(path, "optic_cost", &raw.optic_cost, &d);
    if raw.pools.is_empty() {
        ctx.push(
            &raw.id.span(),
            &format!("{path}.pools"),
            IssueKind::MissingField,
            "name at least one pool the fabric suits: training, inference, experiment or storage",
        );
        return;
    }
    if let (Some(currency), Some(per_port_cost), Some(switch_cost), Some(optic_cost)) =
        (currency, per_port, switch, optic)
    {
        out.content.fabrics.push(Fabric {
            id: raw.id.into_inner(),
            name: raw.name,
            technology: raw.technology,
            port_gbps: raw.port_gbps,
            pools: raw.pools,
            currency,
            per_port_cost,
            switch_radix: raw.switch_radix,
            switch_cost,
            optic_cost,
            notes: raw.notes,
        });
    }
}

/// A `[[region]]`: its currency, tariff and grid intensity.
fn region_entry(ctx: &mut Ctx<'_>, out: &mut ParsedFile, path: &str, item: &Spanned<DeValue<'_>>) {
    let Some(raw) = ctx.de::<RawRegion>(path, item) else {
        return;
    };
    register(ctx, out, "region", path, &raw.id);
    let Some(d) = ctx.defaults(path, &raw.src, raw.conf, raw.as_of) else {
        return;
    };
    let currency = ctx.currency(path, &raw.currency);
    let tariff = ctx.opt_figure(path, "tariff_per_kwh", &raw.tariff_per_kwh, &d);
    let grid = ctx.opt_figure(path, "grid_gco2_per_kwh", &raw.grid_gco2_per_kwh, &d);
    if let (Some(currency), Some(tariff_per_kwh), Some(grid_gco2_per_kwh)) = (currency, tariff, grid) {
        out.content.regions.push(Region {
            id: raw.id.into_inner(),
            name: raw.name,
            currency,
            tariff_per_kwh,
            grid_gco2_per_kwh,
            notes: raw.notes,
        });
    }
}

fn positive_count(ctx: &mut Ctx<'_>, path: &str, name: &str, n: &Spanned<u16>) -> bool {
    if *n.get_ref() == 0 {
        ctx.push(
            &n.span(),
            &format!("{path}.{name}"),
            IssueKind::NegativeValue,
            format!("`{name}` must be at least 1"),
        );
        false
    } else {
        true
    }
}

fn accelerator(ctx: &mut Ctx<'_>, path: &str, raw: RawAccelerator) -> Option<Accelerator> {
    let d = ctx.defaults(path, &raw.src, raw.conf, raw.as_of)?;
    let spec = ctx.entry_provenance(path, &raw.id, &d);
    let memory_gb = ctx.figure(path, "memory_gb", &raw.memory_gb, &d);
    let bandwidth_tbps = ctx.opt_figure(path, "bandwidth_tbps", &raw.bandwidth_tbps, &d);
    let bf16_tflops = ctx.opt_figure(path, "bf16_tflops", &raw.bf16_tflops, &d);
    let fp8_tflops = ctx.opt_figure(path, "fp8_tflops", &raw.fp8_tflops, &d);
    let tdp_w = ctx.opt_figure(path, "tdp_w", &raw.tdp_w, &d);
    let price_usd = ctx.opt_figure(path, "price_usd", &raw.price_usd, &d);
    let adaptation_months = ctx.opt_figure(path, "adaptation_months", &raw.adaptation_months, &d);
    if raw.family == Family::Domestic && raw.adaptation_months.is_none() {
        ctx.push(
            &raw.id.span(),
            &format!("{path}.adaptation_months"),
            IssueKind::MissingField,
            "a domestic alternative needs `adaptation_months`: the engineering months to adapt the software stack (typically 1 to 3)",
        );
        return None;
    }
    Some(Accelerator {
        id: raw.id.into_inner(),
        name: raw.name,
        vendor: raw.vendor,
        family: raw.family,
        launch_year: raw.launch_year,
        memory_type: raw.memory_type,
        scale_up: raw.scale_up,
        form_factor: raw.form_factor,
        spec_provenance: spec?,
        memory_gb: memory_gb?,
        bandwidth_tbps: bandwidth_tbps?,
        bf16_tflops: bf16_tflops?,
        fp8_tflops: fp8_tflops?,
        tdp_w: tdp_w?,
        price_usd: price_usd?,
        adaptation_months: adaptation_months?,
        notes: raw.notes,
    })
}

/// A resale estimate, checked: one target, ages rising, shares at most 1. Returns the target's
/// key (to find two estimates for the same target) with the curve.
fn resale(ctx: &mut Ctx<'_>, path: &str, raw: RawResale) -> Option<(String, ResaleCurve)> {
    let d = ctx.defaults(path, &raw.src, raw.conf, raw.as_of)?;
    let target = match (raw.family, &raw.accelerator, &raw.vendor) {
        (Some(family), None, vendor) => ResaleTarget::Family {
            family,
            vendor: vendor.clone(),
        },
        (None, Some(a), None) => ResaleTarget::Accelerator {
            id: a.get_ref().clone(),
        },
        (f, a, v) => {
            let message = if f.is_some() && a.is_some() {
                "give either `family` or `accelerator`, not both"
            } else if a.is_some() && v.is_some() {
                "`vendor` narrows a family; an estimate for one accelerator takes no vendor"
            } else {
                "say what the estimate covers: `family` (optionally with `vendor`) or `accelerator`"
            };
            ctx.push(
                &raw.id.span(),
                &format!("{path}.family"),
                IssueKind::MissingField,
                message,
            );
            return None;
        }
    };
    if raw.point.is_empty() {
        ctx.push(
            &raw.id.span(),
            &format!("{path}.point"),
            IssueKind::MissingField,
            "a resale estimate needs at least one [[resale.point]] with `age_months` and `share`",
        );
        return None;
    }
    let mut points = Vec::new();
    let mut ok = true;
    let mut previous = 0;
    for (k, p) in raw.point.iter().enumerate() {
        let pp = format!("{path}.point[{k}]");
        let age = *p.age_months.get_ref();
        if age <= previous {
            ctx.push(
                &p.age_months.span(),
                &format!("{pp}.age_months"),
                IssueKind::InvalidRange,
                format!("ages must rise from one point to the next and start above 0; {age} does not"),
            );
            ok = false;
        }
        previous = age;
        match ctx.figure(&pp, "share", &p.share, &d) {
            Some(share) if share.high > Decimal::ONE => {
                ctx.push(
                    &p.share.span(),
                    &format!("{pp}.share"),
                    IssueKind::InvalidRange,
                    "a resale share is a fraction of the new price: at most 1",
                );
                ok = false;
            }
            Some(share) => points.push(ResalePoint { age_months: age, share }),
            None => ok = false,
        }
    }
    let key = match &target {
        ResaleTarget::Accelerator { id } => format!("accelerator `{id}`"),
        ResaleTarget::Family { family, vendor: None } => format!("family `{}`", family.label()),
        ResaleTarget::Family {
            family,
            vendor: Some(v),
        } => format!("family `{}` of vendor `{v}`", family.label()),
    };
    ok.then(|| {
        (
            key,
            ResaleCurve {
                id: raw.id.into_inner(),
                target,
                points,
                notes: raw.notes,
            },
        )
    })
}

fn offer(ctx: &mut Ctx<'_>, path: &str, raw: RawOffer) -> Option<Offer> {
    let d = ctx.defaults(path, &raw.src, raw.conf, raw.as_of)?;
    let currency = ctx.currency(path, &raw.currency);
    let gpus_ok = positive_count(ctx, path, "gpus_per_instance", &raw.gpus_per_instance);
    let on_demand = ctx.opt_figure(path, "on_demand_per_gpu_hour", &raw.on_demand_per_gpu_hour, &d);
    let r1 = ctx.opt_figure(path, "reserved_1y_per_gpu_hour", &raw.reserved_1y_per_gpu_hour, &d);
    let r3 = ctx.opt_figure(path, "reserved_3y_per_gpu_hour", &raw.reserved_3y_per_gpu_hour, &d);
    let discount = ctx.opt_figure(path, "commit_discount_pct", &raw.commit_discount_pct, &d);
    let spot = ctx.opt_figure(path, "spot_per_gpu_hour", &raw.spot_per_gpu_hour, &d);
    let notice = ctx.opt_figure(path, "spot_notice_s", &raw.spot_notice_s, &d);
    if raw.on_demand_per_gpu_hour.is_none()
        && raw.reserved_1y_per_gpu_hour.is_none()
        && raw.reserved_3y_per_gpu_hour.is_none()
        && raw.spot_per_gpu_hour.is_none()
    {
        ctx.push(
            &raw.id.span(),
            &format!("{path}.on_demand_per_gpu_hour"),
            IssueKind::MissingField,
            "an offer needs at least one price: on_demand_per_gpu_hour, reserved_1y_per_gpu_hour, reserved_3y_per_gpu_hour or spot_per_gpu_hour",
        );
        return None;
    }
    if let Some(Some(pct)) = &discount
        && pct.high > Decimal::ONE_HUNDRED
    {
        let span = raw.commit_discount_pct.as_ref().map_or(0..0, Spanned::span);
        ctx.push(
            &span,
            &format!("{path}.commit_discount_pct"),
            IssueKind::InvalidRange,
            "a discount cannot exceed 100 percent",
        );
        return None;
    }
    if !gpus_ok {
        return None;
    }
    Some(Offer {
        id: raw.id.into_inner(),
        provider: raw.provider,
        provider_kind: raw.provider_kind,
        accelerator: raw.accelerator.into_inner(),
        sku: raw.sku,
        gpus_per_instance: raw.gpus_per_instance.into_inner(),
        region: raw.region,
        currency: currency?,
        on_demand_per_gpu_hour: on_demand?,
        reserved_1y_per_gpu_hour: r1?,
        reserved_3y_per_gpu_hour: r3?,
        commit_discount_pct: discount?,
        spot_per_gpu_hour: spot?,
        spot_notice_s: notice?,
        grid_region: raw.grid_region.map(Spanned::into_inner),
        notes: raw.notes,
    })
}

// ----- assembling files into a catalog --------------------------------------------------------

/// Parses every file and assembles the catalog, or returns every issue found in any of them.
///
/// `files` are `(name, text)` pairs; names appear in messages. Each kind must be present but
/// the optional ones ([`CatalogKind::is_required`]: tax profiles, price paths).
pub fn load(files: &[(String, String)]) -> Result<Catalog, CatalogError> {
    let mut issues = Vec::new();
    let mut parsed = Vec::new();
    for (name, text) in files {
        match parse_file(name, text) {
            Ok(p) => parsed.push(p),
            Err(e) => issues.extend(e.issues),
        }
    }
    if !issues.is_empty() {
        return Err(CatalogError { issues });
    }
    assemble(parsed)
}

/// Joins parsed files, checking what spans files: ids unique per group, references resolved,
/// every kind present.
pub fn assemble(files: Vec<ParsedFile>) -> Result<Catalog, CatalogError> {
    let mut issues = Vec::new();
    let mut seen: HashMap<(&'static str, String), Site> = HashMap::new();
    for f in &files {
        for (group, id, site) in &f.ids {
            if let Some(first) = seen.get(&(*group, id.clone())) {
                issues.push(issue_at(
                    site,
                    IssueKind::DuplicateId,
                    format!(
                        "{group} id `{id}` is already used at {}:{}; ids must be unique",
                        first.file, first.line
                    ),
                ));
            } else {
                seen.insert((*group, id.clone()), site.clone());
            }
        }
    }
    for kind in CatalogKind::ALL {
        if kind.is_required() && !files.iter().any(|f| f.info.kind == kind) {
            issues.push(CatalogIssue {
                file: format!("{}.toml", kind.as_str()),
                line: 0,
                column: 0,
                field: "catalog.kind".to_owned(),
                kind: IssueKind::BadHeader,
                message: format!(
                    "no catalog file of kind `{}` was found; the catalog folder needs one",
                    kind.as_str()
                ),
            });
        }
    }
    issues.extend(two_defaults(&files));
    let mut targets: HashMap<String, Site> = HashMap::new();
    for f in &files {
        for (key, site) in &f.resale_targets {
            if let Some(first) = targets.get(key) {
                issues.push(issue_at(
                    site,
                    IssueKind::DuplicateId,
                    format!(
                        "{key} already has a resale estimate at {}:{}; keep one per target",
                        first.file, first.line
                    ),
                ));
            } else {
                targets.insert(key.clone(), site.clone());
            }
        }
        for (id, site) in &f.region_refs {
            if !seen.contains_key(&("region", id.clone())) {
                issues.push(issue_at(
                    site,
                    IssueKind::UnknownReference,
                    format!("no region has id `{id}`; use an id from the regions catalog (`planner catalog list --kind regions`)"),
                ));
            }
        }
    }
    let mut catalog = Catalog::default();
    for f in &files {
        for (id, site) in &f.accelerator_refs {
            if !seen.contains_key(&("accelerator", id.clone())) {
                issues.push(issue_at(
                    site,
                    IssueKind::UnknownReference,
                    format!("no accelerator has id `{id}`; use an id from the accelerators catalog (`planner catalog list --kind accelerators`)"),
                ));
            }
        }
    }
    if !issues.is_empty() {
        return Err(CatalogError { issues });
    }
    for f in files {
        catalog.files.push(f.info);
        let c = f.content;
        catalog.accelerators.extend(c.accelerators);
        catalog.offers.extend(c.offers);
        catalog.fabrics.extend(c.fabrics);
        catalog.regions.extend(c.regions);
        catalog.resale.extend(c.resale);
        catalog.tax_profiles.extend(c.tax_profiles);
        catalog.market_paths.extend(c.market_paths);
        catalog.resale_decays.extend(c.resale_decays);
        catalog.facility.cooling.extend(c.facility.cooling);
        catalog.facility.upgrades.extend(c.facility.upgrades);
        catalog.facility.colocation.extend(c.facility.colocation);
        catalog.facility.systems.extend(c.facility.systems);
        catalog.facility.pue_benchmarks.extend(c.facility.pue_benchmarks);
        catalog.facility.lead_times.extend(c.facility.lead_times);
    }
    Ok(catalog)
}

/// Every market entry that claims to be the default for a use another entry already claims.
fn two_defaults(files: &[ParsedFile]) -> Vec<CatalogIssue> {
    let mut first: HashMap<&str, &Site> = HashMap::new();
    let mut issues = Vec::new();
    for (key, site) in files.iter().flat_map(|f| &f.market_defaults) {
        match first.get(key.as_str()) {
            Some(one) => issues.push(issue_at(
                site,
                IssueKind::DuplicateId,
                format!(
                    "{key} already has a default at {}:{}; keep `default = true` on one entry",
                    one.file, one.line
                ),
            )),
            None => {
                first.insert(key.as_str(), site);
            }
        }
    }
    issues
}

fn issue_at(site: &Site, kind: IssueKind, message: String) -> CatalogIssue {
    CatalogIssue {
        file: site.file.clone(),
        line: site.line,
        column: site.column,
        field: site.field.clone(),
        kind,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "[catalog]\nkind = \"regions\"\nformat = 1\nversion = \"t\"\ntitle = \"t\"\n\n[sources.old]\ntitle = \"Old\"\nas_of = \"2023\"\n\n[sources.new]\ntitle = \"New\"\nurl = \"https://example.invalid\"\nas_of = \"2025-06-30\"\n\n";

    fn region(body: &str) -> Result<ParsedFile, CatalogError> {
        let text = format!("{HEADER}[[region]]\nid = \"r\"\nname = \"R\"\n{body}");
        parse_file("regions.toml", &text)
    }

    fn only_region(p: &ParsedFile) -> &Region {
        &p.content.regions[0]
    }

    #[test]
    fn bare_numbers_take_the_entry_provenance_and_the_latest_source_date() {
        let p = region("src = [\"old\", \"new\"]\nconf = \"secondary\"\ntariff_per_kwh = 0.1346\n").unwrap();
        let f = only_region(&p).tariff_per_kwh.as_ref().unwrap();
        assert_eq!(f.low.to_string(), "0.1346");
        assert!(f.is_point());
        assert_eq!(f.provenance.sources.len(), 2);
        assert_eq!(f.provenance.as_of.to_string(), "2025-06-30");
        assert_eq!(f.provenance.confidence, Confidence::Secondary);
        assert_eq!(only_region(&p).currency, "USD");
    }

    #[test]
    fn a_figure_can_override_source_confidence_date_and_carry_a_note() {
        let p = region(
            "src = \"new\"\nconf = \"primary\"\ngrid_gco2_per_kwh = { low = 330, high = \"385\", src = \"old\", conf = \"estimate\", as_of = \"2024-01\", note = \"two bases\" }\n",
        )
        .unwrap();
        let f = only_region(&p).grid_gco2_per_kwh.as_ref().unwrap();
        assert_eq!((f.low, f.high), (Decimal::from(330), Decimal::from(385)));
        assert_eq!(f.mid(), Decimal::from_str("357.5").unwrap());
        assert_eq!(f.provenance.sources[0].id, "old");
        assert_eq!(f.provenance.confidence, Confidence::Estimate);
        assert_eq!(f.provenance.as_of.to_string(), "2024-01");
        assert_eq!(f.provenance.note.as_deref(), Some("two bases"));
    }

    #[test]
    fn floats_keep_the_digits_the_author_wrote() {
        for (written, expected) in [
            ("0.1", "0.1"),
            ("3.35", "3.35"),
            ("0.0661", "0.0661"),
            ("184.06", "184.06"),
            ("\"0.123456789012345678\"", "0.123456789012345678"),
        ] {
            let p = region(&format!(
                "src = \"new\"\nconf = \"primary\"\ntariff_per_kwh = {written}\n"
            ))
            .unwrap();
            assert_eq!(
                only_region(&p).tariff_per_kwh.as_ref().unwrap().low.to_string(),
                expected
            );
        }
    }

    #[test]
    fn malformed_numbers_in_text_are_refused() {
        for bad in ["\"3,35\"", "\"12k\"", "\"$5\"", "\"1.\"", "\".5\"", "\"1e3\""] {
            let err = region(&format!("src = \"new\"\nconf = \"primary\"\ntariff_per_kwh = {bad}\n")).unwrap_err();
            assert_eq!(
                err.issues[0].kind,
                IssueKind::MalformedNumber,
                "{bad}: {:?}",
                err.issues
            );
            assert_eq!(err.issues[0].line, 21, "{bad}");
        }
    }

    #[test]
    fn a_currency_must_be_an_iso_code() {
        let err = region("currency = \"euro\"\nsrc = \"new\"\nconf = \"primary\"\n").unwrap_err();
        assert_eq!(err.issues[0].kind, IssueKind::UnknownValue);
        assert_eq!(err.issues[0].field, "region[0].currency");
    }

    #[test]
    fn one_bad_entry_does_not_hide_the_next() {
        let text = format!(
            "{HEADER}[[region]]\nid = \"a\"\nname = \"A\"\nsrc = \"nope\"\nconf = \"primary\"\n\n[[region]]\nid = \"b\"\nname = \"B\"\nsrc = \"new\"\nconf = \"sure\"\n"
        );
        let err = parse_file("regions.toml", &text).unwrap_err();
        let kinds: Vec<_> = err.issues.iter().map(|i| (i.kind, i.line)).collect();
        assert_eq!(
            kinds,
            vec![(IssueKind::UnknownSource, 19), (IssueKind::UnknownValue, 26)]
        );
    }

    #[test]
    fn a_file_of_another_kind_may_not_hold_these_entries() {
        let text =
            HEADER.replace("kind = \"regions\"", "kind = \"fabrics\"") + "[[region]]\nid = \"r\"\nname = \"R\"\n";
        let err = parse_file("fabrics.toml", &text).unwrap_err();
        assert_eq!(err.issues[0].kind, IssueKind::UnknownField);
        assert!(
            err.issues[0].message.contains("[[fabric]]"),
            "{}",
            err.issues[0].message
        );
    }

    #[test]
    fn every_kind_must_be_present() {
        let err = load(&[(
            "regions.toml".into(),
            format!("{HEADER}[[region]]\nid = \"r\"\nname = \"R\"\nsrc = \"new\"\nconf = \"primary\"\n"),
        )])
        .unwrap_err();
        let missing: Vec<_> = err.issues.iter().map(|i| i.file.as_str()).collect();
        assert_eq!(
            missing,
            vec!["accelerators.toml", "offers.toml", "facility.toml", "fabrics.toml"]
        );
    }

    fn accelerators(body: &str) -> Result<ParsedFile, CatalogError> {
        let head = HEADER.replace("kind = \"regions\"", "kind = \"accelerators\"");
        parse_file("accelerators.toml", &format!("{head}{body}"))
    }

    const CURVE: &str = "[[resale]]\nid = \"c\"\nfamily = \"training\"\nvendor = \"NVIDIA\"\nsrc = \"new\"\nconf = \"estimate\"\n\n[[resale.point]]\nage_months = 12\nshare = { low = 0.6, high = 0.8 }\n\n[[resale.point]]\nage_months = 24\nshare = { low = 0.4, high = 0.6, src = \"old\" }\n";

    #[test]
    fn a_resale_estimate_loads_and_reads_between_before_and_past_its_points() {
        let p = accelerators(CURVE).unwrap_or_else(|e| panic!("{:#?}", e.issues));
        let c = &p.content.resale[0];
        assert_eq!(
            c.target,
            ResaleTarget::Family {
                family: Family::Training,
                vendor: Some("NVIDIA".into())
            }
        );
        let at = |age| c.share_at(age).map(|f| (f.low, f.high));
        // Before the first point the first point's share holds.
        assert_eq!(at(3), Some((Decimal::new(6, 1), Decimal::new(8, 1))));
        assert_eq!(at(12), at(3));
        // Halfway: both ends interpolated, both sources cited, the weakest confidence.
        assert_eq!(at(18), Some((Decimal::new(5, 1), Decimal::new(7, 1))));
        let mid = c.share_at(18).unwrap_or_else(|| unreachable!());
        let ids: Vec<&str> = mid.provenance.sources.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, vec!["new", "old"]);
        assert_eq!(mid.provenance.confidence, Confidence::Estimate);
        assert_eq!(at(24), Some((Decimal::new(4, 1), Decimal::new(6, 1))));
        // Past the last point: no estimate.
        assert_eq!(at(25), None);
        assert_eq!(c.last_age(), 24);
    }

    #[test]
    fn resale_points_must_rise_in_age_and_stay_fractions() {
        let bad = CURVE
            .replace("age_months = 24", "age_months = 12")
            .replace("high = 0.6,", "high = 1.2,");
        let err = accelerators(&bad).unwrap_err();
        let fields: Vec<&str> = err.issues.iter().map(|i| i.field.as_str()).collect();
        assert_eq!(
            fields,
            vec!["resale[0].point[1].age_months", "resale[0].point[1].share"]
        );
        let both = CURVE.replace("vendor = \"NVIDIA\"", "accelerator = \"x\"");
        let err = accelerators(&both).unwrap_err();
        assert!(err.issues[0].message.contains("not both"), "{:?}", err.issues);
    }

    #[test]
    fn two_estimates_for_one_target_are_refused() {
        let one = accelerators(CURVE).unwrap_or_else(|e| panic!("{:#?}", e.issues));
        let two =
            accelerators(&CURVE.replace("id = \"c\"", "id = \"d\"")).unwrap_or_else(|e| panic!("{:#?}", e.issues));
        let err = assemble(vec![one, two]).unwrap_err();
        assert!(
            err.issues
                .iter()
                .any(|i| i.kind == IssueKind::DuplicateId && i.message.contains("already has a resale estimate")),
            "{:#?}",
            err.issues
        );
    }
}
