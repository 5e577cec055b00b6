//! Every number a scenario file can carry is bounded (issue #14): extreme values, at and just
//! inside every bound, just outside it, and random huge strings, go through parse → validate →
//! evaluate → compare → decision view without a panic; refused values are named at their path.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use planner_core::catalog::Catalog;
use planner_core::engine::costing::evaluate::evaluate;
use planner_core::engine::decide::compare::compare_all;
use planner_core::engine::decide::decision::decision_view;
use planner_core::engine::input::limits::{check, is_text_field, range_of};
use planner_core::engine::input::scenario_file::parse;
use planner_core::engine::resolve::validate::validate;
use planner_core::problem::Problem;
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};

/// A file that uses every kind of layer, a loan, an exit clause, a model shape and a facility.
fn base() -> Value {
    json!({
        "format_version": 1, "title": "limits", "currency": "USD", "start": "2026-01",
        "horizon_months": 24, "discount_rate": "0.08",
        "workloads": [
            { "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
              "gpu_hours_per_day": "900", "gpu_hours_on": "nvidia-h100-sxm" },
            { "id": "train", "name": "train", "kind": "pre-training", "class": "exploratory",
              "interruptible": true, "gpu_hours_per_day": "40", "gpu_hours_on": "nvidia-h100-sxm" },
            { "id": "chat", "name": "chat", "kind": "inference", "class": "steady",
              "model": { "parameters_billion": "8", "layers": 32, "kv_heads": 8, "head_dim": 128,
                         "context_tokens": 8192, "batch": 8 },
              "tokens_per_month": "2000000000" },
            { "id": "agent", "name": "agent", "kind": "inference", "class": "steady",
              "model": { "parameters_billion": "8" }, "tokens_per_month": "1000000000",
              "token_mix": { "input": "0.5", "output": "0.3", "cached": "0.2" } }
        ],
        "scenarios": [{ "id": "mix", "name": "mix",
            "staff_fte": "1", "staff_cost_per_fte_year": "150000", "software_per_month": "100",
            "storage_per_month": "100", "egress_tb_per_month": "2", "egress_per_tb": "90",
            "egress_share_of_cloud_spend": "0.05",
            "layers": [
                { "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 16,
                  "serves": ["serve"], "idle_power_share": "0.3", "installation": "20000",
                  "lead_time_months": 2,
                  "financing": { "method": "loan", "annual_rate": "0.07", "term_months": 36,
                                 "down_payment": "0.2" } },
                { "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 8,
                  "price_per_gpu_hour": { "value": "4.20", "reason": "negotiated" }, "serves": ["serve"],
                  "exit_clause": { "notice_months": 3, "fee": { "kind": "fixed", "value": "10000" },
                                   "egress_per_tb": "50", "data_tb": "10", "offboarding": "5000" } },
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
        }, { "id": "rent", "name": "rent",
            "layers": [ { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" },
                        { "id": "api", "kind": "token-metered", "serves": ["chat"],
                          "price_per_million_tokens": { "value": "0.20", "reason": "list" } } ] }]
    })
}

/// Every number of the base file (and a few it leaves to defaults), by JSON pointer; `true` for
/// whole numbers.
const FIELDS: [(&str, bool); 59] = [
    ("/horizon_months", true),
    ("/discount_rate", false),
    ("/workloads/0/gpu_hours_per_day", false),
    ("/workloads/0/mfu", false),
    ("/workloads/0/monthly_growth", false),
    ("/workloads/0/active_from_month", true),
    ("/workloads/0/active_months", true),
    ("/workloads/1/gpu_hours_per_day", false),
    ("/workloads/1/monthly_growth", false),
    ("/workloads/2/tokens_per_month", false),
    ("/workloads/2/monthly_growth", false),
    ("/workloads/2/mfu", false),
    ("/workloads/2/model/parameters_billion", false),
    ("/workloads/2/model/layers", true),
    ("/workloads/2/model/kv_heads", true),
    ("/workloads/2/model/head_dim", true),
    ("/workloads/2/model/context_tokens", true),
    ("/workloads/2/model/batch", true),
    ("/workloads/3/tokens_per_month", false),
    ("/workloads/3/token_mix/input", false),
    ("/workloads/3/token_mix/output", false),
    ("/workloads/3/token_mix/cached", false),
    ("/scenarios/0/staff_fte", false),
    ("/scenarios/0/staff_cost_per_fte_year", false),
    ("/scenarios/0/engineer_month_cost", false),
    ("/scenarios/0/software_per_month", false),
    ("/scenarios/0/egress_tb_per_month", false),
    ("/scenarios/0/egress_per_tb", false),
    ("/scenarios/0/layers/0/gpus", true),
    ("/scenarios/0/layers/0/gpus_per_server", true),
    ("/scenarios/0/layers/0/price_per_gpu/value", false),
    ("/scenarios/0/layers/0/platform_cost_per_gpu", false),
    ("/scenarios/0/layers/0/installation", false),
    ("/scenarios/0/layers/0/peak_tflops/value", false),
    ("/scenarios/0/layers/0/power_kw_per_gpu/value", false),
    ("/scenarios/0/layers/0/running_cost_per_gpu_hour", false),
    ("/scenarios/0/layers/0/lead_time_months", true),
    ("/scenarios/0/layers/0/start_month", true),
    ("/scenarios/0/layers/0/depreciation_life_months", true),
    ("/scenarios/0/layers/0/financing/annual_rate", false),
    ("/scenarios/0/layers/0/financing/term_months", true),
    ("/scenarios/0/layers/1/gpus", true),
    ("/scenarios/0/layers/1/price_per_gpu_hour/value", false),
    ("/scenarios/0/layers/1/exit_clause/fee/value", false),
    ("/scenarios/0/layers/1/exit_clause/data_tb", false),
    ("/scenarios/0/layers/1/exit_clause/offboarding", false),
    ("/scenarios/0/layers/2/peak_tflops/value", false),
    ("/scenarios/0/layers/3/interruptions_per_hour", false),
    ("/scenarios/0/layers/3/checkpoint_write_minutes", false),
    ("/scenarios/0/layers/4/price_per_gpu_hour/value", false),
    ("/scenarios/0/layers/5/price_per_million_tokens/value", false),
    ("/scenarios/0/layers/6/price_per_million_input_tokens/value", false),
    ("/scenarios/0/layers/6/price_per_million_output_tokens/value", false),
    ("/scenarios/0/layers/6/price_per_million_cached_tokens/value", false),
    ("/scenarios/0/facility/tariff_per_kwh/value", false),
    ("/scenarios/0/facility/pue/value", false),
    ("/scenarios/0/facility/kw_per_rack_limit", false),
    ("/scenarios/0/facility/colocation_per_kw_month/value", false),
    ("/scenarios/0/network/per_port_cost/value", false),
];

/// The field name whose bound applies to a pointer (an override's `value` is its field's).
fn key_of(pointer: &str) -> &str {
    let mut parts = pointer.rsplit('/');
    let last = parts.next().unwrap_or_default();
    if last == "value" {
        parts.next().unwrap_or_default()
    } else {
        last
    }
}

/// Sets `pointer` to `value`, making an override object when its field is absent.
fn set(doc: &mut Value, pointer: &str, value: Value) {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    if last == "value" && doc.pointer(parent).is_none() {
        let (grand, field) = parent.rsplit_once('/').unwrap();
        let obj = doc.pointer_mut(grand).unwrap().as_object_mut().unwrap();
        obj.insert(field.to_owned(), json!({ "value": value, "reason": "limits test" }));
        return;
    }
    let obj = doc.pointer_mut(parent).unwrap().as_object_mut().unwrap();
    obj.insert(last.to_owned(), value);
}

/// Runs the whole pipeline; a panic becomes `Err` with its message.
fn pipeline(catalog: &Catalog, text: &str) -> Result<Result<(), Vec<Problem>>, String> {
    catch_unwind(AssertUnwindSafe(|| {
        let file = parse(text).map_err(|p| vec![p])?;
        let plan = validate(catalog, &file, None)?;
        let eval = evaluate(&plan);
        let _ = compare_all(&eval);
        let view = decision_view(&eval, None);
        let _ = serde_json::to_string(&view).unwrap();
        Ok(())
    }))
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default()
    })
}

