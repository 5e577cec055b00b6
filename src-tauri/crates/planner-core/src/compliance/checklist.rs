//! The D-1 compliance checklist: the template of items to check, the answers a reviewer gives for
//! one subject (a scenario or a vendor), the rule that says whether a scenario is cleared, and
//! hints derived from the plan's data.
//!
//! # Where the template lives, and why it has its own loader
//!
//! The template is a TOML file under `catalogs/checklists/` (shipped: `d1-compliance.toml`,
//! described in `catalogs/README.md`). It is deliberately *not* a new catalog kind: the catalog
//! loader requires at least one file of every kind in a folder, so a new kind would make every
//! existing catalog folder (the user's own, the test fixtures) invalid until it gained a
//! checklist file. The catalog loader also skips sub-folders, so the template file does not
//! disturb it. [`parse_template`] reads the file with the catalog loader's own machinery (the
//! same `[sources.*]` tables and provenance fields, the same located [`CatalogError`] with file,
//! line, column, field path and [`IssueKind`]), so a broken template reads like a broken catalog.
//!
//! # The cleared rule
//!
//! See [`clearance`]: a subject is cleared when every *blocking* item that applies to it is
//! `pass` or `not-applicable` **and** its checklist carries a sign-off that covers exactly the
//! answers in force (a change after the sign-off voids it). An item without an answer is open.
//! Non-blocking items never stop clearance; they are reported, not enforced.
//!
//! # Every family has an item
//!
//! [`parse_template`] refuses a family with no `[[item]]`, naming the family, its line and what to
//! do. Templates shipped before version 2026.11.1 had three such families (with a `gap` note);
//! a workspace keeps the template its answers were given against, so [`parse_kept_template`]
//! still reads those (and checks everything else the same way).
//!
//! # Hints
//!
//! [`hints`] reads only what a resolved scenario really holds: each layer's accelerator id,
//! free-text region, owned hardware (with its financing) and exit clause, each workload's data
//! classification and required region, and, when the caller passes them, the energy and
//! emissions of the scenario's evaluation ([`EnergyUse`]). It cannot derive: whether a service is
//! public-facing (registration items), where owned hardware ends its life or who recycles it,
//! whether the company is in scope of a reporting duty, or the parties to screen; those stay for
//! the reviewer. A hint flags an item to look at; no hint never clears one: a layer without a
//! region gives no destination hint, and no energy figures (the caller could not evaluate) gives
//! no energy hint. Silence is not clearance.
//!
//! Time comes in as text (the core has no clock): `at` fields are whatever the caller stamps,
//! RFC 3339 UTC by convention.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::catalog::provenance::{AsOf, Confidence, Provenance, Source};
use crate::catalog::{CatalogError, CatalogIssue, Ctx, IssueKind, SrcList, open_toml};
use crate::compliance::audit::{NewEntry, hex};
use crate::engine::costing::evaluate::Totals;
use crate::engine::input::scenario_file::LayerKind;
use crate::engine::model::scenario::{Financing, Layer, Scenario};
use crate::engine::model::workload::Workload;
use crate::workload_kind::DataClassification;

/// The template format this build reads.
pub const TEMPLATE_FORMAT: u32 = 1;

/// Which subjects an item is answered for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum AppliesTo {
    Scenario,
    Vendor,
    Both,
}

/// A hint that flags an item when the plan's data shows the condition (see [`hints`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum HintRule {
    /// A workload holding confidential or restricted data is served from a layer outside the
    /// region the workload must stay in.
    DataResidency,
    /// The scenario owns hardware it does not lease (bought for cash or on a loan): it ends its
    /// life, or is sold, in the buyer's hands.
    OwnedHardware,
    /// A layer commits to payments (reserved capacity, leased hardware) without an exit clause,
    /// so the cost of leaving it is not priced.
    UnpricedExit,
    /// The scenario's energy and emissions over the horizon, when the caller evaluated it.
    EnergyUse,
}

/// A family of items (export control, registration...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Family {
    pub id: String,
    pub title: String,
    /// Why the family has no sourced item yet, when it has none.
    pub gap: Option<String>,
}

/// One thing to check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TemplateItem {
    pub id: String,
    pub family: String,
    pub title: String,
    pub guidance: String,
    /// An open or failed blocking item keeps the subject from being cleared.
    pub blocking: bool,
    pub applies_to: AppliesTo,
    pub hint: Option<HintRule>,
    /// Sources, the date the item rests on, and how well it was verified.
    pub provenance: Provenance,
}

/// Accelerators under an export control, and the item their use flags.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ControlledAccelerators {
    /// Accelerator ids of the catalog.
    pub accelerators: Vec<String>,
    /// The classification, e.g. `3A090.a`.
    pub eccn: String,
    pub item: String,
    /// Flag wherever the layer runs, not only in a restricted destination.
    pub anywhere: bool,
    pub provenance: Provenance,
}

/// A destination that controlled accelerators may not reach without a licence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RestrictedDestination {
    pub id: String,
    pub name: String,
    /// Words or phrases that identify the destination in a region text (see [`region_matches`]).
    pub matches: Vec<String>,
    pub provenance: Provenance,
}

