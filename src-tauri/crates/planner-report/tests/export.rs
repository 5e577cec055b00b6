//! The exports read back by independent readers: the workbook by Python's openpyxl (a test
//! failure, not a skip, when python3 or openpyxl is missing), the CSV by the `csv` crate. Every
//! figure must equal the decision view's, every ledger cell the engine's, to the cent.

// Test code: a failed expectation is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::process::Command;
use std::str::FromStr;

use planner_core::engine::blocks::finance::present;
use planner_core::engine::costing::evaluate::Evaluation;
use planner_core::engine::costing::operations::DispatchUnit;
use planner_core::engine::decide::decision::{DecisionView, ScenarioFigures};
use planner_core::engine::model::ledger::{CATEGORIES, Category};
use planner_report::category_label;
use planner_report::export::{ExportError, comparison_csv, comparison_xlsx, ledger_csv};
use rust_decimal::Decimal;
use serde_json::Value;

/// Dumps every sheet as JSON: per cell its openpyxl data type, value and number format.
const DUMP: &str = r#"
import json, sys
try:
    import openpyxl
except ImportError:
    sys.stderr.write("openpyxl is missing\n")
    sys.exit(3)
wb = openpyxl.load_workbook(sys.argv[1])
out = []
for ws in wb.worksheets:
    rows = [[None if c.value is None else {"t": c.data_type, "v": c.value, "f": c.number_format}
             for c in row] for row in ws.iter_rows()]
    out.append({"name": ws.title, "freeze": ws.freeze_panes, "rows": rows})
print(json.dumps(out))
"#;

