//! The after-tax view (issue #44; ENGINE_RULES.md, "The after-tax view"): tax lines in the ledger
//! and the after-tax totals, each checked against figures worked by hand from the IRS Publication
//! 946 table percentages (Table A-1, 5-year property, half-year convention: 20.00, 32.00, 19.20,
//! 11.52, 11.52, 5.76 %; Table A-5, placed in service in the fourth quarter: 5.00, 38.00, 22.80,
//! 13.68, 10.94, 9.58 %), never from the program's own output.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::costing::evaluate::{Evaluation, ScenarioResult};
use planner_core::engine::decide::decision::{decision_view, ranking};
use planner_core::engine::input::scenario_file::parse;
use planner_core::engine::input::tax_spec::TaxBasis;
use planner_core::engine::model::assumption::Origin;
use planner_core::engine::model::ledger::{Category, TaxLines};
use planner_core::engine::resolve::validate::validate;
use rust_decimal::Decimal;
use rust_decimal::dec;

/// The tax profile written out (no preset): 21%, MACRS GDS 5-year, the convention given.
fn macrs(convention: &str) -> String {
    format!(
        r#"{{ "rate": "0.21", "method": "macrs-gds", "recovery_years": 5, "convention": "{convention}",
             "reason": "IRC section 11(b) and IRS Publication 946, table A-1" }}"#
    )
}

/// 36 months from January 2027, 48 GPU-hours a day on an RTX 4090, staff of 10,000 a month, and
/// one scenario: one owned 4090 (10,000, resold for 30% at the horizon, no energy cost) with the
/// `financing` and `extra` fields given, and on-demand 4090s at 2.00 a GPU-hour for the rest.
fn file(tax: &str, financing: &str, extra: &str) -> String {
    format!(
        r#"{{
  "format_version": 1, "title": "after tax", "currency": "USD", "start": "2027-01",
  "horizon_months": 36, "discount_rate": "0", {tax}
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "48", "gpu_hours_on": "nvidia-rtx-4090" }}],
  "scenarios": [{{ "id": "mix", "name": "own and rent", "staff_fte": "1", "staff_cost_per_fte_year": "120000",
    "layers": [
      {{ "id": "box", "kind": "owned", "accelerator": "nvidia-rtx-4090", "gpus": 1, "gpus_per_server": 1,
        "price_per_gpu": {{ "value": "10000", "reason": "test" }},
        "power_kw_per_gpu": {{ "value": "0.5", "reason": "test" }},
        "residual_share": "0.3"{financing}{extra} }},
      {{ "id": "cloud", "kind": "on-demand", "accelerator": "nvidia-rtx-4090",
        "price_per_gpu_hour": {{ "value": "2.00", "reason": "test" }} }}],
    "facility": {{ "region": "us", "cooling": "perimeter-air", "kw_per_rack_limit": "10",
      "pue": {{ "value": "1", "reason": "test" }},
      "tariff_per_kwh": {{ "value": "0", "reason": "test: no energy cost" }} }} }}]
}}"#
    )
}