/// A loaded checklist template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChecklistTemplate {
    pub file: String,
    pub format: u32,
    pub version: String,
    pub title: String,
    pub families: Vec<Family>,
    pub items: Vec<TemplateItem>,
    pub controlled: Vec<ControlledAccelerators>,
    pub destinations: Vec<RestrictedDestination>,
}

impl ChecklistTemplate {
    pub fn item(&self, id: &str) -> Option<&TemplateItem> {
        self.items.iter().find(|i| i.id == id)
    }

    /// The items answered for a subject of this kind.
    pub fn items_for(&self, kind: SubjectKind) -> impl Iterator<Item = &TemplateItem> {
        self.items.iter().filter(move |i| {
            matches!(
                (i.applies_to, kind),
                (AppliesTo::Both, _)
                    | (AppliesTo::Scenario, SubjectKind::Scenario)
                    | (AppliesTo::Vendor, SubjectKind::Vendor)
            )
        })
    }

    /// Controlled accelerator ids that `catalog` does not know (a typo, or a catalog without them).
    pub fn unknown_accelerators(&self, catalog: &crate::catalog::Catalog) -> Vec<String> {
        self.controlled
            .iter()
            .flat_map(|c| c.accelerators.iter())
            .filter(|a| catalog.accelerator(a).is_none())
            .cloned()
            .collect()
    }
}

