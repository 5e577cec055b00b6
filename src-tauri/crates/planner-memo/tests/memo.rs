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
                planner_core::scenario::Origin::Catalog {
                    entry, as_of, sources, ..
                } => {
                    assert!(text.contains(entry.as_str()), "{}: entry {entry} missing", a.path);
                    assert!(text.contains(as_of.as_str()), "{}: as-of {as_of} missing", a.path);
                    assert!(!sources.is_empty(), "{}: a catalog figure without a source", a.path);
                }
                planner_core::scenario::Origin::Override { reason } => {
                    overrides += 1;
                    let start: String = reason.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
                    assert!(text.contains(&start), "{}: override reason {reason:?} missing", a.path);
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
        draft: &d,
        view: &a.view,
        evaluation: &b.eval,
        scenarios: &a.file.scenarios,
        workspace: "x.cpw",
        catalog_version: "2026.11.0",
        date: "2026-11-22",
        created_unix: common::CREATED,
        compliance: None,
        risk: None,
    })
    .unwrap_err();
    assert!(matches!(err, MemoError::Mismatch(_)), "{err}");
}

#[test]
fn each_scenario_states_its_exit_clause_and_its_cost_of_leaving() {
    use planner_core::ledger::Category;
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
        draft: &draft,
        view: &case.view,
        evaluation: &case.eval,
        scenarios: &case.file.scenarios,
        workspace: "example.cpw",
        catalog_version: "2026.11.0",
        date: "2026-11-22",
        created_unix: common::CREATED,
        compliance: None,
        risk: Some(&outcome),
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
