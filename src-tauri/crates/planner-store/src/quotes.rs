//! Reading RFP quote files: CSV or XLSX, chosen by the file's extension.
//!
//! This module only turns a file into a [`QuoteTable`] of cells with their spreadsheet row and
//! column; `planner_core::rfp::quote::parse_quotes` checks the table against the template
//! (`catalogs/templates/README.md`) and refuses it whole when anything is wrong. Row numbers are
//! the ones a person sees: the header is row 1 (in a CSV file, the line where the row starts).
//! Spreadsheet numbers are binary floats; each is read back through its shortest round-trip text
//! (`0.1` stays `0.1`), as the catalog loader does.
//!
//! A quote file is untrusted input and is read within limits: at most [`MAX_FILE_BYTES`] on disk,
//! a workbook at most [`MAX_UNPACKED_BYTES`] unpacked, and the table within the first
//! [`MAX_ROWS`] rows and [`MAX_COLUMNS`] columns (a non-empty cell beyond them is named and
//! refused; empty ones are ignored). Workbook cells are streamed one by one (calamine's cell
//! reader), never laid out as a grid up to the furthest cell, and calamine runs under
//! `catch_unwind`, so a malformed workbook that panics inside it is refused with a message.
//! A workbook's sheet is chosen by its header ([`SheetChoice`]); a CSV may be UTF-8 or UTF-16.

use std::collections::BTreeMap;
use std::io::{Cursor, Read};
use std::path::Path;
use std::str::FromStr;

use calamine::{DataRef, Reader, SheetType, SheetVisible, Xlsx};
use planner_core::catalog::Catalog;
use planner_core::catalog::provenance::AsOf;
use planner_core::engine::workspace::content::WorkspaceSettings;
use planner_core::error::{ErrorCode, ErrorDetail, PlannerError};
use planner_core::rfp::quote::{
    COLUMNS, Cell, Quote, QuoteTable, TableRow, import_error, normalise_header, parse_quotes, quoted,
};
use rust_decimal::Decimal;

use crate::sheet_refs::grouped;
use crate::{contained, sheet_refs};

/// The largest quote file read, in bytes (20 MiB).
pub const MAX_FILE_BYTES: u64 = 20 * 1024 * 1024;
/// The most a workbook may unpack to, all its parts together, in bytes (64 MiB).
pub const MAX_UNPACKED_BYTES: u64 = 64 * 1024 * 1024;
/// The most parts a workbook's zip archive may hold.
pub const MAX_ZIP_ENTRIES: usize = 10_000;
/// The quote table lies within rows 1 to `MAX_ROWS` of the sheet (or lines of the CSV file).
pub const MAX_ROWS: u32 = 10_000;
/// The quote table lies within columns 1 to `MAX_COLUMNS` (A to BL).
pub const MAX_COLUMNS: u32 = 64;
/// Cells outside the limits named in one refusal; the reading stops there.
const MAX_REPORTED: usize = 20;

/// The worksheet a workbook's quotes were read from, and why that one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetChoice {
    /// The sheet's name as the workbook writes it.
    pub name: String,
    /// Why this sheet, in words: "the only worksheet", "the first visible sheet whose header row
    /// matches the template; not read: …", or which sheets there are when none matches.
    pub note: String,
    /// How many worksheets the workbook has.
    pub worksheets: usize,
}

impl SheetChoice {
    /// "the sheet "Quotes" (the only worksheet)".
    pub fn describe(&self) -> String {
        format!("the sheet \"{}\" ({})", quoted(&self.name), self.note)
    }
}

/// A quote file read into a table, with the sheet it came from (XLSX).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteFile {
    pub table: QuoteTable,
    pub sheet: Option<SheetChoice>,
}

/// The quotes of a file and the sheet they were read from (XLSX).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuotesRead {
    pub quotes: Vec<Quote>,
    pub sheet: Option<SheetChoice>,
}

/// Reads the quotes in `path` (`.csv` or `.xlsx`), checked against `catalog` and the workspace's
/// currency and exchange rates in `settings`. Any problem refuses the whole file: the error lists
/// every problem with its file, row (`line`), column and template column (`field`).
pub fn read_quotes(path: &Path, catalog: &Catalog, settings: &WorkspaceSettings) -> Result<Vec<Quote>, PlannerError> {
    read_quotes_in(path, catalog, settings).map(|r| r.quotes)
}

