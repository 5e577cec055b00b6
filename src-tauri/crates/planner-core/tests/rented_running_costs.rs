//! Running costs of rented capacity (issue #43's proof of the table of layer fields): support and
//! other charges a rented layer pays beyond its price, per GPU-hour it bills and per month in
//! service, each checked against figures worked by hand from the rule in ENGINE_RULES.md.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::editing::layer_form::forms;
use planner_core::engine::input::scenario_file::{LayerKind, parse};
use planner_core::engine::model::ledger::Category;
use planner_core::engine::resolve::validate::validate;
use rust_decimal::Decimal;
use rust_decimal::dec;

/// Three months from January 2027 (31, 28 and 31 days), one steady workload of 24 GPU-hours a
/// day on an H100, and the scenarios `layers` lists.
fn file(scenarios: &str) -> String {
    format!(
        r#"{{
  "format_version": 1, "title": "running costs", "currency": "USD", "start": "2027-01",
  "horizon_months": 3, "discount_rate": "0",
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "24", "gpu_hours_on": "nvidia-h100-sxm", "mfu": "0.4" }}],
  "scenarios": [{scenarios}]
}}"#
    )
}

const PRICE: &str = r#""price_per_gpu_hour": { "value": "2.00", "reason": "quote" }"#;

fn category(e: &planner_core::engine::costing::evaluate::Evaluation, id: &str, c: Category) -> Decimal {
    common::scenario(e, id).ledger.cash_totals().get(c)
}

/// On demand at 2.00 a GPU-hour with 0.25 a GPU-hour of support and 1,000 a month of platform
/// fee: 24 × (31 + 28 + 31) = 2,160 GPU-hours, so 540.00 of operations and 3 × 1,000 = 3,000.00
/// of support, and the total is the plain layer's plus 3,540.00 exactly; the compute itself is
/// 2 × 2,160 = 4,320.00 in both.
#[test]
fn an_on_demand_layer_pays_its_running_costs_per_gpu_hour_and_per_month() {
    let e = common::run(&file(&format!(
        r#"{{ "id": "plain", "name": "plain", "layers": [{{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", {PRICE} }}] }},
           {{ "id": "run", "name": "run", "layers": [{{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", {PRICE},
              "running_cost_per_gpu_hour": "0.25", "running_cost_per_month": "1000" }}] }}"#
    )));
    assert_eq!(category(&e, "run", Category::CloudCompute), dec!(4320.00));
    assert_eq!(category(&e, "plain", Category::CloudCompute), dec!(4320.00));
    assert_eq!(category(&e, "run", Category::Operations), dec!(540.00));
    assert_eq!(category(&e, "run", Category::Support), dec!(3000.00));
    assert_eq!(category(&e, "plain", Category::Operations), Decimal::ZERO);
    assert_eq!(category(&e, "plain", Category::Support), Decimal::ZERO);
    let (plain, run) = (common::scenario(&e, "plain"), common::scenario(&e, "run"));
    assert_eq!(run.totals.total_cash - plain.totals.total_cash, dec!(3540.00));
    // Month by month: 24 × 31 × 0.25 = 186.00 of operations in January, 168.00 in February.
    let months: Vec<(Decimal, Decimal)> = run
        .ledger
        .months
        .iter()
        .map(|m| (m.cash.get(Category::Operations), m.cash.get(Category::Support)))
        .collect();
    assert_eq!(
        months,
        [
            (dec!(186.00), dec!(1000)),
            (dec!(168.00), dec!(1000)),
            (dec!(186.00), dec!(1000))
        ]
    );
}

