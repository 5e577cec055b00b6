//! The `Scorecard` sheet (issue #19): the vendor scorecard as the memo states it, from the same
//! [`ScorecardSummary`], with every figure a number.
//!
//! - from `A1`, one row per vendor: `Rank`, `Vendor`, `Scenario`, `Scenario id`,
//!   `Total cash (<currency>)`, the five axis scores and the `Weighted total` (shares 0..1 in the
//!   percentage format), `D-1 checklist share` (a share, or the text `not reviewed`) and `Note`.
//!   The ranked vendors come first, best first; then the vendors not ranked, with an empty rank
//!   and scores and, as their note, what each lacks (`Not ranked: the measured MFU is missing`);
//! - after one empty row, the weights: `Axis`, `Weight as entered`, `Share of the total`;
//! - the stability sentence as the engine words it (or that no vendor is ranked), and any
//!   refusal of the weights;
//! - the exit terms as quoted, one row per commitment of each vendor: `Vendor`, `Layer`, `Kind`,
//!   `Notice (months)`, `Fee`, `Fee amount or share`, `Egress per TB`, `Data TB`, `Offboarding`;
//! - notes: the horizon and currency the costs are taken over, how the axes are scored.

use planner_core::engine::input::scenario_file::LayerKind;
use planner_core::exit_clause::TerminationFee;
use planner_core::rfp::scorecard::Axis;
use planner_core::rfp::summary::{ScorecardSummary, VendorCommitment};
use rust_decimal::Decimal;
use rust_xlsxwriter::Worksheet;

use super::{Cell, ExportError, Formats, write_row};

/// The axes as the sheet heads them.
fn axis_title(a: Axis) -> &'static str {
    match a {
        Axis::Performance => "Performance",
        Axis::Reliability => "Reliability",
        Axis::Cost => "Cost",
        Axis::Service => "Service",
        Axis::Compliance => "Compliance",
    }
}

fn heads(sheet: &mut Worksheet, row: u32, heads: &[String], f: &Formats) -> Result<(), ExportError> {
    let cells: Vec<Cell<'_>> = heads.iter().map(|h| Cell::Head(h)).collect();
    write_row(sheet, row, &cells, f)
}

/// The vendors' table from `A1`; returns the last row written.
fn vendor_rows(sheet: &mut Worksheet, s: &ScorecardSummary, f: &Formats) -> Result<u32, ExportError> {
    let mut titles = vec![
        "Rank".to_owned(),
        "Vendor".to_owned(),
        "Scenario".to_owned(),
        "Scenario id".to_owned(),
        format!("Decision total ({})", s.currency),
    ];
    titles.extend(Axis::ALL.iter().map(|a| axis_title(*a).to_owned()));
    titles.extend([
        "Weighted total".to_owned(),
        "D-1 checklist share".to_owned(),
        "Note".to_owned(),
    ]);
    heads(sheet, 0, &titles, f)?;
    sheet.set_row_height(0, 30)?;
    for (col, width) in [(0u16, 8.0), (1, 24.0), (2, 36.0), (3, 20.0), (4, 18.0)] {
        sheet.set_column_width(col, width)?;
    }
    for col in 5..=11 {
        sheet.set_column_width(col, 13)?;
    }
    sheet.set_column_width(12, 60)?;
    let review = |c: Option<Decimal>| c.map_or(Cell::Text("not reviewed"), Cell::Share);
    let money = |t: Option<Decimal>| t.map_or(Cell::Empty, Cell::Money);
    let mut row = 0u32;
    for v in &s.ranked {
        row += 1;
        let mut cells = vec![
            Cell::Number(Decimal::from(v.rank)),
            Cell::Text(&v.name),
            v.scenario_name.as_deref().map_or(Cell::Empty, Cell::Text),
            v.scenario.as_deref().map_or(Cell::Empty, Cell::Text),
            money(v.tco),
        ];
        cells.extend(Axis::ALL.iter().map(|a| Cell::Share(v.axes.get(*a))));
        cells.extend([Cell::Share(v.score), review(v.compliance)]);
        write_row(sheet, row, &cells, f)?;
    }
    for p in &s.partial {
        row += 1;
        let note = format!("Not ranked: {}.", p.missing.join("; "));
        let mut cells = vec![
            Cell::Empty,
            Cell::Text(&p.name),
            p.scenario_name.as_deref().map_or(Cell::Empty, Cell::Text),
            p.scenario.as_deref().map_or(Cell::Empty, Cell::Text),
            money(p.tco),
        ];
        cells.extend(Axis::ALL.iter().map(|_| Cell::Empty));
        cells.extend([Cell::Empty, review(p.compliance), Cell::Text(&note)]);
        write_row(sheet, row, &cells, f)?;
    }
    sheet.set_freeze_panes(1, 2)?;
    Ok(row)
}

