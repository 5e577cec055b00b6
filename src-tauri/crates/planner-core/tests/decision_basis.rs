//! One decision basis (issue 42): figures on one screen count the same costs, by the rules
//! ENGINE_RULES.md states. Each test pins one rule with a value worked out by hand from it.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::compare::buy_vs_rent;
use planner_core::evaluate::{Evaluation, ScenarioResult};
use rust_decimal::dec;

fn scenario<'a>(e: &'a Evaluation, id: &str) -> &'a ScenarioResult {
    e.scenarios
        .iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no scenario {id}"))
}

fn run(text: &str) -> Evaluation {
    common::run_with(&common::shipped_catalog(), text)
}

fn sample(name: &str) -> String {
    let path = format!("{}/../../../catalogs/samples/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

// ---- Point 1: the renter is priced paid by use ------------------------------------------------

/// The enterprise hybrid sample: the all-cloud renter has a 3-year reservation at 3.44 and
/// on-demand at the catalog's 6.88 (aws-p5-h100) for the batch inference the DGX serves. A
/// reservation is billed whether used or not, so it cannot price an hour of use: the renter's
/// price is on-demand, 6.88 per owned-GPU-hour (same card, same MFU, no egress share, so the
/// speed rule's conversion is 1). The independent reimplementation gives about 10.96 h/day
/// (22.22 when the reservation prices the hour).
#[test]
fn buy_vs_rent_prices_the_renter_at_its_cheapest_layer_paid_by_use() {
    let e = run(&sample("enterprise-hybrid"));
    let a = buy_vs_rent(&e, scenario(&e, "hybrid"), scenario(&e, "all-cloud")).unwrap();
    assert_eq!(a.renter_layer, "on-demand");
    assert!(
        (a.rent_per_owned_gpu_hour - dec!(6.88)).abs() < dec!(0.0000001),
        "{}",
        a.rent_per_owned_gpu_hour
    );
    let h = a.hours_per_day.unwrap();
    assert_eq!(h.round_dp(2), dec!(10.96), "{h}");
    assert!(a.words.contains("`on-demand`"), "{}", a.words);
    assert!(!a.words.contains("reserved rate"), "{}", a.words);
}

/// An owned H100 against a renter that only holds a reservation: with nothing paid by use, the
/// renter is priced at its reserved rate (3.00 per GPU-hour, same card and MFU, so 3.00 per
/// owned-GPU-hour) and the sentence says so.
#[test]
fn a_renter_with_only_commitments_is_priced_at_its_reserved_rate_and_says_so() {
    let text = r#"{
  "format_version": 1, "title": "reserved renter", "currency": "USD", "start": "2026-01",
  "horizon_months": 12, "discount_rate": "0",
  "workloads": [{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "96", "gpu_hours_on": "nvidia-h100-sxm", "mfu": "0.4" }],
  "scenarios": [
    { "id": "own", "name": "own", "layers": [
      { "id": "box", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8,
        "price_per_gpu": { "value": "25000", "reason": "test" } }],
      "facility": { "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40" } },
    { "id": "rent", "name": "rent", "layers": [
      { "id": "block", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 4,
        "price_per_gpu_hour": { "value": "3.00", "reason": "test" } }] }]
}"#;
    let e = run(text);
    let a = buy_vs_rent(&e, scenario(&e, "own"), scenario(&e, "rent")).unwrap();
    assert_eq!(a.renter_layer, "block");
    assert!(
        (a.rent_per_owned_gpu_hour - dec!(3.00)).abs() < dec!(0.0000001),
        "{}",
        a.rent_per_owned_gpu_hour
    );
    assert!(
        a.words
            .contains("`rent` has no layer paid by use for this work, so it is priced at the reserved rate of `block`"),
        "{}",
        a.words
    );
}
