//! The memo read back by tools no one here wrote: poppler's pdftotext (searchable text holding
//! every scenario's name and total as the engine computed them), pdffonts (embedded fonts),
//! pdfinfo (page size and count) and pdftoppm (a rendered page kept as an artefact), and qpdf's
//! structural check. A missing tool fails the test; it never passes silently.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Case, case, draft, memo, pdftotext, render_page, report, root, tool};
use planner_core::memo::Paper;
use planner_memo::blocks::Block;
use planner_memo::content::money;
use planner_memo::{MemoError, MemoInput, memo_pdf};
use rust_decimal::Decimal;

/// The total as a reader would type it: computed here from the engine's unrounded total, rounded
/// half-even to the cent, grouped by thousands — not with the memo's own formatter.
fn typed(total: Decimal) -> String {
    let cents = total.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointNearestEven);
    let s = format!("{:.2}", cents.abs());
    let (int, frac) = s.split_once('.').unwrap();
    let digits: Vec<char> = int.chars().collect();
    let mut grouped = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(*c);
    }
    format!("{}{grouped}.{frac}", if cents.is_sign_negative() { "-" } else { "" })
}

fn write(dir: &std::path::Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn four_scenarios() -> Case {
    case(&report::copies_text(2), None)
}

#[test]
fn pdftotext_finds_every_scenario_name_and_its_engine_total() {
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let m = memo(&c, &draft(&c, Paper::A4));
    let dir = tempfile::tempdir().unwrap();
    let text = pdftotext(&write(dir.path(), "memo.pdf", &m.bytes));
    for s in &c.eval.scenarios {
        assert!(
            text.contains(&s.name),
            "the memo text lacks the scenario name {:?}",
            s.name
        );
        let total = typed(s.totals.total_cash);
        assert!(text.contains(&total), "the memo text lacks {}'s total {total}", s.name);
    }
    for heading in [
        "Decision",
        "Rationale",
        "Comparison",
        "Assumption ledger",
        "Appendix: monthly ledger",
        "Signatures",
    ] {
        assert!(text.contains(heading), "no section {heading:?}");
    }
    assert!(text.contains("Ada Example") && text.contains("Example Research Ltd"));
    assert!(text.contains(&format!("Page 1 of {}", m.pages)));
    assert!(text.contains(&format!("Page {} of {}", m.pages, m.pages)));
}

#[test]
fn every_catalog_figure_and_override_is_in_the_assumption_ledger() {
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let m = memo(&c, &draft(&c, Paper::A4));
    let dir = tempfile::tempdir().unwrap();
    // Without -layout, a table cell's wrapped lines come out one after the other.
    let out = tool(
        "pdftotext",
        &[&write(dir.path(), "memo.pdf", &m.bytes).to_string_lossy(), "-"],
    );
    let text: String = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut overrides = 0;
    for s in &c.eval.scenarios {
        for a in &s.assumptions {
            match &a.origin {
                planner_core::engine::model::assumption::Origin::Catalog {
                    entry, as_of, sources, ..
                } => {
                    assert!(text.contains(entry.as_str()), "{}: entry {entry} missing", a.path);
                    assert!(text.contains(as_of.as_str()), "{}: as-of {as_of} missing", a.path);
                    assert!(!sources.is_empty(), "{}: a catalog figure without a source", a.path);
                }
                planner_core::engine::model::assumption::Origin::Override { reason } => {
                    overrides += 1;
                    let start: String = reason.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
                    assert!(text.contains(&start), "{}: override reason {reason:?} missing", a.path);
                }
                planner_core::engine::model::assumption::Origin::Derived { rule } => {
                    let start: String = rule.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
                    assert!(text.contains(&start), "{}: derivation {rule:?} missing", a.path);
                }
            }
        }
    }
    assert!(overrides > 0, "the enterprise sample overrides at least one figure");
}

#[test]
fn a_four_scenario_memo_has_five_vector_charts_embedded_fonts_and_passes_qpdf() {
    let c = four_scenarios();
    let m = memo(&c, &draft(&c, Paper::A4));
    assert_eq!(m.charts, 5, "the cumulative chart and one monthly chart per scenario");
    assert!(m.pages >= 8, "{} pages", m.pages);
    let artifacts = root().join("artifacts/memo");
    std::fs::create_dir_all(&artifacts).unwrap();
    let path = write(&artifacts, "memo-unsigned-a4.pdf", &m.bytes);
    let p = path.to_string_lossy();

    let qpdf = tool("qpdf", &["--check", &p]);
    assert!(
        qpdf.status.success(),
        "qpdf --check: {}",
        String::from_utf8_lossy(&qpdf.stdout)
    );

    let info = String::from_utf8_lossy(&tool("pdfinfo", &[&p]).stdout).into_owned();
    assert!(info.contains(&format!("Pages:           {}", m.pages)), "{info}");
    assert!(info.contains("pts (A4)"), "{info}");
    assert!(!info.contains("PDF/X"), "the memo claims no PDF/X conformance: {info}");
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(
        size < 400_000,
        "{size} bytes: the charts' streams must be compressed (uncompressed, this memo is 570 KB)"
    );
    assert!(info.contains("Author:          Ada Example"), "{info}");

    let fonts = String::from_utf8_lossy(&tool("pdffonts", &[&p]).stdout).into_owned();
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(rows.iter().any(|r| r.contains("DejaVuSans-Bold")), "{fonts}");
    assert!(
        rows.iter()
            .any(|r| r.contains("DejaVuSans ") || r.contains("DejaVuSans\t") || r.contains("+DejaVuSans ")),
        "{fonts}"
    );
    for row in &rows {
        let cols: Vec<&str> = row.split_whitespace().collect();
        // Columns: name, type (two words), encoding, emb, sub, uni, object, ID: counted from the
        // end, "emb" is the 5th field and "uni" the 3rd.
        let n = cols.len();
        assert!(n >= 7, "{row}");
        assert_eq!(cols[n - 5], "yes", "font not embedded: {row}");
        assert_eq!(
            cols[n - 3],
            "yes",
            "font without a ToUnicode map (text not copyable): {row}"
        );
    }

    // Vector charts: the chart pages carry no raster images.
    let images = String::from_utf8_lossy(&tool("pdfimages", &["-list", &p]).stdout).into_owned();
    assert_eq!(
        images.lines().count(),
        2,
        "expected no images, only the header: {images}"
    );

    // The first page and a scenario page, rendered and kept for a person to look at.
    for page in ["1", "2", "3"] {
        let prefix = artifacts.join(format!("memo-page-{page}"));
        let png = std::fs::metadata(render_page(&path, page, &prefix)).unwrap();
        assert!(png.len() > 10_000, "page {page} rendered to only {} bytes", png.len());
    }
}

#[test]
fn letter_paper_gives_letter_pages() {
    let c = case(&report::sample_text("student-lora-rtx4090"), None);
    let m = memo(&c, &draft(&c, Paper::Letter));
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "memo.pdf", &m.bytes);
    let info = String::from_utf8_lossy(&tool("pdfinfo", &[&p.to_string_lossy()]).stdout).into_owned();
    // printpdf takes page sizes in millimetres, so 792 pt comes back as 792.001.
    let size = info.lines().find(|l| l.starts_with("Page size:")).unwrap();
    assert!(size.contains("612 x 792") && size.ends_with("(letter)"), "{size}");
}

