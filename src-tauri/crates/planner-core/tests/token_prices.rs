//! API prices by kind of token (issue #19): a token-metered layer priced per million input,
//! output and cached tokens bills each inference workload by its token mix, booked from
//! dispatch's cells; the mix moves the API's cost and never a self-hosted one; the problems name
//! their paths; and a file with one blended price reads and evaluates as before.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::costing::evaluate::{Evaluation, ScenarioResult, evaluate};
use planner_core::engine::costing::operations::DispatchUnit;
use planner_core::engine::input::scenario_file::{parse, to_json};
use planner_core::engine::model::assumption::Origin;
use planner_core::engine::model::ledger::Category;
use planner_core::engine::resolve::validate::validate;
use planner_core::problem::Problem;
use rust_decimal::Decimal;
use rust_decimal::dec;
use serde_json::{Value, json};

/// Within this of each other, two figures are the same: the ledger keeps 10 decimal places and
/// a million tokens is converted through useful PFLOP-hours and back.
const CLOSE: Decimal = dec!(0.000001);

fn close(a: Decimal, b: Decimal) -> bool {
    (a - b).abs() < CLOSE
}

/// One inference workload, 10^9 tokens a month of an 8B model with `mix` (none when `None`),
/// served by an API at input 3.00, output 15.00, cached 0.30 per million (scenario `api`) and
/// by owned H100s with on-demand overflow (scenario `own`).
fn file(mix: Option<[&str; 3]>) -> Value {
    let mut chat = json!({
        "id": "chat", "name": "chat", "kind": "inference", "class": "steady",
        "model": { "parameters_billion": "8" }, "tokens_per_month": "1000000000"
    });
    if let Some([input, output, cached]) = mix {
        chat["token_mix"] = json!({ "input": input, "output": output, "cached": cached });
    }
    json!({
        "format_version": 1, "title": "tokens", "currency": "USD", "start": "2026-01",
        "horizon_months": 12, "discount_rate": "0.08",
        "workloads": [chat],
        "scenarios": [
            { "id": "api", "name": "API", "layers": [
                { "id": "api", "kind": "token-metered",
                  "price_per_million_input_tokens": { "value": "3.00", "reason": "list price, input" },
                  "price_per_million_output_tokens": { "value": "15.00", "reason": "list price, output" },
                  "price_per_million_cached_tokens": { "value": "0.30", "reason": "list price, cache reads" } }] },
            { "id": "own", "name": "self-hosted", "staff_fte": "0.5", "staff_cost_per_fte_year": "150000",
              "layers": [
                { "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8 },
                { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" }],
              "facility": { "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40" } }
        ]
    })
}

fn run(doc: &Value) -> Evaluation {
    common::run(&doc.to_string())
}

fn problems(doc: &Value) -> Vec<Problem> {
    let file = parse(&doc.to_string()).unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message));
    match validate(&common::catalog(), &file, None) {
        Ok(_) => Vec::new(),
        Err(p) => p,
    }
}

fn scenario<'a>(e: &'a Evaluation, id: &str) -> &'a ScenarioResult {
    e.scenarios.iter().find(|s| s.id == id).unwrap()
}

fn cloud_compute(s: &ScenarioResult, month: usize) -> Decimal {
    s.ledger.months[month].cash.get(Category::CloudCompute)
}

#[test]
fn the_api_books_a_million_tokens_at_the_mix_weighted_price() {
    let e = run(&file(Some(["0.6", "0.3", "0.1"])));
    let api = scenario(&e, "api");
    // 10^9 tokens a month are 1,000 million, at 0.6 × 3.00 + 0.3 × 15.00 + 0.1 × 0.30.
    let per_million = dec!(0.6) * dec!(3.00) + dec!(0.3) * dec!(15.00) + dec!(0.1) * dec!(0.30);
    let expected = dec!(1000) * per_million;
    assert_eq!(expected, dec!(6330));
    for m in 0..12 {
        assert!(
            close(cloud_compute(api, m), expected),
            "month {m}: {}",
            cloud_compute(api, m)
        );
    }
    assert!(
        close(api.totals.total_cash, expected * dec!(12)),
        "{}",
        api.totals.total_cash
    );
    // The cost per million tokens is the workload's own price.
    let cpm = api.totals.cost_per_million_tokens.unwrap();
    assert!(close(cpm, per_million), "{cpm}");
    // Buy versus rent prices the API at the same price, per useful PFLOP-hour: an 8B model
    // infers 3.6 × 10^18 ÷ (2 × 8 × 10^9) = 225 million tokens per PFLOP-hour.
    let (rent, layer) = api.buy_rent.rent[0].clone().unwrap();
    assert_eq!(layer, "api");
    assert!(close(rent, per_million * dec!(225)), "{rent}");
    // Each price is an override with its reason; the mix is the planner's declared figure.
    let assumption = |path: &str| api.assumptions.iter().find(|a| a.path == path).unwrap();
    for (field, value, reason) in [
        ("input", dec!(3.00), "list price, input"),
        ("output", dec!(15.00), "list price, output"),
        ("cached", dec!(0.30), "list price, cache reads"),
    ] {
        let a = assumption(&format!("scenarios[0].layers[0].price_per_million_{field}_tokens"));
        assert_eq!(a.value, value);
        assert_eq!(
            a.origin,
            Origin::Override {
                reason: reason.to_owned()
            }
        );
    }
    for (kind, share) in [("input", dec!(0.6)), ("output", dec!(0.3)), ("cached", dec!(0.1))] {
        let a = assumption(&format!("workloads[0].token_mix.{kind}"));
        assert_eq!(a.value, share);
        let Origin::Override { reason } = &a.origin else {
            panic!("{a:?}")
        };
        assert!(reason.contains("declared"), "{reason}");
    }
    // The self-hosted scenario uses no split price, so it records no mix.
    let own = scenario(&e, "own");
    assert!(!own.assumptions.iter().any(|a| a.path.contains("token_mix")));
}