// ----- loading ---------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeader {
    format: u32,
    version: String,
    title: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFamily {
    id: Spanned<String>,
    title: String,
    gap: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    id: Spanned<String>,
    family: Spanned<String>,
    title: String,
    guidance: Spanned<String>,
    blocking: bool,
    applies_to: AppliesTo,
    hint: Option<HintRule>,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawControlled {
    accelerators: Spanned<Vec<String>>,
    eccn: String,
    item: Spanned<String>,
    #[serde(default)]
    anywhere: bool,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDestination {
    id: Spanned<String>,
    name: String,
    matches: Spanned<Vec<String>>,
    src: Option<Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    note: Option<String>,
}

const TABLES: [&str; 6] = [
    "checklist",
    "sources",
    "family",
    "item",
    "controlled_accelerator",
    "restricted_destination",
];

/// Provenance of an entry: its `src` and `conf` are required, `as_of` defaults to the latest
/// source date, as for catalog entries.
fn provenance(
    ctx: &mut Ctx<'_>,
    path: &str,
    at: &Range<usize>,
    src: Option<&Spanned<SrcList>>,
    conf: Option<Confidence>,
    as_of: Option<AsOf>,
    note: Option<String>,
) -> Option<Provenance> {
    let Some(list) = src else {
        ctx.push(
            at,
            &format!("{path}.src"),
            IssueKind::MissingProvenance,
            "give the entry's source: `src = \"source-id\"` (or a list)",
        );
        return None;
    };
    let sources: Vec<Source> = ctx.resolve_sources(&format!("{path}.src"), list)?;
    let Some(confidence) = conf else {
        ctx.push(
            at,
            &format!("{path}.conf"),
            IssueKind::MissingProvenance,
            "give the entry's confidence: `conf = \"primary\"`, \"secondary\" or \"estimate\"",
        );
        return None;
    };
    let as_of = as_of.or_else(|| sources.iter().map(|s| s.as_of).max())?;
    Some(Provenance {
        sources,
        as_of,
        confidence,
        note,
    })
}

/// Records a duplicate id, or remembers where the id was first given.
fn unique(ctx: &mut Ctx<'_>, seen: &mut BTreeMap<String, u32>, what: &str, path: &str, id: &Spanned<String>) -> bool {
    if let Some(first) = seen.get(id.get_ref()) {
        let message = format!(
            "{what} id `{}` is already used on line {first}; ids must be unique",
            id.get_ref()
        );
        ctx.push(&id.span(), &format!("{path}.id"), IssueKind::DuplicateId, message);
        return false;
    }
    let (line, _) = ctx.lines.line_col(ctx.text, id.span().start);
    seen.insert(id.get_ref().clone(), line);
    true
}

/// The array of tables `key`, or none; a plain table in its place is reported.
fn entries<'a, 'd>(ctx: &mut Ctx<'_>, table: &'a DeTable<'d>, key: &str) -> Vec<&'a Spanned<DeValue<'d>>> {
    let Some(value) = table.get(key) else { return Vec::new() };
    match value.get_ref().as_array() {
        Some(items) => items.iter().collect(),
        None => {
            ctx.push(
                &value.span(),
                key,
                IssueKind::WrongType,
                format!("write each entry as [[{key}]] (double brackets)"),
            );
            Vec::new()
        }
    }
}

/// Whether a family without items is refused ([`parse_template`]) or read, for a copy a workspace
/// kept from an earlier template ([`parse_kept_template`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EmptyFamilies {
    Refused,
    Read,
}

/// Parses and checks a checklist template; every problem is reported, located, at once. A
/// family with no `[[item]]` is refused: add an item to it or remove it.
pub fn parse_template(file: &str, text: &str) -> Result<ChecklistTemplate, CatalogError> {
    parse(file, text, EmptyFamilies::Refused)
}

/// Parses the copy of a template a workspace kept with its checklist record. Checked as
/// [`parse_template`] does, except that a family without items is read: templates shipped
/// before version 2026.11.1 had such families (each with a `gap` note), and answers given against
/// one are still judged by the items the reviewer saw.
pub fn parse_kept_template(file: &str, text: &str) -> Result<ChecklistTemplate, CatalogError> {
    parse(file, text, EmptyFamilies::Read)
}

fn parse(file: &str, text: &str, empty: EmptyFamilies) -> Result<ChecklistTemplate, CatalogError> {
    let (mut ctx, root) = open_toml(file, text)?;
    let table = root.get_ref();
    let Some(header) = template_header(&mut ctx, table) else {
        return Err(CatalogError { issues: ctx.issues });
    };
    unknown_tables(&mut ctx, table);
    ctx.read_sources(table);
    let located = read_families(&mut ctx, table);
    if empty == EmptyFamilies::Refused {
        empty_families(&mut ctx, table, &located);
    }
    let families: Vec<Family> = located.into_iter().map(|(f, _)| f).collect();
    let (items, broken_items) = read_items(&mut ctx, table, &families);
    let controlled = read_controlled(&mut ctx, table, &items, &broken_items);
    let destinations = read_destinations(&mut ctx, table);
    if ctx.issues.is_empty() {
        Ok(ChecklistTemplate {
            file: file.to_owned(),
            format: header.format,
            version: header.version,
            title: header.title,
            families,
            items,
            controlled,
            destinations,
        })
    } else {
        Err(CatalogError { issues: ctx.issues })
    }
}

/// The template's `[checklist]` header, in a format this app reads; `None` (the problem
/// reported) otherwise.
fn template_header(ctx: &mut Ctx<'_>, table: &DeTable<'_>) -> Option<RawHeader> {
    let Some(header_value) = table.get("checklist") else {
        ctx.push(
            &(0..0),
            "checklist",
            IssueKind::BadHeader,
            "the file has no [checklist] table; start it with [checklist] giving format, version and title",
        );
        return None;
    };
    let header = ctx.de::<RawHeader>("checklist", header_value)?;
    if header.format == 0 || header.format > TEMPLATE_FORMAT {
        ctx.push(
            &header_value.span(),
            "checklist.format",
            IssueKind::UnsupportedFormat,
            format!(
                "this app reads checklist format {TEMPLATE_FORMAT}; the file says {}",
                header.format
            ),
        );
        return None;
    }
    Some(header)
}

/// Reports every top-level table a checklist template may not hold.
fn unknown_tables(ctx: &mut Ctx<'_>, table: &DeTable<'_>) {
    for (key, _) in table.iter() {
        let k = key.get_ref().as_ref();
        if !TABLES.contains(&k) {
            ctx.push(
                &key.span(),
                k,
                IssueKind::UnknownField,
                format!("a checklist template has no `{k}` table; it may hold [checklist], [sources.*], [[family]], [[item]], [[controlled_accelerator]] and [[restricted_destination]]"),
            );
        }
    }
}

/// Where a family was given: its entry's path (`family[2]`) and the span of its id.
type FamilyAt = (String, Range<usize>);

/// The `[[family]]` entries, each id once, with where each was given.
fn read_families(ctx: &mut Ctx<'_>, table: &DeTable<'_>) -> Vec<(Family, FamilyAt)> {
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for (i, value) in entries(ctx, table, "family").into_iter().enumerate() {
        let path = format!("family[{i}]");
        let Some(raw) = ctx.de::<RawFamily>(&path, value) else {
            continue;
        };
        if unique(ctx, &mut seen, "family", &path, &raw.id) {
            let at = raw.id.span();
            out.push((
                Family {
                    id: raw.id.into_inner(),
                    title: raw.title,
                    gap: raw.gap,
                },
                (path, at),
            ));
        }
    }
    out
}

/// The family ids the `[[item]]` entries name, read from the raw table: an item refused for
/// another reason (its own problem is reported) still counts for its family.
fn named_families(table: &DeTable<'_>) -> BTreeSet<String> {
    let Some(items) = table.get("item").and_then(|v| v.get_ref().as_array()) else {
        return BTreeSet::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let family = item.get_ref().as_table()?.get("family")?;
            family.get_ref().as_str().map(str::to_owned)
        })
        .collect()
}

/// Reports every family no `[[item]]` names, on the line of its id.
fn empty_families(ctx: &mut Ctx<'_>, table: &DeTable<'_>, families: &[(Family, FamilyAt)]) {
    let named = named_families(table);
    for (family, (path, at)) in families.iter().filter(|(f, _)| !named.contains(&f.id)) {
        let id = &family.id;
        let gap = if family.gap.is_some() {
            " (a `gap` note does not stand in for items)"
        } else {
            ""
        };
        ctx.push(
            at,
            &format!("{path}.id"),
            IssueKind::MissingField,
            format!(
                "family `{id}` has no items{gap}; add at least one item to family `{id}` (an [[item]] with `family = \"{id}\"`) or remove the family"
            ),
        );
    }
}