fn read_with_openpyxl(bytes: &[u8]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("comparison.xlsx");
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new("python3")
        .arg("-c")
        .arg(DUMP)
        .arg(&path)
        .output()
        .unwrap_or_else(|e| {
            panic!("python3 could not be started ({e}): this test needs python3 with openpyxl (pip install openpyxl)")
        });
    assert!(
        out.status.success(),
        "reading the workbook with openpyxl failed ({}): {}\nIf openpyxl is missing: pip install openpyxl",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_array().unwrap().clone()
}

/// The figures of the comparison, spelled out here independently of the exporter's own table:
/// (row header, value).
#[allow(clippy::type_complexity)]
fn expected_figures(currency: &str) -> Vec<(String, Box<dyn Fn(&ScenarioFigures) -> Option<Decimal>>)> {
    let c = currency;
    vec![
        (
            "Rank (1 = best; scenarios serving all the work first)".to_owned(),
            Box::new(|s| Some(Decimal::from(s.rank))),
        ),
        (
            format!("Decision total ({c}; incl. commitments after horizon)"),
            Box::new(|s| Some(s.decision_total)),
        ),
        (
            format!("Total cash, within the horizon only ({c})"),
            Box::new(|s| Some(s.total_cash)),
        ),
        (format!("Total book ({c})"), Box::new(|s| Some(s.total_book))),
        (format!("NPV, decision basis ({c})"), Box::new(|s| Some(s.npv))),
        (format!("Cost per GPU-hour ({c})"), Box::new(|s| s.cost_per_gpu_hour)),
        (
            format!("Cost per useful PFLOP-hour ({c})"),
            Box::new(|s| s.cost_per_useful_pflop_hour),
        ),
        (
            format!("Cost per million tokens ({c})"),
            Box::new(|s| s.cost_per_million_tokens),
        ),
        (
            "Owned utilisation (fraction)".to_owned(),
            Box::new(|s| s.owned_utilisation),
        ),
        (format!("Idle cost ({c})"), Box::new(|s| Some(s.idle_cost))),
        ("Energy (kWh)".to_owned(), Box::new(|s| Some(s.energy_kwh))),
        ("Emissions (kg CO2e)".to_owned(), Box::new(|s| Some(s.emissions_kg))),
        ("Unmet demand (PFLOP-h)".to_owned(), Box::new(|s| Some(s.unmet_pflop_h))),
        (
            format!("Unserved work at shadow price ({c}; in total cash)"),
            Box::new(|s| Some(s.unserved_cost)),
        ),
        (format!("Residual value ({c})"), Box::new(|s| Some(s.residual_value))),
        (
            format!("Commitments after horizon ({c})"),
            Box::new(|s| Some(s.commitments_after_horizon)),
        ),
        (
            format!("Difference vs reference (decision total, {c})"),
            Box::new(|s| s.difference.as_ref().map(|d| d.total)),
        ),
        (
            format!("Difference vs reference (NPV, decision basis, {c})"),
            Box::new(|s| s.difference.as_ref().map(|d| d.npv)),
        ),
        (
            "Break-even month vs reference (month no.)".to_owned(),
            Box::new(|s| {
                s.difference
                    .as_ref()
                    .and_then(|d| d.break_even.as_ref())
                    .map(|b| Decimal::from(b.month))
            }),
        ),
        (
            "Break-even vs reference (average months)".to_owned(),
            Box::new(|s| {
                s.difference
                    .as_ref()
                    .and_then(|d| d.break_even.as_ref())
                    .map(|b| b.at_month.round_dp(1))
            }),
        ),
    ]
}

fn text(cell: &Value) -> &str {
    assert_eq!(cell["t"], "s", "expected a text cell: {cell}");
    cell["v"].as_str().unwrap()
}

/// A numeric cell's value, asserting that it is a number (not text).
fn number(cell: &Value) -> f64 {
    assert_eq!(cell["t"], "n", "expected a number cell: {cell}");
    cell["v"].as_f64().unwrap()
}

/// The cell equals the decimal: the same double as the decimal's text, hence the same cents.
fn assert_cell_is(cell: &Value, expected: Decimal, what: &str) {
    let got = number(cell);
    let want: f64 = expected.to_string().parse().unwrap();
    assert_eq!(got, want, "{what}: cell {got} but the engine says {expected}");
    assert_eq!((got * 100.0).round(), (want * 100.0).round(), "{what}: cents differ");
}

fn money_format(cell: &Value) -> bool {
    cell["f"].as_str().is_some_and(|f| f.starts_with("#,##0.00"))
}

fn check_workbook(view: &DecisionView, eval: &Evaluation) {
    let bytes = comparison_xlsx(view, eval, None, None).unwrap();
    let sheets = read_with_openpyxl(&bytes);
    check_dispatch(view, eval, &sheets);

    // Comparison: header, one row per figure, an empty row, the notes.
    let cmp = &sheets[0];
    assert_eq!(cmp["name"], "Comparison");
    assert_eq!(cmp["freeze"], "B2");
    let rows = cmp["rows"].as_array().unwrap();
    let header: Vec<&str> = rows[0].as_array().unwrap().iter().map(text).collect();
    let mut want = vec!["Figure"];
    want.extend(view.scenarios.iter().map(|s| s.name.as_str()));
    assert_eq!(header, want);
    let figures = expected_figures(&view.currency);
    for (r, (label, value)) in figures.iter().enumerate() {
        let row = rows[r + 1].as_array().unwrap();
        assert_eq!(text(&row[0]), label);
        for (i, s) in view.scenarios.iter().enumerate() {
            let cell = &row[i + 1];
            match value(s) {
                Some(v) => {
                    assert_cell_is(cell, v, &format!("{label} / {}", s.id));
                    if label.ends_with(&format!("{})", view.currency)) {
                        assert!(money_format(cell), "{label}: money format, got {cell}");
                    }
                }
                None => assert!(cell.is_null(), "{label} / {}: expected an empty cell, got {cell}", s.id),
            }
        }
    }
    let after = &rows[figures.len() + 1];
    assert!(
        after.as_array().unwrap().iter().all(Value::is_null),
        "an empty row ends the table"
    );
    let notes: Vec<&str> = rows[figures.len() + 2..]
        .iter()
        .filter_map(|r| r[0].get("v").and_then(Value::as_str))
        .collect();
    assert_eq!(notes[0], view.title);
    assert!(
        notes.iter().any(|n| n.contains("Computed by Compute Planner")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains(&format!("{} months", view.horizon_months)))
    );
    assert!(notes.iter().any(|n| n.contains(&format!("Money in {}", view.currency))));

    // One ledger sheet per scenario: the engine's cash ledger, to the cent, and its totals.
    for (s, sheet) in view.scenarios.iter().zip(&sheets[1..]) {
        let r = eval.scenarios.iter().find(|r| r.id == s.id).unwrap();
        let name = sheet["name"].as_str().unwrap();
        assert!(name.starts_with("Ledger – "), "{name}");
        assert!(name.encode_utf16().count() <= 31, "{name}");
        // The scenario's name, shortened, and numbered when a shorter name was taken before.
        let mut core = name.strip_prefix("Ledger – ").unwrap();
        if !s.name.starts_with(core)
            && let Some(i) = core.rfind(" (")
            && core.ends_with(')')
            && core[i + 2..core.len() - 1].parse::<u32>().is_ok()
        {
            core = &core[..i];
        }
        assert!(s.name.starts_with(core), "{name} for {}", s.name);
        assert_eq!(sheet["freeze"], "B2");
        let rows = sheet["rows"].as_array().unwrap();
        assert_eq!(rows.len(), view.months.len() + 2, "header, months, total");
        let header: Vec<&str> = rows[0].as_array().unwrap().iter().map(text).collect();
        let mut want = vec!["Month".to_owned()];
        want.extend(
            Category::ALL
                .iter()
                .map(|&c| format!("{} ({})", category_label(c), view.currency)),
        );
        want.push(format!("Total ({})", view.currency));
        want.push(format!("Cumulative ({})", view.currency));
        assert_eq!(header, want);
        // Columns: the month, one per category, the month's total, the cumulative total.
        let (month_total, cumulative) = (CATEGORIES + 1, CATEGORIES + 2);
        let mut sums = [0.0f64; CATEGORIES + 1];
        for (k, m) in r.ledger.months.iter().enumerate() {
            let row = rows[k + 1].as_array().unwrap();
            assert_eq!(text(&row[0]), view.months[k].to_string());
            for (c, &cat) in Category::ALL.iter().enumerate() {
                assert_cell_is(
                    &row[c + 1],
                    present(m.cash.get(cat)),
                    &format!("{} {} {cat:?}", s.id, m.month),
                );
                assert!(money_format(&row[c + 1]));
                sums[c] += number(&row[c + 1]);
            }
            assert_cell_is(&row[month_total], present(m.cash.total()), "month total");
            assert_cell_is(&row[cumulative], present(m.cumulative_cash), "cumulative");
            assert_cell_is(&row[cumulative], s.cumulative[k], "cumulative as in the view");
            sums[CATEGORIES] += number(&row[month_total]);
        }
        let total = rows.last().unwrap().as_array().unwrap();
        assert_eq!(text(&total[0]), "Total");
        for (c, &cat) in Category::ALL.iter().enumerate() {
            assert_cell_is(
                &total[c + 1],
                present(r.totals.cash.get(cat)),
                &format!("{} total {cat:?}", s.id),
            );
        }
        assert_cell_is(&total[month_total], present(r.totals.total_cash), "grand total");
        assert_cell_is(&total[month_total], s.total_cash, "grand total as in the comparison");
        assert!(total[cumulative].get("v").is_none_or(Value::is_null));
        // The months add up to the totals, give or take the rounding of each month to cents.
        let n = view.months.len() as f64;
        for (c, sum) in sums.iter().enumerate() {
            let cell = number(&total[c + 1]);
            assert!(
                (sum - cell).abs() <= 0.005 * n + 1e-6,
                "{} column {c}: months {sum} vs total {cell}",
                s.id
            );
        }
    }
}

#[test]
fn workbook_read_back_by_openpyxl_matches_the_view_and_the_ledger_to_the_cent() {
    // A break-even, an owned and a cloud scenario, resale in the last month.
    let (eval, view) = common::sample("embodied-ai-team");
    assert!(view.scenarios[1].difference.as_ref().unwrap().break_even.is_some());
    check_workbook(&view, &eval);
}

#[test]
fn workbook_with_a_pinned_baseline_and_tokens() {
    // Cost per million tokens exists here; the differences are against the pinned `fleet`.
    let text = common::sample_text("startup-inference-saas");
    let (eval, view) = common::evaluate_text(&text, Some("fleet"));
    assert!(view.baseline_pinned);
    assert!(view.scenarios.iter().any(|s| s.cost_per_million_tokens.is_some()));
    check_workbook(&view, &eval);
}

#[test]
fn workbook_with_eight_scenarios_has_unique_sheet_names() {
    let (eval, view) = common::evaluate_text(&common::eight_scenarios_text(), None);
    let sheets = read_with_openpyxl(&comparison_xlsx(&view, &eval, None, None).unwrap());
    let mut names: Vec<String> = sheets
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_lowercase())
        .collect();
    assert_eq!(names.len(), 11);
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 11, "sheet names collide: {names:?}");
    check_workbook(&view, &eval);
}

