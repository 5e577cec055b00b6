//! Property tests: the ledger adds up exactly, costs scale with prices, dispatch respects demand
//! and capacity.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::blocks::allocation::{Allocation, Rate, Routes, allocate};
use planner_core::engine::model::ledger::Category;
use proptest::prelude::*;
use rust_decimal::Decimal;

/// A hybrid scenario file (owned on a loan, reserved, spot, on-demand) with every price times `k`.
fn hybrid(k: u32, gpus: u32, hours_per_day: u32, horizon: u32, lead: u32, growth_pct: u32) -> String {
    let m = |base: &str| (base.parse::<Decimal>().unwrap_or_default() * Decimal::from(k)).to_string();
    format!(
        r#"{{
      "format_version": 1, "title": "p", "currency": "USD", "start": "2027-02",
      "horizon_months": {horizon}, "discount_rate": "0.08",
      "workloads": [
        {{ "id": "base", "name": "base", "kind": "inference", "class": "steady",
          "gpu_hours_per_day": "{hours_per_day}", "gpu_hours_on": "nvidia-h100-sxm", "monthly_growth": "0.0{growth_pct}" }},
        {{ "id": "burst", "name": "burst", "kind": "pre-training", "class": "variable", "interruptible": true,
          "gpu_hours_per_day": "{hours_per_day}", "gpu_hours_on": "nvidia-h100-sxm", "active_from_month": 1, "active_months": 3 }}
      ],
      "scenarios": [{{ "id": "s", "name": "s",
        "layers": [
          {{ "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": {gpus}, "lead_time_months": {lead},
            "price_per_gpu": {{ "value": "{p1}", "reason": "r" }}, "installation": "{p2}", "support_rate_per_year": "0.1",
            "financing": {{ "method": "loan", "annual_rate": "0.07", "term_months": 24, "down_payment": "0.25" }},
            "payment_milestones": [{{ "month": 0, "share": "0.25" }}, {{ "month": {lead}, "share": "0.75" }}] }},
          {{ "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 2,
            "price_per_gpu_hour": {{ "value": "{p3}", "reason": "r" }} }},
          {{ "id": "spot", "kind": "spot", "offer": "aws-p5-h100", "interruptions_per_hour": "0.1", "gpus": 4,
            "price_per_gpu_hour": {{ "value": "{p4}", "reason": "r" }} }},
          {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100", "price_per_gpu_hour": {{ "value": "{p5}", "reason": "r" }} }}
        ],
        "facility": {{ "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40",
          "tariff_per_kwh": {{ "value": "{p6}", "reason": "r" }},
          "colocation_per_kw_month": {{ "value": "{p7}", "reason": "r" }} }},
        "network": {{ "fabric": "roce-400", "per_port_cost": {{ "value": "{p8}", "reason": "r" }} }},
        "staff_fte": "0.5", "staff_cost_per_fte_year": "{p9}", "storage_per_month": "{p10}" }}]
    }}"#,
        p1 = m("31000.17"),
        p2 = m("12000"),
        p3 = m("4.3"),
        p4 = m("2.25"),
        p5 = m("6.88"),
        p6 = m("0.0813"),
        p7 = m("184.06"),
        p8 = m("2750"),
        p9 = m("150000"),
        p10 = m("333.33"),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn months_add_up_exactly_to_totals(gpus in 1u32..40, hours in 0u32..600, horizon in 1u32..60, lead in 0u32..6, growth in 0u32..9) {
        let e = common::run(&hybrid(1, gpus, hours, horizon, lead, growth));
        for s in &e.scenarios {
            let t = &s.totals;
            let by_month: Decimal = s.ledger.months.iter().map(|m| m.cash.total()).sum();
            prop_assert_eq!(by_month, t.total_cash);
            let by_category: Decimal = Category::ALL.iter().map(|c| t.cash.get(*c)).sum();
            prop_assert_eq!(by_category, t.total_cash);
            for c in Category::ALL {
                let col: Decimal = s.ledger.months.iter().map(|m| m.cash.get(c)).sum();
                prop_assert_eq!(col, t.cash.get(c));
                let book: Decimal = s.ledger.months.iter().map(|m| m.book.get(c)).sum();
                prop_assert_eq!(book, t.book.get(c));
            }
            prop_assert_eq!(s.ledger.months.last().map(|m| m.cumulative_cash), Some(t.total_cash));
            // Sold at the horizon, the asset costs the same in both views.
            prop_assert!((t.total_book - t.total_cash).abs() < Decimal::new(1, 6), "book {} cash {}", t.total_book, t.total_cash);
        }
    }

    #[test]
    fn doubling_every_price_doubles_every_cost(gpus in 1u32..40, hours in 0u32..600, horizon in 1u32..48, lead in 0u32..6) {
        let one = common::run(&hybrid(1, gpus, hours, horizon, lead, 2));
        let two = common::run(&hybrid(2, gpus, hours, horizon, lead, 2));
        let tolerance = Decimal::new(1, 9);
        for (a, b) in one.scenarios.iter().zip(&two.scenarios) {
            for (ma, mb) in a.ledger.months.iter().zip(&b.ledger.months) {
                for c in Category::ALL {
                    let (x, y) = (ma.cash.get(c), mb.cash.get(c));
                    prop_assert!((y - x * Decimal::TWO).abs() <= tolerance, "{} {:?}: {} then {}", ma.month, c, x, y);
                    let (x, y) = (ma.book.get(c), mb.book.get(c));
                    prop_assert!((y - x * Decimal::TWO).abs() <= tolerance, "book {} {:?}: {} then {}", ma.month, c, x, y);
                }
            }
            prop_assert_eq!(a.totals.delivered_gpu_h, b.totals.delivered_gpu_h);
        }
    }

    #[test]
    fn dispatch_serves_within_demand_and_capacity(
        demand in proptest::collection::vec(0u32..5000, 1..5),
        caps in proptest::collection::vec(proptest::option::of(0u32..3000), 1..5),
        rates in proptest::collection::vec(1u32..2000, 25),
        mask in proptest::collection::vec(any::<bool>(), 25),
    ) {
        let (nw, nl) = (demand.len(), caps.len());
        let mut visits = Vec::new();
        for l in 0..nl {
            for w in 0..nw {
                if mask[w * 5 + l]
                    && let Some(r) = Rate::new(Decimal::new(i64::from(rates[w * 5 + l]), 3)) {
                        visits.push((w, l, r));
                    }
            }
        }
        let routes = Routes { visits: visits.clone(), workloads: nw, layers: nl };
        let demand: Vec<Decimal> = demand.iter().map(|d| Decimal::from(*d)).collect();
        let capacity: Vec<Option<Decimal>> = caps.iter().map(|c| c.map(Decimal::from)).collect();
        let mut a = Allocation::default();
        allocate(&routes, &demand, &capacity, &vec![Decimal::ZERO; nw], &mut a);
        for (w, d) in demand.iter().enumerate() {
            prop_assert!(a.served[w] <= *d);
            prop_assert!(a.served[w] >= Decimal::ZERO);
            prop_assert_eq!(a.served[w] + a.unmet[w], *d);
        }
        for (l, cap) in capacity.iter().enumerate() {
            if let Some(c) = cap {
                prop_assert!(a.units[l] <= *c, "layer {} gave {} of {}", l, a.units[l], c);
            }
        }
        // Demand is left unmet only when every layer allowed to serve it is full.
        for &(w, l, _) in &visits {
            if a.unmet[w] > Decimal::new(1, 20) {
                let full = capacity[l].is_some_and(|c| c - a.units[l] <= Decimal::new(1, 20));
                prop_assert!(full, "workload {} unmet {} while layer {} has room", w, a.unmet[w], l);
            }
        }
    }
}