#[test]
fn an_evaluation_of_other_scenarios_is_refused() {
    let a = case(&report::sample_text("enterprise-hybrid"), None);
    let b = case(&report::sample_text("student-lora-rtx4090"), None);
    let d = draft(&a, Paper::A4);
    let err = memo_pdf(&MemoInput {
        evaluation: &b.eval,
        workspace: "x.cpw",
        ..common::input(&a, &d)
    })
    .unwrap_err();
    assert!(matches!(err, MemoError::Mismatch(_)), "{err}");
}

#[test]
fn each_scenario_states_its_exit_clause_and_its_cost_of_leaving() {
    use planner_core::engine::model::ledger::Category;
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let m = memo(&c, &draft(&c, Paper::A4));
    let dir = tempfile::tempdir().unwrap();
    let text = pdftotext(&write(dir.path(), "memo.pdf", &m.bytes));
    // Facts may wrap: phrases are looked for in the text with its whitespace folded.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("Layer reserved exit clause"), "{flat}");
    assert!(flat.contains("3 months notice"), "{flat}");
    assert!(flat.contains("25.00% of the commitment remaining"), "{flat}");
    assert!(flat.contains("egress 200.00 TB at USD 90.00 per TB"), "{flat}");
    // The all-cloud scenario's only commitment is its reserved layer, so its ledger's monthly
    // commitments are the contract's payments. Notice in plan month 18 (shown as month 19) with
    // 3 months' notice avoids months 21..36, owes a quarter of them, plus 200 TB × 90 and 40,000.
    let cloud = c.eval.scenarios.iter().find(|s| s.id == "all-cloud").unwrap();
    let paid: Vec<Decimal> = cloud
        .ledger
        .months
        .iter()
        .map(|m| m.cash.get(Category::Commitments))
        .collect();
    for (m, notice_month) in [(0u32, "1 ("), (18, "19 (")] {
        let effect = m as usize + 3;
        let avoided: Decimal = paid[effect..].iter().sum();
        let due: Decimal = paid[m as usize..effect].iter().sum();
        let charges = avoided * Decimal::new(25, 2) + Decimal::from(200 * 90) + Decimal::from(40_000);
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(notice_month) && l.contains(&typed(due)))
            .unwrap_or_else(|| panic!("no cost-of-leaving row for month {m} with {} due:\n{text}", typed(due)));
        assert!(line.contains(&typed(charges)), "month {m}: {line}");
        assert!(line.contains(&typed(avoided)), "month {m}: {line}");
        assert!(line.contains(&typed(avoided - charges)), "month {m}: {line}");
    }
}

