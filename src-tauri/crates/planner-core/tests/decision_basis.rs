//! One decision basis (issue 42): figures on one screen count the same costs, by the rules
//! ENGINE_RULES.md states. Each test pins one rule with a value worked out by hand from it.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::costing::evaluate::ScenarioResult;
use planner_core::engine::decide::compare::buy_vs_rent;
use planner_core::engine::decide::decision::decision_view;
use planner_core::engine::model::assumption::{Assumption, Origin};
use planner_core::engine::model::ledger::Category;
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
    assert_eq!(
        f.unserved_cost,
        planner_core::engine::blocks::finance::present(t.unserved_cost)
    );
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

// ---- Point 3: one basis for the total, NPV and the break-even -----------------------------------

/// A 12-month plan: `od` rents every hour on demand at 4.00; `res` takes a 3-year reservation of
/// 8 GPUs at 2.10 in month 0 and rents on demand what demand grows beyond it. Within the 12
/// months the reservation is cheaper in cash; the 24 months still owed after the horizon
/// (8 × 24 × days × 2.10 each month) make it the dearer on the decision total.
fn late_commitment_file(discount: &str) -> String {
    format!(
        r#"{{
  "format_version": 1, "title": "late commitment", "currency": "USD", "start": "2027-01",
  "horizon_months": 12, "discount_rate": "{discount}",
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "60", "monthly_growth": "0.12", "gpu_hours_on": "nvidia-h100-sxm" }}],
  "scenarios": [
    {{ "id": "od", "name": "od", "layers": [
      {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
        "price_per_gpu_hour": {{ "value": "4.00", "reason": "list price" }} }}] }},
    {{ "id": "res", "name": "res", "layers": [
      {{ "id": "block", "kind": "reserved", "offer": "aws-p5-h100", "term": "3y", "gpus": 8,
        "price_per_gpu_hour": {{ "value": "2.10", "reason": "negotiated 3-year rate" }} }},
      {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
        "price_per_gpu_hour": {{ "value": "4.00", "reason": "list price" }} }}] }}]
}}"#
    )
}

/// Days in month `k` from January 2027 ([`common::month_days`]).
fn days_from_2027(k: u32) -> u32 {
    common::month_days(2027, k)
}

/// NPV counts what falls due after the horizon in the month it falls due: the horizon's monthly
/// cash (from the ledger), then the reservation's payments of months 12..36 worked out here,
/// discounted as one series (`finance::npv`, checked against numpy-financial elsewhere). On
/// 8e35c85 NPV stopped at the horizon and named `res` the cheaper while the decision total
/// named `od`.
#[test]
fn npv_discounts_the_commitments_after_the_horizon_in_the_months_they_fall_due() {
    use planner_core::engine::blocks::finance::{monthly_rate, npv};
    let e = common::run(&late_commitment_file("0.08"));
    let (od, res) = (scenario(&e, "od"), scenario(&e, "res"));
    let tail: Vec<Decimal> = (12..36)
        .map(|k| dec!(8) * Decimal::from(days_from_2027(k) * 24) * dec!(2.10))
        .collect();
    assert_eq!(
        res.totals.commitments_after_horizon,
        tail.iter().copied().sum::<Decimal>()
    );
    let monthly = monthly_rate(dec!(0.08)).unwrap();
    let flows: Vec<Decimal> = res.ledger.months.iter().map(|m| m.cash.total()).chain(tail).collect();
    assert_eq!(flows.len(), 36);
    assert!(
        (res.totals.npv - npv(monthly, &flows)).abs() < dec!(0.000001),
        "{}",
        res.totals.npv
    );
    // Within the horizon the reservation is cheaper; on the decision basis it is dearer, and NPV
    // now agrees with the decision total.
    assert!(res.totals.total_cash < od.totals.total_cash);
    assert!(res.totals.decision_total > od.totals.decision_total);
    assert!(
        res.totals.npv > od.totals.npv,
        "{} vs {}",
        res.totals.npv,
        od.totals.npv
    );
    // Without a tail nothing changes: the on-demand scenario's NPV is its cash discounted.
    let od_flows: Vec<Decimal> = od.ledger.months.iter().map(|m| m.cash.total()).collect();
    assert_eq!(od.totals.npv, npv(monthly, &od_flows));
}

