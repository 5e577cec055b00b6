//! RFP quotes and the vendor scorecard.

use std::collections::BTreeMap;
use std::path::Path;

use planner_core::catalog::provenance::AsOf;
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::rfp::summary::ScorecardSummary;
use planner_core::rfp::vendors::{QuotePreview, ScorecardDraft, ScorecardView};
use planner_store::Workspace;
use planner_store::files::QuoteTemplate;
use planner_store::workspace::QuotesImported;

use crate::compliance;
use crate::host::{Host, file_name, with_workspace};

/// The open workspace's vendor scorecard as entered (edits go through the scenarios'
/// `apply_edit`).
pub fn scorecard_draft(host: &impl Host) -> Result<ScorecardDraft, PlannerError> {
    with_workspace(host, |ws| ws.scorecard())
}

/// The scorecard screen: each vendor's cost from the engine over the compare horizon, its
/// compliance from its D-1 checklist (absent for a vendor never reviewed), the ranking and its
/// stability.
pub fn scorecard(host: &impl Host) -> Result<ScorecardView, PlannerError> {
    with_workspace(host, |ws| {
        let (template, _) = compliance::template(host, ws)?;
        let compliance = ws.vendor_compliance(&template)?;
        ws.scorecard_view(&compliance)
    })
}

/// The scorecard of `ws` as the memo and the workbook state it (`None` when it lists no vendor):
/// the screen's view, with each vendor's compliance judged by the checklist template kept in the
/// workspace. A workspace keeps its template with its first checklist record, so with none kept
/// no vendor has been reviewed.
pub(crate) fn summary_of(ws: &Workspace) -> Result<Option<ScorecardSummary>, PlannerError> {
    let compliance = match ws.kept_checklist_template()? {
        Some(file) => ws.vendor_compliance(&ws.checklist_template(&file)?)?,
        None => BTreeMap::new(),
    };
    ws.scorecard_summary(&compliance)
}

/// The open workspace's scorecard as the memo and the workbook state it; `None` when it lists no
/// vendor.
pub fn scorecard_summary(host: &impl Host) -> Result<Option<ScorecardSummary>, PlannerError> {
    with_workspace(host, |ws| summary_of(ws))
}

/// Reads an RFP quote file (CSV or XLSX) and shows each quote on the workspace's footing;
/// nothing is written. A file with any problem is refused with every problem located (file,
/// row, column, template column).
pub fn preview_quotes(host: &impl Host, path: &Path) -> Result<QuotePreview, PlannerError> {
    with_workspace(host, |ws| {
        let read = planner_store::read_quotes_in(path, ws.catalog(), ws.settings())?;
        let (year, month, day) = planner_core::calendar::civil_from_days(host.now_ms().div_euclid(86_400_000));
        let today = u16::try_from(year).ok().and_then(|y| AsOf::ymd(y, month, day));
        let today =
            today.ok_or_else(|| PlannerError::new(ErrorCode::Io, "The system clock is outside years 0 to 65535."))?;
        let file = path.display().to_string();
        let mut preview = planner_core::rfp::vendors::preview(&file, &read.quotes, ws.settings(), today)?;
        preview.sheet = read.sheet.map(|s| s.describe());
        Ok(preview)
    })
}

/// Imports an RFP quote file: one scenario per vendor made from the scenario `base` with the
/// vendor's quotes as its layers, and the vendors on the scorecard, in one undo step. A file
/// with any problem imports nothing.
pub fn import_quotes(host: &impl Host, path: &Path, base: &str) -> Result<QuotesImported, PlannerError> {
    with_workspace(host, |ws| {
        let quotes = planner_store::read_quotes(path, ws.catalog(), ws.settings())?;
        ws.import_quotes(&quotes, base, &file_name(path))
    })
}

/// The RFP quote template shipped with the app (beside the catalog it reads).
pub fn quote_template(host: &impl Host) -> Result<QuoteTemplate, PlannerError> {
    planner_store::files::read_quote_template(host.catalog_dir())
}
