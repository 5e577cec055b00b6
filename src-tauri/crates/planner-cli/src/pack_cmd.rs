//! `planner catalog keygen | pack | verify | diff | apply`: signed catalog packs (issue #18).
//!
//! Packs are trusted when signed by the publisher key shipped with the app or by a key given with
//! `--trust FILE.pub`. Secret keys are read from a file and their passphrase from an environment
//! variable the user names, never from the command line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use planner_app::packs::PackPreview;
use planner_app::publishing;
use planner_core::catalog::diff::{CatalogDiff, EntryChangeKind, FigureSide, diff};
use planner_core::error::{ErrorCode, PlannerError};

fn env_passphrase(var: Option<&str>) -> Result<Option<String>, PlannerError> {
    var.map(|v| {
        std::env::var(v).map_err(|_| {
            PlannerError::invalid(
                "--passphrase-env",
                format!(
                    "the environment variable {v} is not set (or is not UTF-8); export it with the passphrase first"
                ),
            )
        })
    })
    .transpose()
}

/// `catalog keygen --out PREFIX`: PREFIX.pub and PREFIX.key.
pub fn keygen(out: &Path, passphrase_env: Option<&str>) -> Result<String, PlannerError> {
    let pass = env_passphrase(passphrase_env)?;
    let key = publishing::make_key(out, pass.as_deref())?;
    Ok(format!(
        "Key {} made.\n  public key (hand it out; users add it in Settings): {}\n  secret key (keep it offline; it signs packs{}): {}\n",
        key.id,
        key.public_path.display(),
        if key.encrypted {
            ", encrypted with your passphrase"
        } else {
            ", NOT encrypted: give --passphrase-env to encrypt it"
        },
        key.secret_path.display()
    ))
}

/// `catalog pack DIR --sign-with KEY --publisher NAME --out FILE`: `request` as the command line
/// gave it, its passphrase read from the environment variable `passphrase_env` names.
pub fn pack(
    catalog_dir: &Path,
    request: &publishing::PackRequest<'_>,
    passphrase_env: Option<&str>,
) -> Result<String, PlannerError> {
    let pass = env_passphrase(passphrase_env)?;
    let request = publishing::PackRequest {
        passphrase: pass.as_deref(),
        ..*request
    };
    let written = publishing::pack_folder(&crate::host::host(catalog_dir), &request)?;
    Ok(format!(
        "Wrote {}: catalog {} from {}, {} files, signed.\n",
        request.out.display(),
        written.version,
        written.publisher,
        written.files
    ))
}

/// `catalog verify FILE`: exits 0 only when the pack passes every check.
pub fn verify(file: &Path, trust: &[PathBuf]) -> Result<String, PlannerError> {
    let pack = publishing::open(file, trust)?;
    let mut out = format!(
        "{}: valid catalog pack.\n  publisher  {}\n  version    {}\n  date       {}\n  signed by  minisign key {}\n",
        file.display(),
        pack.origin.publisher,
        pack.origin.version,
        pack.origin.date,
        pack.origin.key_id
    );
    for f in &pack.manifest.files {
        let _ = writeln!(out, "  {:<20} {:>8} bytes  sha256 {}", f.name, f.bytes, f.sha256);
    }
    Ok(out)
}

fn side(s: Option<&FigureSide>) -> String {
    match s {
        None => "—".to_owned(),
        Some(s) if s.low == s.high => format!("{} (as of {})", s.low, s.as_of),
        Some(s) => format!("{}–{} (as of {})", s.low, s.high, s.as_of),
    }
}

/// The diff as text: one block per entry, each figure old → new with both sides' sources.
pub fn diff_text(d: &CatalogDiff) -> String {
    let mut out = format!(
        "Catalog {} → {}: {} entries changed ({} figures), {} added, {} removed.\n",
        d.old_version, d.new_version, d.changed, d.figures_changed, d.added, d.removed
    );
    for e in &d.entries {
        let tag = match e.change {
            EntryChangeKind::Added => "added",
            EntryChangeKind::Removed => "removed",
            EntryChangeKind::Changed => "changed",
        };
        let _ = writeln!(out, "\n{tag} {} {} ({})", e.kind, e.id, e.name);
        for f in &e.figures {
            let _ = writeln!(
                out,
                "  {}: {} → {}",
                f.field,
                side(f.old.as_ref()),
                side(f.new.as_ref())
            );
            if e.change == EntryChangeKind::Changed {
                for (label, s) in [("was", f.old.as_ref()), ("now", f.new.as_ref())] {
                    if let Some(s) = s {
                        let _ = writeln!(out, "    {label}: {}", s.sources.join("; "));
                    }
                }
            }
            for k in &f.kept {
                let _ = writeln!(out, "    {k}");
            }
        }
        for t in &e.texts {
            let _ = writeln!(out, "  {}: \"{}\" → \"{}\"", t.field, t.old, t.new);
        }
    }
    out
}

/// `catalog diff OLD NEW [--json]`.
pub fn diff_cmd(old: &Path, new: &Path, trust: &[PathBuf], json: bool) -> Result<String, PlannerError> {
    let (a, a_what) = publishing::catalog_at(old, trust)?;
    let (b, b_what) = publishing::catalog_at(new, trust)?;
    let d = diff(&a, &b);
    if json {
        let mut text = serde_json::to_string_pretty(&d)
            .map_err(|e| PlannerError::new(ErrorCode::InvalidInput, format!("cannot render JSON: {e}")))?;
        text.push('\n');
        return Ok(text);
    }
    Ok(format!("old: {a_what}\nnew: {b_what}\n{}", diff_text(&d)))
}

fn money(d: Option<rust_decimal::Decimal>) -> String {
    d.map_or_else(|| "—".to_owned(), planner_core::engine::decide::compare::grouped)
}

/// The preview as text: the diff, then each scenario's decision total and NPV old → new.
pub fn preview_text(p: &PackPreview) -> String {
    let mut out = format!(
        "Pack {} from {} ({}), signed by minisign key {}.\n",
        p.version, p.publisher, p.date, p.key_id
    );
    if let Some(n) = &p.note {
        let _ = writeln!(out, "Publisher's note: {n}");
    }
    out.push_str(&diff_text(&p.diff));
    out.push_str("\nScenarios (decision total and NPV, old → new):\n");
    for s in &p.scenarios {
        let _ = write!(
            out,
            "  {:<28} total {} → {}   NPV {} → {}",
            s.name,
            money(s.old.total),
            money(s.new.total),
            money(s.old.npv),
            money(s.new.npv)
        );
        if let Some(problem) = s.new.problem.as_ref().or(s.old.problem.as_ref()) {
            let _ = write!(out, "   (does not evaluate: {problem})");
        }
        out.push('\n');
    }
    out
}

/// `catalog apply FILE --workspace W`: shows what changes, then applies it as one undo step.
pub fn apply(catalog_dir: &Path, file: &Path, workspace: &Path, trust: &[PathBuf]) -> Result<String, PlannerError> {
    let host = crate::host::host(catalog_dir);
    planner_app::session::open(&host, workspace)?;
    let (preview, applied) = publishing::apply_file(&host, file, trust)?;
    Ok(format!(
        "{}\nApplied to {}: \"{}\" (undo it in the app with Edit → Undo).\n",
        preview_text(&preview),
        workspace.display(),
        applied.label
    ))
}
