//! Currencies in a scenario file: an override's own currency, the two ways `fx` is written, and
//! the plausibility band that refuses an inverted rate (see `planner_core::engine::input::fx`).

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::blocks::finance::present;
use planner_core::engine::input::fx::{
    OTHER_MONEY_OVERRIDES, OTHER_NON_MONEY_OVERRIDES, is_money_override, money_overrides,
};
use planner_core::engine::input::layer_fields::{LAYER_FIELDS, LayerField, Money};
use planner_core::engine::input::scenario_file::parse;
use planner_core::engine::model::assumption::Origin;
use planner_core::engine::model::ledger::Category;
use planner_core::engine::resolve::validate::validate;
use planner_core::problem::Problem;
use rust_decimal::Decimal;
use rust_decimal::dec;

/// A one-month EUR-or-other file: 24 GPU-hours a day on one H100 in January 2027 (744 GPU-hours),
/// served by the layer given, with the `fx` given.
fn file(currency: &str, fx: &str, layer: &str) -> String {
    format!(
        r#"{{
      "format_version": 1, "title": "fx", "currency": "{currency}", "start": "2027-01",
      "horizon_months": 1, "discount_rate": "0", "fx": [{fx}],
      "workloads": [{{ "id": "w", "name": "w", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "24", "gpu_hours_on": "nvidia-h100-sxm" }}],
      "scenarios": [{{ "id": "s", "name": "s", "layers": [{layer}] }}]
    }}"#
    )
}

fn pooled(price: &str) -> String {
    format!(r#"{{ "id": "pool", "kind": "pooled", "accelerator": "nvidia-h100-sxm", "price_per_gpu_hour": {price} }}"#)
}

/// The price per GPU-hour the first layer of the only scenario uses, as resolved.
fn price(
    e: &planner_core::engine::costing::evaluate::Evaluation,
) -> &planner_core::engine::model::assumption::Assumption {
    e.scenarios[0]
        .assumptions
        .iter()
        .find(|a| a.path == "scenarios[0].layers[0].price_per_gpu_hour")
        .unwrap()
}

fn problems(text: &str) -> Vec<Problem> {
    let f = parse(text).unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message));
    match validate(&common::catalog(), &f, None) {
        Ok(_) => Vec::new(),
        Err(p) => p,
    }
}

fn problem_at<'a>(ps: &'a [Problem], path: &str) -> &'a Problem {
    ps.iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("no problem at {path}: {ps:#?}"))
}

