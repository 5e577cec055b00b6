//! Exit clauses as part of the scenario (issue #6): a layer's `exit_clause` in the scenario file,
//! its validation, the cost of leaving every clause-carrying layer at every month of the horizon,
//! and "exit at month m" priced as a variant against staying. Expected figures are recomputed
//! here from the inputs (month lengths from an independent day count), never typed in.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::costing::evaluate::evaluate;
use planner_core::engine::exit::clauses::{exit_variant, scenario_exit_variant, variant_id};
use planner_core::engine::input::scenario_file::{parse, to_json};
use planner_core::engine::model::commitment::{CommitmentKind, commitment_schedule, exit_cost, scenario_exit_costs};
use planner_core::engine::model::scenario::Plan;
use planner_core::engine::resolve::validate::validate;
use planner_core::exit_clause::{ExitClause, TerminationFee};
use planner_core::problem::Problem;
use rust_decimal::Decimal;
use rust_decimal::dec;

const GPUS: u32 = 8;
const PRICE: Decimal = dec!(2.10);
const TERM: u32 = 36;
const START_YEAR: u32 = 2027;

/// Days in the `k`-th month after January of `START_YEAR` ([`common::month_days`]).
fn days(k: u32) -> u32 {
    common::month_days(START_YEAR, k)
}

/// What the reserved contract owes in its month `k`.
fn owed(k: u32) -> Decimal {
    Decimal::from(GPUS) * Decimal::from(days(k) * 24) * PRICE
}

fn owed_between(from: u32, to: u32) -> Decimal {
    (from..to.min(TERM)).map(owed).sum()
}

const PROPORTIONAL: &str = r#"{ "notice_months": 3, "fee": { "kind": "share-of-remaining", "value": "0.25" },
    "egress_per_tb": "90", "data_tb": "120", "offboarding": "15000" }"#;
const FIXED: &str = r#"{ "notice_months": 2, "fee": { "kind": "fixed", "value": "50000" } }"#;

/// A scenario file: one 3-year reserved layer (8 GPUs at 2.10/h from month 0) carrying `clause`,
/// and `extra` layers after it.
fn file_text(horizon: u32, clause: &str, extra: &str) -> String {
    format!(
        r#"{{
      "format_version": 1, "title": "exit", "currency": "USD", "start": "{START_YEAR}-01",
      "horizon_months": {horizon}, "discount_rate": "0.08",
      "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "150", "gpu_hours_on": "nvidia-h100-sxm" }}],
      "scenarios": [{{ "id": "base", "name": "base", "layers": [
        {{ "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "3y", "gpus": {GPUS},
          "price_per_gpu_hour": {{ "value": "{PRICE}", "reason": "negotiated 3-year rate" }},
          "exit_clause": {clause} }}{extra}
      ],
      "facility": {{ "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40" }} }}]
    }}"#
    )
}

fn resolve(text: &str) -> Result<Plan, Vec<Problem>> {
    let file = parse(text).unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message));
    validate(&common::catalog(), &file, None)
}

fn plan(horizon: u32, clause: &str) -> Plan {
    resolve(&file_text(horizon, clause, "")).unwrap_or_else(|p| panic!("validate: {p:#?}"))
}

fn clause_of(text: &str) -> ExitClause {
    serde_json::from_str(text).unwrap()
}

/// The clause's formula written out plainly, for notice at `m` on the 36-month contract.
fn expected(clause: &ExitClause, m: u32) -> (Decimal, Decimal, Decimal) {
    if m >= TERM {
        return (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO);
    }
    let effect = m + clause.notice_months;
    let avoided = owed_between(effect, TERM);
    let fee = match (effect < TERM, clause.fee) {
        (false, _) => Decimal::ZERO,
        (true, TerminationFee::Fixed(v)) => v,
        (true, TerminationFee::ShareOfRemaining(s)) => s * avoided,
    };
    let charges = fee + clause.egress_per_tb * clause.data_tb + clause.offboarding;
    (owed_between(m, effect), charges, avoided)
}

#[test]
fn the_clause_is_read_from_the_file_defaulted_and_written_back_unchanged() {
    let text = file_text(TERM, FIXED, "");
    let file = parse(&text).unwrap();
    let clause = file.scenarios[0].layers[0].exit_clause.clone().unwrap();
    // Egress, data and offboarding default to zero when the file leaves them out.
    assert_eq!(
        clause,
        ExitClause {
            notice_months: 2,
            fee: TerminationFee::Fixed(dec!(50000)),
            egress_per_tb: Decimal::ZERO,
            data_tb: Decimal::ZERO,
            offboarding: Decimal::ZERO,
        }
    );
    let back = parse(&to_json(&file)).unwrap();
    assert_eq!(back, file);
    // The resolved layer carries it.
    let p = plan(TERM, PROPORTIONAL);
    assert_eq!(p.scenarios[0].layers[0].exit_clause, Some(clause_of(PROPORTIONAL)));
    // A mistyped field of the clause is an error, not a silently ignored line.
    let typo = file_text(
        TERM,
        r#"{ "notice_month": 3, "fee": { "kind": "fixed", "value": "1" } }"#,
        "",
    );
    let err = parse(&typo).unwrap_err();
    assert!(err.message.contains("notice_month"), "{err:?}");
}