/// The break-even names the scenario cheaper on the decision total. Here `res` costs more in
/// the first months (its 8 GPUs are paid while demand is small), overtakes `od` in cash before
/// month 12, yet is dearer once the 24 months it still owes are counted. On 8e35c85 the screen
/// showed a crossing with "`res` cheaper after" beside a decision total that ranked `od` first;
/// now there is no break-even within the horizon and a sentence says why, with the figures.
#[test]
fn no_break_even_within_the_horizon_when_the_tail_decides_and_the_sentence_says_why() {
    use planner_core::engine::decide::compare::compare;
    let e = common::run(&late_commitment_file("0.08"));
    let (od, res) = (scenario(&e, "od"), scenario(&e, "res"));
    let cum = |s: &ScenarioResult| s.ledger.months.iter().map(|m| m.cumulative_cash).collect::<Vec<_>>();
    let (a, b) = (cum(res), cum(od));
    // The curves do cross inside the horizon (res dearer first, cheaper by month 12).
    assert!(a[0] > b[0] && a[11] < b[11], "{a:?} {b:?}");
    let c = compare(&e, res, od);
    assert_eq!(c.break_even, None);
    let note = c.break_even_note.expect("a sentence says why");
    let money = planner_core::engine::decide::compare::grouped;
    assert_eq!(
        note,
        format!(
            "No break-even within the horizon: `res` is cheaper in cash by the end of month 12 (by USD {}), but `od` owes USD {} less after the horizon (USD 0.00 against USD {}), so `od` is cheaper on the decision total (by USD {}).",
            money(od.totals.total_cash - res.totals.total_cash),
            money(res.totals.commitments_after_horizon),
            money(res.totals.commitments_after_horizon),
            money(res.totals.decision_total - od.totals.decision_total)
        )
    );
    // The compare screen's figures carry it, and NPV agrees with the decision total here.
    let view = decision_view(&e, Some("od"));
    let d = view.scenarios[1].difference.as_ref().unwrap();
    assert_eq!(d.break_even, None);
    assert_eq!(d.break_even_note.as_deref(), Some(note.as_str()));
    assert_eq!(d.npv_note, None);
    // Without the tail (a 1-year term ends inside the horizon) the crossing stands, cheaper
    // after being `res`.
    let one_year = late_commitment_file("0.08").replace(r#""term": "3y""#, r#""term": "1y""#);
    let e1 = common::run(&one_year);
    let c1 = compare(&e1, scenario(&e1, "res"), scenario(&e1, "od"));
    assert_eq!(c1.break_even.map(|b| b.cheaper_after), Some("res".to_owned()));
    assert_eq!(c1.break_even_note, None);
}

// ---- Point 10: ways out priced on the decision basis --------------------------------------------

/// A 3-year reservation (8 GPUs at 2.10, notice 3 months, 25% of the remaining commitment as
/// fee, 120 TB at 90 egress, 15,000 offboarding) beside on-demand at 4.00 that takes over the
/// work, over a `horizon`-month plan.
fn exit_plan(horizon: u32) -> planner_core::engine::model::scenario::Plan {
    let text = format!(
        r#"{{
  "format_version": 1, "title": "exit", "currency": "USD", "start": "2027-01",
  "horizon_months": {horizon}, "discount_rate": "0.08",
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "100", "gpu_hours_on": "nvidia-h100-sxm" }}],
  "scenarios": [{{ "id": "base", "name": "base", "layers": [
    {{ "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "3y", "gpus": 8,
      "price_per_gpu_hour": {{ "value": "2.10", "reason": "negotiated 3-year rate" }},
      "exit_clause": {{ "notice_months": 3, "fee": {{ "kind": "share-of-remaining", "value": "0.25" }},
        "egress_per_tb": "90", "data_tb": "120", "offboarding": "15000" }} }},
    {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
      "price_per_gpu_hour": {{ "value": "4.00", "reason": "list price" }} }}] }}]
}}"#
    );
    let file = planner_core::engine::input::scenario_file::parse(&text).unwrap();
    planner_core::engine::resolve::validate::validate(&common::catalog(), &file, None).unwrap()
}

fn owed_2027(k: u32) -> Decimal {
    dec!(8) * Decimal::from(days_from_2027(k) * 24) * dec!(2.10)
}

