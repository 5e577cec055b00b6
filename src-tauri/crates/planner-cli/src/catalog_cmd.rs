//! `planner catalog list` and `planner catalog check`.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::catalog::provenance::Figure;
use planner_core::catalog::{Catalog, CatalogKind};
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::market_shape::{Decay, PricePath};
use serde_json::json;

pub fn list(dir: &Path, kind: Option<CatalogKind>, as_json: bool) -> Result<String, PlannerError> {
    let catalog = planner_app::catalog::load(dir)?;
    if as_json {
        let value = match kind {
            None => serde_json::to_value(&catalog),
            Some(k) => kind_json(&catalog, k),
        }
        .map_err(|e| PlannerError::new(ErrorCode::InvalidInput, format!("cannot render JSON: {e}")))?;
        let mut text = serde_json::to_string_pretty(&value)
            .map_err(|e| PlannerError::new(ErrorCode::InvalidInput, format!("cannot render JSON: {e}")))?;
        text.push('\n');
        return Ok(text);
    }
    let kinds = kind.map_or_else(|| CatalogKind::ALL.to_vec(), |k| vec![k]);
    let mut out = String::new();
    for k in kinds {
        out.push_str(&kind_table(&catalog, k));
        out.push('\n');
    }
    Ok(out)
}

/// Checks the catalog files of `dir` and, when the folder has one, its checklist template
/// (`checklists/d1-compliance.toml`, read as the app reads it: a family without items is
/// refused). Any error refuses the whole folder.
pub fn check(dir: &Path) -> Result<String, PlannerError> {
    let catalog = planner_app::catalog::load(dir)?;
    let checklist = check_checklist(dir)?;
    let mut out = format!("catalog OK: {}\n", dir.display());
    for f in &catalog.files {
        let _ = writeln!(
            out,
            "  {} ({}, format {}, version {}): {} entries",
            f.file,
            f.kind.as_str(),
            f.format,
            f.version,
            f.entries
        );
    }
    out.push_str(&checklist);
    Ok(out)
}

/// The line `catalog check` prints for the folder's checklist template, or the template's
/// located errors; a folder without one (a test fixture, a user's own catalog) says so.
fn check_checklist(dir: &Path) -> Result<String, PlannerError> {
    let Some((shown, text)) = planner_app::compliance::template_in(dir)? else {
        return Ok(format!(
            "  no checklist template ({}): the compliance screens need one\n",
            planner_app::compliance::TEMPLATE_FILE
        ));
    };
    let template = planner_core::compliance::checklist::parse_template(&shown, &text).map_err(|e| {
        let mut err = PlannerError::from(e);
        err.message = format!(
            "The checklist template {shown} has {} error(s); fix each line listed and check again.",
            err.details.len()
        );
        err
    })?;
    Ok(format!(
        "  {} (checklist, format {}, version {}): {} items in {} families\n",
        shown,
        template.format,
        template.version,
        template.items.len(),
        template.families.len()
    ))
}

fn kind_json(catalog: &Catalog, kind: CatalogKind) -> Result<serde_json::Value, serde_json::Error> {
    let files: Vec<_> = catalog.files.iter().filter(|f| f.kind == kind).collect();
    let entries = match kind {
        CatalogKind::Accelerators => serde_json::to_value(&catalog.accelerators)?,
        CatalogKind::Offers => serde_json::to_value(&catalog.offers)?,
        CatalogKind::Facility => serde_json::to_value(&catalog.facility)?,
        CatalogKind::Fabrics => serde_json::to_value(&catalog.fabrics)?,
        CatalogKind::Regions => serde_json::to_value(&catalog.regions)?,
        CatalogKind::Tax => serde_json::to_value(&catalog.tax_profiles)?,
        CatalogKind::Market => json!({
            "paths": serde_json::to_value(&catalog.market_paths)?,
            "resale_decays": serde_json::to_value(&catalog.resale_decays)?,
        }),
    };
    Ok(json!({ "kind": kind.as_str(), "files": files, kind.as_str(): entries }))
}

/// A figure as text: `80`, `25000-40000`, or `-` when absent.
fn fig(f: Option<&Figure>) -> String {
    match f {
        None => "-".to_owned(),
        Some(f) if f.is_point() => f.low.normalize().to_string(),
        Some(f) => format!("{}-{}", f.low.normalize(), f.high.normalize()),
    }
}

/// Sources and date of a figure, compactly: `[src-a, src-b 2025-06 P]`.
fn cite(f: Option<&Figure>) -> String {
    f.map_or_else(String::new, |f| cite_provenance(&f.provenance))
}

