//! Price paths and derived resale in the ledger (issue #44): a hand-computed 24-month file with a
//! 25% a year rental decline, a reservation signed in month 6 and hardware ordered in month 12 on
//! a purchase path; resale derived from price-performance with and without the rental-margin
//! cap; the order in which a scenario's and the file's `market` resolve; and the refusals.
//!
//! Expected figures are worked from the rules in ENGINE_RULES.md ("Price paths in the ledger")
//! with the arithmetic written out; powers with a fractional exponent are computed here in binary
//! floating point, independently of the engine's decimal series, and compared to one unit of the
//! ledger's last place (10 decimals) scaled by the figure's size.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::costing::evaluate::ScenarioResult;
use planner_core::engine::input::scenario_file::parse;
use planner_core::engine::model::assumption::Origin;
use planner_core::engine::model::ledger::Category;
use planner_core::engine::resolve::validate::validate;
use rust_decimal::Decimal;
use rust_decimal::dec;
use rust_decimal::prelude::ToPrimitive;

/// Within the ledger's precision of a figure computed here in f64 (about 16 significant digits).
fn close(got: Decimal, want: f64, what: &str) {
    let got = got.to_f64().unwrap();
    let tolerance = 1e-10_f64.max(want.abs() * 1e-13);
    assert!((got - want).abs() <= tolerance, "{what}: engine {got}, hand {want}");
}

fn month(s: &ScenarioResult, m: usize, c: Category) -> Decimal {
    s.ledger.months[m].cash.get(c)
}

/// 24 months from January 2027; 48 GPU-hours a day of inference on H100 (two GPUs, day and night).
fn file(market: &str, scenarios: &str) -> String {
    format!(
        r#"{{
  "format_version": 1, "title": "paths", "currency": "USD", "start": "2027-01",
  "horizon_months": 24, "discount_rate": "0",
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "48", "gpu_hours_on": "nvidia-h100-sxm", "mfu": "0.4" }}],
  {market}
  "scenarios": [{scenarios}]
}}"#
    )
}

const FACILITY: &str = r#""facility": { "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40" }"#;

/// On demand at 2.00 on a -25% a year path; one GPU reserved for a year from month 6 at 1.50 (the
/// path's price in month 6 locked in); one GPU bought at 30,000 ordered in month 12 and delivered
/// a month later, on a purchase path of -30% a year; owned availability 1 so the hours are whole.
fn acceptance() -> String {
    let market = r#""market": {
    "rental": { "path": { "kind": "rate", "per_year": "-0.25" }, "reason": "test: 25% cheaper a year" },
    "purchase": { "path": { "kind": "rate", "per_year": "-0.30" }, "reason": "test: 30% cheaper a year" } },"#;
    let scenario = format!(
        r#"{{ "id": "mix", "name": "mix", {FACILITY}, "layers": [
      {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
         "price_per_gpu_hour": {{ "value": "2.00", "reason": "quote" }} }},
      {{ "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 1, "start_month": 6,
         "price_per_gpu_hour": {{ "value": "1.50", "reason": "quote" }} }},
      {{ "id": "box", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 1, "start_month": 12,
         "availability": "1", "lead_time_months": 1, "lead_time_reason": "supplier quote",
         "price_per_gpu": {{ "value": "30000", "reason": "quote" }}, "residual_share": "0", "residual_reason": "kept" }}
    ] }}"#
    );
    file(market, &scenario)
}