/// Edge values of a field's bound: at it, just inside, just outside, and at its floor.
fn edges(key: &str) -> Vec<Decimal> {
    let (max, min) = range_of(key);
    let tiny = Decimal::new(1, 6);
    let mut out = vec![max, max - tiny.max(max * tiny), max + Decimal::ONE, max * Decimal::TEN];
    if let Some(min) = min {
        out.extend([min, min + min * tiny, min / Decimal::TWO]);
    }
    out
}

fn decimal_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "1",
            "-1",
            "0.0000000000000000000000000001",
            "79228162514264337593543950335",
            "-79228162514264337593543950335",
            "7922816251426433759354395033.5",
            "100000000000000000000",
            "1000000000000",
            "999999999999.9999999999999999",
        ])
        .prop_map(str::to_owned),
        // Random huge (and tiny) strings of digits.
        (1usize..32, 0usize..30).prop_map(|(digits, point)| {
            let s = "9".repeat(digits);
            if point > 0 && point < digits {
                format!("{}.{}", &s[..point], &s[point..])
            } else {
                s
            }
        }),
        (any::<i64>(), 0u32..=28).prop_map(|(m, scale)| Decimal::new(m, scale).to_string()),
    ]
}

fn whole() -> impl Strategy<Value = u64> {
    prop_oneof![
        prop::sample::select(vec![
            0u64,
            1,
            120,
            121,
            1200,
            1201,
            10_000_000,
            10_000_001,
            u64::from(u32::MAX)
        ]),
        any::<u32>().prop_map(u64::from),
    ]
}