/// [`read_quotes`], saying which sheet of a workbook was read. A refusal names the sheet too: in
/// its message, and in every detail's message when the workbook has several worksheets.
pub fn read_quotes_in(
    path: &Path,
    catalog: &Catalog,
    settings: &WorkspaceSettings,
) -> Result<QuotesRead, PlannerError> {
    let file = read_quote_file(path)?;
    match parse_quotes(&file.table, catalog, settings) {
        Ok(quotes) => Ok(QuotesRead {
            quotes,
            sheet: file.sheet,
        }),
        Err(e) => Err(naming_sheet(e, file.sheet.as_ref())),
    }
}

fn naming_sheet(mut e: PlannerError, sheet: Option<&SheetChoice>) -> PlannerError {
    if let Some(s) = sheet {
        e.message = format!("{} Read from {}.", e.message, s.describe());
        if s.worksheets > 1 {
            let name = quoted(&s.name);
            for d in &mut e.details {
                d.message = format!("{} (sheet \"{name}\")", d.message);
            }
        }
    }
    e
}

/// Reads a quote file into a table of cells, without checking what they say.
pub fn read_quote_table(path: &Path) -> Result<QuoteTable, PlannerError> {
    read_quote_file(path).map(|f| f.table)
}

/// Reads a quote file into a table of cells, with the sheet chosen in a workbook.
pub fn read_quote_file(path: &Path) -> Result<QuoteFile, PlannerError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "csv" => read_csv(path).map(|table| QuoteFile { table, sheet: None }),
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

fn mib(bytes: u64) -> String {
    let tenths = bytes.saturating_mul(10) / (1024 * 1024);
    format!("{}.{} MiB", tenths / 10, tenths % 10)
}

/// The whole file, refused above [`MAX_FILE_BYTES`] (also when it grows while being read).
fn read_bounded(path: &Path) -> Result<Vec<u8>, PlannerError> {
    let file = std::fs::File::open(path).map_err(|e| io_error(path, &e))?;
    let too_large = |len: u64| {
        file_error(
            ErrorCode::InvalidInput,
            path,
            "too-large",
            &format!(
                "the file is {}; a quote file may be at most {} (a quote table is a few hundred rows: save only the quotes sheet, without images)",
                mib(len),
                mib(MAX_FILE_BYTES)
            ),
        )
    };
    let len = file.metadata().map_err(|e| io_error(path, &e))?.len();
    if len > MAX_FILE_BYTES {
        return Err(too_large(len));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(path, &e))?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > MAX_FILE_BYTES {
        return Err(too_large(read));
    }
    Ok(bytes)
}

/// Column letters of a 0-based column index: 0 → A, 63 → BL, 16383 → XFD.
fn column_letters(col: u32) -> String {
    let mut n = u64::from(col) + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        out.push(char::from(b'A' + u8::try_from(rem).unwrap_or(0)));
        n = (n - 1) / 26;
    }
    out.iter().rev().collect()
}

/// A non-empty cell beyond [`MAX_ROWS`] × [`MAX_COLUMNS`] (0-based row and column).
fn outside_detail(path: &Path, row: u32, col: u32) -> ErrorDetail {
    let (line, column) = (u64::from(row) + 1, u64::from(col) + 1);
    ErrorDetail {
        file: Some(path.display().to_string()),
        line: u32::try_from(line).ok(),
        column: u32::try_from(column).ok(),
        field: None,
        kind: Some("outside-limits".to_owned()),
        message: format!(
            "cell {}{line} is outside the quote table's limits ({} rows × {} columns, A1:{}{}); delete it (a stray value far from the table is enough)",
            column_letters(col),
            grouped(u64::from(MAX_ROWS)),
            MAX_COLUMNS,
            column_letters(MAX_COLUMNS - 1),
            MAX_ROWS,
        ),
    }
}

fn outside_error(path: &Path, details: Vec<ErrorDetail>) -> PlannerError {
    let stopped = details.len() >= MAX_REPORTED;
    let mut e = import_error(&path.display().to_string(), details);
    if stopped {
        e.message = format!("{} Reading stopped after {MAX_REPORTED} such cells.", e.message);
    }
    e
}

