//! What the plan does (issue 20): dispatch against the ledger, the bridge before delivery, the
//! spot arithmetic with the provider's notice, and the GPUs and time a training run needs, each
//! against a value computed by hand from the rule.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::costing::evaluate::{Evaluation, ScenarioResult};
use planner_core::engine::costing::operations::DispatchUnit;
use planner_core::engine::input::scenario_file::parse;
use planner_core::engine::model::assumption::Origin;
use planner_core::engine::model::ledger::Category;
use planner_core::engine::resolve::validate::validate;
use rust_decimal::Decimal;
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

/// Each month, the GPU-hours dispatch gave equal the ledger's delivered GPU-hours, the useful
/// compute equals the served work, demand equals the ledger's, and served plus unmet is demand,
/// in every scenario of every sample.
#[test]
fn dispatch_totals_equal_the_ledger_every_month() {
    let catalog = common::shipped_catalog();
    for name in [
        "university-lab-pool",
        "startup-inference-saas",
        "student-lora-rtx4090",
        "enterprise-hybrid",
        "embodied-ai-team",
    ] {
        let e = common::run_with(&catalog, &sample(name));
        for s in &e.scenarios {
            let ops = &s.operations;
            assert_eq!(ops.months.len(), s.ledger.months.len(), "{name}/{}", s.id);
            for (d, l) in ops.months.iter().zip(&s.ledger.months) {
                assert_eq!(d.month, l.month);
                let gpu_h: Decimal = d
                    .served
                    .iter()
                    .filter(|c| ops.layers[c.layer as usize].unit == DispatchUnit::GpuHours)
                    .map(|c| c.units)
                    .sum();
                assert_eq!(gpu_h, l.usage.delivered_gpu_h, "{name}/{} {}: GPU-hours", s.id, d.month);
                let useful: Decimal = d.served.iter().map(|c| c.useful_pflop_h).sum();
                assert_eq!(useful, l.usage.served_pflop_h, "{name}/{} {}: served", s.id, d.month);
                let demand: Decimal = d.demand_pflop_h.iter().sum();
                assert_eq!(demand, l.usage.demand_pflop_h, "{name}/{} {}: demand", s.id, d.month);
                let unmet: Decimal = d.unmet_pflop_h.iter().sum();
                assert!(
                    (demand - useful - unmet).abs() < dec!(0.0001),
                    "{name}/{} {}",
                    s.id,
                    d.month
                );
                // Idle owned hours are what was available and not used.
                let idle: Decimal = d.idle_gpu_h.iter().sum();
                assert_eq!(
                    idle,
                    (l.usage.owned_available_gpu_h - l.usage.owned_busy_gpu_h).max(Decimal::ZERO),
                    "{name}/{} {}: idle",
                    s.id,
                    d.month
                );
            }
        }
    }
}

fn bridged(lead: &str) -> String {
    with_bridge(lead, true)
}

fn with_bridge(lead: &str, bridge: bool) -> String {
    let bridge = if bridge {
        r#",
      { "id": "bridge", "kind": "on-demand", "offer": "aws-p5-h100",
        "price_per_gpu_hour": { "value": "4.00", "reason": "test quote" } }"#
    } else {
        ""
    };
    format!(
        r#"{{
  "format_version": 1, "title": "bridge", "currency": "USD", "start": "2026-01", "horizon_months": 12,
  "discount_rate": "0",
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "100", "gpu_hours_on": "nvidia-h100-sxm" }}],
  "scenarios": [
    {{ "id": "buy", "name": "Buy, bridged on demand", "layers": [
      {{ "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8, "gpus_per_server": 8,
        "price_per_gpu": {{ "value": "30000", "reason": "test quote" }}{lead} }}{bridge}],
      "facility": {{ "region": "us", "cooling": "contained-air", "kw_per_rack_limit": "40" }} }},
    {{ "id": "rent", "name": "Rent", "layers": [
      {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
        "price_per_gpu_hour": {{ "value": "4.00", "reason": "test quote" }} }}] }}
  ]
}}"#
    )
}

