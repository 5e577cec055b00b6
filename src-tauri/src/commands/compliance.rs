//! Compliance commands: D-1 checklists, sign-offs and the log.

use std::path::Path;

use planner_app::compliance::{self, ChecklistView, SubjectStatus};
use planner_app::identities::SignWith;
use planner_core::compliance::checklist::Subject;
use planner_core::error::PlannerError;
use planner_store::workspace::{AnswerInput, LogCheck};

use super::Host;

/// The clearance of every scenario and of every vendor with a record, for the badges.
#[tauri::command]
#[specta::specta]
pub async fn checklist_statuses(host: Host<'_>) -> Result<Vec<SubjectStatus>, PlannerError> {
    compliance::statuses(&*host)
}

/// One subject's checklist: items, answers with their history, hints, sign-off, clearance.
#[tauri::command]
#[specta::specta]
pub async fn checklist(host: Host<'_>, subject: Subject) -> Result<ChecklistView, PlannerError> {
    compliance::checklist(&*host, &subject)
}

/// Records an answer with the files at `evidence` (paths) attached; returns the checklist.
#[tauri::command]
#[specta::specta]
pub async fn answer_checklist_item(
    host: Host<'_>,
    subject: Subject,
    answer: AnswerInput,
    evidence: Vec<String>,
) -> Result<ChecklistView, PlannerError> {
    compliance::answer(&*host, &subject, &answer, &evidence)
}

/// Signs off the subject's checklist as its answers stand, with the reviewer's signing identity
/// when `sign` names one (its `reason` is not used); returns the checklist.
#[tauri::command]
#[specta::specta]
pub async fn sign_off_checklist(
    host: Host<'_>,
    subject: Subject,
    reviewer: String,
    note: String,
    sign: Option<SignWith>,
) -> Result<ChecklistView, PlannerError> {
    compliance::sign_off(&*host, &subject, &reviewer, &note, sign.as_ref())
}

/// Withdraws the subject's sign-off with a reason; returns the checklist.
#[tauri::command]
#[specta::specta]
pub async fn revoke_sign_off(
    host: Host<'_>,
    subject: Subject,
    reviewer: String,
    reason: String,
) -> Result<ChecklistView, PlannerError> {
    compliance::revoke(&*host, &subject, &reviewer, &reason)
}

/// Verifies the checklist log and names the first broken entry.
#[tauri::command]
#[specta::specta]
pub async fn verify_checklist_log(host: Host<'_>) -> Result<LogCheck, PlannerError> {
    compliance::verify_log(&*host)
}

/// Writes a stored evidence file (checked against its SHA-256) to `path`.
#[tauri::command]
#[specta::specta]
pub async fn export_evidence(host: Host<'_>, sha256: String, path: String) -> Result<(), PlannerError> {
    compliance::export_evidence(&*host, &sha256, Path::new(&path))
}