/// Source ids, date and confidence (P, S or E) of a provenance.
fn cite_provenance(p: &planner_core::catalog::provenance::Provenance) -> String {
    let ids: Vec<&str> = p.sources.iter().map(|s| s.id.as_str()).collect();
    let conf = match p.confidence {
        planner_core::catalog::provenance::Confidence::Primary => "P",
        planner_core::catalog::provenance::Confidence::Secondary => "S",
        planner_core::catalog::provenance::Confidence::Estimate => "E",
    };
    format!("{} {} {conf}", ids.join(","), p.as_of)
}

/// A price path in a few words: `flat`, `-0.30/yr`, `2 periods`, `points 0:1 5:1.3824`.
fn path_text(p: &PricePath) -> String {
    match p {
        PricePath::Flat {} => "flat".to_owned(),
        PricePath::Rate { per_year } => format!("{per_year}/yr"),
        PricePath::Periods { periods } => format!("{} periods", periods.len()),
        PricePath::Points { points } => {
            let each: Vec<String> = points.iter().map(|x| format!("{}:{}", x.month, x.multiplier)).collect();
            format!("points {}", each.join(" "))
        }
    }
}

/// A decay in a few words: `doubling 2.07 y`, `decline 0.30/yr`.
fn decay_text(d: Decay) -> String {
    match d {
        Decay::Doubling { years } => format!("doubling {years} y"),
        Decay::Decline { per_year } => format!("decline {per_year}/yr"),
    }
}

/// Price paths, then resale decays: one row each, with their three bands.
fn market_table(catalog: &Catalog) -> Table {
    let paths = catalog.market_paths.iter().map(|p| {
        vec![
            p.id.clone(),
            p.applies_to.as_str().to_owned(),
            if p.default { "yes" } else { "" }.to_owned(),
            path_text(&p.low),
            path_text(&p.mid),
            path_text(&p.high),
            cite_provenance(&p.provenance),
        ]
    });
    let decays = catalog.resale_decays.iter().map(|d| {
        vec![
            d.id.clone(),
            "resale".to_owned(),
            if d.default { "yes" } else { "" }.to_owned(),
            decay_text(d.low),
            decay_text(d.mid),
            decay_text(d.high),
            cite_provenance(&d.provenance),
        ]
    });
    (
        "Price paths and resale decays",
        vec!["id", "applies to", "default", "low", "mid", "high", "source"],
        paths.chain(decays).collect(),
    )
}

/// A title, a header and rows: one table of the catalog.
type Table = (&'static str, Vec<&'static str>, Vec<Vec<String>>);

fn accelerators_table(catalog: &Catalog) -> Table {
    (
        "Accelerators",
        vec![
            "id",
            "family",
            "memory GB",
            "BW TB/s",
            "BF16 TF",
            "FP8 TF",
            "TDP W",
            "price USD",
            "price source",
        ],
        catalog
            .accelerators
            .iter()
            .map(|a| {
                vec![
                    a.id.clone(),
                    a.family.label().to_owned(),
                    fig(Some(&a.memory_gb)),
                    fig(a.bandwidth_tbps.as_ref()),
                    fig(a.bf16_tflops.as_ref()),
                    fig(a.fp8_tflops.as_ref()),
                    fig(a.tdp_w.as_ref()),
                    fig(a.price_usd.as_ref()),
                    cite(a.price_usd.as_ref()),
                ]
            })
            .collect(),
    )
}

fn offers_table(catalog: &Catalog) -> Table {
    (
        "Cloud offers (per GPU-hour)",
        vec![
            "id",
            "provider",
            "accelerator",
            "cur",
            "on demand",
            "1y",
            "3y",
            "spot",
            "source",
        ],
        catalog
            .offers
            .iter()
            .map(|o| {
                vec![
                    o.id.clone(),
                    o.provider.clone(),
                    o.accelerator.clone(),
                    o.currency.clone(),
                    fig(o.on_demand_per_gpu_hour.as_ref()),
                    fig(o.reserved_1y_per_gpu_hour.as_ref()),
                    fig(o.reserved_3y_per_gpu_hour.as_ref()),
                    fig(o.spot_per_gpu_hour.as_ref()),
                    cite(o.on_demand_per_gpu_hour.as_ref().or(o.spot_per_gpu_hour.as_ref())),
                ]
            })
            .collect(),
    )
}

