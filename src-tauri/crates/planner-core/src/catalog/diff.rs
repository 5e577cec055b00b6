//! What a new catalog changes against the one in use, and how old each figure is.
//!
//! [`diff`] compares two catalogs entry by entry (entries are matched by kind and id): entries
//! added and removed, and for each entry in both, every figure whose range, date or sources moved
//! (old → new with both sides' sources and dates) and every descriptive field that changed.
//!
//! [`Freshness`] weighs a figure's as-of date against a threshold in months: cloud prices (the
//! `offers` catalog) against one, every other figure (hardware prices, specifications, facility,
//! fabrics, regions) against the other. A figure is stale when more whole months than the
//! threshold have passed since the last day its date can mean (`2026-05` counts from 31 May).

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Catalog;
use super::provenance::AsOf;

/// One figure's side of a change: its range, date and sources.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FigureSide {
    #[cfg_attr(feature = "specta", specta(type = String))]
    pub low: Decimal,
    #[cfg_attr(feature = "specta", specta(type = String))]
    pub high: Decimal,
    pub as_of: String,
    /// "title (date)" for each source.
    pub sources: Vec<String>,
}

/// A figure that differs between the two catalogs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FigureChange {
    /// The field inside the entry, e.g. `on_demand_per_gpu_hour` or `points[2].share`.
    pub field: String,
    pub old: Option<FigureSide>,
    pub new: Option<FigureSide>,
    /// Scenarios of the open workspace that keep their own value for this figure (an override
    /// or an RFP quote), which the new catalog does not replace: "your quote stays".
    pub kept: Vec<String>,
}

/// A descriptive field (name, notes, interconnect) that differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TextChange {
    pub field: String,
    pub old: String,
    pub new: String,
}

/// How an entry differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum EntryChangeKind {
    Added,
    Removed,
    Changed,
}

/// One catalog entry that differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EntryChange {
    /// The entry's kind, singular: `accelerator`, `offer`, `cooling`, `region`, ...
    pub kind: String,
    pub id: String,
    pub name: String,
    pub change: EntryChangeKind,
    /// For a changed entry, each figure that moved; for an added or removed one, its figures.
    pub figures: Vec<FigureChange>,
    pub texts: Vec<TextChange>,
}

/// Everything a new catalog changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogDiff {
    pub old_version: String,
    pub new_version: String,
    pub entries: Vec<EntryChange>,
    pub added: u32,
    pub removed: u32,
    pub changed: u32,
    /// Figures that moved in entries present in both catalogs.
    pub figures_changed: u32,
}

#[derive(Debug, Clone, PartialEq)]
enum Leaf {
    Figure(FigureSide),
    Text(String),
}

/// The kinds of entry a catalog holds, as (kind, path of its list in the serialised catalog).
const LISTS: [(&str, &[&str]); 14] = [
    ("accelerator", &["accelerators"]),
    ("offer", &["offers"]),
    ("fabric", &["fabrics"]),
    ("region", &["regions"]),
    ("resale", &["resale"]),
    ("cooling", &["facility", "cooling"]),
    ("upgrade", &["facility", "upgrades"]),
    ("colocation", &["facility", "colocation"]),
    ("system", &["facility", "systems"]),
    ("pue-benchmark", &["facility", "pue_benchmarks"]),
    ("lead-time", &["facility", "lead_times"]),
    ("tax-profile", &["tax_profiles"]),
    ("market-path", &["market_paths"]),
    ("resale-decay", &["resale_decays"]),
];

fn entries_of(catalog: &Catalog) -> Vec<(String, String, String, BTreeMap<String, Leaf>)> {
    let root = serde_json::to_value(catalog).unwrap_or(Value::Null);
    let mut out = Vec::new();
    for (kind, path) in &LISTS {
        let mut node = &root;
        for key in *path {
            node = node.get(key).unwrap_or(&Value::Null);
        }
        for item in node.as_array().into_iter().flatten() {
            let id = item.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
            let name = entry_name(kind, item, &id);
            let mut leaves = BTreeMap::new();
            if let Value::Object(map) = item {
                for (k, v) in map {
                    if k != "id" {
                        walk(k, v, &mut leaves);
                    }
                }
            }
            out.push(((*kind).to_owned(), id, name, leaves));
        }
    }
    out
}

