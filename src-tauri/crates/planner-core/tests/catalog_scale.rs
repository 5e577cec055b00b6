//! Loading a large catalog (issue #14: loading was quadratic, 37–48 s for 10,000 accelerators).
//! The timing lives in `benches/catalog_load.rs`; this test checks that such a catalog loads and
//! that its entries are still located to the line.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use planner_core::catalog::{load, parse_file};

fn accelerators(n: usize, broken: Option<usize>) -> String {
    let mut text = include_str!("fixtures/engine-catalog/accelerators.toml").to_owned();
    for i in 0..n {
        let memory = if broken == Some(i) { "-80" } else { "80" };
        text.push_str(&format!(
            "\n[[accelerator]]\nid = \"generated-{i}\"\nname = \"Generated accelerator {i}\"\nvendor = \"Bench\"\n\
             family = \"training\"\nlaunch_year = 2024\nmemory_type = \"HBM3\"\nscale_up = \"none\"\n\
             form_factor = \"PCIe\"\nsrc = \"ref\"\nconf = \"secondary\"\nmemory_gb = {memory}\nbf16_tflops = 989\n\
             fp8_tflops = 1979\ntdp_w = 700\nprice_usd = {{ low = 25000, high = 40000 }}\n"
        ));
    }
    text
}

#[test]
fn ten_thousand_accelerators_load_and_issues_keep_their_lines() {
    let n = 10_000;
    let started = std::time::Instant::now();
    let mut files = vec![("accelerators.toml".to_owned(), accelerators(n, None))];
    for f in ["offers", "facility", "fabrics", "regions"] {
        let text = std::fs::read_to_string(format!(
            "{}/tests/fixtures/engine-catalog/{f}.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        files.push((format!("{f}.toml"), text));
    }
    let catalog = load(&files).unwrap();
    assert!(catalog.accelerators.len() > n);
    // Printed, not asserted: timings belong to the bench.
    eprintln!(
        "loaded {} accelerators in {:?}",
        catalog.accelerators.len(),
        started.elapsed()
    );

    // An issue near the end of a long file is located on its own line.
    let text = accelerators(n, Some(n - 1));
    let err = parse_file("accelerators.toml", &text).unwrap_err();
    let issue = err.issues.first().unwrap();
    let expected = text.lines().position(|l| l == "memory_gb = -80").unwrap() + 1;
    assert_eq!(issue.line as usize, expected, "{issue:?}");
}
