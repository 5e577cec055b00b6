//! Compare commands: the comparison screen and its exports.

use std::path::Path;

use planner_app::compare::{self, ExportFormat, RiskProgress, RiskRequest, RiskView, WhatIfScreen};
use planner_core::engine::editing::what_if::WhatIf;
use planner_core::engine::workspace::content::{BaselineLock, ViewState};
use planner_core::error::PlannerError;
use planner_report::charts::Theme;
use planner_report::screen::CompareScreen;

use super::Host;

/// Saves what the compare screen shows (not an undo step).
#[tauri::command]
#[specta::specta]
pub async fn set_view(host: Host<'_>, view: ViewState) -> Result<ViewState, PlannerError> {
    compare::set_view(&*host, &view)
}

/// Locks the compared set and its baseline (issue #17): changes that would move their figures
/// are refused until it is unlocked.
#[tauri::command]
#[specta::specta]
pub async fn lock_baseline(host: Host<'_>) -> Result<BaselineLock, PlannerError> {
    compare::lock_baseline(&*host)
}

/// Lifts the baseline lock.
#[tauri::command]
#[specta::specta]
pub async fn unlock_baseline(host: Host<'_>) -> Result<(), PlannerError> {
    compare::unlock_baseline(&*host)
}

/// The comparison of the selected scenarios with its charts, drawn for `theme`.
#[tauri::command]
#[specta::specta]
pub async fn compare(host: Host<'_>, theme: Theme) -> Result<CompareScreen, PlannerError> {
    compare::screen(&*host, theme)
}

/// The comparison with live what-if drivers applied (nothing saved), drawn for `theme`, with
/// the monthly chart of scenario `monthly` only (the first compared one when `None`).
#[tauri::command]
#[specta::specta]
pub async fn compare_what_if(
    host: Host<'_>,
    what_if: WhatIf,
    theme: Theme,
    monthly: Option<String>,
) -> Result<WhatIfScreen, PlannerError> {
    compare::what_if(&*host, &what_if, theme, monthly.as_deref())
}

/// Runs the risk analysis of the compare selection as `request` asks (draws, seed, shape,
/// correlation, the figures marked uncertain) and keeps it in the workspace; its charts are drawn
/// for `theme`.
#[tauri::command]
#[specta::specta]
pub async fn run_risk(host: Host<'_>, request: RiskRequest, theme: Theme) -> Result<RiskView, PlannerError> {
    compare::run_risk(&*host, &request, theme)
}

/// The last risk analysis kept in the workspace, and whether the plan changed since; `None`
/// before the first.
#[tauri::command]
#[specta::specta]
pub async fn risk(host: Host<'_>, theme: Theme) -> Result<Option<RiskView>, PlannerError> {
    compare::risk(&*host, theme)
}

/// How far the running risk analysis has come; `None` when none is running.
#[tauri::command]
#[specta::specta]
pub async fn risk_progress(host: Host<'_>) -> Result<Option<RiskProgress>, PlannerError> {
    Ok(compare::risk_progress(&*host))
}

/// Cancels the running risk analysis; `false` when none is running.
#[tauri::command]
#[specta::specta]
pub async fn cancel_risk(host: Host<'_>) -> Result<bool, PlannerError> {
    Ok(compare::cancel_risk(&*host))
}

/// Exports the comparison on screen (XLSX with every ledger, or CSV).
#[tauri::command]
#[specta::specta]
pub async fn export_comparison(host: Host<'_>, path: String, format: ExportFormat) -> Result<(), PlannerError> {
    compare::export(&*host, Path::new(&path), format)
}

/// Exports one scenario's monthly ledger as CSV.
#[tauri::command]
#[specta::specta]
pub async fn export_ledger(host: Host<'_>, path: String, scenario: String) -> Result<(), PlannerError> {
    compare::export_ledger(&*host, Path::new(&path), &scenario)
}