#[test]
fn an_evaluation_of_another_plan_is_refused() {
    let (_, view) = common::sample("embodied-ai-team");
    let (other, _) = common::sample("university-lab-pool");
    assert!(matches!(
        comparison_xlsx(&view, &other, None, None),
        Err(ExportError::Mismatch(_))
    ));
    assert!(matches!(
        ledger_csv(&view, &other, "edge-domestic"),
        Err(ExportError::Mismatch(_))
    ));
    let (eval, _) = common::sample("embodied-ai-team");
    assert_eq!(
        ledger_csv(&view, &eval, "nope"),
        Err(ExportError::UnknownScenario("nope".to_owned()))
    );
}

fn parse_csv(text: &str) -> Vec<Vec<String>> {
    assert!(text.ends_with("\r\n"), "RFC 4180 line ends");
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

/// `-1234.50`: digits, a dot, exactly two decimals.
fn two_decimals(field: &str) -> bool {
    let digits = field.strip_prefix('-').unwrap_or(field);
    digits.split_once('.').is_some_and(|(a, b)| {
        !a.is_empty() && a.chars().all(|c| c.is_ascii_digit()) && b.len() == 2 && b.chars().all(|c| c.is_ascii_digit())
    })
}

#[test]
fn comparison_csv_parses_back_to_the_view() {
    let (_, mut view) = common::sample("enterprise-hybrid");
    // A name that needs quoting.
    view.scenarios[0].name = "Hybrid, \"owned\" base".to_owned();
    let rows = parse_csv(&comparison_csv(&view));
    let figures = expected_figures(&view.currency);
    assert_eq!(rows.len(), 1 + figures.len());
    assert_eq!(rows[0][0], "Figure");
    assert_eq!(rows[0][1], "Hybrid, \"owned\" base");
    assert_eq!(rows[0][2], view.scenarios[1].name);
    for ((label, value), row) in figures.iter().zip(&rows[1..]) {
        assert_eq!(&row[0], label);
        for (s, field) in view.scenarios.iter().zip(&row[1..]) {
            match value(s) {
                Some(v) => {
                    assert!(!field.contains(['e', 'E', ' ']), "plain decimal: {field}");
                    if label.ends_with("USD)") {
                        assert!(two_decimals(field), "{label}: money with cents, got {field}");
                    }
                    assert_eq!(Decimal::from_str(field).unwrap(), v, "{label} / {}", s.id);
                }
                None => assert_eq!(field, "", "{label} / {}", s.id),
            }
        }
    }
    // Spot check against the command line's figures for this sample: ranks, then totals.
    assert_eq!((rows[1][1].as_str(), rows[1][2].as_str()), ("1", "2"));
    let total_cash = rows
        .iter()
        .find(|r| r[0] == "Total cash, within the horizon only (USD)")
        .unwrap();
    assert_eq!(total_cash[1], "2073591.89");
    assert_eq!(total_cash[2], "2665829.76");
}

#[test]
fn ledger_csv_is_the_engine_ledger_month_by_month() {
    let (eval, view) = common::sample("enterprise-hybrid");
    let rows = parse_csv(&ledger_csv(&view, &eval, "hybrid").unwrap());
    let r = eval.scenarios.iter().find(|r| r.id == "hybrid").unwrap();
    assert_eq!(rows.len(), 1 + view.months.len());
    assert_eq!(rows[0][0], "Month");
    assert_eq!(rows[0][6], "Electricity (USD)");
    assert_eq!(rows[0][CATEGORIES + 2], "Cumulative (USD)");
    let mut sums = [Decimal::ZERO; CATEGORIES];
    for (m, row) in r.ledger.months.iter().zip(&rows[1..]) {
        assert_eq!(row.len(), CATEGORIES + 3);
        assert_eq!(row[0], m.month.to_string());
        assert!(row[1..].iter().all(|f| two_decimals(f)), "{row:?}");
        for (c, &cat) in Category::ALL.iter().enumerate() {
            let v = Decimal::from_str(&row[c + 1]).unwrap();
            assert_eq!(v, present(m.cash.get(cat)), "{} {cat:?}", m.month);
            sums[c] += v;
        }
        assert_eq!(
            Decimal::from_str(&row[CATEGORIES + 1]).unwrap(),
            present(m.cash.total())
        );
        assert_eq!(
            Decimal::from_str(&row[CATEGORIES + 2]).unwrap(),
            present(m.cumulative_cash)
        );
    }
    let n = Decimal::from(view.months.len());
    for (c, &cat) in Category::ALL.iter().enumerate() {
        let total = present(r.totals.cash.get(cat));
        assert!(
            (sums[c] - total).abs() <= Decimal::new(5, 3) * n,
            "{cat:?}: {} vs {total}",
            sums[c]
        );
    }
    // The last month carries the resale as income.
    let last = rows.last().unwrap();
    let residual = 1 + Category::Residual.index();
    assert!(
        Decimal::from_str(&last[residual]).unwrap().is_sign_negative(),
        "residual {}",
        last[residual]
    );
}

#[test]
fn the_risk_sheet_holds_the_analysis_percentiles_tornado_and_seed_as_numbers() {
    let (eval, view) = common::sample("enterprise-hybrid");
    let outcome = common::sample_risk("enterprise-hybrid", 200, 7);
    let sheets = read_with_openpyxl(&comparison_xlsx(&view, &eval, Some(&outcome), None).unwrap());
    assert_eq!(sheets.len(), 4 + view.scenarios.len());
    let risk = sheets.last().unwrap();
    assert_eq!(risk["name"], "Risk");
    assert_eq!(risk["freeze"], "B2");
    let rows = risk["rows"].as_array().unwrap();
    let header: Vec<&str> = rows[0].as_array().unwrap().iter().map(text).collect();
    assert_eq!(
        header,
        [
            "Scenario",
            "Decision total at the price point (USD)",
            "P10 (USD)",
            "P50 (USD)",
            "P90 (USD)",
            "Mean (USD)",
            "P(cheaper than the baseline)"
        ]
    );
    for (r, s) in outcome.scenarios.iter().enumerate() {
        let row = rows[r + 1].as_array().unwrap();
        assert_eq!(text(&row[0]), s.name);
        for (cell, want, what) in [
            (&row[1], s.point_total, "point"),
            (&row[2], s.total.p10, "P10"),
            (&row[3], s.total.p50, "P50"),
            (&row[4], s.total.p90, "P90"),
            (&row[5], s.total.mean, "mean"),
        ] {
            assert_cell_is(cell, present(want), what);
            assert!(money_format(cell), "{what}: {cell}");
        }
        match s.cheaper_than_baseline {
            Some(p) => {
                assert_cell_is(&row[6], p, "P(cheaper)");
                assert_eq!(row[6]["f"], "0.00%");
            }
            None => assert_eq!(text(&row[6]), "baseline"),
        }
    }
    // The all-cloud scenario's tornado: a title, heads, then one row per bar.
    let tornado = &outcome.tornados[0];
    let start = rows
        .iter()
        .position(|r| {
            r.as_array()
                .unwrap()
                .first()
                .is_some_and(|c| !c.is_null() && text(c).starts_with("Tornado: "))
        })
        .unwrap();
    let heads: Vec<&str> = rows[start + 1].as_array().unwrap().iter().take(6).map(text).collect();
    assert_eq!(heads[0], "Figure");
    assert_eq!(heads[5], "Swing (USD)");
    assert!(!tornado.bars.is_empty());
    for (k, b) in tornado.bars.iter().enumerate() {
        let row = rows[start + 2 + k].as_array().unwrap();
        let figure = &outcome.figures[b.figure as usize];
        assert_eq!(text(&row[0]), format!("{}.{}", figure.entry, figure.field));
        assert_cell_is(&row[1], figure.low, "low");
        assert_cell_is(&row[2], figure.high, "high");
        assert_cell_is(&row[3], present(b.at_p10), "at P10");
        assert_cell_is(&row[4], present(b.at_p90), "at P90");
        assert_cell_is(&row[5], present(b.swing), "swing");
        assert!(money_format(&row[5]));
    }
    let notes: Vec<&str> = rows
        .iter()
        .filter_map(|r| r.as_array().unwrap().first())
        .filter(|c| !c.is_null())
        .map(text)
        .collect();
    assert!(
        notes.contains(
            &"Seed 7, 200 draws, triangular distributions, correlation 0.8 between the figures of one group (the cloud rates of one provider)."
        ),
        "{notes:?}"
    );
    assert!(notes.contains(
        &"Reproduce: planner risk FILE --draws 200 --seed 7 --shape triangular --correlation 0.8 --baseline hybrid"
    ));
}

fn sheet<'a>(sheets: &'a [Value], name: &str) -> &'a [Value] {
    sheets
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no sheet {name}"))["rows"]
        .as_array()
        .unwrap()
}

