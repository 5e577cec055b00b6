//! Risk analysis speed: 1,000 draws of the enterprise hybrid sample's two scenarios repeated to
//! eight, at 36 months, on the shipped catalog (every draw validated and evaluated in full; the
//! fast path of issue #16 is still to come).
//!
//! `cargo bench -p planner-core --bench risk -- --warm-up-time 1 --measurement-time 10`

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, criterion_group, criterion_main};
use planner_core::catalog::{Catalog, load};
use planner_core::risk::Sampling;
use planner_core::risk_run::analyse;
use planner_core::scenario_file::{ScenarioFile, parse};

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
    let (catalog, file) = (shipped(), eight_scenarios());
    let mut group = c.benchmark_group("risk");
    group.sample_size(10);
    group.bench_function("1000 draws x 8 scenarios x 36 months", |b| {
        b.iter(|| {
            analyse(
                &catalog,
                &file,
                None,
                &Sampling {
                    draws: 1_000,
                    seed: 1,
                    group_correlation: 0.8,
                },
            )
            .unwrap()
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
