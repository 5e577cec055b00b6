//! D-1 compliance checklists: answers with their evidence, sign-offs (signed with an identity
//! when the reviewer has one), and the tamper-evident log.

use std::path::Path;

use planner_core::compliance::audit::AuditEntry;
use planner_core::compliance::checklist::AnswerInput;
use planner_core::compliance::checklist::{ChecklistTemplate, SignOffSignature, Subject};
use planner_core::error::{ErrorCode, PlannerError};
use planner_sign::Identity;
use planner_store::Workspace;
use planner_store::workspace::LogCheck;

use crate::host::{Host, with_workspace};
use crate::identities::{self, SignWith};

pub mod views;

pub use views::{ChecklistView, FamilyView, ItemView, SubjectStatus};

/// Signs a checklist sign-off's content ([`planner_core::compliance::checklist::signoff_content`]) with
/// `identity`: a detached CMS signature with the certificate inside.
pub fn sign_signoff(identity: &Identity, content: &[u8]) -> Result<SignOffSignature, PlannerError> {
    let cms = planner_sign::sign_detached(identity, content).map_err(|e| {
        PlannerError::new(
            ErrorCode::InvalidInput,
            format!("The sign-off could not be signed: {e}."),
        )
    })?;
    Ok(SignOffSignature {
        cms_hex: cms.iter().map(|b| format!("{b:02x}")).collect(),
        signer: planner_publish::signer_label(identity),
        certificate_sha256: identity.certificate().sha256_fingerprint,
    })
}

/// Who signs a checklist off: the reviewer's name and note, and the identity that signs the
/// sign-off (`None`: recorded unsigned).
#[derive(Debug, Clone, Copy)]
pub struct SignOffBy<'a> {
    pub reviewer: &'a str,
    pub note: &'a str,
    pub identity: Option<&'a Identity>,
}

impl<'a> SignOffBy<'a> {
    pub fn new(reviewer: &'a str, note: &'a str, identity: Option<&'a Identity>) -> SignOffBy<'a> {
        SignOffBy {
            reviewer,
            note,
            identity,
        }
    }
}

/// Signs off `subject`'s checklist in `ws` as its answers stand, signed with `by.identity` when
/// there is one; returns the log entry.
pub fn sign_off_in(
    ws: &mut Workspace,
    template: &ChecklistTemplate,
    template_file: &(String, String),
    subject: &Subject,
    by: &SignOffBy<'_>,
    at_ms: i64,
) -> Result<AuditEntry, PlannerError> {
    match by.identity {
        Some(id) => ws.sign_off_checklist_signed(template, template_file, subject, by.reviewer, by.note, at_ms, &|c| {
            sign_signoff(id, c)
        }),
        None => ws.sign_off_checklist(template, template_file, subject, by.reviewer, by.note, at_ms),
    }
}

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

/// The checklist template of the catalog folder `dir`, as (its path as shown, its TOML text);
/// `None` when the folder has none (a test fixture, a user's own catalog).
pub fn template_in(dir: &Path) -> Result<Option<(String, String)>, PlannerError> {
    let path = dir.join(planner_store::files::CHECKLIST_TEMPLATE);
    if !path.is_file() {
        return Ok(None);
    }
    let (_, text) = planner_store::files::read_checklist_template(dir)?;
    Ok(Some((path.display().to_string(), text)))
}

/// Where a catalog folder keeps its checklist template, relative to the folder.
pub const TEMPLATE_FILE: &str = planner_store::files::CHECKLIST_TEMPLATE;

/// Every entry of the open workspace's checklist log, oldest first.
pub fn log(host: &impl Host) -> Result<Vec<AuditEntry>, PlannerError> {
    with_workspace(host, |ws| ws.checklist_log())
}

/// The clearance of every scenario and of every vendor with a record, for the badges.
pub fn statuses(host: &impl Host) -> Result<Vec<SubjectStatus>, PlannerError> {
    with_workspace(host, |ws| {
        let (template, _) = template(host, ws)?;
        views::statuses(ws, &template)
    })
}

/// One subject's checklist: items, answers with their history, hints, sign-off, clearance.
pub fn checklist(host: &impl Host, subject: &Subject) -> Result<ChecklistView, PlannerError> {
    with_workspace(host, |ws| {
        let (template, _) = template(host, ws)?;
        views::checklist_view(ws, &template, subject)
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
    let now = host.now_ms();
    with_workspace(host, |ws| {
        let (template, shipped) = template(host, ws)?;
        ws.answer_item(&template, &shipped, subject, answer, &files, now)?;
        views::checklist_view(ws, &template, subject)
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
    let by = SignOffBy::new(reviewer, note, identity.as_ref());
    let now = host.now_ms();
    with_workspace(host, |ws| {
        let (template, shipped) = template(host, ws)?;
        sign_off_in(ws, &template, &shipped, subject, &by, now)?;
        views::checklist_view(ws, &template, subject)
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
        views::checklist_view(ws, &template, subject)
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