fn facility_table(catalog: &Catalog) -> Table {
    let f = &catalog.facility;
    let mut rows: Vec<Vec<String>> = Vec::new();
    rows.extend(f.cooling.iter().map(|c| {
        vec![
            "cooling".into(),
            c.id.clone(),
            format!("{} kW/rack", fig(Some(&c.kw_per_rack))),
            format!("PUE {}", fig(Some(&c.pue))),
            cite(Some(&c.kw_per_rack)),
        ]
    }));
    rows.extend(f.systems.iter().map(|s| {
        vec![
            "system".into(),
            s.id.clone(),
            format!("{} kW", fig(Some(&s.max_power_kw))),
            format!("{} USD", fig(s.price_usd.as_ref())),
            cite(Some(&s.max_power_kw)),
        ]
    }));
    rows.extend(f.upgrades.iter().map(|u| {
        vec![
            "upgrade".into(),
            u.id.clone(),
            format!("{} {}", fig(Some(&u.cost)), u.currency),
            String::new(),
            cite(Some(&u.cost)),
        ]
    }));
    rows.extend(f.colocation.iter().map(|c| {
        vec![
            "colocation".into(),
            c.id.clone(),
            format!("{} {}/kW-month", fig(Some(&c.per_kw_month)), c.currency),
            c.market.clone(),
            cite(Some(&c.per_kw_month)),
        ]
    }));
    rows.extend(f.pue_benchmarks.iter().map(|p| {
        vec![
            "pue".into(),
            p.id.clone(),
            format!("PUE {}", fig(Some(&p.pue))),
            p.name.clone(),
            cite(Some(&p.pue)),
        ]
    }));
    rows.extend(f.lead_times.iter().map(|l| {
        vec![
            "lead time".into(),
            l.id.clone(),
            format!("{} weeks", fig(Some(&l.weeks))),
            l.item.clone(),
            cite(Some(&l.weeks)),
        ]
    }));
    ("Facility", vec!["what", "id", "figure", "detail", "source"], rows)
}

fn fabrics_table(catalog: &Catalog) -> Table {
    (
        "Network fabrics",
        vec!["id", "name", "Gb/s", "per-port cost", "cur", "source"],
        catalog
            .fabrics
            .iter()
            .map(|f| {
                vec![
                    f.id.clone(),
                    f.name.clone(),
                    f.port_gbps.to_string(),
                    fig(Some(&f.per_port_cost)),
                    f.currency.clone(),
                    cite(Some(&f.per_port_cost)),
                ]
            })
            .collect(),
    )
}

fn regions_table(catalog: &Catalog) -> Table {
    (
        "Regions",
        vec!["id", "name", "tariff/kWh", "cur", "gCO2/kWh", "source"],
        catalog
            .regions
            .iter()
            .map(|r| {
                vec![
                    r.id.clone(),
                    r.name.clone(),
                    fig(r.tariff_per_kwh.as_ref()),
                    r.currency.clone(),
                    fig(r.grid_gco2_per_kwh.as_ref()),
                    cite(r.tariff_per_kwh.as_ref().or(r.grid_gco2_per_kwh.as_ref())),
                ]
            })
            .collect(),
    )
}

fn tax_table(catalog: &Catalog) -> Table {
    (
        "Tax profiles",
        vec![
            "id",
            "jurisdiction",
            "rate",
            "method",
            "years",
            "convention",
            "bonus",
            "source",
        ],
        catalog
            .tax_profiles
            .iter()
            .map(|p| {
                vec![
                    p.id.clone(),
                    p.jurisdiction.clone(),
                    fig(Some(&p.rate)),
                    p.method.as_str().to_owned(),
                    p.recovery_years.to_string(),
                    p.convention.as_str().to_owned(),
                    fig(Some(&p.bonus_share)),
                    cite(Some(&p.rate)),
                ]
            })
            .collect(),
    )
}

fn kind_table(catalog: &Catalog, kind: CatalogKind) -> String {
    let (title, header, rows) = match kind {
        CatalogKind::Accelerators => accelerators_table(catalog),
        CatalogKind::Offers => offers_table(catalog),
        CatalogKind::Facility => facility_table(catalog),
        CatalogKind::Fabrics => fabrics_table(catalog),
        CatalogKind::Regions => regions_table(catalog),
        CatalogKind::Tax => tax_table(catalog),
        CatalogKind::Market => market_table(catalog),
    };
    render_table(title, &header, &rows)
}

/// Left-aligned columns padded to their widest cell.
fn render_table(title: &str, header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let padded: Vec<String> = cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        padded.join("  ").trim_end().to_owned() + "\n"
    };
    let mut out = format!("{title} ({} entries)\n", rows.len());
    out.push_str(&line(header.to_vec()));
    out.push_str(&line(
        widths
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str)
            .collect(),
    ));
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}
