//! Reading RFP quote files: CSV or XLSX (the first worksheet), chosen by the file's extension.
//!
//! This module only turns a file into a [`QuoteTable`] of cells with their spreadsheet row and
//! column; `planner_core::quote::parse_quotes` checks the table against the template
//! (`catalogs/templates/README.md`) and refuses it whole when anything is wrong. Row numbers are
//! the ones a person sees: the header is row 1 (in a CSV file, the line where the row starts).
//! Spreadsheet numbers are binary floats; each is read back through its shortest round-trip text
//! (`0.1` stays `0.1`), as the catalog loader does.

use std::path::Path;
use std::str::FromStr;

use calamine::{Data, Reader, Xlsx, open_workbook};
use planner_core::catalog::Catalog;
use planner_core::error::{ErrorCode, ErrorDetail, PlannerError};
use planner_core::provenance::AsOf;
use planner_core::quote::{Cell, Quote, QuoteTable, TableRow, parse_quotes};
use planner_core::workspace::WorkspaceSettings;
use rust_decimal::Decimal;

/// Reads the quotes in `path` (`.csv` or `.xlsx`), checked against `catalog` and the workspace's
/// currency and exchange rates in `settings`. Any problem refuses the whole file: the error lists
/// every problem with its file, row (`line`), column and template column (`field`).
pub fn read_quotes(path: &Path, catalog: &Catalog, settings: &WorkspaceSettings) -> Result<Vec<Quote>, PlannerError> {
    let table = read_quote_table(path)?;
    parse_quotes(&table, catalog, settings)
}

/// Reads a quote file into a table of cells, without checking what they say.
pub fn read_quote_table(path: &Path) -> Result<QuoteTable, PlannerError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "csv" => read_csv(path),
        "xlsx" => read_xlsx(path),
        _ => Err(file_error(
            ErrorCode::InvalidInput,
            path,
            "unsupported-format",
            "quotes are read from .csv or .xlsx files; save the spreadsheet in one of these formats (for .xls or .ods: Save As .xlsx)",
        )),
    }
}

fn file_error(code: ErrorCode, path: &Path, kind: &str, message: &str) -> PlannerError {
    let shown = path.display().to_string();
    PlannerError {
        code,
        message: format!("{shown}: {message}. Nothing was imported."),
        details: vec![ErrorDetail {
            file: Some(shown),
            line: None,
            column: None,
            field: None,
            kind: Some(kind.to_owned()),
            message: message.to_owned(),
        }],
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> PlannerError {
    let code = if e.kind() == std::io::ErrorKind::NotFound {
        ErrorCode::NotFound
    } else {
        ErrorCode::Io
    };
    file_error(code, path, "io", &format!("cannot read the file: {e}"))
}

fn read_csv(path: &Path) -> Result<QuoteTable, PlannerError> {
    let bytes = std::fs::read(path).map_err(|e| io_error(path, &e))?;
    // Spreadsheet programs often start a UTF-8 CSV with a byte-order mark.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        file_error(
            ErrorCode::InvalidInput,
            path,
            "encoding",
            &format!(
                "the file is not UTF-8 text (byte {}); save it as \"CSV UTF-8\"",
                e.valid_up_to()
            ),
        )
    })?;
    // Some locales save CSV with semicolons; the header line tells which.
    let first_line = text.lines().next().unwrap_or_default();
    let delimiter = if !first_line.contains(',') && first_line.contains(';') {
        b';'
    } else {
        b','
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    let (mut line, mut counted) = (1usize, 0usize);
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map(|p| p.line());
            file_error(
                ErrorCode::InvalidInput,
                path,
                "syntax",
                &format!(
                    "the CSV cannot be read{}: {e}; check the quotes around cells there",
                    line.map(|l| format!(" at line {l}")).unwrap_or_default()
                ),
            )
        })?;
        // The csv crate's own line count lags one line behind after a CRLF line end, so the row
        // is counted here: the line feeds before the record's first byte (a record may start on
        // the `\n` of the previous CRLF, which then counts too).
        let start = record
            .position()
            .map_or(0, |p| usize::try_from(p.byte()).unwrap_or(usize::MAX));
        let upto = start.saturating_add(1).min(text.len()).max(counted);
        line += text
            .as_bytes()
            .get(counted..upto)
            .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
        counted = upto;
        let row = u32::try_from(line).unwrap_or(u32::MAX);
        let cells = record
            .iter()
            .map(|t| {
                if t.trim().is_empty() {
                    Cell::Empty
                } else {
                    Cell::Text(t.to_owned())
                }
            })
            .collect();
        rows.push(TableRow { row, cells });
    }
    Ok(QuoteTable {
        file: path.display().to_string(),
        rows,
    })
}