/// The `[[item]]` entries: each id once, in a known family, with guidance and provenance. Also
/// the ids of items that failed their own checks: a reference to one of them is not reported
/// again.
fn read_items(ctx: &mut Ctx<'_>, table: &DeTable<'_>, families: &[Family]) -> (Vec<TemplateItem>, BTreeSet<String>) {
    let family_ids: BTreeSet<String> = families.iter().map(|f| f.id.clone()).collect();
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for (i, value) in entries(ctx, table, "item").into_iter().enumerate() {
        let path = format!("item[{i}]");
        let Some(raw) = ctx.de::<RawItem>(&path, value) else {
            continue;
        };
        let mut ok = unique(ctx, &mut seen, "item", &path, &raw.id);
        if !family_ids.contains(raw.family.get_ref()) {
            let known: Vec<&str> = family_ids.iter().map(String::as_str).collect();
            let message = format!(
                "no [[family]] has id `{}`; use one of: {}",
                raw.family.get_ref(),
                known.join(", ")
            );
            ctx.push(
                &raw.family.span(),
                &format!("{path}.family"),
                IssueKind::UnknownValue,
                message,
            );
            ok = false;
        }
        if raw.guidance.get_ref().trim().is_empty() {
            ctx.push(
                &raw.guidance.span(),
                &format!("{path}.guidance"),
                IssueKind::MissingField,
                "the guidance is empty: say what to check and what to record",
            );
            ok = false;
        }
        let prov = provenance(
            ctx,
            &path,
            &raw.id.span(),
            raw.src.as_ref(),
            raw.conf,
            raw.as_of,
            raw.note,
        );
        if let (true, Some(provenance)) = (ok, prov) {
            out.push(TemplateItem {
                id: raw.id.into_inner(),
                family: raw.family.into_inner(),
                title: raw.title,
                guidance: raw.guidance.into_inner(),
                blocking: raw.blocking,
                applies_to: raw.applies_to,
                hint: raw.hint,
                provenance,
            });
        }
    }
    let item_ids: BTreeSet<String> = out.iter().map(|i: &TemplateItem| i.id.clone()).collect();
    let broken_items: BTreeSet<String> = seen.keys().filter(|k| !item_ids.contains(*k)).cloned().collect();
    (out, broken_items)
}

/// The `[[controlled_accelerator]]` entries: at least one accelerator each, and the item that
/// checks them.
fn read_controlled(
    ctx: &mut Ctx<'_>,
    table: &DeTable<'_>,
    items: &[TemplateItem],
    broken_items: &BTreeSet<String>,
) -> Vec<ControlledAccelerators> {
    let item_ids: BTreeSet<String> = items.iter().map(|i| i.id.clone()).collect();
    let mut out = Vec::new();
    for (i, value) in entries(ctx, table, "controlled_accelerator").into_iter().enumerate() {
        let path = format!("controlled_accelerator[{i}]");
        let Some(raw) = ctx.de::<RawControlled>(&path, value) else {
            continue;
        };
        let mut ok = true;
        if raw.accelerators.get_ref().is_empty() {
            ctx.push(
                &raw.accelerators.span(),
                &format!("{path}.accelerators"),
                IssueKind::MissingField,
                "list at least one accelerator id",
            );
            ok = false;
        }
        if !item_ids.contains(raw.item.get_ref()) {
            if !broken_items.contains(raw.item.get_ref()) {
                let message = format!("no [[item]] has id `{}`", raw.item.get_ref());
                ctx.push(
                    &raw.item.span(),
                    &format!("{path}.item"),
                    IssueKind::UnknownReference,
                    message,
                );
            }
            ok = false;
        }
        let at = raw.item.span();
        let prov = provenance(ctx, &path, &at, raw.src.as_ref(), raw.conf, raw.as_of, raw.note);
        if let (true, Some(provenance)) = (ok, prov) {
            out.push(ControlledAccelerators {
                accelerators: raw.accelerators.into_inner(),
                eccn: raw.eccn,
                item: raw.item.into_inner(),
                anywhere: raw.anywhere,
                provenance,
            });
        }
    }
    out
}

/// The `[[restricted_destination]]` entries: each id once, with at least one word that names
/// the destination.
fn read_destinations(ctx: &mut Ctx<'_>, table: &DeTable<'_>) -> Vec<RestrictedDestination> {
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for (i, value) in entries(ctx, table, "restricted_destination").into_iter().enumerate() {
        let path = format!("restricted_destination[{i}]");
        let Some(raw) = ctx.de::<RawDestination>(&path, value) else {
            continue;
        };
        let mut ok = unique(ctx, &mut seen, "restricted destination", &path, &raw.id);
        if raw.matches.get_ref().iter().all(|m| normalise(m).trim().is_empty()) {
            ctx.push(
                &raw.matches.span(),
                &format!("{path}.matches"),
                IssueKind::MissingField,
                "list at least one word that names the destination in a region",
            );
            ok = false;
        }
        let prov = provenance(
            ctx,
            &path,
            &raw.id.span(),
            raw.src.as_ref(),
            raw.conf,
            raw.as_of,
            raw.note,
        );
        if let (true, Some(provenance)) = (ok, prov) {
            out.push(RestrictedDestination {
                id: raw.id.into_inner(),
                name: raw.name,
                matches: raw.matches.into_inner(),
                provenance,
            });
        }
    }
    out
}