#[test]
fn every_clause_layer_shows_its_cost_of_leaving_at_every_month_of_the_horizon() {
    for (horizon, text) in [(TERM, PROPORTIONAL), (TERM, FIXED), (24, PROPORTIONAL), (48, FIXED)] {
        let p = plan(horizon, text);
        let clause = clause_of(text);
        let costs = scenario_exit_costs(&p, "base").unwrap();
        assert_eq!(costs.len(), 1);
        let l = &costs[0];
        assert_eq!((l.layer.as_str(), l.kind), ("res", CommitmentKind::Reserved));
        assert_eq!((l.start_month, l.end_month), (0, TERM));
        assert!(l.variant_available);
        assert_eq!(l.clause, clause);
        assert_eq!(l.curve.len(), horizon as usize);
        for (m, c) in (0..horizon).zip(&l.curve) {
            let (due, charges, avoided) = expected(&clause, m);
            assert_eq!(c.notice_month, m);
            assert_eq!(c.due_during_notice, due, "due at {m}");
            assert_eq!(c.exit_charges, charges, "charges at {m}");
            assert_eq!(c.avoided, avoided, "avoided at {m}");
            assert_eq!(c.net_saving, avoided - charges, "saving at {m}");
        }
    }
    // Leaving the 36-month contract at month 18 under 3 months' notice and 25% of the remainder:
    // months 18–20 still paid, a quarter of months 21–35 as the fee, plus 90 × 120 TB and 15,000.
    let l = &scenario_exit_costs(&plan(TERM, PROPORTIONAL), "base").unwrap()[0];
    let at18 = &l.curve[18];
    let rest: Decimal = (21..36).map(owed).sum();
    assert_eq!(at18.due_during_notice, owed(18) + owed(19) + owed(20));
    assert_eq!(at18.termination_fee, rest / dec!(4));
    assert_eq!(at18.exit_charges, rest / dec!(4) + dec!(10800) + dec!(15000));
}

#[test]
fn layers_without_a_clause_are_not_listed_and_leases_are_priced_without_a_variant() {
    let lease = r#", { "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8,
        "lead_time_months": 2, "price_per_gpu": { "value": "30000", "reason": "quote" },
        "financing": { "method": "lease", "annual_rate": "0.09", "term_months": 24 },
        "exit_clause": { "notice_months": 1, "fee": { "kind": "fixed", "value": "7000" } } },
      { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" }"#;
    let p = resolve(&file_text(TERM, FIXED, lease)).unwrap();
    let costs = scenario_exit_costs(&p, "base").unwrap();
    let ids: Vec<&str> = costs.iter().map(|c| c.layer.as_str()).collect();
    assert_eq!(ids, ["res", "own"]);
    let own = &costs[1];
    assert_eq!(own.kind, CommitmentKind::Lease);
    assert!(!own.variant_available);
    let schedule = commitment_schedule(&p, "base", "own").unwrap();
    assert_eq!((own.start_month, own.end_month), (2, 26));
    for (m, c) in (0..TERM).zip(&own.curve) {
        assert_eq!(c, &exit_cost(&schedule, &own.clause, m), "month {m}");
    }
    // At month 10 the lease owes 1 month of notice and 15 months are avoided, for the fixed fee.
    assert_eq!(own.curve[10].avoided, schedule.payment(11) * dec!(15));
    assert_eq!(own.curve[10].exit_charges, dec!(7000));
    // A lease cannot be a variant yet; a layer without a clause cannot be priced at all.
    let lease_variant = scenario_exit_variant(&p, "base", "own", 10).unwrap_err();
    assert!(lease_variant[0].message.contains("not reserved"), "{lease_variant:?}");
    let no_clause = scenario_exit_variant(&p, "base", "od", 10).unwrap_err();
    assert_eq!(no_clause[0].path, "layer");
    assert!(no_clause[0].message.contains("no exit clause"));
    assert_eq!(scenario_exit_costs(&p, "nope").unwrap_err()[0].path, "scenario");
}

