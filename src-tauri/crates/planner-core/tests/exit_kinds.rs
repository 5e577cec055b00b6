//! Every kind of exit (issue #19): scale-down, downgrade, leaving a lease and selling early, each
//! priced as a variant against staying. Every expected ledger figure is computed here by hand from
//! the rule — GPUs × hours of each calendar month × price, fee = share × what remains, resale =
//! price × share, the loan's balance and the lease's payment from the annuity — with month lengths
//! from an independent day count and rates from a root taken here; never copied from the engine.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::catalog::{Catalog, load};
use planner_core::engine::costing::evaluate::{Evaluation, ScenarioResult, evaluate};
use planner_core::engine::exit::kinds::{ExitRequest, exit_request_variant, price_exit_request, request_variant_id};
use planner_core::engine::input::scenario_file::{ScenarioFile, parse};
use planner_core::engine::model::assumption::Origin;
use planner_core::engine::model::ledger::Category;
use planner_core::engine::workspace::content::{ProblemPlace, from_scenario_file, scenario_exit_request};
use rust_decimal::Decimal;
use rust_decimal::dec;

const START_YEAR: u32 = 2027;
const HORIZON: u32 = 36;

/// Days in the `k`-th month after January of `START_YEAR`, by the Gregorian rule written out here.
fn days(k: u32) -> Decimal {
    let year = START_YEAR + k / 12;
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    Decimal::from(match k % 12 + 1 {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    })
}

fn hours(k: u32) -> Decimal {
    days(k) * dec!(24)
}

/// `x^n`, by repeated multiplication.
fn pow(x: Decimal, n: u32) -> Decimal {
    (0..n).fold(Decimal::ONE, |acc, _| acc * x)
}

/// The monthly rate equivalent to `annual`, `(1 + annual)^(1/12) − 1`, by bisection.
fn monthly(annual: Decimal) -> Decimal {
    let (mut lo, mut hi) = (Decimal::ZERO, annual);
    for _ in 0..100 {
        let mid = (lo + hi) / dec!(2);
        if pow(Decimal::ONE + mid, 12) > Decimal::ONE + annual {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo
}

/// The level end-of-period payment repaying `principal` over `n` periods at `r`.
fn annuity(principal: Decimal, r: Decimal, n: u32) -> Decimal {
    let g = pow(Decimal::ONE + r, n);
    principal * r * g / (g - Decimal::ONE)
}

/// Equal to well under a cent (ledger cells keep 10 places; conversions leave dust below that).
fn close(a: Decimal, b: Decimal, what: &str) {
    assert!((a - b).abs() < dec!(0.000001), "{what}: engine {a}, by hand {b}");
}

fn file(text: &str) -> ScenarioFile {
    parse(text).unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message))
}

fn request(json: &str) -> ExitRequest {
    serde_json::from_str(json).unwrap()
}

fn cash(s: &ScenarioResult, k: u32, c: Category) -> Decimal {
    s.ledger.months[k as usize].cash.get(c)
}

fn book(s: &ScenarioResult, k: u32, c: Category) -> Decimal {
    s.ledger.months[k as usize].book.get(c)
}

/// The base and its variant, evaluated together as the variant plan holds them.
fn both(catalog: &Catalog, f: &ScenarioFile, req: &ExitRequest) -> Evaluation {
    let (plan, _) = exit_request_variant(catalog, f, "base", req).unwrap_or_else(|p| panic!("{p:#?}"));
    let e = evaluate(&plan);
    assert_eq!(e.scenarios.len(), 2);
    assert_eq!(e.scenarios[1].id, request_variant_id("base", req));
    e
}

// ---------------------------------------------------------------------------------------------
// Reserved capacity: scale-down and downgrade.

const RES_PRICE: Decimal = dec!(2.10);
const OD_PRICE: Decimal = dec!(6.88);
/// The workload's demand in GPU-hours a day on the layers' own accelerator (6.25 GPUs' worth).
const DEMAND: Decimal = dec!(150);

/// One 3-year reservation of 8 GPUs at 2.10/h from month 0 carrying `clause`, then `extra` layers.
fn reserved_file(clause: &str, extra: &str) -> ScenarioFile {
    file(&format!(
        r#"{{
      "format_version": 1, "title": "exits", "currency": "USD", "start": "{START_YEAR}-01",
      "horizon_months": {HORIZON}, "discount_rate": "0.08",
      "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "{DEMAND}", "gpu_hours_on": "nvidia-h100-sxm" }}],
      "scenarios": [{{ "id": "base", "name": "base", "layers": [
        {{ "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "3y", "gpus": 8,
          "price_per_gpu_hour": {{ "value": "{RES_PRICE}", "reason": "negotiated 3-year rate" }},
          "exit_clause": {clause} }}{extra}
      ] }}]
    }}"#
    ))
}

