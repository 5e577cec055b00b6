//! Issue 13, decision-grade numbers: resale at the horizon is a sourced market estimate (or 0 with
//! a warning, never the book value), and rented layers carry an estimated, sourced energy and
//! emissions figure. Runs against the catalog the app ships, whose figures carry the sources.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::catalog::provenance::Confidence;
use planner_core::engine::blocks::finance::present;
use planner_core::engine::costing::evaluate::{Evaluation, ScenarioResult};
use planner_core::engine::decide::compare::{compare_all, resale_share_of_difference};
use planner_core::engine::model::assumption::{Assumption, Origin};
use rust_decimal::Decimal;
use rust_decimal::dec;

const WORKLOAD: &str = r#"{
  "id": "serve", "name": "Steady inference", "kind": "inference", "class": "steady",
  "gpu_hours_per_day": "96", "gpu_hours_on": "nvidia-h100-sxm", "mfu": "0.4",
  "interruptible": false, "data_classification": "public"
}"#;

const FACILITY: &str = r#"{ "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40" }"#;

fn file(horizon: u32, price_point: &str, scenarios: &str) -> String {
    format!(
        r#"{{ "format_version": 1, "title": "t", "currency": "USD", "start": "2027-01",
  "horizon_months": {horizon}, "discount_rate": "0.08", "price_point": "{price_point}",
  "workloads": [{WORKLOAD}], "scenarios": [{scenarios}] }}"#
    )
}

fn owned(id: &str, accelerator: &str, extra: &str) -> String {
    format!(
        r#"{{ "id": "{id}", "name": "{id}", "facility": {FACILITY},
  "layers": [{{ "id": "box", "kind": "owned", "accelerator": "{accelerator}", "gpus": 8{extra} }}] }}"#
    )
}

fn run(text: &str) -> Evaluation {
    common::run_with(&common::shipped_catalog(), text)
}

fn assumption<'a>(s: &'a ScenarioResult, path_end: &str) -> &'a Assumption {
    s.assumptions
        .iter()
        .find(|a| a.path.ends_with(path_end))
        .unwrap_or_else(|| panic!("no assumption ending in {path_end}: {:#?}", s.assumptions))
}

fn hardware(s: &ScenarioResult) -> Decimal {
    assumption(s, "layers[0].price_per_gpu").value * dec!(8)
}

#[test]
fn a_12_month_cash_purchase_resells_at_the_market_estimate_not_its_book_value() {
    let e = run(&file(12, "mid", &owned("own", "nvidia-h100-sxm", "")));
    let s = &e.scenarios[0];
    let hw = hardware(s);
    // NVIDIA training GPUs at 12 months: 0.64..0.78 of the new price, mid 0.71.
    assert_eq!(s.totals.residual_value, hw * dec!(0.71));
    // Book value after 12 of 60 months would be 0.8 of the hardware alone: no longer used.
    assert!(s.totals.residual_value < hw * dec!(0.8));
    let a = assumption(s, "layers[0].residual_share");
    assert_eq!(a.value, dec!(0.71));
    match &a.origin {
        Origin::Catalog {
            entry,
            low,
            high,
            confidence,
            sources,
            as_of,
            ..
        } => {
            assert_eq!(entry, "nvidia-datacenter-secondary");
            assert_eq!((*low, *high), (dec!(0.64), dec!(0.78)));
            assert_eq!(*confidence, Confidence::Estimate);
            assert!(sources.iter().any(|s| s.contains("SpotWire")), "{sources:?}");
            assert_eq!(as_of, "2026-11");
        }
        Origin::Override { .. } | Origin::Derived { .. } => panic!("expected a catalog figure"),
    }
    // The book view carries book value less resale in its last month: both views still agree.
    assert_eq!(present(s.totals.total_book), present(s.totals.total_cash));
}