#[test]
fn the_risk_section_states_the_percentiles_the_odds_the_tornado_and_the_seed() {
    let case = common::case(&common::report::sample_text("enterprise-hybrid"), None);
    let outcome = common::report::sample_risk("enterprise-hybrid", 200, 7);
    let draft = common::draft(&case, Paper::A4);
    let input = MemoInput {
        risk: Some(&outcome),
        ..common::input(&case, &draft)
    };
    let blocks = planner_memo::content::blocks(&input).unwrap();
    let start = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading { text, .. } if text == "Risk"))
        .unwrap();
    let end = start
        + 1
        + blocks[start + 1..]
            .iter()
            .position(|b| matches!(b, Block::Heading { .. }))
            .unwrap();
    let section = &blocks[start..end];
    let tables: Vec<&planner_memo::blocks::Table> = section
        .iter()
        .filter_map(|b| if let Block::Table(t) = b { Some(t) } else { None })
        .collect();
    // The percentiles, to the cent as the memo prints money.
    let spread = tables[0];
    for (row, s) in spread.rows.iter().zip(&outcome.scenarios) {
        assert_eq!(
            row.cells,
            [
                s.name.clone(),
                money(s.point_total),
                money(s.total.p10),
                money(s.total.p50),
                money(s.total.p90),
                money(s.total.mean),
                s.cheaper_than_baseline.map_or("recommended".to_owned(), |p| format!(
                    "{}%",
                    planner_memo::content::grouped((Decimal::ONE - p) * Decimal::ONE_HUNDRED, 1)
                )),
            ]
        );
    }
    // The all-cloud scenario is dearer in every draw: the recommended hybrid is cheaper in all.
    assert_eq!(spread.rows[1].cells[6], "100.0%");
    let text: Vec<String> = section
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph { text, .. } => Some(text.clone()),
            Block::Chart { caption, .. } => Some(caption.clone()),
            _ => None,
        })
        .collect();
    let all = text.join("\n");
    assert!(all.contains("P(Two DGX H100 for the base, AWS spot and on-demand for bursts cheaper than Reserved H100 for the base, on-demand for bursts) = 100.0% of the draws."), "{all}");
    assert!(
        all.contains("Reproduce: seed 7, 200 draws, triangular distributions, correlation 0.8"),
        "{all}"
    );
    assert!(
        all.contains("planner risk FILE --draws 200 --seed 7 --shape triangular --correlation 0.8 --baseline hybrid"),
        "{all}"
    );
    // The tornado of the one alternative: a row per bar, swings to the cent, and its chart.
    let tornado = &outcome.tornados[0];
    assert_eq!(tables[1].rows.len(), tornado.bars.len());
    for (row, b) in tables[1].rows.iter().zip(&tornado.bars) {
        let f = &outcome.figures[b.figure as usize];
        assert_eq!(row.cells[0], format!("{}.{}", f.entry, f.field));
        assert_eq!(row.cells[4], money(b.swing));
    }
    let charts = section.iter().filter(|b| matches!(b, Block::Chart { .. })).count();
    assert_eq!(charts, 2, "the tornado and the fan");

    // Without an analysis: one sentence.
    let none = planner_memo::content::blocks(&MemoInput { risk: None, ..input }).unwrap();
    let at = none
        .iter()
        .position(|b| matches!(b, Block::Heading { text, .. } if text == "Risk"))
        .unwrap();
    assert!(matches!(&none[at + 1], Block::Paragraph { text, .. } if text.starts_with("No risk analysis was run")));
    assert!(matches!(&none[at + 2], Block::Heading { .. }));
}