const OD_LAYER: &str = r#", { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
    "price_per_gpu_hour": { "value": "6.88", "reason": "list price" } }"#;

#[test]
fn a_reservation_scaled_down_from_8_to_4_gpus_at_month_6_pays_a_quarter_of_the_part_given_up() {
    // 25% of the commitment given up; egress and offboarding are in the clause but not owed by a
    // scale-down (the layer and its data stay with the provider).
    let clause = r#"{ "notice_months": 0, "fee": { "kind": "share-of-remaining", "value": "0.25" },
        "egress_per_tb": "90", "data_tb": "120", "offboarding": "15000" }"#;
    let f = reserved_file(clause, OD_LAYER);
    let catalog = common::catalog();
    let req = request(r#"{ "kind": "scale-down", "layer": "res", "month": 6, "gpus": 4 }"#);
    let e = both(&catalog, &f, &req);
    let (base, variant) = (&e.scenarios[0], &e.scenarios[1]);

    // The part given up: 4 GPUs × hours × 2.10 over months 6..36, a quarter of it as the fee.
    let given_up: Decimal = (6..36).map(|k| dec!(4) * hours(k) * RES_PRICE).sum();
    let fee = dec!(0.25) * given_up;
    let mut replacement = Decimal::ZERO;
    for k in 0..HORIZON {
        let committed = if k < 6 { dec!(8) } else { dec!(4) };
        assert_eq!(
            cash(base, k, Category::Commitments),
            dec!(8) * hours(k) * RES_PRICE,
            "base, month {k}"
        );
        assert_eq!(
            cash(variant, k, Category::Commitments),
            committed * hours(k) * RES_PRICE,
            "commitments, month {k}"
        );
        let f_k = if k == 6 { fee } else { Decimal::ZERO };
        assert_eq!(cash(variant, k, Category::TerminationFees), f_k, "fee, month {k}");
        // From month 6 the 4 GPUs kept serve 96 of the 150 GPU-hours a day; on-demand the rest.
        let od = if k < 6 {
            Decimal::ZERO
        } else {
            (DEMAND - dec!(96)) * days(k) * OD_PRICE
        };
        close(
            cash(variant, k, Category::CloudCompute),
            od,
            &format!("on-demand, month {k}"),
        );
        assert_eq!(cash(base, k, Category::CloudCompute), Decimal::ZERO);
        replacement += od;
    }
    // Totals: base − avoided + fee + the on-demand replacement; no work left undone.
    close(
        variant.totals.total_cash,
        base.totals.total_cash - given_up + fee + replacement,
        "variant total",
    );
    assert_eq!(variant.totals.unserved_cost, Decimal::ZERO);
    assert!(
        variant.totals.unmet_pflop_h.abs() < dec!(0.001),
        "the demand moves to on-demand"
    );

    let price = price_exit_request(&catalog, &f, "base", &req).unwrap();
    let cost = price.booking.clause.clone().unwrap();
    assert_eq!((price.booking.gpus_before, price.booking.gpus_after), (8, 4));
    assert_eq!(price.booking.effective_month, 6);
    assert_eq!(cost.avoided, given_up);
    assert_eq!(cost.termination_fee, fee);
    assert_eq!((cost.egress, cost.offboarding), (Decimal::ZERO, Decimal::ZERO));
    assert_eq!(cost.exit_charges, fee);
    assert_eq!(price.base_total, base.totals.total_cash);
    assert_eq!(price.variant_total, variant.totals.total_cash);
    assert_eq!(price.difference, price.variant_total - price.base_total);
    assert!(price.variant_unmet_pflop_h.abs() < dec!(0.001));

    // A fixed fee is owed in the share of the commitment given up: 4 of 8 GPUs, half of it.
    let fixed = reserved_file(
        r#"{ "notice_months": 2, "fee": { "kind": "fixed", "value": "50000" } }"#,
        OD_LAYER,
    );
    let p = price_exit_request(&catalog, &fixed, "base", &req).unwrap();
    let c = p.booking.clause.unwrap();
    assert_eq!(c.effective_month, 8, "two months' notice from month 6");
    assert_eq!(c.termination_fee, dec!(25000));
    assert_eq!(
        c.avoided,
        (8..36).map(|k| dec!(4) * hours(k) * RES_PRICE).sum::<Decimal>()
    );
    assert_eq!(c.due_during_notice, dec!(4) * (hours(6) + hours(7)) * RES_PRICE);
}