/// The acceptance file of issue #44, month by month.
///
/// Dispatch serves owned first, then reserved, then on demand, so with 48 GPU-hours a day:
/// months 0–5 on demand 48 h/day; months 6–12 reserved 24 + on demand 24; months 13–17 owned 24
/// + reserved 24; months 18–23 owned 24 + on demand 24.
/// - Month 0 (January 2027, 31 days): 48 × 31 = 1,488 GPU-hours × 2.00 × 0.75^(0/12) = 2,976.00.
/// - Month 6 (July 2027, 31 days): 24 × 31 = 744 × 2.00 × 0.75^(6/12) = 1,488 × √0.75
///   = 1,488 × 0.8660254037844386 = 1,288.6458008…
/// - Month 12 (January 2028, 31 days): 744 × 2.00 × 0.75^(12/12) = 1,488 × 0.75 = 1,116.00.
/// - Month 17 (June 2028): the owned GPU and the reservation carry it all: 0.
/// - Month 23 (December 2028, 31 days): 1,488 × 0.75^(23/12) = 1,488 × 0.5759… = 857.0…
/// - Commitments: the reservation locks 1.50 × 0.75^(6/12) = 1.2990381056766578 a GPU-hour for
///   its term: 744 h × that in July 2027 (966.484…), 720 h in June 2028 (month 17, 935.307…),
///   nothing from month 18 (the term has ended) and nothing before month 6.
/// - Hardware: ordered in month 12, so bought at 30,000 × 0.7^(12/12) = 21,000.00, booked on
///   delivery in month 13.
#[test]
fn the_acceptance_file_books_each_month_at_its_path() {
    let e = common::run(&acceptance());
    let s = common::scenario(&e, "mix");
    let cc = |m| month(s, m, Category::CloudCompute);
    assert_eq!(cc(0), dec!(2976.00));
    close(cc(6), 1488.0 * 0.75_f64.sqrt(), "cloud compute, month 6");
    assert_eq!(cc(12), dec!(1116.00));
    assert_eq!(cc(17), Decimal::ZERO);
    close(cc(23), 1488.0 * 0.75_f64.powf(23.0 / 12.0), "cloud compute, month 23");
    let locked = 1.5 * 0.75_f64.sqrt();
    let commit = |m| month(s, m, Category::Commitments);
    assert_eq!(commit(5), Decimal::ZERO);
    close(commit(6), 744.0 * locked, "commitment, month 6");
    close(commit(17), 720.0 * locked, "commitment, month 17");
    assert_eq!(commit(18), Decimal::ZERO);
    assert_eq!(month(s, 12, Category::Hardware), Decimal::ZERO);
    assert_eq!(month(s, 13, Category::Hardware), dec!(21000.00));
    // Each path is recorded where the user sees it: the rental multiplier in month 23, the
    // reservation's locked multiplier and the purchase multiplier at the order month.
    let a = |path: &str| {
        s.assumptions
            .iter()
            .find(|a| a.path == path)
            .unwrap_or_else(|| panic!("no assumption {path}"))
    };
    close(
        a("scenarios[0].layers[0].price_path").value,
        0.75_f64.powf(23.0 / 12.0),
        "rental at month 23",
    );
    close(
        a("scenarios[0].layers[1].price_path").value,
        0.75_f64.sqrt(),
        "locked in month 6",
    );
    // 0.7 to the block's precision (the twelfth root of 0.7, by Newton's method, to the 12th).
    close(
        a("scenarios[0].layers[2].price_path").value,
        0.7,
        "purchase at month 12",
    );
    assert!(matches!(&a("scenarios[0].layers[1].price_path").origin,
        Origin::Override { reason } if reason.contains("locked") && reason.contains("market.rental")));
}

/// The same file without `market` books every month at the month-0 price: a file without paths
/// keeps its figures (month 23: 1,488 × 2.00 ÷ 2 = 1,488.00; hardware 30,000.00).
#[test]
fn without_a_market_every_price_is_flat() {
    let text = acceptance().replace(
        r#""market": {
    "rental": { "path": { "kind": "rate", "per_year": "-0.25" }, "reason": "test: 25% cheaper a year" },
    "purchase": { "path": { "kind": "rate", "per_year": "-0.30" }, "reason": "test: 30% cheaper a year" } },"#,
        "",
    );
    let e = common::run(&text);
    let s = common::scenario(&e, "mix");
    assert_eq!(month(s, 23, Category::CloudCompute), dec!(1488.00));
    assert_eq!(month(s, 6, Category::Commitments), dec!(1116.00));
    assert_eq!(month(s, 13, Category::Hardware), dec!(30000.00));
    assert!(s.assumptions.iter().all(|a| !a.path.contains("price_path")));
}

