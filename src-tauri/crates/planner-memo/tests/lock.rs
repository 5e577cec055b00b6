//! The locked baseline (issue #17) in the memo: where it lists the compared scenarios, it says
//! when the baseline was locked, what the figures are compared with and which scenarios are
//! locked.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{case, draft, pdftotext, report};
use planner_core::memo::Paper;
use planner_memo::blocks::Block;
use planner_memo::{MemoInput, MemoLock, memo_pdf};

const HYBRID: &str = "Two DGX H100 for the base, AWS spot and on-demand for bursts";
const ALL_CLOUD: &str = "Reserved H100 for the base, on-demand for bursts";

fn lock(baseline: &str) -> MemoLock {
    MemoLock {
        locked_at: "2026-11-26 10:41 UTC".to_owned(),
        baseline: baseline.to_owned(),
        scenarios: vec![HYBRID.to_owned(), ALL_CLOUD.to_owned()],
    }
}

/// Every paragraph of the Comparison section, in order.
fn comparison_paragraphs(blocks: &[Block]) -> Vec<String> {
    let start = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading { text, .. } if text == "Comparison"))
        .expect("a Comparison section");
    blocks[start + 1..]
        .iter()
        .take_while(|b| !matches!(b, Block::Heading { .. }))
        .filter_map(|b| match b {
            Block::Paragraph { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_comparison_states_the_locked_baseline_and_the_locked_scenarios() {
    let c = case(&report::sample_text("enterprise-hybrid"), Some("all-cloud"));
    let d = draft(&c, Paper::A4);
    let locked = lock(ALL_CLOUD);
    let input = MemoInput {
        lock: Some(&locked),
        ..common::input(&c, &d)
    };
    let paragraphs = comparison_paragraphs(&planner_memo::content::blocks(&input).unwrap());
    let sentence = format!(
        "Baseline locked on 2026-11-26 10:41 UTC: the figures below are compared with “{ALL_CLOUD}”; locked scenarios: {HYBRID}, {ALL_CLOUD}."
    );
    assert_eq!(paragraphs[1], sentence, "{paragraphs:#?}");
    assert!(paragraphs[0].ends_with(&format!("Differences and break-even are against {ALL_CLOUD}.")));

    // Without a lock the section says nothing of one.
    let unlocked = comparison_paragraphs(&planner_memo::content::blocks(&common::input(&c, &d)).unwrap());
    assert!(unlocked.iter().all(|p| !p.contains("locked")), "{unlocked:#?}");

    // The PDF carries it as text a reader can search.
    let m = memo_pdf(&input).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memo.pdf");
    std::fs::write(&path, &m.bytes).unwrap();
    let text = pdftotext(&path);
    assert!(text.contains("Baseline locked on 2026-11-26 10:41 UTC"), "{text}");
}

#[test]
fn a_memo_without_the_locked_baseline_says_what_it_compares_with_instead() {
    let c = case(&report::sample_text("enterprise-hybrid"), Some("hybrid"));
    let d = draft(&c, Paper::A4);
    let locked = lock("Own H100 base load");
    let paragraphs = comparison_paragraphs(
        &planner_memo::content::blocks(&MemoInput {
            lock: Some(&locked),
            ..common::input(&c, &d)
        })
        .unwrap(),
    );
    assert_eq!(
        paragraphs[1],
        format!(
            "Baseline locked on 2026-11-26 10:41 UTC: the locked baseline “Own H100 base load” is not among this memo's scenarios, so the figures below are compared with “{HYBRID}”; locked scenarios: {HYBRID}, {ALL_CLOUD}."
        )
    );
}