#[test]
fn a_three_year_reservation_downgraded_to_on_demand_at_month_12() {
    // 3 months' notice, a quarter of what remains after it, egress and offboarding: a downgrade
    // leaves the old contract, so all of its exit charges are owed.
    let clause = r#"{ "notice_months": 3, "fee": { "kind": "share-of-remaining", "value": "0.25" },
        "egress_per_tb": "90", "data_tb": "120", "offboarding": "15000" }"#;
    let f = reserved_file(clause, "");
    let catalog = common::catalog();
    let req = request(
        r#"{ "kind": "downgrade", "layer": "res", "month": 12,
             "to": { "id": "od-new", "kind": "on-demand", "offer": "aws-p5-h100",
                     "price_per_gpu_hour": { "value": "6.50", "reason": "quoted on-demand rate for the downgrade" } } }"#,
    );
    let e = both(&catalog, &f, &req);
    let (base, variant) = (&e.scenarios[0], &e.scenarios[1]);
    let od_price = dec!(6.50);
    // Notice at 12, effect at 15: months 12–14 still paid; months 15..36 avoided.
    let avoided: Decimal = (15..36).map(|k| dec!(8) * hours(k) * RES_PRICE).sum();
    let charges = dec!(0.25) * avoided + dec!(90) * dec!(120) + dec!(15000);
    let mut replacement = Decimal::ZERO;
    for k in 0..HORIZON {
        let paid = if k < 15 {
            dec!(8) * hours(k) * RES_PRICE
        } else {
            Decimal::ZERO
        };
        assert_eq!(cash(variant, k, Category::Commitments), paid, "commitments, month {k}");
        let fee = if k == 15 { charges } else { Decimal::ZERO };
        assert_eq!(cash(variant, k, Category::TerminationFees), fee, "charges, month {k}");
        // The new layer is there from month 12 but the reservation serves first until it ends.
        let od = if k < 15 {
            Decimal::ZERO
        } else {
            DEMAND * days(k) * od_price
        };
        close(
            cash(variant, k, Category::CloudCompute),
            od,
            &format!("on-demand, month {k}"),
        );
        replacement += od;
    }
    close(
        variant.totals.total_cash,
        base.totals.total_cash - avoided + charges + replacement,
        "variant total",
    );
    assert!(
        variant.totals.unmet_pflop_h.abs() < dec!(0.001),
        "on-demand serves all the work"
    );
    assert_eq!(variant.totals.unserved_cost, Decimal::ZERO);
    // The replacement's price is an assumption of the variant, with its reason.
    let a = variant
        .assumptions
        .iter()
        .find(|a| a.path == "scenarios[0].layers[1].price_per_gpu_hour")
        .unwrap();
    assert_eq!(a.value, od_price);
    assert!(matches!(&a.origin, Origin::Override { reason } if reason.contains("downgrade")));

    let price = price_exit_request(&catalog, &f, "base", &req).unwrap();
    assert_eq!(price.booking.replacement.as_deref(), Some("od-new"));
    assert_eq!(price.booking.effective_month, 15);
    let cost = price.booking.clause.unwrap();
    assert_eq!(cost.avoided, avoided);
    assert_eq!(cost.exit_charges, charges);

    // To a shorter reserved term instead: a 1-year reservation of 8 GPUs at 4.30 from month 12.
    let one_year = request(
        r#"{ "kind": "downgrade", "layer": "res", "month": 12,
             "to": { "id": "res-1y", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 8,
                     "price_per_gpu_hour": { "value": "4.30", "reason": "1-year rate" } } }"#,
    );
    let e = both(&catalog, &f, &one_year);
    let v = &e.scenarios[1];
    for k in 0..HORIZON {
        let old = if k < 15 {
            dec!(8) * hours(k) * RES_PRICE
        } else {
            Decimal::ZERO
        };
        let new = if (12..24).contains(&k) {
            dec!(8) * hours(k) * dec!(4.30)
        } else {
            Decimal::ZERO
        };
        assert_eq!(cash(v, k, Category::Commitments), old + new, "commitments, month {k}");
    }
    // After the 1-year term nothing serves: the work left is unmet and priced as such.
    assert!(v.totals.unmet_pflop_h > Decimal::ZERO);
}

// ---------------------------------------------------------------------------------------------
// Owned hardware: the lease left, the hardware sold.

const HW_PRICE: Decimal = dec!(30000);
const TARIFF: Decimal = dec!(0.10);
const PUE: Decimal = dec!(1.2);
/// 240 GPU-hours a day: more than the 8 owned GPUs give (192), so they are always busy.
const OWNED_DEMAND: Decimal = dec!(240);
const DELIVERY: u32 = 2;