/// Three months of lead time bridged on demand: January to March 2026 (90 days) of 100
/// GPU-hours a day on the same card are 9,000 GPU-hours at 4.00 = 36,000, booked as cloud
/// compute in those months, and nothing is left unmet.
#[test]
fn a_bridged_lead_time_books_the_bridge_and_leaves_nothing_unmet() {
    let e = run(&bridged(
        r#", "lead_time_months": 3, "lead_time_reason": "supplier quote Q-17: 12 weeks""#,
    ));
    let s = scenario(&e, "buy");
    assert_eq!(s.operations.bridges.len(), 1);
    let b = &s.operations.bridges[0];
    assert_eq!(
        (b.order_month.to_string(), b.delivery_month.to_string()),
        ("2026-01".into(), "2026-04".into())
    );
    assert_eq!(b.lead_time_months, 3);
    assert!(b.delivered_in_horizon);
    let expected_hours = dec!(100) * Decimal::from(31 + 28 + 31);
    assert_eq!(b.lines.len(), 1, "{:?}", b.lines);
    let line = &b.lines[0];
    assert_eq!((line.layer.as_str(), line.months), ("bridge", 3));
    assert_eq!(line.units, expected_hours);
    assert_eq!(b.cost, expected_hours * dec!(4.00));
    assert_eq!(b.unmet_pflop_h, Decimal::ZERO);
    let booked: Decimal = s.ledger.months[..3]
        .iter()
        .map(|m| m.cash.get(Category::CloudCompute))
        .sum();
    assert_eq!(booked, b.cost, "the ledger books the bridge");
    assert_eq!(s.totals.unmet_pflop_h, Decimal::ZERO);
    // After delivery the owned GPUs serve it all: no cloud compute in April.
    assert_eq!(s.ledger.months[3].cash.get(Category::CloudCompute), Decimal::ZERO);
    // The typed lead time is an override with its reason.
    let lt = b.lead_time.as_ref().unwrap();
    assert_eq!(lt.value, dec!(3));
    assert!(matches!(&lt.origin, Origin::Override { reason } if reason.contains("Q-17")));
    assert!(!s.warnings.iter().any(|w| w.contains("lead_time_reason")));
}

