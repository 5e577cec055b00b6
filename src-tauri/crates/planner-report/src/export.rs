//! The comparison as a spreadsheet (XLSX) and as CSV, and one scenario's monthly ledger as CSV.
//!
//! Every figure is the decision view's presented value (money rounded half-even to cents by
//! `finance::present`), written as a number: a spreadsheet cell holds an `f64` converted from the
//! decimal's exact text, so it is the nearest double to the cent value; CSV holds the decimal's
//! own text. A figure that does not apply (cost per token without tokens, the difference of the
//! reference to itself) is an empty cell.
//!
//! # Workbook layout
//!
//! Sheet **`Comparison`**, a rectangular table from `A1`:
//! - row 1: `Figure`, then one column per scenario, headed by the scenario's name, in view order;
//! - rows 2 to 21: one decision figure per row, in the order of [`FIGURES`]; column A is the
//!   figure's name with its unit, money rows with the currency
//!   (`Total cash, within the horizon only (USD)`);
//! - then one empty row, then notes in column A (title, horizon, currency and rounding, the
//!   reference, scenario ids, "Computed by Compute Planner", and why two figures name different
//!   cheaper scenarios where they do). A reader of the table stops at the first empty row.
//!
//! One sheet per scenario, **`Ledger – <name>`** (shortened to Excel's 31 characters, with
//! `[]:*?/\` replaced by `_`, and numbered ` (2)`, ` (3)`... when names collide), the cash view:
//! - row 1: `Month`, the 20 cost categories in ledger order (`Hardware (USD)`...), `Total (USD)`,
//!   `Cumulative (USD)`;
//! - one row per month, column A the month as text `YYYY-MM`;
//! - a last row `Total` with the engine's totals per category and overall (cumulative empty).
//!
//! Sheet **`Dispatch`**, what each plan does month by month (from the evaluation's `operations`),
//! one table from `A1` for every scenario in view order:
//! - row 1: `Scenario`, `Month`, `Workload`, `Layer`, `Units`, `Unit`, `Useful PFLOP-h`,
//!   `Cost (USD)`, `Owned idle GPU-h`, `Demand PFLOP-h`, `Unmet PFLOP-h`;
//! - per scenario and month, three kinds of row, told apart by the columns they fill: one per
//!   (workload, layer) pair that served (workload and layer ids, units, `GPU-hours` or
//!   `million tokens`, useful PFLOP-hours, cost to the cent), one per owned layer (its idle
//!   GPU-hours), one per workload (its demand and unmet demand). A month's served `GPU-hours` add
//!   up to the ledger's delivered GPU-hours;
//! - then one empty row and notes.
//!
//! Sheet **`Bridge`**, for every owned layer of every scenario: `Scenario`, `Owned layer`,
//! `Ordered`, `Delivered` (months as text), `Lead time (months)`, `Lead time source` (the typed
//! reason, or the catalog entry with its value, date and sources), then one row per layer serving
//! its workloads before delivery (`Serving layer`, `Kind`, `Months`, `Units`, `Unit`, `Cost`) and a
//! `Total` row with the bridge's cost and the PFLOP-hours left unmet meanwhile; then notes.
//!
//! Sheet **`Risk`**, when a risk analysis of the same plan is passed: row 1 heads, then one row
//! per scenario (the decision total at the price point, P10, P50, P90 and mean over the draws, and
//! the share of draws cheaper than the baseline, `baseline` for the baseline itself); then, per
//! scenario but the baseline, its tornado table (figure, low, high, the difference with the figure
//! at its P10 and at its P90, the swing); then the seed, draws, correlation and the CLI command
//! that reruns it.
//!
//! Sheet **`Scorecard`**, when the workspace's vendor scorecard is passed (the same
//! `ScorecardSummary` the memo's Vendor scorecard section prints): one row per vendor from `A1`
//! (rank, name, scenario, total cash, the five axis scores and the weighted total as shares, the
//! D-1 checklist share or `not reviewed`, and for a vendor not ranked what it lacks), then the
//! weights, the stability sentence and the exit terms each vendor's quotes state; see
//! `export/scorecard.rs`.
//!
//! Header rows and the first column (Dispatch and Bridge: the first two) are frozen. Money cells are formatted `#,##0.00` (ledger cells
//! show a zero as `-`).
//!
//! # CSV
//!
//! RFC 4180: comma separated, CRLF line ends, fields quoted when they hold a comma, quote or line
//! break. Numbers are plain decimals with a dot and no thousands separators; money always has two
//! decimals. [`comparison_csv`] is the Comparison table alone (no notes); [`ledger_csv`] is a
//! ledger sheet without its `Total` row, so every data row is a month.

use planner_core::engine::blocks::finance::present;
use planner_core::engine::costing::evaluate::{Evaluation, ScenarioResult};
use planner_core::engine::costing::operations::{Bridge, DispatchUnit, Operations};
use planner_core::engine::decide::decision::{DecisionView, ScenarioFigures};
use planner_core::engine::input::scenario_file::LayerKind;
use planner_core::engine::model::assumption::{Assumption, Origin};
use planner_core::engine::model::ledger::Category;
use planner_core::engine::risk::run::RiskOutcome;
use planner_core::rfp::summary::ScorecardSummary;
use rust_decimal::Decimal;
use rust_xlsxwriter::{DocProperties, Format, FormatAlign, FormatBorder, Workbook, Worksheet, XlsxError};

