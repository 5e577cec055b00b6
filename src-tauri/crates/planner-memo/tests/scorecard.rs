//! The Vendor scorecard section (issue #19), read back from the blocks and from pdftotext: the
//! ranking in the engine's order, the stability sentence exactly as the engine words it, the
//! vendor left out with what it lacks, the vendors not reviewed, each vendor's exit terms; and no
//! section at all when the memo has no scorecard.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{case, draft, pdftotext, render_page, report, root, tool};
use planner_core::memo::Paper;
use planner_core::rfp::vendors::stability_words;
use planner_memo::blocks::Block;
use planner_memo::{MemoInput, memo_pdf};

fn headings(blocks: &[Block]) -> Vec<&str> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Heading { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// The text between `from` and the next of `to`, whitespace folded (table cells and facts wrap).
fn between<'t>(flat: &'t str, from: &str, to: &str) -> &'t str {
    let start = flat
        .find(from)
        .unwrap_or_else(|| panic!("no {from:?} in the memo:\n{flat}"));
    let rest = &flat[start..];
    &rest[..rest.find(to).unwrap_or(rest.len())]
}

#[test]
fn the_scorecard_section_sits_between_the_workloads_and_the_risk_and_tables_the_engines_ranking() {
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let d = draft(&c, Paper::A4);
    let (_, screen, card) = report::sample_scorecard();
    let blocks = planner_memo::content::blocks(&MemoInput {
        scorecard: Some(&card),
        ..common::input(&c, &d)
    })
    .unwrap();
    let h = headings(&blocks);
    let at = h.iter().position(|t| *t == "Vendor scorecard").unwrap();
    assert_eq!((h[at - 1], h[at + 1]), ("Workloads", "Risk"), "{h:?}");
    let start = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading { text, .. } if text == "Vendor scorecard"))
        .unwrap();
    let tables: Vec<&planner_memo::blocks::Table> = blocks[start..]
        .iter()
        .take_while(|b| !matches!(b, Block::Heading { text, .. } if text == "Risk"))
        .filter_map(|b| if let Block::Table(t) = b { Some(t) } else { None })
        .collect();
    // The weights table, then the ranking: one row per ranked vendor, in the engine's order.
    let engine = screen.scorecard.as_ref().unwrap();
    let ranking = tables[1];
    assert_eq!(ranking.rows.len(), engine.ranking.len());
    for (row, s) in ranking.rows.iter().zip(&engine.ranking) {
        assert_eq!(row.cells[0], s.rank.to_string());
        assert_eq!(row.cells[1], s.name);
        let status = screen.vendors.iter().find(|v| v.name == s.name).unwrap();
        assert!(
            row.cells[2].starts_with(status.scenario_name.as_deref().unwrap()),
            "{row:?}"
        );
        assert_eq!(
            row.cells[8],
            format!(
                "{}%",
                planner_memo::content::grouped(s.score * rust_decimal::Decimal::ONE_HUNDRED, 1)
            )
        );
    }
}