/// One H100 bought for 30,000 in month 0 of a 36-month plan, no sourced resale row in the test
/// catalog, and `extra` layers beside it.
fn owned_36(decay: &str, extra_layers: &str, accelerator: &str) -> String {
    format!(
        r#"{{
  "format_version": 1, "title": "resale", "currency": "USD", "start": "2027-01",
  "horizon_months": 36, "discount_rate": "0",
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "12", "gpu_hours_on": "nvidia-h100-sxm", "mfu": "0.4" }}],
  "market": {{ "resale": {{ "decay": {decay}, "reason": "Epoch AI: ML GPU price-performance doubles every 2.07 years" }} }},
  "scenarios": [{{ "id": "own", "name": "own", {FACILITY}, "layers": [
      {{ "id": "box", "kind": "owned", "accelerator": "{accelerator}", "gpus": 1,
         "depreciation_life_months": 48,
         "price_per_gpu": {{ "value": "30000", "reason": "quote" }} }}{extra_layers}
  ] }}]
}}"#
    )
}

const DOUBLING: &str = r#"{ "kind": "doubling", "years": "2.07" }"#;

/// Derived resale: an H100 at 36 months on a 2.07-year doubling keeps 2^(−36 / 24.84) of its
/// price, 2^(−1.4492753623…) = 0.366335…, so it resells for 30,000 × that ≈ 10,990.06 in month 35
/// (a negative cost), with no cap: the scenario rents no H100 by the hour.
#[test]
fn an_h100_without_a_sourced_row_resells_at_its_derived_share() {
    let e = common::run(&owned_36(DOUBLING, "", "nvidia-h100-sxm"));
    let s = common::scenario(&e, "own");
    let share = 2.0_f64.powf(-36.0 / 24.84);
    close(-month(s, 35, Category::Residual), 30000.0 * share, "derived resale");
    let a = s
        .assumptions
        .iter()
        .find(|a| a.path == "scenarios[0].layers[0].residual_share")
        .expect("the derived share is recorded");
    close(a.value, share, "recorded share");
    assert!(matches!(&a.origin,
        Origin::Derived { rule: reason } if reason.contains("derived") && reason.contains("never book value") && reason.contains("no cap")));
    assert!(
        s.warnings.iter().all(|w| !w.contains("no sourced resale estimate")),
        "{:?}",
        s.warnings
    );
}

/// The cap: the scenario also rents H100s on demand at 1.00 a GPU-hour. Renting the card out for
/// the rest of its 48-month life after the horizon (months 36–47 = the year 2030, 365 × 24 =
/// 8,760 hours) at its 0.97 default availability, less its running cost of 0, earns
/// 1.00 × 8,760 × 0.97 = 8,497.20, below the 10,990.06 the path gives: resale 8,497.20.
#[test]
fn the_remaining_rental_margin_caps_derived_resale() {
    let od = r#", { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
         "price_per_gpu_hour": { "value": "1.00", "reason": "quote" } }"#;
    let e = common::run(&owned_36(DOUBLING, od, "nvidia-h100-sxm"));
    let s = common::scenario(&e, "own");
    assert_eq!(-month(s, 35, Category::Residual), dec!(8497.20));
    let a = s
        .assumptions
        .iter()
        .find(|a| a.path == "scenarios[0].layers[0].residual_share")
        .unwrap();
    assert!(matches!(&a.origin, Origin::Derived { rule: reason } if reason.contains("capped")));
}

