//! Evaluation speed: 8 scenarios × 36 months with the full ledger (goal: under 1 ms), and the
//! same plan over 120 months; each on one core (`evaluate`) and shared over the machine's cores
//! (`evaluate_parallel`, what the comparison and the what-if moves use); and `validate`, which
//! every comparison and what-if move runs first to turn the file into a plan.
//!
//! `cargo bench -p planner-core -- --warm-up-time 1 --measurement-time 3`

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, criterion_group, criterion_main};
use planner_core::catalog::Catalog;
use planner_core::catalog::load;
use planner_core::engine::costing::evaluate::{evaluate, evaluate_parallel};
use planner_core::engine::input::scenario_file::{ScenarioFile, parse};
use planner_core::engine::model::scenario::Plan;
use planner_core::engine::resolve::validate::validate;

const FILES: [(&str, &str); 5] = [
    (
        "accelerators.toml",
        include_str!("../tests/fixtures/engine-catalog/accelerators.toml"),
    ),
    (
        "offers.toml",
        include_str!("../tests/fixtures/engine-catalog/offers.toml"),
    ),
    (
        "facility.toml",
        include_str!("../tests/fixtures/engine-catalog/facility.toml"),
    ),
    (
        "fabrics.toml",
        include_str!("../tests/fixtures/engine-catalog/fabrics.toml"),
    ),
    (
        "regions.toml",
        include_str!("../tests/fixtures/engine-catalog/regions.toml"),
    ),
];

/// The enterprise hybrid sample (owned on a loan, spot, on-demand; reserved), its two scenarios
/// repeated to eight.
fn plan(horizon: u32) -> Option<Plan> {
    let (catalog, file) = inputs(horizon)?;
    validate(&catalog, &file, None).ok()
}

/// The catalog and the scenario file `plan` validates.
fn inputs(horizon: u32) -> Option<(Catalog, ScenarioFile)> {
    let files: Vec<(String, String)> = FILES.iter().map(|(n, t)| ((*n).to_owned(), (*t).to_owned())).collect();
    let catalog = load(&files).ok()?;
    let mut file = parse(include_str!("../../../../catalogs/samples/enterprise-hybrid.json")).ok()?;
    let base = file.scenarios.clone();
    file.scenarios = (0..4)
        .flat_map(|k| {
            base.iter().map(move |s| {
                let mut s = s.clone();
                s.id = format!("{}-{k}", s.id);
                s
            })
        })
        .collect();
    file.horizon_months = horizon;
    Some((catalog, file))
}

fn bench(c: &mut Criterion) {
    for horizon in [36, 120] {
        let Some(p) = plan(horizon) else {
            eprintln!("the benchmark plan does not validate");
            return;
        };
        assert_eq!(p.scenarios.len(), 8);
        c.bench_function(&format!("evaluate 8 scenarios x {horizon} months"), |b| {
            b.iter(|| evaluate(std::hint::black_box(&p)))
        });
        let (catalog, file) = inputs(horizon).expect("the benchmark inputs load");
        c.bench_function(&format!("validate 8 scenarios x {horizon} months"), |b| {
            b.iter(|| validate(&catalog, std::hint::black_box(&file), None).is_ok())
        });
        c.bench_function(
            &format!("evaluate 8 scenarios x {horizon} months, on every core"),
            |b| b.iter(|| evaluate_parallel(std::hint::black_box(&p))),
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
