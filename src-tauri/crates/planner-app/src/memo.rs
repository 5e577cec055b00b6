//! The decision memo: its draft, the PDF with its signatures, and checking a signed PDF.
//!
//! Making a memo from a workspace is one use case: the draft's scenarios are compared on the
//! workspace's own catalog snapshot, the D-1 status of each is read from the checklist log, the
//! catalog's origin is checked again (a pack's signature and file digests) for the memo to state,
//! the PDF is laid out (and signed) by `planner-publish`, and every record is kept in the
//! workspace. The ledger marks figures older than the workspace's freshness thresholds.
//! When the workspace keeps a risk analysis, the memo reruns it over its own scenarios (with the
//! kept draws, seed and correlation, against the recommended scenario) for its Risk section.
//! When the workspace's vendor scorecard lists vendors, the memo carries it (the scorecard
//! screen's view, `vendors::summary_of`) in its Vendor scorecard section.

use std::path::Path;

use planner_core::catalog::Catalog;
use planner_core::compliance::checklist::Subject;
use planner_core::engine::costing::evaluate::Evaluation;
use planner_core::engine::decide::decision::DecisionView;
use planner_core::engine::input::scenario_file::{ScenarioFile, ScenarioSpec};
use planner_core::engine::risk::run::{Control, RiskOutcome, Stopped, analyse_with};
use planner_core::engine::workspace::content::{self, Comparison, ViewState};
use planner_core::error::PlannerError;
use planner_core::memo::{MemoDraft, MemoRecord};
use planner_memo::{MemoCompliance, MemoLock};
use planner_publish::{FolderCatalog, MemoSources, Published, Signer};
use planner_sign::Identity;

/// The report on a PDF's signatures ([`verify_pdf`]), named here for the command line, which
/// reaches the publishing crate only through this layer.
pub use planner_publish::PdfCheck;
use planner_store::Workspace;

use crate::compliance::views;
use crate::host::{Host, file_name, with_workspace};
use crate::identities::{self, SignWith};

/// The scenarios a memo of `draft` compares: the draft's own list, or else the compare screen's
/// selection.
pub fn memo_scenarios(ws: &Workspace, draft: &MemoDraft) -> Result<Vec<String>, PlannerError> {
    Ok(if draft.scenarios.is_empty() {
        ws.view()?.selected
    } else {
        draft.scenarios.clone()
    })
}

/// Evaluates what a memo of `draft` shows: its scenarios over the compare screen's horizon, with
/// the differences taken against the recommended scenario (else the compare screen's baseline,
/// else the first); while the baseline is locked and the memo compares the locked baseline,
/// against it. Returns the comparison, the evaluation and the scenario files (for the exit terms
/// each one states).
fn memo_comparison(
    ws: &Workspace,
    draft: &MemoDraft,
) -> Result<(Comparison, Option<Evaluation>, Vec<ScenarioSpec>), PlannerError> {
    let ids = memo_scenarios(ws, draft)?;
    let view = ws.view()?;
    let scenarios = ids.iter().map(|id| ws.scenario(id)).collect::<Result<Vec<_>, _>>()?;
    let locked = ws.lock()?.map(|l| l.baseline).filter(|b| ids.contains(b));
    let memo_view = ViewState {
        baseline: locked.or_else(|| draft.recommended.clone()).or(view.baseline),
        selected: ids,
        horizon_months: view.horizon_months,
    };
    let (comparison, evaluation) =
        content::compare_selection(ws.catalog(), ws.settings(), ws.workloads(), &scenarios, &memo_view);
    Ok((comparison, evaluation, scenarios))
}

/// The scenarios a memo of `draft` compares as a scenario file, over the compare screen's
/// horizon (what its risk analysis draws), and the catalog snapshot it computes with.
fn memo_file<'w>(ws: &'w Workspace, draft: &MemoDraft) -> Result<(ScenarioFile, &'w Catalog), PlannerError> {
    let ids = memo_scenarios(ws, draft)?;
    let mut file = ws.export(Some(&ids))?;
    if let Some(h) = ws.view()?.horizon_months {
        file.horizon_months = h;
    }
    Ok((file, ws.catalog()))
}

/// The open workspace's memo draft (edits go through the scenarios' `apply_edit`).
pub fn draft(host: &impl Host) -> Result<MemoDraft, PlannerError> {
    with_workspace(host, |ws| ws.memo_draft())
}

