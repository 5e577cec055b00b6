//! The compliance record of a workspace: the D-1 checklists of its scenarios and vendors, kept as
//! one hash-chained log (`checklist_log`, [`planner_core::compliance::audit`]) with the evidence files beside
//! it (`evidence`, stored by SHA-256).
//!
//! - **The log is the only copy.** A checklist is read by replaying the log's entries for its
//!   subject (answers in order, the last per item in force; a sign-off; a revocation). Nothing
//!   else holds a status, so a row changed behind the app's back cannot show a different answer
//!   than the one the chain verifies: it breaks the chain at that row, and [`Workspace::verify_checklist_log`]
//!   names it.
//! - **Facts, not edits.** Answers and sign-offs are not in the undo journal; a later answer
//!   supersedes an earlier one, and the history of every item stays readable.
//! - **One transaction per change**, which also checks the chain first: a broken log takes no new
//!   entries (a reviewer cannot sign on top of a tampered record), and the chain's head hash is
//!   kept in `meta` too, so cutting entries from the end is caught.
//! - **Evidence is stored inside the file**, by content (SHA-256); the answer names the file, its
//!   digest and size, and verify re-hashes every stored file an entry refers to.
//! - **The template is kept with the record.** The first change stores the checklist template's
//!   text in the workspace; later reads use that copy, so an answer is always judged against the
//!   items the reviewer saw, whatever template a newer app ships.

use planner_core::compliance::audit::sha256_hex;
use planner_core::compliance::audit::{self, AuditEntry, BreakReason};
use planner_core::compliance::checklist::{
    self, Answer, Checklist, ChecklistTemplate, Evidence, ItemStatus, SignOffSignature, Subject,
};
use planner_core::compliance::checklist::{AnswerInput, ChecklistChange};
use planner_core::error::{ErrorCode, PlannerError};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use rust_decimal::Decimal;
use serde::Serialize;

use super::Workspace;

/// The largest evidence file accepted, in bytes (50 MiB): the workspace is one file handed over
/// after a workshop, and a scan of a contract is far smaller.
pub const EVIDENCE_LIMIT: u64 = 50 * 1024 * 1024;

/// Signs a sign-off's content with the reviewer's key.
pub type SignOffSigner<'a> = &'a dyn Fn(&[u8]) -> Result<SignOffSignature, PlannerError>;

const HEAD_KEY: &str = "checklist_head";
const TEMPLATE_NAME_KEY: &str = "checklist_template_file";
const TEMPLATE_TEXT_KEY: &str = "checklist_template";

/// A file a reviewer attaches: its name (no folder) and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The first entry verify finds wrong, described for a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LogProblem {
    /// 1-based position in the log (0: the log as a whole, e.g. its head).
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub position: u64,
    /// The seq the row carries.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub seq: u64,
    pub at: String,
    pub actor: String,
    pub action: String,
    pub subject: String,
    /// What is wrong, in words.
    pub problem: String,
    /// The problem, the entry and what to do, in one sentence.
    pub message: String,
}

/// The result of verifying the checklist log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LogCheck {
    pub entries: u32,
    /// The last entry's hash (64 zeros when the log is empty).
    pub head: String,
    pub evidence_files: u32,
    /// Sign-offs signed with a key; every one's signature was checked.
    pub signed_signoffs: u32,
    /// `None`: every entry links to the one before, hashes to its hash, is a well-formed change
    /// and every evidence file it names is stored with that digest.
    pub problem: Option<LogProblem>,
}

/// A subject's checklist as the log records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecklistRecord {
    pub list: Checklist,
    /// The log does not verify: nothing in it can be trusted and nothing is cleared.
    pub log_problem: Option<LogProblem>,
}

/// A row as stored, before anything is trusted.
struct RawEntry {
    seq: i64,
    at: String,
    actor: String,
    action: String,
    subject: String,
    payload: String,
    prev_hash: String,
    hash: String,
}