// ----- answers, sign-off, clearance ------------------------------------------------------------

/// A reviewer's answer on one item, as entered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AnswerInput {
    pub item: String,
    pub status: ItemStatus,
    #[serde(default)]
    pub note: String,
    pub reviewer: String,
}

/// The state of one item for one subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum ItemStatus {
    Open,
    Pass,
    Fail,
    NotApplicable,
}

/// A file attached as evidence; the file itself is stored inside the workspace by the store,
/// the core keeps its name, digest and size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Evidence {
    pub name: String,
    /// Lowercase hex SHA-256 of the file's bytes.
    pub sha256: String,
    /// Bytes (typed as a number in TypeScript: exact to 2^53, far above any evidence file).
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub size: u64,
}

/// A reviewer's answer on one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Answer {
    pub item: String,
    pub status: ItemStatus,
    #[serde(default)]
    pub note: String,
    #[serde(default)]
    pub evidence: Vec<Evidence>,
    pub reviewer: String,
    /// When the answer was given, as stamped by the caller.
    pub at: String,
}

/// Whether a checklist is about a scenario or a vendor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum SubjectKind {
    Scenario,
    Vendor,
}

/// What a checklist is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
// Named for the IPC bindings as what it is, a checklist's subject (a placed problem's place is a
// `ProblemPlace`); serde's container name does not change the JSON.
#[serde(rename = "ChecklistSubject")]
#[serde(tag = "kind", content = "id", rename_all = "kebab-case")]
pub enum Subject {
    /// A scenario, by its id in the plan.
    Scenario(String),
    /// A vendor, by name.
    Vendor(String),
}

impl Subject {
    pub fn kind(&self) -> SubjectKind {
        match self {
            Subject::Scenario(_) => SubjectKind::Scenario,
            Subject::Vendor(_) => SubjectKind::Vendor,
        }
    }

    /// The subject as one text, `scenario:<id>` or `vendor:<name>` (the audit log's `subject`).
    pub fn key(&self) -> String {
        match self {
            Subject::Scenario(id) => format!("scenario:{id}"),
            Subject::Vendor(name) => format!("vendor:{name}"),
        }
    }
}

/// A reviewer's sign-off on the answers as they stood.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SignOff {
    pub reviewer: String,
    pub at: String,
    #[serde(default)]
    pub note: String,
    /// [`answers_digest`] of the answers signed; an answer changed afterwards voids the sign-off.
    pub answers_sha256: String,
    /// The reviewer's signature over [`signoff_content`], when the sign-off was signed with a
    /// key; absent for a sign-off attributed by name only.
    #[serde(default)]
    pub signature: Option<SignOffSignature>,
}

/// A detached CMS signature (SHA-256, the signer's certificate inside) over a sign-off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SignOffSignature {
    /// The CMS SignedData, DER, lowercase hex.
    pub cms_hex: String,
    /// The signer as the certificate names it ("CN, O"), recorded for reading; verification
    /// takes it from the certificate inside `cms_hex` and compares.
    pub signer: String,
    /// SHA-256 of the signer's certificate (DER), lowercase hex.
    pub certificate_sha256: String,
}

/// The bytes a sign-off's signature covers: the canonical JSON of the subject's key and every
/// field of the sign-off but the signature (reviewer, time, note, answers digest).
pub fn signoff_content(subject: &Subject, signoff: &SignOff) -> Vec<u8> {
    let value = serde_json::json!({
        "subject": subject.key(),
        "reviewer": signoff.reviewer,
        "at": signoff.at,
        "note": signoff.note,
        "answers_sha256": signoff.answers_sha256,
    });
    crate::compliance::audit::canonical_json(&value).into_bytes()
}

/// The checklist of one subject.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Checklist {
    pub subject: Subject,
    /// Answers in the order given; for an item answered more than once the last one is in force.
    pub answers: Vec<Answer>,
    pub signoff: Option<SignOff>,
}

impl Checklist {
    pub fn new(subject: Subject) -> Checklist {
        Checklist {
            subject,
            answers: Vec::new(),
            signoff: None,
        }
    }

    /// Signs the answers as they stand now.
    pub fn sign(&mut self, reviewer: &str, at: &str, note: &str) -> SignOff {
        let signoff = SignOff {
            reviewer: reviewer.to_owned(),
            at: at.to_owned(),
            note: note.to_owned(),
            answers_sha256: answers_digest(&self.answers),
            signature: None,
        };
        self.signoff = Some(signoff.clone());
        signoff
    }

    pub fn clearance(&self, template: &ChecklistTemplate) -> Clearance {
        clearance(template, self.subject.kind(), &self.answers, self.signoff.as_ref())
    }
}

/// The answer in force for each item: the last one given.
pub fn answers_in_force(answers: &[Answer]) -> BTreeMap<&str, &Answer> {
    answers.iter().map(|a| (a.item.as_str(), a)).collect()
}