#[test]
fn the_mix_moves_the_api_cost_and_leaves_the_self_hosted_total_exactly() {
    let before = run(&file(Some(["0.6", "0.3", "0.1"])));
    let after = run(&file(Some(["0.2", "0.7", "0.1"])));
    // The API: 1,000 million tokens a month, 0.4 of them moved from input to output.
    let moved = dec!(1000) * dec!(0.4) * (dec!(15.00) - dec!(3.00)) * dec!(12);
    let (a0, a1) = (scenario(&before, "api"), scenario(&after, "api"));
    assert!(close(a1.totals.total_cash - a0.totals.total_cash, moved));
    assert_ne!(a0.totals.decision_total, a1.totals.decision_total);
    // Self-hosted: every token is 2N FLOPs whatever its kind, so nothing moves.
    let (o0, o1) = (scenario(&before, "own"), scenario(&after, "own"));
    assert!(
        o0.totals.owned_busy_gpu_h > Decimal::ZERO,
        "the owned GPUs serve the tokens"
    );
    assert!(o0.totals.unmet_pflop_h.is_zero());
    assert_eq!(o0.totals, o1.totals);
    assert_eq!(o0.ledger, o1.ledger);
    assert_eq!(o0.operations, o1.operations);
    assert_eq!(o0.buy_rent, o1.buy_rent);
    // Nor does the work the API serves.
    assert_eq!(a0.totals.served_pflop_h, a1.totals.served_pflop_h);
    assert_eq!(a0.totals.tokens, a1.totals.tokens);
}

