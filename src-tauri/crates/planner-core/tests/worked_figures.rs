//! The planning worked examples that need the whole engine (figures 3, 4, 5, 6 and 8 are unit
//! tests beside the code that computes them: compare.rs, sizing.rs, rack.rs, workload.rs, spot.rs).
//! Each computes its answer from inputs; none types the answer in.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::model::ledger::Category;
use rust_decimal::Decimal;
use rust_decimal::dec;

/// Worked figure 1: an 8×H100 instance at 98.32/h on demand against 19.66/h on spot is an 80%
/// saving (AWS list prices before the June 2025 cut), for the same GPU-hours of interruptible work.
#[test]
fn worked_figure_1_spot_saves_80_percent() {
    let text = r#"{
      "format_version": 1, "title": "fig 1", "currency": "USD", "start": "2027-01",
      "horizon_months": 1, "discount_rate": "0.08",
      "workloads": [{ "id": "sweep", "name": "sweep", "kind": "experimentation", "class": "exploratory",
        "gpu_hours_per_day": "192", "gpu_hours_on": "nvidia-h100-sxm", "interruptible": true }],
      "scenarios": [
        { "id": "od", "name": "on demand", "layers": [{ "id": "p5", "kind": "on-demand", "offer": "aws-p5-h100",
          "price_per_gpu_hour": { "value": "12.29", "reason": "pre-June-2025 list: 98.32 per 8-GPU instance-hour" } }] },
        { "id": "spot", "name": "spot", "layers": [{ "id": "p5", "kind": "spot", "offer": "aws-p5-h100",
          "price_per_gpu_hour": { "value": "2.4575", "reason": "19.66 per 8-GPU instance-hour" },
          "interruptions_per_hour": "0" }] }
      ]
    }"#;
    let e = common::run(text);
    let od = &e.scenarios[0].totals;
    let spot = &e.scenarios[1].totals;
    assert_eq!(od.delivered_gpu_h, spot.delivered_gpu_h);
    let saving = Decimal::ONE - spot.total_cash / od.total_cash;
    assert!((saving - dec!(0.80)).abs() < dec!(0.001), "saving {saving}");
}

/// Worked figure 2: at 0.16/kWh a GPU averaging 0.55 kW costs about 64 a month.
#[test]
fn worked_figure_2_electricity_per_month() {
    let text = r#"{
      "format_version": 1, "title": "fig 2", "currency": "USD", "start": "2027-01",
      "horizon_months": 12, "discount_rate": "0",
      "workloads": [{ "id": "w", "name": "w", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "24", "gpu_hours_on": "nvidia-h100-sxm" }],
      "scenarios": [{ "id": "own", "name": "own", "layers": [{ "id": "gpu", "kind": "owned",
          "accelerator": "nvidia-h100-sxm", "gpus": 1, "gpus_per_server": 1, "availability": "1",
          "price_per_gpu": { "value": "0", "reason": "only electricity matters here" },
          "power_kw_per_gpu": { "value": "0.55", "reason": "worked example 2: average draw" } }],
        "facility": { "region": "us", "cooling": "contained-air", "kw_per_rack_limit": "20",
          "pue": { "value": "1", "reason": "figure 2 counts the GPU's draw only" },
          "tariff_per_kwh": { "value": "0.16", "reason": "worked example 2: tariff" } } }]
    }"#;
    let e = common::run(text);
    let t = &e.scenarios[0].totals;
    assert_eq!(t.owned_utilisation, Some(Decimal::ONE));
    let per_month = t.cash.get(Category::Electricity) / dec!(12);
    assert!((per_month - dec!(64)).abs() < dec!(0.5), "{per_month} per month");
}

/// Worked figure 7: a financial-services team's cloud spend on A100s passes the price of
/// equivalent owned hardware after about 18 months.
///
/// Inputs: one 8×A100 80GB box, bought for cash at the catalog's mid price plus 4,000 per GPU of
/// platform, 10% a year support, in the team's own room (no colocation); against AWS p4de on
/// demand at 3.43 per GPU-hour. The team runs risk models and batch scoring about 13 GPU-hours a
/// day per GPU (104 a day on eight GPUs).
#[test]
fn worked_figure_7_cloud_passes_owned_after_about_18_months() {
    let text = r#"{
      "format_version": 1, "title": "fig 7", "currency": "USD", "start": "2027-01",
      "horizon_months": 36, "discount_rate": "0.08",
      "workloads": [{ "id": "risk", "name": "risk models", "kind": "experimentation", "class": "steady",
        "gpu_hours_per_day": "104", "gpu_hours_on": "nvidia-a100-80gb-sxm" }],
      "scenarios": [
        { "id": "cloud", "name": "AWS p4de on demand", "layers": [{ "id": "p4de", "kind": "on-demand", "offer": "aws-p4de-a100-80gb" }] },
        { "id": "own", "name": "own 8×A100", "layers": [{ "id": "box", "kind": "owned", "accelerator": "nvidia-a100-80gb-sxm",
            "gpus": 8, "platform_cost_per_gpu": "4000", "support_rate_per_year": "0.10" }],
          "facility": { "region": "us", "cooling": "contained-air", "kw_per_rack_limit": "20" } }
      ]
    }"#;
    let e = common::run(text);
    let cmp = planner_core::engine::decide::compare::compare_all(&e);
    let be = cmp[0]
        .break_even
        .clone()
        .unwrap_or_else(|| panic!("no break-even: {cmp:#?}"));
    assert_eq!(be.cheaper_after, "own");
    assert!((17..=19).contains(&be.month), "break-even in month {}", be.month);
    // Over 36 months owning is clearly cheaper; over 12 it is not.
    assert!(e.scenarios[1].totals.total_cash < e.scenarios[0].totals.total_cash);
    let at12 = |i: usize| e.scenarios[i].ledger.months[11].cumulative_cash;
    assert!(at12(1) > at12(0));
}
