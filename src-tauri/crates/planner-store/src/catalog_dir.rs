//! Reading a catalog folder: every `*.toml` directly inside it, in name order.

use std::fs;
use std::path::Path;

use planner_core::catalog::{self, Catalog};
use planner_core::error::{ErrorCode, ErrorDetail, PlannerError};

/// Reads the text of every catalog file in `dir`, as `(display name, text)` pairs sorted by name.
///
/// The display name is the path as the caller gave the folder, joined with the file name, so
/// messages point at a file the user can open.
pub fn read_catalog_dir(dir: &Path) -> Result<Vec<(String, String)>, PlannerError> {
    let entries = fs::read_dir(dir).map_err(|e| {
        io_error(
            dir,
            &format!("cannot open the catalog folder: {e}; check the path (it should hold accelerators.toml, offers.toml, ...)"),
        )
    })?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| io_error(dir, &format!("cannot list the catalog folder: {e}")))?;
        let path = entry.path();
        if path.is_file() && path.extension().is_some_and(|ext| ext == "toml") {
            paths.push(path);
        }
    }
    paths.sort();
    if paths.is_empty() {
        return Err(io_error(dir, "the folder has no .toml catalog files; point to the catalogs/ folder"));
    }
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let bytes = fs::read(&path).map_err(|e| io_error(&path, &format!("cannot read the file: {e}")))?;
        let text = String::from_utf8(bytes)
            .map_err(|e| io_error(&path, &format!("the file is not UTF-8 text (byte {}); save it as UTF-8", e.utf8_error().valid_up_to())))?;
        files.push((path.display().to_string(), text));
    }
    Ok(files)
}

/// Loads and checks the catalog in `dir`. Any error in any file refuses the whole catalog, with
/// every issue listed in the error's details.
pub fn load_catalog_dir(dir: &Path) -> Result<Catalog, PlannerError> {
    let files = read_catalog_dir(dir)?;
    catalog::load(&files).map_err(PlannerError::from)
}

fn io_error(path: &Path, message: &str) -> PlannerError {
    PlannerError {
        code: ErrorCode::Io,
        message: format!("{}: {message}", path.display()),
        details: vec![ErrorDetail {
            file: Some(path.display().to_string()),
            line: None,
            column: None,
            field: None,
            kind: None,
            message: message.to_owned(),
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_folder_is_an_io_error_naming_it() {
        let err = load_catalog_dir(Path::new("/nonexistent/catalogs")).unwrap_err();
        assert_eq!(err.code, ErrorCode::Io);
        assert!(err.message.contains("/nonexistent/catalogs"), "{}", err.message);
    }

    #[test]
    fn an_empty_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = load_catalog_dir(dir.path()).unwrap_err();
        assert!(err.message.contains("no .toml catalog files"), "{}", err.message);
    }

    #[test]
    fn a_non_utf8_file_is_refused_with_its_name() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("offers.toml"), [0x66, 0xff, 0xfe]).unwrap();
        let err = load_catalog_dir(dir.path()).unwrap_err();
        assert!(err.message.contains("offers.toml") && err.message.contains("UTF-8"), "{}", err.message);
    }
}