fn taxed(tax: &str, financing: &str, extra: &str) -> Evaluation {
    common::run(&file(&format!(r#""tax": {tax},"#), financing, extra))
}

fn lines(r: &ScenarioResult) -> Vec<TaxLines> {
    r.ledger.months.iter().map(|m| m.tax.expect("tax lines")).collect()
}

fn days(k: u32) -> Decimal {
    Decimal::from(common::month_days(2027, k))
}

/// Depreciation line by month, zero where none is booked.
fn depreciation(r: &ScenarioResult) -> Vec<Decimal> {
    lines(r).iter().map(|l| l.depreciation).collect()
}

/// The 5-year half-year table on a basis of 10,000, each tax year in its last month (December:
/// months 11, 23 and 35): 20% = 2,000, 32% = 3,200, 19.2% = 1,920; at the horizon the rest of
/// the basis, 10,000 − 7,120 = 2,880, less the 3,000 of resale: −120, a gain taxed.
#[test]
fn a_cash_purchase_is_depreciated_by_the_table_and_disposed_of_at_the_horizon() {
    let e = taxed(&macrs("half-year"), "", "");
    let r = common::scenario(&e, "mix");
    // The whole basis is the hardware: 10,000 in month 0 and no other capital.
    let capital: Decimal = Category::ALL
        .iter()
        .filter(|c| c.is_capital())
        .map(|c| r.ledger.cash_totals().get(*c))
        .sum();
    assert_eq!(capital, dec!(10000));
    let mut want = vec![Decimal::ZERO; 36];
    want[11] = dec!(10000) * dec!(0.20);
    want[23] = dec!(10000) * dec!(0.32);
    want[35] = dec!(10000) * dec!(0.192);
    assert_eq!(depreciation(r), want);
    let disposal: Vec<Decimal> = lines(r).iter().map(|l| l.disposal).collect();
    let mut gain = vec![Decimal::ZERO; 36];
    gain[35] = dec!(10000) - (dec!(2000) + dec!(3200) + dec!(1920)) - dec!(3000);
    assert_eq!(gain[35], dec!(-120));
    assert_eq!(disposal, gain);
    // Over the asset's life its deductions add to cost − proceeds: 10,000 − 3,000.
    let life: Decimal = lines(r).iter().map(|l| l.depreciation + l.disposal).sum();
    assert_eq!(life, dec!(10000) - dec!(3000));
    // Bought for cash: no interest, no lease.
    assert!(lines(r).iter().all(|l| l.interest.is_zero() && l.lease.is_zero()));
}

/// Running costs are deducted as paid: staff 10,000 a month, and the cloud hours the owned 4090
/// leaves (48 − 24 × 0.97 = 24.72 GPU-hours a day) at 2.00. January: 10,000 + 24.72 × 31 × 2 =
/// 11,532.64, saving 21% of it = 2,421.8544; the after-tax cash is the cash less the saving.
#[test]
fn running_costs_save_the_rate_in_the_month_they_are_paid() {
    let e = taxed(&macrs("half-year"), "", "");
    let r = common::scenario(&e, "mix");
    for (k, (l, m)) in lines(r).iter().zip(&r.ledger.months).enumerate() {
        let k = u32::try_from(k).unwrap();
        let running = dec!(10000) + dec!(24.72) * days(k) * dec!(2.00);
        assert_eq!(l.running_costs, running, "month {k}");
        let deductions = running + l.depreciation + l.disposal;
        assert_eq!(l.deductions, deductions, "month {k}");
        assert_eq!(l.saving, dec!(0.21) * deductions, "month {k}");
        assert_eq!(l.after_tax_cash, m.cash.total() - l.saving, "month {k}");
    }
    let january = lines(r)[0];
    assert_eq!(january.running_costs, dec!(11532.64));
    assert_eq!(january.saving, dec!(2421.8544));
    // The totals: every saving added up, and with nothing after the horizon the after-tax
    // decision total is the after-tax cash; at a 0 discount rate so is the NPV.
    let t = r.totals.after_tax.as_ref().expect("after-tax totals");
    let saved: Decimal = lines(r).iter().map(|l| l.saving).sum();
    assert_eq!(t.saving, saved);
    assert_eq!(
        t.saving,
        t.saving_running_costs + t.saving_depreciation + t.saving_interest + t.saving_lease + t.saving_disposal
    );
    assert_eq!(t.saving_depreciation, dec!(0.21) * dec!(7120));
    assert_eq!(t.saving_disposal, dec!(0.21) * dec!(-120));
    assert_eq!(t.total_cash, r.totals.total_cash - saved);
    assert_eq!(t.decision_total, t.total_cash);
    assert_eq!(t.npv, t.total_cash);
}

/// A loan: its interest is deducted as paid, its principal never (the hardware is depreciated
/// as when bought for cash). The interest of the whole loan is the payments less the 10,000
/// borrowed.
#[test]
fn loan_interest_is_deducted_and_principal_is_not() {
    let e = taxed(
        &macrs("half-year"),
        r#", "financing": { "method": "loan", "annual_rate": "0.12", "term_months": 12, "down_payment": "0" }"#,
        "",
    );
    let r = common::scenario(&e, "mix");
    for (l, m) in lines(r).iter().zip(&r.ledger.months) {
        assert_eq!(l.interest, m.book.get(Category::Financing));
    }
    let interest: Decimal = lines(r).iter().map(|l| l.interest).sum();
    let paid = r.ledger.cash_totals().get(Category::Financing);
    // To the ledger's scale: each month's cells are rounded once to 10 decimals, the interest
    // line on its own and the cash payment (interest and principal) as one.
    assert!(
        (interest - (paid - dec!(10000))).abs() <= dec!(0.000000001),
        "{interest} {paid}"
    );
    assert!(interest > Decimal::ZERO);
    // The same depreciation and disposal as the cash purchase.
    let mut want = vec![Decimal::ZERO; 36];
    want[11] = dec!(2000);
    want[23] = dec!(3200);
    want[35] = dec!(1920);
    assert_eq!(depreciation(r), want);
    assert_eq!(lines(r)[35].disposal, dec!(-120));
}

/// A lease: the lessee deducts each payment and does not depreciate the leased hardware; nothing
/// is sold at the horizon.
#[test]
fn lease_payments_are_deducted_and_leased_hardware_is_not_depreciated() {
    let e = taxed(
        &macrs("half-year"),
        r#", "financing": { "method": "lease", "annual_rate": "0.09", "term_months": 24 }"#,
        "",
    );
    let r = common::scenario(&e, "mix");
    for (l, m) in lines(r).iter().zip(&r.ledger.months) {
        assert_eq!(l.lease, m.cash.get(Category::Financing));
        assert!(l.depreciation.is_zero() && l.disposal.is_zero() && l.interest.is_zero());
    }
    let payments: Vec<Decimal> = r
        .ledger
        .months
        .iter()
        .map(|m| m.cash.get(Category::Financing))
        .collect();
    assert_eq!(payments.iter().filter(|p| !p.is_zero()).count(), 24);
}

/// Mid-quarter: delivered in month 9 (October 2027, the fourth quarter of a calendar tax year),
/// so year 1 counts 1/8 of a year: 40% × 1/8 = 5% (Table A-5's 5.00), then 38% and 22.8%; the
/// rest at the horizon: 10,000 − (500 + 3,800 + 2,280) − 3,000 = 420.
#[test]
fn mid_quarter_takes_the_quarter_of_the_month_placed_in_service() {
    let e = taxed(
        &macrs("mid-quarter"),
        "",
        r#", "lead_time_months": 9, "lead_time_reason": "test: delivered in October""#,
    );
    let r = common::scenario(&e, "mix");
    let mut want = vec![Decimal::ZERO; 36];
    want[11] = dec!(10000) * dec!(0.4) / dec!(8);
    assert_eq!(want[11], dec!(10000) * dec!(0.05));
    want[23] = dec!(10000) * dec!(0.38);
    want[35] = dec!(10000) * dec!(0.228);
    assert_eq!(depreciation(r), want);
    assert_eq!(lines(r)[35].disposal, dec!(10000) - dec!(6580) - dec!(3000));
}

/// A tax year from April: delivered in January 2027, the last month of the tax year April 2026
/// to March 2027, so year 1 (20%) is deducted in March (month 2), year 2 in March 2028 (month 14),
/// year 3 in March 2029 (month 26), and the rest at the horizon: 10,000 − 7,120 − 3,000 = −120.
#[test]
fn the_tax_year_follows_the_fiscal_year_start_month() {
    let tax = r#"{ "rate": "0.21", "method": "macrs-gds", "recovery_years": 5, "convention": "half-year",
        "fiscal_year_start_month": 4, "reason": "a company whose tax year starts in April" }"#;
    let e = taxed(tax, "", "");
    let r = common::scenario(&e, "mix");
    let mut want = vec![Decimal::ZERO; 36];
    want[2] = dec!(2000);
    want[14] = dec!(3200);
    want[26] = dec!(1920);
    assert_eq!(depreciation(r), want);
    assert_eq!(lines(r)[35].disposal, dec!(-120));
}

/// A preset fills every figure: the shipped `us-federal-macrs5` books the same lines as the
/// figures written out, and each figure is an assumption citing its sources.
#[test]
fn a_preset_gives_the_same_lines_and_cites_its_sources() {
    let written = taxed(&macrs("half-year"), "", "");
    let preset = common::run_shipped(&file(r#""tax": { "preset": "us-federal-macrs5" },"#, "", ""));
    let (a, b) = (common::scenario(&written, "mix"), common::scenario(&preset, "mix"));
    assert_eq!(depreciation(a), depreciation(b));
    let rate = b.assumptions.iter().find(|x| x.path == "tax.rate").expect("the rate");
    assert_eq!(rate.value, dec!(0.21));
    match &rate.origin {
        Origin::Catalog { entry, sources, .. } => {
            assert_eq!(entry, "us-federal-macrs5");
            assert!(sources.iter().any(|s| s.contains("section 11")), "{sources:?}");
        }
        Origin::Override { .. } | Origin::Derived { .. } => panic!("the preset's rate is a catalog figure"),
    }
    // The schedule, year by year, as Table A-1 prints it.
    let schedule: Vec<Decimal> = (1..=6)
        .map(|y| {
            b.assumptions
                .iter()
                .find(|x| x.path == format!("tax.schedule.year_{y}"))
                .expect("a year of the schedule")
                .value
        })
        .collect();
    assert_eq!(
        schedule,
        [
            dec!(0.2),
            dec!(0.32),
            dec!(0.192),
            dec!(0.1152),
            dec!(0.1152),
            dec!(0.0576)
        ]
    );
    // The written-out figures are the user's, with their reason.
    let own = a.assumptions.iter().find(|x| x.path == "tax.rate").expect("the rate");
    assert!(matches!(&own.origin, Origin::Override { reason } if reason.contains("IRC")));
}

/// Without a tax profile nothing changes: no tax lines, no after-tax totals, no basis stated, and
/// the serialised ledger month carries no `tax` key.
#[test]
fn a_file_without_a_profile_has_no_tax_figures() {
    let e = common::run(&file("", "", ""));
    let r = common::scenario(&e, "mix");
    assert!(r.ledger.months.iter().all(|m| m.tax.is_none()));
    assert!(r.totals.after_tax.is_none());
    assert_eq!(e.ranked_on, None);
    assert!(!r.assumptions.iter().any(|a| a.path.starts_with("tax.")));
    let json = serde_json::to_value(&r.ledger.months[0]).unwrap();
    assert!(json.get("tax").is_none(), "{json}");
    let view = serde_json::to_value(decision_view(&e, None)).unwrap();
    assert!(view.get("ranked_on").is_none());
    // And the before-tax figures are those of the same file with a profile.
    let t = taxed(&macrs("half-year"), "", "");
    assert_eq!(
        common::scenario(&t, "mix").totals.decision_total,
        r.totals.decision_total
    );
}

/// Two scenarios that both leave work undone: `thin` pays less and leaves more undone, `wide`
/// pays more and leaves less. Unserved work is a shadow price, not a payment, so tax saves
/// nothing on it: with `wide`'s spend set between the two bounds worked out below, `thin` is the
/// cheaper before tax and `wide` after tax. The ranking follows the profile's `rank` and the
/// decision view says which basis it used.
#[test]
fn the_ranking_uses_the_basis_the_profile_names() {
    let text = |tax: &str, wide_price: &str| {
        format!(
            r#"{{
  "format_version": 1, "title": "rank", "currency": "USD", "start": "2027-01",
  "horizon_months": 12, "discount_rate": "0", {tax}
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "48", "gpu_hours_on": "nvidia-rtx-4090" }}],
  "scenarios": [
    {{ "id": "thin", "name": "thin", "layers": [{{ "id": "c", "kind": "on-demand", "accelerator": "nvidia-rtx-4090",
       "gpus": 1, "availability": "0.5", "price_per_gpu_hour": {{ "value": "0.10", "reason": "test" }} }}] }},
    {{ "id": "wide", "name": "wide", "layers": [{{ "id": "c", "kind": "on-demand", "accelerator": "nvidia-rtx-4090",
       "gpus": 1, "price_per_gpu_hour": {{ "value": "{wide_price}", "reason": "test" }} }}] }}]
}}"#
        )
    };
    // The shadow cost of each scenario's undone work does not depend on the prices it pays.
    let probe = common::run(&text("", "0"));
    let (u_thin, u_wide) = (
        common::scenario(&probe, "thin").totals.unserved_cost,
        common::scenario(&probe, "wide").totals.unserved_cost,
    );
    let hours: Decimal = (0..12).map(days).sum::<Decimal>() * dec!(24);
    let paid_thin = hours * dec!(0.5) * dec!(0.10);
    // Before tax `thin` is cheaper when wide's spend W > paid_thin + u_thin − u_wide; after tax
    // at 21% `wide` is when 0.79 W < 0.79 paid_thin + u_thin − u_wide. Take W between the two.
    let low = paid_thin + u_thin - u_wide;
    let high = paid_thin + (u_thin - u_wide) / dec!(0.79);
    assert!(low < high && low > Decimal::ZERO, "{low} {high}");
    let spend = (low + high) / dec!(2);
    let price = (spend / hours).round_dp(6);
    let spend = price * hours;
    let profile = |rank: &str| {
        format!(
            r#""tax": {{ "rate": "0.21", "method": "straight-line", "recovery_years": 3, "rank": "{rank}", "reason": "test" }},"#
        )
    };
    let order = |e: &Evaluation| ranking(e).iter().map(|s| s.id.clone()).collect::<Vec<_>>();
    let none = common::run(&text("", &price.to_string()));
    assert_eq!(order(&none), ["thin", "wide"]);
    let after = common::run(&text(&profile("after-tax"), &price.to_string()));
    assert_eq!(order(&after), ["wide", "thin"]);
    assert_eq!(after.ranked_on, Some(TaxBasis::AfterTax));
    // The after-tax decision totals, by hand: 79% of what is paid, plus the shadow cost.
    let at = |id: &str| {
        common::scenario(&after, id)
            .totals
            .after_tax
            .as_ref()
            .unwrap()
            .decision_total
    };
    assert_eq!(at("thin"), paid_thin * dec!(0.79) + u_thin);
    assert_eq!(at("wide"), spend * dec!(0.79) + u_wide);
    let view = decision_view(&after, None);
    assert_eq!(view.ranked_on, Some(TaxBasis::AfterTax));
    let rank_of = |id: &str| view.scenarios.iter().find(|s| s.id == id).unwrap().rank;
    assert_eq!((rank_of("wide"), rank_of("thin")), (1, 2));
    let before = common::run(&text(&profile("before-tax"), &price.to_string()));
    assert_eq!(order(&before), ["thin", "wide"]);
    assert_eq!(before.ranked_on, Some(TaxBasis::BeforeTax));
    assert_eq!(decision_view(&before, None).ranked_on, Some(TaxBasis::BeforeTax));
}