/// The table rows of a sheet: from the second row to the first empty one.
fn table_rows(rows: &[Value]) -> Vec<&Vec<Value>> {
    rows[1..]
        .iter()
        .map(|r| r.as_array().unwrap())
        .take_while(|r| !r.iter().all(Value::is_null))
        .collect()
}

fn cell_text(row: &[Value], col: usize) -> Option<&str> {
    row.get(col).filter(|c| !c.is_null()).map(text)
}

fn f(d: Decimal) -> f64 {
    d.to_string().parse().unwrap()
}

/// A quantity cell holds the engine's unrounded decimal as a double; the workbook keeps about
/// 15 significant digits of it.
fn assert_close(cell: &Value, expected: Decimal, what: &str) {
    let (got, want) = (number(cell), f(expected));
    assert!(
        (got - want).abs() <= 1e-12 * want.abs().max(1.0),
        "{what}: cell {got}, engine {expected}"
    );
}

/// The Dispatch sheet read back: per scenario and month, the served GPU-hours add up to the
/// ledger's delivered GPU-hours; every served cell, idle hour and unmet demand is the engine's.
fn check_dispatch(view: &DecisionView, eval: &Evaluation, sheets: &[Value]) {
    assert_eq!(
        sheets.len(),
        3 + view.scenarios.len(),
        "comparison, ledgers, dispatch, bridge"
    );
    let rows = sheet(sheets, "Dispatch");
    let header: Vec<&str> = rows[0].as_array().unwrap().iter().map(text).collect();
    assert_eq!(
        header,
        [
            "Scenario",
            "Month",
            "Workload",
            "Layer",
            "Units",
            "Unit",
            "Useful PFLOP-h",
            &format!("Cost ({})", view.currency),
            "Owned idle GPU-h",
            "Demand PFLOP-h",
            "Unmet PFLOP-h"
        ]
    );
    let table = table_rows(rows);
    let mut expected_rows = 0;
    for s in &view.scenarios {
        let r = eval.scenarios.iter().find(|r| r.id == s.id).unwrap();
        let ops = &r.operations;
        for (k, lm) in r.ledger.months.iter().enumerate() {
            let month = lm.month.to_string();
            let here: Vec<&&Vec<Value>> = table
                .iter()
                .filter(|row| cell_text(row, 0) == Some(s.name.as_str()) && cell_text(row, 1) == Some(month.as_str()))
                .collect();
            let m = &ops.months[k];
            let owned = ops
                .layers
                .iter()
                .filter(|l| l.kind == planner_core::engine::input::scenario_file::LayerKind::Owned)
                .count();
            assert_eq!(
                here.len(),
                m.served.len() + owned + ops.workloads.len(),
                "{} {month}",
                s.id
            );
            expected_rows += here.len();
            // Served GPU-hours, summed from the sheet's numbers, against the ledger's.
            let gpu_h: f64 = here
                .iter()
                .filter(|row| cell_text(row, 5) == Some("GPU-hours"))
                .map(|row| number(&row[4]))
                .sum();
            let delivered = f(lm.usage.delivered_gpu_h);
            assert!(
                (gpu_h - delivered).abs() <= 1e-9 * delivered.max(1.0),
                "{} {month}: dispatch {gpu_h} GPU-hours, ledger {delivered}",
                s.id
            );
            // Each served row is one of the engine's cells, its cost to the cent.
            let served: Vec<&&&Vec<Value>> = here.iter().filter(|row| cell_text(row, 5).is_some()).collect();
            assert_eq!(served.len(), m.served.len());
            for (row, c) in served.iter().zip(&m.served) {
                let layer = &ops.layers[c.layer as usize];
                assert_eq!(cell_text(row, 2), Some(ops.workloads[c.workload as usize].as_str()));
                assert_eq!(cell_text(row, 3), Some(layer.id.as_str()));
                assert_close(&row[4], c.units, "units");
                let unit = match layer.unit {
                    DispatchUnit::GpuHours => "GPU-hours",
                    DispatchUnit::MillionTokens => "million tokens",
                };
                assert_eq!(cell_text(row, 5), Some(unit));
                assert_close(&row[6], c.useful_pflop_h, "useful PFLOP-h");
                assert_cell_is(&row[7], present(c.cost), "served cost");
                assert!(money_format(&row[7]));
            }
            // Idle hours of each owned layer, and each workload's demand and unmet demand.
            for row in here.iter().filter(|row| row.get(8).is_some_and(|c| !c.is_null())) {
                let li = ops
                    .layers
                    .iter()
                    .position(|l| Some(l.id.as_str()) == cell_text(row, 3))
                    .unwrap();
                assert_close(&row[8], m.idle_gpu_h[li], "idle");
            }
            for (wi, w) in ops.workloads.iter().enumerate() {
                let row = here
                    .iter()
                    .find(|row| cell_text(row, 2) == Some(w.as_str()) && row.get(9).is_some_and(|c| !c.is_null()))
                    .unwrap();
                assert_close(&row[9], m.demand_pflop_h[wi], "demand");
                assert_close(&row[10], m.unmet_pflop_h[wi], "unmet");
            }
        }
    }
    assert_eq!(table.len(), expected_rows, "no row beside the scenarios' months");
}

