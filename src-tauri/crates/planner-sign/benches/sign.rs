//! Time to sign a 3-page PDF (P-256), to add a second signature, and to verify both.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use planner_sign::{Identity, SignRequest, sign, verify};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let pdf = common::sample_pdf(3);
    let id = Identity::create("Bench Signer", "Bench Org", None, common::t0(), 365).unwrap();
    let req = SignRequest {
        signer_name: "Bench Signer",
        reason: Some("Author"),
        location: None,
        time: common::t0(),
        appearance: None,
    };
    let once = sign(&pdf, &id, &req).unwrap();
    let twice = sign(&once, &id, &req).unwrap();
    c.bench_function("sign 3-page PDF (P-256)", |b| {
        b.iter(|| sign(black_box(&pdf), &id, &req).unwrap())
    });
    c.bench_function("second signature (P-256)", |b| {
        b.iter(|| sign(black_box(&once), &id, &req).unwrap())
    });
    c.bench_function("verify 2 signatures", |b| b.iter(|| verify(black_box(&twice)).unwrap()));
    c.bench_function("create identity (P-256 key + certificate)", |b| {
        b.iter(|| Identity::create("Bench Signer", "Bench Org", None, common::t0(), 365).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