#[derive(Debug, Clone)]
enum Pick {
    /// A field set to one of its edge values (index into `edges`).
    Edge(usize, usize),
    Text(usize, String),
    Whole(usize, u64),
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        (0..FIELDS.len(), 0usize..7).prop_map(|(f, e)| Pick::Edge(f, e)),
        (0..FIELDS.len(), decimal_text()).prop_map(|(f, t)| Pick::Text(f, t)),
        (0..FIELDS.len(), whole()).prop_map(|(f, w)| Pick::Whole(f, w)),
    ]
}

fn apply(doc: &mut Value, p: &Pick) {
    let value_of = |f: usize, d: Decimal| {
        let (pointer, is_whole) = FIELDS[f];
        let v = if is_whole {
            // A whole number field takes the edge rounded, as far as JSON and u32 allow.
            json!(d.trunc().to_string().parse::<u64>().unwrap_or(u64::MAX))
        } else {
            json!(d.to_string())
        };
        (pointer, v)
    };
    match p {
        Pick::Edge(f, e) => {
            let key = key_of(FIELDS[*f].0);
            let all = edges(key);
            let d = all[e % all.len()];
            let (pointer, v) = value_of(*f, d);
            set(doc, pointer, v);
        }
        Pick::Text(f, t) => {
            let (pointer, is_whole) = FIELDS[*f];
            let v = if is_whole {
                json!(t.parse::<u64>().unwrap_or(0))
            } else {
                json!(t)
            };
            set(doc, pointer, v);
        }
        Pick::Whole(f, w) => {
            let (pointer, is_whole) = FIELDS[*f];
            let v = if is_whole { json!(w) } else { json!(w.to_string()) };
            set(doc, pointer, v);
        }
    }
}

/// The shipped catalog, loaded once for every case.
fn shipped() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(common::shipped_catalog)
}

#[test]
fn the_base_file_evaluates() {
    let catalog = shipped();
    assert_eq!(pipeline(catalog, &base().to_string()), Ok(Ok(())));
}

#[test]
fn the_issue_reproducers_are_refused_at_their_paths() {
    let catalog = shipped();
    for (pointer, value, path) in [
        (
            "/workloads/2/model/parameters_billion",
            "100000000000000000000",
            "workloads[2].model.parameters_billion",
        ),
        (
            "/scenarios/0/layers/0/installation",
            "79228162514264337593543950335",
            "scenarios[0].layers[0].installation",
        ),
    ] {
        let mut doc = base();
        set(&mut doc, pointer, json!(value));
        let problems = pipeline(catalog, &doc.to_string()).unwrap().unwrap_err();
        let p = problems
            .iter()
            .find(|p| p.path == path)
            .unwrap_or_else(|| panic!("{problems:?}"));
        assert!(p.message.contains("at most"), "{}", p.message);
    }
}