/// SHA-256 (lowercase hex) of the answers in force, sorted by item id, each as the canonical JSON
/// of [`crate::compliance::audit::canonical_json`]; what a sign-off covers.
pub fn answers_digest(answers: &[Answer]) -> String {
    let in_force: Vec<&Answer> = answers_in_force(answers).into_values().collect();
    let value = serde_json::to_value(&in_force).unwrap_or(serde_json::Value::Null);
    hex(&Sha256::digest(
        crate::compliance::audit::canonical_json(&value).as_bytes(),
    ))
}

/// The checklist changes the log records, as typed payloads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "change", rename_all = "kebab-case")]
pub enum ChecklistChange {
    /// An item's answer was set (status, note, evidence).
    Answer { answer: Answer },
    /// The checklist was signed off.
    SignOff { signoff: SignOff },
    /// A sign-off was withdrawn.
    RevokeSignOff { reason: String },
}

impl ChecklistChange {
    /// The action name: `answer`, `sign-off` or `revoke-sign-off`.
    pub fn action(&self) -> &'static str {
        match self {
            ChecklistChange::Answer { .. } => "answer",
            ChecklistChange::SignOff { .. } => "sign-off",
            ChecklistChange::RevokeSignOff { .. } => "revoke-sign-off",
        }
    }

    /// The entry that records this change on `subject`.
    pub fn entry(&self, subject: &Subject, actor: &str, at: &str) -> NewEntry {
        let mut payload = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        // The log records a sign-off by name only without a `signature` key, as it always has; the
        // wire form (`null`) is not what is hashed into the chain.
        if let Some(signoff) = payload.get_mut("signoff").and_then(serde_json::Value::as_object_mut)
            && signoff.get("signature").is_some_and(serde_json::Value::is_null)
        {
            signoff.remove("signature");
        }
        NewEntry {
            at: at.to_owned(),
            actor: actor.to_owned(),
            action: self.action().to_owned(),
            subject: subject.key(),
            payload,
        }
    }
}

/// Whether a subject is cleared, and why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Clearance {
    pub cleared: bool,
    /// Blocking items that apply and are open (or unanswered), in template order.
    pub blocking_open: Vec<String>,
    /// Blocking items that apply and failed, in template order.
    pub blocking_failed: Vec<String>,
    /// A sign-off is present, names a reviewer and covers the answers in force.
    pub signed_off: bool,
    /// Answers naming an item the template does not have (ignored by the rule).
    pub unknown_items: Vec<String>,
}

/// The cleared rule. Among the template's items that apply to a subject of `kind`, every
/// blocking item must have an answer in force (the last one given) of `pass` or
/// `not-applicable`; an unanswered item counts as open. And the checklist must be signed off:
/// a sign-off with a non-empty reviewer whose `answers_sha256` equals [`answers_digest`] of
/// `answers` (so any answer changed after signing voids it). Non-blocking items do not count.
/// `cleared` is true only when both hold.
pub fn clearance(
    template: &ChecklistTemplate,
    kind: SubjectKind,
    answers: &[Answer],
    signoff: Option<&SignOff>,
) -> Clearance {
    let in_force = answers_in_force(answers);
    let mut blocking_open = Vec::new();
    let mut blocking_failed = Vec::new();
    for item in template.items_for(kind).filter(|i| i.blocking) {
        match in_force.get(item.id.as_str()).map(|a| a.status) {
            Some(ItemStatus::Pass | ItemStatus::NotApplicable) => {}
            Some(ItemStatus::Fail) => blocking_failed.push(item.id.clone()),
            Some(ItemStatus::Open) | None => blocking_open.push(item.id.clone()),
        }
    }
    let unknown_items = in_force
        .keys()
        .filter(|k| template.item(k).is_none())
        .map(|k| (*k).to_owned())
        .collect();
    let signed_off =
        signoff.is_some_and(|s| !s.reviewer.trim().is_empty() && s.answers_sha256 == answers_digest(answers));
    Clearance {
        cleared: blocking_open.is_empty() && blocking_failed.is_empty() && signed_off,
        blocking_open,
        blocking_failed,
        signed_off,
        unknown_items,
    }
}

// ----- hints -----------------------------------------------------------------------------------

/// An item the plan's data flags for a closer look.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Hint {
    pub item: String,
    /// The layer the hint is about.
    pub layer: String,
    pub message: String,
}

/// Lowercases and turns every run of non-alphanumeric characters into one space, padded with a
/// space at both ends, so that a phrase can be matched on word boundaries.
fn normalise(text: &str) -> String {
    let mut out = String::from(" ");
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// Whether a region text names the destination: one of its `matches` occurs in the region as
/// whole words, case-insensitively (`cn-north-1` and `China East 2` match `cn` and `china`;
/// `us-east-1` does not).
pub fn region_matches(destination: &RestrictedDestination, region: &str) -> bool {
    let hay = normalise(region);
    destination
        .matches
        .iter()
        .map(|m| normalise(m))
        .any(|m| m.trim() != "" && hay.contains(&m))
}

/// A scenario's energy and emissions over the horizon, as its evaluation totals them: what the
/// energy hint states. The caller evaluates; [`hints`] does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnergyUse {
    /// All energy, kWh: owned hardware at its facility plus rented layers (estimated).
    pub kwh: Decimal,
    /// All emissions, kg CO2e.
    pub kg_co2e: Decimal,
    /// The part of `kwh` and `kg_co2e` that rented layers account for: an estimate made from
    /// catalog power, the provider's PUE and the region's grid intensity, not provider data.
    pub rented_kwh: Decimal,
    pub rented_kg_co2e: Decimal,
}