#[test]
fn exit_at_month_m_is_priced_as_a_variant_against_staying() {
    for text in [PROPORTIONAL, FIXED] {
        let p = plan(TERM, text);
        let clause = clause_of(text);
        let base = evaluate(&p).scenarios[0].totals.total_cash;
        for m in [0, 12, 18, 24, 33, 35] {
            let v = scenario_exit_variant(&p, "base", "res", m).unwrap();
            let (_, charges, avoided) = expected(&clause, m);
            let effect = (m + clause.notice_months).min(TERM);
            // Charges that fall after the horizon are not in the ledger's cash (and a warning says
            // so), but they are in the variant's commitments after it, so in the difference.
            let booked = if effect < TERM { charges } else { Decimal::ZERO };
            // Nothing replaces the reserved GPUs here: the work they no longer do is left
            // undone and priced at its shadow price on its own line, so leaving early without
            // a replacement does not look like a saving.
            let (by_hand, _) = exit_variant(&p, "base", "res", &clause, m).unwrap();
            let unserved = evaluate(&by_hand).scenarios[1].totals.unserved_cost;
            assert!(effect == TERM || unserved > Decimal::ZERO, "month {m}");
            assert_eq!(v.base_total, base);
            assert_eq!(v.variant_total - unserved, base - avoided + booked, "month {m}");
            assert_eq!(v.cash_difference - unserved, booked - avoided, "month {m}");
            assert_eq!(v.difference - unserved, charges - avoided, "month {m}");
            assert_eq!(v.variant_after_horizon, charges - booked, "month {m}");
            assert_eq!(v.cost.exit_charges, charges);
            assert_eq!(v.variant_id, variant_id("base", "res", m));
            let after_horizon = effect == TERM && !charges.is_zero();
            assert_eq!(
                v.warnings.iter().any(|w| w.contains("after the horizon")),
                after_horizon,
                "month {m}"
            );
            // The same figures as building the variant with the clause by hand.
            let (by_hand, cost) = exit_variant(&p, "base", "res", &clause, m).unwrap();
            assert_eq!(cost, v.cost);
            assert_eq!(evaluate(&by_hand).scenarios[1].totals.total_cash, v.variant_total);
        }
    }
    // `evaluate` reports the same curves for every scenario; a variant has left, so its layer
    // has no cost of leaving any more.
    let p = plan(TERM, PROPORTIONAL);
    let e = evaluate(&p);
    assert_eq!(e.scenarios[0].exit_costs, scenario_exit_costs(&p, "base").unwrap());
    let (with_variant, _) = exit_variant(&p, "base", "res", &clause_of(PROPORTIONAL), 18).unwrap();
    assert!(evaluate(&with_variant).scenarios[1].exit_costs.is_empty());
    // A horizon shorter than the term: what is owed after it shows beside the totals.
    let short = plan(24, PROPORTIONAL);
    let v = scenario_exit_variant(&short, "base", "res", 18).unwrap();
    assert_eq!(v.base_after_horizon, owed_between(24, TERM));
    assert_eq!(v.variant_after_horizon, Decimal::ZERO);
    let (by_hand, _) = exit_variant(&short, "base", "res", &clause_of(PROPORTIONAL), 18).unwrap();
    let unserved = evaluate(&by_hand).scenarios[1].totals.unserved_cost;
    assert_eq!(
        v.variant_total - unserved + v.variant_after_horizon,
        v.base_total + v.base_after_horizon - v.cost.avoided + v.cost.exit_charges
    );
    let late = scenario_exit_variant(&short, "base", "res", 24).unwrap_err();
    assert_eq!(late[0].path, "notice_month");
}

#[test]
fn bad_clauses_in_the_file_are_refused_at_their_json_paths() {
    let problems = |text: &str| -> Vec<(String, String)> {
        resolve(text)
            .unwrap_err()
            .into_iter()
            .map(|p| (p.path, p.message))
            .collect()
    };
    let bad = r#"{ "notice_months": 121, "fee": { "kind": "share-of-remaining", "value": "1.5" },
        "egress_per_tb": "-1", "data_tb": "2", "offboarding": "-3" }"#;
    let paths: Vec<String> = problems(&file_text(TERM, bad, "")).into_iter().map(|p| p.0).collect();
    assert_eq!(
        paths,
        [
            "scenarios[0].layers[0].exit_clause.egress_per_tb",
            "scenarios[0].layers[0].exit_clause.offboarding",
            "scenarios[0].layers[0].exit_clause.fee.value",
            "scenarios[0].layers[0].exit_clause.notice_months",
        ]
    );
    let negative_fee = r#"{ "notice_months": 1, "fee": { "kind": "fixed", "value": "-5" } }"#;
    let got = problems(&file_text(TERM, negative_fee, ""));
    assert_eq!(got[0].0, "scenarios[0].layers[0].exit_clause.fee.value");
    assert!(got[0].1.contains("negative"));

    // Pay-as-you-go layers, and owned hardware bought for cash, commit to nothing a clause ends.
    let od = r#", { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", "exit_clause": { "notice_months": 0, "fee": { "kind": "fixed", "value": "0" } } }"#;
    let got = problems(&file_text(TERM, FIXED, od));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "scenarios[0].layers[1].exit_clause");
    assert!(got[0].1.contains("reserved capacity and leased hardware"), "{got:?}");
    let cash = r#", { "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8,
        "price_per_gpu": { "value": "30000", "reason": "quote" },
        "exit_clause": { "notice_months": 0, "fee": { "kind": "fixed", "value": "0" } } }"#;
    let got = problems(&file_text(TERM, FIXED, cash));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "scenarios[0].layers[1].exit_clause");
    assert!(got[0].1.contains("cash or by a loan"), "{got:?}");

    // A fixed `exit` and a clause on the same layer contradict each other.
    let both = file_text(TERM, FIXED, "").replace(
        r#""exit_clause":"#,
        r#""exit": { "month": 12, "fee": "1000" }, "exit_clause":"#,
    );
    let got = problems(&both);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "scenarios[0].layers[0].exit_clause");
    assert!(got[0].1.contains("`exit`"));
}
