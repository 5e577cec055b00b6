//! What-if drivers (issue #17): each driver is written into a copy of the file as ordinary inputs
//! and overrides; the figures it moves are checked against values computed here from the inputs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::costing::evaluate::{Evaluation, ScenarioResult, evaluate};
use planner_core::engine::editing::what_if::{Driver, DriverKind, WhatIf, apply, bases};
use planner_core::engine::input::scenario_file::{ScenarioFile, parse};
use planner_core::engine::model::assumption::Origin;
use planner_core::engine::model::ledger::Category;
use planner_core::engine::resolve::validate::validate;
use rust_decimal::Decimal;
use rust_decimal::dec;

const REASON: &str = "workshop what-if, 2026-11-26";
/// Hours in 2026 (365 days).
const HOURS_2026: Decimal = dec!(8760);

/// A Buy scenario (8 owned H100 bought for cash, resale given, an on-demand layer for the rest)
/// and an all-cloud one (reserved H100 for a year, on-demand for the rest), over 2026.
fn file() -> ScenarioFile {
    parse(
        r#"{
        "format_version": 1, "title": "what-if", "currency": "USD", "start": "2026-01",
        "horizon_months": 12, "discount_rate": "0.08",
        "workloads": [
            { "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
              "gpu_hours_per_day": "100", "gpu_hours_on": "nvidia-h100-sxm" },
            { "id": "train", "name": "train", "kind": "pre-training", "class": "variable",
              "gpu_hours_per_day": "20", "gpu_hours_on": "nvidia-h100-sxm" }
        ],
        "scenarios": [
            { "id": "buy", "name": "Buy",
              "layers": [
                { "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8,
                  "residual_share": "0.4", "residual_reason": "buy-back quote" },
                { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" }
              ],
              "facility": { "region": "us", "cooling": "contained-air", "kw_per_rack_limit": "25" } },
            { "id": "cloud", "name": "Cloud",
              "layers": [
                { "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 2 },
                { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" }
              ] },
            { "id": "rent", "name": "Rent",
              "layers": [ { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" } ] }
        ]
    }"#,
    )
    .unwrap()
}

fn run(file: &ScenarioFile) -> Evaluation {
    evaluate(&validate(&common::catalog(), file, None).unwrap())
}

fn what_if(drivers: &[(DriverKind, Decimal)], scenario: Option<&str>) -> WhatIf {
    WhatIf {
        drivers: drivers.iter().map(|&(kind, value)| Driver { kind, value }).collect(),
        scenario: scenario.map(str::to_owned),
    }
}

fn applied(drivers: &[(DriverKind, Decimal)], scenario: Option<&str>) -> (ScenarioFile, Evaluation) {
    let f = apply(&file(), &common::catalog(), &what_if(drivers, scenario), REASON).unwrap();
    let e = run(&f);
    (f, e)
}

fn scenario<'a>(e: &'a Evaluation, id: &str) -> &'a ScenarioResult {
    e.scenarios.iter().find(|s| s.id == id).unwrap()
}

fn cash(e: &Evaluation, id: &str, c: Category) -> Decimal {
    scenario(e, id).totals.cash.get(c)
}

#[test]
fn gpu_price_moves_the_hardware_by_exactly_its_multiple_and_nothing_else() {
    let before = run(&file());
    let (_, after) = applied(&[(DriverKind::GpuPrice, dec!(0.8))], None);
    // The catalog's H100 is 25,000 to 40,000: 32,500 at the mid point, for 8 GPUs, paid in cash.
    let price = (dec!(25000) + dec!(40000)) / dec!(2);
    assert_eq!(cash(&before, "buy", Category::Hardware), price * dec!(8));
    assert_eq!(cash(&after, "buy", Category::Hardware), dec!(0.8) * price * dec!(8));
    // Resale is a share of the price, so it follows; nothing else moves.
    assert_eq!(
        cash(&after, "buy", Category::Residual),
        dec!(0.8) * cash(&before, "buy", Category::Residual)
    );
    for c in Category::ALL {
        if !matches!(c, Category::Hardware | Category::Residual | Category::Depreciation) {
            assert_eq!(cash(&after, "buy", c), cash(&before, "buy", c), "{}", c.name());
        }
    }
    assert_eq!(scenario(&after, "cloud"), scenario(&before, "cloud"));
}

#[test]
fn every_driver_at_its_base_gives_the_original_figures() {
    let f = file();
    let mut drivers = Vec::new();
    for b in bases(&f, &common::catalog(), None) {
        let value = if b.kind.is_multiplier() {
            Decimal::ONE
        } else if b.applies_to > 0 && b.low == b.high {
            b.low
        } else {
            continue;
        };
        drivers.push((b.kind, value));
    }
    assert_eq!(drivers.len(), 12, "{drivers:?}");
    let (written, after) = applied(&drivers, None);
    assert_ne!(written, f, "the value drivers are written as overrides");
    let before = run(&f);
    for (a, b) in after.scenarios.iter().zip(&before.scenarios) {
        assert_eq!(a.totals, b.totals, "{}", a.id);
        assert_eq!(a.ledger, b.ledger, "{}", a.id);
    }
}

#[test]
fn half_the_demand_dispatches_half_the_gpu_hours() {
    let before = run(&file());
    let (_, after) = applied(&[(DriverKind::Demand, dec!(0.5))], Some("rent"));
    // 120 GPU-hours a day on the H100 itself, uncapped on demand, every day of 2026.
    let full = dec!(120) * HOURS_2026 / dec!(24);
    let close = |a: Decimal, b: Decimal| (a - b).abs() < dec!(0.000001);
    assert!(close(scenario(&before, "rent").totals.delivered_gpu_h, full));
    assert!(close(scenario(&after, "rent").totals.delivered_gpu_h, full / dec!(2)));
    assert!(close(
        cash(&after, "rent", Category::CloudCompute),
        full / dec!(2) * dec!(6.88)
    ));
    assert_eq!(scenario(&after, "buy"), scenario(&before, "buy"));
}

#[test]
fn the_tariff_moves_energy_cost_linearly() {
    let energy = |t: Decimal| {
        let (_, e) = applied(&[(DriverKind::Tariff, t)], None);
        let kwh = scenario(&e, "buy").totals.energy_kwh;
        (cash(&e, "buy", Category::Electricity), kwh)
    };
    let (e1, kwh) = energy(dec!(0.10));
    let (e2, kwh2) = energy(dec!(0.25));
    assert_eq!(kwh, kwh2);
    assert!(kwh > Decimal::ZERO);
    assert!((e1 - kwh * dec!(0.10)).abs() < dec!(0.0001), "{e1} vs {kwh}");
    assert!((e2 - kwh * dec!(0.25)).abs() < dec!(0.0001), "{e2} vs {kwh}");
}

#[test]
fn a_what_if_on_one_scenario_leaves_the_others_identical() {
    let before = run(&file());
    let drivers = [
        (DriverKind::Demand, dec!(1.5)),
        (DriverKind::Growth, dec!(0.05)),
        (DriverKind::DiscountRate, dec!(0.2)),
        (DriverKind::OnDemandRate, dec!(0.7)),
        (DriverKind::ReservedRate, dec!(0.9)),
    ];
    let (f, after) = applied(&drivers, Some("cloud"));
    assert_eq!(f.scenarios[0], file().scenarios[0]);
    assert_eq!(f.scenarios[2], file().scenarios[2]);
    assert_eq!(scenario(&after, "buy"), scenario(&before, "buy"));
    assert_eq!(scenario(&after, "rent"), scenario(&before, "rent"));
    assert_ne!(scenario(&after, "cloud").totals, scenario(&before, "cloud").totals);
    let res = &f.scenarios[1].layers[0];
    assert_eq!(res.price_per_gpu_hour.as_ref().unwrap().value, dec!(0.9) * dec!(4.30));
    // A 20% discount rate on its own: the scenario's NPV is discounted at it, not at 8%.
    let monthly = planner_core::engine::blocks::finance::monthly_rate(dec!(0.2)).unwrap();
    let flows = scenario(&after, "cloud").ledger.cash_flows();
    let npv = planner_core::engine::blocks::finance::npv(monthly, &flows);
    assert_eq!(scenario(&after, "cloud").totals.npv, npv);
}

#[test]
fn out_of_range_drivers_are_refused_at_their_path() {
    let bad = what_if(
        &[
            (DriverKind::GpuPrice, dec!(5.1)),
            (DriverKind::Growth, dec!(-0.6)),
            (DriverKind::Pue, dec!(0.9)),
            (DriverKind::LeadTime, dec!(2.5)),
            (DriverKind::Horizon, dec!(18)),
            (DriverKind::GpuPrice, dec!(1)),
            (DriverKind::Tariff, dec!(-0.01)),
        ],
        Some("nowhere"),
    );
    let problems = apply(&file(), &common::catalog(), &bad, REASON).unwrap_err();
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "scenario",
            "drivers[0].value",
            "drivers[1].value",
            "drivers[2].value",
            "drivers[3].value",
            "drivers[4].value",
            "drivers[5].kind",
            "drivers[6].value"
        ]
    );
}

#[test]
fn kept_overrides_carry_the_reason() {
    let drivers = [
        (DriverKind::GpuPrice, dec!(0.8)),
        (DriverKind::Demand, dec!(0.5)),
        (DriverKind::Pue, dec!(1.2)),
        (DriverKind::LeadTime, dec!(4)),
        (DriverKind::Residual, dec!(0.3)),
        (DriverKind::Horizon, dec!(24)),
    ];
    let (f, e) = applied(&drivers, Some("buy"));
    assert_eq!(f.horizon_months, 24);
    let buy = &f.scenarios[0];
    let own = &buy.layers[0];
    assert_eq!(own.price_per_gpu.as_ref().unwrap().value, dec!(26000));
    assert_eq!(own.price_per_gpu.as_ref().unwrap().reason, REASON);
    assert_eq!(own.lead_time_months, 4);
    assert_eq!(own.lead_time_reason.as_deref(), Some(REASON));
    assert_eq!(own.residual_share, Some(dec!(0.3)));
    assert_eq!(buy.facility.as_ref().unwrap().pue.as_ref().unwrap().reason, REASON);
    assert_eq!(buy.demand_scale.as_ref().unwrap().value, dec!(0.5));
    let reason_at = |path: &str| {
        scenario(&e, "buy")
            .assumptions
            .iter()
            .find(|a| a.path == path)
            .map(|a| a.origin.clone())
    };
    let kept = Some(Origin::Override { reason: REASON.into() });
    assert_eq!(reason_at("scenarios[0].demand_scale"), kept);
    assert_eq!(reason_at("scenarios[0].layers[0].price_per_gpu"), kept);
    assert_eq!(reason_at("scenarios[0].facility.pue"), kept);
}

#[test]
fn scenario_level_overrides_are_bounded_and_need_a_reason() {
    let mut f = file();
    f.scenarios[0].demand_scale = Some(planner_core::engine::input::scenario_file::Override {
        value: dec!(101),
        currency: None,
        reason: String::new(),
    });
    f.scenarios[1].monthly_growth = Some(planner_core::engine::input::scenario_file::Override {
        value: dec!(1.5),
        currency: None,
        reason: "r".into(),
    });
    let paths = |f: &ScenarioFile| -> Vec<String> {
        let problems = validate(&common::catalog(), f, None).unwrap_err();
        problems.into_iter().map(|p| p.path).collect()
    };
    // Beyond the file's bound: refused before any arithmetic.
    assert_eq!(paths(&f), ["scenarios[0].demand_scale.value"]);
    f.scenarios[0].demand_scale.as_mut().unwrap().value = dec!(2);
    assert_eq!(
        paths(&f),
        ["scenarios[0].demand_scale.reason", "scenarios[1].monthly_growth"]
    );
}

#[test]
fn bases_say_what_each_driver_replaces() {
    let b = bases(&file(), &common::catalog(), Some("buy"));
    let of = |k: DriverKind| b.iter().find(|x| x.kind == k).unwrap();
    assert_eq!(of(DriverKind::GpuPrice).low, dec!(32500));
    assert_eq!(of(DriverKind::GpuPrice).applies_to, 1);
    assert_eq!(of(DriverKind::GpuPrice).unit, "USD per GPU");
    assert_eq!(of(DriverKind::OnDemandRate).high, dec!(6.88));
    assert_eq!(of(DriverKind::ReservedRate).applies_to, 0);
    assert_eq!(of(DriverKind::Residual).low, dec!(0.4));
    assert_eq!(of(DriverKind::Horizon).low, dec!(12));
    assert_eq!(of(DriverKind::Growth).applies_to, 2);
    let all = bases(&file(), &common::catalog(), None);
    let reserved = all.iter().find(|x| x.kind == DriverKind::ReservedRate).unwrap();
    assert_eq!((reserved.low, reserved.applies_to), (dec!(4.30), 1));
}
