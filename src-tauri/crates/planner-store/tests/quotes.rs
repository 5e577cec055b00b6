//! RFP quote import: good CSV and XLSX files import to exactly the expected quotes; broken files
//! (wrong types, missing or unknown columns, duplicate quotes, empty files, unknown accelerators,
//! negative prices, kind rules, currencies) are refused whole with every problem located to its
//! row, column and template column; imported quotes become layers the engine evaluates, with the
//! quote as the reason of every quoted price.
//!
//! The CSV fixtures are in `tests/fixtures/quotes/`; the XLSX files are written by the tests with
//! rust_xlsxwriter, so no binary fixture needs reviewing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_core::catalog::Catalog;
use planner_core::catalog::provenance::AsOf;
use planner_core::engine::input::scenario_file::{self, CommitTerm, FxRate, LayerKind, ScenarioSpec, WorkloadSpec};
use planner_core::engine::model::assumption::Origin;
use planner_core::engine::workspace::content::{WorkspaceSettings, evaluate_selection, from_scenario_file};
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::exit_clause::{ExitClause, TerminationFee};
use planner_core::rfp::quote::{Quote, QuoteKind, QuoteSource};
use planner_store::read_quotes;
use rust_decimal::Decimal;
use rust_decimal::dec;
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/quotes")
        .join(name)
}

fn catalog() -> Catalog {
    planner_store::load_catalog_dir(&repo().join("catalogs")).unwrap()
}

/// The enterprise-hybrid sample: its settings (USD) with a EUR rate, its workloads and scenarios.
fn sample() -> (WorkspaceSettings, Vec<WorkloadSpec>, Vec<ScenarioSpec>) {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    let (mut settings, workloads, scenarios) = from_scenario_file(scenario_file::parse(&text).unwrap());
    settings.fx.push(FxRate::market(
        "EUR",
        "USD",
        dec!(1.08),
        "ECB reference rate 2026-11-20",
    ));
    (settings, workloads, scenarios)
}

fn settings() -> WorkspaceSettings {
    sample().0
}

fn date(text: &str) -> AsOf {
    text.parse().unwrap()
}

/// The quotes of `good.csv` (and of the equivalent workbook), read from `file`.
fn expected(file: &Path) -> Vec<Quote> {
    let source = |row| QuoteSource {
        file: file.display().to_string(),
        row,
    };
    let base = Quote {
        vendor: "Nimbus GPU".into(),
        quote_id: "NG-2027-014".into(),
        offer_kind: QuoteKind::Reserved,
        accelerator: "nvidia-h100-sxm".into(),
        gpus: Some(16),
        currency: "USD".into(),
        price_per_gpu_hour: Some(dec!(2.95)),
        hardware_price_per_gpu: None,
        installation: None,
        support_rate_per_year: None,
        lead_time_months: Some(1),
        commitment_months: Some(36),
        interruptions_per_hour: None,
        egress_per_tb: Some(dec!(0)),
        exit_notice_months: None,
        exit_fee: None,
        exit_egress_per_tb: None,
        exit_data_tb: None,
        exit_offboarding: None,
        sla_uptime: Some(dec!(0.999)),
        sla_refund_share: Some(dec!(0.10)),
        response_hours: Some(dec!(4)),
        expert_hours_per_month: None,
        valid_until: date("2027-03-31"),
        notes: Some("3-year term, billed monthly".into()),
        source: source(2),
    };
    vec![
        base.clone(),
        Quote {
            quote_id: "NG-2027-015".into(),
            offer_kind: QuoteKind::OnDemand,
            gpus: None,
            price_per_gpu_hour: Some(dec!(4.10)),
            lead_time_months: None,
            commitment_months: None,
            sla_uptime: Some(dec!(0.995)),
            sla_refund_share: Some(dec!(0.05)),
            notes: None,
            source: source(3),
            ..base.clone()
        },
        Quote {
            vendor: "Spotty Compute".into(),
            quote_id: "SC-7".into(),
            offer_kind: QuoteKind::Spot,
            gpus: Some(64),
            currency: "EUR".into(),
            price_per_gpu_hour: Some(dec!(1.80)),
            lead_time_months: None,
            commitment_months: None,
            interruptions_per_hour: Some(dec!(0.1)),
            egress_per_tb: None,
            sla_uptime: None,
            sla_refund_share: None,
            response_hours: None,
            valid_until: date("2027-01-15"),
            notes: None,
            source: source(4),
            ..base.clone()
        },
        Quote {
            vendor: "Rackwell Systems".into(),
            quote_id: "RW-Q-88".into(),
            offer_kind: QuoteKind::Owned,
            price_per_gpu_hour: None,
            hardware_price_per_gpu: Some(dec!(31500)),
            installation: Some(dec!(20000)),
            support_rate_per_year: Some(dec!(0.12)),
            lead_time_months: Some(4),
            commitment_months: None,
            egress_per_tb: None,
            sla_uptime: None,
            sla_refund_share: None,
            response_hours: Some(dec!(24)),
            valid_until: date("2027-02-28"),
            notes: None,
            source: source(5),
            ..base
        },
    ]
}

/// Where a problem is: (row, column, field, kind).
type Located<'e> = (Option<u32>, Option<u32>, Option<&'e str>, &'e str);

/// Each detail as (row, column, field, kind).
fn located(e: &PlannerError) -> Vec<Located<'_>> {
    e.details
        .iter()
        .map(|d| (d.line, d.column, d.field.as_deref(), d.kind.as_deref().unwrap_or("")))
        .collect()
}

/// Imports a file that must be refused; checks the refusal's shape and returns it.
fn refused(path: &Path, settings: &WorkspaceSettings) -> PlannerError {
    let e = match read_quotes(path, &catalog(), settings) {
        Ok(quotes) => panic!(
            "{} imported {} quotes; it must be refused",
            path.display(),
            quotes.len()
        ),
        Err(e) => e,
    };
    assert_eq!(e.code, ErrorCode::InvalidInput, "{e:?}");
    assert!(
        e.message.to_lowercase().contains("nothing was imported"),
        "{}",
        e.message
    );
    for d in &e.details {
        assert_eq!(d.file.as_deref(), Some(path.display().to_string().as_str()), "{d:?}");
        assert!(!d.message.is_empty());
    }
    e
}

fn message_of<'e>(e: &'e PlannerError, field: &str) -> &'e str {
    e.details
        .iter()
        .find(|d| d.field.as_deref() == Some(field))
        .map(|d| d.message.as_str())
        .unwrap_or_else(|| panic!("no detail for `{field}` in {e:?}"))
}