#[test]
fn every_bound_is_accepted_at_its_limit_and_refused_past_it() {
    let catalog = shipped();
    for (f, (pointer, is_whole)) in FIELDS.iter().enumerate() {
        let (max, _) = range_of(key_of(pointer));
        // Past the bound: refused at the field's path.
        let mut doc = base();
        let over = max + Decimal::ONE;
        set(
            &mut doc,
            pointer,
            if *is_whole {
                json!(over.to_string().parse::<u64>().unwrap())
            } else {
                json!(over.to_string())
            },
        );
        let path_start = pointer.trim_start_matches('/').split('/').next().unwrap();
        match pipeline(catalog, &doc.to_string()) {
            Ok(Err(problems)) => assert!(
                problems.iter().any(|p| p.path.starts_with(path_start)),
                "{pointer} = {over}: {problems:?}"
            ),
            other => panic!("{pointer} = {over} was not refused: {other:?}"),
        }
        // At the bound: no panic, whatever the verdict of the field's own rules.
        let mut doc = base();
        apply(&mut doc, &Pick::Edge(f, 0));
        let verdict = pipeline(catalog, &doc.to_string());
        assert!(verdict.is_ok(), "{pointer} = {max} panicked: {verdict:?}");
    }
}

/// The bounds check as it was first written, the reference the direct walk is held to: the file
/// made into a `serde_json::Value` (objects' keys sorted), every number and numeric text under
/// it checked against the bound of its field, in the order of the walk.
fn out_of_bounds_by_value(v: &Value, path: &str, key: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let named = if k == "value" { key } else { k.as_str() };
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                out_of_bounds_by_value(child, &p, named, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                out_of_bounds_by_value(child, &format!("{path}[{i}]"), key, out);
            }
        }
        Value::String(s) if !is_text_field(key) => {
            if let Ok(d) = s.parse::<Decimal>() {
                refused(d, path, key, out);
            }
        }
        Value::Number(n) => {
            let d = n
                .as_u64()
                .map(Decimal::from)
                .or_else(|| n.as_i64().map(Decimal::from))
                .unwrap_or(Decimal::MAX);
            refused(d, path, key, out);
        }
        _ => {}
    }
}

fn refused(d: Decimal, path: &str, key: &str, out: &mut Vec<String>) {
    let (max, min) = range_of(key);
    if d.abs() > max || min.is_some_and(|min| d > Decimal::ZERO && d < min) {
        out.push(path.to_owned());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    /// The direct walk finds the same numbers out of bounds, at the same paths and in the same
    /// order, as the walk of the file's JSON it replaced.
    #[test]
    fn the_direct_walk_refuses_what_the_json_walk_refused(picks in prop::collection::vec(pick(), 1..8)) {
        let mut doc = base();
        for p in &picks {
            apply(&mut doc, p);
        }
        let Ok(file) = parse(&doc.to_string()) else {
            return Ok(());
        };
        let mut expected = Vec::new();
        out_of_bounds_by_value(&serde_json::to_value(&file).unwrap(), "", "", &mut expected);
        let found = check(&file);
        let paths: Vec<&str> = found.iter().map(|p| p.path.as_str()).collect();
        prop_assert_eq!(paths, expected.iter().map(String::as_str).collect::<Vec<_>>(), "picks: {:?}", picks);
        for p in &found {
            prop_assert!(p.message.contains("at most") || p.message.contains("at least"), "{}", p.message);
        }
    }

    #[test]
    fn extreme_values_never_panic(picks in prop::collection::vec(pick(), 1..8)) {
        let catalog = shipped();
        let mut doc = base();
        for p in &picks {
            apply(&mut doc, p);
        }
        let text = doc.to_string();
        let verdict = pipeline(catalog, &text);
        prop_assert!(verdict.is_ok(), "panicked: {:?}\ninput picks: {:?}", verdict, picks);
    }
}