/// One owned layer of 8 H100s at 30,000 each, delivered in month 2, always available, drawing
/// 1 kW per GPU in a room at PUE 1.2 and 0.10 per kWh, paid by `financing`, with `more` fields;
/// and an on-demand layer at 6.88 that takes the rest of the work.
fn owned_file(financing: &str, more: &str) -> ScenarioFile {
    file(&format!(
        r#"{{
      "format_version": 1, "title": "owned exits", "currency": "USD", "start": "{START_YEAR}-01",
      "horizon_months": {HORIZON}, "discount_rate": "0.08",
      "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "{OWNED_DEMAND}", "gpu_hours_on": "nvidia-h100-sxm" }}],
      "scenarios": [{{ "id": "base", "name": "base", "layers": [
        {{ "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8, "availability": "1",
          "lead_time_months": {DELIVERY}, "lead_time_reason": "supplier quote",
          "price_per_gpu": {{ "value": "{HW_PRICE}", "reason": "supplier quote" }},
          "power_kw_per_gpu": {{ "value": "1", "reason": "metered" }},
          "financing": {financing}{more} }}{OD_LAYER}
      ],
      "facility": {{ "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40",
        "tariff_per_kwh": {{ "value": "{TARIFF}", "reason": "contract" }},
        "pue": {{ "value": "{PUE}", "reason": "measured" }} }} }}]
    }}"#
    ))
}

/// Electricity of `gpus` busy GPUs in month `k`: GPU-hours × 1 kW × PUE × tariff.
fn electricity(gpus: Decimal, k: u32) -> Decimal {
    gpus * hours(k) * PUE * TARIFF
}

/// On-demand cost in month `k` when `owned_gpus` owned GPUs serve: the rest of the 240 a day.
fn on_demand(owned_gpus: Decimal, k: u32) -> Decimal {
    (OWNED_DEMAND - owned_gpus * dec!(24)) * days(k) * OD_PRICE
}