#[test]
fn the_shipped_template_imports_its_example_rows() {
    let path = repo().join("catalogs/templates/rfp-quotes.csv");
    let quotes = read_quotes(&path, &catalog(), &settings()).unwrap();
    assert_eq!(quotes.len(), 3);
    assert!(quotes.iter().all(|q| q.vendor.starts_with("Example ")), "{quotes:?}");
    assert!(
        quotes
            .iter()
            .all(|q| q.notes.as_deref().unwrap().starts_with("EXAMPLE ROW"))
    );
}

#[test]
fn the_template_folder_is_not_read_as_catalog_files() {
    // catalogs/templates/ sits inside the catalog folder; the loader must still accept it.
    let files = planner_store::read_catalog_dir(&repo().join("catalogs")).unwrap();
    assert!(files.iter().all(|(name, _)| name.ends_with(".toml")), "{files:?}");
    catalog();
}

#[test]
fn a_good_csv_imports_exactly_the_expected_quotes() {
    let path = fixture("good.csv");
    let quotes = read_quotes(&path, &catalog(), &settings()).unwrap();
    assert_eq!(quotes, expected(&path));
}

/// Writes the quotes of `good.csv` as a workbook the way a person would type them: numbers as
/// number cells, percentages as percent-formatted cells, dates as a date cell, a text date and
/// an unformatted serial number.
fn write_good_xlsx(path: &Path) {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let header = [
        "Vendor",
        "quote_id",
        "offer_kind",
        "accelerator",
        "gpus",
        "currency",
        "price_per_gpu_hour",
        "hardware_price_per_gpu",
        "installation",
        "support_rate_per_year",
        "lead_time_months",
        "commitment_months",
        "interruptions_per_hour",
        "egress_per_tb",
        "sla_uptime",
        "sla_refund_share",
        "response_hours",
        "valid_until",
        "notes",
    ];
    for (c, h) in header.iter().enumerate() {
        sheet.write_string(0, u16::try_from(c).unwrap(), *h).unwrap();
    }
    let pct = Format::new().set_num_format("0.0%");
    let day = Format::new().set_num_format("yyyy-mm-dd");
    // Row 2: reserved, a real date cell, percent cells.
    for (c, t) in [
        (0, "Nimbus GPU"),
        (1, "NG-2027-014"),
        (2, "reserved"),
        (3, "nvidia-h100-sxm"),
        (5, "USD"),
    ] {
        sheet.write_string(1, c, t).unwrap();
    }
    for (c, n) in [(4, 16.0), (6, 2.95), (10, 1.0), (11, 36.0), (13, 0.0), (16, 4.0)] {
        sheet.write_number(1, c, n).unwrap();
    }
    sheet.write_number_with_format(1, 14, 0.999, &pct).unwrap();
    sheet.write_number_with_format(1, 15, 0.1, &pct).unwrap();
    let d = ExcelDateTime::from_ymd(2027, 3, 31).unwrap();
    sheet.write_datetime_with_format(1, 17, &d, &day).unwrap();
    sheet.write_string(1, 18, "3-year term, billed monthly").unwrap();
    // Row 3: on-demand, the date as text.
    for (c, t) in [
        (0, "Nimbus GPU"),
        (1, "NG-2027-015"),
        (2, "on-demand"),
        (3, "nvidia-h100-sxm"),
        (5, "USD"),
    ] {
        sheet.write_string(2, c, t).unwrap();
    }
    for (c, n) in [(6, 4.1), (13, 0.0), (14, 0.995), (15, 0.05), (16, 4.0)] {
        sheet.write_number(2, c, n).unwrap();
    }
    sheet.write_string(2, 17, "2027-03-31").unwrap();
    // Row 4: spot in EUR, the date as an unformatted serial number (2027-01-15).
    for (c, t) in [
        (0, "Spotty Compute"),
        (1, "SC-7"),
        (2, "spot"),
        (3, "nvidia-h100-sxm"),
        (5, "EUR"),
    ] {
        sheet.write_string(3, c, t).unwrap();
    }
    for (c, n) in [(4, 64.0), (6, 1.8), (12, 0.1), (17, 46402.0)] {
        sheet.write_number(3, c, n).unwrap();
    }
    // Row 5: owned, the support rate as text with a % sign.
    for (c, t) in [
        (0, "Rackwell Systems"),
        (1, "RW-Q-88"),
        (2, "owned"),
        (3, "nvidia-h100-sxm"),
        (5, "USD"),
        (9, "12%"),
    ] {
        sheet.write_string(4, c, t).unwrap();
    }
    for (c, n) in [(4, 16.0), (7, 31500.0), (8, 20000.0), (10, 4.0), (16, 24.0)] {
        sheet.write_number(4, c, n).unwrap();
    }
    let d = ExcelDateTime::from_ymd(2027, 2, 28).unwrap();
    sheet.write_datetime_with_format(4, 17, &d, &day).unwrap();
    book.save(path).unwrap();
}

#[test]
fn a_good_xlsx_imports_exactly_the_same_quotes_as_the_csv() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quotes.xlsx");
    write_good_xlsx(&path);
    let quotes = read_quotes(&path, &catalog(), &settings()).unwrap();
    assert_eq!(quotes, expected(&path));
}

#[test]
fn wrong_types_are_named_by_row_and_column_and_every_row_is_checked() {
    let e = refused(&fixture("wrong-types.csv"), &settings());
    assert_eq!(
        located(&e),
        [
            (Some(2), Some(5), Some("gpus"), "wrong-type"),
            (Some(3), Some(7), Some("price_per_gpu_hour"), "wrong-type"),
            (Some(4), Some(18), Some("valid_until"), "invalid-date"),
        ]
    );
    assert!(message_of(&e, "price_per_gpu_hour").contains("`$4.10` is not a number"));
    assert!(message_of(&e, "price_per_gpu_hour").contains("no currency symbols"));
    assert!(message_of(&e, "valid_until").contains("YYYY-MM-DD"));
    assert!(e.message.contains("3 problems"), "{}", e.message);
}