fn is_blank(cell: &Cell) -> bool {
    match cell {
        Cell::Empty => true,
        Cell::Text(t) => t.trim().is_empty(),
        _ => false,
    }
}

/// The file's text: UTF-8 (with or without a byte-order mark) or UTF-16 (little or big endian,
/// with a byte-order mark or recognised by its NUL bytes), decoded; anything else is refused.
fn decode_text(path: &Path, bytes: &[u8]) -> Result<String, PlannerError> {
    let refuse = |message: String| file_error(ErrorCode::InvalidInput, path, "encoding", &message);
    let (utf16, body) = if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        (Some(false), rest)
    } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        (Some(true), rest)
    } else {
        (utf16_without_bom(bytes), bytes)
    };
    let text = match utf16 {
        Some(big_endian) => {
            if !body.len().is_multiple_of(2) {
                return Err(refuse(
                    "the file looks like UTF-16 text but has an odd number of bytes; save it again as \"CSV UTF-8\""
                        .to_owned(),
                ));
            }
            let units = body.chunks_exact(2).map(|p| match p {
                [a, b] if big_endian => u16::from_be_bytes([*a, *b]),
                [a, b] => u16::from_le_bytes([*a, *b]),
                _ => 0,
            });
            char::decode_utf16(units).collect::<Result<String, _>>().map_err(|e| {
                refuse(format!(
                    "the file is not valid UTF-16 text ({e}); save it again as \"CSV UTF-8\""
                ))
            })?
        }
        None => {
            // Spreadsheet programs often start a UTF-8 CSV with a byte-order mark.
            let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            std::str::from_utf8(body)
                .map_err(|e| {
                    refuse(format!(
                        "the file is not UTF-8 text (byte {}); save it as \"CSV UTF-8\"",
                        e.valid_up_to()
                    ))
                })?
                .to_owned()
        }
    };
    let text = text.strip_prefix('\u{FEFF}').map(str::to_owned).unwrap_or(text);
    if let Some(at) = text.find('\0') {
        return Err(refuse(format!(
            "the file holds a NUL character (at character {}), so it is not a text CSV (UTF-32, or a binary file renamed .csv?); save it as \"CSV UTF-8\"",
            text.get(..at).map_or(0, |t| t.chars().count())
        )));
    }
    Ok(text)
}

/// UTF-16 without a byte-order mark: in its first 4 KiB, most code units have one NUL byte, on
/// the same side (text in Latin script). `Some(true)` for big endian.
fn utf16_without_bom(bytes: &[u8]) -> Option<bool> {
    let head = bytes.get(..bytes.len().min(4096))?;
    let pairs = head.len() / 2;
    if pairs < 2 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for p in head.chunks_exact(2) {
        if let [a, b] = p {
            even += usize::from(*a == 0);
            odd += usize::from(*b == 0);
        }
    }
    if odd * 2 > pairs && even * 10 < odd {
        Some(false)
    } else if even * 2 > pairs && odd * 10 < even {
        Some(true)
    } else {
        None
    }
}

fn read_csv(path: &Path) -> Result<QuoteTable, PlannerError> {
    let bytes = read_bounded(path)?;
    let text = decode_text(path, &bytes)?;
    drop(bytes);
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
    let mut outside = Vec::new();
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
        // The csv crate's own line count lags one line behind after a CRLF line end, and its
        // record position lies before the blank lines it skips, so the row is counted here: the
        // line feeds before the record's first byte that is not a line end.
        let start = record
            .position()
            .map_or(0, |p| usize::try_from(p.byte()).unwrap_or(usize::MAX))
            .min(text.len());
        let upto = text
            .as_bytes()
            .get(start..)
            .and_then(|rest| rest.iter().position(|&c| c != b'\n' && c != b'\r'))
            .map_or(text.len(), |i| start + i)
            .max(counted);
        line += text
            .as_bytes()
            .get(counted..upto)
            .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
        counted = upto;
        let row = u32::try_from(line).unwrap_or(u32::MAX);
        let cells: Vec<Cell> = record
            .iter()
            .map(|t| {
                if t.trim().is_empty() {
                    Cell::Empty
                } else {
                    Cell::Text(t.to_owned())
                }
            })
            .collect();
        let first_filled = cells.iter().position(|c| !is_blank(c));
        let Some(first_filled) = first_filled else {
            continue;
        };
        let r0 = row.saturating_sub(1);
        if row > MAX_ROWS {
            outside.push(outside_detail(
                path,
                r0,
                u32::try_from(first_filled).unwrap_or(u32::MAX),
            ));
        } else if let Some(c) = cells
            .iter()
            .enumerate()
            .skip(MAX_COLUMNS as usize)
            .find(|(_, c)| !is_blank(c))
            .map(|(i, _)| i)
        {
            outside.push(outside_detail(path, r0, u32::try_from(c).unwrap_or(u32::MAX)));
        } else {
            let mut cells = cells;
            cells.truncate(MAX_COLUMNS as usize);
            rows.push(TableRow { row, cells });
        }
        if outside.len() >= MAX_REPORTED {
            break;
        }
    }
    if !outside.is_empty() {
        return Err(outside_error(path, outside));
    }
    Ok(QuoteTable {
        file: path.display().to_string(),
        rows,
    })
}