fn entry_name(kind: &str, item: &Value, id: &str) -> String {
    let s = |k: &str| item.get(k).and_then(Value::as_str).map(str::to_owned);
    match kind {
        "offer" => match (s("provider"), s("sku")) {
            (Some(p), Some(sku)) => format!("{p} {sku}"),
            _ => id.to_owned(),
        },
        "colocation" => s("market").unwrap_or_else(|| id.to_owned()),
        "lead-time" => s("item").unwrap_or_else(|| id.to_owned()),
        "tax-profile" | "market-path" | "resale-decay" => s("title").unwrap_or_else(|| id.to_owned()),
        _ => s("name").unwrap_or_else(|| id.to_owned()),
    }
}

fn walk(path: &str, v: &Value, out: &mut BTreeMap<String, Leaf>) {
    if let Some(side) = as_figure(v) {
        out.insert(path.to_owned(), Leaf::Figure(side));
        return;
    }
    match v {
        Value::Null => {}
        Value::Object(map) if map.contains_key("sources") && map.contains_key("confidence") => {
            // A provenance of descriptive fields: compared by its date and sources.
            let (as_of, sources) = provenance_of(v);
            out.insert(
                path.to_owned(),
                Leaf::Text(format!("as of {as_of}; {}", sources.join("; "))),
            );
        }
        Value::Object(map) => {
            for (k, v) in map {
                walk(&format!("{path}.{k}"), v, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(&format!("{path}[{i}]"), v, out);
            }
        }
        Value::String(s) => {
            out.insert(path.to_owned(), Leaf::Text(s.clone()));
        }
        other => {
            out.insert(path.to_owned(), Leaf::Text(other.to_string()));
        }
    }
}

fn as_figure(v: &Value) -> Option<FigureSide> {
    let map = v.as_object()?;
    let dec = |k: &str| -> Option<Decimal> {
        match map.get(k)? {
            Value::String(s) => s.parse().ok(),
            Value::Number(n) => n.to_string().parse().ok(),
            _ => None,
        }
    };
    let provenance = map.get("provenance")?;
    let (as_of, sources) = provenance_of(provenance);
    Some(FigureSide {
        low: dec("low")?,
        high: dec("high")?,
        as_of,
        sources,
    })
}

fn provenance_of(p: &Value) -> (String, Vec<String>) {
    let as_of = p.get("as_of").and_then(Value::as_str).unwrap_or_default().to_owned();
    let sources = p
        .get("sources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|s| {
            let title = s.get("title").and_then(Value::as_str).unwrap_or_default();
            let date = s.get("as_of").and_then(Value::as_str).unwrap_or_default();
            format!("{title} ({date})")
        })
        .collect();
    (as_of, sources)
}

/// Every difference between `old` and `new`, entries in catalog order (old's, then new's added).
pub fn diff(old: &Catalog, new: &Catalog) -> CatalogDiff {
    let before = entries_of(old);
    let after = entries_of(new);
    let mut entries = Vec::new();
    let mut figures_changed = 0u32;
    for (kind, id, name, leaves) in &before {
        match after.iter().find(|(k, i, _, _)| k == kind && i == id) {
            None => entries.push(whole(kind, id, name, leaves, EntryChangeKind::Removed)),
            Some((_, _, new_name, new_leaves)) => {
                let (figures, texts) = compare(leaves, new_leaves);
                if !figures.is_empty() || !texts.is_empty() {
                    figures_changed += figures.len() as u32;
                    entries.push(EntryChange {
                        kind: kind.clone(),
                        id: id.clone(),
                        name: new_name.clone(),
                        change: EntryChangeKind::Changed,
                        figures,
                        texts,
                    });
                }
            }
        }
    }
    for (kind, id, name, leaves) in &after {
        if !before.iter().any(|(k, i, _, _)| k == kind && i == id) {
            entries.push(whole(kind, id, name, leaves, EntryChangeKind::Added));
        }
    }
    let count = |c: EntryChangeKind| entries.iter().filter(|e| e.change == c).count() as u32;
    CatalogDiff {
        old_version: super::pack::version_of(old),
        new_version: super::pack::version_of(new),
        added: count(EntryChangeKind::Added),
        removed: count(EntryChangeKind::Removed),
        changed: count(EntryChangeKind::Changed),
        figures_changed,
        entries,
    }
}

fn whole(kind: &str, id: &str, name: &str, leaves: &BTreeMap<String, Leaf>, change: EntryChangeKind) -> EntryChange {
    let figures = leaves
        .iter()
        .filter_map(|(field, leaf)| match leaf {
            Leaf::Figure(side) => Some(FigureChange {
                field: field.clone(),
                old: (change == EntryChangeKind::Removed).then(|| side.clone()),
                new: (change == EntryChangeKind::Added).then(|| side.clone()),
                kept: Vec::new(),
            }),
            Leaf::Text(_) => None,
        })
        .collect();
    EntryChange {
        kind: kind.to_owned(),
        id: id.to_owned(),
        name: name.to_owned(),
        change,
        figures,
        texts: Vec::new(),
    }
}