/// The `as_of` of `[sources.<id>]` in catalogs/offers.toml, read from the file's text.
fn offers_source_date(id: &str) -> String {
    let toml = std::fs::read_to_string(root().join("catalogs/offers.toml")).unwrap();
    let section = toml.split(&format!("[sources.{id}]")).nth(1).unwrap();
    let line = section.lines().find(|l| l.starts_with("as_of")).unwrap();
    line.split('"').nth(1).unwrap().to_owned()
}

/// The hybrid's spot price, aws-p5-h100.spot_per_gpu_hour, is dated by its source (costnimbus,
/// `as_of = "2026-03"` in catalogs/offers.toml): a month counts from its last day, 31 March 2026.
/// Whole months from 2026-03-31 to the memo's date 2026-11-22: 31 October is 7 months on, and the
/// 8th month would end on 30 November (November has no 31st), after the 22nd. A cloud price (6
/// months) is then stale.
fn spot_age_on_memo_date() -> u32 {
    let dated = offers_source_date("costnimbus");
    assert_eq!(dated, "2026-03");
    let (y0, m0): (u32, u32) = (dated[..4].parse().unwrap(), dated[5..7].parse().unwrap());
    let (y1, m1, d1): (u32, u32, u32) = (2026, 11, 22);
    assert_eq!(common::DATE, "2026-11-22");
    let calendar_months = (y1 * 12 + m1) - (y0 * 12 + m0);
    // Counted from the 31st: the month ending in November ends on its last day, the 30th.
    let whole = if d1 < 30 { calendar_months - 1 } else { calendar_months };
    assert_eq!(whole, 7);
    whole
}

fn ledger(blocks: &[Block]) -> &[Block] {
    let start = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading { text, .. } if text == "Assumption ledger"))
        .unwrap();
    let end = start
        + 1
        + blocks[start + 1..]
            .iter()
            .position(|b| matches!(b, Block::Heading { .. }))
            .unwrap();
    &blocks[start..end]
}

fn catalog_fact(blocks: &[Block]) -> String {
    blocks
        .iter()
        .find_map(|b| match b {
            Block::Facts(f) => f.iter().find(|(k, _)| k == "Catalog").map(|(_, v)| v.clone()),
            _ => None,
        })
        .unwrap()
}

