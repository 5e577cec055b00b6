//! `planner memo`, `planner sign`, `planner verify` and `planner identity`: the signed decision
//! memo without a window, through the same `planner-publish` functions as the app.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use planner_app::memo::PdfCheck;
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::memo::{MemoDraft, Paper};

/// What the memo command was asked, beyond the file.
#[derive(Debug, Clone, Default)]
pub struct MemoArgs {
    pub scenarios: Option<Vec<String>>,
    pub out: PathBuf,
    pub author: Option<String>,
    pub client: Option<String>,
    pub decision: Option<String>,
    pub rationale: Option<String>,
    pub recommended: Option<String>,
    pub paper: Option<Paper>,
    pub sign_with: Option<PathBuf>,
    pub passphrase_env: Option<String>,
    pub reason: Option<String>,
}

/// The passphrase from the environment variable the user named (never from the command line,
/// where other users of the machine could read it).
fn passphrase(var: Option<&str>) -> Result<String, PlannerError> {
    let Some(var) = var else {
        return Err(PlannerError::invalid(
            "--passphrase-env",
            "name the environment variable that holds the passphrase, e.g. --passphrase-env PLANNER_PASSPHRASE",
        ));
    };
    std::env::var(var).map_err(|_| {
        PlannerError::invalid(
            "--passphrase-env",
            format!("the environment variable {var} is not set (or is not UTF-8); export it with the passphrase first"),
        )
    })
}

/// The draft: the workspace's own (or an empty one for a scenario file), with what the command
/// line gives replacing its fields.
fn draft(base: MemoDraft, a: &MemoArgs) -> MemoDraft {
    MemoDraft {
        author: a.author.clone().unwrap_or(base.author),
        client: a.client.clone().unwrap_or(base.client),
        decision: a.decision.clone().unwrap_or(base.decision),
        rationale: a.rationale.clone().unwrap_or(base.rationale),
        recommended: a.recommended.clone().or(base.recommended),
        scenarios: a.scenarios.clone().unwrap_or(base.scenarios),
        paper: a.paper.unwrap_or(base.paper),
    }
}

/// `planner memo FILE --out memo.pdf [...]`: FILE is a workspace (`.cpw`, its memo draft is used
/// and the memo is recorded in it) or a scenario file (JSON, the draft comes from the options).
pub fn memo(catalog_dir: &Path, file: &Path, a: &MemoArgs) -> Result<String, PlannerError> {
    let identity = match &a.sign_with {
        Some(p) => Some(planner_app::identities::open_file(
            p,
            &passphrase(a.passphrase_env.as_deref())?,
        )?),
        None => None,
    };
    let reason = a.reason.clone().unwrap_or_else(|| "Author".to_owned());
    let signer = identity
        .as_ref()
        .map(|identity| planner_app::memo::signer(identity, &reason));
    let published = if planner_app::session::is_workspace(file) {
        let host = crate::host::host(catalog_dir);
        planner_app::session::open(&host, file)?;
        let d = draft(planner_app::memo::draft(&host)?, a);
        planner_app::memo::publish_draft(&host, &d, &a.out, signer.as_ref())?
    } else {
        let host = crate::host::host(catalog_dir);
        planner_app::memo::publish_file(&host, file, &draft(MemoDraft::default(), a), &a.out, signer.as_ref())?
    };
    let r = &published.record;
    let mut out = format!(
        "wrote {} ({} pages, {} charts, {} bytes)\nscenarios: {}\nsha256: {}\n",
        a.out.display(),
        r.pages,
        published.charts,
        published.size,
        r.scenarios.join(", "),
        r.sha256
    );
    if let Some(s) = &r.signer {
        let _ = writeln!(out, "signed by {s} ({})", r.reason.as_deref().unwrap_or(""));
    }
    if planner_app::session::is_workspace(file) {
        let _ = writeln!(out, "recorded in {}", file.display());
    }
    Ok(out)
}

/// `planner sign PDF --with identity.p12 --passphrase-env VAR [--reason R] [--workspace W]`.
pub fn sign(
    catalog_dir: &Path,
    pdf: &Path,
    with: &Path,
    var: Option<&str>,
    reason: &str,
    workspace: Option<&Path>,
) -> Result<String, PlannerError> {
    let identity = planner_app::identities::open_file(with, &passphrase(var)?)?;
    let host = crate::host::host(catalog_dir);
    if let Some(w) = workspace {
        planner_app::session::open(&host, w)?;
    }
    let record = planner_app::memo::sign_pdf_as(&host, pdf, &planner_app::memo::signer(&identity, reason))?;
    Ok(format!(
        "signed {} as {} ({} signature{} now)\nsha256: {}\n",
        pdf.display(),
        record.signer.as_deref().unwrap_or(""),
        record.signatures,
        if record.signatures == 1 { "" } else { "s" },
        record.sha256
    ))
}

