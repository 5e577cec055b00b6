//! One decision basis (issue 42): figures on one screen count the same costs, by the rules
//! ENGINE_RULES.md states. Each test pins one rule with a value worked out by hand from it.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::compare::buy_vs_rent;
use planner_core::decision::decision_view;
use planner_core::evaluate::ScenarioResult;
use planner_core::ledger::Category;
use planner_core::scenario::{Assumption, Origin};
use rust_decimal::Decimal;
use rust_decimal::dec;

use common::{run_shipped as run, scenario};

fn sample(name: &str) -> String {
    let path = format!("{}/../../../catalogs/samples/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn shadow(s: &ScenarioResult, workload: usize) -> &Assumption {
    let path = format!("workloads[{workload}].unserved_work_price");
    s.assumptions
        .iter()
        .find(|a| a.path == path)
        .unwrap_or_else(|| panic!("no {path}"))
}

fn catalog_origin(a: &Assumption) -> (&str, Option<&str>, Decimal, Decimal) {
    match &a.origin {
        Origin::Catalog {
            entry,
            currency,
            low,
            high,
            ..
        } => (entry.as_str(), currency.as_deref(), *low, *high),
        o => panic!("not from the catalog: {o:?}"),
    }
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

// ---- Point 2: a layer's exit fee is part of its whole cost --------------------------------------

/// A pool serving a 70B chat model until it leaves at month 6 with a fee, an API after it. The
/// pool's whole cost includes its exit fee, so the cost per million tokens rises by exactly
/// fee ÷ millions of tokens (the tokens are the same with or without the fee), and equals the
/// booked compute plus the fee over the tokens (no other cost of this scenario is a token
/// layer's).
#[test]
fn a_layers_exit_fee_is_in_the_cost_per_million_tokens() {
    let text = |fee: &str| {
        format!(
            r#"{{
  "format_version": 1, "title": "exit fee", "currency": "USD", "start": "2026-01",
  "horizon_months": 12, "discount_rate": "0",
  "workloads": [{{ "id": "chat", "name": "chat", "kind": "inference", "class": "steady",
    "model": {{ "parameters_billion": "70" }}, "tokens_per_month": "1000000000" }}],
  "scenarios": [{{ "id": "s", "name": "s", "staff_fte": "1", "staff_cost_per_fte_year": "120000", "layers": [
    {{ "id": "pool", "kind": "pooled", "accelerator": "nvidia-h100-sxm",
      "price_per_gpu_hour": {{ "value": "2.00", "reason": "test" }}, "exit": {{ "month": 6, "fee": "{fee}" }} }},
    {{ "id": "api", "kind": "token-metered",
      "price_per_million_tokens": {{ "value": "0.88", "reason": "test" }} }}] }}]
}}"#
        )
    };
    let with = run(&text("5000"));
    let without = run(&text("0"));
    let (t1, t0) = (&with.scenarios[0].totals, &without.scenarios[0].totals);
    assert_eq!(t1.tokens, t0.tokens);
    assert_eq!(t1.tokens.round_dp(3), dec!(12000000000), "every token is served");
    let millions = t1.tokens / dec!(1000000);
    assert_eq!(t1.cash.get(Category::TerminationFees), dec!(5000));
    let rise = t1.cost_per_million_tokens.unwrap() - t0.cost_per_million_tokens.unwrap();
    // 5,000 over 12,000 million tokens: 0.41666… per million.
    assert_eq!(rise.round_dp(10), (dec!(5000) / millions).round_dp(10));
    let whole = t1.cash.get(Category::CloudCompute) + t1.cash.get(Category::TerminationFees);
    assert_eq!(
        t1.cost_per_million_tokens.unwrap().round_dp(10),
        (whole / millions).round_dp(10)
    );
}

// ---- Point 4: cost per unit is over the work done; the shadow cost is apart ----------------------