/// A reservation from month 1 pays its monthly charge only while in service (February and March:
/// 2 × 500) and its per-hour charge on the hours it served (24 × (28 + 31) = 1,416 × 0.10 =
/// 141.60); January's hours come from on-demand, which has no running costs.
#[test]
fn a_reservation_pays_its_monthly_charge_only_while_in_service() {
    let e = common::run(&file(&format!(
        r#"{{ "id": "res", "name": "res", "layers": [
             {{ "id": "block", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 1, "start_month": 1, {PRICE},
               "running_cost_per_gpu_hour": "0.10", "running_cost_per_month": "500" }},
             {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", {PRICE} }}] }}"#
    )));
    assert_eq!(category(&e, "res", Category::Support), dec!(1000));
    assert_eq!(category(&e, "res", Category::Operations), dec!(141.60));
    let support: Vec<Decimal> = common::scenario(&e, "res")
        .ledger
        .months
        .iter()
        .map(|m| m.cash.get(Category::Support))
        .collect();
    assert_eq!(support, [Decimal::ZERO, dec!(500), dec!(500)]);
}

/// The running cost enters the price of an hour of use that owning is compared with: 2.00 +
/// 0.25 = 2.25 a GPU-hour on the same card and MFU.
#[test]
fn the_rent_an_owner_is_compared_with_includes_the_running_cost_per_hour() {
    let e = common::run(&file(&format!(
        r#"{{ "id": "run", "name": "run", "layers": [{{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", {PRICE},
              "running_cost_per_gpu_hour": "0.25" }}] }}"#
    )));
    let rent = common::scenario(&e, "run").buy_rent.rent[0]
        .clone()
        .expect("a rent price");
    assert_eq!(rent.1, "od");
    let per_gpu_hour = common::scenario(&e, "run").buy_rent.rent[0]
        .as_ref()
        .map(|r| r.0)
        .unwrap();
    // Per useful PFLOP-hour, both on the same card and MFU, so the ratio is 2.25 ÷ 2.00.
    let plain = common::run(&file(&format!(
        r#"{{ "id": "run", "name": "run", "layers": [{{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", {PRICE} }}] }}"#
    )));
    let plain_rent = common::scenario(&plain, "run").buy_rent.rent[0]
        .as_ref()
        .map(|r| r.0)
        .unwrap();
    assert!(
        (per_gpu_hour / plain_rent - dec!(1.125)).abs() < dec!(0.0000001),
        "{per_gpu_hour} ÷ {plain_rent} is 2.25 ÷ 2.00"
    );
}

/// Where a running cost does not apply it is refused at its path: per GPU-hour on a token-metered
/// layer (it bills tokens), per month on owned hardware (its support is a share of its price), and
/// a negative charge anywhere.
#[test]
fn a_running_cost_where_it_does_not_apply_or_below_zero_is_refused() {
    let refused = |layer: &str| -> Vec<(String, String)> {
        let text = file(&format!(r#"{{ "id": "s", "name": "s", "layers": [{layer}] }}"#));
        let parsed = parse(&text).unwrap();
        validate(&common::catalog(), &parsed, None)
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|p| (p.path, p.message))
            .collect()
    };
    let token = refused(
        r#"{ "id": "api", "kind": "token-metered", "accelerator": "nvidia-h100-sxm",
             "price_per_million_tokens": { "value": "1", "reason": "list" }, "running_cost_per_gpu_hour": "0.1" }"#,
    );
    assert!(
        token.contains(&(
            "scenarios[0].layers[0].running_cost_per_gpu_hour".to_owned(),
            "`running_cost_per_gpu_hour` does not apply to a layer of kind `token-metered`".to_owned()
        )),
        "{token:?}"
    );
    let owned = refused(
        r#"{ "id": "box", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8,
             "price_per_gpu": { "value": "25000", "reason": "test" }, "running_cost_per_month": "100" }"#,
    );
    assert!(
        owned.contains(&(
            "scenarios[0].layers[0].running_cost_per_month".to_owned(),
            "`running_cost_per_month` does not apply to a layer of kind `owned`".to_owned()
        )),
        "{owned:?}"
    );
    let negative = refused(&format!(
        r#"{{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", {PRICE}, "running_cost_per_month": "-5" }}"#
    ));
    assert_eq!(negative.len(), 1, "{negative:?}");
    assert_eq!(negative[0].0, "scenarios[0].layers[0].running_cost_per_month");
}

/// The editor shows both charges on every kind billed by the GPU-hour but owned (whose own
/// running-cost widget stays), the monthly one alone on a token-metered layer, neither on owned.
#[test]
fn the_editor_shows_the_charges_from_the_table() {
    let generic = |kind: LayerKind| -> Vec<&'static str> {
        forms()
            .into_iter()
            .find(|f| f.kind == kind)
            .unwrap()
            .generic
            .iter()
            .map(|f| f.name)
            .collect()
    };
    for kind in [
        LayerKind::Reserved,
        LayerKind::Spot,
        LayerKind::OnDemand,
        LayerKind::Pooled,
    ] {
        assert_eq!(
            generic(kind),
            ["running_cost_per_gpu_hour", "running_cost_per_month"],
            "{kind:?}"
        );
    }
    assert_eq!(generic(LayerKind::TokenMetered), ["running_cost_per_month"]);
    assert!(generic(LayerKind::Owned).is_empty());
}
