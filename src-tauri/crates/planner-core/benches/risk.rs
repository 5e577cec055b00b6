//! Risk analysis speed: 1,000 and 10,000 draws of the enterprise hybrid sample's two scenarios
//! repeated to eight, at 36 and 120 months, on the shipped catalog, re-priced on the plan's
//! surface; and 1,000 draws each validated and evaluated in full, the path the surface replaces.
//!
//! `cargo bench -p planner-core --bench risk -- --warm-up-time 1 --measurement-time 10`

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, criterion_group, criterion_main};
use planner_core::catalog::{Catalog, load};
use planner_core::engine::input::scenario_file::{ScenarioFile, parse};
use planner_core::engine::risk::run::{Control, analyse, analyse_with};
use planner_core::engine::risk::sampling::Sampling;

fn shipped() -> Catalog {
    let dir = format!("{}/../../../catalogs", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    files.sort();
    load(&files).unwrap()
}

fn eight_scenarios() -> ScenarioFile {
    let mut file = parse(include_str!("../../../../catalogs/samples/enterprise-hybrid.json")).unwrap();
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
    file
}

fn bench(c: &mut Criterion) {
    let catalog = shipped();
    let mut group = c.benchmark_group("risk");
    group.sample_size(10);
    for horizon in [36, 120] {
        let mut file = eight_scenarios();
        file.horizon_months = horizon;
        for draws in [1_000, 10_000] {
            let sampling = Sampling {
                draws,
                seed: 1,
                group_correlation: 0.8,
                shape: planner_core::engine::risk::sampling::Shape::Triangular,
            };
            group.bench_function(format!("{draws} draws x 8 scenarios x {horizon} months"), |b| {
                b.iter(|| analyse(&catalog, &file, None, &sampling).unwrap());
            });
        }
        // The reference the surface is checked against: every draw validated and evaluated.
        let sampling = Sampling {
            draws: 1_000,
            seed: 1,
            group_correlation: 0.8,
            shape: planner_core::engine::risk::sampling::Shape::Triangular,
        };
        group.bench_function(
            format!("1000 draws x 8 scenarios x {horizon} months, each in full"),
            |b| {
                b.iter(|| analyse_with(&catalog, &file, None, &sampling, &[], &Control::full()).unwrap());
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
