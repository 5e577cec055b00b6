//! Memo commands: the draft, the PDF with its signatures, and checking a signed PDF.

use std::path::Path;

use planner_app::identities::SignWith;
use planner_app::memo;
use planner_core::error::PlannerError;
use planner_core::memo::{MemoDraft, MemoRecord};
use planner_publish::{PdfCheck, Published};

use super::Host;

/// The open workspace's memo draft (edits go through `apply_edit` with `Edit::Memo`).
#[tauri::command]
#[specta::specta]
pub async fn memo_draft(host: Host<'_>) -> Result<MemoDraft, PlannerError> {
    memo::draft(&*host)
}

/// Every memo written or signed from the open workspace, oldest first.
#[tauri::command]
#[specta::specta]
pub async fn memo_records(host: Host<'_>) -> Result<Vec<MemoRecord>, PlannerError> {
    memo::records(&*host)
}

/// Writes the memo of the open workspace's draft to `path`, signed when `sign` is given, and
/// records it in the workspace.
#[tauri::command]
#[specta::specta]
pub async fn export_memo(host: Host<'_>, path: String, sign: Option<SignWith>) -> Result<Published, PlannerError> {
    memo::export(&*host, Path::new(&path), sign.as_ref())
}

/// Adds a signature to the PDF at `path` (recorded in the open workspace, if any).
#[tauri::command]
#[specta::specta]
pub async fn sign_pdf(host: Host<'_>, path: String, sign: SignWith) -> Result<MemoRecord, PlannerError> {
    memo::sign_pdf(&*host, Path::new(&path), &sign)
}

/// Every signature of the PDF at `path`: who, when, with which certificate, and whether the
/// document is intact since.
#[tauri::command]
#[specta::specta]
pub async fn verify_pdf(path: String) -> Result<PdfCheck, PlannerError> {
    memo::verify_pdf(Path::new(&path))
}