#[test]
fn the_ledger_states_the_catalogs_origin_and_marks_each_stale_figure_with_its_age() {
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let d = draft(&c, Paper::A4);
    let blocks = planner_memo::content::blocks(&common::input(&c, &d)).unwrap();
    assert_eq!(
        catalog_fact(&blocks),
        "data version 2026.11.0, shipped with the app (not a signed pack)"
    );
    let section = ledger(&blocks);
    let Block::Paragraph { text: intro, .. } = &section[1] else {
        panic!("the ledger opens with a paragraph: {:?}", section[1]);
    };
    assert!(intro.contains(common::SHIPPED_STATEMENT), "{intro}");
    assert!(
        intro.contains("Figures older than 6 months (cloud prices) or 12 months (everything else) on the memo's date, 2026-11-22, are marked stale"),
        "{intro}"
    );
    let rows: Vec<&planner_memo::blocks::Row> = section
        .iter()
        .filter_map(|b| if let Block::Table(t) = b { Some(t) } else { None })
        .flat_map(|t| &t.rows)
        .collect();
    // The spot price carries its age and threshold under its date, in the marked cell.
    let age = spot_age_on_memo_date();
    let spot = rows
        .iter()
        .find(|r| r.cells[2].starts_with("catalog aws-p5-h100.spot_per_gpu_hour"))
        .unwrap();
    assert_eq!(spot.cells[3], format!("2026-03\nSTALE: {age} months old (threshold 6)"));
    assert_eq!(spot.marked, Some(3));
    // The on-demand price (dated 2026-09-25, under 2 months) is not stale.
    let on_demand = rows
        .iter()
        .find(|r| r.cells[2].starts_with("catalog aws-p5-h100.on_demand_per_gpu_hour"))
        .unwrap();
    assert_eq!((on_demand.cells[3].as_str(), on_demand.marked), ("2026-09-25", None));
    // Overrides are never marked; the count the intro gives is the rows marked.
    let overrides: Vec<_> = rows.iter().filter(|r| r.cells[2].starts_with("override:")).collect();
    assert!(!overrides.is_empty());
    assert!(
        overrides
            .iter()
            .all(|r| r.marked.is_none() && !r.cells[3].contains("STALE"))
    );
    let marked = rows.iter().filter(|r| r.marked.is_some()).count();
    let figures = rows.iter().filter(|r| r.cells[2].starts_with("catalog ")).count();
    assert!(
        intro.contains(&format!("{marked} of the {figures} catalog figures below are")),
        "{marked} marked of {figures}: {intro}"
    );
    assert!(rows.iter().all(|r| r.marked.is_some() == r.cells[3].contains("STALE:")));

    // The thresholds are the input's: with a year for cloud prices the spot price is not stale.
    let lenient = planner_memo::content::blocks(&MemoInput {
        freshness: planner_core::catalog::diff::Freshness {
            cloud_months: 12,
            other_months: 120,
        },
        ..common::input(&c, &d)
    })
    .unwrap();
    let section = ledger(&lenient);
    let Block::Paragraph { text: intro, .. } = &section[1] else {
        panic!("no intro");
    };
    assert!(
        intro.contains("older than 12 months (cloud prices) or 120 months (everything else)"),
        "{intro}"
    );
    assert!(intro.contains("are marked stale: none of the"), "{intro}");

    // The memo's date is a day.
    let err = planner_memo::content::blocks(&MemoInput {
        date: "2026-11",
        ..common::input(&c, &d)
    })
    .unwrap_err();
    assert!(matches!(err, MemoError::Day(_)), "{err}");
}

#[test]
fn pdftotext_reads_the_catalog_statement_and_the_stale_marks_and_a_pack_origin() {
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let d = draft(&c, Paper::A4);
    let m = memo(&c, &d);
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "memo.pdf", &m.bytes);
    let flat = |p: &std::path::Path| {
        let out = tool("pdftotext", &[&p.to_string_lossy(), "-"]);
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let text = flat(&path);
    assert!(text.contains(common::SHIPPED_STATEMENT), "{text}");
    assert!(
        text.contains("data version 2026.11.0, shipped with the app (not a signed pack)"),
        "{text}"
    );
    let age = spot_age_on_memo_date();
    assert!(
        text.contains(&format!("STALE: {age} months old (threshold 6)")),
        "{text}"
    );
    // The ledger page, kept for a person to look at.
    let artifacts = root().join("artifacts/memo");
    std::fs::create_dir_all(&artifacts).unwrap();
    std::fs::copy(&path, artifacts.join("memo-stale-ledger.pdf")).unwrap();

    // A catalog from a verified pack is named with its publisher and key.
    let pack = planner_memo::CatalogSource::Pack {
        publisher: "Test Publisher".to_owned(),
        key_id: Some("1FB83C5D2A9E7B40".to_owned()),
        verified: true,
    };
    let statement = "Catalog 2026.12.0 from a pack published by Test Publisher on 2026-12-01; its signature (minisign key 1FB83C5D2A9E7B40) and every file's SHA-256 verify.";
    let m = memo_pdf(&MemoInput {
        catalog_version: "2026.12.0",
        catalog_source: &pack,
        catalog_statement: statement,
        ..common::input(&c, &d)
    })
    .unwrap();
    let text = flat(&write(dir.path(), "pack.pdf", &m.bytes));
    assert!(
        text.contains("data version 2026.12.0 from Test Publisher; pack signature verified (key 1FB83C5D2A9E7B40)"),
        "{text}"
    );
    assert!(text.contains(statement), "{text}");
}