fn read_xlsx(path: &Path) -> Result<QuoteFile, PlannerError> {
    let bytes = read_bounded(path)?;
    check_zip(path, &bytes)?;
    sheet_refs::check(&bytes).map_err(|bad| {
        file_error(
            ErrorCode::InvalidInput,
            path,
            "outside-excel-limits",
            &format!(
                "the sheet \"{}\" has {} \"{}\" that no spreadsheet program writes: {}. Excel's sheets end at row {} and column XFD; open the workbook in Excel or LibreOffice, check that sheet and save it again as .xlsx",
                quoted(&bad.sheet),
                bad.what,
                quoted(&bad.reference),
                bad.problem,
                grouped(sheet_refs::EXCEL_ROWS),
            ),
        )
    })?;
    // calamine is the last place a malformed workbook could crash the app: whatever it still
    // panics on becomes a refusal naming where it stopped, and nothing is printed.
    let mut at = String::from("opening the workbook");
    let read = contained::run(|| read_workbook(path, bytes, &mut at));
    read.unwrap_or_else(|caught| {
        let place = caught
            .place
            .map(|p| format!(" at {}", quoted(&p)))
            .unwrap_or_default();
        Err(file_error(
            ErrorCode::InvalidInput,
            path,
            "unreadable",
            &format!(
                "the workbook could not be read (the XLSX reader stopped{place} with \"{}\" while {at}); save it again from Excel or LibreOffice as .xlsx",
                quoted(&caught.message)
            ),
        ))
    })
}

/// Refuses a workbook whose archive unpacks to more than [`MAX_UNPACKED_BYTES`] (declared or
/// actual) or holds more than [`MAX_ZIP_ENTRIES`] parts, before calamine unpacks anything.
fn check_zip(path: &Path, bytes: &[u8]) -> Result<(), PlannerError> {
    let damaged = |what: String| {
        file_error(
            ErrorCode::InvalidInput,
            path,
            "syntax",
            &format!(
                "the file cannot be read as an XLSX workbook ({what}); save it again from the spreadsheet program as .xlsx"
            ),
        )
    };
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| damaged(e.to_string()))?;
    if zip.len() > MAX_ZIP_ENTRIES {
        return Err(damaged(format!(
            "{} parts, more than the {MAX_ZIP_ENTRIES} a quote workbook may have",
            zip.len()
        )));
    }
    let too_large = || {
        file_error(
            ErrorCode::InvalidInput,
            path,
            "too-large",
            &format!(
                "the workbook unpacks to more than {}, the most a quote workbook may hold; save only the quotes sheet, without images",
                mib(MAX_UNPACKED_BYTES)
            ),
        )
    };
    let mut total: u64 = 0;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| damaged(format!("part {i}: {e}")))?;
        let budget = MAX_UNPACKED_BYTES.saturating_sub(total);
        if entry.size() > budget {
            return Err(too_large());
        }
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let unpacked = std::io::copy(&mut (&mut entry).take(budget + 1), &mut std::io::sink())
            .map_err(|e| damaged(format!("part {}: {e}", quoted(&name))))?;
        total = total.saturating_add(unpacked);
        if total > MAX_UNPACKED_BYTES {
            return Err(too_large());
        }
    }
    Ok(())
}

