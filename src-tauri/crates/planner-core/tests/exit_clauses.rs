//! Exit clauses (issue #6): the cost of leaving a contract at month m, the cost curve over every
//! month of the term, and the plan variant that `evaluate` prices. Every expected figure is
//! recomputed here from the inputs (month lengths from an independent day count), never typed in.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::blocks::finance::to_ledger;
use planner_core::engine::costing::evaluate::evaluate;
use planner_core::engine::exit::clauses::{exit_variant, variant_id};
use planner_core::engine::input::scenario_file::parse;
use planner_core::engine::model::commitment::{
    CommitmentKind, CommitmentSchedule, commitment_schedule, exit_cost, exit_curve, layer_exit_curve,
};
use planner_core::engine::model::ledger::Category;
use planner_core::engine::model::scenario::Plan;
use planner_core::engine::resolve::validate::validate;
use planner_core::exit_clause::{ExitClause, TerminationFee, validate_clause};
use proptest::prelude::*;
use rust_decimal::Decimal;
use rust_decimal::dec;

const GPUS: u32 = 8;
const PRICE: Decimal = dec!(2.10);
const TERM: u32 = 36;
const START_YEAR: u32 = 2027;

/// Days in the `k`-th month after January of `START_YEAR`, by the Gregorian rule written out
/// here (not the engine's calendar), so the test's month lengths are its own.
fn days(k: u32) -> u32 {
    let year = START_YEAR + k / 12;
    let month = k % 12 + 1;
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// What the contract owes in its month `k`: GPUs × hours of the month × price.
fn owed(k: u32) -> Decimal {
    Decimal::from(GPUS) * Decimal::from(days(k) * 24) * PRICE
}

fn owed_between(from: u32, to: u32) -> Decimal {
    (from..to.min(TERM)).map(owed).sum()
}

/// A plan with one 3-year reserved layer of 8 GPUs at 2.10/h from month 0; `fallback` adds an
/// on-demand layer that takes the demand once the reserved layer is gone.
fn plan(horizon: u32, fallback: bool) -> Plan {
    let od = if fallback {
        r#", { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
               "price_per_gpu_hour": { "value": "6.88", "reason": "test" } }"#
    } else {
        ""
    };
    let text = format!(
        r#"{{
      "format_version": 1, "title": "exit", "currency": "USD", "start": "{START_YEAR}-01",
      "horizon_months": {horizon}, "discount_rate": "0.08",
      "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "150", "gpu_hours_on": "nvidia-h100-sxm" }}],
      "scenarios": [{{ "id": "base", "name": "base", "layers": [
        {{ "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "3y", "gpus": {GPUS},
          "price_per_gpu_hour": {{ "value": "{PRICE}", "reason": "negotiated 3-year rate" }} }}{od}
      ] }}]
    }}"#
    );
    let file = parse(&text).unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message));
    validate(&common::catalog(), &file, None).unwrap_or_else(|p| panic!("validate: {p:#?}"))
}

fn proportional() -> ExitClause {
    ExitClause {
        notice_months: 3,
        fee: TerminationFee::ShareOfRemaining(dec!(0.25)),
        egress_per_tb: dec!(0.09) * dec!(1024),
        data_tb: dec!(120),
        offboarding: dec!(15000),
    }
}

fn fixed() -> ExitClause {
    ExitClause {
        fee: TerminationFee::Fixed(dec!(50000)),
        ..proportional()
    }
}

/// The clause's formula, written out plainly: notice at `m`, effect at `m + notice`.
struct Expected {
    due: Decimal,
    fee: Decimal,
    charges: Decimal,
    avoided: Decimal,
}

