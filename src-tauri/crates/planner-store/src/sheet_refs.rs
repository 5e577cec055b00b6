//! The cell references a workbook's sheets declare, checked before the XLSX reader sees them.
//!
//! calamine 0.38 turns a sheet's references into positions with unchecked `u32` arithmetic: a
//! dimension whose end comes before its start (`B2:A1`) underflows, and a row number past 2^32
//! (`A99999999999`) or seven column letters overflow. A debug build panics there; a release
//! build wraps and reads the cells at wrong positions. Excel never writes such a reference: its
//! sheets end at row 1,048,576 and column 16,384 (`XFD`). So every reference calamine parses on
//! the way to a quote table is held to those limits here first: the sheet's `dimension`, each
//! `row`'s and cell's `r`, and a formula's `ref` range. A workbook with one outside them is
//! refused with the sheet, the reference and what to do.
//!
//! Every XML part whose root is a `worksheet` is checked, whichever sheet it belongs to, so the
//! check does not depend on resolving the workbook's relationships the way calamine does; those
//! are read only to name the sheet in the message. The parts are read with quick-xml (the version
//! and settings calamine uses): a part the XML reader cannot follow is left to calamine, which
//! stops at the same place with its own error. The archive's size was bounded before (see
//! `quotes::check_zip`).

use std::collections::BTreeMap;
use std::io::{Cursor, Read};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// Excel's last row.
pub const EXCEL_ROWS: u64 = 1_048_576;
/// Excel's last column (`XFD`).
pub const EXCEL_COLUMNS: u64 = 16_384;

/// The first reference in a workbook that lies outside Excel's grid, or is not a reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadReference {
    /// The sheet's name as the workbook writes it, or its part's path when the workbook does not
    /// name it.
    pub sheet: String,
    /// What carries the reference, in words: "the sheet's dimension", "a row number", "a cell
    /// reference", "a formula's range".
    pub what: &'static str,
    /// The reference as written (at most 64 characters of it).
    pub reference: String,
    /// What is wrong with it, in words.
    pub problem: String,
}

/// Checks every worksheet part of the archive. `Ok(())` when every reference lies within
/// Excel's grid (or the archive cannot be read: calamine then says why).
pub fn check(bytes: &[u8]) -> Result<(), BadReference> {
    let Ok(mut zip) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return Ok(());
    };
    let names = sheet_names(&mut zip);
    for i in 0..zip.len() {
        let Ok(mut entry) = zip.by_index(i) else {
            continue;
        };
        let part = String::from_utf8_lossy(entry.name_raw()).into_owned();
        if !part.to_ascii_lowercase().ends_with(".xml") {
            continue;
        }
        let mut xml = Vec::new();
        if entry.read_to_end(&mut xml).is_err() {
            continue;
        }
        let sheet = || names.get(&normalised(&part)).cloned().unwrap_or_else(|| part.clone());
        check_part(&xml).map_err(|(what, reference, problem)| BadReference {
            sheet: sheet(),
            what,
            reference,
            problem,
        })?;
    }
    Ok(())
}

