//! The comparison of the selected scenarios: the screen with its charts, and its exports.

use std::path::Path;
use std::time::Instant;

use planner_core::error::PlannerError;
use planner_core::plan::ViewState;
use planner_report::charts::Theme;
use planner_report::screen::CompareScreen;
use serde::{Deserialize, Serialize};

use crate::host::{Host, with_workspace};

/// How to export the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum ExportFormat {
    /// A workbook: the comparison and one ledger sheet per scenario.
    Xlsx,
    /// The comparison table as CSV.
    Csv,
}

/// Saves what the compare screen shows (not an undo step).
pub fn set_view(host: &impl Host, view: &ViewState) -> Result<ViewState, PlannerError> {
    with_workspace(host, |ws| ws.set_view(view))
}

/// The comparison of the selected scenarios with its charts, drawn for `theme`, with the time
/// the back end took.
pub fn screen(host: &impl Host, theme: Theme) -> Result<CompareScreen, PlannerError> {
    let started = Instant::now();
    let (comparison, _, _) = with_workspace(host, |ws| ws.compare())?;
    let mut screen = planner_report::screen::compare_screen(comparison, theme);
    screen.backend_ms = format!("{:.1}", started.elapsed().as_secs_f64() * 1000.0);
    Ok(screen)
}

/// Exports the comparison on screen to `path` (XLSX with every ledger, or CSV).
pub fn export(host: &impl Host, path: &Path, format: ExportFormat) -> Result<(), PlannerError> {
    let (comparison, evaluation, _) = with_workspace(host, |ws| ws.compare())?;
    let bytes = planner_report::screen::export_bytes(&comparison, evaluation.as_ref(), format == ExportFormat::Xlsx)?;
    planner_store::files::write_atomic(path, &bytes)
}

/// Exports one scenario's monthly ledger as CSV to `path`.
pub fn export_ledger(host: &impl Host, path: &Path, scenario: &str) -> Result<(), PlannerError> {
    let (comparison, evaluation, _) = with_workspace(host, |ws| ws.compare())?;
    let text = planner_report::screen::ledger_csv(&comparison, evaluation.as_ref(), scenario)?;
    planner_store::files::write_atomic(path, text.as_bytes())
}