/// Leaving the reservation at month 18 of a 24-month plan: in cash within the horizon leaving
/// costs more (on-demand replaces the cheap reserved hours), but staying still owes months 24..36
/// after the horizon. The difference is taken on the decision totals, so it says leaving saves;
/// on 8e35c85 it was the cash difference and said leaving cost more.
#[test]
fn leaving_a_reservation_is_priced_against_what_staying_still_owes_after_the_horizon() {
    let p = exit_plan(24);
    let v = planner_core::engine::exit::clauses::scenario_exit_variant(&p, "base", "res", 18).unwrap();
    let base_after: Decimal = (24..36).map(owed_2027).sum();
    assert_eq!(v.base_after_horizon, base_after);
    assert_eq!(v.variant_after_horizon, Decimal::ZERO);
    assert_eq!(v.cash_difference, v.variant_total - v.base_total);
    assert_eq!(v.base_decision_total, v.base_total + base_after);
    assert_eq!(v.variant_decision_total, v.variant_total);
    assert_eq!(v.difference, v.variant_decision_total - v.base_decision_total);
    assert!(v.cash_difference > Decimal::ZERO, "cash {}", v.cash_difference);
    assert!(v.difference < Decimal::ZERO, "decision {}", v.difference);
}

/// Notice at month 22 of a 24-month plan takes effect in month 25: month 24's payment and every
/// exit charge fall after the horizon. They are in the variant's commitments after the horizon
/// (so in the difference, and in NPV in month 25), not dropped from both sides as on 8e35c85.
#[test]
fn exit_charges_at_or_after_the_horizon_are_in_the_variants_commitments_after_it() {
    let p = exit_plan(24);
    let v = planner_core::engine::exit::clauses::scenario_exit_variant(&p, "base", "res", 22).unwrap();
    assert_eq!(v.cost.effective_month, 25);
    let fee = dec!(0.25) * (25..36).map(owed_2027).sum::<Decimal>();
    let charges = fee + dec!(90) * dec!(120) + dec!(15000);
    assert!(
        (v.cost.exit_charges - charges).abs() < dec!(0.0000001),
        "{}",
        v.cost.exit_charges
    );
    assert_eq!(v.variant_after_horizon, owed_2027(24) + v.cost.exit_charges);
    assert_eq!(v.base_after_horizon, (24..36).map(owed_2027).sum::<Decimal>());
    // Nothing changes within the horizon (the layer serves through its notice), so the whole
    // difference is after it: the charges less the payments avoided.
    assert_eq!(v.cash_difference, Decimal::ZERO);
    assert_eq!(
        v.difference,
        v.cost.exit_charges - (25..36).map(owed_2027).sum::<Decimal>()
    );
    assert!(
        v.warnings
            .iter()
            .any(|w| w.contains("in the commitments after the horizon")),
        "{:?}",
        v.warnings
    );
}

// ---- Every figure that compares a pair names the same cheaper scenario, or says why -----------

/// Checks every pair of scenarios of `e`: the decision total's difference, NPV's, the
/// break-even and the ranking name the same cheaper scenario, or the comparison carries the
/// sentence that says why not (NPV: `npv_note`; the break-even: `break_even_note`; the ranking:
/// a scenario that leaves work undone ranks last whatever its total, and its rank cell says so).
/// Returns how many pairs disagreed somewhere and were explained.
fn check_pairs(e: &planner_core::engine::costing::evaluate::Evaluation, what: &str) -> usize {
    use planner_core::engine::decide::compare::compare;
    use planner_core::engine::decide::decision::{ranking, serves_all_work};
    use std::cmp::Ordering;
    let order: Vec<&str> = ranking(e).iter().map(|s| s.id.as_str()).collect();
    let mut explained = 0;
    for (i, a) in e.scenarios.iter().enumerate() {
        for b in e.scenarios.iter().skip(i + 1) {
            let c = compare(e, a, b);
            let here = format!("{what}: {} vs {}", a.id, b.id);
            let total = c.total_difference.cmp(&Decimal::ZERO);
            let npv = c.npv_difference.cmp(&Decimal::ZERO);
            // NPV against the decision total.
            let npv_disagrees = total != Ordering::Equal && npv != Ordering::Equal && total != npv;
            assert_eq!(c.npv_note.is_some(), npv_disagrees, "{here}: npv {:?}", c.npv_note);
            explained += usize::from(npv_disagrees);
            // The break-even names the decision total's cheaper scenario.
            if let Some(be) = &c.break_even {
                let winner = if total == Ordering::Less { &a.id } else { &b.id };
                assert_ne!(total, Ordering::Equal, "{here}");
                assert_eq!(&be.cheaper_after, winner, "{here}");
            }
            // Cash at the horizon against the decision total: when they disagree, no crossing is
            // shown and the sentence says why.
            let cash = (a.totals.total_cash - b.totals.total_cash).cmp(&Decimal::ZERO);
            if cash != total {
                assert_eq!(c.break_even, None, "{here}");
                assert!(c.break_even_note.is_some(), "{here}: cash {cash:?}, decision {total:?}");
                explained += 1;
            } else {
                assert_eq!(c.break_even_note, None, "{here}");
            }
            // The ranking: the lower decision total ranks first unless the other serves all the
            // work and this one does not.
            let (ra, rb) = (
                order.iter().position(|id| *id == a.id).unwrap(),
                order.iter().position(|id| *id == b.id).unwrap(),
            );
            let by_rank = ra.cmp(&rb);
            if serves_all_work(a) == serves_all_work(b) {
                if total != Ordering::Equal {
                    assert_eq!(by_rank, total, "{here}: ranking against the decision total");
                }
            } else {
                let first_serves = if ra < rb { a } else { b };
                assert!(serves_all_work(first_serves), "{here}");
                explained += usize::from(by_rank != total && total != Ordering::Equal);
            }
        }
    }
    explained
}

