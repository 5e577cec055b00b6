//! Quotes carry their terms (issue #19): a reservation of any whole number of months, exit terms
//! that become the layer's exit clause, and SLA and service terms that reach the scorecard.
//! Expected figures are recomputed here from the inputs (month lengths from an independent day
//! count), never typed in.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::costing::evaluate::evaluate;
use planner_core::engine::input::scenario_file::{CommitTerm, LayerSpec, ScenarioFile, parse, to_json};
use planner_core::engine::model::ledger::Category;
use planner_core::engine::resolve::validate::validate;
use planner_core::engine::workspace::content::WorkspaceSettings;
use planner_core::exit_clause::{ExitClause, TerminationFee};
use planner_core::problem::Problem;
use planner_core::rfp::quote::{Cell, Quote, QuoteTable, TableRow, parse_quotes};
use planner_core::rfp::scorecard::{VendorInput, axis_scores};
use planner_core::rfp::vendors::{VendorEntry, entry_from_quotes, vendor_terms};
use rust_decimal::Decimal;
use rust_decimal::dec;

const START_YEAR: u32 = 2027;

/// Days in the `k`-th month after January of `START_YEAR` ([`common::month_days`]).
fn days(k: u32) -> u32 {
    common::month_days(START_YEAR, k)
}

fn hours(k: u32) -> Decimal {
    Decimal::from(days(k) * 24)
}

fn settings() -> WorkspaceSettings {
    WorkspaceSettings::new("RFP", format!("{START_YEAR}-01").parse().unwrap())
}

/// A table of text cells as a CSV file holds them: a header, then rows.
fn table(rows: &[&[&str]]) -> QuoteTable {
    QuoteTable {
        file: "quotes.csv".into(),
        rows: rows
            .iter()
            .zip(1..)
            .map(|(r, row)| TableRow {
                row,
                cells: r
                    .iter()
                    .map(|t| {
                        if t.is_empty() {
                            Cell::Empty
                        } else {
                            Cell::Text((*t).to_owned())
                        }
                    })
                    .collect(),
            })
            .collect(),
    }
}

const HEADER: &[&str] = &[
    "vendor",
    "quote_id",
    "offer_kind",
    "accelerator",
    "gpus",
    "currency",
    "price_per_gpu_hour",
    "lead_time_months",
    "commitment_months",
    "egress_per_tb",
    "exit_notice_months",
    "exit_fee",
    "exit_data_tb",
    "exit_offboarding",
    "sla_uptime",
    "sla_refund_share",
    "response_hours",
    "expert_hours_per_month",
    "valid_until",
];

/// The quotes of one table with `HEADER`, read against the engine test catalog.
fn quotes(rows: &[&[&str]]) -> Vec<Quote> {
    let mut all: Vec<&[&str]> = vec![HEADER];
    all.extend_from_slice(rows);
    parse_quotes(&table(&all), &common::catalog(), &settings()).unwrap_or_else(|e| panic!("{e:#?}"))
}

/// A scenario file over 12 months from January 2027, one steady workload, and `layers`.
fn file_with(layers: Vec<LayerSpec>) -> ScenarioFile {
    let mut file = parse(&format!(
        r#"{{
      "format_version": 1, "title": "quote terms", "currency": "USD", "start": "{START_YEAR}-01",
      "horizon_months": 12, "discount_rate": "0.08",
      "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "100", "gpu_hours_on": "nvidia-h100-sxm" }}],
      "scenarios": [{{ "id": "base", "name": "base", "layers": [] }}]
    }}"#
    ))
    .unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message));
    file.scenarios[0].layers = layers;
    // Through the file's own text, as a scenario file carries the layer.
    parse(&to_json(&file)).unwrap_or_else(|p| panic!("reparse: {} {}", p.path, p.message))
}

fn problems_of(file: &ScenarioFile) -> Vec<Problem> {
    match validate(&common::catalog(), file, None) {
        Ok(_) => Vec::new(),
        Err(p) => p,
    }
}

