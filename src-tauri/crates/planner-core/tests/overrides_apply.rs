//! Every override a scenario file can carry either changes the result or is refused at its
//! field path: none is accepted and then silently ignored (a signed memo would otherwise cite a
//! quote that was never applied). The property runs every override field of the format, on a
//! scenario where each kind of layer does work, with random values.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::catalog::Catalog;
use planner_core::engine::costing::evaluate::{Evaluation, evaluate};
use planner_core::engine::input::scenario_file::parse;
use planner_core::engine::resolve::validate::validate;
use proptest::prelude::*;
use serde_json::{Value, json};

/// One scenario whose every layer serves: owned servers on a priced fabric in a colocation
/// room, reserved and on-demand capacity, spot for interruptible training, an API at one price
/// and one priced by kind of token.
fn base() -> Value {
    json!({
        "format_version": 1, "title": "overrides", "currency": "USD", "start": "2026-01",
        "horizon_months": 12, "discount_rate": "0.08",
        "workloads": [
            { "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
              "gpu_hours_per_day": "900", "gpu_hours_on": "nvidia-h100-sxm" },
            { "id": "train", "name": "train", "kind": "pre-training", "class": "exploratory",
              "interruptible": true, "gpu_hours_per_day": "40", "gpu_hours_on": "nvidia-h100-sxm" },
            { "id": "chat", "name": "chat", "kind": "inference", "class": "steady",
              "model": { "parameters_billion": "8" }, "tokens_per_month": "2000000000" },
            { "id": "agent", "name": "agent", "kind": "inference", "class": "steady",
              "model": { "parameters_billion": "8" }, "tokens_per_month": "1000000000",
              "token_mix": { "input": "0.5", "output": "0.3", "cached": "0.2" } }
        ],
        "scenarios": [{ "id": "mix", "name": "mix",
            "layers": [
                { "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 16,
                  "serves": ["serve"], "idle_power_share": "0.3" },
                { "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 8,
                  "price_per_gpu_hour": { "value": "4.20", "reason": "negotiated" }, "serves": ["serve"] },
                { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", "serves": ["serve"] },
                { "id": "spot", "kind": "spot", "offer": "aws-p5-h100", "interruptions_per_hour": "0.1",
                  "gpus": 1, "serves": ["train"] },
                { "id": "pool", "kind": "pooled", "accelerator": "nvidia-a100-80gb-sxm",
                  "price_per_gpu_hour": { "value": "1.10", "reason": "charge-back" }, "gpus": 6,
                  "serves": ["train"] },
                { "id": "api", "kind": "token-metered", "serves": ["chat"],
                  "price_per_million_tokens": { "value": "0.20", "reason": "list" } },
                { "id": "api-split", "kind": "token-metered", "serves": ["agent"],
                  "price_per_million_input_tokens": { "value": "3.00", "reason": "list" },
                  "price_per_million_output_tokens": { "value": "15.00", "reason": "list" },
                  "price_per_million_cached_tokens": { "value": "0.30", "reason": "list" } }
            ],
            "network": { "fabric": "ib-ndr-400" },
            "facility": { "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "45",
                          "colocation": "north-america-2025" }
        }]
    })
}

/// Every override field of the format, as a JSON pointer to where it sits in `base()`.
const FIELDS: [&str; 17] = [
    "/scenarios/0/layers/0/price_per_gpu",
    "/scenarios/0/layers/0/peak_tflops",
    "/scenarios/0/layers/0/power_kw_per_gpu",
    "/scenarios/0/layers/1/price_per_gpu_hour",
    "/scenarios/0/layers/1/peak_tflops",
    "/scenarios/0/layers/2/price_per_gpu_hour",
    "/scenarios/0/layers/3/price_per_gpu_hour",
    "/scenarios/0/layers/4/price_per_gpu_hour",
    "/scenarios/0/layers/5/price_per_million_tokens",
    "/scenarios/0/layers/6/price_per_million_input_tokens",
    "/scenarios/0/layers/6/price_per_million_output_tokens",
    "/scenarios/0/layers/6/price_per_million_cached_tokens",
    "/scenarios/0/facility/tariff_per_kwh",
    "/scenarios/0/facility/grid_gco2_per_kwh",
    "/scenarios/0/facility/pue",
    "/scenarios/0/facility/colocation_per_kw_month",
    "/scenarios/0/network/per_port_cost",
];

fn set(doc: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    doc.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .insert(key.to_owned(), value);
}

/// The JSON path the validator names for a pointer: `/scenarios/0/layers/1/x` is
/// `scenarios[0].layers[1].x`.
fn json_path(pointer: &str) -> String {
    let mut out = String::new();
    for part in pointer.trim_start_matches('/').split('/') {
        if part.chars().all(|c| c.is_ascii_digit()) {
            out.push_str(&format!("[{part}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(part);
        }
    }
    out
}

/// What the numbers are, leaving out the list of assumptions (which records every override
/// whether it was applied or not).
fn figures(e: &Evaluation) -> String {
    e.scenarios
        .iter()
        .map(|s| format!("{:?}{:?}{:?}{:?}", s.totals, s.ledger, s.layer_plans, s.buy_rent))
        .collect()
}

fn evaluate_doc(catalog: &Catalog, doc: &Value) -> Result<Evaluation, Vec<planner_core::problem::Problem>> {
    let file = parse(&doc.to_string()).map_err(|p| vec![p])?;
    validate(catalog, &file, None).map(|plan| evaluate(&plan))
}

#[test]
fn every_layer_of_the_base_does_work() {
    let catalog = common::shipped_catalog();
    let e = evaluate_doc(&catalog, &base()).unwrap();
    let s = &e.scenarios[0];
    let m = &s.ledger.months[11];
    assert!(m.usage.owned_busy_gpu_h > rust_decimal::Decimal::ZERO);
    assert!(
        s.totals
            .cash
            .get(planner_core::engine::model::ledger::Category::CloudCompute)
            > rust_decimal::Decimal::ZERO
    );
    assert!(
        s.totals
            .cash
            .get(planner_core::engine::model::ledger::Category::Network)
            > rust_decimal::Decimal::ZERO
    );
    assert!(s.totals.tokens > rust_decimal::Decimal::ZERO);
    // The spot layer is capped, so the pool takes the rest of the training: nothing is unmet.
    assert!(s.totals.unserved_cost.is_zero(), "{:?}", s.warnings);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn no_override_is_silently_ignored(field in 0usize..FIELDS.len(), cents in 1u64..5_000_000) {
        let catalog = common::shipped_catalog();
        let base_doc = base();
        let before = figures(&evaluate_doc(&catalog, &base_doc).unwrap());
        let pointer = FIELDS[field];
        let value = rust_decimal::Decimal::new(i64::try_from(cents).unwrap(), 2);
        let mut doc = base_doc.clone();
        set(&mut doc, pointer, json!({ "value": value.to_string(), "reason": "property test" }));
        match evaluate_doc(&catalog, &doc) {
            Ok(e) => {
                // The assumption carries the value; the figures must move with it.
                let path = json_path(pointer);
                let s = &e.scenarios[0];
                let used = s.assumptions.iter().find(|a| a.path.starts_with(path.as_str()));
                prop_assert!(used.is_some(), "{path}: no assumption records the override");
                let moved = figures(&e) != before;
                // An override equal to what the catalog gave changes nothing, rightly.
                let same_as_catalog = evaluate_doc(&catalog, &base_doc).unwrap().scenarios[0]
                    .assumptions
                    .iter()
                    .any(|a| a.path == path && a.value == value);
                prop_assert!(moved || same_as_catalog, "{path} = {value} was accepted but changed nothing");
            }
            Err(problems) => {
                let path = json_path(pointer);
                prop_assert!(
                    problems.iter().any(|p| p.path.starts_with(&path)),
                    "{path} = {value} refused elsewhere: {problems:?}"
                );
            }
        }
    }
}