fn expected(clause: &ExitClause, m: u32) -> Expected {
    if m >= TERM {
        return Expected {
            due: Decimal::ZERO,
            fee: Decimal::ZERO,
            charges: Decimal::ZERO,
            avoided: Decimal::ZERO,
        };
    }
    let effect = m + clause.notice_months;
    let due = owed_between(m, effect);
    let avoided = owed_between(effect, TERM);
    let fee = if effect < TERM {
        match clause.fee {
            TerminationFee::Fixed(v) => v,
            TerminationFee::ShareOfRemaining(s) => s * avoided,
        }
    } else {
        Decimal::ZERO
    };
    Expected {
        due,
        fee,
        charges: fee + clause.egress_per_tb * clause.data_tb + clause.offboarding,
        avoided,
    }
}

#[test]
fn the_schedule_is_what_the_ledger_books() {
    let p = plan(TERM, false);
    let s = commitment_schedule(&p, "base", "res").unwrap();
    assert_eq!(s.kind, CommitmentKind::Reserved);
    assert_eq!((s.start_month, s.end_month()), (0, TERM));
    let e = evaluate(&p);
    for (k, month) in e.scenarios[0].ledger.months.iter().enumerate() {
        let k = u32::try_from(k).unwrap();
        assert_eq!(s.payment(k), owed(k), "month {k}");
        assert_eq!(month.cash.get(Category::Commitments), s.payment(k), "month {k}");
    }
}

#[test]
fn leaving_a_36_month_reserved_contract_at_month_18_costs_what_its_clause_says() {
    let s = commitment_schedule(&plan(TERM, false), "base", "res").unwrap();
    for clause in [proportional(), fixed()] {
        let c = exit_cost(&s, &clause, 18);
        // Notice in month 18, three months of notice: months 18, 19 and 20 are still paid, the
        // exit takes effect in month 21 and months 21..36 are avoided.
        let due = owed(18) + owed(19) + owed(20);
        let avoided: Decimal = (21..36).map(owed).sum();
        let fee = match clause.fee {
            TerminationFee::Fixed(v) => v,
            TerminationFee::ShareOfRemaining(share) => share * avoided,
        };
        let egress = clause.egress_per_tb * clause.data_tb;
        assert_eq!(c.effective_month, 21);
        assert!(c.early);
        assert_eq!(c.due_during_notice, due);
        assert_eq!(c.termination_fee, fee);
        assert_eq!(c.egress, egress);
        assert_eq!(c.offboarding, clause.offboarding);
        assert_eq!(c.exit_charges, fee + egress + clause.offboarding);
        assert_eq!(c.total, due + fee + egress + clause.offboarding);
        assert_eq!(c.avoided, avoided);
        assert_eq!(c.net_saving, avoided - (fee + egress + clause.offboarding));
    }
}

#[test]
fn the_exit_cost_curve_is_right_at_every_month_for_fixed_and_proportional_fees() {
    let s = commitment_schedule(&plan(TERM, false), "base", "res").unwrap();
    for clause in [proportional(), fixed()] {
        let curve = exit_curve(&s, &clause);
        assert_eq!(curve.len(), TERM as usize + 1);
        for (m, c) in (0..=TERM).zip(&curve) {
            let x = expected(&clause, m);
            assert_eq!(c.notice_month, m);
            assert_eq!(c.due_during_notice, x.due, "due at {m}");
            assert_eq!(c.termination_fee, x.fee, "fee at {m}");
            assert_eq!(c.exit_charges, x.charges, "charges at {m}");
            assert_eq!(c.total, x.due + x.charges, "total at {m}");
            assert_eq!(c.avoided, x.avoided, "avoided at {m}");
            // Leaving versus staying: staying pays everything from m to the end of the term.
            assert_eq!(c.total + c.net_saving, owed_between(m, TERM), "staying at {m}");
        }
        // The same curve through the plan-level entry point.
        assert_eq!(
            layer_exit_curve(&plan(TERM, false), "base", "res", &clause).unwrap(),
            curve
        );
    }
}