/// The report of `planner verify`, as text. Values read from the file (names, reasons, field
/// names, problems) are cut at 200 characters.
pub fn verification_text(check: &PdfCheck) -> String {
    let cut = |text: &str| planner_core::problem::clip(text).into_owned();
    let path = &check.path;
    let v = &check.verification;
    let mut out = format!("{path}: {} signature(s), {} bytes\n", v.signatures.len(), v.file_len);
    for (i, s) in v.signatures.iter().enumerate() {
        let _ = writeln!(
            out,
            "\n[{}] {} — {}",
            i + 1,
            cut(&s.field),
            if s.intact() { "INTACT" } else { "NOT INTACT" }
        );
        let _ = writeln!(
            out,
            "  signed by:   {}",
            cut(s.signer_name.as_deref().unwrap_or("(no name)"))
        );
        let _ = writeln!(
            out,
            "  signed at:   {}",
            s.signing_time.as_deref().unwrap_or("(no time)")
        );
        if let Some(r) = &s.reason {
            let _ = writeln!(out, "  reason:      {}", cut(r));
        }
        if let Some(c) = &s.certificate {
            let _ = writeln!(
                out,
                "  certificate: {}{} (issuer {}; serial {}; valid {} to {}{})",
                cut(c.common_name.as_deref().unwrap_or("(no name)")),
                c.organisation
                    .as_deref()
                    .map(|o| format!(", {}", cut(o)))
                    .unwrap_or_default(),
                cut(&c.issuer),
                cut(&c.serial_hex),
                c.not_before,
                c.not_after,
                if c.self_signed { "; self-signed" } else { "" }
            );
            let _ = writeln!(out, "  sha-256:     {}", c.sha256_fingerprint);
        }
        let modified = s.problems.iter().any(|p| p.starts_with("modified after signing"));
        let _ = writeln!(
            out,
            "  covers:      bytes {}..{} and {}..{} of its revision{}",
            s.byte_range[0],
            s.byte_range[0] + s.byte_range[1],
            s.byte_range[2],
            s.byte_range[2] + s.byte_range[3],
            if s.later_bytes == 0 {
                "; the whole file".to_owned()
            } else if modified {
                format!(
                    "; {} bytes were added after it, and they change the document (see the problems)",
                    s.later_bytes
                )
            } else {
                format!(
                    "; {} bytes were added after it: later signatures only (checked)",
                    s.later_bytes
                )
            }
        );
        let _ = writeln!(
            out,
            "  digest:      {}\n  signature:   {}",
            if s.digest_ok {
                "matches"
            } else {
                "DOES NOT MATCH (the signed bytes changed: the file is damaged or was altered after signing)"
            },
            if s.signature_ok { "valid" } else { "INVALID" }
        );
        for p in &s.problems {
            let _ = writeln!(out, "  problem:     {}", cut(p));
        }
    }
    if check.unsigned_tail > 0 {
        let _ = writeln!(
            out,
            "\nWARNING: {} bytes were added after the last signature; no signature covers them",
            check.unsigned_tail
        );
    }
    let _ = writeln!(
        out,
        "\n{}",
        if check.all_intact {
            "every signature is intact"
        } else if v.signatures.is_empty() {
            "the file holds no signature"
        } else {
            "NOT every signature is intact"
        }
    );
    out
}

/// `planner verify FILE`: the report, and whether every signature is intact (the exit code).
pub fn verify(path: &Path, json: bool) -> Result<(String, bool), PlannerError> {
    let check = planner_app::memo::verify_pdf(path)?;
    let text = if json {
        serde_json::to_string_pretty(&check)
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("could not write JSON: {e}")))?
            + "\n"
    } else {
        verification_text(&check)
    };
    Ok((text, check.all_intact))
}

/// `planner identity new --name N --org O --out F.p12 --passphrase-env VAR`.
pub fn identity_new(
    catalog_dir: &Path,
    name: &str,
    org: &str,
    email: Option<&str>,
    out: &Path,
    var: Option<&str>,
) -> Result<String, PlannerError> {
    let pass = passphrase(var)?;
    let identity = planner_app::identities::create_file(&crate::host::host(catalog_dir), name, org, email, &pass, out)?;
    let c = identity.certificate();
    Ok(format!(
        "wrote {} (P-256 key and self-signed certificate, encrypted with the passphrase)\nsubject: {}, {}\nsha-256: {}\nvalid: {} to {}\n",
        out.display(),
        c.common_name.unwrap_or_default(),
        c.organisation.unwrap_or_default(),
        c.sha256_fingerprint,
        c.not_before,
        c.not_after
    ))
}
