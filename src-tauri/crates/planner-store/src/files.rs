//! Reading and writing the files a person picks: scenario JSON for import and export, and
//! exported tables. Writes go to a temporary file beside the target and are renamed over it, so
//! an interrupted export never leaves half a file under the chosen name.

use std::fs;
use std::path::Path;

use planner_core::engine::input::scenario_file::{self, ScenarioFile};
use planner_core::error::{ErrorCode, ErrorDetail, PlannerError};
use serde::Serialize;

fn io(path: &Path, what: &str, e: &std::io::Error) -> PlannerError {
    let code = if e.kind() == std::io::ErrorKind::NotFound {
        ErrorCode::NotFound
    } else {
        ErrorCode::Io
    };
    PlannerError::new(code, format!("{}: cannot {what}: {e}", path.display()))
}

/// Reads and parses a scenario file; a file that does not parse is refused with its path and the
/// field (or JSON position) at fault.
pub fn read_scenario_file(path: &Path) -> Result<ScenarioFile, PlannerError> {
    let text = fs::read_to_string(path).map_err(|e| io(path, "read the scenario file", &e))?;
    scenario_file::parse(&text).map_err(|p| {
        let shown = path.display().to_string();
        let at = if p.path.is_empty() {
            String::new()
        } else {
            format!(" at `{}`", p.path)
        };
        PlannerError {
            code: ErrorCode::InvalidInput,
            message: format!("{shown}{at}: {}. Nothing was imported.", p.message),
            details: vec![ErrorDetail {
                file: Some(shown),
                line: None,
                column: None,
                field: (!p.path.is_empty()).then_some(p.path),
                kind: Some("invalid-input".to_owned()),
                message: p.message,
            }],
        }
    })
}

/// Writes `bytes` to `path` atomically (temporary file, then rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), PlannerError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.is_empty() {
        return Err(PlannerError::new(
            ErrorCode::Io,
            format!("{}: choose a file name, not a folder", path.display()),
        ));
    }
    let temp = path.with_file_name(format!(".{name}.partial"));
    fs::write(&temp, bytes).map_err(|e| io(path, "write the file", &e))?;
    fs::rename(&temp, path).map_err(|e| {
        let _ = fs::remove_file(&temp);
        io(path, "replace the file", &e)
    })
}

/// The checklist template shipped in the catalog folder, as (file name, TOML text).
pub const CHECKLIST_TEMPLATE: &str = "checklists/d1-compliance.toml";

/// Reads the shipped checklist template from `catalog_dir`.
pub fn read_checklist_template(catalog_dir: &Path) -> Result<(String, String), PlannerError> {
    let path = catalog_dir.join(CHECKLIST_TEMPLATE);
    let text = fs::read_to_string(&path).map_err(|e| io(&path, "read the checklist template", &e))?;
    let name = path
        .file_name()
        .map_or_else(|| CHECKLIST_TEMPLATE.to_owned(), |n| n.to_string_lossy().into_owned());
    Ok((name, text))
}

/// Reads a file a reviewer attaches as evidence; refuses a folder or a file over
/// [`crate::workspace::EVIDENCE_LIMIT`] before reading it.
pub fn read_evidence(path: &Path) -> Result<crate::workspace::EvidenceFile, PlannerError> {
    let meta = fs::metadata(path).map_err(|e| io(path, "read the evidence file", &e))?;
    if !meta.is_file() {
        return Err(PlannerError::invalid(
            "evidence",
            format!("{} is not a file; attach a document, not a folder", path.display()),
        ));
    }
    let limit = crate::workspace::EVIDENCE_LIMIT;
    if meta.len() > limit {
        return Err(PlannerError::invalid(
            "evidence",
            format!(
                "{} is {} MiB; evidence files are limited to {} MiB. Attach a smaller extract, or a note where the full document is kept.",
                path.display(),
                meta.len() / (1024 * 1024),
                limit / (1024 * 1024)
            ),
        ));
    }
    let bytes = fs::read(path).map_err(|e| io(path, "read the evidence file", &e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| PlannerError::invalid("evidence", format!("{} names no file", path.display())))?;
    Ok(crate::workspace::EvidenceFile { name, bytes })
}

/// The RFP quote template in the catalog folder.
pub const QUOTE_TEMPLATE: &str = "templates/rfp-quotes.csv";

/// Where the RFP quote template and its documentation are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct QuoteTemplate {
    /// The CSV template: the header and example rows.
    pub csv: String,
    /// Its documentation: every column, its unit and rules.
    pub readme: String,
    /// The template's header row, as the file holds it.
    pub header: String,
}

/// Reads the quote template shipped in `catalog_dir`: its path, its documentation's path and
/// its header row (without a byte-order mark).
pub fn read_quote_template(catalog_dir: &Path) -> Result<QuoteTemplate, PlannerError> {
    let csv = catalog_dir.join(QUOTE_TEMPLATE);
    let text = fs::read_to_string(&csv).map_err(|e| {
        PlannerError::new(
            ErrorCode::Io,
            format!(
                "{}: the quote template cannot be read ({e}); reinstall the app.",
                csv.display()
            ),
        )
    })?;
    let readme = csv.with_file_name("README.md");
    Ok(QuoteTemplate {
        csv: csv.display().to_string(),
        readme: readme.display().to_string(),
        header: text
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches('\u{feff}')
            .to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_scenario_file_names_its_path_and_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.json");
        fs::write(&path, r#"{"format_version": 1, "title": 5}"#).unwrap();
        let err = read_scenario_file(&path).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidInput);
        assert!(err.message.contains("bad.json at `title`"), "{}", err.message);
        assert!(err.message.contains("Nothing was imported"), "{}", err.message);
        let missing = read_scenario_file(&dir.path().join("none.json")).unwrap_err();
        assert_eq!(missing.code, ErrorCode::NotFound);
    }

    #[test]
    fn the_quote_template_is_found_with_its_header_and_documentation() {
        let catalogs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../catalogs");
        let t = read_quote_template(&catalogs).unwrap();
        assert!(t.header.starts_with("vendor,quote_id,offer_kind,"), "{}", t.header);
        assert!(Path::new(&t.readme).is_file(), "{}", t.readme);
        let err = read_quote_template(&catalogs.join("nowhere")).unwrap_err();
        assert_eq!(err.code, ErrorCode::Io);
        assert!(err.message.contains("rfp-quotes.csv"), "{}", err.message);
    }

    #[test]
    fn writes_replace_whole_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    }
}
