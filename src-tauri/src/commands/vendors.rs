//! Vendor commands: RFP quotes and the scorecard.

use std::path::Path;

use planner_app::vendors;
use planner_core::error::PlannerError;
use planner_core::rfp::vendors::{QuotePreview, ScorecardDraft, ScorecardView};
use planner_store::files::QuoteTemplate;
use planner_store::workspace::QuotesImported;

use super::Host;

/// The open workspace's vendor scorecard as entered (edits go through `apply_edit` with
/// `Edit::Scorecard`).
#[tauri::command]
#[specta::specta]
pub async fn scorecard_draft(host: Host<'_>) -> Result<ScorecardDraft, PlannerError> {
    vendors::scorecard_draft(&*host)
}

/// The scorecard screen: each vendor's cost from the engine over the compare horizon, its
/// compliance from its D-1 checklist (absent for a vendor never reviewed), the ranking and its
/// stability.
#[tauri::command]
#[specta::specta]
pub async fn scorecard_view(host: Host<'_>) -> Result<ScorecardView, PlannerError> {
    vendors::scorecard(&*host)
}

/// Reads an RFP quote file (CSV or XLSX) and shows each quote on the workspace's footing;
/// nothing is written. A file with any problem is refused with every problem located (file,
/// row, column, template column).
#[tauri::command]
#[specta::specta]
pub async fn preview_quotes(host: Host<'_>, path: String) -> Result<QuotePreview, PlannerError> {
    vendors::preview_quotes(&*host, Path::new(&path))
}

/// Imports an RFP quote file: one scenario per vendor made from the scenario `base` with the
/// vendor's quotes as its layers, and the vendors on the scorecard, in one undo step. A file
/// with any problem imports nothing.
#[tauri::command]
#[specta::specta]
pub async fn import_quotes(host: Host<'_>, path: String, base: String) -> Result<QuotesImported, PlannerError> {
    vendors::import_quotes(&*host, Path::new(&path), &base)
}

/// The RFP quote template shipped with the app (beside the catalog it reads).
#[tauri::command]
#[specta::specta]
pub async fn quote_template(host: Host<'_>) -> Result<QuoteTemplate, PlannerError> {
    vendors::quote_template(&*host)
}