#[test]
fn pdftotext_reads_the_ranking_the_engines_stability_sentence_and_the_partial_vendor() {
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let d = draft(&c, Paper::A4);
    let (_, screen, card) = report::sample_scorecard();
    let m = memo_pdf(&MemoInput {
        scorecard: Some(&card),
        ..common::input(&c, &d)
    })
    .unwrap();
    let artifacts = root().join("artifacts/memo");
    std::fs::create_dir_all(&artifacts).unwrap();
    let path = artifacts.join("memo-scorecard.pdf");
    std::fs::write(&path, &m.bytes).unwrap();
    let out = tool("pdftotext", &[&path.to_string_lossy(), "-"]);
    let flat = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let section = between(&flat, "Vendor scorecard", "Risk");

    // The ranking: the vendors' names in the engine's rank order.
    let engine = screen.scorecard.as_ref().unwrap();
    assert_eq!(engine.ranking.len(), 3);
    // Table rows are read with -layout, where each row starts on its own line.
    let laid_out = pdftotext(&path);
    let table = between(&laid_out, "Rank Vendor", "Stability of the ranking");
    let places: Vec<usize> = engine
        .ranking
        .iter()
        .map(|s| {
            let first_word = s.name.split_whitespace().next().unwrap();
            table
                .find(&format!("{} {first_word}", s.rank))
                .unwrap_or_else(|| panic!("{} not in the ranking: {table}", s.name))
        })
        .collect();
    assert!(places.is_sorted(), "not in rank order {places:?}: {table}");
    assert!(
        !table.contains("Delta"),
        "a vendor not ranked is in the ranking: {table}"
    );

    // The stability sentence as the engine computed it: the view's, and the same words again
    // from the engine's flip.
    let sentence = screen.stability.as_deref().unwrap();
    let flip = engine.flip.as_ref().unwrap();
    assert_eq!(sentence, stability_words(&engine.ranking[0].name, flip));
    assert!(
        section.contains(sentence),
        "no stability sentence {sentence:?}: {section}"
    );

    // The vendor left out, with what it lacks; the vendors never reviewed.
    assert!(
        section.contains("Delta Partial, priced on Two DGX H100 for the base, AWS spot and on-demand for bursts, is partial and not ranked: the measured MFU is missing; the expert hours per month is missing."),
        "{section}"
    );
    assert!(
        section.contains("Not reviewed: Cirrus Compute, Delta Partial have no D-1 checklist record"),
        "{section}"
    );
    // Exit terms as quoted: the all-cloud reserved layer's clause, pointing to where the memo
    // prices leaving; the hybrid's vendors commit to nothing a clause could end.
    let exits = between(section, "Exit terms as quoted", "Risk");
    assert!(
        exits.contains("Nimbus Cloud — reserved layer reserved: 3 months notice, a fee of 25.00% of the commitment remaining, egress 200.00 TB at USD 90.00 per TB"),
        "{exits}"
    );
    assert!(
        exits.contains("The cost of leaving is priced under Scenario: Reserved H100 for the base, on-demand for bursts, Exit terms."),
        "{exits}"
    );
    assert!(
        exits.contains("Forge Metal — commits to nothing an exit clause could end"),
        "{exits}"
    );
    // The section's page, kept for a person to look at.
    let page = (1..=m.pages)
        .find(|p| {
            let p = p.to_string();
            let out = tool("pdftotext", &["-f", &p, "-l", &p, &path.to_string_lossy(), "-"]);
            String::from_utf8_lossy(&out.stdout).contains("Vendor scorecard")
        })
        .unwrap();
    render_page(&path, &page.to_string(), &artifacts.join("memo-scorecard-page"));
}

#[test]
fn a_memo_without_a_scorecard_has_no_vendor_scorecard_heading() {
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let d = draft(&c, Paper::A4);
    let blocks = planner_memo::content::blocks(&common::input(&c, &d)).unwrap();
    assert!(!headings(&blocks).contains(&"Vendor scorecard"));
    let m = memo_pdf(&common::input(&c, &d)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memo.pdf");
    std::fs::write(&path, &m.bytes).unwrap();
    let text = pdftotext(&path);
    assert!(!text.contains("Vendor scorecard"), "{text}");
    assert!(!text.contains("Exit terms as quoted"), "{text}");
}

#[test]
fn every_word_of_the_scorecard_tables_heads_fits_its_column_on_a4() {
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let d = draft(&c, Paper::A4);
    let (_, _, card) = report::sample_scorecard();
    let blocks = planner_memo::content::blocks(&MemoInput {
        scorecard: Some(&card),
        ..common::input(&c, &d)
    })
    .unwrap();
    let fonts = planner_memo::fonts::Fonts::load().unwrap();
    // A4's content width (595 pt less two 50-pt margins), less each cell's padding of 3 pt a side.
    let content = 595.0 - 2.0 * planner_memo::layout::MARGIN_X;
    let start = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading { text, .. } if text == "Vendor scorecard"))
        .unwrap();
    for b in blocks[start + 1..]
        .iter()
        .take_while(|b| !matches!(b, Block::Heading { .. }))
    {
        let Block::Table(t) = b else { continue };
        let total: f32 = t.columns.iter().map(|c| c.weight).sum();
        for col in &t.columns {
            let room = content * col.weight / total - 6.0;
            for word in col.title.split_whitespace() {
                let w = fonts.width(word, planner_memo::fonts::Face::Bold, t.size);
                assert!(w <= room, "{word:?} is {w:.1} pt wide in a {room:.1}-pt column");
            }
        }
    }
}
