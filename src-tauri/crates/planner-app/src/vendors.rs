//! RFP quotes and the vendor scorecard.

use std::collections::BTreeMap;
use std::path::Path;

use planner_core::catalog::provenance::AsOf;
use planner_core::compliance::checklist::{ChecklistTemplate, Subject};
use planner_core::engine::input::scenario_file::ScenarioSpec;
use planner_core::engine::workspace::content::WorkspaceSettings;
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::rfp::summary::{self, ScorecardSummary};
use planner_core::rfp::vendors::{self, QuotePreview, ScorecardDraft, ScorecardView};
use planner_store::Workspace;
use planner_store::files::QuoteTemplate;
use planner_store::workspace::QuotesImported;
use rust_decimal::Decimal;

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
        let compliance = vendor_compliance(ws, &template)?;
        scorecard_view(ws, &compliance)
    })
}

/// The scorecard of `ws` as the memo and the workbook state it (`None` when it lists no vendor):
/// the screen's view, with each vendor's compliance judged by the checklist template kept in the
/// workspace. A workspace keeps its template with its first checklist record, so with none kept
/// no vendor has been reviewed.
pub(crate) fn summary_of(ws: &Workspace) -> Result<Option<ScorecardSummary>, PlannerError> {
    let compliance = match ws.kept_checklist_template()? {
        Some(file) => vendor_compliance(ws, &ws.checklist_template(&file)?)?,
        None => BTreeMap::new(),
    };
    let draft = ws.scorecard()?;
    if draft.vendors.is_empty() {
        return Ok(None);
    }
    let scenarios = vendor_scenarios(ws, &draft)?;
    let view = view_of(ws, &draft, &scenarios, &compliance)?;
    Ok(summary::summary(&draft, &view, &scenarios))
}

/// The compliance axis of each vendor on the scorecard that has a checklist record (an
/// answer, a sign-off or a withdrawal in the log), by name: the checklist's share passed when
/// the vendor is cleared, else 0 (`Workspace::compliance_share`). A vendor without a record is
/// left out: it has not been reviewed, and the scorecard says so.
pub fn vendor_compliance(
    ws: &Workspace,
    template: &ChecklistTemplate,
) -> Result<BTreeMap<String, Decimal>, PlannerError> {
    // Read from the log itself, not from every subject's status: a workspace may hold
    // thousands of scenarios, and only the vendors' records matter here.
    let reviewed: std::collections::BTreeSet<String> = ws.checklist_log()?.into_iter().map(|e| e.subject).collect();
    let mut out = BTreeMap::new();
    for v in ws.scorecard()?.vendors {
        let subject = Subject::Vendor(v.name.clone());
        if reviewed.contains(&subject.key()) {
            let share = ws.compliance_share(template, &subject)?;
            out.insert(v.name, share);
        }
    }
    Ok(out)
}

/// The scenarios the vendors of `draft` are priced on, each once, in the vendors' order (a
/// scenario that is gone is left out: the scorecard says so).
fn vendor_scenarios(ws: &Workspace, draft: &ScorecardDraft) -> Result<Vec<ScenarioSpec>, PlannerError> {
    let mut scenarios: Vec<ScenarioSpec> = Vec::new();
    for v in &draft.vendors {
        if let Some(id) = &v.scenario
            && !scenarios.iter().any(|s| &s.id == id)
            && let Some(spec) = ws.find_scenario(id)?
        {
            scenarios.push(spec);
        }
    }
    Ok(scenarios)
}

/// The scorecard screen of `draft`: each vendor's cost is its scenario's total over the compare
/// screen's horizon; `compliance` maps vendor names to the checklist's share (absent: not
/// reviewed, counted as 0).
fn view_of(
    ws: &Workspace,
    draft: &ScorecardDraft,
    scenarios: &[ScenarioSpec],
    compliance: &BTreeMap<String, Decimal>,
) -> Result<ScorecardView, PlannerError> {
    let view = ws.view()?;
    Ok(vendors::scorecard_view(
        draft,
        ws.catalog(),
        ws.settings(),
        ws.workloads(),
        scenarios,
        view.horizon_months,
        compliance,
    ))
}

/// The scorecard screen of the workspace's own scorecard.
pub fn scorecard_view(ws: &Workspace, compliance: &BTreeMap<String, Decimal>) -> Result<ScorecardView, PlannerError> {
    let draft = ws.scorecard()?;
    let scenarios = vendor_scenarios(ws, &draft)?;
    view_of(ws, &draft, &scenarios, compliance)
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
        ws.import_quotes(&quotes, base, &file_name(path), host.now_ms())
    })
}

/// Reads the RFP quote file at `file` checked against the workspace file at `workspace` (its
/// catalog snapshot, currency and exchange rates), or else against the host's catalog folder
/// with the settings of a new workspace (USD, no exchange rates); nothing is written. Returns
/// what was read (the quotes, and which sheet of a workbook) and the settings it was read with.
pub fn read_quotes_against(
    host: &impl Host,
    file: &Path,
    workspace: Option<&Path>,
) -> Result<(planner_store::quotes::QuotesRead, WorkspaceSettings), PlannerError> {
    let (catalog, settings) = match workspace {
        Some(w) => {
            let ws = Workspace::open(w)?;
            (ws.catalog().clone(), ws.settings().clone())
        }
        None => (
            crate::catalog::shipped(host)?,
            WorkspaceSettings::new("Quote check", planner_store::workspace::next_month_after(host.now_ms())),
        ),
    };
    let read = planner_store::quotes::read_quotes_in(file, &catalog, &settings)?;
    Ok((read, settings))
}

/// The RFP quote template shipped with the app (beside the catalog it reads).
pub fn quote_template(host: &impl Host) -> Result<QuoteTemplate, PlannerError> {
    planner_store::files::read_quote_template(host.catalog_dir())
}
