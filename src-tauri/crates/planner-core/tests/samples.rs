//! The five sample scenario files of `catalogs/samples/` against the catalog the app ships (`catalogs/*.toml`): each
//! validates, the book and cash views agree over the horizon, and the cash ledger of every
//! scenario is a snapshot, so a change to any figure shows in review.
//!
//! To accept intended changes: `INSTA_UPDATE=always cargo test -p planner-core --test samples`
//! (or `cargo insta review`), then commit the `.snap` files. CI runs with CI=true, where a missing
//! or different snapshot fails.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::fmt::Write as _;

use planner_core::engine::blocks::finance::present;
use planner_core::engine::decide::compare::compare_all;

const SAMPLES: [&str; 5] = [
    "university-lab-pool",
    "startup-inference-saas",
    "student-lora-rtx4090",
    "enterprise-hybrid",
    "embodied-ai-team",
];

fn sample(name: &str) -> String {
    let path = format!("{}/../../../catalogs/samples/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn opt(v: Option<rust_decimal::Decimal>) -> String {
    v.map_or_else(|| "-".to_owned(), |d| present(d).to_string())
}

#[test]
fn samples_evaluate_and_match_their_snapshots() {
    let catalog = common::shipped_catalog();
    for name in SAMPLES {
        let e = common::run_with(&catalog, &sample(name));
        assert!(
            e.scenarios.len() >= 2,
            "{name}: a sample compares at least two scenarios"
        );
        let mut text = String::new();
        for s in &e.scenarios {
            let t = &s.totals;
            assert_eq!(
                present(t.total_book),
                present(t.total_cash),
                "{name}/{}: book and cash totals differ",
                s.id
            );
            let _ = writeln!(text, "== {} ({})", s.id, s.name);
            let _ = writeln!(
                text,
                "total {} | npv {} | per GPU-h {} | per PFLOP-h {} | per M tokens {} | owned utilisation {} | idle cost {} | energy {} kWh | emissions {} kg | residual {} | after horizon {}",
                present(t.total_cash),
                present(t.npv),
                opt(t.cost_per_gpu_hour),
                opt(t.cost_per_useful_pflop_hour),
                opt(t.cost_per_million_tokens),
                opt(t.owned_utilisation),
                present(t.idle_cost),
                present(t.energy_kwh),
                present(t.emissions_kg),
                present(t.residual_value),
                present(t.commitments_after_horizon),
            );
            let _ = writeln!(
                text,
                "unserved work {} | decision total {}",
                present(t.unserved_cost),
                present(t.decision_total),
            );
            for w in &s.warnings {
                let _ = writeln!(text, "warning: {w}");
            }
            text.push_str(&s.ledger.table(false));
        }
        for c in compare_all(&e) {
            let _ = writeln!(
                text,
                "compare {} vs {}: difference {} | break-even {} | buy-vs-rent h/day {}",
                c.a,
                c.b,
                present(c.total_difference),
                c.break_even.as_ref().map_or_else(
                    || "none".to_owned(),
                    |b| format!(
                        "month {} at {} months ({} cheaper after)",
                        b.month,
                        b.at_month.round_dp(3),
                        b.cheaper_after
                    )
                ),
                opt(c.buy_vs_rent_hours_per_day),
            );
            if let Some(x) = &c.buy_vs_rent {
                let _ = writeln!(text, "  {}", x.words);
            }
            if let Some(w) = planner_core::engine::decide::compare::resale_share_of_difference(&c, e.horizon_months) {
                let _ = writeln!(text, "  {w}");
            }
        }
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn samples_round_trip_through_the_format() {
    for name in SAMPLES {
        let text = sample(name);
        let file = planner_core::engine::input::scenario_file::parse(&text)
            .unwrap_or_else(|p| panic!("{name}: {} {}", p.path, p.message));
        let again = planner_core::engine::input::scenario_file::parse(
            &planner_core::engine::input::scenario_file::to_json(&file),
        )
        .unwrap_or_else(|p| panic!("{p:?}"));
        assert_eq!(file, again, "{name}");
    }
}

/// The buy-versus-rent break-even concerns the owned GPUs only: removing the hybrid's rented
/// burst layers must not move it.
#[test]
fn buy_vs_rent_ignores_the_owner_scenarios_cloud_layers() {
    let catalog = common::shipped_catalog();
    let text = sample("enterprise-hybrid");
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let hybrid = json["scenarios"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|s| s["layers"].as_array().unwrap().iter().any(|l| l["kind"] == "owned"))
        .unwrap();
    let before = hybrid["layers"].as_array().unwrap().len();
    hybrid["layers"]
        .as_array_mut()
        .unwrap()
        .retain(|l| l["kind"] == "owned");
    assert!(
        hybrid["layers"].as_array().unwrap().len() < before,
        "the sample's hybrid rents burst capacity"
    );
    let owned_only = serde_json::to_string(&json).unwrap();

    let hours = |text: &str| {
        let e = common::run_with(&catalog, text);
        let c = compare_all(&e);
        c.iter()
            .find_map(|c| c.buy_vs_rent_hours_per_day)
            .expect("an owner against a renter")
    };
    let with_burst = hours(&text);
    assert_eq!(present(with_burst), present(hours(&owned_only)));
    assert!(with_burst > rust_decimal::Decimal::ZERO && with_burst < rust_decimal::Decimal::from(24));
}

/// The comparison and the what-if moves evaluate the scenarios on several cores
/// (`evaluate_parallel`): every sample, and one of seven scenarios (an uneven split), gives the
/// very figures of the one-core `evaluate`, in the same order.
#[test]
fn parallel_evaluation_gives_the_same_figures_in_the_same_order() {
    use planner_core::engine::costing::evaluate::{evaluate, evaluate_parallel};
    use planner_core::engine::input::scenario_file::parse;
    use planner_core::engine::resolve::validate::validate;
    let catalog = common::shipped_catalog();
    for name in SAMPLES {
        let mut file = parse(&sample(name)).unwrap();
        let plan = validate(&catalog, &file, None).unwrap();
        let one = evaluate(&plan);
        assert_eq!(evaluate_parallel(&plan), one, "{name}");
        let originals = file.scenarios.clone();
        file.scenarios = (0..7)
            .map(|i| {
                let mut s = originals[i % originals.len()].clone();
                s.id = format!("{}-{i}", s.id);
                s.staff_fte += rust_decimal::Decimal::new(i64::try_from(i).unwrap(), 1);
                s
            })
            .collect();
        let plan = validate(&catalog, &file, None).unwrap();
        let one = evaluate(&plan);
        let ids: Vec<&str> = one.scenarios.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids.len(), 7, "{name}");
        assert_eq!(evaluate_parallel(&plan), one, "{name}, seven scenarios");
    }
}