#[test]
fn text_in_an_xlsx_number_column_is_named_by_row_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quotes.xlsx");
    write_good_xlsx(&path);
    // Re-write row 3's price as text with a decimal comma, and row 5's GPUs as a date cell.
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let good = planner_store::quotes::read_quote_table(&path).unwrap();
    for r in &good.rows {
        for (c, cell) in r.cells.iter().enumerate() {
            let (row, col) = (r.row - 1, u16::try_from(c).unwrap());
            match cell {
                planner_core::rfp::quote::Cell::Text(t) => {
                    sheet.write_string(row, col, t).unwrap();
                }
                planner_core::rfp::quote::Cell::Number(n) => {
                    sheet
                        .write_number(row, col, n.to_string().parse::<f64>().unwrap())
                        .unwrap();
                }
                planner_core::rfp::quote::Cell::Date(d) => {
                    sheet.write_string(row, col, d.to_string()).unwrap();
                }
                _ => {}
            }
        }
    }
    sheet.write_string(2, 6, "4,10").unwrap();
    let day = Format::new().set_num_format("yyyy-mm-dd");
    let d = ExcelDateTime::from_ymd(2027, 1, 16).unwrap();
    sheet.write_datetime_with_format(4, 4, &d, &day).unwrap();
    let broken = dir.path().join("broken.xlsx");
    book.save(&broken).unwrap();
    let e = refused(&broken, &settings());
    assert_eq!(
        located(&e),
        [
            (Some(3), Some(7), Some("price_per_gpu_hour"), "wrong-type"),
            (Some(5), Some(5), Some("gpus"), "wrong-type"),
        ]
    );
    assert!(message_of(&e, "price_per_gpu_hour").contains("`4,10` is not a number"));
}

#[test]
fn a_sheet_that_starts_below_and_right_of_a1_keeps_the_sheets_own_row_and_column_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("offset.xlsx");
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    // The table starts at C3: header on row 3, the quote on row 4, column C = 3.
    let header = [
        "vendor",
        "quote_id",
        "offer_kind",
        "accelerator",
        "gpus",
        "currency",
        "price_per_gpu_hour",
        "commitment_months",
        "valid_until",
    ];
    for (c, h) in header.iter().enumerate() {
        sheet.write_string(2, 2 + u16::try_from(c).unwrap(), *h).unwrap();
    }
    for (c, t) in [
        (2, "Nimbus GPU"),
        (3, "NG-1"),
        (4, "reserved"),
        (5, "nvidia-h100-sxm"),
        (7, "USD"),
    ] {
        sheet.write_string(3, c, t).unwrap();
    }
    sheet.write_number(3, 6, 16.0).unwrap();
    sheet.write_number(3, 8, -2.5).unwrap();
    sheet.write_number(3, 9, 36.0).unwrap();
    sheet.write_string(3, 10, "2027-03-31").unwrap();
    book.save(&path).unwrap();
    let e = refused(&path, &settings());
    assert_eq!(
        located(&e),
        [(Some(4), Some(9), Some("price_per_gpu_hour"), "negative-value")]
    );
}

#[test]
fn missing_required_columns_are_named() {
    let e = refused(&fixture("missing-columns.csv"), &settings());
    assert_eq!(
        located(&e),
        [
            (Some(1), None, Some("accelerator"), "missing-column"),
            (Some(1), None, Some("currency"), "missing-column"),
        ]
    );
    assert!(message_of(&e, "currency").contains("add it"));
}

#[test]
fn an_unknown_column_is_an_error_not_silently_ignored() {
    let e = refused(&fixture("unknown-column.csv"), &settings());
    assert_eq!(
        located(&e),
        [
            (Some(1), Some(7), Some("price_per_gpu_hr"), "unknown-column"),
            (Some(2), None, Some("price_per_gpu_hour"), "missing-value"),
        ]
    );
    assert!(message_of(&e, "price_per_gpu_hr").contains("fix the spelling"));
    assert!(message_of(&e, "price_per_gpu_hour").contains("add a `price_per_gpu_hour` column"));
}

#[test]
fn a_duplicate_vendor_and_quote_id_names_both_rows() {
    let e = refused(&fixture("duplicate-quote.csv"), &settings());
    assert_eq!(located(&e), [(Some(4), Some(2), Some("quote_id"), "duplicate-quote")]);
    let m = message_of(&e, "quote_id");
    assert!(m.contains("row 2") && m.contains("row 4"), "{m}");
}

#[test]
fn an_empty_file_is_refused_as_empty() {
    for name in ["empty.csv", "header-only.csv"] {
        let e = refused(&fixture(name), &settings());
        assert_eq!(located(&e), [(None, None, None, "empty-file")], "{name}");
    }
    let e = refused(&fixture("empty.csv"), &settings());
    assert!(e.details[0].message.contains("the file is empty"), "{e:?}");
    let e = refused(&fixture("header-only.csv"), &settings());
    assert!(e.details[0].message.contains("header but no quotes"), "{e:?}");
    // A workbook with no cells at all.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.xlsx");
    let mut book = Workbook::new();
    book.add_worksheet();
    book.save(&path).unwrap();
    let e = refused(&path, &settings());
    assert_eq!(located(&e), [(None, None, None, "empty-file")]);
}

#[test]
fn an_unknown_accelerator_id_is_named() {
    let e = refused(&fixture("unknown-accelerator.csv"), &settings());
    assert_eq!(
        located(&e),
        [(Some(2), Some(4), Some("accelerator"), "unknown-reference")]
    );
    assert!(message_of(&e, "accelerator").contains("`nvidia-h100`"));
}

#[test]
fn a_negative_price_is_named() {
    let e = refused(&fixture("negative-price.csv"), &settings());
    assert_eq!(
        located(&e),
        [(Some(2), Some(7), Some("price_per_gpu_hour"), "negative-value")]
    );
}

#[test]
fn each_kind_needs_its_own_figures_and_refuses_the_others() {
    let e = refused(&fixture("kind-rules.csv"), &settings());
    assert_eq!(
        located(&e),
        [
            (Some(2), Some(15), Some("sla_uptime"), "out-of-range"),
            (Some(2), Some(12), Some("commitment_months"), "missing-value"),
            (Some(3), Some(8), Some("hardware_price_per_gpu"), "missing-value"),
            (Some(4), Some(8), Some("hardware_price_per_gpu"), "not-applicable"),
        ]
    );
    assert!(message_of(&e, "sla_uptime").contains("99.9%"));
}

#[test]
fn one_bad_row_imports_nothing() {
    let e = refused(&fixture("one-bad-row.csv"), &settings());
    assert_eq!(
        located(&e),
        [(Some(4), Some(13), Some("interruptions_per_hour"), "missing-value")]
    );
}

#[test]
fn a_currency_without_a_workspace_rate_is_named() {
    let mut s = settings();
    s.fx.clear();
    let e = refused(&fixture("good.csv"), &s);
    assert_eq!(located(&e), [(Some(4), Some(6), Some("currency"), "no-exchange-rate")]);
    let m = message_of(&e, "currency");
    assert!(m.contains("EUR") && m.contains("USD"), "{m}");
}

