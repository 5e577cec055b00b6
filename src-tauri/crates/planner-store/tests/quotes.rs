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
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::provenance::AsOf;
use planner_core::quote::{Quote, QuoteKind, QuoteSource};
use planner_core::scenario::Origin;
use planner_core::scenario_file::{self, FxRate, LayerKind, ScenarioSpec, WorkloadSpec};
use planner_core::workspace::{WorkspaceSettings, evaluate_selection, from_scenario_file};
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
        sla_uptime: Some(dec!(0.999)),
        sla_refund_share: Some(dec!(0.10)),
        response_hours: Some(dec!(4)),
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
    assert!(e.message.contains("nothing was imported"), "{}", e.message);
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
                planner_core::quote::Cell::Text(t) => {
                    sheet.write_string(row, col, t).unwrap();
                }
                planner_core::quote::Cell::Number(n) => {
                    sheet
                        .write_number(row, col, n.to_string().parse::<f64>().unwrap())
                        .unwrap();
                }
                planner_core::quote::Cell::Date(d) => {
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
            Origin::Catalog { .. } => panic!("{path} comes from the catalog, not the quote"),
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
    let names: Vec<&str> = planner_core::quote::COLUMNS.iter().map(|c| c.name).collect();
    assert_eq!(header.lines().next().unwrap().split(',').collect::<Vec<_>>(), names);
    let readme = std::fs::read_to_string(repo().join("catalogs/templates/README.md")).unwrap();
    for c in planner_core::quote::COLUMNS {
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