fn read_xlsx(path: &Path) -> Result<QuoteTable, PlannerError> {
    if let Err(e) = std::fs::metadata(path) {
        return Err(io_error(path, &e));
    }
    let mut book: Xlsx<_> = open_workbook(path).map_err(|e| {
        file_error(
            ErrorCode::InvalidInput,
            path,
            "syntax",
            &format!(
                "the file cannot be read as an XLSX workbook ({e}); save it again from the spreadsheet program as .xlsx"
            ),
        )
    })?;
    let range = match book.worksheet_range_at(0) {
        None => {
            return Ok(QuoteTable {
                file: path.display().to_string(),
                rows: Vec::new(),
            });
        }
        Some(r) => r.map_err(|e| {
            file_error(
                ErrorCode::InvalidInput,
                path,
                "syntax",
                &format!("the first worksheet cannot be read ({e})"),
            )
        })?,
    };
    // The range starts at its first used cell, not necessarily A1.
    let (row0, col0) = range.start().unwrap_or((0, 0));
    let pad = usize::try_from(col0).unwrap_or(0);
    let rows = range
        .rows()
        .enumerate()
        .map(|(i, cells)| TableRow {
            row: row0
                .saturating_add(u32::try_from(i).unwrap_or(u32::MAX))
                .saturating_add(1),
            cells: std::iter::repeat_n(Cell::Empty, pad)
                .chain(cells.iter().map(cell))
                .collect(),
        })
        .collect();
    Ok(QuoteTable {
        file: path.display().to_string(),
        rows,
    })
}

/// A float as the decimal a person typed: its shortest round-trip text, parsed.
fn float_decimal(f: f64) -> Option<Decimal> {
    if !f.is_finite() {
        return None;
    }
    Decimal::from_str(&format!("{f}")).ok()
}

fn cell(data: &Data) -> Cell {
    match data {
        Data::Empty => Cell::Empty,
        Data::String(s) => Cell::Text(s.clone()),
        Data::Int(i) => Cell::Number(Decimal::from(*i)),
        Data::Float(f) => float_decimal(*f).map_or_else(|| Cell::Invalid(format!("the number {f}")), Cell::Number),
        Data::Bool(b) => Cell::Text(if *b { "TRUE" } else { "FALSE" }.to_owned()),
        Data::DateTime(d) if d.is_datetime() => {
            let (y, m, day, ..) = d.to_ymd_hms_milli();
            AsOf::ymd(y, m, day).map_or_else(|| Cell::Invalid(format!("the date serial {}", d.as_f64())), Cell::Date)
        }
        Data::DateTime(d) => Cell::Invalid(format!("a duration ({})", d.as_f64())),
        Data::DateTimeIso(s) => s
            .get(..10)
            .and_then(|t| t.parse::<AsOf>().ok())
            .map_or_else(|| Cell::Text(s.clone()), Cell::Date),
        Data::DurationIso(s) => Cell::Invalid(format!("a duration ({s})")),
        Data::Error(e) => Cell::Invalid(format!("the error {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_read_back_as_typed() {
        assert_eq!(float_decimal(0.1), Some(Decimal::new(1, 1)));
        assert_eq!(float_decimal(2.85), Some(Decimal::new(285, 2)));
        assert_eq!(float_decimal(25000.0), Some(Decimal::from(25000)));
        assert_eq!(float_decimal(f64::NAN), None);
    }
}