#[test]
fn other_file_types_and_missing_files_are_refused_with_a_reason() {
    let e = read_quotes(Path::new("quotes.ods"), &catalog(), &settings()).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.details[0].kind.as_deref(), Some("unsupported-format"));
    assert!(e.message.contains(".csv or .xlsx"), "{}", e.message);
    let e = read_quotes(&fixture("no-such-file.csv"), &catalog(), &settings()).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotFound);
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fake.xlsx");
    std::fs::write(&fake, "vendor,quote_id\n").unwrap();
    let e = read_quotes(&fake, &catalog(), &settings()).unwrap_err();
    assert_eq!(e.details[0].kind.as_deref(), Some("syntax"));
}

#[test]
fn quotes_become_layers_the_engine_evaluates_with_the_quote_as_reason() {
    let (settings, workloads, samples) = sample();
    let quotes = read_quotes(&fixture("good.csv"), &catalog(), &settings).unwrap();
    let layer = |i: usize| {
        let q: &Quote = &quotes[i];
        q.to_layer_spec(&q.layer_id(), &settings).unwrap()
    };
    let (reserved, on_demand, spot, mut owned) = (layer(0), layer(1), layer(2), layer(3));
    assert_eq!(reserved.id, "nimbus-gpu-ng-2027-014");
    assert_eq!(reserved.kind, LayerKind::Reserved);
    assert_eq!(reserved.start_month, 1, "the lead time delays the rental's start");
    assert_eq!(owned.kind, LayerKind::Owned);
    assert_eq!(owned.lead_time_months, 4);
    assert_eq!(owned.installation, dec!(20000));
    assert_eq!(owned.support_rate_per_year, dec!(0.12));
    assert_eq!(spot.price_per_gpu_hour.as_ref().unwrap().value, dec!(1.9440));
    owned.serves = Some(vec!["batch-inference".into()]);
    let hybrid = &samples[0];
    let quoted_hybrid = ScenarioSpec {
        id: "rfp-hybrid".into(),
        name: "Rackwell hardware for the base, Spotty spot and Nimbus on-demand for bursts".into(),
        layers: vec![owned, spot, on_demand.clone()],
        ..hybrid.clone()
    };
    let mut reserved = reserved;
    reserved.serves = Some(vec!["batch-inference".into()]);
    let quoted_cloud = ScenarioSpec {
        id: "rfp-cloud".into(),
        name: "Nimbus reserved for the base, on-demand for bursts".into(),
        layers: vec![reserved, on_demand],
        ..samples[1].clone()
    };
    let result = evaluate_selection(&catalog(), &settings, &workloads, &[quoted_hybrid, quoted_cloud], None);
    assert!(result.problems.is_empty(), "{:?}", result.problems);
    let evaluation = result.evaluation.unwrap();
    assert_eq!(evaluation.scenarios.len(), 2);
    let reason_of = |scenario: usize, path: &str| -> (Decimal, String) {
        let a = evaluation.scenarios[scenario]
            .assumptions
            .iter()
            .find(|a| a.path == path)
            .unwrap_or_else(|| panic!("no assumption at {path}"));
        match &a.origin {
            Origin::Override { reason } => (a.value, reason.clone()),
            Origin::Catalog { .. } | Origin::Derived { .. } => {
                panic!("{path} comes from the quote, not the catalog or a rule")
            }
        }
    };
    assert_eq!(
        reason_of(0, "scenarios[0].layers[0].price_per_gpu"),
        (
            dec!(31500),
            "RFP quote Rackwell Systems RW-Q-88 (valid until 2027-02-28)".to_owned()
        )
    );
    assert_eq!(
        reason_of(0, "scenarios[0].layers[1].price_per_gpu_hour"),
        (
            dec!(1.9440),
            "RFP quote Spotty Compute SC-7 (valid until 2027-01-15): EUR 1.80 at 1 EUR = 1.08 USD (ECB reference rate 2026-11-20)"
                .to_owned()
        )
    );
    assert_eq!(
        reason_of(1, "scenarios[1].layers[0].price_per_gpu_hour"),
        (
            dec!(2.95),
            "RFP quote Nimbus GPU NG-2027-014 (valid until 2027-03-31)".to_owned()
        )
    );
    for s in &evaluation.scenarios {
        assert!(s.totals.total_cash > Decimal::ZERO, "{}", s.id);
    }
}

#[test]
fn the_template_and_its_readme_list_every_column_in_order() {
    let header = std::fs::read_to_string(repo().join("catalogs/templates/rfp-quotes.csv")).unwrap();
    let names: Vec<&str> = planner_core::rfp::quote::COLUMNS.iter().map(|c| c.name).collect();
    assert_eq!(header.lines().next().unwrap().split(',').collect::<Vec<_>>(), names);
    let readme = std::fs::read_to_string(repo().join("catalogs/templates/README.md")).unwrap();
    for c in planner_core::rfp::quote::COLUMNS {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", c.name)))
            .unwrap_or_else(|| panic!("README has no row for `{}`", c.name));
        let required = row.split('|').nth(4).unwrap().trim();
        assert_eq!(
            c.required,
            required == "yes",
            "`{}`: README says required = {required}",
            c.name
        );
    }
}