use crate::category_label;

mod scorecard;

/// Why an export was not produced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("there is no scenario `{0}` in this comparison")]
    UnknownScenario(String),
    #[error("the evaluation does not belong to this comparison: {0}")]
    Mismatch(String),
    #[error("the workbook could not be written: {0}")]
    Xlsx(String),
}

impl From<XlsxError> for ExportError {
    fn from(e: XlsxError) -> Self {
        ExportError::Xlsx(e.to_string())
    }
}

/// How a figure is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FigureKind {
    /// In the view's currency, to the cent.
    Money,
    /// A share between 0 and 1 (shown as a percentage in the workbook).
    Fraction,
    /// A whole quantity (kWh, kg).
    Whole,
    /// A quantity to one decimal (PFLOP-h).
    Tenths,
    /// A month number counted from 1 = the first month.
    Month,
}

/// One row of the comparison table.
#[derive(Debug, Clone, Copy)]
pub struct Figure {
    /// The row's header; `{c}` stands for the currency code.
    pub label: &'static str,
    pub kind: FigureKind,
    pub value: fn(&ScenarioFigures) -> Option<Decimal>,
}

impl Figure {
    /// The header with the currency filled in.
    pub fn header(&self, currency: &str) -> String {
        self.label.replace("{c}", currency)
    }
}

/// The rows of the comparison table, in order.
pub const FIGURES: [Figure; 20] = [
    Figure {
        label: "Rank (1 = best; scenarios serving all the work first)",
        kind: FigureKind::Month,
        value: |s| Some(Decimal::from(s.rank)),
    },
    Figure {
        label: "Decision total ({c}; incl. commitments after horizon)",
        kind: FigureKind::Money,
        value: |s| Some(s.decision_total),
    },
    Figure {
        label: "Total cash, within the horizon only ({c})",
        kind: FigureKind::Money,
        value: |s| Some(s.total_cash),
    },
    Figure {
        label: "Total book ({c})",
        kind: FigureKind::Money,
        value: |s| Some(s.total_book),
    },
    Figure {
        label: "NPV, decision basis ({c})",
        kind: FigureKind::Money,
        value: |s| Some(s.npv),
    },
    Figure {
        label: "Cost per GPU-hour ({c})",
        kind: FigureKind::Money,
        value: |s| s.cost_per_gpu_hour,
    },
    Figure {
        label: "Cost per useful PFLOP-hour ({c})",
        kind: FigureKind::Money,
        value: |s| s.cost_per_useful_pflop_hour,
    },
    Figure {
        label: "Cost per million tokens ({c})",
        kind: FigureKind::Money,
        value: |s| s.cost_per_million_tokens,
    },
    Figure {
        label: "Owned utilisation (fraction)",
        kind: FigureKind::Fraction,
        value: |s| s.owned_utilisation,
    },
    Figure {
        label: "Idle cost ({c})",
        kind: FigureKind::Money,
        value: |s| Some(s.idle_cost),
    },
    Figure {
        label: "Energy (kWh)",
        kind: FigureKind::Whole,
        value: |s| Some(s.energy_kwh),
    },
    Figure {
        label: "Emissions (kg CO2e)",
        kind: FigureKind::Whole,
        value: |s| Some(s.emissions_kg),
    },
    Figure {
        label: "Unmet demand (PFLOP-h)",
        kind: FigureKind::Tenths,
        value: |s| Some(s.unmet_pflop_h),
    },
    Figure {
        label: "Unserved work at shadow price ({c}; in total cash)",
        kind: FigureKind::Money,
        value: |s| Some(s.unserved_cost),
    },
    Figure {
        label: "Residual value ({c})",
        kind: FigureKind::Money,
        value: |s| Some(s.residual_value),
    },
    Figure {
        label: "Commitments after horizon ({c})",
        kind: FigureKind::Money,
        value: |s| Some(s.commitments_after_horizon),
    },
    Figure {
        label: "Difference vs reference (decision total, {c})",
        kind: FigureKind::Money,
        value: |s| s.difference.as_ref().map(|d| d.total),
    },
    Figure {
        label: "Difference vs reference (NPV, decision basis, {c})",
        kind: FigureKind::Money,
        value: |s| s.difference.as_ref().map(|d| d.npv),
    },
    Figure {
        label: "Break-even month vs reference (month no.)",
        kind: FigureKind::Month,
        value: |s| {
            s.difference
                .as_ref()
                .and_then(|d| d.break_even.as_ref())
                .map(|b| Decimal::from(b.month))
        },
    },
    Figure {
        label: "Break-even vs reference (average months)",
        kind: FigureKind::Tenths,
        value: |s| {
            s.difference
                .as_ref()
                .and_then(|d| d.break_even.as_ref())
                .map(|b| b.at_month.round_dp(1))
        },
    },
];

/// The nearest `f64` to a decimal, through its exact text.
fn number(d: Decimal) -> Result<f64, ExportError> {
    d.to_string()
        .parse::<f64>()
        .map_err(|_| ExportError::Xlsx(format!("{d} is not a number")))
}

