//! D-1 compliance checklists: answers with their evidence, sign-offs (signed with an identity
//! when the reviewer has one), and the tamper-evident log.

use std::path::Path;

use planner_core::checklist::{ChecklistTemplate, Subject};
use planner_core::error::PlannerError;
use planner_store::Workspace;
use planner_store::workspace::{AnswerInput, ChecklistView, LogCheck, SubjectStatus};

use crate::host::{Host, with_workspace};
use crate::identities::{self, SignWith};

/// The template the open workspace's checklists are judged by (its kept copy, else the shipped
/// one) and the shipped file as (file name, TOML text), which becomes the kept copy at the first
/// change.
pub(crate) fn template(
    host: &impl Host,
    ws: &Workspace,
) -> Result<(ChecklistTemplate, (String, String)), PlannerError> {
    let shipped = planner_store::files::read_checklist_template(host.catalog_dir())?;
    let template = ws.checklist_template(&shipped)?;
    Ok((template, shipped))
}

/// The clearance of every scenario and of every vendor with a record, for the badges.
pub fn statuses(host: &impl Host) -> Result<Vec<SubjectStatus>, PlannerError> {
    with_workspace(host, |ws| {
        let (template, _) = template(host, ws)?;
        ws.checklist_statuses(&template)
    })
}

/// One subject's checklist: items, answers with their history, hints, sign-off, clearance.
pub fn checklist(host: &impl Host, subject: &Subject) -> Result<ChecklistView, PlannerError> {
    with_workspace(host, |ws| {
        let (template, _) = template(host, ws)?;
        ws.checklist_view(&template, subject)
    })
}

/// Records an answer with the files at `evidence` attached; returns the checklist.
pub fn answer(
    host: &impl Host,
    subject: &Subject,
    answer: &AnswerInput,
    evidence: &[String],
) -> Result<ChecklistView, PlannerError> {
    let files = evidence
        .iter()
        .map(|p| planner_store::files::read_evidence(Path::new(p)))
        .collect::<Result<Vec<_>, _>>()?;
    with_workspace(host, |ws| {
        let (template, shipped) = template(host, ws)?;
        ws.answer_item(&template, &shipped, subject, answer, &files)?;
        ws.checklist_view(&template, subject)
    })
}

/// Signs off the subject's checklist as its answers stand, with the reviewer's signing identity
/// when `sign` names one (its `reason` is not used); returns the checklist.
pub fn sign_off(
    host: &impl Host,
    subject: &Subject,
    reviewer: &str,
    note: &str,
    sign: Option<&SignWith>,
) -> Result<ChecklistView, PlannerError> {
    let identity = identities::open(host, sign)?;
    let by = planner_publish::SignOffBy::new(reviewer, note, identity.as_ref());
    let now = host.now_ms();
    with_workspace(host, |ws| {
        let (template, shipped) = template(host, ws)?;
        planner_publish::sign_off(ws, &template, &shipped, subject, &by, now)?;
        ws.checklist_view(&template, subject)
    })
}

/// Withdraws the subject's sign-off with a reason; returns the checklist.
pub fn revoke(
    host: &impl Host,
    subject: &Subject,
    reviewer: &str,
    reason: &str,
) -> Result<ChecklistView, PlannerError> {
    let now = host.now_ms();
    with_workspace(host, |ws| {
        let (template, shipped) = template(host, ws)?;
        ws.revoke_sign_off(&shipped, subject, reviewer, reason, now)?;
        ws.checklist_view(&template, subject)
    })
}

/// Verifies the checklist log and names the first broken entry.
pub fn verify_log(host: &impl Host) -> Result<LogCheck, PlannerError> {
    with_workspace(host, |ws| ws.verify_checklist_log())
}

/// Writes a stored evidence file (checked against its SHA-256) to `path`.
pub fn export_evidence(host: &impl Host, sha256: &str, path: &Path) -> Result<(), PlannerError> {
    let bytes = with_workspace(host, |ws| ws.evidence_bytes(sha256))?;
    planner_store::files::write_atomic(path, &bytes)
}