#[test]
fn the_dispatch_sheet_adds_up_to_the_ledger_and_the_bridge_sheet_to_the_engines_bridge() {
    let (eval, view) = common::sample("enterprise-hybrid");
    let sheets = read_with_openpyxl(&comparison_xlsx(&view, &eval, None, None).unwrap());
    let names: Vec<&str> = sheets.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names[names.len() - 2..], ["Dispatch", "Bridge"]);
    check_dispatch(&view, &eval, &sheets);

    // The hybrid's DGX: ordered 2027-01, delivered 2027-04, bridged by on-demand for 3 months.
    let hybrid = eval.scenarios.iter().find(|r| r.id == "hybrid").unwrap();
    let b = &hybrid.operations.bridges[0];
    assert_eq!(b.layer, "dgx");
    let rows = sheet(&sheets, "Bridge");
    let header: Vec<&str> = rows[0].as_array().unwrap().iter().map(text).collect();
    assert_eq!(header[0], "Scenario");
    assert_eq!(header[11], "Cost (USD)");
    let table = table_rows(rows);
    let bridge: Vec<&&Vec<Value>> = table
        .iter()
        .filter(|row| cell_text(row, 0) == Some(hybrid.name.as_str()) && cell_text(row, 1) == Some("dgx"))
        .collect();
    assert_eq!(bridge.len(), b.lines.len() + 1, "its lines and its total");
    for row in &bridge {
        assert_eq!(cell_text(row, 2), Some("2027-01"));
        assert_eq!(cell_text(row, 3), Some("2027-04"));
        assert_eq!(number(&row[4]), 3.0);
        assert!(
            cell_text(row, 5)
                .unwrap()
                .starts_with("override: Sample assumption: a three-month delivery slot"),
            "{row:?}"
        );
    }
    let line = bridge[0];
    assert_eq!(cell_text(line, 6), Some("on-demand"));
    assert_eq!(cell_text(line, 7), Some("on-demand"));
    assert_eq!(number(&line[8]), 3.0);
    assert_close(&line[9], b.lines[0].units, "bridge units");
    assert_eq!(cell_text(line, 10), Some("GPU-hours"));
    assert_cell_is(&line[11], present(b.lines[0].cost), "bridge line");
    let total = bridge.last().unwrap();
    assert_eq!(cell_text(total, 6), Some("Total"));
    // The bridge's total is its lines' cost.
    let lines: Decimal = b.lines.iter().map(|l| l.cost).sum();
    assert_cell_is(&total[11], present(lines), "bridge total");
    assert_eq!(number(&total[12]), 0.0);
    // The all-cloud scenario owns nothing: no bridge rows.
    let cloud = eval.scenarios.iter().find(|r| r.id == "all-cloud").unwrap();
    assert!(table.iter().all(|row| cell_text(row, 0) != Some(cloud.name.as_str())));
}

