//! What a person waits for with a large workspace: opening one of 10,000 scenarios (the file
//! read, the catalog snapshot loaded, the scenario list the UI shows), and one edit saved and the
//! comparison of 8 scenarios re-evaluated.
//!
//! Run: `cargo bench -p planner-store --bench workspace`.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::input::scenario_file::{self, ScenarioFile};
use planner_core::engine::workspace::content::{ViewState, compare_selection, from_scenario_file};
use planner_store::Workspace;
use rust_decimal::Decimal;

const SCENARIOS: usize = 10_000;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn sample() -> Option<ScenarioFile> {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).ok()?;
    scenario_file::parse(&text).ok()
}

/// A workspace of `SCENARIOS` scenarios: the sample's two, varied in staff and storage.
fn build(path: &Path) -> Option<()> {
    let file = sample()?;
    let files = planner_store::read_catalog_dir(&repo().join("catalogs")).ok()?;
    let (settings, _, _) = from_scenario_file(file.clone());
    let mut ws = Workspace::create(path, &settings, &files, NOW).ok()?;
    let mut big = file.clone();
    big.scenarios = (0..SCENARIOS)
        .map(|i| {
            let mut s = file.scenarios[i % file.scenarios.len()].clone();
            s.id = format!("{}-{i}", s.id);
            s.name = format!("{} (variant {i})", s.name);
            s.staff_fte += Decimal::new(i as i64 % 20, 1);
            s.storage_per_month += Decimal::from(i as i64 % 50 * 100);
            s
        })
        .collect();
    ws.import(&big, "generated", NOW).ok()?;
    let selected = (0..8).map(|i| big.scenarios[i * 1000].id.clone()).collect();
    ws.set_view(&ViewState {
        selected,
        baseline: None,
        horizon_months: None,
    })
    .ok()?;
    Some(())
}

fn benches(c: &mut Criterion) {
    let Ok(dir) = tempfile::tempdir() else { return };
    let path = dir.path().join("large.cpw");
    if build(&path).is_none() {
        eprintln!("could not build the benchmark workspace");
        return;
    }
    if let Ok(meta) = std::fs::metadata(&path) {
        eprintln!("workspace of {SCENARIOS} scenarios: {} bytes", meta.len());
    }
    let shipped = planner_store::load_catalog_dir(&repo().join("catalogs")).ok();
    c.bench_function("open 10,000-scenario workspace and list it", |b| {
        b.iter(|| {
            let ws = Workspace::open(&path).ok()?;
            let info = ws.info(shipped.as_ref()).ok()?;
            Some(info.scenarios.len())
        });
    });
    let Ok(mut ws) = Workspace::open(&path) else { return };
    let Ok(view) = ws.view() else { return };
    let Some(first) = view.selected.first().cloned() else {
        return;
    };
    let Ok(mut scenario) = ws.scenario(&first) else { return };
    let mut n = 0i64;
    c.bench_function("one edit saved, then 8 scenarios compared", |b| {
        b.iter(|| {
            n += 1;
            scenario.software_per_month = Decimal::from(n);
            let request = EditRequest {
                edit: Edit::PutScenario {
                    scenario: scenario.clone(),
                },
                label: "bench".into(),
                coalesce: Some("bench".into()),
            };
            ws.apply(&request, NOW).ok()?;
            // What the app's compare does: the view and its scenarios read back, then evaluated.
            let view = ws.view().ok()?;
            let chosen = view
                .selected
                .iter()
                .map(|id| ws.scenario(id))
                .collect::<Result<Vec<_>, _>>()
                .ok()?;
            let (comparison, _) = compare_selection(ws.catalog(), ws.settings(), ws.workloads(), &chosen, &view);
            comparison.view.map(|v| v.scenarios.len())
        });
    });
}

criterion_group! {
    name = workspace;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(workspace);

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