fn sheet_list(sheets: &[(String, bool)]) -> String {
    sheets
        .iter()
        .map(|(name, visible)| format!("\"{}\"{}", quoted(name), if *visible { "" } else { " (hidden)" }))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Picks the sheet to read: the first visible worksheet whose header row matches the template,
/// else the first visible worksheet (its header problems are then reported). Hidden sheets are
/// read only when no sheet is visible. Returns the index and the note saying why.
fn choose_sheet(sheets: &[(String, bool)], matches: &[bool]) -> (usize, String) {
    let any_visible = sheets.iter().any(|s| s.1);
    let hidden: Vec<(String, bool)> = sheets.iter().filter(|s| !s.1).cloned().collect();
    let not_read = |pick: usize| {
        let others: Vec<(String, bool)> = sheets
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != pick)
            .map(|(_, s)| s.clone())
            .collect();
        if others.is_empty() {
            String::new()
        } else {
            format!("; not read: {}", sheet_list(&others))
        }
    };
    let matching = sheets
        .iter()
        .zip(matches)
        .position(|(s, m)| *m && (s.1 || !any_visible));
    if let Some(i) = matching {
        let why = if sheets.len() == 1 {
            "the only worksheet".to_owned()
        } else {
            "the first visible sheet whose header row matches the template".to_owned()
        };
        return (i, format!("{why}{}", not_read(i)));
    }
    let i = sheets.iter().position(|s| s.1).unwrap_or(0);
    if sheets.len() == 1 {
        return (i, "the only worksheet".to_owned());
    }
    let hidden_match: Vec<(String, bool)> = sheets
        .iter()
        .zip(matches)
        .filter(|(s, m)| **m && !s.1)
        .map(|(s, _)| s.clone())
        .collect();
    let mut note = format!(
        "no visible sheet has the template's header row (vendor, quote_id, offer_kind, accelerator, currency, valid_until), so the first visible sheet was read; the workbook's sheets: {}",
        sheet_list(sheets)
    );
    if !hidden_match.is_empty() {
        note.push_str(&format!(
            "; the hidden sheet {} has the template's header, but hidden sheets are not read: unhide it and delete or hide the others",
            sheet_list(&hidden_match)
        ));
    } else if !hidden.is_empty() {
        note.push_str("; put the quotes on one visible sheet under the template's header row");
    }
    (i, note)
}

/// Whether the first non-empty row of the sheet names every required template column.
fn header_matches<RS: std::io::Read + std::io::Seek>(book: &mut Xlsx<RS>, name: &str) -> bool {
    let Ok(mut cells) = book.worksheet_cells_reader(name) else {
        return false;
    };
    let mut header_row = None;
    let mut names = Vec::new();
    while let Ok(Some(c)) = cells.next_cell() {
        let (row, col) = c.get_position();
        let cell = cell(c.get_value());
        if is_blank(&cell) || row >= MAX_ROWS || col >= MAX_COLUMNS {
            continue;
        }
        match header_row {
            None => header_row = Some(row),
            Some(h) if h != row => break,
            Some(_) => {}
        }
        if let Cell::Text(t) = cell {
            names.push(normalise_header(&t));
        }
    }
    COLUMNS
        .iter()
        .filter(|c| c.required)
        .all(|c| names.iter().any(|n| n == c.name))
}

fn read_workbook(path: &Path, bytes: Vec<u8>, at: &mut String) -> Result<QuoteFile, PlannerError> {
    let file = path.display().to_string();
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(|e| {
        file_error(
            ErrorCode::InvalidInput,
            path,
            "syntax",
            &format!(
                "the file cannot be read as an XLSX workbook ({}); save it again from the spreadsheet program as .xlsx",
                quoted(&e.to_string())
            ),
        )
    })?;
    let sheets: Vec<(String, bool)> = book
        .sheets_metadata()
        .iter()
        .filter(|s| s.typ == SheetType::WorkSheet)
        .map(|s| (s.name.clone(), s.visible == SheetVisible::Visible))
        .collect();
    if sheets.is_empty() {
        return Ok(QuoteFile {
            table: QuoteTable { file, rows: Vec::new() },
            sheet: None,
        });
    }
    let mut matches = Vec::new();
    for (name, _) in &sheets {
        *at = format!("reading the header of the sheet \"{}\"", quoted(name));
        matches.push(header_matches(&mut book, name));
    }
    let (pick, note) = choose_sheet(&sheets, &matches);
    let name = sheets.get(pick).map(|s| s.0.clone()).unwrap_or_default();
    *at = format!("reading the sheet \"{}\"", quoted(&name));
    let rows = read_sheet(path, &mut book, &name)?;
    Ok(QuoteFile {
        table: QuoteTable { file, rows },
        sheet: Some(SheetChoice {
            name,
            note,
            worksheets: sheets.len(),
        }),
    })
}

