//! Publishing a decision memo: the IO around `planner-memo` (layout) and `planner-sign`
//! (PAdES signatures), shared by the desktop shell and the `planner` command line so that both
//! produce, sign, verify and record memos the same way.
//!
//! - [`make`] lays a memo out from its sources (an evaluated comparison, the draft, the D-1
//!   status, the vendor scorecard), signs it when asked and writes it atomically, returning the
//!   records (file, SHA-256, pages, signer) for the caller to keep: `planner-app` keeps them in
//!   the workspace the memo comes from; [`publish_from_file`] makes one from a scenario file,
//!   without a record.
//! - [`sign_file`] adds a signature (a reviewer's, after the author's) to a memo already written,
//!   as an incremental update that leaves the earlier ones valid.
//! - [`verify_file`] reports every signature of any PDF.
//! - [`identities`] keeps the signing identities (encrypted PKCS#12 files) in a folder.
//!
//! The clock is read by the callers (`now_ms`), so tests can fix it.

pub mod identities;

use std::path::Path;

use planner_core::catalog::Catalog;
use planner_core::catalog::diff::Freshness;
use planner_core::engine::costing::evaluate::Evaluation;
use planner_core::engine::decide::decision::DecisionView;
use planner_core::engine::input::scenario_file::{ScenarioFile, ScenarioSpec, WorkloadSpec};
use planner_core::engine::risk::run::RiskOutcome;
use planner_core::engine::workspace::content::{self as core_ws, Comparison, ViewState};
use planner_core::error::{ErrorCode, ErrorDetail, PlannerError};
use planner_core::memo::{MemoDraft, MemoEvent, MemoRecord, Paper};
use planner_core::rfp::summary::ScorecardSummary;
use planner_memo::{
    CatalogSource, MemoCompliance, MemoError, MemoInput, MemoLock, SIGNATURE_ROLES, memo_pdf, signature_slots,
};
use planner_sign::{Appearance, Identity, PageChoice, SignRequest, Timestamp, Verification};
use planner_store::Workspace;
use planner_store::files::write_atomic;
use planner_store::workspace::{CatalogOrigin, UtcTime, catalog_version};
use serde::Serialize;

/// Who signs, and why.
#[derive(Debug, Clone, Copy)]
pub struct Signer<'a> {
    pub identity: &'a Identity,
    /// The reason written into the signature, e.g. "Author" or "Reviewer: approved".
    pub reason: &'a str,
}

/// What publishing a memo did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Published {
    /// The last record written: the signature when signed, else the memo's generation.
    pub record: MemoRecord,
    pub charts: u32,
    /// The file's size in bytes.
    pub size: u32,
}

/// SHA-256 of `bytes`, lowercase hex.
pub use planner_core::compliance::audit::sha256_hex;

/// A UTC time as the signer takes it.
pub(crate) fn timestamp(t: UtcTime) -> Timestamp {
    Timestamp {
        year: u16::try_from(t.year).unwrap_or(9999),
        month: t.month,
        day: t.day,
        hour: t.hour,
        minute: t.minute,
        second: t.second,
    }
}

fn invalid(message: String, details: Vec<ErrorDetail>) -> PlannerError {
    PlannerError {
        code: ErrorCode::InvalidInput,
        message,
        details,
    }
}

fn sign_error(e: &planner_sign::SignError, path: &Path) -> PlannerError {
    PlannerError::new(ErrorCode::InvalidInput, format!("{}: {e}", path.display()))
}