/// Every memo written or signed from the open workspace, oldest first.
pub fn records(host: &impl Host) -> Result<Vec<MemoRecord>, PlannerError> {
    with_workspace(host, |ws| ws.memos())
}

/// The D-1 checklist status of the memo's scenarios, judged by the template kept in the workspace
/// (none kept: nothing has been answered, so nothing is cleared), and the log as verified now.
fn memo_compliance(ws: &Workspace, view: &DecisionView) -> Result<MemoCompliance, PlannerError> {
    let check = ws.verify_checklist_log()?;
    let (log, broken) = match &check.problem {
        Some(p) => (
            format!(
                "BROKEN at entry {} (seq {}): {}; nothing in it is cleared",
                p.position, p.seq, p.problem
            ),
            true,
        ),
        None => (
            format!(
                "{} entr{}, {} evidence file(s), head SHA-256 {}",
                check.entries,
                if check.entries == 1 { "y" } else { "ies" },
                check.evidence_files,
                check.head
            ),
            false,
        ),
    };
    let kept = ws.kept_checklist_template()?;
    let template = match &kept {
        Some(file) => Some(ws.checklist_template(file)?),
        None => None,
    };
    let statuses = match &template {
        Some(t) => views::statuses(ws, t)?,
        None => Vec::new(),
    };
    let scenarios = view
        .scenarios
        .iter()
        .map(|s| {
            let status = statuses
                .iter()
                .find(|st| matches!(&st.subject, Subject::Scenario(id) if *id == s.id));
            let text = status.map_or_else(|| "no checklist answer recorded".to_owned(), |st| st.summary.clone());
            (s.id.clone(), status.is_some_and(|st| st.cleared), text)
        })
        .collect();
    Ok(MemoCompliance {
        template: template.map(|t| format!("{}, version {}", t.title, t.version)),
        scenarios,
        log,
        broken,
    })
}

/// The workspace's locked baseline by names, for the memo to state; `None` when nothing is locked.
fn memo_lock(ws: &Workspace) -> Result<Option<MemoLock>, PlannerError> {
    let name = |id: &str| ws.scenario(id).map_or_else(|_| id.to_owned(), |s| s.name);
    Ok(ws.lock()?.map(|lock| MemoLock {
        locked_at: lock.locked_when(),
        baseline: name(&lock.baseline),
        scenarios: lock.scenarios.iter().map(|id| name(id)).collect(),
    }))
}

/// The risk analysis of the memo's own scenarios (`ids`) on the workspace's catalog snapshot,
/// against the recommended scenario (else the first), with the draws, seed and correlation of the
/// analysis kept in the workspace; `None` when none is kept.
fn memo_risk(ws: &Workspace, draft: &MemoDraft, ids: &[String]) -> Result<Option<RiskOutcome>, PlannerError> {
    let Some((sampling, uncertain)) = crate::compare::kept_sampling(ws)? else {
        return Ok(None);
    };
    let (file, catalog) = memo_file(ws, draft)?;
    let baseline = draft.recommended.as_deref().or(ids.first().map(String::as_str));
    // The figures marked uncertain that the memo's own scenarios have (a figure of a scenario
    // the memo leaves out is not drawn).
    let known = planner_core::engine::risk::drivers::candidates(&file);
    let uncertain: Vec<_> = uncertain
        .into_iter()
        .filter(|u| known.iter().any(|c| c.path == u.path))
        .collect();
    match analyse_with(catalog, &file, baseline, &sampling, &uncertain, &Control::new()) {
        Ok(outcome) => Ok(Some(outcome)),
        Err(Stopped::Problems(p)) => Err(planner_core::engine::resolve::validate::to_error(&p, None)),
        Err(Stopped::Cancelled) => Ok(None),
    }
}