fn result_for<'e>(eval: &'e Evaluation, id: &str) -> Result<&'e ScenarioResult, ExportError> {
    eval.scenarios
        .iter()
        .find(|r| r.id == id)
        .ok_or_else(|| ExportError::Mismatch(format!("scenario `{id}` was not evaluated")))
}

fn check_same(view: &DecisionView, eval: &Evaluation) -> Result<(), ExportError> {
    if view.currency != eval.currency || view.start != eval.start || view.horizon_months != eval.horizon_months {
        return Err(ExportError::Mismatch(format!(
            "the view is {} from {} over {} months, the evaluation {} from {} over {} months",
            view.currency, view.start, view.horizon_months, eval.currency, eval.start, eval.horizon_months
        )));
    }
    Ok(())
}

fn ledger_headers(currency: &str) -> Vec<String> {
    let mut h = Vec::with_capacity(Category::ALL.len() + 3);
    h.push("Month".to_owned());
    h.extend(
        Category::ALL
            .iter()
            .map(|&c| format!("{} ({currency})", category_label(c))),
    );
    h.push(format!("Total ({currency})"));
    h.push(format!("Cumulative ({currency})"));
    h
}

// ---------------------------------------------------------------------------------------------
// XLSX

/// Excel's sheet-name rules: at most 31 UTF-16 units, none of `[]:*?/\`, no apostrophe at either
/// end, unique without regard to case.
fn sheet_name(scenario: &str, used: &mut Vec<String>) -> String {
    let clean: String = scenario
        .chars()
        .map(|c| {
            if "[]:*?/\\".contains(c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let base = format!("Ledger – {}", clean.trim());
    let fit = |s: &str, room: usize| -> String {
        let mut out = String::new();
        let mut len = 0;
        for c in s.chars() {
            len += c.len_utf16();
            if len > room {
                break;
            }
            out.push(c);
        }
        out.trim_end().trim_end_matches('\'').trim_end().to_owned()
    };
    let mut name = fit(&base, 31);
    let mut k = 2;
    while used.iter().any(|u| u.to_lowercase() == name.to_lowercase()) {
        let suffix = format!(" ({k})");
        name = format!("{}{suffix}", fit(&base, 31 - suffix.len()));
        k += 1;
    }
    used.push(name.clone());
    name
}

struct Formats {
    header: Format,
    header_label: Format,
    label: Format,
    money: Format,
    ledger_money: Format,
    fraction: Format,
    whole: Format,
    tenths: Format,
    month: Format,
    quantity: Format,
    total_label: Format,
    total_money: Format,
    title: Format,
}

fn formats() -> Formats {
    let header = Format::new()
        .set_bold()
        .set_text_wrap()
        .set_align(FormatAlign::Top)
        .set_border_bottom(FormatBorder::Thin);
    Formats {
        header_label: header.clone().set_align(FormatAlign::Left),
        header: header.set_align(FormatAlign::Right),
        label: Format::new(),
        money: Format::new().set_num_format("#,##0.00"),
        ledger_money: Format::new().set_num_format("#,##0.00;-#,##0.00;\"-\""),
        fraction: Format::new().set_num_format("0.00%"),
        whole: Format::new().set_num_format("#,##0"),
        tenths: Format::new().set_num_format("#,##0.0"),
        month: Format::new().set_num_format("0"),
        quantity: Format::new().set_num_format("#,##0.000"),
        total_label: Format::new().set_bold().set_border_top(FormatBorder::Thin),
        total_money: Format::new()
            .set_bold()
            .set_border_top(FormatBorder::Thin)
            .set_num_format("#,##0.00;-#,##0.00;\"-\""),
        title: Format::new().set_bold().set_font_size(13),
    }
}

fn comparison_sheet(
    sheet: &mut Worksheet,
    view: &DecisionView,
    eval: &Evaluation,
    f: &Formats,
) -> Result<(), ExportError> {
    sheet.set_name("Comparison")?;
    sheet.write_string_with_format(0, 0, "Figure", &f.header_label)?;
    sheet.set_column_width(0, 42)?;
    for (i, s) in view.scenarios.iter().enumerate() {
        let col = u16::try_from(i + 1).map_err(|_| ExportError::Xlsx("too many scenarios".into()))?;
        sheet.write_string_with_format(0, col, &s.name, &f.header)?;
        sheet.set_column_width(col, 18)?;
    }
    sheet.set_row_height(0, 30)?;
    for (r, fig) in FIGURES.iter().enumerate() {
        let row = u32::try_from(r + 1).unwrap_or(u32::MAX);
        sheet.write_string_with_format(row, 0, fig.header(&view.currency), &f.label)?;
        let format = match fig.kind {
            FigureKind::Money => &f.money,
            FigureKind::Fraction => &f.fraction,
            FigureKind::Whole => &f.whole,
            FigureKind::Tenths => &f.tenths,
            FigureKind::Month => &f.month,
        };
        for (i, s) in view.scenarios.iter().enumerate() {
            let col = u16::try_from(i + 1).map_err(|_| ExportError::Xlsx("too many scenarios".into()))?;
            if let Some(v) = (fig.value)(s) {
                sheet.write_number_with_format(row, col, number(v)?, format)?;
            }
        }
    }
    sheet.set_freeze_panes(1, 1)?;

    let last = view.months.last().map(ToString::to_string).unwrap_or_default();
    let reference = view
        .reference
        .as_deref()
        .and_then(|id| view.scenarios.iter().find(|s| s.id == id))
        .map(|s| {
            let how = if view.baseline_pinned {
                "the pinned baseline"
            } else {
                "the first scenario"
            };
            format!("Differences and break-even are against {} ({how}).", s.name)
        })
        .unwrap_or_else(|| "No reference scenario.".to_owned());
    let ids: Vec<String> = view
        .scenarios
        .iter()
        .map(|s| format!("{} = {}", s.name, s.id))
        .collect();
    let notes = [
        format!(
            "Horizon: {} months, {} to {last}. NPV at an annual discount rate of {}%, on the decision basis: each month's cash, then the commitments after the horizon, each discounted from the month it falls due.",
            view.horizon_months,
            view.start,
            (eval.discount_rate * Decimal::ONE_HUNDRED).normalize()
        ),
        format!(
            "Money in {}, rounded half-even to cents. A difference is the scenario minus the reference: negative means cheaper.",
            view.currency
        ),
        reference,
        format!(
            "Break-even month: counted from 1 = {}; from that month on the scenario cheaper on the decision total stays cheaper in cumulative cash. None when it is cheaper throughout, or when only the commitments after the horizon make it the cheaper (a note below says so).",
            view.start
        ),
        format!("Scenario ids: {}.", ids.join("; ")),
        format!("Computed by Compute Planner. Amounts in {}.", view.currency),
    ];
    // Where two figures comparing a scenario with the reference name different winners: why.
    let why: Vec<String> = view
        .scenarios
        .iter()
        .filter_map(|s| s.difference.as_ref().map(|d| (s, d)))
        .flat_map(|(s, d)| {
            [d.break_even_note.as_ref(), d.npv_note.as_ref()]
                .into_iter()
                .flatten()
                .map(move |n| format!("{}: {n}", s.name))
        })
        .collect();
    let notes = notes.into_iter().chain(why);
    let mut row = u32::try_from(FIGURES.len() + 2).unwrap_or(u32::MAX);
    sheet.write_string_with_format(row, 0, &view.title, &f.title)?;
    for note in notes {
        row += 1;
        sheet.write_string(row, 0, note)?;
    }
    Ok(())
}

fn ledger_sheet(
    sheet: &mut Worksheet,
    name: &str,
    currency: &str,
    r: &ScenarioResult,
    f: &Formats,
) -> Result<(), ExportError> {
    sheet.set_name(name)?;
    for (c, h) in ledger_headers(currency).iter().enumerate() {
        let col = u16::try_from(c).unwrap_or(u16::MAX);
        let format = if c == 0 { &f.header_label } else { &f.header };
        sheet.write_string_with_format(0, col, h, format)?;
        sheet.set_column_width(col, if c == 0 { 10 } else { 15 })?;
    }
    sheet.set_row_height(0, 45)?;
    let total_col = u16::try_from(Category::ALL.len() + 1).unwrap_or(u16::MAX);
    let mut row = 0u32;
    for m in &r.ledger.months {
        row += 1;
        sheet.write_string(row, 0, m.month.to_string())?;
        for (c, &cat) in Category::ALL.iter().enumerate() {
            let col = u16::try_from(c + 1).unwrap_or(u16::MAX);
            sheet.write_number_with_format(row, col, number(present(m.cash.get(cat)))?, &f.ledger_money)?;
        }
        sheet.write_number_with_format(row, total_col, number(present(m.cash.total()))?, &f.ledger_money)?;
        sheet.write_number_with_format(row, total_col + 1, number(present(m.cumulative_cash))?, &f.ledger_money)?;
    }
    row += 1;
    sheet.write_string_with_format(row, 0, "Total", &f.total_label)?;
    for (c, &cat) in Category::ALL.iter().enumerate() {
        let col = u16::try_from(c + 1).unwrap_or(u16::MAX);
        sheet.write_number_with_format(row, col, number(present(r.totals.cash.get(cat)))?, &f.total_money)?;
    }
    sheet.write_number_with_format(row, total_col, number(present(r.totals.total_cash))?, &f.total_money)?;
    sheet.write_blank(row, total_col + 1, &f.total_label)?;
    sheet.set_freeze_panes(1, 1)?;
    Ok(())
}

/// Writes the cells of `row` from column A: text as text, money as numbers presented to the cent
/// in the money format,
/// shares in the percentage format; `None` leaves the cell empty.
fn write_row(sheet: &mut Worksheet, row: u32, cells: &[Cell<'_>], f: &Formats) -> Result<(), ExportError> {
    for (c, cell) in cells.iter().enumerate() {
        let col = u16::try_from(c).map_err(|_| ExportError::Xlsx("too many columns".into()))?;
        match cell {
            Cell::Text(t) => {
                sheet.write_string(row, col, *t)?;
            }
            Cell::Head(t) => {
                let format = if c == 0 { &f.header_label } else { &f.header };
                sheet.write_string_with_format(row, col, *t, format)?;
            }
            Cell::Money(v) => {
                sheet.write_number_with_format(row, col, number(present(*v))?, &f.money)?;
            }
            Cell::Share(v) => {
                sheet.write_number_with_format(row, col, number(*v)?, &f.fraction)?;
            }
            Cell::Number(v) => {
                sheet.write_number_with_format(row, col, number(*v)?, &f.whole)?;
            }
            Cell::Plain(v) => {
                sheet.write_number(row, col, number(*v)?)?;
            }
            Cell::Empty => {}
        }
    }
    Ok(())
}

/// One cell of the Risk and Scorecard sheets.
enum Cell<'a> {
    Text(&'a str),
    Head(&'a str),
    Money(Decimal),
    Share(Decimal),
    Number(Decimal),
    /// A number as it is, in the general format.
    Plain(Decimal),
    Empty,
}

/// The Risk sheet: each scenario's decision total over the draws (the point, P10, P50, P90 and
/// mean, and the share of draws cheaper than the baseline), then each tornado (figure, its range,
/// the difference from the baseline with it at its P10 and P90, the swing), then how to rerun it.
fn risk_sheet(sheet: &mut Worksheet, currency: &str, outcome: &RiskOutcome, f: &Formats) -> Result<(), ExportError> {
    sheet.set_name("Risk")?;
    sheet.set_column_width(0, 42)?;
    for col in 1..=6 {
        sheet.set_column_width(col, 18)?;
    }
    let money = |what: &str| format!("{what} ({currency})");
    let heads = [
        "Scenario".to_owned(),
        money("Decision total at the price point"),
        money("P10"),
        money("P50"),
        money("P90"),
        money("Mean"),
        "P(cheaper than the baseline)".to_owned(),
    ];
    let head_cells: Vec<Cell<'_>> = heads.iter().map(|h| Cell::Head(h)).collect();
    write_row(sheet, 0, &head_cells, f)?;
    sheet.set_row_height(0, 30)?;
    let mut row = 0u32;
    for s in &outcome.scenarios {
        row += 1;
        let odds = s.cheaper_than_baseline.map_or(Cell::Text("baseline"), Cell::Share);
        let cells = [
            Cell::Text(&s.name),
            Cell::Money(s.point_total),
            Cell::Money(s.total.p10),
            Cell::Money(s.total.p50),
            Cell::Money(s.total.p90),
            Cell::Money(s.total.mean),
            odds,
        ];
        write_row(sheet, row, &cells, f)?;
    }
    sheet.set_freeze_panes(1, 1)?;
    let name = |id: &str| {
        outcome
            .scenarios
            .iter()
            .find(|s| s.id == id)
            .map_or(id.to_owned(), |s| s.name.clone())
    };
    let baseline = name(&outcome.baseline);
    for t in &outcome.tornados {
        row += 2;
        let title = format!(
            "Tornado: {} − {baseline}, {currency} {} with every figure at its point",
            name(&t.scenario),
            t.at_point
        );
        sheet.write_string_with_format(row, 0, title, &f.title)?;
        row += 1;
        let heads = [
            "Figure".to_owned(),
            "Low".to_owned(),
            "High".to_owned(),
            money("Difference, figure at its P10"),
            money("Difference, figure at its P90"),
            money("Swing"),
        ];
        let head_cells: Vec<Cell<'_>> = heads.iter().map(|h| Cell::Head(h)).collect();
        write_row(sheet, row, &head_cells, f)?;
        for b in &t.bars {
            row += 1;
            let figure = usize::try_from(b.figure).ok().and_then(|k| outcome.figures.get(k));
            let label = figure.map_or_else(
                || format!("figure {}", b.figure),
                |x| format!("{}.{}", x.entry, x.field),
            );
            let cells = [
                Cell::Text(&label),
                figure.map_or(Cell::Empty, |x| Cell::Number(x.low)),
                figure.map_or(Cell::Empty, |x| Cell::Number(x.high)),
                Cell::Money(b.at_p10),
                Cell::Money(b.at_p90),
                Cell::Money(b.swing),
            ];
            write_row(sheet, row, &cells, f)?;
        }
        if let Some(note) = &t.interaction_note {
            row += 1;
            sheet.write_string(row, 0, note)?;
        }
    }
    let notes = [
        format!(
            "Seed {}, {} draws, {} distributions, correlation {} between the figures of one group (the cloud rates of one provider).",
            outcome.seed,
            outcome.draws,
            outcome.shape.label(),
            outcome.group_correlation
        ),
        format!("Baseline: {baseline}. P(cheaper) counts ties as half."),
        format!(
            "Reproduce: planner risk FILE --draws {} --seed {} --shape {} --correlation {} --baseline {}",
            outcome.draws,
            outcome.seed,
            outcome.shape.name(),
            outcome.group_correlation,
            outcome.baseline
        ),
    ];
    row += 1;
    for note in notes {
        row += 1;
        sheet.write_string(row, 0, note)?;
    }
    Ok(())
}

/// The units a layer's dispatch cells count, as the sheets name them.
fn unit_name(unit: DispatchUnit) -> &'static str {
    match unit {
        DispatchUnit::GpuHours => "GPU-hours",
        DispatchUnit::MillionTokens => "million tokens",
    }
}

/// Writes `text` at (`row`, `col`) unless it is empty.
fn text_cell(sheet: &mut Worksheet, row: u32, col: u16, text: &str) -> Result<(), ExportError> {
    if !text.is_empty() {
        sheet.write_string(row, col, text)?;
    }
    Ok(())
}

/// The heads of a sheet's table in row 1, with column widths.
fn heads(sheet: &mut Worksheet, heads: &[(String, f64)], f: &Formats) -> Result<(), ExportError> {
    for (c, (h, width)) in heads.iter().enumerate() {
        let col = u16::try_from(c).map_err(|_| ExportError::Xlsx("too many columns".into()))?;
        let format = if c < 2 { &f.header_label } else { &f.header };
        sheet.write_string_with_format(0, col, h, format)?;
        sheet.set_column_width(col, *width)?;
    }
    sheet.set_row_height(0, 30)?;
    Ok(())
}

/// Notes under a table, after one empty row (a reader of the table stops there).
fn notes_below(sheet: &mut Worksheet, last_row: u32, notes: &[String]) -> Result<(), ExportError> {
    let mut row = last_row + 1;
    for note in notes {
        row += 1;
        sheet.write_string(row, 0, note)?;
    }
    Ok(())
}

/// One scenario's dispatch rows from `row` on; returns the last row written.
fn dispatch_rows(
    sheet: &mut Worksheet,
    mut row: u32,
    name: &str,
    ops: &Operations,
    f: &Formats,
) -> Result<u32, ExportError> {
    let layer = |li: u32| ops.layers.get(li as usize);
    let workload = |wi: usize| ops.workloads.get(wi).map_or("", String::as_str);
    for m in &ops.months {
        let month = m.month.to_string();
        let start = |sheet: &mut Worksheet, row: u32| -> Result<(), ExportError> {
            sheet.write_string(row, 0, name)?;
            sheet.write_string(row, 1, &month)?;
            Ok(())
        };
        for c in &m.served {
            row += 1;
            start(sheet, row)?;
            text_cell(sheet, row, 2, workload(c.workload as usize))?;
            text_cell(sheet, row, 3, layer(c.layer).map_or("", |l| l.id.as_str()))?;
            sheet.write_number_with_format(row, 4, number(c.units)?, &f.tenths)?;
            let unit = layer(c.layer).map_or(DispatchUnit::GpuHours, |l| l.unit);
            sheet.write_string(row, 5, unit_name(unit))?;
            sheet.write_number_with_format(row, 6, number(c.useful_pflop_h)?, &f.quantity)?;
            sheet.write_number_with_format(row, 7, number(present(c.cost))?, &f.money)?;
        }
        for (li, idle) in m.idle_gpu_h.iter().enumerate() {
            if ops.layers.get(li).is_none_or(|l| l.kind != LayerKind::Owned) {
                continue;
            }
            row += 1;
            start(sheet, row)?;
            text_cell(sheet, row, 3, ops.layers.get(li).map_or("", |l| l.id.as_str()))?;
            sheet.write_number_with_format(row, 8, number(*idle)?, &f.tenths)?;
        }
        for (wi, demand) in m.demand_pflop_h.iter().enumerate() {
            row += 1;
            start(sheet, row)?;
            text_cell(sheet, row, 2, workload(wi))?;
            sheet.write_number_with_format(row, 9, number(*demand)?, &f.quantity)?;
            let unmet = m.unmet_pflop_h.get(wi).copied().unwrap_or_default();
            sheet.write_number_with_format(row, 10, number(unmet)?, &f.quantity)?;
        }
    }
    Ok(row)
}

/// The Dispatch sheet: per scenario and month, what each layer gave each workload, each owned
/// layer's idle hours, and each workload's demand and unmet demand.
fn dispatch_sheet(
    sheet: &mut Worksheet,
    view: &DecisionView,
    eval: &Evaluation,
    f: &Formats,
) -> Result<(), ExportError> {
    sheet.set_name("Dispatch")?;
    let c = &view.currency;
    let columns = [
        ("Scenario".to_owned(), 30.0),
        ("Month".to_owned(), 9.0),
        ("Workload".to_owned(), 20.0),
        ("Layer".to_owned(), 16.0),
        ("Units".to_owned(), 14.0),
        ("Unit".to_owned(), 14.0),
        ("Useful PFLOP-h".to_owned(), 14.0),
        (format!("Cost ({c})"), 14.0),
        ("Owned idle GPU-h".to_owned(), 14.0),
        ("Demand PFLOP-h".to_owned(), 14.0),
        ("Unmet PFLOP-h".to_owned(), 14.0),
    ];
    heads(sheet, &columns, f)?;
    let mut row = 0u32;
    for s in &view.scenarios {
        let r = result_for(eval, &s.id)?;
        row = dispatch_rows(sheet, row, &s.name, &r.operations, f)?;
    }
    sheet.set_freeze_panes(1, 2)?;
    let notes = [
        "Three kinds of row per scenario and month. Served: a layer's units given to a workload (GPU-hours, or millions of tokens on a token-metered layer), the useful PFLOP-hours they gave and their cost at the layer's unit price (reserved: its hourly rate; owned hours cost nothing here, their cost is in the ledger).".to_owned(),
        "Idle: an owned layer's GPU-hours available and not used. Demand: a workload's useful PFLOP-hours asked for and left unmet.".to_owned(),
        format!(
            "The GPU-hours of a scenario's served rows in a month are the ledger's delivered GPU-hours. Money in {c}, rounded half-even to cents; quantities unrounded."
        ),
    ];
    notes_below(sheet, row, &notes)
}

/// Where a lead time comes from, as one cell.
fn lead_time_source(b: &Bridge) -> String {
    match &b.lead_time {
        Some(Assumption {
            origin: Origin::Override { reason },
            ..
        }) => format!("override: {}", reason.trim()),
        Some(Assumption {
            origin: Origin::Derived { rule },
            ..
        }) => format!("derived: {}", rule.trim()),
        Some(Assumption {
            path,
            value,
            origin:
                Origin::Catalog {
                    entry,
                    field,
                    as_of,
                    sources,
                    ..
                },
        }) => format!(
            "catalog {entry}.{field}: {}{} as of {as_of} ({})",
            value.normalize(),
            if path.ends_with("weeks") { " weeks" } else { "" },
            sources.join("; ")
        ),
        None if b.lead_time_months == 0 => "no lead time".to_owned(),
        None => String::new(),
    }
}

/// One bridge's rows from `row` on (its lines, then its total); returns the last row written.
fn bridge_rows(sheet: &mut Worksheet, mut row: u32, name: &str, b: &Bridge, f: &Formats) -> Result<u32, ExportError> {
    let delivered = if b.delivered_in_horizon {
        b.delivery_month.to_string()
    } else {
        format!("{} (after the horizon)", b.delivery_month)
    };
    let source = lead_time_source(b);
    let start = |sheet: &mut Worksheet, row: u32| -> Result<(), ExportError> {
        sheet.write_string(row, 0, name)?;
        sheet.write_string(row, 1, &b.layer)?;
        sheet.write_string(row, 2, b.order_month.to_string())?;
        sheet.write_string(row, 3, &delivered)?;
        sheet.write_number_with_format(row, 4, f64::from(b.lead_time_months), &f.month)?;
        text_cell(sheet, row, 5, &source)
    };
    for l in &b.lines {
        row += 1;
        start(sheet, row)?;
        sheet.write_string(row, 6, &l.layer)?;
        sheet.write_string(row, 7, planner_core::engine::input::scenario_file::kind_id(l.kind))?;
        sheet.write_number_with_format(row, 8, f64::from(l.months), &f.month)?;
        sheet.write_number_with_format(row, 9, number(l.units)?, &f.tenths)?;
        sheet.write_string(row, 10, unit_name(l.unit))?;
        sheet.write_number_with_format(row, 11, number(present(l.cost))?, &f.money)?;
    }
    row += 1;
    start(sheet, row)?;
    sheet.write_string_with_format(row, 6, "Total", &f.total_label)?;
    sheet.write_number_with_format(row, 11, number(present(b.cost))?, &f.total_money)?;
    sheet.write_number_with_format(row, 12, number(b.unmet_pflop_h)?, &f.quantity)?;
    Ok(row)
}

/// The Bridge sheet: per scenario and owned layer, its order and delivery, its lead time and
/// where it comes from, each layer serving its work before delivery, and the total.
fn bridge_sheet(sheet: &mut Worksheet, view: &DecisionView, eval: &Evaluation, f: &Formats) -> Result<(), ExportError> {
    sheet.set_name("Bridge")?;
    let c = &view.currency;
    let columns = [
        ("Scenario".to_owned(), 30.0),
        ("Owned layer".to_owned(), 14.0),
        ("Ordered".to_owned(), 9.0),
        ("Delivered".to_owned(), 12.0),
        ("Lead time (months)".to_owned(), 10.0),
        ("Lead time source".to_owned(), 40.0),
        ("Serving layer".to_owned(), 16.0),
        ("Kind".to_owned(), 12.0),
        ("Months".to_owned(), 8.0),
        ("Units".to_owned(), 14.0),
        ("Unit".to_owned(), 14.0),
        (format!("Cost ({c})"), 14.0),
        ("Unmet PFLOP-h".to_owned(), 14.0),
    ];
    heads(sheet, &columns, f)?;
    let mut row = 0u32;
    for s in &view.scenarios {
        let r = result_for(eval, &s.id)?;
        for b in &r.operations.bridges {
            row = bridge_rows(sheet, row, &s.name, b, f)?;
        }
    }
    sheet.set_freeze_panes(1, 2)?;
    let notes = [
        "One row per layer serving an owned layer's workloads between its order and its delivery (its months, units and cost), then a Total row: the bridge's cost and the demand of those workloads left unmet in those months.".to_owned(),
        format!("Money in {c}, rounded half-even to cents. An owned layer with no lead time has only its Total row."),
    ];
    notes_below(sheet, row, &notes)
}

/// The comparison as an XLSX workbook: the `Comparison` sheet, one ledger sheet per scenario, the
/// `Dispatch` and `Bridge` sheets, the `Risk` sheet when `risk` is given and the `Scorecard`
/// sheet when `scorecard` is (see the module documentation for the layout). `eval` is the evaluation `view` was made from.
pub fn comparison_xlsx(
    view: &DecisionView,
    eval: &Evaluation,
    risk: Option<&RiskOutcome>,
    scorecard: Option<&ScorecardSummary>,
) -> Result<Vec<u8>, ExportError> {
    check_same(view, eval)?;
    let f = formats();
    let mut workbook = Workbook::new();
    workbook.set_properties(
        &DocProperties::new()
            .set_title(&view.title)
            .set_comment(format!("Computed by Compute Planner. Amounts in {}.", view.currency)),
    );
    comparison_sheet(workbook.add_worksheet(), view, eval, &f)?;
    let mut used = vec!["Comparison".to_owned()];
    for s in &view.scenarios {
        let r = result_for(eval, &s.id)?;
        let name = sheet_name(&s.name, &mut used);
        ledger_sheet(workbook.add_worksheet(), &name, &view.currency, r, &f)?;
    }
    dispatch_sheet(workbook.add_worksheet(), view, eval, &f)?;
    bridge_sheet(workbook.add_worksheet(), view, eval, &f)?;
    if let Some(outcome) = risk {
        risk_sheet(workbook.add_worksheet(), &view.currency, outcome, &f)?;
    }
    if let Some(card) = scorecard {
        scorecard::scorecard_sheet(workbook.add_worksheet(), card, &f)?;
    }
    Ok(workbook.save_to_buffer()?)
}

// ---------------------------------------------------------------------------------------------
// CSV

/// Money as CSV text: always two decimals (`2500.00`, `-0.50`), no thousands separators.
fn cents(d: Decimal) -> String {
    let mut d = d;
    d.rescale(2);
    d.to_string()
}

fn csv_field(out: &mut String, field: &str) {
    if field.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}

fn csv_row<S: AsRef<str>>(out: &mut String, fields: impl IntoIterator<Item = S>) {
    for (i, f) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        csv_field(out, f.as_ref());
    }
    out.push_str("\r\n");
}

/// The Comparison table as CSV: a header row (`Figure`, then the scenario names) and one row per
/// decision figure; empty fields where a figure does not apply.
pub fn comparison_csv(view: &DecisionView) -> String {
    let mut out = String::new();
    csv_row(
        &mut out,
        std::iter::once("Figure").chain(view.scenarios.iter().map(|s| s.name.as_str())),
    );
    for fig in &FIGURES {
        let values = view.scenarios.iter().map(|s| {
            (fig.value)(s)
                .map(|v| match fig.kind {
                    FigureKind::Money => cents(v),
                    _ => v.normalize().to_string(),
                })
                .unwrap_or_default()
        });
        csv_row(&mut out, std::iter::once(fig.header(&view.currency)).chain(values));
    }
    out
}

/// One scenario's monthly cash ledger as CSV: `Month`, the 18 categories, `Total`, `Cumulative`
/// (currency in each header), one row per month, amounts presented to the cent.
pub fn ledger_csv(view: &DecisionView, eval: &Evaluation, scenario_id: &str) -> Result<String, ExportError> {
    if !view.scenarios.iter().any(|s| s.id == scenario_id) {
        return Err(ExportError::UnknownScenario(scenario_id.to_owned()));
    }
    check_same(view, eval)?;
    let r = result_for(eval, scenario_id)?;
    let mut out = String::new();
    csv_row(&mut out, ledger_headers(&view.currency));
    for m in &r.ledger.months {
        let mut fields = Vec::with_capacity(Category::ALL.len() + 3);
        fields.push(m.month.to_string());
        fields.extend(Category::ALL.iter().map(|&c| cents(present(m.cash.get(c)))));
        fields.push(cents(present(m.cash.total())));
        fields.push(cents(present(m.cumulative_cash)));
        csv_row(&mut out, fields);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_names_follow_excels_rules_and_are_unique() {
        let mut used = vec!["Comparison".to_owned()];
        let a = sheet_name("On-prem [H100]: 8/16 GPUs?", &mut used);
        assert_eq!(a, "Ledger – On-prem _H100__ 8_16 G");
        assert_eq!(a.encode_utf16().count(), 31);
        let b = sheet_name("On-prem [H100]: 8/16 GPUs!", &mut used);
        assert_eq!(b, "Ledger – On-prem _H100__ 8_ (2)");
        let c = sheet_name("on-prem [h100]: 8/16 gpus", &mut used);
        assert_eq!(c, "Ledger – on-prem _h100__ 8_ (3)");
        let d = sheet_name("Cloud'", &mut used);
        assert_eq!(d, "Ledger – Cloud");
        for n in [&a, &b, &c, &d] {
            assert!(rust_xlsxwriter::utility::check_sheet_name(n).is_ok(), "{n}");
        }
    }

    #[test]
    fn csv_fields_are_quoted_per_rfc_4180() {
        let mut out = String::new();
        csv_row(&mut out, ["plain", "a,b", "say \"hi\"", "two\nlines"]);
        assert_eq!(out, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n");
    }

    #[test]
    fn money_in_csv_has_two_decimals() {
        assert_eq!(cents(Decimal::new(79_960, 0)), "79960.00");
        assert_eq!(cents(Decimal::new(25_000, 1)), "2500.00");
        assert_eq!(cents(Decimal::new(-5, 1)), "-0.50");
        assert_eq!(cents(Decimal::ZERO), "0.00");
    }

    #[test]
    fn numbers_are_the_nearest_double_to_the_decimal() {
        assert_eq!(number(Decimal::new(191_106_213, 2)), Ok(1_911_062.13));
        assert_eq!(number(Decimal::new(-1, 2)), Ok(-0.01));
    }
}