/// Refuses a draft that cannot become a memo, naming each field.
/// Refuses a draft that cannot become a memo of `ids` (the scenarios it would compare, in
/// order), naming every field to fix.
pub fn check_draft(draft: &MemoDraft, ids: &[String]) -> Result<(), PlannerError> {
    let problems = draft.problems(ids);
    if problems.is_empty() {
        return Ok(());
    }
    let details = problems
        .iter()
        .map(|p| ErrorDetail::field(&format!("memo.{}", p.field), &p.message))
        .collect();
    Err(invalid(
        format!(
            "The memo cannot be made yet: {}.",
            problems
                .iter()
                .map(|p| p.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
        details,
    ))
}

/// The visible signature for the `index`-th signature of a memo on `paper`, or none beyond the
/// memo's four boxes (the signature is then invisible, and as valid).
fn appearance(identity: &Identity, reason: &str, at: UtcTime, paper: Paper, index: usize) -> Option<Appearance> {
    let rect = *signature_slots(paper).get(index)?;
    let cert = identity.certificate();
    let mut lines = vec![format!(
        "Digitally signed by {}",
        cert.common_name.as_deref().unwrap_or("(no name)")
    )];
    if let Some(o) = &cert.organisation {
        lines.push(o.clone());
    }
    lines.push(format!(
        "{} · {} UTC",
        SIGNATURE_ROLES.get(index).copied().unwrap_or("Signature"),
        at.seconds()
    ));
    if !reason.is_empty() {
        lines.push(format!("Reason: {reason}"));
    }
    lines.push(format!(
        "Certificate SHA-256 {}…",
        cert.sha256_fingerprint.get(..16).unwrap_or(&cert.sha256_fingerprint)
    ));
    Some(Appearance {
        page: PageChoice::Last,
        rect,
        lines,
    })
}

/// Signs `pdf` (a memo on `paper` holding `existing` signatures already).
fn sign_bytes(
    pdf: &[u8],
    signer: &Signer<'_>,
    paper: Option<Paper>,
    existing: usize,
    now_ms: i64,
) -> Result<Vec<u8>, planner_sign::SignError> {
    let at = UtcTime::from_ms(now_ms);
    let cert = signer.identity.certificate();
    let name = cert.common_name.clone().unwrap_or_default();
    let request = SignRequest {
        signer_name: &name,
        reason: Some(signer.reason).filter(|r| !r.is_empty()),
        location: None,
        time: timestamp(at),
        appearance: paper.and_then(|p| appearance(signer.identity, signer.reason, at, p, existing)),
    };
    planner_sign::sign(pdf, signer.identity, &request)
}

/// The signer as records and signature boxes name them.
pub fn signer_label(identity: &Identity) -> String {
    let c = identity.certificate();
    match (&c.common_name, &c.organisation) {
        (Some(n), Some(o)) => format!("{n}, {o}"),
        (Some(n), None) => n.clone(),
        (None, Some(o)) => o.clone(),
        (None, None) => "(unnamed certificate)".to_owned(),
    }
}

/// A memo written: its records (to keep where it came from) and what the caller is told.
#[derive(Debug, Clone)]
pub struct Made {
    /// The memo's generation.
    pub generated: MemoRecord,
    /// Its signature, when signed.
    pub signed: Option<MemoRecord>,
    pub charts: u32,
    /// The file's size in bytes.
    pub size: u32,
}

impl Made {
    /// What publishing it did: the last record (the signature when signed), charts and size.
    pub fn published(self) -> Published {
        Published {
            record: self.signed.unwrap_or(self.generated),
            charts: self.charts,
            size: self.size,
        }
    }
}

/// What a memo is computed from, besides the draft.
#[derive(Debug, Clone, Copy)]
pub struct MemoSources<'a> {
    pub view: &'a DecisionView,
    pub eval: &'a Evaluation,
    pub scenarios: &'a [ScenarioSpec],
    /// The workloads the scenarios serve, in file order (the memo's Workloads table).
    pub workloads: &'a [WorkloadSpec],
    /// The workspace (or scenario file) as the memo names it.
    pub workspace: &'a str,
    /// The catalog the scenarios were evaluated with, and its data version.
    pub catalog: &'a Catalog,
    pub catalog_version: &'a str,
    /// Where that catalog came from, and the sentence saying so (see [`catalog_source`] for a
    /// workspace's, [`folder_source`] for a catalog folder's).
    pub catalog_source: &'a CatalogSource,
    pub catalog_statement: &'a str,
    /// The thresholds past which the memo marks a catalog figure stale (on the memo's date).
    pub freshness: Freshness,
    pub compliance: Option<&'a MemoCompliance>,
    /// The risk analysis of the memo's scenarios, when one was run.
    pub risk: Option<&'a RiskOutcome>,
    /// The workspace's vendor scorecard, when it lists vendors (the memo's Vendor scorecard
    /// section); `None` for a scenario file.
    pub scorecard: Option<&'a ScorecardSummary>,
    /// Each scenario's ways out from the middle of the horizon, priced against staying
    /// ([`planner_core::engine::exit::kinds::ways_out_of`]).
    pub ways_out: &'a [planner_core::engine::exit::kinds::WaysOut],
    /// The workspace's locked baseline, by names; `None` when nothing is locked.
    pub lock: Option<&'a MemoLock>,
}

/// A workspace's catalog origin as the memo's facts table names it.
pub fn catalog_source(origin: &CatalogOrigin) -> CatalogSource {
    match &origin.key_id {
        None => CatalogSource::Shipped,
        Some(key) => CatalogSource::Pack {
            publisher: origin.publisher.clone(),
            key_id: Some(key.clone()),
            verified: origin.verified,
        },
    }
}

/// A catalog read from the folder `dir` (as given on the command line): where it came from (the
/// folder's name, for the facts table), and the sentence saying so (the path as given).
pub fn folder_source(version: &str, dir: &str) -> (CatalogSource, String) {
    let name = Path::new(dir)
        .file_name()
        .map_or_else(|| dir.to_owned(), |n| n.to_string_lossy().into_owned());
    (
        CatalogSource::Folder(name),
        format!(
            "Catalog {version}, read from the folder {dir} given when the memo was made: it is not a signed pack, so there is no pack signature to verify."
        ),
    )
}

/// Why the memo was not laid out, for the user. Text the memo cannot print is named field by
/// field: the message lists every text with its characters and ends with what to do (built whole
/// here, not cut like a message carrying text from elsewhere: the memo crate clips what it
/// quotes), and the draft's own fields also get a detail (`memo.decision`, ...) for the form to
/// show under the field.
fn memo_error(e: MemoError) -> PlannerError {
    let message = format!("The memo could not be made: {e}.");
    match &e {
        MemoError::Unset(texts) => invalid(
            message,
            texts
                .iter()
                .filter_map(|t| {
                    let field = t.field.as_deref()?;
                    Some(ErrorDetail::field(&format!("memo.{field}"), &t.message()))
                })
                .collect(),
        ),
        _ => PlannerError::new(ErrorCode::InvalidInput, message),
    }
}

/// Lays out, signs when asked, and writes the memo to `out`; returns its records.
pub fn make(
    src: &MemoSources<'_>,
    draft: &MemoDraft,
    out: &Path,
    now_ms: i64,
    signer: Option<&Signer<'_>>,
) -> Result<Made, PlannerError> {
    let at = UtcTime::from_ms(now_ms);
    let view = src.view;
    let memo = memo_pdf(&MemoInput {
        draft,
        view,
        evaluation: src.eval,
        scenarios: src.scenarios,
        workloads: src.workloads,
        workspace: src.workspace,
        catalog: src.catalog,
        catalog_version: src.catalog_version,
        catalog_source: src.catalog_source,
        catalog_statement: src.catalog_statement,
        freshness: src.freshness,
        // The memo's own date is also the day its figures are judged stale on.
        date: &at.date(),
        created_unix: now_ms.div_euclid(1000),
        compliance: src.compliance,
        risk: src.risk,
        scorecard: src.scorecard,
        ways_out: src.ways_out,
        lock: src.lock,
    })
    .map_err(memo_error)?;
    let ids: Vec<String> = view.scenarios.iter().map(|s| s.id.clone()).collect();
    let generated = MemoRecord {
        event: MemoEvent::Generated,
        at: at.seconds(),
        file: out.display().to_string(),
        sha256: sha256_hex(&memo.bytes),
        pages: memo.pages,
        scenarios: ids.clone(),
        signer: None,
        certificate_sha256: None,
        reason: None,
        signatures: 0,
    };
    let (bytes, signed) = match signer {
        None => (memo.bytes, None),
        Some(s) => {
            let bytes = sign_bytes(&memo.bytes, s, Some(draft.paper), 0, now_ms).map_err(|e| sign_error(&e, out))?;
            let record = MemoRecord {
                event: MemoEvent::Signed,
                sha256: sha256_hex(&bytes),
                signer: Some(signer_label(s.identity)),
                certificate_sha256: Some(s.identity.certificate().sha256_fingerprint),
                reason: Some(s.reason.to_owned()),
                signatures: 1,
                ..generated.clone()
            };
            (bytes, Some(record))
        }
    };
    write_atomic(out, &bytes)?;
    Ok(Made {
        generated,
        signed,
        charts: memo.charts,
        size: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
    })
}

/// The comparison's decision view and evaluation, or the refusal naming every problem when the
/// memo's scenarios do not all evaluate.
pub fn evaluated<'a>(
    comparison: &'a Comparison,
    eval: Option<&'a Evaluation>,
) -> Result<(&'a DecisionView, &'a Evaluation), PlannerError> {
    match (comparison.view.as_ref(), eval) {
        (Some(view), Some(eval)) if comparison.problems.is_empty() => Ok((view, eval)),
        _ => Err(nothing_to_memo(&comparison.problems)),
    }
}