#[test]
fn the_resale_share_is_interpolated_between_ages_at_the_scenario_price_point() {
    // Delivered in month 0, sold at the 30-month horizon: halfway between 24 and 36 months.
    let mid = run(&file(30, "mid", &owned("own", "nvidia-h100-sxm", "")));
    let s = &mid.scenarios[0];
    // mid: (0.50 + 0.36) / 2 = 0.43
    assert_eq!(assumption(s, "layers[0].residual_share").value, dec!(0.43));
    assert_eq!(s.totals.residual_value, hardware(s) * dec!(0.43));
    let low = run(&file(30, "low", &owned("own", "nvidia-h100-sxm", "")));
    // low: (0.40 + 0.26) / 2 = 0.33
    assert_eq!(
        assumption(&low.scenarios[0], "layers[0].residual_share").value,
        dec!(0.33)
    );
    // A lead time makes the hardware younger at the horizon: delivered in month 6, 24 months old.
    let late = run(&file(
        30,
        "mid",
        &owned("own", "nvidia-h100-sxm", r#", "lead_time_months": 6"#),
    ));
    assert_eq!(
        assumption(&late.scenarios[0], "layers[0].residual_share").value,
        dec!(0.50)
    );
}

#[test]
fn an_accelerator_without_a_sourced_estimate_resells_for_zero_with_a_warning() {
    let price = r#", "price_per_gpu": { "value": "8000", "reason": "quote" }"#;
    let e = run(&file(24, "mid", &owned("own", "nvidia-l40s", price)));
    let s = &e.scenarios[0];
    assert_eq!(s.totals.residual_value, Decimal::ZERO);
    assert!(
        s.warnings.iter().any(|w| w
            == "no sourced resale estimate for `nvidia-l40s`: resale counted as 0; give residual_share with a reason to use a quote"),
        "{:#?}",
        s.warnings
    );
    assert!(!s.assumptions.iter().any(|a| a.path.ends_with("residual_share")));
}

#[test]
fn past_the_last_sourced_age_resale_is_zero_not_extrapolated() {
    let e = run(&file(60, "mid", &owned("own", "nvidia-h100-sxm", "")));
    let s = &e.scenarios[0];
    assert_eq!(s.totals.residual_value, Decimal::ZERO);
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("at 60 months") && w.contains("stops at 48 months")),
        "{:#?}",
        s.warnings
    );
}

#[test]
fn the_users_residual_share_overrides_the_catalog_with_its_reason() {
    let extra = r#", "residual_share": "0.55", "residual_reason": "buy-back quote Q-17""#;
    let e = run(&file(12, "mid", &owned("own", "nvidia-h100-sxm", extra)));
    let s = &e.scenarios[0];
    assert_eq!(s.totals.residual_value, hardware(s) * dec!(0.55));
    let a = assumption(s, "layers[0].residual_share");
    assert_eq!(
        a.origin,
        Origin::Override {
            reason: "buy-back quote Q-17".to_owned()
        }
    );
}