/// Makes the memo of a workspace's draft (`draft`: the workspace's own, possibly with changes
/// the caller made, such as scenarios named on the command line), writes it to `out` and records
/// it in the workspace.
pub fn publish(
    ws: &mut Workspace,
    draft: &MemoDraft,
    out: &Path,
    now_ms: i64,
    signer: Option<&Signer<'_>>,
) -> Result<Published, PlannerError> {
    // Every memo made from a workspace is recorded in it: refuse before writing any file.
    ws.check_writable("make a memo from it (each memo is recorded in the workspace it comes from)")?;
    let ids = memo_scenarios(ws, draft)?;
    planner_publish::check_draft(draft, &ids)?;
    let (comparison, eval, specs) = memo_comparison(ws, draft)?;
    let (view, eval) = planner_publish::evaluated(&comparison, eval.as_ref())?;
    let compliance = memo_compliance(ws, view)?;
    let risk = memo_risk(ws, draft, &ids)?;
    let scorecard = crate::vendors::summary_of(ws)?;
    let ways_out = {
        let (file, catalog) = memo_file(ws, draft)?;
        planner_core::engine::exit::kinds::ways_out_of(catalog, &file, &ids)
    };
    let name = file_name(ws.path());
    let lock = memo_lock(ws)?;
    // Where the catalog came from, its pack signature checked again now.
    let origin = ws.catalog_origin()?;
    let source = planner_publish::catalog_source(&origin);
    let sources = MemoSources {
        view,
        eval,
        scenarios: &specs,
        workloads: ws.workloads(),
        workspace: &name,
        catalog: ws.catalog(),
        catalog_version: &origin.version,
        catalog_source: &source,
        catalog_statement: &origin.statement,
        freshness: ws.settings().freshness,
        compliance: Some(&compliance),
        risk: risk.as_ref(),
        scorecard: scorecard.as_ref(),
        ways_out: &ways_out,
        lock: lock.as_ref(),
    };
    let made = planner_publish::make(&sources, draft, out, now_ms, signer)?;
    ws.record_memo(&made.generated)?;
    if let Some(s) = &made.signed {
        ws.record_memo(s)?;
    }
    Ok(made.published())
}

/// Makes the memo of `draft` (the open workspace's, possibly changed by the caller) to `out`,
/// signed by `signer` when given, and records it in the open workspace.
pub fn publish_draft(
    host: &impl Host,
    draft: &MemoDraft,
    out: &Path,
    signer: Option<&Signer<'_>>,
) -> Result<Published, PlannerError> {
    let now = host.now_ms();
    with_workspace(host, |ws| publish(ws, draft, out, now, signer))
}

/// Writes the memo of the open workspace's draft to `path`, signed when `sign` is given, and
/// records it in the workspace.
pub fn export(host: &impl Host, path: &Path, sign: Option<&SignWith>) -> Result<Published, PlannerError> {
    let identity = identities::open(host, sign)?;
    let signer = identity.as_ref().zip(sign).map(|(identity, s)| Signer {
        identity,
        reason: &s.reason,
    });
    let now = host.now_ms();
    with_workspace(host, |ws| {
        let draft = ws.memo_draft()?;
        publish(ws, &draft, path, now, signer.as_ref())
    })
}

/// The signer of a memo or a PDF: `identity`, with `reason` written into the signature.
pub fn signer<'a>(identity: &'a Identity, reason: &'a str) -> Signer<'a> {
    Signer { identity, reason }
}

/// Makes the memo of the scenario file at `file` (its scenarios, or the draft's) with the catalog
/// of the host's catalog folder, writes it to `out`, signed by `signer` when given. There is no
/// workspace to record it in.
pub fn publish_file(
    host: &impl Host,
    file: &Path,
    draft: &MemoDraft,
    out: &Path,
    signer: Option<&Signer<'_>>,
) -> Result<Published, PlannerError> {
    let catalog = crate::catalog::shipped(host)?;
    let parsed = planner_store::files::read_scenario_file(file)?;
    let dir = host.catalog_dir().display().to_string();
    planner_publish::publish_from_file(
        &FolderCatalog {
            catalog: &catalog,
            dir: &dir,
        },
        &parsed,
        &file_name(file),
        draft,
        out,
        host.now_ms(),
        signer,
    )
}

/// Adds a signature by `signer` to the PDF at `path`, recorded in the open workspace if one is
/// open.
pub fn sign_pdf_as(host: &impl Host, path: &Path, signer: &Signer<'_>) -> Result<MemoRecord, PlannerError> {
    let mut slot = host.slots().workspace();
    planner_publish::sign_file(path, signer, host.now_ms(), slot.as_mut())
}

/// Adds a signature to the PDF at `path` (recorded in the open workspace, if any).
pub fn sign_pdf(host: &impl Host, path: &Path, sign: &SignWith) -> Result<MemoRecord, PlannerError> {
    let identity = identities::open_one(host, sign)?;
    sign_pdf_as(host, path, &signer(&identity, &sign.reason))
}

/// Every signature of the PDF at `path`: who, when, with which certificate, and whether the
/// document is intact since.
pub fn verify_pdf(path: &Path) -> Result<PdfCheck, PlannerError> {
    planner_publish::verify_file(path)
}
