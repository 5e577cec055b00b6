//! What one workshop what-if move costs the back end (issue #17): a workspace of 8 compared
//! scenarios (the enterprise-hybrid sample's scenarios, repeated with small differences), its
//! comparison with chart series, the same with a demand driver moved, and the JSON the window
//! receives for it (the IPC answer is this text).
//!
//! Run: `cargo bench -p planner-app --bench compare`.

// A bench that cannot build its workspace has nothing to measure: failing loudly is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use planner_app::TestHost;
use planner_core::engine::editing::what_if::{Driver, DriverKind, WhatIf};
use planner_core::engine::input::scenario_file;
use planner_core::engine::workspace::content::{ViewState, from_scenario_file};
use planner_report::charts::Theme;
use planner_store::Workspace;
use rust_decimal::Decimal;

const COMPARED: usize = 8;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// The workspace at `path`: 8 scenarios, all compared over 36 months.
fn build(path: &Path) -> Option<()> {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).ok()?;
    let mut file = scenario_file::parse(&text).ok()?;
    let originals = file.scenarios.clone();
    file.scenarios = (0..COMPARED)
        .map(|i| {
            let mut s = originals[i % originals.len()].clone();
            s.id = format!("{}-{i}", s.id);
            s.name = format!("{} ({i})", s.name);
            s.staff_fte += Decimal::new(i64::try_from(i).unwrap_or(0), 1);
            s
        })
        .collect();
    let files = planner_store::read_catalog_dir(&repo().join("catalogs")).ok()?;
    let (settings, _, _) = from_scenario_file(file.clone());
    let mut ws = Workspace::create(path, &settings, &files, NOW).ok()?;
    ws.import(&file, "bench", NOW).ok()?;
    ws.set_view(&ViewState {
        selected: file.scenarios.iter().map(|s| s.id.clone()).collect(),
        baseline: None,
        horizon_months: Some(36),
    })
    .ok()?;
    Some(())
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let path = dir.path().join("eight.cpw");
    build(&path).expect("the bench workspace is built from the enterprise-hybrid sample");
    let host = TestHost::new(&repo().join("catalogs"), None, 1_790_000_000_000);
    planner_app::session::open(&host, &path).expect("the bench workspace opens");
    let what_if = |percent: i64| WhatIf {
        drivers: vec![Driver {
            kind: DriverKind::Demand,
            value: Decimal::new(percent, 2),
        }],
        scenario: None,
    };
    let screen = planner_app::compare::screen(&host, Theme::Light).expect("the comparison");
    assert_eq!(
        screen.comparison.view.as_ref().map(|v| v.scenarios.len()),
        Some(COMPARED)
    );
    let mut group = c.benchmark_group("compare 8 scenarios, 36 months");
    group.bench_function("comparison with chart series", |b| {
        b.iter(|| planner_app::compare::screen(&host, Theme::Light).expect("the comparison"));
    });
    let mut step = 0_i64;
    group.bench_function("what-if move (demand driver)", |b| {
        b.iter(|| {
            step = (step + 1) % 20;
            planner_app::compare::what_if(&host, &what_if(50 + step * 5), Theme::Light, None).expect("the what-if")
        });
    });
    let answer = planner_app::compare::what_if(&host, &what_if(80), Theme::Light, None).expect("the what-if");
    println!(
        "what-if answer: {} bytes of JSON",
        serde_json::to_vec(&answer).map_or(0, |v| v.len())
    );
    group.bench_function("what-if answer to JSON", |b| {
        b.iter(|| serde_json::to_vec(&answer).expect("JSON"));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