#[test]
fn edge_months_owe_what_the_clause_says() {
    let s = commitment_schedule(&plan(TERM, false), "base", "res").unwrap();
    let clause = proportional();
    // Notice in the first month: three months paid, a quarter of the other 33 as the fee.
    let first = exit_cost(&s, &clause, 0);
    assert_eq!(first.due_during_notice, owed(0) + owed(1) + owed(2));
    assert_eq!(first.termination_fee, dec!(0.25) * owed_between(3, TERM));
    // At or after the end of the term there is nothing left to exit.
    for m in [TERM, TERM + 1, TERM + 50] {
        let after = exit_cost(&s, &clause, m);
        assert!(!after.early);
        assert_eq!(after.total, Decimal::ZERO);
        assert_eq!(after.avoided, Decimal::ZERO);
        assert_eq!(after.net_saving, Decimal::ZERO);
    }
    // Notice two months before the end with three months' notice: the contract expires first,
    // so the last two months are paid, no fee is owed and nothing is avoided; moving out still
    // costs egress and offboarding.
    for c in [proportional(), fixed()] {
        let late = exit_cost(&s, &c, TERM - 2);
        assert!(!late.early);
        assert_eq!(late.effective_month, TERM);
        assert_eq!(late.due_during_notice, owed(TERM - 2) + owed(TERM - 1));
        assert_eq!(late.termination_fee, Decimal::ZERO);
        assert_eq!(late.avoided, Decimal::ZERO);
        assert_eq!(late.exit_charges, c.egress_per_tb * c.data_tb + c.offboarding);
    }
    // Exactly notice-length before the end: the exit takes effect at the end, not early.
    assert!(!exit_cost(&s, &clause, TERM - 3).early);
    assert!(exit_cost(&s, &clause, TERM - 4).early);
}

#[test]
fn the_exit_variant_is_priced_by_the_same_ledger() {
    let base_plan = plan(TERM, false);
    let base = evaluate(&base_plan).scenarios[0].totals.total_cash;
    for clause in [proportional(), fixed()] {
        for m in 0..TERM {
            let (variant_plan, cost) = exit_variant(&base_plan, "base", "res", &clause, m).unwrap();
            let e = evaluate(&variant_plan);
            assert_eq!(e.scenarios.len(), 2);
            assert_eq!(e.scenarios[0].totals.total_cash, base);
            let v = &e.scenarios[1];
            assert_eq!(v.id, variant_id("base", "res", m));
            let x = expected(&clause, m);
            assert_eq!(cost.avoided, x.avoided);
            assert_eq!(cost.exit_charges, x.charges);
            // The charges sit in the month the exit takes effect; commitments stop then. When
            // the notice runs to the end of the term, that month is after the horizon.
            let effect = (m + clause.notice_months).min(TERM);
            let booked = if effect < TERM { x.charges } else { Decimal::ZERO };
            // Exactly, in decimals: the variant pays the base less what it avoids plus the
            // charges, and the work the reserved GPUs no longer do is left undone: it is priced
            // at its shadow price on a line of its own (nothing else replaces it here).
            let unserved = v.totals.unserved_cost - e.scenarios[0].totals.unserved_cost;
            assert!(
                effect == TERM || unserved > Decimal::ZERO,
                "month {m}: unserved work is priced"
            );
            assert_eq!(v.totals.total_cash - unserved, base - x.avoided + booked, "month {m}");
            for (k, month) in v.ledger.months.iter().enumerate() {
                let k = u32::try_from(k).unwrap();
                let fee = if k == effect { x.charges } else { Decimal::ZERO };
                assert_eq!(month.cash.get(Category::TerminationFees), fee, "fee, month {k}");
                let paid = if k < effect { owed(k) } else { Decimal::ZERO };
                assert_eq!(month.cash.get(Category::Commitments), paid, "commitment, month {k}");
            }
            if effect == TERM {
                // The charges fall after the horizon: not in the ledger, and said so.
                assert_eq!(v.totals.total_cash - unserved, base);
                assert!(
                    v.warnings.iter().any(|w| w.contains("after the horizon")),
                    "{:?}",
                    v.warnings
                );
            }
        }
    }
}

