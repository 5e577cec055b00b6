//! Chart speed: the cumulative chart of 8 scenarios × 36 months, and one scenario's monthly
//! stacked bars over the same horizon, as SVG strings.
//!
//! `cargo bench -p planner-report --bench charts -- --quick`

// Bench code: a failure to set up is a failed run, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use planner_report::charts::{ChartSize, Theme, cumulative_svg, monthly_svg};

fn bench(c: &mut Criterion) {
    let (_, view) = common::evaluate_text(&common::eight_scenarios_text(), None);
    assert_eq!((view.scenarios.len(), view.months.len()), (8, 36));
    let size = ChartSize::default();
    // The scenario with the most bars: owned hardware, cloud, resale.
    let id = view
        .scenarios
        .iter()
        .max_by_key(|s| {
            s.monthly
                .iter()
                .map(|c| c.values.iter().filter(|v| !v.is_zero()).count())
                .sum::<usize>()
        })
        .map(|s| s.id.clone())
        .unwrap();
    c.bench_function("cumulative_svg 8 scenarios x 36 months", |b| {
        b.iter(|| cumulative_svg(black_box(&view), Theme::Dark, size).unwrap())
    });
    c.bench_function("monthly_svg 36 months", |b| {
        b.iter(|| monthly_svg(black_box(&view), &id, Theme::Dark, size).unwrap())
    });
    c.bench_function("cumulative_svg + monthly_svg of all 8 scenarios", |b| {
        b.iter(|| {
            let mut bytes = cumulative_svg(black_box(&view), Theme::Light, size).unwrap().len();
            for s in &view.scenarios {
                bytes += monthly_svg(&view, &s.id, Theme::Light, size).unwrap().len();
            }
            bytes
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