/// Every sample the app ships.
#[test]
fn every_samples_figures_name_the_same_cheaper_scenario_or_say_why() {
    let dir = format!("{}/../../../catalogs/samples", env!("CARGO_MANIFEST_DIR"));
    let mut samples: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("scenario.schema.json"))
        .collect();
    samples.sort();
    assert_eq!(samples.len(), 5, "{samples:?}");
    for p in &samples {
        let e = run(&std::fs::read_to_string(p).unwrap());
        assert!(e.scenarios.len() >= 2, "{}", p.display());
        check_pairs(&e, &p.display().to_string());
    }
}

/// A random valid file of four scenarios: renting on demand, a reservation of random term,
/// size and start beside on-demand, owned hardware with random size and lead time beside
/// on-demand, and the reservation without on-demand (work may be left undone).
#[allow(clippy::too_many_arguments)]
fn random_file(
    horizon: u32,
    discount_pct: u32,
    hours: u32,
    growth_pct: u32,
    term: &str,
    res_gpus: u32,
    res_start: u32,
    own_gpus: u32,
) -> String {
    let od = r#"{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
        "price_per_gpu_hour": { "value": "4.00", "reason": "list price" } }"#;
    let res = format!(
        r#"{{ "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "{term}", "gpus": {res_gpus},
        "start_month": {res_start}, "price_per_gpu_hour": {{ "value": "2.10", "reason": "negotiated" }} }}"#
    );
    format!(
        r#"{{
  "format_version": 1, "title": "random", "currency": "USD", "start": "2027-03",
  "horizon_months": {horizon}, "discount_rate": "0.{discount_pct:02}",
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "{hours}", "monthly_growth": "0.0{growth_pct}", "gpu_hours_on": "nvidia-h100-sxm" }}],
  "scenarios": [
    {{ "id": "rent", "name": "rent", "layers": [{od}] }},
    {{ "id": "reserve", "name": "reserve", "layers": [{res}, {od}] }},
    {{ "id": "own", "name": "own", "layers": [
      {{ "id": "box", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": {own_gpus},
        "lead_time_months": 1, "price_per_gpu": {{ "value": "25000", "reason": "quote" }} }}, {od}],
      "facility": {{ "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40" }} }},
    {{ "id": "reserve-only", "name": "reserve only", "layers": [{res}] }}]
}}"#
    )
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..proptest::prelude::ProptestConfig::default() })]

    #[test]
    fn random_files_figures_name_the_same_cheaper_scenario_or_say_why(
        horizon in 3u32..48,
        discount in 0u32..25,
        hours in 10u32..400,
        growth in 0u32..9,
        three_years in proptest::bool::ANY,
        res_gpus in 1u32..16,
        res_start in 0u32..12,
        own_gpus in 1u32..16,
    ) {
        let term = if three_years { "3y" } else { "1y" };
        let text = random_file(horizon, discount, hours, growth, term, res_gpus, res_start.min(horizon - 1), own_gpus);
        check_pairs(&common::run(&text), "random file");
    }
}