#[test]
fn the_exit_variant_moves_demand_to_the_remaining_layers() {
    let base_plan = plan(TERM, true);
    let (variant_plan, cost) = exit_variant(&base_plan, "base", "res", &proportional(), 18).unwrap();
    let e = evaluate(&variant_plan);
    let (b, v) = (&e.scenarios[0].totals, &e.scenarios[1].totals);
    let replacement = v.cash.get(Category::CloudCompute) - b.cash.get(Category::CloudCompute);
    assert!(
        replacement > Decimal::ZERO,
        "on-demand takes the reserved layer's share"
    );
    assert_eq!(
        v.total_cash,
        b.total_cash - cost.avoided + cost.exit_charges + replacement
    );
}

#[test]
fn an_exit_inside_a_horizon_shorter_than_the_term_also_drops_the_commitment_after_it() {
    // Horizon 24 on a 36-month term: months 24..36 are a commitment after the horizon.
    let base_plan = plan(24, false);
    let b = evaluate(&base_plan).scenarios[0].totals.clone();
    assert_eq!(b.commitments_after_horizon, owed_between(24, TERM));
    let (variant_plan, cost) = exit_variant(&base_plan, "base", "res", &proportional(), 18).unwrap();
    let v = evaluate(&variant_plan).scenarios[1].totals.clone();
    assert_eq!(v.commitments_after_horizon, Decimal::ZERO);
    // Leaving without a replacement leaves work undone, priced on its own line.
    assert!(v.unserved_cost > b.unserved_cost);
    assert_eq!(
        v.decision_total - (v.unserved_cost - b.unserved_cost),
        b.decision_total - cost.avoided + cost.exit_charges
    );
}

#[test]
fn a_lease_schedule_is_its_ledger_payments_and_its_exit_is_priced_but_not_a_variant() {
    let text = r#"{
      "format_version": 1, "title": "lease", "currency": "USD", "start": "2027-01",
      "horizon_months": 36, "discount_rate": "0.08",
      "workloads": [{ "id": "w", "name": "w", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "24", "gpu_hours_on": "nvidia-h100-sxm" }],
      "scenarios": [{ "id": "s", "name": "s", "layers": [{ "id": "own", "kind": "owned",
          "accelerator": "nvidia-h100-sxm", "gpus": 8, "lead_time_months": 2,
          "price_per_gpu": { "value": "30000", "reason": "quote" },
          "financing": { "method": "lease", "annual_rate": "0.09", "term_months": 24 } }],
        "facility": { "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40" } }]
    }"#;
    let file = parse(text).unwrap();
    let p = validate(&common::catalog(), &file, None).unwrap();
    let s = commitment_schedule(&p, "s", "own").unwrap();
    assert_eq!(s.kind, CommitmentKind::Lease);
    assert_eq!((s.start_month, s.end_month()), (2, 26));
    let e = evaluate(&p);
    for (k, month) in e.scenarios[0].ledger.months.iter().enumerate() {
        let k = u32::try_from(k).unwrap();
        assert_eq!(month.cash.get(Category::Financing), s.payment(k), "month {k}");
    }
    let c = exit_cost(&s, &proportional(), 10);
    assert_eq!(c.avoided, s.payment(13) * dec!(13));
    // The fee is booked at the ledger's scale (10 places, half-even), as every ledger cell is.
    assert_eq!(c.termination_fee, to_ledger(dec!(0.25) * c.avoided));
    let refused = exit_variant(&p, "s", "own", &proportional(), 10).unwrap_err();
    assert!(
        refused
            .iter()
            .any(|p| p.path == "layer" && p.message.contains("not reserved")),
        "{refused:?}"
    );
}

