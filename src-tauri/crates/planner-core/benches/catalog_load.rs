//! Catalog loading speed: a catalog whose accelerators file holds 1,000 and 10,000 entries (issue
//! #14: loading was quadratic in the file's length, 37–48 s at 10,000).
//!
//! `cargo bench -p planner-core --bench catalog_load -- --warm-up-time 1 --measurement-time 3`

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use planner_core::catalog::load;

const OTHER_FILES: [(&str, &str); 4] = [
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

/// The engine test catalog's accelerators file followed by `n` generated accelerators.
fn accelerators(n: usize) -> String {
    let mut text = include_str!("../tests/fixtures/engine-catalog/accelerators.toml").to_owned();
    for i in 0..n {
        text.push_str(&format!(
            "\n[[accelerator]]\nid = \"generated-{i}\"\nname = \"Generated accelerator {i}\"\nvendor = \"Bench\"\n\
             family = \"training\"\nlaunch_year = 2024\nmemory_type = \"HBM3\"\nscale_up = \"none\"\n\
             form_factor = \"PCIe\"\nsrc = \"ref\"\nconf = \"secondary\"\nmemory_gb = 80\nbf16_tflops = 989\n\
             fp8_tflops = 1979\ntdp_w = 700\nprice_usd = {{ low = 25000, high = 40000 }}\n"
        ));
    }
    text
}

fn files(n: usize) -> Vec<(String, String)> {
    let mut files = vec![("accelerators.toml".to_owned(), accelerators(n))];
    files.extend(OTHER_FILES.iter().map(|(f, t)| ((*f).to_owned(), (*t).to_owned())));
    files
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("catalog_load");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let files = files(n);
        let catalog = load(&files).expect("the generated catalog loads");
        assert!(catalog.accelerators.len() > n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &files, |b, files| {
            b.iter(|| load(files).expect("loads"));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
