//! A memo of four scenarios over 36 months (five vector charts, about ten pages): the time to lay
//! it out and write the PDF.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use planner_core::memo::Paper;

fn bench(c: &mut Criterion) {
    let case = common::case(&common::report::copies_text(2), None);
    let draft = common::draft(&case, Paper::A4);
    let memo = common::memo(&case, &draft);
    eprintln!(
        "memo: {} pages, {} charts, {} bytes",
        memo.pages,
        memo.charts,
        memo.bytes.len()
    );
    c.bench_function("memo_4_scenarios_36_months", |b| b.iter(|| common::memo(&case, &draft)));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