#[test]
fn a_csv_saved_with_a_byte_order_mark_and_semicolons_reads_the_same() {
    let good = std::fs::read_to_string(fixture("good.csv")).unwrap();
    // The notes cell holds a comma inside quotes; semicolons replace only the separators.
    let mut text = String::from("\u{feff}");
    for line in good.lines() {
        let mut in_quotes = false;
        for ch in line.chars() {
            match ch {
                '"' => {
                    in_quotes = !in_quotes;
                    text.push(ch);
                }
                ',' if !in_quotes => text.push(';'),
                _ => text.push(ch),
            }
        }
        text.push_str("\r\n");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("semicolons.CSV");
    std::fs::write(&path, text).unwrap();
    let quotes = read_quotes(&path, &catalog(), &settings()).unwrap();
    assert_eq!(quotes, expected(&path));
}

// Issue 14: hostile and odd quote files. The workbooks are the shipped template saved as XLSX
// (rust_xlsxwriter), then edited in their sheet XML the way the issue's reproducers were.

/// The shipped template's rows as a workbook: numbers as number cells, the rest as text.
fn template_xlsx(path: &Path) {
    let table = planner_store::quotes::read_quote_table(&repo().join("catalogs/templates/rfp-quotes.csv")).unwrap();
    let mut book = Workbook::new();
    let sheet = book.add_worksheet().set_name("Quotes").unwrap();
    write_table(sheet, &table);
    book.save(path).unwrap();
}

fn write_table(sheet: &mut rust_xlsxwriter::Worksheet, table: &planner_core::rfp::quote::QuoteTable) {
    for r in &table.rows {
        for (c, cell) in r.cells.iter().enumerate() {
            let (row, col) = (r.row - 1, u16::try_from(c).unwrap());
            if let planner_core::rfp::quote::Cell::Text(t) = cell {
                match t.parse::<f64>() {
                    Ok(n) => sheet.write_number(row, col, n).unwrap(),
                    Err(_) => sheet.write_string(row, col, t).unwrap(),
                };
            }
        }
    }
}

/// The workbook at `from` with its first sheet's XML passed through `edit`, written to `to`.
fn edit_sheet_xml(from: &Path, to: &Path, edit: impl Fn(&str) -> String) {
    edit_part(from, to, "xl/worksheets/sheet1.xml", edit);
}

/// The workbook at `from` with the part `part` passed through `edit`, written to `to`.
fn edit_part(from: &Path, to: &Path, part: &str, edit: impl Fn(&str) -> String) {
    use std::io::{Read, Write};
    let mut zin = zip::ZipArchive::new(std::fs::File::open(from).unwrap()).unwrap();
    let mut zout = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for i in 0..zin.len() {
        let mut entry = zin.by_index(i).unwrap();
        let name = entry.name().unwrap().to_string();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).unwrap();
        if name == part {
            data = edit(std::str::from_utf8(&data).unwrap()).into_bytes();
        }
        zout.start_file(name, options).unwrap();
        zout.write_all(&data).unwrap();
    }
    zout.finish().unwrap();
}

/// The template workbook with one more cell, `cell` (e.g. `<c r="XFD1048576"><v>1</v></c>`),
/// in a row of its own at the end of the sheet data.
fn with_stray_cell(dir: &Path, name: &str, cell: &str) -> PathBuf {
    let template = dir.join("template.xlsx");
    if !template.exists() {
        template_xlsx(&template);
    }
    let path = dir.join(name);
    edit_sheet_xml(&template, &path, |xml| {
        assert!(xml.contains("</sheetData>"), "{xml}");
        xml.replace("</sheetData>", &format!("<row>{cell}</row></sheetData>"))
    });
    path
}

#[test]
fn the_template_saved_as_xlsx_imports_its_example_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("template.xlsx");
    template_xlsx(&path);
    let read = planner_store::quotes::read_quotes_in(&path, &catalog(), &settings()).unwrap();
    assert_eq!(read.quotes.len(), 3);
    let sheet = read.sheet.unwrap();
    assert_eq!(sheet.name, "Quotes");
    assert_eq!(sheet.note, "the only worksheet");
}