fn nothing_to_memo(problems: &[core_ws::PlacedProblem]) -> PlannerError {
    let details = problems
        .iter()
        .map(|p| ErrorDetail::field(&p.field, &p.message))
        .collect();
    invalid(
        "The memo's scenarios could not be evaluated; fix the problems listed, then make the memo again.".to_owned(),
        details,
    )
}

/// A catalog read from a folder, for a memo made from a scenario file.
#[derive(Debug, Clone, Copy)]
pub struct FolderCatalog<'a> {
    pub catalog: &'a Catalog,
    /// The folder as given (the memo names it as where the catalog came from).
    pub dir: &'a str,
}

/// Makes the memo of a scenario file's scenarios (`draft.scenarios`, or all of them) with the
/// catalog read from a folder, and writes it to `out`. There is no workspace to record it in.
pub fn publish_from_file(
    folder: &FolderCatalog<'_>,
    file: &ScenarioFile,
    file_name: &str,
    draft: &MemoDraft,
    out: &Path,
    now_ms: i64,
    signer: Option<&Signer<'_>>,
) -> Result<Published, PlannerError> {
    let ids: Vec<String> = if draft.scenarios.is_empty() {
        file.scenarios.iter().map(|s| s.id.clone()).collect()
    } else {
        draft.scenarios.clone()
    };
    check_draft(draft, &ids)?;
    let mut specs = Vec::with_capacity(ids.len());
    for id in &ids {
        let spec = file.scenarios.iter().find(|s| &s.id == id).ok_or_else(|| {
            let known: Vec<&str> = file.scenarios.iter().map(|s| s.id.as_str()).collect();
            invalid(
                format!(
                    "{} has no scenario `{}`; its scenarios are: {}.",
                    planner_sign::shorten(file_name),
                    planner_sign::shorten(id),
                    planner_sign::shorten(&known.join(", "))
                ),
                vec![ErrorDetail::field(
                    "scenarios",
                    &format!("unknown scenario `{}`", planner_sign::shorten(id)),
                )],
            )
        })?;
        specs.push(spec.clone());
    }
    let (settings, workloads, _) = core_ws::from_scenario_file(file.clone());
    let view = ViewState {
        selected: ids,
        baseline: draft.recommended.clone(),
        horizon_months: None,
    };
    let catalog = folder.catalog;
    let (comparison, eval) = core_ws::compare_selection(catalog, &settings, &workloads, &specs, &view);
    let (dv, eval) = evaluated(&comparison, eval.as_ref())?;
    let version = catalog_version(catalog);
    let (source, statement) = folder_source(&version, folder.dir);
    let mut priced = file.clone();
    priced.scenarios = specs.clone();
    let ways_out = planner_core::engine::exit::kinds::ways_out_of(catalog, &priced, &view.selected);
    let sources = MemoSources {
        view: dv,
        eval,
        scenarios: &specs,
        workloads: &workloads,
        workspace: file_name,
        catalog,
        catalog_version: &version,
        catalog_source: &source,
        catalog_statement: &statement,
        freshness: settings.freshness,
        compliance: None,
        risk: None,
        scorecard: None,
        ways_out: &ways_out,
        lock: None,
    };
    Ok(make(&sources, draft, out, now_ms, signer)?.published())
}

