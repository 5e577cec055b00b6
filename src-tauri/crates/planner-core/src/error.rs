//! The one error shape that crosses every boundary (IPC, command line): `{ code, message, details }`.
//!
//! `code` is a small enum the UI switches on; `message` tells a person what went wrong, where,
//! and what to do; `details` carries the located items (a catalog issue per line, say).

use serde::{Deserialize, Serialize};

use crate::catalog::{CatalogError, CatalogIssue};
use crate::problem::{clip, clip_message};

/// What kind of failure, for code that reacts to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// The catalog files have errors; `details` lists each with file, line and field.
    CatalogInvalid,
    /// A file or folder could not be read or written.
    Io,
    /// An input value was refused; `details` names the field.
    InvalidInput,
    /// Something asked for does not exist.
    NotFound,
    /// The file is not a Compute Planner workspace (or is damaged); it was left untouched.
    WorkspaceInvalid,
    /// The workspace was written by a newer version of the app; it was left untouched.
    WorkspaceNewer,
    /// The workspace is open in another window or program.
    WorkspaceBusy,
    /// The workspace is open read-only (the file or its folder cannot be written); it can be
    /// read, exported, verified and saved elsewhere with Save As, but not changed.
    WorkspaceReadOnly,
    /// The action needs an open workspace and none is open.
    NoWorkspace,
    /// The action was cancelled before it finished; nothing was changed.
    Cancelled,
    /// A catalog pack was refused whole (altered, signed by an unknown key, older than the
    /// catalog in use, or damaged); nothing was changed. The message says why.
    PackRefused,
    /// The change would move a figure of the locked baseline (issue #17); nothing was changed.
    /// The message names what is locked, since when, and how to unlock it.
    Locked,
}

/// One located problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ErrorDetail {
    pub file: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub field: Option<String>,
    pub kind: Option<String>,
    pub message: String,
}

/// The boundary error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[error("{message}")]
pub struct PlannerError {
    pub code: ErrorCode,
    pub message: String,
    pub details: Vec<ErrorDetail>,
}

impl ErrorDetail {
    /// A problem with one input field, not located in a file.
    pub fn field(field: &str, message: &str) -> ErrorDetail {
        ErrorDetail {
            file: None,
            line: None,
            column: None,
            field: Some(field.to_owned()),
            kind: Some("invalid-input".to_owned()),
            message: message.to_owned(),
        }
    }
}

impl PlannerError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> PlannerError {
        let message = message.into();
        PlannerError {
            code,
            message: clip_message(&message).into_owned(),
            details: Vec::new(),
        }
    }

    /// An input refused because of one field: "field: message", with the field as its detail.
    pub fn invalid(field: &str, message: impl Into<String>) -> PlannerError {
        let message = clip_message(&message.into()).into_owned();
        let field = clip(field);
        PlannerError {
            code: ErrorCode::InvalidInput,
            message: format!("{field}: {message}"),
            details: vec![ErrorDetail::field(&field, &message)],
        }
    }
}

impl From<&CatalogIssue> for ErrorDetail {
    fn from(i: &CatalogIssue) -> ErrorDetail {
        ErrorDetail {
            file: Some(i.file.clone()),
            line: Some(i.line),
            column: Some(i.column),
            field: Some(i.field.clone()),
            kind: Some(i.kind.as_str().to_owned()),
            message: i.message.clone(),
        }
    }
}

impl From<CatalogError> for PlannerError {
    fn from(e: CatalogError) -> PlannerError {
        let n = e.issues.len();
        PlannerError {
            code: ErrorCode::CatalogInvalid,
            message: format!(
                "The catalog has {n} error{}; nothing from the affected files was loaded. Fix each line listed and reload.",
                if n == 1 { "" } else { "s" }
            ),
            details: e.issues.iter().map(ErrorDetail::from).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::QUOTE_LIMIT;

    #[test]
    fn a_huge_quoted_value_is_cut_and_the_advice_kept() {
        let value = "x".repeat(1_500_000);
        let message = format!("unknown variant `{value}`, expected `owned`; check the kind");
        let clipped = clip_message(&message);
        assert!(clipped.chars().count() < 400, "{}", clipped.len());
        assert!(clipped.contains(&format!("`{}…`", "x".repeat(QUOTE_LIMIT))));
        assert!(clipped.ends_with("expected `owned`; check the kind"));
        assert_eq!(clip_message("short `value`"), "short `value`");
    }

    #[test]
    fn a_huge_id_in_a_scenario_file_is_not_echoed_whole() {
        let id = "a".repeat(1_500_000);
        let text = format!(
            "{{\"format_version\": 1, \"title\": \"t\", \"currency\": \"USD\", \"start\": \"2026-01\", \"discount_rate\": \"0.08\", \"workloads\": [], \"scenarios\": [{{\"id\": \"s\", \"name\": \"s\", \"layers\": [{{\"id\": \"l\", \"kind\": \"{id}\"}}]}}]}}"
        );
        let p = crate::engine::input::scenario_file::parse(&text).unwrap_err();
        assert!(p.message.len() < 1_000, "{} bytes", p.message.len());
        let err = PlannerError::invalid("x", format!("`{id}` is not an id"));
        assert!(err.message.len() < 1_000 && err.details[0].message.len() < 1_000);
    }
}