#[test]
fn an_owned_layer_with_nothing_to_bridge_has_only_its_total_and_unmet_work_is_shown() {
    // Jetson: no lead time; Ascend: two months with no layer to serve its work.
    let (eval, view) = common::sample("embodied-ai-team");
    let sheets = read_with_openpyxl(&comparison_xlsx(&view, &eval, None, None).unwrap());
    let r = &eval.scenarios[0];
    let rows = sheet(&sheets, "Bridge");
    let table = table_rows(rows);
    for b in &r.operations.bridges {
        let mine: Vec<&&Vec<Value>> = table
            .iter()
            .filter(|row| cell_text(row, 1) == Some(b.layer.as_str()))
            .collect();
        assert_eq!(mine.len(), 1, "{}: only the total", b.layer);
        assert_eq!(cell_text(mine[0], 6), Some("Total"));
        assert_eq!(number(&mine[0][11]), 0.0);
        assert_close(&mine[0][12], b.unmet_pflop_h, "bridge unmet");
    }
    let ascend = r.operations.bridges.iter().find(|b| b.layer == "ascend").unwrap();
    assert!(ascend.unmet_pflop_h > Decimal::ZERO);
    let jetson = table.iter().find(|row| cell_text(row, 1) == Some("jetson")).unwrap();
    assert_eq!(cell_text(jetson, 5), Some("no lead time"));
}