fn read_raw(conn: &Connection) -> rusqlite::Result<Vec<RawEntry>> {
    let mut stmt = conn
        .prepare("SELECT seq, at, actor, action, subject, payload, prev_hash, hash FROM checklist_log ORDER BY seq")?;
    stmt.query_map([], |r| {
        Ok(RawEntry {
            seq: r.get(0)?,
            at: r.get(1)?,
            actor: r.get(2)?,
            action: r.get(3)?,
            subject: r.get(4)?,
            payload: r.get(5)?,
            prev_hash: r.get(6)?,
            hash: r.get(7)?,
        })
    })?
    .collect()
}

/// The entries as the chain sees them: a payload that is not JSON is hashed as the text it is,
/// so it fails its hash like any other edit instead of stopping the read.
fn to_entries(raw: &[RawEntry]) -> Vec<AuditEntry> {
    raw.iter()
        .map(|r| AuditEntry {
            seq: u64::try_from(r.seq).unwrap_or(0),
            at: r.at.clone(),
            actor: r.actor.clone(),
            action: r.action.clone(),
            subject: r.subject.clone(),
            payload: serde_json::from_str(&r.payload).unwrap_or_else(|_| serde_json::Value::String(r.payload.clone())),
            prev_hash: r.prev_hash.clone(),
            hash: r.hash.clone(),
        })
        .collect()
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

fn reason_text(reason: &BreakReason) -> String {
    match reason {
        BreakReason::SeqGap { expected, found } => format!(
            "its number is {found} where {expected} was expected: an entry before it was deleted or the entries were reordered"
        ),
        BreakReason::PrevHashMismatch { expected, found } => format!(
            "it does not link to the entry before it (it names {}…, the entry before hashes to {}…): that entry was rewritten",
            short(found),
            short(expected)
        ),
        BreakReason::HashMismatch { computed, stored } => format!(
            "its content does not match its hash (stored {}…, the content hashes to {}…): the entry was changed after it was written",
            short(stored),
            short(computed)
        ),
        BreakReason::HeadMismatch { expected, found } => format!(
            "the log ends at a hash ({}…) other than the last one recorded ({}…): entries were removed from the end",
            short(found),
            short(expected)
        ),
    }
}

fn problem_at(entry: Option<&AuditEntry>, position: u64, problem: String, path: &str) -> LogProblem {
    let (seq, at, actor, action, subject) = entry
        .map(|e| {
            (
                e.seq,
                e.at.clone(),
                e.actor.clone(),
                e.action.clone(),
                e.subject.clone(),
            )
        })
        .unwrap_or_default();
    let named = match entry {
        Some(e) => format!(
            "entry {position} (seq {seq}: {action} on {subject} by {actor} at {at})",
            action = e.action,
            subject = e.subject,
            actor = e.actor,
            at = e.at
        ),
        None => "the checklist log".to_owned(),
    };
    let message = format!(
        "{path}: the checklist log is broken at {named}: {problem}. The checklists in this file cannot be trusted and nothing is cleared; restore the file from a copy you trust, or ask whoever changed it."
    );
    LogProblem {
        position,
        seq,
        at,
        actor,
        action,
        subject,
        problem,
        message,
    }
}

/// Checks what the hash chain cannot: each entry is a checklist change of the action it is filed
/// under, and every evidence file it names is stored with its digest and size.
fn check_entry(conn: &Connection, e: &AuditEntry) -> rusqlite::Result<Option<String>> {
    let change: ChecklistChange = match serde_json::from_value(e.payload.clone()) {
        Ok(c) => c,
        Err(err) => return Ok(Some(format!("its payload is not a checklist change ({err})"))),
    };
    if change.action() != e.action {
        return Ok(Some(format!(
            "it is filed as `{}` but records a `{}`",
            e.action,
            change.action()
        )));
    }
    if let ChecklistChange::SignOff { signoff } = &change
        && let Some(sig) = &signoff.signature
    {
        let Some(subject) = subject_of_key(&e.subject) else {
            return Ok(Some(format!(
                "its subject `{}` is not a scenario or a vendor",
                e.subject
            )));
        };
        if let Err(why) = super::signoff::verify_signoff_signature(&checklist::signoff_content(&subject, signoff), sig)
        {
            return Ok(Some(format!("its sign-off signature does not verify: {why}")));
        }
    }
    if let ChecklistChange::Answer { answer } = &change {
        for ev in &answer.evidence {
            let stored: Option<(i64, Vec<u8>)> = conn
                .query_row(
                    "SELECT size, bytes FROM evidence WHERE sha256 = ?1",
                    [&ev.sha256],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            match stored {
                None => {
                    return Ok(Some(format!(
                        "its evidence file `{}` is missing from the workspace",
                        ev.name
                    )));
                }
                Some((_, bytes)) if sha256_hex(&bytes) != ev.sha256 || bytes.len() as u64 != ev.size => {
                    return Ok(Some(format!(
                        "its evidence file `{}` was changed: the stored bytes no longer hash to {}…",
                        ev.name,
                        short(&ev.sha256)
                    )));
                }
                Some(_) => {}
            }
        }
    }
    Ok(None)
}

/// Verifies the log in `conn`; `path` names the file in messages.
fn check_log(conn: &Connection, path: &str) -> rusqlite::Result<(Vec<AuditEntry>, LogCheck)> {
    let raw = read_raw(conn)?;
    let entries = to_entries(&raw);
    let head: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [HEAD_KEY], |r| r.get(0))
        .optional()?;
    let evidence_files: i64 = conn.query_row("SELECT count(*) FROM evidence", [], |r| r.get(0))?;
    // The first entry the chain rejects, then the first well-formedness problem before it.
    let chain_break = audit::verify(&entries).err();
    let limit = chain_break.as_ref().map_or(entries.len(), |b| {
        usize::try_from(b.position.saturating_sub(1)).unwrap_or(usize::MAX)
    });
    let mut problem = None;
    for (i, e) in entries.iter().enumerate().take(limit) {
        if let Some(p) = check_entry(conn, e)? {
            problem = Some(problem_at(Some(e), i as u64 + 1, p, path));
            break;
        }
    }
    if let (None, Some(b)) = (&problem, &chain_break) {
        let index = usize::try_from(b.position.saturating_sub(1)).unwrap_or(usize::MAX);
        problem = Some(problem_at(entries.get(index), b.position, reason_text(&b.reason), path));
    }
    let last = entries.last().map_or(audit::GENESIS.to_owned(), |e| e.hash.clone());
    if problem.is_none() {
        match &head {
            Some(h) if *h != last => {
                let reason = BreakReason::HeadMismatch {
                    expected: h.clone(),
                    found: last.clone(),
                };
                problem = Some(problem_at(
                    entries.last(),
                    entries.len() as u64,
                    reason_text(&reason),
                    path,
                ));
            }
            None if !entries.is_empty() => {
                problem = Some(problem_at(
                    None,
                    0,
                    "the record of its last hash is missing from the workspace".to_owned(),
                    path,
                ));
            }
            _ => {}
        }
    }
    let signed = entries
        .iter()
        .filter(|e| {
            matches!(
                serde_json::from_value::<ChecklistChange>(e.payload.clone()),
                Ok(ChecklistChange::SignOff { signoff }) if signoff.signature.is_some()
            )
        })
        .count();
    let check = LogCheck {
        signed_signoffs: u32::try_from(signed).unwrap_or(u32::MAX),
        entries: u32::try_from(entries.len()).unwrap_or(u32::MAX),
        head: last,
        evidence_files: u32::try_from(evidence_files).unwrap_or(0),
        problem,
    };
    Ok((entries, check))
}

/// The checklist of `subject` replayed from `entries` (which must have verified).
fn replay(entries: &[AuditEntry], subject: &Subject) -> Checklist {
    let key = subject.key();
    let mut list = Checklist::new(subject.clone());
    for e in entries.iter().filter(|e| e.subject == key) {
        match serde_json::from_value::<ChecklistChange>(e.payload.clone()) {
            Ok(ChecklistChange::Answer { answer }) => list.answers.push(answer),
            Ok(ChecklistChange::SignOff { signoff }) => list.signoff = Some(signoff),
            Ok(ChecklistChange::RevokeSignOff { .. }) => list.signoff = None,
            Err(_) => {}
        }
    }
    list
}

fn subject_of_key(key: &str) -> Option<Subject> {
    if let Some(id) = key.strip_prefix("scenario:") {
        Some(Subject::Scenario(id.to_owned()))
    } else {
        key.strip_prefix("vendor:").map(|v| Subject::Vendor(v.to_owned()))
    }
}

/// The current time as the log stamps it: RFC 3339, UTC, to the second.
pub fn log_time(ms: i64) -> String {
    let t = super::UtcTime::from_ms(ms);
    format!("{}T{:02}:{:02}:{:02}Z", t.date(), t.hour, t.minute, t.second)
}

impl Workspace {
    fn shown(&self) -> String {
        self.path.display().to_string()
    }

    /// The checklist template this workspace's record was made against, as (file name, TOML
    /// text), if a change has been recorded.
    pub fn kept_checklist_template(&self) -> Result<Option<(String, String)>, PlannerError> {
        let get = |key: &str| -> rusqlite::Result<Option<String>> {
            self.conn
                .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
                .optional()
        };
        let name = get(TEMPLATE_NAME_KEY).map_err(|e| self.err(&e))?;
        let text = get(TEMPLATE_TEXT_KEY).map_err(|e| self.err(&e))?;
        Ok(name.zip(text))
    }

    /// The template to judge this workspace's checklists by: the kept copy, else `shipped`
    /// (file name, TOML text). A kept copy that no longer parses is an error naming the file. The
    /// kept copy is read with [`checklist::parse_kept_template`] (a template shipped before every
    /// family had an item still reads); the shipped one must pass [`checklist::parse_template`].
    pub fn checklist_template(&self, shipped: &(String, String)) -> Result<ChecklistTemplate, PlannerError> {
        let Some((name, text)) = self.kept_checklist_template()? else {
            let (name, text) = shipped;
            return checklist::parse_template(name, text).map_err(|e| {
                let mut err = PlannerError::from(e);
                err.message = format!(
                    "The checklist template {name} has {} error(s); fix each line listed (`planner catalog check` lists them too).",
                    err.details.len()
                );
                err
            });
        };
        checklist::parse_kept_template(&name, &text).map_err(|e| {
            PlannerError::new(
                ErrorCode::WorkspaceInvalid,
                format!(
                    "{}: the checklist template kept in the workspace cannot be read ({e}); the file was changed outside Compute Planner. Open a backup copy.",
                    self.shown()
                ),
            )
        })
    }

    /// Verifies the whole checklist log and names the first broken entry.
    pub fn verify_checklist_log(&self) -> Result<LogCheck, PlannerError> {
        check_log(&self.conn, &self.shown())
            .map(|(_, c)| c)
            .map_err(|e| self.err(&e))
    }

    /// Every entry of the log, oldest first, as stored (verify it to trust it).
    pub fn checklist_log(&self) -> Result<Vec<AuditEntry>, PlannerError> {
        read_raw(&self.conn).map(|r| to_entries(&r)).map_err(|e| self.err(&e))
    }

    /// The scenario's name or the vendor's, for headings.
    pub fn subject_name(&self, subject: &Subject) -> Result<String, PlannerError> {
        match subject {
            Subject::Scenario(id) => Ok(self.scenario(id)?.name),
            Subject::Vendor(name) => Ok(name.clone()),
        }
    }

    fn check_subject(&self, subject: &Subject) -> Result<(), PlannerError> {
        match subject {
            Subject::Scenario(id) => self.scenario(id).map(|_| ()),
            Subject::Vendor(name) if name.trim().is_empty() || name.len() > 120 => Err(PlannerError::invalid(
                "subject",
                "a vendor needs a name of 1 to 120 characters",
            )),
            Subject::Vendor(_) => Ok(()),
        }
    }

    /// `subject`'s checklist as the log records it (answers in order, the sign-off in force),
    /// with the log's first problem when it does not verify.
    pub fn checklist_record(&self, subject: &Subject) -> Result<ChecklistRecord, PlannerError> {
        self.check_subject(subject)?;
        let (entries, check) = check_log(&self.conn, &self.shown()).map_err(|e| self.err(&e))?;
        Ok(ChecklistRecord {
            list: replay(&entries, subject),
            log_problem: check.problem,
        })
    }

    /// The checklist of every scenario (in list order) and of every vendor with a record (by
    /// name), with the log's first problem when it does not verify.
    pub fn checklist_records(&self) -> Result<(Vec<Checklist>, Option<LogProblem>), PlannerError> {
        let (entries, check) = check_log(&self.conn, &self.shown()).map_err(|e| self.err(&e))?;
        let mut out: Vec<Checklist> = self
            .scenario_summaries()?
            .iter()
            .map(|s| replay(&entries, &Subject::Scenario(s.id.clone())))
            .collect();
        let vendors: std::collections::BTreeSet<String> = entries
            .iter()
            .filter_map(|e| match subject_of_key(&e.subject) {
                Some(Subject::Vendor(v)) => Some(v),
                _ => None,
            })
            .collect();
        out.extend(vendors.into_iter().map(|v| replay(&entries, &Subject::Vendor(v))));
        Ok((out, check.problem))
    }

    /// The compliance axis of the vendor scorecard for `subject`: the share (0..1) of the items
    /// that apply whose answer in force is pass or not applicable, when the subject is cleared;
    /// 0 when it is not (or the log is broken).
    pub fn compliance_share(&self, template: &ChecklistTemplate, subject: &Subject) -> Result<Decimal, PlannerError> {
        let (entries, check) = check_log(&self.conn, &self.shown()).map_err(|e| self.err(&e))?;
        let list = replay(&entries, subject);
        if check.problem.is_some() || !list.clearance(template).cleared {
            return Ok(Decimal::ZERO);
        }
        let in_force = checklist::answers_in_force(&list.answers);
        let applicable: Vec<&str> = template.items_for(subject.kind()).map(|i| i.id.as_str()).collect();
        if applicable.is_empty() {
            return Ok(Decimal::ZERO);
        }
        let good = applicable
            .iter()
            .filter(|id| {
                in_force
                    .get(*id)
                    .is_some_and(|a| matches!(a.status, ItemStatus::Pass | ItemStatus::NotApplicable))
            })
            .count();
        Ok(Decimal::from(good) / Decimal::from(applicable.len()))
    }

    /// Records an answer with its evidence files, stamped `at_ms` (Unix ms, the host's clock).
    pub fn answer_item(
        &mut self,
        template: &ChecklistTemplate,
        template_file: &(String, String),
        subject: &Subject,
        input: &AnswerInput,
        files: &[EvidenceFile],
        at_ms: i64,
    ) -> Result<AuditEntry, PlannerError> {
        self.check_subject(subject)?;
        let reviewer = input.reviewer.trim();
        if reviewer.is_empty() {
            return Err(PlannerError::invalid(
                "reviewer",
                "name the reviewer: every answer in the log is attributed to a person",
            ));
        }
        let Some(item) = template.item(&input.item) else {
            return Err(PlannerError::invalid(
                "item",
                format!(
                    "`{}` is not an item of the checklist template {}",
                    input.item, template.file
                ),
            ));
        };
        if !template.items_for(subject.kind()).any(|i| i.id == item.id) {
            return Err(PlannerError::invalid(
                "item",
                format!("`{}` does not apply to a {:?} checklist", item.id, subject.kind()),
            ));
        }
        if input.status != ItemStatus::Open && input.note.trim().is_empty() && files.is_empty() {
            return Err(PlannerError::invalid(
                "note",
                "say why: give a note or attach a file as evidence for any status but open",
            ));
        }
        let mut evidence = Vec::new();
        for f in files {
            let name = f.name.trim();
            if name.is_empty() || name.contains(['/', '\\']) {
                return Err(PlannerError::invalid(
                    "evidence",
                    format!("`{}` is not a file name; give the name without its folder", f.name),
                ));
            }
            if f.bytes.len() as u64 > EVIDENCE_LIMIT {
                return Err(PlannerError::invalid(
                    "evidence",
                    format!(
                        "{name} is {} MiB; evidence files are limited to {} MiB. Attach a smaller extract, or a note where the full document is kept.",
                        f.bytes.len() / (1024 * 1024),
                        EVIDENCE_LIMIT / (1024 * 1024)
                    ),
                ));
            }
            evidence.push(Evidence {
                name: name.to_owned(),
                sha256: sha256_hex(&f.bytes),
                size: f.bytes.len() as u64,
            });
        }
        let at = log_time(at_ms);
        let answer = Answer {
            item: item.id.clone(),
            status: input.status,
            note: input.note.trim().to_owned(),
            evidence,
            reviewer: reviewer.to_owned(),
            at: at.clone(),
        };
        self.append_change(
            template_file,
            subject,
            &ChecklistChange::Answer { answer },
            reviewer,
            &at,
            files,
        )
    }

    /// Signs off `subject`'s checklist as its answers stand. Refused while a blocking item that
    /// applies is open or unanswered; a failed item may be signed (the record says it failed).
    pub fn sign_off_checklist(
        &mut self,
        template: &ChecklistTemplate,
        template_file: &(String, String),
        subject: &Subject,
        reviewer: &str,
        note: &str,
        at_ms: i64,
    ) -> Result<AuditEntry, PlannerError> {
        self.sign_off_inner(template, template_file, subject, reviewer, note, at_ms, None)
    }

    /// [`Workspace::sign_off_checklist`], signed: `sign` gets [`checklist::signoff_content`] and
    /// returns the reviewer's signature over it, which the entry keeps.
    #[allow(clippy::too_many_arguments)]
    pub fn sign_off_checklist_signed(
        &mut self,
        template: &ChecklistTemplate,
        template_file: &(String, String),
        subject: &Subject,
        reviewer: &str,
        note: &str,
        at_ms: i64,
        sign: SignOffSigner<'_>,
    ) -> Result<AuditEntry, PlannerError> {
        self.sign_off_inner(template, template_file, subject, reviewer, note, at_ms, Some(sign))
    }

    #[allow(clippy::too_many_arguments)]
    fn sign_off_inner(
        &mut self,
        template: &ChecklistTemplate,
        template_file: &(String, String),
        subject: &Subject,
        reviewer: &str,
        note: &str,
        at_ms: i64,
        sign: Option<SignOffSigner<'_>>,
    ) -> Result<AuditEntry, PlannerError> {
        self.check_subject(subject)?;
        let reviewer = reviewer.trim();
        if reviewer.is_empty() {
            return Err(PlannerError::invalid(
                "reviewer",
                "name the reviewer who signs off: a sign-off is attributed to a person",
            ));
        }
        let (entries, check) = check_log(&self.conn, &self.shown()).map_err(|e| self.err(&e))?;
        if let Some(p) = check.problem {
            return Err(PlannerError::new(ErrorCode::WorkspaceInvalid, p.message));
        }
        let mut list = replay(&entries, subject);
        let c = list.clearance(template);
        if !c.blocking_open.is_empty() {
            return Err(PlannerError::invalid(
                "signoff",
                format!(
                    "blocking items are still open: {}. Answer each (pass, fail or not applicable, with a note or evidence) before signing off.",
                    c.blocking_open.join(", ")
                ),
            ));
        }
        let at = log_time(at_ms);
        let mut signoff = list.sign(reviewer, &at, note.trim());
        if let Some(sign) = sign {
            signoff.signature = Some(sign(&checklist::signoff_content(subject, &signoff))?);
        }
        self.append_change(
            template_file,
            subject,
            &ChecklistChange::SignOff { signoff },
            reviewer,
            &at,
            &[],
        )
    }

    /// Withdraws `subject`'s sign-off, with the reason.
    pub fn revoke_sign_off(
        &mut self,
        template_file: &(String, String),
        subject: &Subject,
        reviewer: &str,
        reason: &str,
        at_ms: i64,
    ) -> Result<AuditEntry, PlannerError> {
        self.check_subject(subject)?;
        let reviewer = reviewer.trim();
        if reviewer.is_empty() || reason.trim().is_empty() {
            return Err(PlannerError::invalid(
                "reason",
                "name the reviewer and give the reason the sign-off is withdrawn",
            ));
        }
        let at = log_time(at_ms);
        self.append_change(
            template_file,
            subject,
            &ChecklistChange::RevokeSignOff {
                reason: reason.trim().to_owned(),
            },
            reviewer,
            &at,
            &[],
        )
    }

    /// One transaction: verify the log, store the evidence, append the entry, move the head,
    /// keep the template text on the first change.
    fn append_change(
        &mut self,
        template_file: &(String, String),
        subject: &Subject,
        change: &ChecklistChange,
        actor: &str,
        at: &str,
        files: &[EvidenceFile],
    ) -> Result<AuditEntry, PlannerError> {
        self.check_writable("record a checklist change in it")?;
        let shown = self.shown();
        let path = self.path.clone();
        let e = |err: rusqlite::Error| super::db_error(&path, &err);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(e)?;
        let (entries, check) = check_log(&tx, &shown).map_err(e)?;
        if let Some(p) = check.problem {
            return Err(PlannerError::new(
                ErrorCode::WorkspaceInvalid,
                format!("{} Nothing was recorded.", p.message),
            ));
        }
        for f in files {
            tx.execute(
                "INSERT INTO evidence (sha256, size, bytes) VALUES (?1, ?2, ?3) ON CONFLICT (sha256) DO NOTHING",
                params![
                    sha256_hex(&f.bytes),
                    i64::try_from(f.bytes.len()).unwrap_or(i64::MAX),
                    f.bytes
                ],
            )
            .map_err(e)?;
        }
        let entry = audit::append(&entries, change.entry(subject, actor, at));
        let payload = serde_json::to_string(&entry.payload).map_err(|err| {
            PlannerError::new(
                ErrorCode::Io,
                format!("{shown}: the checklist change could not be written: {err}"),
            )
        })?;
        tx.execute(
            "INSERT INTO checklist_log (seq, at, actor, action, subject, payload, prev_hash, hash)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                i64::try_from(entry.seq).unwrap_or(i64::MAX),
                entry.at,
                entry.actor,
                entry.action,
                entry.subject,
                payload,
                entry.prev_hash,
                entry.hash
            ],
        )
        .map_err(e)?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            params![HEAD_KEY, entry.hash],
        )
        .map_err(e)?;
        for (key, value) in [
            (TEMPLATE_NAME_KEY, &template_file.0),
            (TEMPLATE_TEXT_KEY, &template_file.1),
        ] {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO NOTHING",
                params![key, value],
            )
            .map_err(e)?;
        }
        tx.commit().map_err(e)?;
        Ok(entry)
    }

    /// The bytes of a stored evidence file, checked against its digest.
    pub fn evidence_bytes(&self, sha256: &str) -> Result<Vec<u8>, PlannerError> {
        let bytes: Option<Vec<u8>> = self
            .conn
            .query_row("SELECT bytes FROM evidence WHERE sha256 = ?1", [sha256], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(&e))?;
        match bytes {
            None => Err(PlannerError::new(
                ErrorCode::NotFound,
                format!("{}: no evidence file with SHA-256 {sha256} is stored", self.shown()),
            )),
            Some(b) if sha256_hex(&b) != sha256 => Err(PlannerError::new(
                ErrorCode::WorkspaceInvalid,
                format!(
                    "{}: the evidence file {}… was changed after it was attached (its bytes no longer match its SHA-256); it is not exported",
                    self.shown(),
                    short(sha256)
                ),
            )),
            Some(b) => Ok(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_time_is_rfc3339_utc() {
        assert_eq!(log_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(log_time(1_795_000_000_000), "2026-11-18T11:06:40Z");
    }

    #[test]
    fn subject_keys_round_trip() {
        for s in [Subject::Scenario("s-1".into()), Subject::Vendor("Example Cloud".into())] {
            assert_eq!(subject_of_key(&s.key()), Some(s.clone()));
        }
        assert_eq!(subject_of_key("other:x"), None);
    }
}
