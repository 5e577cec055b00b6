//! The memo's "Ways out" of each scenario (issue 19): every way out the engine priced against
//! staying is a row with the engine's own figures, the refused ones are said in words, and a memo
//! given none has no such heading.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{case, draft, report};
use planner_core::memo::Paper;
use planner_memo::MemoInput;
use planner_memo::blocks::Block;

#[test]
fn each_scenario_states_its_ways_out_with_the_engines_prices() {
    let c = case(&report::sample_text("enterprise-hybrid"), None);
    let d = draft(&c, Paper::A4);
    let ids: Vec<String> = c.view.scenarios.iter().map(|s| s.id.clone()).collect();
    let ways = planner_core::engine::exit::kinds::ways_out_of(&c.catalog, &c.file, &ids);
    let all_cloud = ways.iter().find(|w| w.scenario == "all-cloud").unwrap();
    assert_eq!(
        all_cloud.priced.len(),
        3,
        "leave, scale down, downgrade: {:?}",
        all_cloud.refused
    );
    let blocks = planner_memo::content::blocks(&MemoInput {
        ways_out: &ways,
        ..common::input(&c, &d)
    })
    .unwrap();
    let heading = format!(
        "Ways out from month {} ({})",
        all_cloud.month + 1,
        c.view.start.plus(all_cloud.month)
    );
    let at = blocks
        .iter()
        .position(|b| matches!(b, Block::Subheading(t) if *t == heading))
        .unwrap_or_else(|| panic!("{heading}"));
    let Block::Table(table) = &blocks[at + 1] else {
        panic!("a table after {heading}")
    };
    // The all-cloud scenario's section comes after the hybrid's: find its table by its rows.
    let tables: Vec<&planner_memo::blocks::Table> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Table(t) if t.columns.first().is_some_and(|c| c.title == "Way out") => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(tables.len(), 2, "one per scenario");
    assert_eq!(table.rows.len(), ways[0].priced.len());
    let cloud = tables[1];
    for (row, p) in cloud.rows.iter().zip(&all_cloud.priced) {
        assert_eq!(row.cells[3], planner_memo::content::money(p.variant_decision_total));
        assert_eq!(row.cells[4], planner_memo::content::money(p.difference));
    }
    assert!(cloud.rows[1].cells[0].starts_with("Scale reserved down to 8 of 16 GPUs"));

    let none = planner_memo::content::blocks(&common::input(&c, &d)).unwrap();
    assert!(
        !none
            .iter()
            .any(|b| matches!(b, Block::Subheading(t) if t.starts_with("Ways out")))
    );
}