/// The weights as entered and as shares, from `row`; returns the last row written.
fn weight_rows(sheet: &mut Worksheet, mut row: u32, s: &ScorecardSummary, f: &Formats) -> Result<u32, ExportError> {
    sheet.write_string_with_format(row, 0, "Weights", &f.title)?;
    row += 1;
    heads(
        sheet,
        row,
        &[
            "Axis".to_owned(),
            "Weight as entered".to_owned(),
            "Share of the total".to_owned(),
        ],
        f,
    )?;
    for a in Axis::ALL {
        row += 1;
        let share = s.weights.as_ref().map_or(Cell::Empty, |w| Cell::Share(w.get(a)));
        write_row(
            sheet,
            row,
            &[Cell::Text(a.name()), Cell::Plain(s.entered_weights.get(a)), share],
            f,
        )?;
    }
    for p in &s.weight_problems {
        row += 1;
        sheet.write_string(row, 0, format!("Weights refused: {p}"))?;
    }
    Ok(row)
}

/// One commitment's exit terms as cells after the vendor's name.
fn commitment_cells<'c>(c: &'c VendorCommitment) -> Vec<Cell<'c>> {
    let kind = match c.kind {
        LayerKind::Reserved => "reserved",
        LayerKind::Owned => "leased",
        _ => "other",
    };
    let mut cells = vec![Cell::Text(&c.layer), Cell::Text(kind)];
    match &c.exit_clause {
        None => cells.extend([Cell::Empty, Cell::Text("no exit terms stated")]),
        Some(x) => {
            let (fee, value) = match x.fee {
                TerminationFee::Fixed(v) => ("fixed", Cell::Money(v)),
                TerminationFee::ShareOfRemaining(v) => ("share of the commitment remaining", Cell::Share(v)),
            };
            cells.extend([
                Cell::Number(Decimal::from(x.notice_months)),
                Cell::Text(fee),
                value,
                Cell::Money(x.egress_per_tb),
                Cell::Plain(x.data_tb),
                Cell::Money(x.offboarding),
            ]);
        }
    }
    cells
}

/// The exit terms each vendor's quotes state, from `row`; returns the last row written.
fn exit_rows(sheet: &mut Worksheet, mut row: u32, s: &ScorecardSummary, f: &Formats) -> Result<u32, ExportError> {
    sheet.write_string_with_format(row, 0, "Exit terms as quoted", &f.title)?;
    row += 1;
    let c = &s.currency;
    heads(
        sheet,
        row,
        &[
            "Vendor".to_owned(),
            "Layer".to_owned(),
            "Kind".to_owned(),
            "Notice (months)".to_owned(),
            "Fee".to_owned(),
            format!("Fee ({c}, or share)"),
            format!("Egress per TB ({c})"),
            "Data TB".to_owned(),
            format!("Offboarding ({c})"),
        ],
        f,
    )?;
    for e in &s.exits {
        if e.commitments.is_empty() {
            row += 1;
            let what = if e.scenario.is_some() {
                "no commitment an exit clause could end"
            } else {
                "no scenario chosen"
            };
            write_row(sheet, row, &[Cell::Text(&e.vendor), Cell::Empty, Cell::Text(what)], f)?;
        }
        for commitment in &e.commitments {
            row += 1;
            let mut cells = vec![Cell::Text(&e.vendor)];
            cells.extend(commitment_cells(commitment));
            write_row(sheet, row, &cells, f)?;
        }
    }
    Ok(row)
}

/// The `Scorecard` sheet (see the module documentation).
pub(super) fn scorecard_sheet(sheet: &mut Worksheet, s: &ScorecardSummary, f: &Formats) -> Result<(), ExportError> {
    sheet.set_name("Scorecard")?;
    let last = vendor_rows(sheet, s, f)?;
    let mut row = weight_rows(sheet, last + 2, s, f)?;
    row += 2;
    sheet.write_string_with_format(row, 0, "Stability of the ranking", &f.title)?;
    row += 1;
    let stability = s
        .stability
        .as_deref()
        .unwrap_or("No vendor has every figure the scorecard needs, so none is ranked yet.");
    sheet.write_string(row, 0, stability)?;
    if !s.not_reviewed.is_empty() {
        row += 1;
        sheet.write_string(
            row,
            0,
            format!(
                "Not reviewed on the D-1 checklist (compliance counted as 0): {}.",
                s.not_reviewed.join(", ")
            ),
        )?;
    }
    row = exit_rows(sheet, row + 2, s, f)?;
    let notes = [
        format!(
            "Each vendor's cost is the decision total of its scenario (its total cash over {} months plus the commitments that fall due after them), in {}, rounded half-even to cents.",
            s.horizon_months, s.currency
        ),
        "Axis scores run from 0 (the weakest of the vendors ranked) to 1 (the strongest); the weighted total is each axis score times its share of the weights, summed.".to_owned(),
        "Computed by Compute Planner.".to_owned(),
    ];
    row += 1;
    for note in notes {
        row += 1;
        sheet.write_string(row, 0, note)?;
    }
    Ok(())
}