#[test]
fn a_six_month_capacity_block_books_exactly_six_months() {
    let q = quotes(&[&[
        "Blockly",
        "CB-6",
        "reserved",
        "nvidia-h100-sxm",
        "8",
        "USD",
        "3.10",
        "1",
        "6",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "2027-03-31",
    ]]);
    let layer = q[0].to_layer_spec("block", &settings()).unwrap();
    assert_eq!(layer.term, Some(CommitTerm::Months(6)));
    assert_eq!(layer.term.map(CommitTerm::months), Some(6));
    assert_eq!(
        layer.start_month, 1,
        "the capacity starts after the one-month lead time"
    );
    assert_eq!(
        serde_json::to_value(layer.term).unwrap(),
        serde_json::json!({ "months": 6 })
    );
    let file = file_with(vec![layer]);
    assert!(to_json(&file).contains(r#""term": {"#), "{}", to_json(&file));
    let plan = validate(&common::catalog(), &file, None).unwrap_or_else(|p| panic!("{p:#?}"));
    let e = evaluate(&plan);
    let s = &e.scenarios[0];
    // 8 GPUs × the hours of each calendar month × 3.10, in months 1 to 6 and no others.
    let mut booked = Decimal::ZERO;
    for (k, month) in (0..).zip(&s.ledger.months) {
        let expected = if (1..7).contains(&k) {
            dec!(8) * hours(k) * dec!(3.10)
        } else {
            Decimal::ZERO
        };
        assert_eq!(month.cash.get(Category::Commitments), expected, "month {k}");
        booked += month.cash.get(Category::Commitments);
    }
    let by_hand: Decimal = (1..7).map(|k| dec!(8) * hours(k) * dec!(3.10)).sum();
    assert_eq!(booked, by_hand);
    // February to July 2027: 28 + 31 + 30 + 31 + 30 + 31 days.
    assert_eq!(by_hand, dec!(8) * Decimal::from(181 * 24) * dec!(3.10));
    assert_eq!(s.totals.commitments_after_horizon, Decimal::ZERO);
    // The price is the quote's, named in the assumptions.
    assert!(
        s.assumptions
            .iter()
            .any(|a| a.path.ends_with("price_per_gpu_hour") && a.value == dec!(3.10)),
        "{:?}",
        s.assumptions
    );
}

#[test]
fn a_term_reads_as_1y_3y_or_months_and_old_files_read_as_before() {
    let term = |json: &str| serde_json::from_str::<CommitTerm>(json);
    assert_eq!(term(r#""1y""#).unwrap(), CommitTerm::OneYear);
    assert_eq!(term(r#""3y""#).unwrap(), CommitTerm::ThreeYears);
    assert_eq!(term(r#"{"months": 6}"#).unwrap(), CommitTerm::Months(6));
    // Twelve months are one year, however written; the short form is written for 12 and 36.
    assert_eq!(term(r#"{"months": 12}"#).unwrap(), CommitTerm::OneYear);
    assert_eq!(CommitTerm::of_months(36), CommitTerm::ThreeYears);
    assert_eq!(serde_json::to_string(&CommitTerm::of_months(12)).unwrap(), r#""1y""#);
    assert_eq!(
        serde_json::to_string(&CommitTerm::of_months(24)).unwrap(),
        r#"{"months":24}"#
    );
    for bad in [r#""2y""#, "6", r#"{"months": "6"}"#, r#"{"weeks": 2}"#] {
        assert!(term(bad).is_err(), "{bad}");
    }
    // The shipped sample still reads, validates and keeps its terms as written.
    let text = std::fs::read_to_string(format!(
        "{}/../../../catalogs/samples/enterprise-hybrid.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let file = parse(&text).unwrap();
    assert!(to_json(&file).contains(r#""term": "3y""#));
    validate(&common::shipped_catalog(), &file, None).unwrap_or_else(|p| panic!("{p:#?}"));
}

/// A reserved layer on the catalog offer `aws-p5-h100` with `term` and no quoted price.
fn offer_layer(term: CommitTerm) -> LayerSpec {
    let mut l = planner_core::engine::input::scenario_file::empty_layer(
        "res",
        planner_core::engine::input::scenario_file::LayerKind::Reserved,
    );
    l.offer = Some("aws-p5-h100".into());
    l.gpus = Some(4);
    l.term = Some(term);
    l
}

#[test]
fn a_term_the_catalog_does_not_price_needs_the_quoted_price_named() {
    // `{"months": 12}` takes the catalog's one-year price, as "1y" does.
    let twelve = file_with(vec![offer_layer(CommitTerm::Months(12))]);
    assert_eq!(problems_of(&twelve), Vec::new());
    let one_year = file_with(vec![offer_layer(CommitTerm::OneYear)]);
    let price = |f: &ScenarioFile| {
        let plan = validate(&common::catalog(), f, None).unwrap();
        plan.scenarios[0].layers[0].price_per_gpu_hour
    };
    assert_eq!(price(&twelve), price(&one_year));
    // One month: no catalog price, so the quoted price is required, by name.
    let p = problems_of(&file_with(vec![offer_layer(CommitTerm::Months(1))]));
    assert_eq!(p.len(), 1, "{p:#?}");
    assert_eq!(p[0].path, "scenarios[0].layers[0].price_per_gpu_hour");
    assert!(p[0].message.contains("`price_per_gpu_hour`"), "{}", p[0].message);
    assert!(p[0].message.contains("1 month"), "{}", p[0].message);
    // With the quoted price it resolves, and commits for the one month.
    let mut quoted = offer_layer(CommitTerm::Months(1));
    quoted.price_per_gpu_hour = Some(planner_core::engine::input::scenario_file::Override {
        value: dec!(4.50),
        currency: None,
        reason: "one-month block, quote 7".into(),
    });
    let plan = validate(&common::catalog(), &file_with(vec![quoted]), None).unwrap();
    assert_eq!(plan.scenarios[0].layers[0].until_month, Some(1));
    // Zero months commit nothing; more than 120 outlast any plan.
    for months in [0, 121] {
        let p = problems_of(&file_with(vec![offer_layer(CommitTerm::Months(months))]));
        assert!(
            p.iter().any(|p| p.path == "scenarios[0].layers[0].term.months"),
            "{months}: {p:#?}"
        );
    }
}

#[test]
fn a_one_month_quote_without_a_price_is_refused_naming_price_per_gpu_hour() {
    let mut all: Vec<&[&str]> = vec![HEADER];
    all.push(&[
        "Blockly",
        "CB-1",
        "reserved",
        "nvidia-h100-sxm",
        "8",
        "USD",
        "",
        "",
        "1",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "2027-03-31",
    ]);
    let e = parse_quotes(&table(&all), &common::catalog(), &settings()).unwrap_err();
    assert_eq!(e.details.len(), 1, "{e:#?}");
    let d = &e.details[0];
    assert_eq!(
        (d.line, d.column, d.field.as_deref()),
        (Some(2), Some(7), Some("price_per_gpu_hour"))
    );
    assert!(d.message.contains("`price_per_gpu_hour`"), "{}", d.message);
}

#[test]
fn a_25_percent_exit_fee_is_a_share_of_the_remaining_commitment() {
    // 8 GPUs at 2.10 for 12 months; one month's notice, 25% of what remains once it has run,
    // 100 TB out at the quote's egress price of 90, and 5,000 to offboard.
    let q = quotes(&[&[
        "Nimbus",
        "R-12",
        "reserved",
        "nvidia-h100-sxm",
        "8",
        "USD",
        "2.10",
        "",
        "12",
        "90",
        "1",
        "25%",
        "100",
        "5000",
        "",
        "",
        "",
        "",
        "2027-03-31",
    ]]);
    assert_eq!(q[0].exit_fee, Some(TerminationFee::ShareOfRemaining(dec!(0.25))));
    let layer = q[0].to_layer_spec("res", &settings()).unwrap();
    assert_eq!(layer.term, Some(CommitTerm::OneYear));
    assert_eq!(
        layer.exit_clause,
        Some(ExitClause {
            notice_months: 1,
            fee: TerminationFee::ShareOfRemaining(dec!(0.25)),
            egress_per_tb: dec!(90),
            data_tb: dec!(100),
            offboarding: dec!(5000),
        })
    );
    let plan = validate(&common::catalog(), &file_with(vec![layer]), None).unwrap_or_else(|p| panic!("{p:#?}"));
    let e = evaluate(&plan);
    let costs = &e.scenarios[0].exit_costs;
    assert_eq!(costs.len(), 1);
    let at2 = &costs[0].curve[2];
    // By hand: notice in month 2 takes effect in month 3; month 2 is still owed; months 3..12
    // are avoided, and a quarter of them is the fee.
    let owed = |k: u32| dec!(8) * hours(k) * dec!(2.10);
    let during: Decimal = owed(2);
    let remaining: Decimal = (3..12).map(owed).sum();
    let fee = dec!(0.25) * remaining;
    let egress = dec!(90) * dec!(100);
    assert_eq!(at2.effective_month, 3);
    assert!(at2.early);
    assert_eq!(at2.due_during_notice, during);
    assert_eq!(at2.avoided, remaining);
    assert_eq!(at2.termination_fee, fee);
    assert_eq!(at2.egress, egress);
    assert_eq!(at2.offboarding, dec!(5000));
    assert_eq!(at2.total, during + fee + egress + dec!(5000));
    assert_eq!(at2.net_saving, remaining - (fee + egress + dec!(5000)));
}

#[test]
fn a_fee_is_fixed_or_a_share_and_exit_terms_need_their_notice_and_fee() {
    let fee = |cell: &str| {
        quotes(&[&[
            "Nimbus",
            "R",
            "reserved",
            "nvidia-h100-sxm",
            "8",
            "USD",
            "2.10",
            "",
            "12",
            "",
            "0",
            cell,
            "",
            "",
            "",
            "",
            "",
            "",
            "2027-03-31",
        ]])[0]
            .exit_fee
    };
    assert_eq!(fee("50000"), Some(TerminationFee::Fixed(dec!(50000))));
    assert_eq!(fee("0"), Some(TerminationFee::Fixed(dec!(0))));
    // A number strictly between 0 and 1 is what a percent-formatted cell holds: a share.
    assert_eq!(fee("0.3"), Some(TerminationFee::ShareOfRemaining(dec!(0.3))));
    assert_eq!(fee("100%"), Some(TerminationFee::ShareOfRemaining(dec!(1))));
    let refused = |rows: &[&[&str]]| {
        let mut all: Vec<&[&str]> = vec![HEADER];
        all.extend_from_slice(rows);
        let e = parse_quotes(&table(&all), &common::catalog(), &settings()).unwrap_err();
        e.details
            .iter()
            .map(|d| (d.field.clone().unwrap_or_default(), d.kind.clone().unwrap_or_default()))
            .collect::<Vec<_>>()
    };
    let pair = |f: &str, k: &str| (f.to_owned(), k.to_owned());
    // A fee without notice; data to move without any egress price; a share above 100%.
    assert_eq!(
        refused(&[&[
            "N",
            "R",
            "reserved",
            "nvidia-h100-sxm",
            "8",
            "USD",
            "2.10",
            "",
            "12",
            "",
            "",
            "10%",
            "50",
            "",
            "",
            "",
            "",
            "",
            "2027-03-31",
        ]]),
        [
            pair("exit_notice_months", "missing-value"),
            pair("exit_data_tb", "missing-value")
        ]
    );
    assert_eq!(
        refused(&[&[
            "N",
            "R",
            "reserved",
            "nvidia-h100-sxm",
            "8",
            "USD",
            "2.10",
            "",
            "12",
            "",
            "2",
            "150%",
            "",
            "",
            "",
            "",
            "",
            "",
            "2027-03-31",
        ]]),
        [pair("exit_fee", "out-of-range")]
    );
    // Exit terms on a quote that commits to nothing.
    assert_eq!(
        refused(&[&[
            "N",
            "OD",
            "on-demand",
            "nvidia-h100-sxm",
            "",
            "USD",
            "4.10",
            "",
            "",
            "",
            "1",
            "5000",
            "",
            "",
            "",
            "",
            "",
            "",
            "2027-03-31",
        ]]),
        [
            pair("exit_notice_months", "not-applicable"),
            pair("exit_fee", "not-applicable")
        ]
    );
}

/// The vendor's scorecard figures as `entry_from_quotes` puts them, with the figures a quote
/// file does not carry equal for every vendor.
fn input(entry: &VendorEntry, compliance: Decimal) -> VendorInput {
    VendorInput {
        name: entry.name.clone(),
        mfu: dec!(0.4),
        annual_failure_rate: dec!(0.05),
        sla: entry.sla.unwrap(),
        sla_refund_share: entry.sla_refund_share.unwrap(),
        tco: dec!(1000000),
        response_hours: entry.response_hours.unwrap(),
        expert_hours_per_month: entry.expert_hours_per_month.unwrap(),
        compliance,
        exit_terms_stated: entry.exit_terms_stated.unwrap(),
    }
}

#[test]
fn promised_uptime_refund_and_expert_hours_score_higher_on_reliability_and_service() {
    let q = quotes(&[
        &[
            "Steady",
            "S-1",
            "on-demand",
            "nvidia-h100-sxm",
            "",
            "USD",
            "4.10",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "99.9%",
            "10%",
            "4",
            "8",
            "2027-03-31",
        ],
        &[
            "Bare",
            "B-1",
            "on-demand",
            "nvidia-h100-sxm",
            "",
            "USD",
            "4.10",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "4",
            "",
            "2027-03-31",
        ],
    ]);
    let steady = entry_from_quotes(None, "Steady", "s", &q);
    let bare = entry_from_quotes(None, "Bare", "b", &q);
    assert_eq!(
        (steady.sla, steady.sla_refund_share, steady.expert_hours_per_month),
        (Some(dec!(0.999)), Some(dec!(0.10)), Some(dec!(8)))
    );
    // What no quote of the vendor promises counts as not promised; the response time it states.
    assert_eq!(
        (
            bare.sla,
            bare.sla_refund_share,
            bare.expert_hours_per_month,
            bare.response_hours
        ),
        (Some(dec!(0)), Some(dec!(0)), Some(dec!(0)), Some(dec!(4)))
    );
    let axes = axis_scores(&[input(&steady, dec!(1)), input(&bare, dec!(1))]).unwrap();
    // Reliability: failure rate equal (1 each), uptime and refund 1 against 0: sums 3 and 1,
    // scaled again to 1 and 0. Service: response equal (1 each), expert hours 1 against 0.
    assert_eq!((axes[0].reliability, axes[1].reliability), (dec!(1), dec!(0)));
    assert_eq!((axes[0].service, axes[1].service), (dec!(1), dec!(0)));
    // Everything else is equal, so every weight that counts either axis ranks Steady first.
    for a in [
        axes[0].performance - axes[1].performance,
        axes[0].cost - axes[1].cost,
        axes[0].compliance - axes[1].compliance,
    ] {
        assert_eq!(a, Decimal::ZERO);
    }
    // A figure the buyer typed is kept where no quote states one.
    let typed = VendorEntry {
        sla: Some(dec!(0.99)),
        ..bare.clone()
    };
    assert_eq!(entry_from_quotes(Some(&typed), "Bare", "b", &q).sla, Some(dec!(0.99)));
}

#[test]
fn stated_exit_terms_count_for_half_of_a_cleared_vendors_compliance() {
    let q = quotes(&[
        &[
            "Open",
            "O-1",
            "reserved",
            "nvidia-h100-sxm",
            "8",
            "USD",
            "2.10",
            "",
            "12",
            "",
            "3",
            "25%",
            "",
            "",
            "",
            "",
            "4",
            "",
            "2027-03-31",
        ],
        &[
            "Closed",
            "C-1",
            "reserved",
            "nvidia-h100-sxm",
            "8",
            "USD",
            "2.10",
            "",
            "12",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "4",
            "",
            "2027-03-31",
        ],
    ]);
    assert_eq!(vendor_terms("Open", &q).exit_terms_stated, dec!(1));
    assert_eq!(vendor_terms("Closed", &q).exit_terms_stated, dec!(0));
    let open = entry_from_quotes(None, "Open", "o", &q);
    let closed = entry_from_quotes(None, "Closed", "c", &q);
    // Both cleared in full: 1 × (1 + 1) / 2 = 1 against 1 × (1 + 0) / 2 = 0.5.
    let axes = axis_scores(&[input(&open, dec!(1)), input(&closed, dec!(1))]).unwrap();
    assert_eq!((axes[0].compliance, axes[1].compliance), (dec!(1), dec!(0)));
    // Not cleared: 0 whatever the exit terms, below a cleared vendor that states none.
    let axes = axis_scores(&[input(&open, dec!(0)), input(&closed, dec!(0.8))]).unwrap();
    assert_eq!((axes[0].compliance, axes[1].compliance), (dec!(0), dec!(1)));
    // With the same exit terms everywhere the axis is the checklist's alone.
    let named = |name: &str, checklist: Decimal| VendorInput {
        name: name.into(),
        ..input(&closed, checklist)
    };
    let axes = axis_scores(&[named("A", dec!(1)), named("B", dec!(0.5)), named("C", dec!(0))]).unwrap();
    let shown: Vec<Decimal> = axes.iter().map(|a| a.compliance).collect();
    assert_eq!(shown, [dec!(1), dec!(0.5), dec!(0)]);
}