#[test]
fn a_stray_cell_far_from_the_table_is_named_instead_of_laying_out_a_grid_up_to_it() {
    // Before: XFD1048576 aborted the process (a 512 GiB allocation), A1048576 took 1.3 GB and
    // AAA100000 4.3 GB and 8.5 s, all from a 5 KB file.
    let dir = tempfile::tempdir().unwrap();
    for (cell, row, col) in [
        ("XFD1048576", 1_048_576, 16_384),
        ("A1048576", 1_048_576, 1),
        ("AAA100000", 100_000, 703),
        ("BM1", 1, 65),
        ("A10001", 10_001, 1),
    ] {
        let path = with_stray_cell(
            dir.path(),
            &format!("{cell}.xlsx"),
            &format!(r#"<c r="{cell}"><v>1</v></c>"#),
        );
        let started = std::time::Instant::now();
        let e = refused(&path, &settings());
        assert!(started.elapsed().as_secs() < 5, "{cell}: {:?}", started.elapsed());
        assert_eq!(located(&e), [(Some(row), Some(col), None, "outside-limits")], "{e:?}");
        let message = &e.details[0].message;
        assert!(
            message.starts_with(&format!(
                "cell {cell} is outside the quote table's limits (10,000 rows × 64 columns, A1:BL10000); delete it"
            )),
            "{message}"
        );
    }
}

#[test]
fn cells_at_the_edge_of_the_limits_are_read_and_empty_cells_beyond_them_are_ignored() {
    let dir = tempfile::tempdir().unwrap();
    // An empty, formatted cell far away (what a stray click and a colour leave) is no content.
    let path = with_stray_cell(dir.path(), "empty-far.xlsx", r#"<c r="XFD1048576" s="0"/>"#);
    assert_eq!(read_quotes(&path, &catalog(), &settings()).unwrap().len(), 3);
    let path = with_stray_cell(
        dir.path(),
        "blank-far.xlsx",
        r#"<c r="XFD1048576" t="inlineStr"><is><t>  </t></is></c>"#,
    );
    assert_eq!(read_quotes(&path, &catalog(), &settings()).unwrap().len(), 3);
    // BL10000 is the last cell inside: it is read (and refused as outside every column).
    let path = with_stray_cell(dir.path(), "edge.xlsx", r#"<c r="BL10000"><v>1</v></c>"#);
    let e = refused(&path, &settings());
    assert_eq!(located(&e)[0], (Some(10_000), Some(64), None, "no-column"), "{e:?}");
}

#[test]
fn many_stray_cells_stop_the_reading_after_twenty() {
    let dir = tempfile::tempdir().unwrap();
    let cells: String = (1..=5000)
        .map(|i| format!(r#"<c r="ZZ{}"><v>1</v></c>"#, 20_000 + i))
        .collect();
    let path = with_stray_cell(dir.path(), "many.xlsx", &cells);
    let e = refused(&path, &settings());
    assert_eq!(e.details.len(), 20, "{e:?}");
    assert!(e.message.contains("Reading stopped after 20"), "{}", e.message);
}

/// The workbooks of `fixtures/quotes/xlsx-refs` (made by its `make.py`) with a reference outside
/// Excel's grid, each with what carries it and the reference as the refusal must name them.
/// On 8e35c85 every one of them made calamine panic in a debug build (the refusal then named no
/// sheet and no reference), or was read at wrapped positions in a release build.
const OUTSIDE_EXCEL: [(&str, &str, &str); 16] = [
    ("dimension-inverted", "the sheet's dimension", "B2:A1"),
    ("cell-row-past-32-bits", "a cell reference", "A99999999999"),
    ("dimension-columns-inverted", "the sheet's dimension", "S1:A4"),
    ("dimension-row-zero", "the sheet's dimension", "A0:S4"),
    ("dimension-past-last-row", "the sheet's dimension", "A1:S1048577"),
    ("dimension-past-last-column", "the sheet's dimension", "A1:XFE4"),
    ("dimension-three-cells", "the sheet's dimension", "A1:B2:C3"),
    ("cell-column-seven-letters", "a cell reference", "ZZZZZZZ1"),
    ("cell-row-zero", "a cell reference", "A0"),
    ("cell-past-last-row", "a cell reference", "A1048577"),
    ("cell-past-last-column", "a cell reference", "XFE5"),
    ("cell-not-a-reference", "a cell reference", "5A"),
    ("row-past-32-bits", "a row number", "99999999999"),
    ("row-zero", "a row number", "0"),
    ("formula-range-inverted", "a formula's range", "A9:A5"),
    ("formula-range-past-32-bits", "a formula's range", "A5:A99999999999"),
];

fn xlsx_refs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/quotes/xlsx-refs/{name}.xlsx"))
}

#[test]
fn a_reference_outside_excel_s_grid_is_refused_naming_the_sheet_and_the_reference() {
    for (name, what, reference) in OUTSIDE_EXCEL {
        let path = xlsx_refs(name);
        let e = refused(&path, &settings());
        assert_eq!(e.code, ErrorCode::InvalidInput, "{name}: {e:?}");
        assert_eq!(e.details.len(), 1, "{name}: {e:?}");
        assert_eq!(
            e.details[0].kind.as_deref(),
            Some("outside-excel-limits"),
            "{name}: {e:?}"
        );
        let message = &e.details[0].message;
        assert!(
            message.starts_with(&format!(
                "the sheet \"Quotes\" has {what} \"{reference}\" that no spreadsheet program writes: "
            )),
            "{name}: {message}"
        );
        assert!(
            message.ends_with("Excel's sheets end at row 1,048,576 and column XFD; open the workbook in Excel or LibreOffice, check that sheet and save it again as .xlsx"),
            "{name}: {message}"
        );
        assert!(
            e.message.starts_with(&path.display().to_string()),
            "{name}: {}",
            e.message
        );
        assert!(e.message.ends_with("Nothing was imported."), "{name}: {}", e.message);
    }
    // What is wrong, in words, for the two reported inputs.
    let e = refused(&xlsx_refs("dimension-inverted"), &settings());
    assert!(
        e.details[0]
            .message
            .contains(": it ends before it starts (the first cell must be the top left one). "),
        "{}",
        e.details[0].message
    );
    let e = refused(&xlsx_refs("cell-row-past-32-bits"), &settings());
    assert!(
        e.details[0]
            .message
            .contains(": row 99999999999 is beyond Excel's last row, 1,048,576. "),
        "{}",
        e.details[0].message
    );
}

#[test]
fn references_exactly_at_excel_s_limits_are_read() {
    // A dimension of the whole grid and an empty cell in its last corner: the quotes are read.
    let read = planner_store::quotes::read_quotes_in(&xlsx_refs("at-the-limits"), &catalog(), &settings()).unwrap();
    assert_eq!(read.quotes.len(), 3);
}

#[test]
fn a_reference_outside_excel_s_grid_in_another_sheet_names_that_sheet() {
    // The quotes on the first sheet, a forged reference on a second one: the check covers every
    // worksheet, and names the one that holds it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two-sheets.xlsx");
    let table = template_table();
    workbook(&path, &[("Quotes", false, table.clone()), ("Notes 2027", false, table)]);
    let forged = dir.path().join("forged.xlsx");
    edit_part(&path, &forged, "xl/worksheets/sheet2.xml", |xml| {
        xml.replace(
            "</sheetData>",
            r#"<row r="9"><c r="A99999999999"><v>1</v></c></row></sheetData>"#,
        )
    });
    let e = refused(&forged, &settings());
    assert!(
        e.details[0]
            .message
            .starts_with("the sheet \"Notes 2027\" has a cell reference \"A99999999999\""),
        "{e:?}"
    );
}

#[test]
fn no_mutated_workbook_panics_hangs_or_imports_garbage_silently() {
    // 750 workbooks: the template's sheet XML with one to three bytes replaced by characters
    // that matter in cell references, numbers and tags. Every read returns, quickly.
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("template.xlsx");
    template_xlsx(&template);
    let xml = {
        use std::io::Read;
        let mut zin = zip::ZipArchive::new(std::fs::File::open(&template).unwrap()).unwrap();
        let mut s = String::new();
        zin.by_name("xl/worksheets/sheet1.xml")
            .unwrap()
            .read_to_string(&mut s)
            .unwrap();
        s
    };
    let alphabet = b"09AZ:\"<>/=-9999999999XFD";
    let mut seed: u64 = 0x1414_1414;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(seed >> 33).unwrap() % n
    };
    let started = std::time::Instant::now();
    let path = dir.path().join("mutant.xlsx");
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..750 {
        let mut bytes = xml.clone().into_bytes();
        for _ in 0..=next(3) {
            let at = next(bytes.len());
            bytes[at] = alphabet[next(alphabet.len())];
        }
        let mutated = String::from_utf8_lossy(&bytes).into_owned();
        edit_sheet_xml(&template, &path, |_| mutated.clone());
        match read_quotes(&path, &catalog(), &settings()) {
            Ok(_) => ok += 1,
            Err(e) => {
                assert!(!e.message.is_empty());
                refused += 1;
            }
        }
    }
    assert_eq!(ok + refused, 750);
    assert!(started.elapsed().as_secs() < 120, "{:?}", started.elapsed());
}

#[test]
fn a_file_above_the_size_limit_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["big.csv", "big.xlsx"] {
        let path = dir.path().join(name);
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(planner_store::quotes::MAX_FILE_BYTES + 1).unwrap();
        let e = refused(&path, &settings());
        assert_eq!(e.details[0].kind.as_deref(), Some("too-large"), "{e:?}");
        assert!(e.message.contains("at most 20.0 MiB"), "{}", e.message);
    }
}

#[test]
fn a_workbook_that_unpacks_beyond_the_limit_is_refused_before_calamine_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("template.xlsx");
    template_xlsx(&template);
    // 70 MiB of spaces in the sheet XML compress to a small file.
    let bomb = dir.path().join("bomb.xlsx");
    edit_sheet_xml(&template, &bomb, |xml| {
        xml.replace("<sheetData>", &format!("<sheetData>{}", " ".repeat(70 << 20)))
    });
    assert!(std::fs::metadata(&bomb).unwrap().len() < planner_store::quotes::MAX_FILE_BYTES);
    let e = refused(&bomb, &settings());
    assert_eq!(e.details[0].kind.as_deref(), Some("too-large"), "{e:?}");
    assert!(e.message.contains("unpacks to more than 64.0 MiB"), "{}", e.message);
}

/// A workbook with the given sheets: (name, hidden, rows of text cells).
fn workbook(path: &Path, sheets: &[(&str, bool, planner_core::rfp::quote::QuoteTable)]) {
    let mut book = Workbook::new();
    let mut active_set = false;
    for (name, hidden, table) in sheets {
        let sheet = book.add_worksheet().set_name(*name).unwrap();
        write_table(sheet, table);
        if *hidden {
            sheet.set_hidden(true);
        } else if !active_set {
            sheet.set_active(true);
            active_set = true;
        }
    }
    book.save(path).unwrap();
}

fn text_table(rows: &[&[&str]]) -> planner_core::rfp::quote::QuoteTable {
    planner_core::rfp::quote::QuoteTable {
        file: String::new(),
        rows: rows
            .iter()
            .zip(1..)
            .map(|(r, row)| planner_core::rfp::quote::TableRow {
                row,
                cells: r
                    .iter()
                    .map(|t| planner_core::rfp::quote::Cell::Text((*t).to_owned()))
                    .collect(),
            })
            .collect(),
    }
}

fn template_table() -> planner_core::rfp::quote::QuoteTable {
    planner_store::quotes::read_quote_table(&repo().join("catalogs/templates/rfp-quotes.csv")).unwrap()
}

#[test]
fn a_hidden_first_sheet_is_not_read_as_the_quotes_and_the_sheet_read_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hidden-first.xlsx");
    let old = text_table(&[&["Lookup"], &["superseded"]]);
    workbook(&path, &[("Lists", true, old), ("Quotes", false, template_table())]);
    let read = planner_store::quotes::read_quotes_in(&path, &catalog(), &settings()).unwrap();
    assert_eq!(read.quotes.len(), 3);
    let sheet = read.sheet.unwrap();
    assert_eq!(sheet.name, "Quotes");
    assert_eq!(
        sheet.describe(),
        r#"the sheet "Quotes" (the first visible sheet whose header row matches the template; not read: "Lists" (hidden))"#
    );
}