/// Three reserved H100s at 2.00 for four H100s of work: a quarter of the work is left undone at
/// its shadow price. The work done is 3 GPUs × every hour at 2.00, so its cost per GPU-hour is
/// 2.00 and per useful PFLOP-hour 2.00 ÷ (H100 bf16 midpoint × 0.4 ÷ 1000); the shadow cost is
/// shown apart, on its own line of the decision view.
#[test]
fn cost_per_unit_is_over_the_work_done_and_leaves_the_shadow_cost_apart() {
    let text = r#"{
  "format_version": 1, "title": "unmet", "currency": "USD", "start": "2026-01", "horizon_months": 12,
  "discount_rate": "0",
  "workloads": [{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "96", "gpu_hours_on": "nvidia-h100-sxm", "mfu": "0.4" }],
  "scenarios": [
    { "id": "short", "name": "Three GPUs for four GPUs of work", "layers": [
      { "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 3,
        "price_per_gpu_hour": { "value": "2.00", "reason": "test" } }] },
    { "id": "full", "name": "Four GPUs", "layers": [
      { "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 4,
        "price_per_gpu_hour": { "value": "2.00", "reason": "test" } }] }]
}"#;
    let e = run(text);
    let t = &scenario(&e, "short").totals;
    assert!(t.unserved_cost > Decimal::ZERO);
    let cat = common::shipped_catalog();
    let useful = cat
        .accelerator("nvidia-h100-sxm")
        .unwrap()
        .bf16_tflops
        .as_ref()
        .unwrap()
        .mid()
        * dec!(0.4)
        / dec!(1000);
    assert_eq!(t.cost_per_gpu_hour.map(|c| c.round_dp(8)), Some(dec!(2.00)));
    assert_eq!(
        t.cost_per_useful_pflop_hour.map(|c| c.round_dp(8)),
        Some((dec!(2.00) / useful).round_dp(8))
    );
    let view = decision_view(&e, None);
    let f = view.scenarios.iter().find(|s| s.id == "short").unwrap();
    assert_eq!(f.cost_per_gpu_hour, Some(dec!(2.00)));
    assert_eq!(f.unserved_cost, planner_core::finance::present(t.unserved_cost));
    // The scenario that serves everything: the same 2.00, nothing apart.
    let full = &scenario(&e, "full").totals;
    assert_eq!(full.cost_per_gpu_hour.map(|c| c.round_dp(8)), Some(dec!(2.00)));
    assert!(full.unserved_cost.is_zero());
}

// ---- Point 5: the shadow price comes from a card that holds the work ----------------------------