/// Without a bridge layer the months before delivery go unmet, and the bridge says so.
#[test]
fn an_unbridged_lead_time_leaves_the_months_before_delivery_unmet() {
    let text = with_bridge(r#", "lead_time_months": 2, "lead_time_reason": "quote""#, false);
    let e = run(&text);
    let b = &scenario(&e, "buy").operations.bridges[0];
    assert!(b.lines.is_empty(), "{:?}", b.lines);
    assert!(b.unmet_pflop_h > Decimal::ZERO);
    let unmet_two_months: Decimal = scenario(&e, "buy").operations.months[..2]
        .iter()
        .map(|m| m.unmet_pflop_h[0])
        .sum();
    assert_eq!(b.unmet_pflop_h, unmet_two_months);
}

/// A lead time from the catalog carries the entry's provenance: the data-centre GPU entry's 26
/// weeks are 26 × 7 × 12 / 365.25 = 5.98 months, rounded up to 6.
#[test]
fn a_catalog_lead_time_is_sourced_and_rounded_up_to_whole_months() {
    let e = run(&bridged(r#", "lead_time_source": "datacenter-gpus""#));
    let b = &scenario(&e, "buy").operations.bridges[0];
    assert_eq!(b.lead_time_months, 6);
    assert_eq!(b.delivery_month.to_string(), "2026-07");
    let lt = b.lead_time.as_ref().unwrap();
    assert_eq!(lt.value, dec!(26));
    assert!(
        matches!(&lt.origin, Origin::Catalog { entry, sources, .. } if entry == "datacenter-gpus" && !sources.is_empty())
    );
}

#[test]
fn a_lead_time_given_twice_or_unknown_is_refused_and_a_bare_one_warned() {
    let catalog = common::shipped_catalog();
    let twice = bridged(r#", "lead_time_months": 2, "lead_time_source": "datacenter-gpus""#);
    let problems = validate(&catalog, &parse(&twice).unwrap(), None).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.path == "scenarios[0].layers[0].lead_time_source" && p.message.contains("not both")),
        "{problems:?}"
    );
    let unknown = bridged(r#", "lead_time_source": "next-tuesday""#);
    let problems = validate(&catalog, &parse(&unknown).unwrap(), None).unwrap_err();
    assert!(
        problems.iter().any(|p| p.message.contains("datacenter-gpus")),
        "{problems:?}"
    );
    let bare = run(&bridged(r#", "lead_time_months": 2"#));
    assert!(
        scenario(&bare, "buy")
            .warnings
            .iter()
            .any(|w| w.contains("lead_time_reason"))
    );
}

fn spot(offer: &str, write_minutes: &str) -> String {
    format!(
        r#"{{
  "format_version": 1, "title": "spot", "currency": "USD", "start": "2026-01", "horizon_months": 3,
  "discount_rate": "0",
  "workloads": [{{ "id": "train", "name": "train", "kind": "pre-training", "class": "exploratory",
    "interruptible": true, "gpu_hours_per_day": "240", "gpu_hours_on": "nvidia-h100-sxm" }}],
  "scenarios": [
    {{ "id": "spot", "name": "Spot", "layers": [
      {{ "id": "spot", "kind": "spot", "offer": "{offer}", "interruptions_per_hour": "0.25",
        "checkpoint_write_minutes": "{write_minutes}", "restart_minutes": "10",
        "price_per_gpu_hour": {{ "value": "2.00", "reason": "test quote" }} }}] }},
    {{ "id": "od", "name": "On demand", "layers": [
      {{ "id": "od", "kind": "on-demand", "offer": "{offer}",
        "price_per_gpu_hour": {{ "value": "4.00", "reason": "test quote" }} }}] }}
  ]
}}"#
    )
}

/// Worked figure 8 through a scenario: one interruption per 4 hours, a 3-minute checkpoint write
/// and a 10-minute restart give an interval of about 38 minutes and an overhead of about 1.20;
/// the paid hours lost are paid × (1 − 1/factor); Google Cloud's 30-second notice is shorter
/// than the 3-minute write, so the warning fires.
#[test]
fn spot_arithmetic_is_worked_figure_8_and_warns_of_a_short_notice() {
    let e = run(&spot("gcp-a3-highgpu-h100", "3"));
    let s = scenario(&e, "spot");
    assert_eq!(s.operations.spot.len(), 1);
    let n = &s.operations.spot[0];
    let interval = n.interval_minutes.unwrap();
    assert!((interval - dec!(38)).abs() < dec!(0.5), "interval {interval}");
    // √(2 × 0.05 / 0.25) h = √0.4 h = 37.947 min.
    assert!((interval - dec!(37.947)).abs() < dec!(0.001), "interval {interval}");
    assert!(
        (n.overhead_factor - dec!(1.20)).abs() < dec!(0.005),
        "{}",
        n.overhead_factor
    );
    assert_eq!(n.checkpoint_write_minutes, dec!(3));
    assert_eq!(n.notice_seconds, Some(dec!(30)));
    // Paid hours: useful work is 240 GPU-hours a day on the same card, so paid = useful × factor.
    let days = Decimal::from(31 + 28 + 31);
    let paid = dec!(240) * days * n.overhead_factor;
    assert!((n.paid_gpu_h - paid).abs() < dec!(0.0001), "{} vs {paid}", n.paid_gpu_h);
    let lost = dec!(240) * days * (n.overhead_factor - Decimal::ONE);
    assert!((n.lost_gpu_h - lost).abs() < dec!(0.0001), "{} vs {lost}", n.lost_gpu_h);
    assert!((n.lost_cost - lost * dec!(2.00)).abs() < dec!(0.001));
    let w = n.notice_warning.as_ref().unwrap();
    assert!(
        w.contains("3 min") && w.contains("30 s") && w.contains("Google Cloud"),
        "{w}"
    );
    assert!(s.warnings.contains(w), "the warning reaches the scenario's warnings");
    // The notice is a catalog figure with its source.
    assert!(
        s.assumptions
            .iter()
            .any(|a| a.path.ends_with("spot_notice_s") && matches!(a.origin, Origin::Catalog { .. }))
    );
}

/// AWS gives two minutes: a one-minute write fits, a three-minute one does not.
#[test]
fn the_notice_warning_follows_the_provider() {
    let fits = run(&spot("aws-p5-h100", "1"));
    let n = &scenario(&fits, "spot").operations.spot[0];
    assert_eq!(n.notice_seconds, Some(dec!(120)));
    assert!(n.notice_warning.is_none());
    let late = run(&spot("aws-p5-h100", "3"));
    assert!(scenario(&late, "spot").operations.spot[0].notice_warning.is_some());
}

/// A 7B model pre-trained on 100 billion tokens a month for three months, on 64 reserved H100s
/// with a stated 989 TFLOPS peak and MFU 0.4: 6 × 7e9 × 3e11 = 1.26e22 FLOP = 3,500
/// PFLOP-hours; one GPU-hour gives 989 × 0.4 / 1000 = 0.3956 PFLOP-hours, so the 64 GPUs take
/// 3,500 / (64 × 0.3956) = 138.24 hours; doing it within the three months (2,160 hours) needs
/// 3,500 / (2,160 × 0.3956) = 4.10 → 5 GPUs, and the busiest month (February, 672 hours,
/// 1,166.67 PFLOP-hours) alone needs 1,166.67 / (672 × 0.3956) = 4.39 → 5.
#[test]
fn time_to_train_and_gpus_needed_follow_the_hand_computation() {
    let text = r#"{
  "format_version": 1, "title": "train", "currency": "USD", "start": "2026-01", "horizon_months": 6,
  "discount_rate": "0",
  "workloads": [{ "id": "pt", "name": "pre-train 7B", "kind": "pre-training", "class": "variable",
    "model": { "parameters_billion": "7" }, "tokens_per_month": "100000000000", "mfu": "0.4",
    "active_months": 3 }],
  "scenarios": [
    { "id": "res", "name": "Reserved", "layers": [
      { "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 64,
        "peak_tflops": { "value": "989", "reason": "stated dense BF16 peak" },
        "price_per_gpu_hour": { "value": "2.00", "reason": "test" } }] },
    { "id": "od", "name": "On demand", "layers": [
      { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
        "peak_tflops": { "value": "989", "reason": "stated dense BF16 peak" },
        "price_per_gpu_hour": { "value": "4.00", "reason": "test" } }] }
  ]
}"#;
    let e = run(text);
    let need = &scenario(&e, "res").operations.needs[0];
    let work = dec!(6) * dec!(7000000000) * dec!(300000000000) / dec!(3600000000000000000);
    assert_eq!(work, dec!(3500));
    assert!(
        (need.demand_pflop_h - work).abs() < dec!(0.000001),
        "{}",
        need.demand_pflop_h
    );
    assert!(
        (need.tokens.unwrap() - dec!(300000000000)).abs() < dec!(1),
        "{:?}",
        need.tokens
    );
    assert_eq!(need.active_months, 3);
    assert_eq!(need.active_hours, dec!(2160));
    assert_eq!(need.peak_month.map(|m| m.to_string()), Some("2026-02".into()));
    let on = &need.on[0];
    assert_eq!(on.useful_pflop_per_gpu_h, dec!(0.3956));
    assert_eq!(on.layer_gpus, Some(64));
    let hours = on.time_to_train_h.unwrap();
    let expected = work / (dec!(64) * dec!(0.3956));
    assert!((hours - expected).abs() < dec!(0.0001), "{hours} vs {expected}");
    assert!((hours - dec!(138.24)).abs() < dec!(0.01));
    assert_eq!(on.gpus_for_active_months, Some(5));
    assert_eq!(on.gpus_for_peak_month, 5);
    // Unsized on-demand capacity has no time of its own, but the GPUs needed still apply.
    let od = &scenario(&e, "od").operations.needs[0].on[0];
    assert_eq!(od.time_to_train_h, None);
    assert_eq!(od.gpus_for_active_months, Some(5));
}

/// Inference needs GPUs for its declared tokens per month at the stated MFU, and no time to train.
#[test]
fn inference_needs_gpus_for_its_tokens_per_month() {
    let text = r#"{
  "format_version": 1, "title": "serve", "currency": "USD", "start": "2026-04", "horizon_months": 1,
  "discount_rate": "0",
  "workloads": [{ "id": "chat", "name": "chat 70B", "kind": "inference", "class": "steady",
    "model": { "parameters_billion": "70" }, "tokens_per_month": "1000000000000", "mfu": "0.3" }],
  "scenarios": [
    { "id": "od", "name": "On demand", "layers": [
      { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
        "peak_tflops": { "value": "989", "reason": "stated dense BF16 peak" },
        "price_per_gpu_hour": { "value": "4.00", "reason": "test" } }] },
    { "id": "od2", "name": "On demand again", "layers": [
      { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
        "price_per_gpu_hour": { "value": "4.00", "reason": "test" } }] }
  ]
}"#;
    let e = run(text);
    let need = &scenario(&e, "od").operations.needs[0];
    // 2 × 70e9 × 1e12 = 1.4e23 FLOP = 38,888.9 PFLOP-hours in April's 720 hours, at 989 × 0.3 /
    // 1000 = 0.2967 PFLOP-hours per GPU-hour: 182.04 → 183 GPUs.
    let work = dec!(2) * dec!(70000000000) * dec!(1000000000000) / dec!(3600000000000000000);
    assert!((need.demand_pflop_h - work).abs() < dec!(0.0001));
    let gpus = (work / (dec!(720) * dec!(0.2967))).ceil();
    assert_eq!(Decimal::from(need.on[0].gpus_for_peak_month), gpus);
    assert_eq!(gpus, dec!(183));
    assert_eq!(need.on[0].time_to_train_h, None);
    assert_eq!(need.on[0].gpus_for_active_months, None);
}

/// The Buy template delivers after the catalog's GPU lead time and bridges the months until then
/// on demand: the bridge serves all of it (nothing unmet) and stops at delivery.
#[test]
fn the_buy_template_bridges_its_lead_time() {
    let catalog = common::shipped_catalog();
    let d = planner_core::engine::editing::draft::from_template(
        planner_core::engine::editing::draft::TemplateKind::Buy,
        &catalog,
        "USD",
        &[],
    );
    let text = serde_json::json!({
        "format_version": 1, "title": "template", "currency": "USD", "start": "2026-01",
        "horizon_months": 12, "discount_rate": "0",
        "workloads": [{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
            "gpu_hours_per_day": "48", "gpu_hours_on": "nvidia-h100-sxm" }],
        "scenarios": [d.scenario],
    })
    .to_string();
    let e = common::run_with(&catalog, &text);
    let s = &e.scenarios[0];
    let b = &s.operations.bridges[0];
    assert_eq!(
        (b.lead_time_months, b.delivery_month.to_string()),
        (6, "2026-07".to_owned())
    );
    assert_eq!(b.lines.len(), 1);
    assert_eq!((b.lines[0].layer.as_str(), b.lines[0].months), ("bridge", 6));
    // Six months of 48 GPU-hours a day on the same card: 181 days (January to June 2026).
    assert_eq!(b.lines[0].units, dec!(48) * Decimal::from(181));
    assert_eq!(b.unmet_pflop_h, Decimal::ZERO);
    assert_eq!(s.totals.unmet_pflop_h, Decimal::ZERO);
    // From delivery on, the bridge gives nothing.
    let bridge = s.operations.layers.iter().position(|l| l.id == "bridge").unwrap();
    assert!(
        s.operations.months[6..]
            .iter()
            .all(|m| m.served.iter().all(|c| c.layer as usize != bridge))
    );
}

/// The sizing panel's throughput: the same 7B pre-training at 100 billion tokens a month for three
/// months on the catalog's H100 (989 dense BF16 TFLOPS) at MFU 0.4: 1,166.67 PFLOP-hours a month
/// need ⌈1,166.67 ÷ (730.5 × 0.3956)⌉ = ⌈4.04⌉ = 5 GPUs busy all month; the three months' 3,500
/// PFLOP-hours take 3,500 ÷ (n × 0.3956) hours on the n GPUs its memory needs.
#[test]
fn the_sizing_panel_gives_the_gpus_the_stated_demand_needs() {
    let catalog = common::shipped_catalog();
    let w: planner_core::engine::input::scenario_file::WorkloadSpec = serde_json::from_value(serde_json::json!({
        "id": "pt", "name": "pre-train 7B", "kind": "pre-training", "class": "variable",
        "model": { "parameters_billion": "7" }, "tokens_per_month": "100000000000", "mfu": "0.4",
        "active_months": 3
    }))
    .unwrap();
    let peak = catalog
        .accelerator("nvidia-h100-sxm")
        .unwrap()
        .bf16_tflops
        .as_ref()
        .unwrap()
        .mid();
    assert_eq!(peak, dec!(989));
    let p = planner_core::engine::workspace::content::size_workload(&catalog, &w, "nvidia-h100-sxm", 8).unwrap();
    let t = p.throughput.unwrap();
    assert_eq!(t.useful_pflop_per_gpu_h, dec!(0.3956));
    let month = dec!(6) * dec!(7000000000) * dec!(100000000000) / dec!(3600000000000000000);
    assert_eq!(t.month_pflop_h, month);
    assert_eq!(t.gpus_for_month, 5);
    assert_eq!((t.work_pflop_h, t.work_months), (Some(month * dec!(3)), Some(3)));
    let n = Decimal::from(p.gpus_for_memory);
    assert!(n >= Decimal::ONE);
    let hours = t.hours_on_memory_gpus.unwrap();
    assert!((hours - month * dec!(3) / (n * dec!(0.3956))).abs() < dec!(0.000001));
    // Inference has no time to train; a day-based demand converts on its own accelerator.
    let serve: planner_core::engine::input::scenario_file::WorkloadSpec = serde_json::from_value(serde_json::json!({
        "id": "s", "name": "serve", "kind": "inference", "class": "steady",
        "model": { "parameters_billion": "7" }, "gpu_hours_per_day": "48", "gpu_hours_on": "nvidia-h100-sxm"
    }))
    .unwrap();
    let t = planner_core::engine::workspace::content::size_workload(&catalog, &serve, "nvidia-h100-sxm", 8)
        .unwrap()
        .throughput
        .unwrap();
    // 48 GPU-hours a day on the same card: 48 × 30.4375 GPU-hours a month = 2 GPUs busy all month.
    assert_eq!(t.gpus_for_month, 2);
    assert_eq!(t.hours_on_memory_gpus, None);
}