fn compare(old: &BTreeMap<String, Leaf>, new: &BTreeMap<String, Leaf>) -> (Vec<FigureChange>, Vec<TextChange>) {
    let mut figures = Vec::new();
    let mut texts = Vec::new();
    let fields: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for field in fields {
        let (a, b) = (old.get(field), new.get(field));
        if a == b {
            continue;
        }
        let figure = |l: Option<&Leaf>| match l {
            Some(Leaf::Figure(f)) => Some(f.clone()),
            _ => None,
        };
        let text = |l: Option<&Leaf>| match l {
            Some(Leaf::Text(t)) => Some(t.clone()),
            _ => None,
        };
        let (fa, fb) = (figure(a), figure(b));
        if fa.is_some() || fb.is_some() {
            figures.push(FigureChange {
                field: field.clone(),
                old: fa,
                new: fb,
                kept: Vec::new(),
            });
        } else {
            texts.push(TextChange {
                field: field.clone(),
                old: text(a).unwrap_or_default(),
                new: text(b).unwrap_or_default(),
            });
        }
    }
    (figures, texts)
}

/// The oldest a figure may be allowed to grow before it is marked stale, in months.
pub const MAX_FRESHNESS_MONTHS: u32 = 120;

/// How old a figure may be before it is marked stale, in months (1 to [`MAX_FRESHNESS_MONTHS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Freshness {
    /// Cloud prices (the offers catalog): 6 months by default, since rental prices moved by half
    /// within one year.
    pub cloud_months: u32,
    /// Hardware prices, specifications and every other figure: 12 months by default.
    pub other_months: u32,
}

impl Default for Freshness {
    fn default() -> Self {
        Freshness {
            cloud_months: 6,
            other_months: 12,
        }
    }
}

/// A figure older than its threshold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StaleFigure {
    pub kind: String,
    pub entry: String,
    pub name: String,
    pub field: String,
    pub as_of: String,
    pub age_months: u32,
    pub limit_months: u32,
}

/// Whole months from the last day `as_of` can mean to `today` (0 when `as_of` is not before).
pub fn age_months(as_of: AsOf, today: AsOf) -> u32 {
    let from = as_of.last_day();
    let to = today.last_day();
    let index = |d: AsOf| i64::from(d.year()) * 12 + i64::from(d.month().unwrap_or(12));
    let mut months = index(to) - index(from);
    // A month is whole once the same day of the month comes round, or the month's last day
    // when it is shorter (31 May to 30 June is one month).
    let month_end = format!("{:04}-{:02}", to.year(), to.month().unwrap_or(12))
        .parse::<AsOf>()
        .map(|m| m.last_day())
        .ok();
    if to.day() < from.day() && month_end != Some(to) {
        months -= 1;
    }
    u32::try_from(months.max(0)).unwrap_or(0)
}

impl Freshness {
    /// The threshold for a figure of `kind` (`offer` is a cloud price).
    pub fn limit_for(&self, kind: &str) -> u32 {
        if kind == "offer" {
            self.cloud_months
        } else {
            self.other_months
        }
    }

    /// The threshold for a figure of catalog entry `entry` (an id).
    pub fn limit_for_entry(&self, catalog: &Catalog, entry: &str) -> u32 {
        self.limit_for(if catalog.offers.iter().any(|o| o.id == entry) {
            "offer"
        } else {
            "other"
        })
    }

    /// Whether a figure dated `as_of` is stale on `today` under `limit` months.
    pub fn is_stale(as_of: &str, today: AsOf, limit: u32) -> Option<u32> {
        let date: AsOf = as_of.parse().ok()?;
        let age = age_months(date, today);
        (age > limit).then_some(age)
    }

    /// Every stale figure of `catalog` on `today`, in catalog order.
    pub fn stale_figures(&self, catalog: &Catalog, today: AsOf) -> Vec<StaleFigure> {
        let mut out = Vec::new();
        for (kind, id, name, leaves) in entries_of(catalog) {
            let limit = self.limit_for(&kind);
            for (field, leaf) in &leaves {
                if let Leaf::Figure(side) = leaf
                    && let Some(age) = Self::is_stale(&side.as_of, today, limit)
                {
                    out.push(StaleFigure {
                        kind: kind.clone(),
                        entry: id.clone(),
                        name: name.clone(),
                        field: field.clone(),
                        as_of: side.as_of.clone(),
                        age_months: age,
                        limit_months: limit,
                    });
                }
            }
        }
        out
    }
}