impl EnergyUse {
    /// The energy figures of an evaluated scenario's totals.
    pub fn of(totals: &Totals) -> EnergyUse {
        EnergyUse {
            kwh: totals.energy_kwh,
            kg_co2e: totals.emissions_kg,
            rented_kwh: totals.cloud_energy_kwh,
            rented_kg_co2e: totals.cloud_emissions_kg,
        }
    }
}

/// `x` rounded (half to even) to `dp` decimals, thousands grouped: `822,693` or `302.8`.
fn grouped_quantity(x: Decimal, dp: u32) -> String {
    let text = x.round_dp(dp).abs().to_string();
    let (whole, frac) = text.split_once('.').map_or((text.as_str(), ""), |(w, f)| (w, f));
    let mut out = String::with_capacity(text.len() + whole.len() / 3 + 2);
    if x.round_dp(dp) < Decimal::ZERO {
        out.push('-');
    }
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    let want = usize::try_from(dp).unwrap_or(0);
    if want > 0 {
        out.push('.');
        out.push_str(frac);
        out.extend(std::iter::repeat_n('0', want.saturating_sub(frac.len())));
    }
    out
}

/// The items whose `hint` is `rule`, each flagged for `layer` with `message`.
fn flag(out: &mut Vec<Hint>, template: &ChecklistTemplate, rule: HintRule, layer: &str, message: &str) {
    for item in template.items.iter().filter(|i| i.hint == Some(rule)) {
        out.push(Hint {
            item: item.id.clone(),
            layer: layer.to_owned(),
            message: message.to_owned(),
        });
    }
}

/// Export control: the layer's accelerator in a controlled group, in a restricted destination
/// (or anywhere, for a group that says so).
fn export_hints(out: &mut Vec<Hint>, template: &ChecklistTemplate, layer: &Layer) {
    let Some(acc) = &layer.accelerator else { return };
    for group in template.controlled.iter().filter(|g| g.accelerators.contains(acc)) {
        if group.anywhere {
            out.push(Hint {
                item: group.item.clone(),
                layer: layer.id.clone(),
                message: format!(
                    "layer `{}` uses `{acc}` ({}), flagged wherever it runs{}",
                    layer.id,
                    group.eccn,
                    layer
                        .region
                        .as_ref()
                        .map(|r| format!(" (here: `{r}`)"))
                        .unwrap_or_default()
                ),
            });
            continue;
        }
        let Some(region) = &layer.region else { continue };
        for dest in template.destinations.iter().filter(|d| region_matches(d, region)) {
            out.push(Hint {
                item: group.item.clone(),
                layer: layer.id.clone(),
                message: format!(
                    "layer `{}` puts `{acc}` ({}) in `{region}`, which is in the restricted destination {} (`{}`)",
                    layer.id, group.eccn, dest.name, dest.id
                ),
            });
        }
    }
}

/// Data residency: sensitive data the layer may serve, outside the region it must stay in.
fn residency_hints(out: &mut Vec<Hint>, template: &ChecklistTemplate, workloads: &[Workload], layer: &Layer) {
    let Some(have) = &layer.region else { return };
    for (k, w) in workloads.iter().enumerate() {
        let served = layer.serves.as_ref().is_none_or(|s| s.contains(&k));
        let sensitive = matches!(
            w.data_classification,
            DataClassification::Confidential | DataClassification::Restricted
        );
        let Some(want) = &w.region else { continue };
        if served && sensitive && !have.starts_with(want.as_str()) {
            let message = format!(
                "layer `{}` runs in `{have}` and may serve workload `{}`, whose {:?} data must stay in `{want}`",
                layer.id, w.id, w.data_classification
            );
            flag(out, template, HintRule::DataResidency, &layer.id, &message);
        }
    }
}

/// Disposal: hardware the layer owns and does not lease.
fn owned_hints(out: &mut Vec<Hint>, template: &ChecklistTemplate, layer: &Layer) {
    let Some(owned) = &layer.owned else { return };
    let how = match owned.financing {
        Financing::Lease { .. } => return,
        Financing::Cash => "bought for cash",
        Financing::Loan { .. } => "bought on a loan",
    };
    let acc = layer.accelerator.as_deref().unwrap_or("its accelerator");
    let mut message = format!(
        "this scenario owns {} GPUs of `{acc}` (layer `{}`, {how}): disposal applies to them and their servers' drives",
        owned.gpus, layer.id
    );
    if owned.residual_share > Decimal::ZERO {
        message.push_str(&format!(
            "; the plan sells them at the horizon for {}% of their price, so the resale duties apply too",
            grouped_quantity(owned.residual_share * Decimal::ONE_HUNDRED, 1)
        ));
    }
    flag(out, template, HintRule::OwnedHardware, &layer.id, &message);
}