/// Refusals name the field: an unknown preset, figures without a reason, figures missing
/// without a preset, a rate or a month out of range, and what the depreciation block refuses.
#[test]
fn a_bad_profile_is_refused_at_its_field() {
    let problems = |tax: &str| -> Vec<String> {
        let f = parse(&file(&format!(r#""tax": {tax},"#), "", "")).unwrap();
        match validate(&common::catalog(), &f, None) {
            Ok(_) => Vec::new(),
            Err(p) => p.into_iter().map(|p| p.path).collect(),
        }
    };
    assert_eq!(problems(r#"{ "preset": "nowhere" }"#), ["tax.preset"]);
    assert_eq!(
        problems(r#"{ "rate": "0.21", "method": "straight-line", "recovery_years": 3 }"#),
        ["tax.reason"]
    );
    assert_eq!(
        problems(r#"{ "convention": "half-year", "reason": "r" }"#),
        ["tax.rate", "tax.method", "tax.recovery_years"]
    );
    assert_eq!(
        problems(r#"{ "rate": "1.5", "method": "straight-line", "recovery_years": 3, "reason": "r" }"#),
        ["tax.rate"]
    );
    assert_eq!(
        problems(
            r#"{ "rate": "0.2", "method": "straight-line", "recovery_years": 3, "fiscal_year_start_month": 13, "reason": "r" }"#
        ),
        ["tax.fiscal_year_start_month"]
    );
    assert_eq!(
        problems(
            r#"{ "rate": "0.2", "method": "macrs-gds", "recovery_years": 6, "convention": "half-year", "reason": "r" }"#
        ),
        ["tax.recovery_years"]
    );
    assert_eq!(
        problems(r#"{ "rate": "0.2", "method": "macrs-gds", "recovery_years": 5, "reason": "r" }"#),
        ["tax.convention"]
    );
    assert_eq!(
        problems(
            r#"{ "rate": "0.2", "method": "straight-line", "recovery_years": 3, "bonus_share": "2", "reason": "r" }"#
        ),
        ["tax.bonus_share"]
    );
    // An unknown key is refused when the file is read.
    let err = parse(&file(r#""tax": { "rate": "0.2", "sideways": 1 },"#, "", "")).unwrap_err();
    assert!(err.path.starts_with("tax"), "{}: {}", err.path, err.message);
}

/// What falls due after the horizon (here six months of a one-year reservation signed in month
/// 6 of a 12-month plan) is deducted when it falls due: the after-tax decision total adds it less
/// 21% of it. At a tax rate of 0 nothing is saved, so the after-tax NPV is the NPV itself, on
/// the same decision basis and discounting (8% a year).
#[test]
fn commitments_after_the_horizon_are_deducted_when_they_fall_due() {
    let text = |rate: &str| {
        format!(
            r#"{{
  "format_version": 1, "title": "tail", "currency": "USD", "start": "2027-01",
  "horizon_months": 12, "discount_rate": "0.08",
  "tax": {{ "rate": "{rate}", "method": "straight-line", "recovery_years": 3, "reason": "test" }},
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "24", "gpu_hours_on": "nvidia-h100-sxm" }}],
  "scenarios": [{{ "id": "res", "name": "res", "layers": [
    {{ "id": "block", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 1, "start_month": 6,
      "price_per_gpu_hour": {{ "value": "2.10", "reason": "test" }} }},
    {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
      "price_per_gpu_hour": {{ "value": "3.00", "reason": "test" }} }}] }}]
}}"#
        )
    };
    let e = common::run(&text("0.21"));
    let r = common::scenario(&e, "res");
    let after = r.totals.commitments_after_horizon;
    // Months 12 to 17, January to June 2028 (a leap year: 31 + 29 + 31 + 30 + 31 + 30 = 182
    // days), at 2.10 an hour: 182 × 24 × 2.10.
    assert_eq!(after, dec!(182) * dec!(24) * dec!(2.10));
    let t = r.totals.after_tax.as_ref().unwrap();
    assert_eq!(t.saving_after_horizon, dec!(0.21) * after);
    assert_eq!(t.decision_total, t.total_cash + after - dec!(0.21) * after);
    let zero = common::run(&text("0"));
    let z = common::scenario(&zero, "res");
    let zt = z.totals.after_tax.as_ref().unwrap();
    assert_eq!(zt.npv, z.totals.npv);
    assert_eq!(zt.decision_total, z.totals.decision_total);
}

/// An early sale, as a plan variant books it: two 4090s (basis 20,000), one sold in month 18 for
/// half its price (5,000). Year 1 took 20% of 20,000 = 4,000 in month 11; the sold GPU carries
/// half the basis, so 0.5 × (20,000 − 4,000) − 5,000 = 3,000 is deducted in month 18; the one
/// kept depreciates on: 0.5 × 20,000 × 32% = 3,200 and × 19.2% = 1,920; at the horizon 10,000 −
/// (2,000 + 3,200 + 1,920) − 3,000 of resale = −120. In all 20,000 − 5,000 − 3,000 = 12,000.
/// Both sold in month 18: 20,000 − 4,000 − 10,000 = 6,000 then, nothing after.
#[test]
fn an_early_sale_deducts_the_sold_share_of_the_basis_less_its_proceeds() {
    use planner_core::engine::costing::evaluate::evaluate;
    use planner_core::engine::model::scenario::Retirement;
    let text = file(&format!(r#""tax": {},"#, macrs("half-year")), "", "").replace(r#""gpus": 1,"#, r#""gpus": 2,"#);
    let plan = validate(&common::catalog(), &parse(&text).unwrap(), None).unwrap();
    let sold = |gpus: u32| {
        let mut p = plan.clone();
        let owned = p.scenarios[0].layers[0].owned.as_mut().unwrap();
        owned.retired = Some(Retirement {
            month: 18,
            gpus,
            resale_share: dec!(0.5),
        });
        evaluate(&p)
    };
    let one = sold(1);
    let r = common::scenario(&one, "mix");
    let at = |k: usize| (lines(r)[k].depreciation, lines(r)[k].disposal);
    assert_eq!(at(11), (dec!(4000), Decimal::ZERO));
    assert_eq!(
        at(18),
        (Decimal::ZERO, dec!(0.5) * (dec!(20000) - dec!(4000)) - dec!(5000))
    );
    assert_eq!(at(23), (dec!(0.5) * dec!(20000) * dec!(0.32), Decimal::ZERO));
    assert_eq!(at(35), (dec!(1920), dec!(10000) - dec!(7120) - dec!(3000)));
    let life: Decimal = lines(r).iter().map(|l| l.depreciation + l.disposal).sum();
    assert_eq!(life, dec!(20000) - dec!(5000) - dec!(3000));
    let both = sold(2);
    let r = common::scenario(&both, "mix");
    assert_eq!(lines(r)[18].disposal, dec!(20000) - dec!(4000) - dec!(10000));
    let after: Decimal = lines(r)[19..].iter().map(|l| l.depreciation + l.disposal).sum();
    assert_eq!(after, Decimal::ZERO);
}