#[test]
fn leaving_a_lease_at_month_10_with_two_months_notice_stops_its_payments_and_books_the_fixed_fee() {
    let lease = r#"{ "method": "lease", "annual_rate": "0.09", "term_months": 24 }"#;
    let clause = r#", "exit_clause": { "notice_months": 2, "fee": { "kind": "fixed", "value": "7000" } }"#;
    let f = owned_file(lease, clause);
    let catalog = common::catalog();
    let req = request(r#"{ "kind": "leave-lease", "layer": "own", "month": 10 }"#);
    let e = both(&catalog, &f, &req);
    let (base, variant) = (&e.scenarios[0], &e.scenarios[1]);
    // The lease: paid in advance from delivery, the arrears annuity on 240,000 over 24 months
    // divided by 1 + r. Notice at 10, effect at 12: payments in months 2..12, then none.
    let r = monthly(dec!(0.09));
    let payment = annuity(dec!(8) * HW_PRICE, r, 24) / (Decimal::ONE + r);
    let (mut avoided, mut running_saved, mut replacement) = (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO);
    for k in 0..HORIZON {
        let leased = (DELIVERY..26).contains(&k);
        let kept = (DELIVERY..12).contains(&k);
        let b = if leased { payment } else { Decimal::ZERO };
        let v = if kept { payment } else { Decimal::ZERO };
        close(cash(base, k, Category::Financing), b, &format!("base lease, month {k}"));
        close(cash(variant, k, Category::Financing), v, &format!("lease, month {k}"));
        let fee = if k == 12 { dec!(7000) } else { Decimal::ZERO };
        assert_eq!(cash(variant, k, Category::TerminationFees), fee, "fee, month {k}");
        // The hardware goes back in month 12: its electricity stops, on-demand takes its work.
        let gpus = if kept { dec!(8) } else { Decimal::ZERO };
        let base_gpus = if leased { dec!(8) } else { Decimal::ZERO };
        close(
            cash(variant, k, Category::Electricity),
            electricity(gpus, k),
            &format!("power, month {k}"),
        );
        close(
            cash(variant, k, Category::CloudCompute),
            on_demand(gpus, k),
            &format!("od, month {k}"),
        );
        assert_eq!(cash(variant, k, Category::Residual), Decimal::ZERO, "leased: no resale");
        if leased && !kept {
            avoided += payment;
            running_saved += electricity(base_gpus, k);
            replacement += on_demand(gpus, k) - on_demand(base_gpus, k);
        }
    }
    close(
        variant.totals.total_cash,
        base.totals.total_cash - avoided + dec!(7000) - running_saved + replacement,
        "variant total",
    );
    assert!(
        variant.totals.unmet_pflop_h.abs() < dec!(0.001),
        "on-demand takes the returned GPUs' work"
    );
    let price = price_exit_request(&catalog, &f, "base", &req).unwrap();
    let cost = price.booking.clause.unwrap();
    assert_eq!((cost.notice_month, cost.effective_month), (10, 12));
    assert_eq!(cost.exit_charges, dec!(7000));
    close(cost.avoided, payment * dec!(14), "avoided: months 12..26");
    close(cost.due_during_notice, payment * dec!(2), "due during notice");

    // A lease with no exit is booked exactly as before: the same payments, to the end of the term.
    let plain = owned_file(lease, "");
    let e = evaluate(&planner_core::engine::resolve::validate::validate(&catalog, &plain, None).unwrap());
    for k in 0..HORIZON {
        assert_eq!(
            cash(&e.scenarios[0], k, Category::Financing),
            cash(base, k, Category::Financing),
            "month {k}"
        );
    }
}

#[test]
fn cash_bought_hardware_sold_at_month_18_at_a_typed_share() {
    // The layer resells at 30% at the horizon; the buyer has a quote for 55% at month 18.
    let more = r#", "residual_share": "0.30", "residual_reason": "broker estimate at 3 years",
        "support_rate_per_year": "0.12""#;
    let f = owned_file(r#"{ "method": "cash" }"#, more);
    let catalog = common::catalog();
    let req = request(
        r#"{ "kind": "sell-early", "layer": "own", "month": 18,
             "residual_share": { "value": "0.55", "reason": "buy-back quote Q-77" } }"#,
    );
    let e = both(&catalog, &f, &req);
    let (base, variant) = (&e.scenarios[0], &e.scenarios[1]);
    let hardware = dec!(8) * HW_PRICE;
    let resale = hardware * dec!(0.55);
    let support = hardware * dec!(0.12) / dec!(12);
    let dep = hardware / dec!(60);
    let (mut running_saved, mut replacement) = (Decimal::ZERO, Decimal::ZERO);
    for k in 0..HORIZON {
        let hw = if k == DELIVERY { hardware } else { Decimal::ZERO };
        assert_eq!(cash(variant, k, Category::Hardware), hw, "hardware, month {k}");
        let serving = (DELIVERY..18).contains(&k);
        let base_serving = k >= DELIVERY;
        let gpus = if serving { dec!(8) } else { Decimal::ZERO };
        close(
            cash(variant, k, Category::Electricity),
            electricity(gpus, k),
            &format!("power, month {k}"),
        );
        let s = if serving { support } else { Decimal::ZERO };
        assert_eq!(cash(variant, k, Category::Support), s, "support, month {k}");
        close(
            cash(variant, k, Category::CloudCompute),
            on_demand(gpus, k),
            &format!("od, month {k}"),
        );
        // Resale: 55% in month 18 instead of 30% at the horizon.
        let sold = if k == 18 { -resale } else { Decimal::ZERO };
        assert_eq!(cash(variant, k, Category::Residual), sold, "resale, month {k}");
        // The book: 4,000 a month of depreciation while held (60 months, no salvage), and the
        // book value less the resale written off at the sale.
        let d = if serving { dep } else { Decimal::ZERO };
        assert_eq!(book(variant, k, Category::Depreciation), d, "depreciation, month {k}");
        let written_off = if k == 18 {
            hardware - dep * dec!(16) - resale
        } else {
            Decimal::ZERO
        };
        assert_eq!(
            book(variant, k, Category::Residual),
            written_off,
            "book disposal, month {k}"
        );
        if base_serving && !serving {
            running_saved += electricity(dec!(8), k) + support;
            replacement += on_demand(Decimal::ZERO, k) - on_demand(dec!(8), k);
        }
    }
    assert_eq!(cash(base, 35, Category::Residual), -hardware * dec!(0.30));
    assert_eq!(variant.totals.residual_value, resale);
    close(
        variant.totals.total_cash,
        base.totals.total_cash + hardware * dec!(0.30) - resale - running_saved + replacement,
        "variant total",
    );
    // Sold: the cash and the book views agree over the horizon, as at the horizon's sale.
    close(variant.totals.total_book, variant.totals.total_cash, "book = cash");
    assert!(
        variant.totals.unmet_pflop_h.abs() < dec!(0.001),
        "on-demand takes the work"
    );

    let price = price_exit_request(&catalog, &f, "base", &req).unwrap();
    let sale = price.booking.resale.unwrap();
    assert_eq!((sale.month, sale.age_months, sale.gpus), (18, 16, 8));
    assert_eq!((sale.share, sale.amount), (dec!(0.55), resale));
    let a = sale.assumption.unwrap();
    assert_eq!(a.path, "scenarios[0].layers[0].residual_share_at_sale");
    assert!(matches!(&a.origin, Origin::Override { reason } if reason == "buy-back quote Q-77"));
    assert!(
        variant.assumptions.contains(&a),
        "the figure used is an assumption of the variant"
    );
    assert_eq!(price.booking.loan_payoff, Decimal::ZERO);

    // Without a typed share the layer's own (30%) is the rule, at the sale as at the horizon.
    let untyped = request(r#"{ "kind": "sell-early", "layer": "own", "month": 18 }"#);
    let p = price_exit_request(&catalog, &f, "base", &untyped).unwrap();
    assert_eq!(p.booking.resale.unwrap().amount, hardware * dec!(0.30));
}

#[test]
fn hardware_bought_on_a_loan_and_sold_early_pays_off_the_balance_in_the_month_of_the_sale() {
    let loan = r#"{ "method": "loan", "annual_rate": "0.07", "term_months": 36, "down_payment": "0.2" }"#;
    let f = owned_file(loan, r#", "residual_share": "0.30", "residual_reason": "broker""#);
    let catalog = common::catalog();
    let req = request(
        r#"{ "kind": "sell-early", "layer": "own", "month": 18,
             "residual_share": { "value": "0.5", "reason": "quote" } }"#,
    );
    let e = both(&catalog, &f, &req);
    let (base, variant) = (&e.scenarios[0], &e.scenarios[1]);
    let r = monthly(dec!(0.07));
    let principal = dec!(8) * HW_PRICE * dec!(0.8);
    let a = annuity(principal, r, 36);
    // Payments at the end of each month after delivery: months 3..18 are 15 of them; the balance
    // after them is paid off in month 18.
    let g = pow(Decimal::ONE + r, 15);
    let balance = principal * g - a * (g - Decimal::ONE) / r;
    for k in 0..HORIZON {
        let expected = match k {
            3..=17 => a,
            18 => balance,
            _ => Decimal::ZERO,
        };
        close(
            cash(variant, k, Category::Financing),
            expected,
            &format!("loan, month {k}"),
        );
    }
    // The base pays to month 35 and settles the balance after 33 payments there.
    let g33 = pow(Decimal::ONE + r, 33);
    close(
        cash(base, 35, Category::Financing),
        a + principal * g33 - a * (g33 - Decimal::ONE) / r,
        "base's last month",
    );
    let price = price_exit_request(&catalog, &f, "base", &req).unwrap();
    close(price.booking.loan_payoff, balance, "payoff");
    assert_eq!(cash(variant, 18, Category::Residual), -dec!(8) * HW_PRICE * dec!(0.5));
}

#[test]
fn owned_hardware_scaled_down_sells_the_gpus_taken_out_and_keeps_running_the_rest() {
    let more = r#", "residual_share": "0.30", "residual_reason": "broker estimate",
        "support_rate_per_year": "0.12""#;
    let f = owned_file(r#"{ "method": "cash" }"#, more);
    let catalog = common::catalog();
    let req = request(r#"{ "kind": "scale-down", "layer": "own", "month": 18, "gpus": 4 }"#);
    let e = both(&catalog, &f, &req);
    let variant = &e.scenarios[1];
    let half = dec!(4) * HW_PRICE;
    let dep = dec!(8) * HW_PRICE / dec!(60);
    for k in DELIVERY..HORIZON {
        let gpus = if k < 18 { dec!(8) } else { dec!(4) };
        close(
            cash(variant, k, Category::Electricity),
            electricity(gpus, k),
            &format!("power, month {k}"),
        );
        close(
            cash(variant, k, Category::CloudCompute),
            on_demand(gpus, k),
            &format!("od, month {k}"),
        );
        // Support is a yearly share of the hardware's price: of the GPUs kept, after the sale.
        let support = gpus * HW_PRICE * dec!(0.12) / dec!(12);
        assert_eq!(cash(variant, k, Category::Support), support, "support, month {k}");
        let resale = match k {
            18 | 35 => -half * dec!(0.30),
            _ => Decimal::ZERO,
        };
        assert_eq!(cash(variant, k, Category::Residual), resale, "resale, month {k}");
        // Half the capital is written off at the sale; half the depreciation runs on.
        let d = if k < 18 { dep } else { dep / dec!(2) };
        assert_eq!(book(variant, k, Category::Depreciation), d, "depreciation, month {k}");
    }
    let written_off = (dec!(8) * HW_PRICE - dep * dec!(16)) / dec!(2);
    assert_eq!(book(variant, 18, Category::Residual), written_off - half * dec!(0.30));
    close(variant.totals.total_book, variant.totals.total_cash, "book = cash");
    assert!(variant.totals.unmet_pflop_h.abs() < dec!(0.001));
}

/// The engine test catalog with a sourced resale estimate for the H100: 0.60–0.70 at 12 months,
/// 0.40–0.50 at 24.
fn catalog_with_resale() -> Catalog {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/engine-catalog");
    let mut files: Vec<(String, String)> = ["offers.toml", "facility.toml", "fabrics.toml", "regions.toml"]
        .iter()
        .map(|n| ((*n).to_owned(), std::fs::read_to_string(format!("{dir}/{n}")).unwrap()))
        .collect();
    let acc = std::fs::read_to_string(format!("{dir}/accelerators.toml")).unwrap()
        + "\n[[resale]]\nid = \"h100-test\"\naccelerator = \"nvidia-h100-sxm\"\nsrc = \"ref\"\nconf = \"estimate\"\n\n\
           [[resale.point]]\nage_months = 12\nshare = { low = 0.60, high = 0.70 }\n\n\
           [[resale.point]]\nage_months = 24\nshare = { low = 0.40, high = 0.50 }\n";
    files.push(("accelerators.toml".to_owned(), acc));
    load(&files).unwrap_or_else(|e| panic!("{:#?}", e.issues))
}

#[test]
fn without_a_typed_share_the_sale_takes_the_catalog_estimate_at_the_hardware_age_then() {
    let catalog = catalog_with_resale();
    let f = owned_file(r#"{ "method": "cash" }"#, "");
    let req = request(r#"{ "kind": "sell-early", "layer": "own", "month": 20 }"#);
    let price = price_exit_request(&catalog, &f, "base", &req).unwrap();
    let sale = price.booking.resale.unwrap();
    // Age 18 (delivered in month 2): halfway from 12 to 24 months, at the midpoint of the range:
    // low 0.50, high 0.60, mid 0.55.
    assert_eq!(sale.age_months, 18);
    assert_eq!(sale.share, dec!(0.55));
    assert_eq!(sale.amount, dec!(8) * HW_PRICE * dec!(0.55));
    let a = sale.assumption.unwrap();
    match &a.origin {
        Origin::Catalog { entry, field, .. } => {
            assert_eq!(entry, "h100-test");
            assert_eq!(field, "resale share at 18 months");
        }
        o => panic!("{o:?}"),
    }
    // Without any estimate (the plain test catalog) the sale counts 0, and says so.
    let p = price_exit_request(&common::catalog(), &f, "base", &req).unwrap();
    assert_eq!(p.booking.resale.unwrap().share, Decimal::ZERO);
    assert!(
        p.warnings.iter().any(|w| w.contains("counted at 0")),
        "{:?}",
        p.warnings
    );
}

// ---------------------------------------------------------------------------------------------
// Impossible requests.

#[test]
fn impossible_requests_are_refused_at_their_paths() {
    let catalog = common::catalog();
    let res = reserved_file(
        r#"{ "notice_months": 1, "fee": { "kind": "fixed", "value": "1000" } }"#,
        OD_LAYER,
    );
    let refused = |f: &ScenarioFile, json: &str| -> Vec<(String, String)> {
        price_exit_request(&catalog, f, "base", &request(json))
            .unwrap_err()
            .into_iter()
            .map(|p| (p.path, p.message))
            .collect()
    };
    let late = refused(
        &res,
        r#"{ "kind": "scale-down", "layer": "res", "month": 36, "gpus": 4 }"#,
    );
    assert_eq!(late[0].0, "request.month");
    let zero = refused(
        &res,
        r#"{ "kind": "scale-down", "layer": "res", "month": 6, "gpus": 0 }"#,
    );
    assert_eq!(zero[0].0, "request.gpus");
    assert!(zero[0].1.contains("full exit"), "{zero:?}");
    let more = refused(
        &res,
        r#"{ "kind": "scale-down", "layer": "res", "month": 6, "gpus": 8 }"#,
    );
    assert_eq!(more[0].0, "request.gpus");
    let pay_as_you_go = refused(
        &res,
        r#"{ "kind": "scale-down", "layer": "od", "month": 6, "gpus": 1 }"#,
    );
    assert_eq!(pay_as_you_go[0].0, "request.layer");
    let not_a_lease = refused(&res, r#"{ "kind": "leave-lease", "layer": "res", "month": 6 }"#);
    assert_eq!(not_a_lease[0].0, "request.layer");
    let not_owned = refused(&res, r#"{ "kind": "sell-early", "layer": "res", "month": 6 }"#);
    assert_eq!(not_owned[0].0, "request.layer");
    let unknown = refused(&res, r#"{ "kind": "leave-reservation", "layer": "nope", "month": 6 }"#);
    assert_eq!(unknown[0].0, "request.layer");
    let offer = refused(
        &res,
        r#"{ "kind": "downgrade", "layer": "res", "month": 12,
             "to": { "id": "x", "kind": "on-demand", "offer": "no-such-offer" } }"#,
    );
    assert!(offer.iter().any(|p| p.0 == "request.to.offer"), "{offer:?}");
    let owned_to = refused(
        &res,
        r#"{ "kind": "downgrade", "layer": "res", "month": 12,
             "to": { "id": "x", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8 } }"#,
    );
    assert_eq!(owned_to[0].0, "request.to.kind");

    let leased = owned_file(
        r#"{ "method": "lease", "annual_rate": "0.09", "term_months": 24 }"#,
        r#", "exit_clause": { "notice_months": 1, "fee": { "kind": "fixed", "value": "1" } }"#,
    );
    let sold_lease = refused(&leased, r#"{ "kind": "sell-early", "layer": "own", "month": 6 }"#);
    assert!(sold_lease[0].1.contains("leave-lease"), "{sold_lease:?}");
    let ended = refused(&leased, r#"{ "kind": "leave-lease", "layer": "own", "month": 26 }"#);
    assert_eq!(ended[0].0, "request.month");
    let cash = owned_file(r#"{ "method": "cash" }"#, "");
    let early = refused(&cash, r#"{ "kind": "sell-early", "layer": "own", "month": 1 }"#);
    assert_eq!(early[0].0, "request.month");
    assert!(early[0].1.contains("delivered in month 2"), "{early:?}");
    let share = refused(
        &cash,
        r#"{ "kind": "sell-early", "layer": "own", "month": 6, "residual_share": { "value": "1.5", "reason": "" } }"#,
    );
    let paths: Vec<&str> = share.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(paths, ["request.residual_share.value", "request.residual_share.reason"]);

    // A mistyped field of the request is an error, not a silently ignored line.
    assert!(
        serde_json::from_str::<ExitRequest>(r#"{ "kind": "sell-early", "layer": "own", "month": 6, "gpus": 3 }"#)
            .is_err()
    );
}

#[test]
fn the_workspace_prices_a_request_on_the_scenario_as_the_editor_holds_it() {
    let catalog = common::catalog();
    let f = reserved_file(
        r#"{ "notice_months": 0, "fee": { "kind": "share-of-remaining", "value": "0.25" } }"#,
        OD_LAYER,
    );
    let (settings, workloads, scenarios) = from_scenario_file(f.clone());
    let req = request(r#"{ "kind": "scale-down", "layer": "res", "month": 6, "gpus": 4 }"#);
    let out = scenario_exit_request(&catalog, &settings, &workloads, &scenarios[0], &req);
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    assert_eq!(out.price, Some(price_exit_request(&catalog, &f, "base", &req).unwrap()));
    let bad = request(
        r#"{ "kind": "downgrade", "layer": "res", "month": 12, "to": { "id": "x", "kind": "on-demand", "offer": "nope" } }"#,
    );
    let out = scenario_exit_request(&catalog, &settings, &workloads, &scenarios[0], &bad);
    assert!(out.price.is_none());
    assert!(
        out.problems
            .iter()
            .any(|p| p.subject == ProblemPlace::Scenario("base".into()) && p.field == "request.to.offer"),
        "{:?}",
        out.problems
    );
    // Leaving the reservation is the existing variant, priced the same way.
    let leave = request(r#"{ "kind": "leave-reservation", "layer": "res", "month": 6 }"#);
    let p = price_exit_request(&catalog, &f, "base", &leave).unwrap();
    let old = planner_core::engine::exit::clauses::scenario_exit_variant(
        &planner_core::engine::resolve::validate::validate(&catalog, &f, None).unwrap(),
        "base",
        "res",
        6,
    )
    .unwrap();
    assert_eq!((p.variant_total, p.base_total), (old.variant_total, old.base_total));
    assert_eq!(p.booking.clause, Some(old.cost));
}

/// The ways out a memo states: each layer's, from the middle of the horizon, every one priced
/// against staying (difference = leaving − staying), on the enterprise sample.
#[test]
fn the_memo_states_every_layers_ways_out_from_the_middle_of_the_horizon() {
    let catalog = common::shipped_catalog();
    let path = format!(
        "{}/../../../catalogs/samples/enterprise-hybrid.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let file = planner_core::engine::input::scenario_file::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (cloud, refused) = planner_core::engine::exit::kinds::standard_ways_out(&catalog, &file, "all-cloud");
    assert!(refused.is_empty(), "{refused:?}");
    let kinds: Vec<&str> = cloud
        .iter()
        .map(|p| match p.request {
            planner_core::engine::exit::kinds::ExitRequest::LeaveReservation { .. } => "leave",
            planner_core::engine::exit::kinds::ExitRequest::ScaleDown { .. } => "scale-down",
            planner_core::engine::exit::kinds::ExitRequest::Downgrade { .. } => "downgrade",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["leave", "scale-down", "downgrade"]);
    for p in &cloud {
        assert_eq!(p.request.month(), file.horizon_months / 2);
        assert_eq!(p.difference, p.variant_total - p.base_total);
    }
    let (hybrid, _) = planner_core::engine::exit::kinds::standard_ways_out(&catalog, &file, "hybrid");
    assert!(matches!(
        hybrid[0].request,
        planner_core::engine::exit::kinds::ExitRequest::SellEarly { .. }
    ));
    assert!(hybrid[0].booking.resale.as_ref().is_some_and(|r| r.gpus == 16));
    assert!(matches!(
        hybrid[1].request,
        planner_core::engine::exit::kinds::ExitRequest::ScaleDown { gpus: 8, .. }
    ));
}