/// Exit terms: a commitment (reserved capacity, leased hardware) with no exit clause.
fn exit_hints(out: &mut Vec<Hint>, template: &ChecklistTemplate, layer: &Layer) {
    if layer.exit_clause.is_some() {
        return;
    }
    let acc = layer.accelerator.as_deref().unwrap_or("its accelerator");
    let what = match (layer.kind, layer.owned.as_ref().map(|o| (o.gpus, o.financing))) {
        (LayerKind::Reserved, _) => {
            let gpus = layer
                .gpus
                .map_or_else(|| "reserved GPUs".to_owned(), |g| format!("{g} reserved GPUs"));
            let term = layer
                .until_month
                .map(|u| format!(" for {} months", u.saturating_sub(layer.from_month)))
                .unwrap_or_default();
            format!("{gpus} of `{acc}`{term}")
        }
        (LayerKind::Owned, Some((gpus, Financing::Lease { term_months, .. }))) => {
            format!("a {term_months}-month lease of {gpus} GPUs of `{acc}`")
        }
        _ => return,
    };
    let message = format!(
        "layer `{}` commits to {what} with no exit clause priced: enter its notice, termination fee, egress and offboarding as the layer's exit clause",
        layer.id
    );
    flag(out, template, HintRule::UnpricedExit, &layer.id, &message);
}

/// Energy: the scenario's totals, with the rented part and the rented layers left out of them.
fn energy_hints(out: &mut Vec<Hint>, template: &ChecklistTemplate, scenario: &Scenario, energy: &EnergyUse) {
    let tonnes = |kg: Decimal| grouped_quantity(kg / Decimal::ONE_THOUSAND, 1);
    let mut message = format!(
        "this scenario uses {} kWh and {} t CO2e over the horizon",
        grouped_quantity(energy.kwh, 0),
        tonnes(energy.kg_co2e)
    );
    if !energy.rented_kwh.is_zero() || !energy.rented_kg_co2e.is_zero() {
        message.push_str(&format!(
            " (of which rented, an estimate from catalog power, provider PUE and grid intensity, not provider data: {} kWh and {} t CO2e)",
            grouped_quantity(energy.rented_kwh, 0),
            tonnes(energy.rented_kg_co2e)
        ));
    }
    let missing: Vec<String> = scenario
        .layers
        .iter()
        .filter(|l| l.kind != LayerKind::Owned && l.cloud_energy.is_none())
        .map(|l| format!("`{}`", l.id))
        .collect();
    if !missing.is_empty() {
        message.push_str(&format!(
            "; not counted: rented layer(s) {} with no energy estimate (see the scenario's warnings)",
            missing.join(", ")
        ));
    }
    flag(out, template, HintRule::EnergyUse, "", &message);
}

/// Hints for one scenario, from its layers, the plan's workloads and, when the caller evaluated
/// the scenario, its energy (see the module doc for what cannot be derived):
/// - export control: a layer whose accelerator is in a `[[controlled_accelerator]]` group flags
///   the group's item when the layer's region names a restricted destination, or wherever it
///   runs when the group says `anywhere`;
/// - data residency: a layer serving a workload with confidential or restricted data, in a region
///   that does not start with the workload's required region (the rule `validate` warns on),
///   flags every item whose `hint` is `data-residency`;
/// - owned hardware: a layer owning hardware bought for cash or on a loan (not leased) flags every
///   item whose `hint` is `owned-hardware`, with the GPU count, the accelerator and, when the plan
///   sells the hardware at the horizon, its residual share;
/// - unpriced exit: a reserved layer, or an owned layer on a lease, without an `exit_clause` flags
///   every item whose `hint` is `unpriced-exit`;
/// - energy: with `energy`, every item whose `hint` is `energy-use` is flagged once for the whole
///   scenario (its `layer` is empty) with the kWh and t CO2e over the horizon, the rented part
///   (an estimate) and the rented layers without an estimate. Without it, no energy hint.
pub fn hints(
    template: &ChecklistTemplate,
    workloads: &[Workload],
    scenario: &Scenario,
    energy: Option<&EnergyUse>,
) -> Vec<Hint> {
    let mut out = Vec::new();
    for layer in &scenario.layers {
        export_hints(&mut out, template, layer);
        residency_hints(&mut out, template, workloads, layer);
        owned_hints(&mut out, template, layer);
        exit_hints(&mut out, template, layer);
    }
    if let Some(energy) = energy
        && !scenario.layers.is_empty()
    {
        energy_hints(&mut out, template, scenario, energy);
    }
    out
}

/// The located issues of a template, for callers that only want the list.
pub fn template_issues(file: &str, text: &str) -> Vec<CatalogIssue> {
    parse_template(file, text).err().map(|e| e.issues).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn quantities_are_rounded_and_grouped() {
        assert_eq!(grouped_quantity(dec!(822692.6), 0), "822,693");
        assert_eq!(grouped_quantity(dec!(302.84), 1), "302.8");
        assert_eq!(grouped_quantity(dec!(302), 1), "302.0");
        assert_eq!(grouped_quantity(dec!(1234567.25), 1), "1,234,567.2");
        assert_eq!(grouped_quantity(dec!(-1500), 0), "-1,500");
        assert_eq!(grouped_quantity(Decimal::ZERO, 0), "0");
    }
}