fn read_pdf(path: &Path) -> Result<Vec<u8>, PlannerError> {
    std::fs::read(path).map_err(|e| {
        let code = if e.kind() == std::io::ErrorKind::NotFound {
            ErrorCode::NotFound
        } else {
            ErrorCode::Io
        };
        PlannerError::new(code, format!("{}: cannot read the PDF: {e}", path.display()))
    })
}

/// A PDF text string as text: UTF-16BE after its byte-order mark (as printpdf writes the
/// document information), else PDFDocEncoding, read here as Latin-1.
fn pdf_text(bytes: &[u8]) -> String {
    match bytes.strip_prefix(&[0xFE, 0xFF]) {
        Some(utf16) => {
            let units: Vec<u16> = utf16
                .chunks_exact(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        None => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// The page count of a PDF and, for a memo this app wrote (its producer names Compute Planner),
/// its paper, so that a further signature goes into the memo's next signature box. Any other PDF
/// gets an invisible signature (`None`).
fn pages_and_paper(pdf: &[u8]) -> (u32, Option<Paper>) {
    let Ok(doc) = lopdf::Document::load_mem(pdf) else {
        return (0, None);
    };
    let pages = doc.get_pages();
    let count = u32::try_from(pages.len()).unwrap_or(u32::MAX);
    let ours = doc
        .trailer
        .get(b"Info")
        .and_then(lopdf::Object::as_reference)
        .and_then(|id| doc.get_dictionary(id))
        .and_then(|info| info.get(b"Producer"))
        .and_then(lopdf::Object::as_str)
        .is_ok_and(|p| pdf_text(p).contains("Compute Planner"));
    let width = pages
        .values()
        .next_back()
        .and_then(|id| doc.get_dictionary(*id).ok())
        .and_then(|page| page.get(b"MediaBox").ok())
        .and_then(|b| b.as_array().ok())
        .and_then(|b| b.get(2))
        .and_then(|w| w.as_float().ok());
    let paper = match width {
        Some(w) if ours && (w - 612.0).abs() < 1.0 => Some(Paper::Letter),
        Some(w) if ours && (w - Paper::A4.size_pt().0).abs() < 1.0 => Some(Paper::A4),
        _ => None,
    };
    (count, paper)
}

/// Adds a signature to the PDF at `path` (in place, as an incremental update) and records it in
/// `ws` when given.
pub fn sign_file(
    path: &Path,
    signer: &Signer<'_>,
    now_ms: i64,
    ws: Option<&mut Workspace>,
) -> Result<MemoRecord, PlannerError> {
    // The signature is recorded in the workspace: refuse before the PDF is touched.
    if let Some(w) = ws.as_deref() {
        w.check_writable("record a signature in it")?;
    }
    let pdf = read_pdf(path)?;
    let before = planner_sign::verify(&pdf).map_err(|e| sign_error(&e, path))?;
    if let Some(bad) = before.signatures.iter().find(|s| !s.intact()) {
        return Err(PlannerError::new(
            ErrorCode::InvalidInput,
            format!(
                "{}: the signature `{}` is no longer intact ({}); a new signature would hide that the document changed. Nothing was signed.",
                path.display(),
                planner_sign::shorten(&bad.field),
                bad.problems.join("; ")
            ),
        ));
    }
    let existing = before.signatures.len();
    let (pages, paper) = pages_and_paper(&pdf);
    let signed = sign_bytes(&pdf, signer, paper, existing, now_ms).map_err(|e| sign_error(&e, path))?;
    write_atomic(path, &signed)?;
    let at = UtcTime::from_ms(now_ms);
    let record = MemoRecord {
        event: MemoEvent::Signed,
        at: at.seconds(),
        file: path.display().to_string(),
        sha256: sha256_hex(&signed),
        pages,
        scenarios: Vec::new(),
        signer: Some(signer_label(signer.identity)),
        certificate_sha256: Some(signer.identity.certificate().sha256_fingerprint),
        reason: Some(signer.reason.to_owned()),
        signatures: u32::try_from(existing + 1).unwrap_or(u32::MAX),
    };
    if let Some(ws) = ws {
        ws.record_memo(&record)?;
    }
    Ok(record)
}

/// What checking a PDF's signatures found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PdfCheck {
    pub path: String,
    pub verification: Verification,
    /// At least one signature, and every one intact.
    pub all_intact: bool,
    /// Bytes added after the last signature (a later edit no signature covers); 0 when the last
    /// signature covers the whole file.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub unsigned_tail: u64,
}

/// Every signature of the PDF at `path`. A file that is not a PDF is an error; a PDF without a
/// signature is a report with none (which is not intact).
pub fn verify_file(path: &Path) -> Result<PdfCheck, PlannerError> {
    let pdf = read_pdf(path)?;
    let verification = planner_sign::verify(&pdf).map_err(|e| sign_error(&e, path))?;
    Ok(PdfCheck {
        path: path.display().to_string(),
        all_intact: verification.all_intact(),
        unsigned_tail: verification.unsigned_tail(),
        verification,
    })
}

#[cfg(test)]
mod tests {
    use super::pdf_text;

    #[test]
    fn pdf_text_strings_decode_from_utf16_and_latin1() {
        let utf16: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("Compute Planner 0.1 – é".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(pdf_text(&utf16), "Compute Planner 0.1 – é");
        assert_eq!(pdf_text(b"Compute Planner"), "Compute Planner");
    }
}