/// A card whose vendor has no resale market (Huawei) resells at 0 under the same rule.
#[test]
fn a_non_nvidia_card_resells_at_zero() {
    let text = owned_36(DOUBLING, "", "huawei-ascend-910b")
        .replace(r#""facility""#, r#""engineer_month_cost": "10000", "facility""#);
    let e = common::run(&text);
    let s = common::scenario(&e, "own");
    assert_eq!(month(s, 35, Category::Residual), Decimal::ZERO);
}

/// A user's residual_share still wins over the derived rule (0.5 × 30,000 = 15,000.00).
#[test]
fn the_users_residual_share_wins() {
    let text = owned_36(DOUBLING, "", "nvidia-h100-sxm").replace(
        r#""depreciation_life_months": 48,"#,
        r#""depreciation_life_months": 48, "residual_share": "0.5", "residual_reason": "buy-back quote","#,
    );
    let e = common::run(&text);
    assert_eq!(
        -month(common::scenario(&e, "own"), 35, Category::Residual),
        dec!(15000.00)
    );
}

/// Resolution: a scenario's key replaces the file's; `rental_for` its accelerator comes before
/// `rental`; a key set nowhere is flat. The file says -25% a year for rental; scenario `b` says
/// flat; scenario `c` keeps the file's rental but its H100s follow +10% a year (`rental_for`).
/// Month 12 on demand, 48 × 31 = 1,488 h × 2.00: `a` 2,976 × 0.75 = 2,232.00, `b` 2,976.00,
/// `c` 2,976 × 1.1 = 3,273.60.
#[test]
fn a_scenarios_market_replaces_the_files_key_by_key() {
    let od = r#"{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
         "price_per_gpu_hour": { "value": "2.00", "reason": "quote" } }"#;
    let market = r#""market": { "rental": { "path": { "kind": "rate", "per_year": "-0.25" }, "reason": "file" } },"#;
    let scenarios = format!(
        r#"{{ "id": "a", "name": "a", "layers": [{od}] }},
        {{ "id": "b", "name": "b", "layers": [{od}],
          "market": {{ "rental": {{ "path": {{ "kind": "flat" }}, "reason": "scenario: flat" }} }} }},
        {{ "id": "c", "name": "c", "layers": [{od}],
          "market": {{ "rental_for": {{ "nvidia-h100-sxm": {{ "path": {{ "kind": "rate", "per_year": "0.1" }}, "reason": "H100 family" }} }} }} }}"#
    );
    let e = common::run(&file(market, &scenarios));
    let at12 = |id| month(common::scenario(&e, id), 12, Category::CloudCompute);
    assert_eq!(at12("a"), dec!(2232.00));
    assert_eq!(at12("b"), dec!(2976.00));
    assert_eq!(at12("c"), dec!(3273.60));
    let c = common::scenario(&e, "c");
    let a = c
        .assumptions
        .iter()
        .find(|a| a.path == "scenarios[2].layers[0].price_path")
        .unwrap();
    assert!(
        matches!(&a.origin, Origin::Override { reason } if reason.contains("scenarios[2].market.rental_for.nvidia-h100-sxm"))
    );
}

fn problems(text: &str) -> Vec<(String, String)> {
    let f = parse(text).unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message));
    match validate(&common::catalog(), &f, None) {
        Ok(_) => Vec::new(),
        Err(ps) => ps.into_iter().map(|p| (p.path, p.message)).collect(),
    }
}

/// Refusals name the field: a rate of -100% a year, an empty reason, a decay the resale block
/// refuses, an unknown accelerator in `rental_for`, and a path lifting a price more than tenfold
/// within the plan (+1000% a year reaches 11^(23/12) = e^(1.9167 × 2.3979) ≈ 99.08 times by
/// month 23, the plan's last).
#[test]
fn bad_paths_are_refused_at_their_field() {
    let od = r#"{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
         "price_per_gpu_hour": { "value": "2.00", "reason": "quote" } }"#;
    let scenario = format!(
        r#"{{ "id": "a", "name": "a", "layers": [{od}],
          "market": {{ "staff": {{ "path": {{ "kind": "flat" }}, "reason": " " }},
                       "rental_for": {{ "no-such-card": {{ "path": {{ "kind": "flat" }}, "reason": "x" }} }},
                       "resale": {{ "decay": {{ "kind": "doubling", "years": "0" }}, "reason": "x" }} }} }}"#
    );
    let market = r#""market": { "rental": { "path": { "kind": "rate", "per_year": "-1" }, "reason": "x" } },"#;
    let found = problems(&file(market, &scenario));
    let paths: Vec<&str> = found.iter().map(|p| p.0.as_str()).collect();
    for want in [
        "market.rental.path.per_year",
        "scenarios[0].market.staff.reason",
        "scenarios[0].market.rental_for.no-such-card",
        "scenarios[0].market.resale.decay.years",
    ] {
        assert!(paths.contains(&want), "{want} not in {found:#?}");
    }
    let steep = r#""market": { "token": { "path": { "kind": "flat" }, "reason": "x" },
        "rental": { "path": { "kind": "rate", "per_year": "10" }, "reason": "x" } },"#;
    let found = problems(&file(
        steep,
        &format!(r#"{{ "id": "a", "name": "a", "layers": [{od}] }}"#),
    ));
    assert!(
        found
            .iter()
            .any(|p| p.0 == "market.rental.path" && p.1.contains("99.08")),
        "{found:#?}"
    );
}