#[test]
fn a_usd_override_in_a_eur_file_is_converted_at_the_files_rate() {
    let text = file(
        "EUR",
        r#"{ "base": "EUR", "quote": "USD", "rate": "1.08", "source": "ECB reference rate 2026-11-20" }"#,
        &pooled(r#"{ "value": "2.50", "currency": "USD", "reason": "pool charge-back 2027" }"#),
    );
    let e = common::run(&text);
    let s = &e.scenarios[0];
    let a = s
        .assumptions
        .iter()
        .find(|a| a.path == "scenarios[0].layers[0].price_per_gpu_hour")
        .unwrap();
    // 2.50 USD at 1 EUR = 1.08 USD is 2.3148… EUR per GPU-hour.
    assert_eq!(a.value.round_dp(6), dec!(2.314815));
    match &a.origin {
        Origin::Override { reason } => {
            assert_eq!(reason, "pool charge-back 2027 (USD 2.50 at 1 EUR = 1.08 USD)");
        }
        o => panic!("not an override: {o:?}"),
    }
    // The engine books 744 GPU-hours at that price: 744 × 2.50 / 1.08 = 1722.22 EUR.
    let m = &s.ledger.months[0];
    assert_eq!(m.usage.delivered_gpu_h, dec!(744));
    assert_eq!(present(m.cash.get(Category::CloudCompute)), dec!(1722.22));
    assert_eq!(present(s.totals.total_cash), dec!(1722.22));
}

#[test]
fn an_override_in_the_files_own_currency_is_taken_as_written() {
    let text = file(
        "EUR",
        "",
        &pooled(r#"{ "value": "2.50", "currency": "EUR", "reason": "q" }"#),
    );
    let e = common::run(&text);
    let a = price(&e);
    assert_eq!(a.value, dec!(2.50));
    assert_eq!(a.origin, Origin::Override { reason: "q".into() });
}

#[test]
fn the_old_fx_form_still_loads_and_gives_the_same_results_as_the_new_form() {
    // A USD catalog offer and a USD override in a EUR file; 1 USD = 0.925 EUR written both ways.
    let layers = r#"{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" },
        { "id": "pool", "kind": "pooled", "accelerator": "nvidia-h100-sxm", "serves": [],
          "price_per_gpu_hour": { "value": "2.00", "currency": "USD", "reason": "q" } }"#;
    let old = file(
        "EUR",
        r#"{ "currency": "USD", "rate": "0.925", "source": "ECB 2026-11-20" }"#,
        layers,
    );
    let new = file(
        "EUR",
        r#"{ "base": "USD", "quote": "EUR", "rate": "0.925", "source": "ECB 2026-11-20" }"#,
        layers,
    );
    let (a, b) = (common::run(&old), common::run(&new));
    assert_eq!(a.scenarios, b.scenarios);
    let s = &a.scenarios[0];
    assert!(s.totals.total_cash > Decimal::ZERO);
    let pool = s
        .assumptions
        .iter()
        .find(|x| x.path.ends_with("layers[1].price_per_gpu_hour"))
        .unwrap();
    assert_eq!(pool.value, dec!(1.85));
    assert_eq!(
        pool.origin,
        Origin::Override {
            reason: "q (USD 2.00 at 1 USD = 0.925 EUR)".into()
        }
    );
    // The catalog price in dollars, converted: the offer's USD figure × 0.925.
    let od = s
        .assumptions
        .iter()
        .find(|x| x.path.ends_with("layers[0].price_per_gpu_hour"))
        .unwrap();
    match &od.origin {
        Origin::Catalog { currency, .. } => assert_eq!(currency.as_deref(), Some("USD")),
        o => panic!("not a catalog figure: {o:?}"),
    }
    // The new form may also run the other way: 1 EUR = 1.08 USD gives 2.00 / 1.08 EUR.
    let inverse = file(
        "EUR",
        r#"{ "base": "EUR", "quote": "USD", "rate": "1.08", "source": "ECB 2026-11-20" }"#,
        layers,
    );
    let c = common::run(&inverse);
    let pool = c.scenarios[0]
        .assumptions
        .iter()
        .find(|x| x.path.ends_with("layers[1].price_per_gpu_hour"))
        .unwrap();
    assert_eq!(pool.value.round_dp(4), dec!(1.8519));
}

#[test]
fn an_inverted_yen_rate_is_refused_at_its_path() {
    let layer = pooled(r#"{ "value": "300", "currency": "JPY", "reason": "q" }"#);
    // Old form, inverted: "1 JPY = 150 USD".
    let ps = problems(&file(
        "USD",
        r#"{ "currency": "JPY", "rate": "150", "source": "s" }"#,
        &layer,
    ));
    let p = problem_at(&ps, "fx[0].rate");
    assert!(
        p.message.starts_with(
            "1 JPY = 150 USD (that is, 1 USD = 0.006667 JPY) is outside the plausible band 0.004422–0.009949 USD per JPY (reference 0.006633: ECB euro foreign exchange reference rates as of 2025-02-28); check the direction"
        ),
        "{}",
        p.message
    );
    // New form, inverted: "1 USD = 0.0066 JPY".
    let ps = problems(&file(
        "USD",
        r#"{ "base": "USD", "quote": "JPY", "rate": "0.0066", "source": "s" }"#,
        &layer,
    ));
    let p = problem_at(&ps, "fx[0].rate");
    assert!(p.message.contains("100.5–226.1 JPY per USD"), "{}", p.message);
    // The right way round, both forms: 300 JPY is about 2 USD.
    for fx in [
        r#"{ "base": "USD", "quote": "JPY", "rate": "150", "source": "s" }"#,
        r#"{ "currency": "JPY", "rate": "0.0066667", "source": "s" }"#,
    ] {
        let e = common::run(&file("USD", fx, &layer));
        assert_eq!(price(&e).value.round_dp(2), dec!(2.00), "{fx}");
    }
}

#[test]
fn a_currency_on_an_override_that_is_not_money_is_refused_at_its_path() {
    let text = file(
        "EUR",
        "",
        r#"{ "id": "pool", "kind": "pooled", "accelerator": "nvidia-h100-sxm",
             "price_per_gpu_hour": { "value": "2", "reason": "q" },
             "peak_tflops": { "value": "900", "currency": "USD", "reason": "measured" } }"#,
    );
    let ps = problems(&text);
    let p = problem_at(&ps, "scenarios[0].layers[0].peak_tflops.currency");
    assert!(p.message.contains("not money"), "{}", p.message);
    assert_eq!(ps.len(), 1, "{ps:#?}");
}

#[test]
fn an_override_currency_without_a_rate_is_refused_with_the_entry_to_add() {
    let ps = problems(&file(
        "EUR",
        "",
        &pooled(r#"{ "value": "2.50", "currency": "USD", "reason": "q" }"#),
    ));
    let p = problem_at(&ps, "scenarios[0].layers[0].price_per_gpu_hour");
    assert!(
        p.message.starts_with(
            "this value is in USD and the file is in EUR; add {\"base\": \"EUR\", \"quote\": \"USD\", \"rate\": \"...\", \"source\": \"...\"} (1 EUR = 1.041 USD on 2025-02-28) to `fx`"
        ),
        "{}",
        p.message
    );
    let ps = problems(&file(
        "EUR",
        "",
        &pooled(r#"{ "value": "2.50", "currency": "usd", "reason": "q" }"#),
    ));
    problem_at(&ps, "scenarios[0].layers[0].price_per_gpu_hour.currency");
}

#[test]
fn a_malformed_rate_entry_is_refused_at_its_path() {
    let layer = pooled(r#"{ "value": "2", "reason": "q" }"#);
    let cases = [
        (
            r#"{ "base": "EUR", "quote": "USD", "currency": "USD", "rate": "1.08", "source": "s" }"#,
            "fx[0]",
        ),
        (
            r#"{ "base": "GBP", "quote": "USD", "rate": "1.25", "source": "s" }"#,
            "fx[0].base",
        ),
        (r#"{ "base": "EUR", "rate": "1.08", "source": "s" }"#, "fx[0].quote"),
        (r#"{ "rate": "1.08", "source": "s" }"#, "fx[0]"),
        (
            r#"{ "base": "EUR", "quote": "USD", "rate": "0", "source": "s" }"#,
            "fx[0].rate",
        ),
        (
            r#"{ "base": "EUR", "quote": "USD", "rate": "1.08", "source": " " }"#,
            "fx[0].source",
        ),
        (
            r#"{ "base": "EUR", "quote": "USD", "rate": "1.08", "source": "s" },
               { "currency": "USD", "rate": "0.92", "source": "s" }"#,
            "fx[1].currency",
        ),
    ];
    for (fx, path) in cases {
        let ps = problems(&file("EUR", fx, &layer));
        problem_at(&ps, path);
    }
}

#[test]
fn a_rate_without_a_reference_is_warned_of_not_refused() {
    let text = file(
        "USD",
        r#"{ "base": "USD", "quote": "TWD", "rate": "32.8", "source": "CBC 2026-11-20" }"#,
        &pooled(r#"{ "value": "80", "currency": "TWD", "reason": "q" }"#),
    );
    let e = common::run(&text);
    let s = &e.scenarios[0];
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("1 USD = 32.8 TWD") && w.contains("not checked for plausibility")),
        "{:#?}",
        s.warnings
    );
    assert_eq!(price(&e).value.round_dp(4), dec!(2.4390));
}

#[test]
fn new_files_write_the_market_form() {
    let text = file(
        "EUR",
        r#"{ "base": "EUR", "quote": "USD", "rate": "1.08", "source": "s" }"#,
        &pooled(r#"{ "value": "2.50", "currency": "USD", "reason": "q" }"#),
    );
    let f = parse(&text).unwrap();
    let json = planner_core::engine::input::scenario_file::to_json(&f);
    assert!(json.contains("\"base\": \"EUR\""), "{json}");
    assert!(json.contains("\"quote\": \"USD\""), "{json}");
    assert!(
        json.contains("\"currency\": \"USD\""),
        "the override keeps its currency: {json}"
    );
    assert_eq!(parse(&json).unwrap(), f);
}

/// Every override field of the format, by name: the properties whose schema is an
/// [`planner_core::engine::input::scenario_file::Override`].
fn override_fields() -> Vec<String> {
    let schema: serde_json::Value =
        serde_json::from_str(&planner_core::engine::input::scenario_file::schema_json()).unwrap();
    let mut found = Vec::new();
    fn walk(v: &serde_json::Value, found: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::Object(props)) = map.get("properties") {
                    for (name, p) in props {
                        if p.to_string().contains("#/$defs/Override") {
                            found.push(name.clone());
                        }
                    }
                }
                map.values().for_each(|c| walk(c, found));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|c| walk(c, found)),
            _ => {}
        }
    }
    walk(&schema, &mut found);
    found.sort();
    found.dedup();
    found
}

/// What is wrong with how `rows` (rows of the table of layer fields) and fx's lists class the
/// override fields `overrides` as money or not: empty when each is classed once and rightly.
fn classing_problems(rows: &[LayerField], overrides: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for name in overrides {
        match rows.iter().find(|f| f.name == name) {
            Some(f) if f.money == Money::Amount => out.push(format!(
                "override `{name}` is `Money::Amount`: an override is money in place of a catalog price (`Money::Override`) or not money (`Money::No`)"
            )),
            Some(_) => {}
            None => {
                let money = OTHER_MONEY_OVERRIDES.contains(&name.as_str());
                let not_money = OTHER_NON_MONEY_OVERRIDES.contains(&name.as_str());
                if money == not_money {
                    out.push(format!(
                        "override `{name}` is not a layer field and is in neither or both lists of planner_core::engine::input::fx"
                    ));
                }
            }
        }
    }
    for f in rows {
        if f.money == Money::Override && !overrides.iter().any(|o| o == f.name) {
            out.push(format!(
                "`{}` is `Money::Override` but no override, so it carries no currency (`Money::Amount`?)",
                f.name
            ));
        }
    }
    // The lists outside layers name no layer field, whose row alone judges it.
    for name in OTHER_MONEY_OVERRIDES.iter().chain(&OTHER_NON_MONEY_OVERRIDES) {
        if rows.iter().any(|f| f.name == *name) {
            out.push(format!("`{name}` is a layer field: its row says whether it is money"));
        }
    }
    out
}

/// Every override in the format is classed as money (may carry a currency) or not, so a new
/// override field cannot silently take a currency it should refuse: a layer field by its row of
/// the table of layer fields, any other by being in exactly one of fx's two lists.
#[test]
fn every_override_field_is_classed_as_money_or_not() {
    let found = override_fields();
    assert!(found.len() >= 10, "{found:?}");
    let problems = classing_problems(&LAYER_FIELDS, &found);
    assert!(problems.is_empty(), "{problems:#?}");
}

/// A row classed wrongly is caught: a plain amount marked as an override, an override marked as
/// a plain amount, and an override outside layers left out of both lists.
#[test]
fn a_wrongly_classed_override_is_caught() {
    let found = override_fields();
    let mut rows = LAYER_FIELDS.to_vec();
    for row in &mut rows {
        match row.name {
            "installation" => row.money = Money::Override,
            "price_per_gpu_hour" => row.money = Money::Amount,
            _ => {}
        }
    }
    let mut with_new = found.clone();
    with_new.push("water_per_m3".to_owned());
    let problems = classing_problems(&rows, &with_new);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(
        problems[0].contains("`price_per_gpu_hour` is `Money::Amount`"),
        "{problems:#?}"
    );
    assert!(
        problems[1].contains("`water_per_m3` is not a layer field"),
        "{problems:#?}"
    );
    assert!(
        problems[2].contains("`installation` is `Money::Override` but no override"),
        "{problems:#?}"
    );
}

/// The money overrides, derived from the table of layer fields and fx's list of the others
/// (issue #43), are the lists fx kept by hand before: the same fields, in the same order, and
/// every other override refuses a currency as before.
#[test]
fn the_derived_money_overrides_are_the_lists_of_before() {
    const MONEY_BEFORE: [&str; 9] = [
        "price_per_gpu",
        "price_per_gpu_hour",
        "price_per_million_tokens",
        "price_per_million_input_tokens",
        "price_per_million_output_tokens",
        "price_per_million_cached_tokens",
        "tariff_per_kwh",
        "colocation_per_kw_month",
        "per_port_cost",
    ];
    const NON_MONEY_BEFORE: [&str; 7] = [
        "peak_tflops",
        "power_kw_per_gpu",
        "grid_gco2_per_kwh",
        "pue",
        "demand_scale",
        "monthly_growth",
        "discount_rate",
    ];
    assert_eq!(money_overrides().collect::<Vec<_>>(), MONEY_BEFORE);
    let (money, not_money): (Vec<String>, Vec<String>) =
        override_fields().into_iter().partition(|name| is_money_override(name));
    let sorted = |list: &[&str]| {
        let mut v: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
        v.sort();
        v
    };
    assert_eq!(money, sorted(&MONEY_BEFORE));
    assert_eq!(not_money, sorted(&NON_MONEY_BEFORE));
    // By the last segment of a path, as validate asks; a layer field that is money but no
    // override (a running cost) is not judged money here, as before.
    assert!(is_money_override(
        "scenarios[0].layers[2].price_per_million_cached_tokens"
    ));
    assert!(is_money_override("scenarios[0].facility.tariff_per_kwh"));
    assert!(!is_money_override("scenarios[0].layers[0].peak_tflops"));
    for name in [
        "installation",
        "platform_cost_per_gpu",
        "running_cost_per_gpu_hour",
        "running_cost_per_month",
        "gpus",
        "",
    ] {
        assert!(!is_money_override(name), "{name}");
    }
}