/// The index of the first row of a sheet whose first cell is the text `first`.
fn row_starting(rows: &[Value], first: &str) -> usize {
    rows.iter()
        .position(|r| {
            r.as_array()
                .unwrap()
                .first()
                .is_some_and(|c| c["t"] == "s" && c["v"] == first)
        })
        .unwrap_or_else(|| panic!("no row starting with {first:?}"))
}

#[test]
fn the_scorecard_sheet_holds_the_engines_ranks_totals_weights_and_stability_as_numbers() {
    let (eval, view) = common::sample("enterprise-hybrid");
    let (_, screen, card) = common::sample_scorecard();
    let engine = screen.scorecard.as_ref().unwrap();
    assert_eq!(engine.ranking.len(), 3, "three vendors have every figure");
    let sheets = read_with_openpyxl(&comparison_xlsx(&view, &eval, None, Some(&card)).unwrap());
    let last = sheets.last().unwrap();
    assert_eq!(last["name"], "Scorecard");
    assert_eq!(last["freeze"], "C2");
    let rows = sheet(&sheets, "Scorecard");
    let header: Vec<&str> = rows[0].as_array().unwrap().iter().map(text).collect();
    assert_eq!(
        header,
        [
            "Rank",
            "Vendor",
            "Scenario",
            "Scenario id",
            "Decision total (USD)",
            "Performance",
            "Reliability",
            "Cost",
            "Service",
            "Compliance",
            "Weighted total",
            "D-1 checklist share",
            "Note"
        ]
    );
    let table = table_rows(rows);
    assert_eq!(table.len(), 4, "three ranked vendors and one not ranked");
    // The ranked rows are the engine's ranking, in its order, with its scores as numbers.
    for (row, s) in table.iter().zip(&engine.ranking) {
        assert_cell_is(&row[0], Decimal::from(s.rank), "rank");
        assert_eq!(text(&row[1]), s.name);
        let status = screen.vendors.iter().find(|v| v.name == s.name).unwrap();
        assert_eq!(text(&row[3]), status.scenario.as_deref().unwrap());
        assert_cell_is(&row[4], status.tco.unwrap(), "total cash");
        assert!(money_format(&row[4]), "{}", row[4]);
        for (k, a) in planner_core::rfp::scorecard::Axis::ALL.iter().enumerate() {
            assert_cell_is(&row[5 + k], s.axes.get(*a), a.name());
        }
        assert_cell_is(&row[10], s.score, "weighted total");
        assert_eq!(row[10]["f"], "0.00%");
        match status.compliance {
            Some(c) => assert_cell_is(&row[11], c, "checklist share"),
            None => assert_eq!(text(&row[11]), "not reviewed"),
        }
    }
    let mut ranked: Vec<&str> = table[..3].iter().map(|r| text(&r[1])).collect();
    ranked.sort_unstable();
    assert_eq!(ranked, ["Cirrus Compute", "Forge Metal", "Nimbus Cloud"]);
    // The vendor not ranked: no rank, no scores, and what it lacks in the scorecard's words.
    let partial = table[3];
    assert!(partial[0].is_null() && partial[10].is_null());
    assert_eq!(text(&partial[1]), "Delta Partial");
    assert_eq!(text(&partial[11]), "not reviewed");
    let note = text(&partial[12]);
    assert!(note.starts_with("Not ranked: "), "{note}");
    assert!(note.contains("the measured MFU is missing"), "{note}");
    assert!(note.contains("the expert hours per month is missing"), "{note}");
    // The weights: as typed and as shares of their sum.
    let w = row_starting(rows, "Weights");
    for (k, a) in planner_core::rfp::scorecard::Axis::ALL.iter().enumerate() {
        let row = rows[w + 2 + k].as_array().unwrap();
        assert_eq!(text(&row[0]), a.name());
        assert_cell_is(&row[1], card.entered_weights.get(*a), "entered weight");
        assert_cell_is(&row[2], engine.weights.get(*a), "weight share");
    }
    // The stability sentence, exactly as the engine words it.
    let st = row_starting(rows, "Stability of the ranking");
    assert_eq!(
        text(&rows[st + 1].as_array().unwrap()[0]),
        screen.stability.as_deref().unwrap()
    );
    let reviewed = text(&rows[st + 2].as_array().unwrap()[0]);
    assert!(reviewed.contains("Cirrus Compute, Delta Partial"), "{reviewed}");
    // The exit terms: the all-cloud reserved layer's clause, as numbers.
    let ex = row_starting(rows, "Exit terms as quoted");
    let spec = planner_core::engine::input::scenario_file::parse(&common::sample_text("enterprise-hybrid")).unwrap();
    let clause = spec
        .scenarios
        .iter()
        .find(|s| s.id == "all-cloud")
        .unwrap()
        .layers
        .iter()
        .find_map(|l| l.exit_clause.clone())
        .unwrap();
    let nimbus = rows[ex + 2..]
        .iter()
        .map(|r| r.as_array().unwrap())
        .find(|r| cell_text(r, 0) == Some("Nimbus Cloud"))
        .unwrap();
    assert_cell_is(&nimbus[3], Decimal::from(clause.notice_months), "notice");
    assert_cell_is(&nimbus[8], present(clause.offboarding), "offboarding");
}

#[test]
fn without_a_scorecard_the_workbook_has_no_scorecard_sheet() {
    let (eval, view) = common::sample("enterprise-hybrid");
    let sheets = read_with_openpyxl(&comparison_xlsx(&view, &eval, None, None).unwrap());
    assert!(sheets.iter().all(|s| s["name"] != "Scorecard"));
}