/// The sheet's non-empty cells, streamed: only cells within [`MAX_ROWS`] × [`MAX_COLUMNS`] are
/// kept, a non-empty cell beyond refuses the file, empty ones are skipped wherever they are.
fn read_sheet<RS: std::io::Read + std::io::Seek>(
    path: &Path,
    book: &mut Xlsx<RS>,
    name: &str,
) -> Result<Vec<TableRow>, PlannerError> {
    let unreadable = |e: &dyn std::fmt::Display| {
        file_error(
            ErrorCode::InvalidInput,
            path,
            "syntax",
            &format!(
                "the sheet \"{}\" cannot be read ({}); save the workbook again from the spreadsheet program as .xlsx",
                quoted(name),
                quoted(&e.to_string())
            ),
        )
    };
    let mut cells = book.worksheet_cells_reader(name).map_err(|e| unreadable(&e))?;
    let mut grid: BTreeMap<u32, Vec<Cell>> = BTreeMap::new();
    let mut outside = Vec::new();
    while let Some(c) = cells.next_cell().map_err(|e| unreadable(&e))? {
        let (row, col) = c.get_position();
        let value = cell(c.get_value());
        if is_blank(&value) {
            continue;
        }
        if row >= MAX_ROWS || col >= MAX_COLUMNS {
            outside.push(outside_detail(path, row, col));
            if outside.len() >= MAX_REPORTED {
                break;
            }
            continue;
        }
        let i = usize::try_from(col).unwrap_or(usize::MAX);
        let cells = grid.entry(row).or_default();
        if cells.len() <= i {
            cells.resize(i + 1, Cell::Empty);
        }
        if let Some(slot) = cells.get_mut(i) {
            *slot = value;
        }
    }
    if !outside.is_empty() {
        return Err(outside_error(path, outside));
    }
    Ok(grid
        .into_iter()
        .map(|(row, cells)| TableRow {
            row: row.saturating_add(1),
            cells,
        })
        .collect())
}

/// A float as the decimal a person typed: its shortest round-trip text, parsed.
fn float_decimal(f: f64) -> Option<Decimal> {
    if !f.is_finite() {
        return None;
    }
    Decimal::from_str(&format!("{f}")).ok()
}

fn cell(data: &DataRef<'_>) -> Cell {
    match data {
        DataRef::Empty => Cell::Empty,
        DataRef::String(s) => Cell::Text(s.clone()),
        DataRef::SharedString(s) => Cell::Text((*s).to_owned()),
        DataRef::Int(i) => Cell::Number(Decimal::from(*i)),
        DataRef::Float(f) => float_decimal(*f).map_or_else(|| Cell::Invalid(format!("the number {f}")), Cell::Number),
        DataRef::Bool(b) => Cell::Text(if *b { "TRUE" } else { "FALSE" }.to_owned()),
        DataRef::DateTime(d) if d.is_datetime() => {
            let (y, m, day, ..) = d.to_ymd_hms_milli();
            AsOf::ymd(y, m, day).map_or_else(|| Cell::Invalid(format!("the date serial {}", d.as_f64())), Cell::Date)
        }
        DataRef::DateTime(d) => Cell::Invalid(format!("a duration ({})", d.as_f64())),
        DataRef::DateTimeIso(s) => s
            .get(..10)
            .and_then(|t| t.parse::<AsOf>().ok())
            .map_or_else(|| Cell::Text(s.clone()), Cell::Date),
        DataRef::DurationIso(s) => Cell::Invalid(format!("a duration ({})", quoted(s))),
        DataRef::Error(e) => Cell::Invalid(format!("the error {e}")),
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
