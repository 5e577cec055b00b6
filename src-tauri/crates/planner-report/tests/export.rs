//! The exports read back by independent readers: the workbook by Python's openpyxl (a test
//! failure, not a skip, when python3 or openpyxl is missing), the CSV by the `csv` crate. Every
//! figure must equal the decision view's, every ledger cell the engine's, to the cent.

// Test code: a failed expectation is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::process::Command;
use std::str::FromStr;

use planner_core::decision::{DecisionView, ScenarioFigures};
use planner_core::evaluate::Evaluation;
use planner_core::finance::present;
use planner_core::ledger::{CATEGORIES, Category};
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
        (format!("Total cash ({c})"), Box::new(|s| Some(s.total_cash))),
        (format!("Total book ({c})"), Box::new(|s| Some(s.total_book))),
        (format!("NPV ({c})"), Box::new(|s| Some(s.npv))),
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
            format!("Difference vs reference (total, {c})"),
            Box::new(|s| s.difference.as_ref().map(|d| d.total)),
        ),
        (
            format!("Difference vs reference (NPV, {c})"),
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
    let bytes = comparison_xlsx(view, eval, None).unwrap();
    let sheets = read_with_openpyxl(&bytes);
    assert_eq!(sheets.len(), 1 + view.scenarios.len());

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
    let sheets = read_with_openpyxl(&comparison_xlsx(&view, &eval, None).unwrap());
    let mut names: Vec<String> = sheets
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_lowercase())
        .collect();
    assert_eq!(names.len(), 9);
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 9, "sheet names collide: {names:?}");
    check_workbook(&view, &eval);
}

#[test]
fn an_evaluation_of_another_plan_is_refused() {
    let (_, view) = common::sample("embodied-ai-team");
    let (other, _) = common::sample("university-lab-pool");
    assert!(matches!(
        comparison_xlsx(&view, &other, None),
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
    let total_cash = rows.iter().find(|r| r[0] == "Total cash (USD)").unwrap();
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
    let sheets = read_with_openpyxl(&comparison_xlsx(&view, &eval, Some(&outcome)).unwrap());
    assert_eq!(sheets.len(), 2 + view.scenarios.len());
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