#[test]
fn an_all_cloud_scenario_has_estimated_energy_and_emissions_citing_their_sources() {
    let scenarios = r#"
      { "id": "aws", "name": "AWS", "layers": [{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" }] },
      { "id": "lambda", "name": "Lambda", "layers": [{ "id": "od", "kind": "on-demand", "offer": "lambda-h100-sxm-8x" }] }"#;
    let e = run(&file(12, "mid", scenarios));
    let aws = &e.scenarios[0];
    let t = &aws.totals;
    assert!(t.delivered_gpu_h > Decimal::ZERO);
    // 0.7 kW TDP x 1.8 server overhead, x AWS PUE 1.145 (mid of 1.14..1.15).
    let kwh = t.delivered_gpu_h * dec!(0.7) * dec!(1.8) * dec!(1.145);
    assert_eq!(t.cloud_energy_kwh, kwh);
    assert_eq!(t.energy_kwh, kwh, "an all-cloud scenario's energy is all estimated");
    // us-east-1 -> region `us`, 350..386 g/kWh, mid 368.
    assert_eq!(t.cloud_emissions_kg, kwh * dec!(368) / dec!(1000));
    assert_eq!(t.emissions_kg, t.cloud_emissions_kg);
    assert!(t.emissions_kg > dec!(1000));
    let pue = assumption(aws, "layers[0].estimated_energy.pue");
    match &pue.origin {
        Origin::Catalog {
            entry,
            field,
            sources,
            confidence,
            ..
        } => {
            assert_eq!(entry, "aws-fleet");
            assert!(field.contains("published fleet average"), "{field}");
            assert!(sources.iter().any(|s| s.contains("AWS")), "{sources:?}");
            assert_eq!(*confidence, Confidence::Primary);
        }
        Origin::Override { .. } | Origin::Derived { .. } => panic!("expected a catalog figure"),
    }
    assert_eq!(assumption(aws, "layers[0].estimated_energy.tdp_w").value, dec!(700));

    // A neocloud publishes no PUE and states no region: the industry average and the world grid,
    // each labelled so.
    let lambda = &e.scenarios[1];
    let pue = assumption(lambda, "layers[0].estimated_energy.pue");
    assert_eq!(pue.value, dec!(1.56));
    let grid = assumption(lambda, "layers[0].estimated_energy.grid_gco2_per_kwh");
    assert_eq!(grid.value, dec!(481));
    match (&pue.origin, &grid.origin) {
        (Origin::Catalog { field: pf, .. }, Origin::Catalog { field: gf, entry, .. }) => {
            assert!(pf.contains("industry average") && pf.contains("Lambda"), "{pf}");
            assert!(gf.contains("states no region"), "{gf}");
            assert_eq!(entry, "world");
        }
        _ => panic!("expected catalog figures"),
    }
    let l = &lambda.totals;
    assert_eq!(
        l.cloud_energy_kwh,
        l.delivered_gpu_h * dec!(0.7) * dec!(1.8) * dec!(1.56)
    );
}

#[test]
fn reserved_gpus_draw_the_idle_share_in_committed_hours_they_are_not_used() {
    // 8 GPUs committed, 4 used around the clock (96 GPU-hours a day).
    let scenarios = r#"{ "id": "res", "name": "Reserved", "layers": [{ "id": "r", "kind": "reserved",
      "accelerator": "nvidia-h100-sxm", "term": "1y", "gpus": 8,
      "price_per_gpu_hour": { "value": "2.5", "reason": "quote" } }] }"#;
    let e = run(&file(12, "mid", scenarios));
    let s = &e.scenarios[0];
    let m0 = &s.ledger.months[0];
    let hours = m0.month.hours();
    let busy = dec!(4) * hours;
    assert_eq!(m0.usage.delivered_gpu_h, busy);
    let idle = dec!(8) * hours - busy;
    // No offer: no provider PUE, so the industry average (1.56 mid); idle at 0.3 of full power.
    let expected = (busy + idle * dec!(0.3)) * dec!(0.7) * dec!(1.8) * dec!(1.56);
    assert_eq!(m0.usage.cloud_energy_kwh, expected);

    // On demand, the same use draws only for the hours used.
    let od = r#"{ "id": "od", "name": "On demand", "layers": [{ "id": "o", "kind": "on-demand",
      "accelerator": "nvidia-h100-sxm", "price_per_gpu_hour": { "value": "3", "reason": "quote" } }] }"#;
    let e = run(&file(12, "mid", od));
    let m0 = &e.scenarios[0].ledger.months[0];
    assert_eq!(m0.usage.cloud_energy_kwh, busy * dec!(0.7) * dec!(1.8) * dec!(1.56));
}

#[test]
fn a_comparison_says_how_much_of_the_difference_is_resale() {
    let scenarios = format!(
        r#"{}, {{ "id": "rent", "name": "rent", "layers": [{{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" }}] }}"#,
        owned("own", "nvidia-h100-sxm", "")
    );
    let e = run(&file(36, "mid", &scenarios));
    let c = &compare_all(&e)[0];
    let (own, rent) = (&e.scenarios[0], &e.scenarios[1]);
    assert_eq!(
        c.residual_difference,
        own.totals.residual_value - rent.totals.residual_value
    );
    assert_eq!(c.residual_difference, hardware(own) * dec!(0.36));
    let words = resale_share_of_difference(c, e.horizon_months).unwrap_or_default();
    assert!(c.total_difference < Decimal::ZERO, "owning wins here");
    assert_eq!(
        words,
        format!(
            "`own` is cheaper than `rent` by {}; {} of that is resale assumed in month 36",
            planner_core::engine::decide::compare::grouped(-c.total_difference),
            planner_core::engine::decide::compare::grouped(c.residual_difference)
        )
    );
    // The decision view carries it against the reference.
    let view = planner_core::engine::decide::decision::decision_view(&e, Some("rent"));
    let d = view.scenarios[0].difference.as_ref().unwrap();
    assert_eq!(d.resale_note.as_deref(), Some(words.as_str()));
}