#[test]
fn the_sheet_whose_header_matches_is_read_among_visible_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cover-first.xlsx");
    let cover = text_table(&[&["RFP 2027 — vendor response"], &["Prepared by Nimbus"]]);
    workbook(&path, &[("Cover", false, cover), ("Pricing", false, template_table())]);
    let read = planner_store::quotes::read_quotes_in(&path, &catalog(), &settings()).unwrap();
    assert_eq!(read.quotes.len(), 3);
    assert_eq!(read.sheet.unwrap().name, "Pricing");
}

#[test]
fn a_workbook_without_a_matching_sheet_is_refused_naming_its_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-match.xlsx");
    let notes = text_table(&[&["Notes"], &["see the attached PDF"]]);
    let hidden_quotes = template_table();
    workbook(&path, &[("Notes", false, notes), ("Old", true, hidden_quotes)]);
    let e = refused(&path, &settings());
    assert!(e.message.contains(r#"Read from the sheet "Notes""#), "{}", e.message);
    assert!(
        e.message.contains(r#"the workbook's sheets: "Notes", "Old" (hidden)"#),
        "{}",
        e.message
    );
    assert!(
        e.message
            .contains(r#"the hidden sheet "Old" (hidden) has the template's header, but hidden sheets are not read"#),
        "{}",
        e.message
    );
    // The header problems of the sheet read, each naming the sheet.
    assert!(
        e.details.iter().any(|d| d.kind.as_deref() == Some("missing-column")),
        "{e:?}"
    );
    assert!(
        e.details.iter().all(|d| d.message.ends_with(r#"(sheet "Notes")"#)),
        "{e:?}"
    );
}

#[test]
fn a_utf16_csv_with_or_without_a_byte_order_mark_reads_like_the_utf8_one() {
    let template = repo().join("catalogs/templates/rfp-quotes.csv");
    let text = std::fs::read_to_string(&template).unwrap();
    let want = read_quotes(&template, &catalog(), &settings()).unwrap();
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("utf16le.csv", le.clone()),
        ("utf16be.csv", be.clone()),
        ("utf16le-bom.csv", [&[0xFF, 0xFE][..], &le].concat()),
        ("utf16be-bom.csv", [&[0xFE, 0xFF][..], &be].concat()),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let quotes = read_quotes(&path, &catalog(), &settings()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let file = path.display().to_string();
        let want: Vec<Quote> = want
            .iter()
            .cloned()
            .map(|mut q| {
                q.source.file.clone_from(&file);
                q
            })
            .collect();
        assert_eq!(quotes, want, "{name}");
    }
}

#[test]
fn a_csv_with_nul_bytes_is_refused_without_printing_them() {
    let template = repo().join("catalogs/templates/rfp-quotes.csv");
    let text = std::fs::read_to_string(&template).unwrap();
    // UTF-32 LE: three NUL bytes per character, not UTF-16.
    let utf32: Vec<u8> = text.chars().flat_map(|c| u32::from(c).to_le_bytes()).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("utf32.csv");
    std::fs::write(&path, utf32).unwrap();
    let e = refused(&path, &settings());
    assert_eq!(located(&e), [(None, None, None, "encoding")]);
    assert!(e.message.contains("NUL"), "{}", e.message);
    assert!(!format!("{e:?}").contains("\\0"), "{e:?}");
    // A header cell with control characters and 5,000 characters is quoted clean and cut.
    let path = dir.path().join("long.csv");
    let long = format!("\u{1b}[2J{}", "x".repeat(5000));
    std::fs::write(&path, format!("{long},{}\n", &text[..text.find('\n').unwrap()])).unwrap();
    let e = refused(&path, &settings());
    let d = e
        .details
        .iter()
        .find(|d| d.kind.as_deref() == Some("unknown-column"))
        .unwrap();
    assert!(!d.message.contains('\u{1b}'), "{d:?}");
    assert!(d.message.contains(&format!("`[2J{}…`", "x".repeat(197))), "{d:?}");
}

#[test]
fn a_csv_row_or_column_beyond_the_limits_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let template = std::fs::read_to_string(repo().join("catalogs/templates/rfp-quotes.csv")).unwrap();
    let path = dir.path().join("far.csv");
    std::fs::write(&path, format!("{template}{}stray\n", "\n".repeat(20_000))).unwrap();
    let e = refused(&path, &settings());
    assert_eq!(located(&e), [(Some(20_005), Some(1), None, "outside-limits")], "{e:?}");
    let path = dir.path().join("wide.csv");
    std::fs::write(&path, format!("{template}{}stray\n", ",".repeat(70))).unwrap();
    let e = refused(&path, &settings());
    assert_eq!(located(&e), [(Some(5), Some(71), None, "outside-limits")], "{e:?}");
    assert!(e.details[0].message.starts_with("cell BS5 is outside"), "{e:?}");
}

// Issue 19: quotes carry their terms.

#[test]
fn an_old_format_file_without_the_new_columns_still_imports() {
    // `good.csv` (and `write_good_xlsx`) have the template's columns before issue 19: no exit
    // terms and no expert hours. They import as before, the new figures absent.
    let path = fixture("good.csv");
    let header = std::fs::read_to_string(&path).unwrap();
    assert!(!header.contains("exit_fee") && !header.contains("expert_hours_per_month"));
    let quotes = read_quotes(&path, &catalog(), &settings()).unwrap();
    assert_eq!(quotes, expected(&path));
    for q in &quotes {
        assert!(!q.states_exit_terms(), "{q:?}");
        assert_eq!(q.expert_hours_per_month, None);
    }
    let reserved = quotes[0].to_layer_spec("r", &settings()).unwrap();
    assert_eq!(reserved.term, Some(CommitTerm::ThreeYears));
    assert_eq!(reserved.exit_clause, None);
}

/// `terms.csv` written as a workbook the way a person types it: numbers as number cells, the
/// 25% fee and the SLA shares as percent-formatted cells.
fn write_terms_xlsx(path: &Path) {
    let table = planner_store::quotes::read_quote_table(&fixture("terms.csv")).unwrap();
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    write_table(sheet, &table);
    let pct = Format::new().set_num_format("0.0%");
    // Row 2: the fee (column P) and the SLA (columns T, U) as percent cells.
    sheet.write_number_with_format(1, 15, 0.25, &pct).unwrap();
    sheet.write_number_with_format(1, 19, 0.999, &pct).unwrap();
    sheet.write_number_with_format(1, 20, 0.1, &pct).unwrap();
    book.save(path).unwrap();
}

#[test]
fn exit_terms_and_any_commitment_read_alike_from_csv_and_xlsx_and_reach_the_layers() {
    let csv = read_quotes(&fixture("terms.csv"), &catalog(), &settings()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("terms.xlsx");
    write_terms_xlsx(&path);
    let xlsx = read_quotes(&path, &catalog(), &settings()).unwrap();
    let without_file = |qs: Vec<Quote>| -> Vec<Quote> {
        qs.into_iter()
            .map(|mut q| {
                q.source.file = String::new();
                q
            })
            .collect()
    };
    assert_eq!(without_file(xlsx), without_file(csv.clone()));

    let block = &csv[0];
    assert_eq!(block.commitment_months, Some(6));
    assert_eq!(block.exit_fee, Some(TerminationFee::ShareOfRemaining(dec!(0.25))));
    assert_eq!(block.expert_hours_per_month, Some(dec!(12)));
    let s = settings();
    let layer = block.to_layer_spec("block", &s).unwrap();
    assert_eq!(layer.term, Some(CommitTerm::Months(6)));
    // No exit egress price: the quote's egress price moves the data out.
    assert_eq!(
        layer.exit_clause,
        Some(ExitClause {
            notice_months: 1,
            fee: TerminationFee::ShareOfRemaining(dec!(0.25)),
            egress_per_tb: dec!(80),
            data_tb: dec!(50),
            offboarding: dec!(2000),
        })
    );
    // In EUR at 1.08: the fixed fee, the egress price and the offboarding are converted.
    let layer = csv[1].to_layer_spec("two-years", &s).unwrap();
    assert_eq!(layer.term, Some(CommitTerm::Months(24)));
    assert_eq!(layer.start_month, 2);
    assert_eq!(layer.price_per_gpu_hour.as_ref().unwrap().value, dec!(2.70));
    assert_eq!(
        layer.exit_clause,
        Some(ExitClause {
            notice_months: 3,
            fee: TerminationFee::Fixed(dec!(43200)),
            egress_per_tb: dec!(75.60),
            data_tb: dec!(100),
            offboarding: dec!(10800),
        })
    );
    assert_eq!(csv[2].to_layer_spec("od", &s).unwrap().exit_clause, None);

    // The vendor's scenario evaluates, shows the cost of leaving both reservations, and prices
    // egress at the highest price the vendor quotes (on-demand's 90 per TB).
    let (settings, workloads, samples) = sample();
    let scenario =
        planner_core::rfp::vendors::vendor_scenario(&samples[0], "v", "Nimbus GPU", &csv, &settings).unwrap();
    assert_eq!(scenario.egress_per_tb, dec!(90));
    let result = evaluate_selection(&catalog(), &settings, &workloads, &[scenario], None);
    assert!(result.problems.is_empty(), "{:?}", result.problems);
    let evaluation = result.evaluation.unwrap();
    let exits: Vec<&str> = evaluation.scenarios[0]
        .exit_costs
        .iter()
        .map(|c| c.layer.as_str())
        .collect();
    assert_eq!(exits.len(), 2, "{exits:?}");
    let entry = planner_core::rfp::vendors::entry_from_quotes(None, "Nimbus GPU", "v", &csv);
    assert_eq!(
        (
            entry.sla,
            entry.sla_refund_share,
            entry.response_hours,
            entry.expert_hours_per_month,
            entry.exit_terms_stated
        ),
        (
            Some(dec!(0.995)),
            Some(dec!(0.05)),
            Some(dec!(4)),
            Some(dec!(8)),
            Some(dec!(1))
        )
    );
}

#[test]
fn the_shipped_template_shows_every_new_column_on_its_example_reservation() {
    let quotes = read_quotes(
        &repo().join("catalogs/templates/rfp-quotes.csv"),
        &catalog(),
        &settings(),
    )
    .unwrap();
    let reserved = quotes.iter().find(|q| q.offer_kind == QuoteKind::Reserved).unwrap();
    assert!(reserved.states_exit_terms());
    assert_eq!(reserved.exit_fee, Some(TerminationFee::ShareOfRemaining(dec!(0.25))));
    let layer = reserved.to_layer_spec("r", &settings()).unwrap();
    assert!(layer.exit_clause.is_some());
    assert!(quotes.iter().all(|q| q.expert_hours_per_month.is_some()));
}
