//! The one error shape that crosses every boundary (IPC, command line): `{ code, message, details }`.
//!
//! `code` is a small enum the UI switches on; `message` tells a person what went wrong, where,
//! and what to do; `details` carries the located items (a catalog issue per line, say).

use serde::{Deserialize, Serialize};

use crate::catalog::{CatalogError, CatalogIssue};

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
    /// The action needs an open workspace and none is open.
    NoWorkspace,
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
        PlannerError {
            code,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// An input refused because of one field: "field: message", with the field as its detail.
    pub fn invalid(field: &str, message: impl Into<String>) -> PlannerError {
        let message = message.into();
        PlannerError {
            code: ErrorCode::InvalidInput,
            message: format!("{field}: {message}"),
            details: vec![ErrorDetail::field(field, &message)],
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