/// A problem found in one part: what carries the reference, the reference, what is wrong.
type Found = (&'static str, String, String);

fn reader(xml: &[u8]) -> Reader<&[u8]> {
    // As calamine configures its reader, so both stop at the same malformed place.
    let mut r = Reader::from_reader(xml);
    let config = r.config_mut();
    config.check_end_names = false;
    config.trim_text(false);
    config.check_comments = false;
    config.expand_empty_elements = true;
    r
}

/// Checks one part if its root element is a worksheet.
fn check_part(xml: &[u8]) -> Result<(), Found> {
    let mut r = reader(xml);
    let mut buf = Vec::new();
    let mut root_seen = false;
    loop {
        buf.clear();
        let event = match r.read_event_into(&mut buf) {
            Ok(e) => e,
            Err(_) => return Ok(()),
        };
        let Event::Start(e) = event else {
            if matches!(event, Event::Eof) {
                return Ok(());
            }
            continue;
        };
        if !root_seen {
            root_seen = true;
            if e.local_name().as_ref() != "worksheet" {
                return Ok(());
            }
            continue;
        }
        check_element(&e)?;
    }
}

fn check_element(e: &BytesStart<'_>) -> Result<(), Found> {
    // Attributes matched by their exact key, as calamine matches them.
    let (what, key) = match e.local_name().as_ref() {
        "dimension" => ("the sheet's dimension", "ref"),
        "row" => ("a row number", "r"),
        "c" => ("a cell reference", "r"),
        "f" => ("a formula's range", "ref"),
        _ => return Ok(()),
    };
    for attr in e.attributes().with_checks(false).flatten() {
        if attr.key.as_ref() != key {
            continue;
        }
        let raw = attr.value.as_bytes();
        let problem = match what {
            "a row number" => row_number(raw).err(),
            "a cell reference" => cell(raw).err(),
            _ => range(raw).err(),
        };
        if let Some(problem) = problem {
            return Err((what, shown(raw), problem));
        }
    }
    Ok(())
}

/// The reference as it may be quoted: at most 64 characters, control characters dropped.
fn shown(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out: String = text.chars().filter(|c| !c.is_control()).take(64).collect();
    if text.chars().filter(|c| !c.is_control()).count() > 64 {
        out.push('…');
    }
    out
}

/// `n` with a comma between groups of three digits: 10000 → "10,000".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A row number as a `row`'s `r` writes it: 1 to 1,048,576, digits only.
fn row_number(raw: &[u8]) -> Result<u64, String> {
    if raw.is_empty() || !raw.iter().all(u8::is_ascii_digit) {
        return Err("it is not a row number".to_owned());
    }
    row_value(raw)
}

/// The value of a run of digits, held to Excel's rows (long runs are refused before any
/// arithmetic that could overflow).
fn row_value(digits: &[u8]) -> Result<u64, String> {
    let significant = digits
        .iter()
        .position(|&d| d != b'0')
        .map_or(&digits[digits.len()..], |i| &digits[i..]);
    if significant.len() > 7 {
        return Err(format!(
            "row {} is beyond Excel's last row, {}",
            shown(digits),
            grouped(EXCEL_ROWS)
        ));
    }
    let row = significant.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    if row == 0 {
        return Err("row 0 does not exist (rows start at 1)".to_owned());
    }
    if row > EXCEL_ROWS {
        return Err(format!(
            "row {} is beyond Excel's last row, {}",
            grouped(row),
            grouped(EXCEL_ROWS)
        ));
    }
    Ok(row)
}

/// A cell reference such as `B7`: column letters then a row number, both within Excel's grid.
/// Returns (row, column), 1-based.
fn cell(raw: &[u8]) -> Result<(u64, u64), String> {
    let letters = raw.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    let (col, row) = raw.split_at(letters);
    if letters == 0 || row.is_empty() || !row.iter().all(u8::is_ascii_digit) {
        return Err("it is not a cell reference (column letters, then a row number)".to_owned());
    }
    if letters > 3 {
        return Err(format!(
            "column {} is beyond Excel's last column, XFD ({})",
            shown(col),
            grouped(EXCEL_COLUMNS)
        ));
    }
    let column = col
        .iter()
        .fold(0u64, |n, c| n * 26 + u64::from(c.to_ascii_uppercase() - b'A') + 1);
    if column > EXCEL_COLUMNS {
        return Err(format!(
            "column {} is beyond Excel's last column, XFD ({})",
            shown(col),
            grouped(EXCEL_COLUMNS)
        ));
    }
    Ok((row_value(row)?, column))
}

/// A range such as `A1:C9` (or one cell), its end not before its start.
fn range(raw: &[u8]) -> Result<(), String> {
    let mut parts = raw.split(|&b| b == b':');
    let start = parts.next().map(cell).transpose()?;
    let end = parts.next().map(cell).transpose()?;
    if parts.next().is_some() {
        return Err("a range has at most two cells".to_owned());
    }
    if let (Some((r0, c0)), Some((r1, c1))) = (start, end)
        && (r1 < r0 || c1 < c0)
    {
        return Err("it ends before it starts (the first cell must be the top left one)".to_owned());
    }
    Ok(())
}

/// A part's path as compared: no leading slash, forward slashes, lower case.
fn normalised(part: &str) -> String {
    part.trim_start_matches('/').replace('\\', "/").to_ascii_lowercase()
}

/// The sheets' names by their part's normalised path, from `xl/workbook.xml` and its
/// relationships; empty when either cannot be read (the part's path is then shown instead).
fn sheet_names<R: Read + std::io::Seek>(zip: &mut zip::ZipArchive<R>) -> BTreeMap<String, String> {
    let mut read = |name: &str| {
        let index = (0..zip.len()).find(|&i| {
            zip.name_for_index(i)
                .and_then(Result::ok)
                .is_some_and(|n| normalised(&n) == normalised(name))
        })?;
        let mut text = Vec::new();
        zip.by_index(index).ok()?.read_to_end(&mut text).ok()?;
        Some(text)
    };
    let (Some(workbook), Some(rels)) = (read("xl/workbook.xml"), read("xl/_rels/workbook.xml.rels")) else {
        return BTreeMap::new();
    };
    let targets: BTreeMap<String, String> = elements(&rels, "Relationship")
        .into_iter()
        .filter_map(|attrs| Some((attrs.get("Id")?.clone(), attrs.get("Target")?.clone())))
        .collect();
    elements(&workbook, "sheet")
        .into_iter()
        .filter_map(|attrs| {
            let target = targets.get(attrs.get("id")?)?;
            let part = match target.strip_prefix('/') {
                Some(absolute) => absolute.to_owned(),
                None => format!("xl/{target}"),
            };
            Some((normalised(&part), attrs.get("name")?.clone()))
        })
        .collect()
}

/// The attributes (by local name, unescaped where possible) of every element named `local`.
fn elements(xml: &[u8], local: &str) -> Vec<BTreeMap<String, String>> {
    let mut r = reader(xml);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    loop {
        buf.clear();
        match r.read_event_into(&mut buf) {
            Ok(Event::Start(e)) if e.local_name().as_ref() == local => {
                let attrs = e
                    .attributes()
                    .with_checks(false)
                    .flatten()
                    .map(|a| {
                        let key = a.key.local_name().as_ref().to_owned();
                        let value = quick_xml::escape::unescape(&a.value)
                            .map_or_else(|_| a.value.to_string(), |v| v.into_owned());
                        (key, value)
                    })
                    .collect();
                out.push(attrs);
            }
            Ok(Event::Eof) | Err(_) => return out,
            Ok(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_at_excel_s_limits_pass_and_beyond_them_are_refused() {
        assert_eq!(cell(b"A1"), Ok((1, 1)));
        assert_eq!(cell(b"XFD1048576"), Ok((1_048_576, 16_384)));
        assert_eq!(cell(b"xfd1048576"), Ok((1_048_576, 16_384)));
        assert_eq!(
            cell(b"A1048577"),
            Err("row 1,048,577 is beyond Excel's last row, 1,048,576".to_owned())
        );
        assert_eq!(
            cell(b"XFE1"),
            Err("column XFE is beyond Excel's last column, XFD (16,384)".to_owned())
        );
        assert_eq!(
            cell(b"A99999999999"),
            Err("row 99999999999 is beyond Excel's last row, 1,048,576".to_owned())
        );
        assert!(cell(b"A0").unwrap_err().contains("row 0"));
        assert!(cell(b"ZZZZZZZZZZZZ1").unwrap_err().contains("column ZZZZZZZZZZZZ"));
        assert!(cell(b"1A").is_err());
        assert!(cell(b"A").is_err());
        assert!(cell(b"$A$1").is_err());
        // Leading zeros are a number like any other.
        assert_eq!(cell(b"B000000000007"), Ok((7, 2)));
        assert_eq!(row_number(b"1048576"), Ok(1_048_576));
        assert!(row_number(b"4294967296").is_err());
        assert!(row_number(b"").is_err());
    }

    #[test]
    fn a_range_must_not_end_before_it_starts() {
        assert_eq!(range(b"A1:XFD1048576"), Ok(()));
        assert_eq!(range(b"C3"), Ok(()));
        assert!(range(b"B2:A1").unwrap_err().contains("ends before it starts"));
        assert!(range(b"A2:B1").is_err());
        assert!(range(b"B1:A2").is_err());
        assert!(range(b"A1:B2:C3").is_err());
        assert!(range(b"A1:").is_err());
    }

    #[test]
    fn only_worksheet_parts_are_checked() {
        let sheet = br#"<?xml version="1.0"?><worksheet xmlns="x"><dimension ref="B2:A1"/><sheetData/></worksheet>"#;
        let (what, reference, _) = check_part(sheet).unwrap_err();
        assert_eq!((what, reference.as_str()), ("the sheet's dimension", "B2:A1"));
        let other = br#"<?xml version="1.0"?><styleSheet><c r="A99999999999"/></styleSheet>"#;
        assert_eq!(check_part(other), Ok(()));
        let prefixed = br#"<x:worksheet xmlns:x="x"><x:sheetData><x:row r="0"/></x:sheetData></x:worksheet>"#;
        assert_eq!(check_part(prefixed).unwrap_err().0, "a row number");
    }
}