#[test]
fn bad_clauses_and_requests_are_refused_with_located_problems() {
    let bad = ExitClause {
        notice_months: 121,
        fee: TerminationFee::ShareOfRemaining(dec!(1.5)),
        egress_per_tb: dec!(-1),
        data_tb: dec!(-2),
        offboarding: dec!(-3),
    };
    let paths: Vec<String> = validate_clause(&bad, "exit").into_iter().map(|p| p.path).collect();
    assert_eq!(
        paths,
        [
            "exit.egress_per_tb",
            "exit.data_tb",
            "exit.offboarding",
            "exit.fee.value",
            "exit.notice_months"
        ]
    );
    let negative_fixed = ExitClause {
        fee: TerminationFee::Fixed(dec!(-5)),
        ..proportional()
    };
    assert_eq!(validate_clause(&negative_fixed, "exit")[0].path, "exit.fee.value");
    assert!(validate_clause(&proportional(), "exit").is_empty());

    let p = plan(TERM, true);
    let unknown = exit_variant(&p, "nope", "res", &proportional(), 1).unwrap_err();
    assert_eq!(unknown[0].path, "scenario");
    let unknown = exit_variant(&p, "base", "nope", &proportional(), 1).unwrap_err();
    assert_eq!(unknown[0].path, "layer");
    let late = exit_variant(&p, "base", "res", &proportional(), TERM).unwrap_err();
    assert_eq!(late[0].path, "notice_month");
    let pay_as_you_go = commitment_schedule(&p, "base", "od").unwrap_err();
    assert!(pay_as_you_go[0].message.contains("commits to no payments"));
    let bad_clause = exit_variant(&p, "base", "res", &bad, 1).unwrap_err();
    assert!(bad_clause.iter().all(|p| p.path.starts_with("clause.")));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// With no egress or offboarding and a fee of at most the whole remainder, leaving never
    /// costs more than staying to the end of the term; and leaving + saving = staying, always.
    #[test]
    fn leaving_never_costs_more_than_staying(
        cents in proptest::collection::vec(0u64..10_000_000, 1..48),
        start in 0u32..12,
        notice in 0u32..12,
        share_pct in 0u32..=100,
        month in 0u32..64,
    ) {
        let schedule = CommitmentSchedule {
            layer: "x".to_owned(),
            kind: CommitmentKind::Reserved,
            start_month: start,
            payments: cents.iter().map(|c| Decimal::new(i64::try_from(*c).unwrap(), 2)).collect(),
        };
        let clause = ExitClause {
            notice_months: notice,
            fee: TerminationFee::ShareOfRemaining(Decimal::new(i64::from(share_pct), 2)),
            egress_per_tb: Decimal::ZERO,
            data_tb: Decimal::ZERO,
            offboarding: Decimal::ZERO,
        };
        let c = exit_cost(&schedule, &clause, month);
        let staying = schedule.due_between(month, schedule.end_month());
        prop_assert!(c.total <= staying);
        prop_assert!(c.net_saving >= Decimal::ZERO);
        prop_assert_eq!(c.total + c.net_saving, staying);
    }
}

#[test]
fn clauses_and_costs_cross_the_boundary_as_json() {
    let clause = proportional();
    let text = serde_json::to_string(&clause).unwrap();
    assert!(
        text.contains(r#""fee":{"kind":"share-of-remaining","value":"0.25"}"#),
        "{text}"
    );
    assert_eq!(serde_json::from_str::<ExitClause>(&text).unwrap(), clause);
    let fixed_text = serde_json::to_string(&fixed().fee).unwrap();
    assert_eq!(fixed_text, r#"{"kind":"fixed","value":"50000"}"#);
    let s = commitment_schedule(&plan(TERM, false), "base", "res").unwrap();
    let cost = exit_cost(&s, &clause, 18);
    let back: planner_core::engine::model::commitment::ExitCost =
        serde_json::from_str(&serde_json::to_string(&cost).unwrap()).unwrap();
    assert_eq!(back, cost);
}