fn shadow_file(currency: &str, fx: &str, parameters_billion: &str) -> String {
    format!(
        r#"{{
  "format_version": 1, "title": "shadow", "currency": "{currency}", "start": "2027-01",
  "horizon_months": 1, "discount_rate": "0", "fx": [{fx}],
  "workloads": [{{ "id": "docs", "name": "docs", "kind": "inference", "class": "steady", "precision": "fp8",
    "model": {{ "parameters_billion": "{parameters_billion}", "layers": 80, "kv_heads": 8, "head_dim": 128,
      "context_tokens": 8192, "batch": 8 }},
    "tokens_per_month": "1000000000", "mfu": "0.3" }}],
  "scenarios": [{{ "id": "s", "name": "s", "layers": [
    {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" }}] }}]
}}"#
    )
}

/// A 70B model at fp8 with an 8k-token, batch-8 KV cache needs 70 GB of weights plus
/// 2 × 80 × 8 × 128 × 8192 × 8 × 1 B = 10.74 GB of cache, 80.74 GB. The cheapest work per
/// useful fp8 PFLOP-hour in the shipped catalog is the RTX 4090 marketplace (0.18 ÷ 495.5
/// TFLOPS), but four 24 GB cards with no scale-up link cannot hold it. Among the cards that can
/// (one GPU, or a server joined by a scale-up link), the cheapest is TensorWave's MI300X: 192 GB
/// holds it on one GPU, at 1.605 (midpoint of 1.50–1.71) ÷ 2,615 TFLOPS = 0.000614 per TFLOPS,
/// below Vast's B200 (4.492 ÷ 4,500 = 0.000998) and H100 (1.995 ÷ 1,979 = 0.001008).
/// A 7B model fits the 24 GB card, which then prices it.
#[test]
fn the_shadow_price_comes_from_an_offer_whose_card_holds_the_work() {
    let big = run(&shadow_file("USD", "", "70"));
    let a = shadow(&big.scenarios[0], 0);
    let (entry, currency, _, _) = catalog_origin(a);
    assert_eq!(entry, "tensorwave-mi300x");
    assert_eq!(currency, Some("USD"));
    assert_eq!(a.value, dec!(1.605));
    let small = run(&shadow_file("USD", "", "7"));
    assert_eq!(catalog_origin(shadow(&small.scenarios[0], 0)).0, "marketplace-rtx-4090");
}

// ---- Point 7: the shadow price's assumption names the file's currency ---------------------------

/// In a EUR file (1 EUR = 1.08 USD) the shadow price is 1.605 USD ÷ 1.08 = 1.486111… EUR per
/// GPU-hour of the MI300X offer; its assumption names EUR, and its range (1.50–1.71 USD) is
/// given in EUR too.
#[test]
fn the_shadow_price_assumption_names_the_files_currency() {
    let e = run(&shadow_file(
        "EUR",
        r#"{ "base": "EUR", "quote": "USD", "rate": "1.08", "source": "test" }"#,
        "70",
    ));
    let a = shadow(&e.scenarios[0], 0);
    let (entry, currency, low, high) = catalog_origin(a);
    assert_eq!(entry, "tensorwave-mi300x");
    assert_eq!(currency, Some("EUR"));
    assert_eq!(a.value.round_dp(6), dec!(1.486111));
    assert_eq!(low.round_dp(6), dec!(1.388889));
    assert_eq!(high.round_dp(6), dec!(1.583333));
}

// ---- Point 6: idle cost is every fixed cost of the layer × its idle share ------------------------

/// Eight owned H100s (1 kW each at the wall, PUE 1.5, 0.10 per kWh, idle draw 30%), with
/// installation maintained at 12% a year, serving four GPUs' work. Each month the layer's fixed
/// costs are its depreciation, support, colocation, maintenance of the non-server capital and the
/// electricity every in-service hour draws at idle (8 × hours × 0.3 × 1 kW × 1.5 × 0.10); its
/// idle share is (available − busy) ÷ available GPU-hours. Power above idle in busy hours moves
/// with use and is not idle cost.
#[test]
fn idle_cost_is_every_fixed_cost_of_the_owned_layer_times_its_idle_share() {
    let text = r#"{
  "format_version": 1, "title": "idle", "currency": "USD", "start": "2026-01", "horizon_months": 12,
  "discount_rate": "0",
  "workloads": [{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "96", "gpu_hours_on": "nvidia-h100-sxm", "mfu": "0.4" }],
  "scenarios": [{ "id": "own", "name": "own", "layers": [
    { "id": "box", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8, "gpus_per_server": 8,
      "price_per_gpu": { "value": "25000", "reason": "test" },
      "power_kw_per_gpu": { "value": "1", "reason": "test" }, "idle_power_share": "0.3",
      "installation": "40000", "non_server_maintenance_rate_per_year": "0.12",
      "support_rate_per_year": "0.1", "residual_share": "0.5" }],
    "facility": { "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40",
      "pue": { "value": "1.5", "reason": "test" },
      "tariff_per_kwh": { "value": "0.10", "reason": "test" } } }]
}"#;
    let e = run(text);
    let s = &e.scenarios[0];
    let mut expected = Decimal::ZERO;
    let mut maintenance = Decimal::ZERO;
    for m in &s.ledger.months {
        let (available, busy) = (m.usage.owned_available_gpu_h, m.usage.owned_busy_gpu_h);
        if available.is_zero() {
            continue; // not yet delivered: nothing is idle
        }
        let hours = m.month.hours();
        let idle_power = dec!(8) * hours * dec!(0.3) * dec!(1) * dec!(1.5) * dec!(0.10);
        // No running cost per GPU-hour: operations is the non-server maintenance alone.
        let fixed = m.book.get(Category::Depreciation)
            + m.book.get(Category::Support)
            + m.book.get(Category::Colocation)
            + m.book.get(Category::Operations)
            + idle_power;
        maintenance += m.book.get(Category::Operations);
        expected += fixed * (available - busy) / available;
    }
    // The maintenance is there to count (12% a year of at least the installation).
    assert!(maintenance > Decimal::ZERO, "{maintenance}");
    assert!(
        (s.totals.idle_cost - expected).abs() < dec!(0.000001),
        "{} vs {expected}",
        s.totals.idle_cost
    );
}