/// Two workloads with their own mixes on one split-priced API, beside on-demand GPUs: each
/// month, the dispatch cells' cost on the paid-by-use layers is the ledger's cloud compute, and
/// each token-metered cell is its millions of tokens at its workload's own price.
#[test]
fn the_dispatch_cells_cost_what_the_ledger_books_every_month() {
    let doc = json!({
        "format_version": 1, "title": "cells", "currency": "USD", "start": "2026-01",
        "horizon_months": 6, "discount_rate": "0",
        "workloads": [
            { "id": "chat", "name": "chat", "kind": "inference", "class": "steady",
              "model": { "parameters_billion": "8" }, "tokens_per_month": "1000000000",
              "monthly_growth": "0.1",
              "token_mix": { "input": "0.6", "output": "0.3", "cached": "0.1" } },
            { "id": "rag", "name": "rag", "kind": "inference", "class": "variable",
              "model": { "parameters_billion": "70" }, "tokens_per_month": "300000000",
              "token_mix": { "input": "0.5", "output": "0.05", "cached": "0.45" } },
            { "id": "train", "name": "train", "kind": "fine-tuning", "class": "variable",
              "gpu_hours_per_day": "20", "gpu_hours_on": "nvidia-h100-sxm" }],
        "scenarios": [{ "id": "mix", "name": "mix", "layers": [
            { "id": "api", "kind": "token-metered", "serves": ["chat", "rag"],
              "price_per_million_input_tokens": { "value": "3.00", "reason": "list" },
              "price_per_million_output_tokens": { "value": "15.00", "reason": "list" },
              "price_per_million_cached_tokens": { "value": "0.30", "reason": "list" } },
            { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", "serves": ["train"] }] }]
    });
    let e = run(&doc);
    let s = &e.scenarios[0];
    let ops = &s.operations;
    let price = |w: usize| match w {
        0 => dec!(0.6) * dec!(3.00) + dec!(0.3) * dec!(15.00) + dec!(0.1) * dec!(0.30),
        1 => dec!(0.5) * dec!(3.00) + dec!(0.05) * dec!(15.00) + dec!(0.45) * dec!(0.30),
        _ => unreachable!(),
    };
    for (m, (d, l)) in ops.months.iter().zip(&s.ledger.months).enumerate() {
        let cells: Decimal = d.served.iter().map(|c| c.cost).sum();
        let booked = l.cash.get(Category::CloudCompute);
        assert!(
            (cells - booked).abs() < dec!(0.0000000001),
            "month {m}: {cells} vs {booked}"
        );
        let mut token_cells = 0;
        for c in &d.served {
            if ops.layers[c.layer as usize].unit == DispatchUnit::MillionTokens {
                assert_eq!(c.cost, c.units * price(c.workload as usize));
                token_cells += 1;
            }
        }
        assert_eq!(token_cells, 2, "month {m}: both workloads on the API");
    }
}

#[test]
fn cached_tokens_default_to_the_input_price_and_say_so() {
    let mut doc = file(Some(["0.6", "0.3", "0.1"]));
    doc["scenarios"][0]["layers"][0]
        .as_object_mut()
        .unwrap()
        .remove("price_per_million_cached_tokens");
    let e = run(&doc);
    let api = scenario(&e, "api");
    let expected = dec!(1000) * (dec!(0.6) * dec!(3.00) + dec!(0.3) * dec!(15.00) + dec!(0.1) * dec!(3.00));
    assert!(close(cloud_compute(api, 0), expected), "{}", cloud_compute(api, 0));
    let a = api
        .assumptions
        .iter()
        .find(|a| a.path == "scenarios[0].layers[0].price_per_million_cached_tokens")
        .unwrap();
    assert_eq!(a.value, dec!(3.00));
    let Origin::Override { reason } = &a.origin else {
        panic!("{a:?}")
    };
    assert!(
        reason.contains("input price") && reason.contains("list price, input"),
        "{reason}"
    );
}

#[test]
fn a_split_price_in_another_currency_is_converted_like_the_blended_one() {
    let mut doc = file(Some(["1", "0", "0"]));
    doc["fx"] = json!([{ "base": "EUR", "quote": "USD", "rate": "1.10", "source": "test" }]);
    doc["scenarios"][0]["layers"][0]["price_per_million_input_tokens"] =
        json!({ "value": "2.00", "currency": "EUR", "reason": "quote 7" });
    let e = run(&doc);
    let api = scenario(&e, "api");
    assert!(
        close(cloud_compute(api, 0), dec!(1000) * dec!(2.20)),
        "{}",
        cloud_compute(api, 0)
    );
    let a = api
        .assumptions
        .iter()
        .find(|a| a.path == "scenarios[0].layers[0].price_per_million_input_tokens")
        .unwrap();
    let Origin::Override { reason } = &a.origin else {
        panic!("{a:?}")
    };
    assert!(reason.contains("EUR 2.00"), "{reason}");
}

fn paths(p: &[Problem]) -> Vec<&str> {
    p.iter().map(|p| p.path.as_str()).collect()
}

#[test]
fn a_blended_price_beside_split_prices_is_refused_at_its_path() {
    let mut doc = file(Some(["0.6", "0.3", "0.1"]));
    doc["scenarios"][0]["layers"][0]["price_per_million_tokens"] = json!({ "value": "5", "reason": "blended" });
    let p = problems(&doc);
    assert_eq!(paths(&p), ["scenarios[0].layers[0].price_per_million_tokens"], "{p:#?}");
    assert!(p[0].message.contains("one price or the other"), "{}", p[0].message);
}

#[test]
fn an_input_price_without_an_output_price_is_refused_at_the_missing_one() {
    let mut doc = file(Some(["0.6", "0.3", "0.1"]));
    doc["scenarios"][0]["layers"][0]
        .as_object_mut()
        .unwrap()
        .remove("price_per_million_output_tokens");
    let p = problems(&doc);
    assert_eq!(
        paths(&p),
        ["scenarios[0].layers[0].price_per_million_output_tokens"],
        "{p:#?}"
    );
}

#[test]
fn split_prices_serving_a_workload_without_a_mix_ask_for_its_token_mix() {
    let p = problems(&file(None));
    assert_eq!(paths(&p), ["workloads[0].token_mix"], "{p:#?}");
    assert!(
        p[0].message
            .contains("give the workload's token_mix: the share of input, output and cached tokens"),
        "{}",
        p[0].message
    );
    // A workload the layer may not serve needs no mix.
    let mut doc = file(None);
    doc["workloads"].as_array_mut().unwrap().push(
        json!({ "id": "other", "name": "other", "kind": "inference", "class": "steady",
                      "model": { "parameters_billion": "8" }, "tokens_per_month": "1000",
                      "token_mix": { "input": "1", "output": "0" } }),
    );
    doc["scenarios"][0]["layers"][0]["serves"] = json!(["other"]);
    assert_eq!(problems(&doc), Vec::new());
}

#[test]
fn a_mix_that_does_not_sum_to_one_is_refused_at_its_path() {
    let p = problems(&file(Some(["0.6", "0.3", "0.2"])));
    assert_eq!(paths(&p), ["workloads[0].token_mix"], "{p:#?}");
    assert!(p[0].message.contains("sum to 1.1, not 1"), "{}", p[0].message);
    // Within 10^-9 of 1 is 1.
    assert_eq!(problems(&file(Some(["0.6", "0.3", "0.1000000001"]))), Vec::new());
    // A share beyond 0 to 1 is refused at the share (and the sum with it).
    let p = problems(&file(Some(["1.2", "-0.2", "0"])));
    assert!(paths(&p).contains(&"workloads[0].token_mix.input"), "{p:#?}");
    assert!(paths(&p).contains(&"workloads[0].token_mix.output"), "{p:#?}");
    // A mix is for inference only.
    let mut doc = file(Some(["0.6", "0.3", "0.1"]));
    doc["workloads"][0]["kind"] = json!("fine-tuning");
    let p = problems(&doc);
    assert!(paths(&p).contains(&"workloads[0].token_mix"), "{p:#?}");
    // And split prices are for token-metered layers only.
    let mut doc = file(Some(["0.6", "0.3", "0.1"]));
    doc["scenarios"][1]["layers"][1]["price_per_million_input_tokens"] = json!({ "value": "1", "reason": "x" });
    let p = problems(&doc);
    assert_eq!(
        paths(&p),
        ["scenarios[1].layers[1].price_per_million_input_tokens"],
        "{p:#?}"
    );
}

/// A file written before prices by kind of token: it reads and writes back without the new
/// fields, and its API books its units at the one price, as it always did.
#[test]
fn a_blended_price_file_reads_and_evaluates_as_before() {
    let mut doc = file(None);
    let layer = doc["scenarios"][0]["layers"][0].as_object_mut().unwrap();
    for kind in ["input", "output", "cached"] {
        layer.remove(&format!("price_per_million_{kind}_tokens"));
    }
    layer.insert(
        "price_per_million_tokens".to_owned(),
        json!({ "value": "0.88", "reason": "list" }),
    );
    let text = doc.to_string();
    let file = parse(&text).unwrap();
    let written = to_json(&file);
    assert!(
        !written.contains("token_mix") && !written.contains("input_tokens"),
        "{written}"
    );
    let plan = validate(&common::catalog(), &file, None).unwrap();
    assert!(plan.scenarios[0].layers[0].token_prices.is_none());
    let e = evaluate(&plan);
    let api = scenario(&e, "api");
    let units: Decimal = api.operations.months[0].served.iter().map(|c| c.units).sum();
    assert_eq!(
        cloud_compute(api, 0),
        planner_core::engine::blocks::finance::to_ledger(units * dec!(0.88))
    );
    assert!(close(cloud_compute(api, 0), dec!(880)));
    assert_eq!(
        api.totals.cost_per_million_tokens.map(|c| c.round_dp(10)),
        Some(dec!(0.88))
    );
    // The same file with the three split prices all at 0.88 gives the same figures, whatever
    // its mix.
    let mut split = doc.clone();
    let layer = split["scenarios"][0]["layers"][0].as_object_mut().unwrap();
    layer.remove("price_per_million_tokens");
    for kind in ["input", "output", "cached"] {
        layer.insert(
            format!("price_per_million_{kind}_tokens"),
            json!({ "value": "0.88", "reason": "list" }),
        );
    }
    split["workloads"][0]["token_mix"] = json!({ "input": "0.6", "output": "0.3", "cached": "0.1" });
    let s = run(&split);
    let (a, b) = (scenario(&e, "api"), scenario(&s, "api"));
    assert_eq!(a.totals, b.totals);
    assert_eq!(a.ledger, b.ledger);
    // The self-hosted scenario beside it does not notice.
    assert_eq!(scenario(&e, "own").totals, scenario(&s, "own").totals);
}

/// The split prices are figures a risk analysis may draw, as the blended one is.
#[test]
fn split_prices_are_risk_drivers() {
    let file = parse(&file(Some(["0.6", "0.3", "0.1"])).to_string()).unwrap();
    let candidates = planner_core::engine::risk::drivers::candidates(&file);
    for kind in ["input", "output", "cached"] {
        let path = format!("scenarios/api/layers/api/price_per_million_{kind}_tokens/value");
        let c = candidates.iter().find(|c| c.path == path).unwrap();
        assert!(c.price, "{path} moves money only");
    }
}
