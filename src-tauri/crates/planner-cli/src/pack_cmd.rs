//! `planner catalog keygen | pack | verify | diff | apply`: signed catalog packs (issue #18).
//!
//! Packs are trusted when signed by the publisher key shipped with the app or by a key given with
//! `--trust FILE.pub`. Secret keys are read from a file and their passphrase from an environment
//! variable the user names, never from the command line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use planner_core::catalog::Catalog;
use planner_core::catalog::diff::{CatalogDiff, EntryChangeKind, FigureSide, diff};
use planner_core::catalog::provenance::AsOf;
use planner_core::error::{ErrorCode, PlannerError};
use planner_sign::{PackKey, generate_pack_key};
use planner_store::Workspace;
use planner_store::pack::{OpenedPack, build_pack, open_pack, pack_bytes, read_key_file, shipped_key};
use planner_store::workspace::{PackPreview, format_utc};

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

fn io(path: &Path, what: &str, e: &std::io::Error) -> PlannerError {
    PlannerError::new(ErrorCode::Io, format!("{}: cannot {what}: {e}", path.display()))
}

/// The keys a command trusts: the shipped publisher key and each `--trust` file.
pub fn trusted(extra: &[PathBuf]) -> Result<Vec<PackKey>, PlannerError> {
    let mut keys: Vec<PackKey> = shipped_key().into_iter().collect();
    for path in extra {
        let key = read_key_file(path)?;
        if !keys.iter().any(|k| k.id == key.id) {
            keys.push(key);
        }
    }
    Ok(keys)
}

/// `catalog keygen --out PREFIX`: PREFIX.pub and PREFIX.key.
pub fn keygen(out: &Path, passphrase_env: Option<&str>) -> Result<String, PlannerError> {
    let pass = env_passphrase(passphrase_env)?;
    let public_path = out.with_extension("pub");
    let secret_path = out.with_extension("key");
    for p in [&public_path, &secret_path] {
        if p.exists() {
            return Err(PlannerError::invalid(
                "--out",
                format!(
                    "{} exists; choose another name (a key is never overwritten)",
                    p.display()
                ),
            ));
        }
    }
    let (public, secret) =
        generate_pack_key(pass.as_deref()).map_err(|e| PlannerError::new(ErrorCode::InvalidInput, e.to_string()))?;
    write_private(&secret_path, secret.as_bytes())?;
    std::fs::write(&public_path, public.as_bytes()).map_err(|e| io(&public_path, "write the public key", &e))?;
    let key =
        planner_sign::read_pack_key(&public).map_err(|e| PlannerError::new(ErrorCode::InvalidInput, e.to_string()))?;
    Ok(format!(
        "Key {} made.\n  public key (hand it out; users add it in Settings): {}\n  secret key (keep it offline; it signs packs{}): {}\n",
        key.id,
        public_path.display(),
        if pass.is_some() {
            ", encrypted with your passphrase"
        } else {
            ", NOT encrypted: give --passphrase-env to encrypt it"
        },
        secret_path.display()
    ))
}

fn write_private(path: &Path, bytes: &[u8]) -> Result<(), PlannerError> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut f = options.open(path).map_err(|e| io(path, "write the secret key", &e))?;
    f.write_all(bytes).map_err(|e| io(path, "write the secret key", &e))
}

/// The arguments of `catalog pack`.
#[derive(Debug)]
pub struct PackArgs<'a> {
    pub dir: &'a Path,
    pub sign_with: &'a Path,
    pub passphrase_env: Option<&'a str>,
    pub publisher: &'a str,
    pub date: Option<&'a str>,
    pub note: Option<&'a str>,
    pub out: &'a Path,
}

/// `catalog pack DIR --sign-with KEY --publisher NAME --out FILE`.
pub fn pack(a: &PackArgs<'_>) -> Result<String, PlannerError> {
    let secret = std::fs::read_to_string(a.sign_with).map_err(|e| io(a.sign_with, "read the secret key", &e))?;
    let pass = env_passphrase(a.passphrase_env)?;
    let today = format_utc(now_ms());
    let date_text = a.date.unwrap_or_else(|| today.get(..10).unwrap_or_default());
    let date: AsOf = date_text
        .parse()
        .map_err(|e: planner_core::catalog::provenance::AsOfError| PlannerError::invalid("--date", e.to_string()))?;
    let parts = build_pack(a.dir, &secret, pass.as_deref(), a.publisher, date, a.note)?;
    planner_store::files::write_atomic(a.out, &pack_bytes(&parts)?)?;
    let manifest = String::from_utf8_lossy(&parts.manifest).into_owned();
    let m = planner_core::catalog::pack::Manifest::parse(&manifest)
        .map_err(|e| PlannerError::new(ErrorCode::InvalidInput, e.0))?;
    Ok(format!(
        "Wrote {}: catalog {} from {}, {} files, signed.\n",
        a.out.display(),
        m.pack.version,
        m.pack.publisher,
        m.files.len()
    ))
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `catalog verify FILE`: exits 0 only when the pack passes every check.
pub fn verify(file: &Path, trust: &[PathBuf]) -> Result<String, PlannerError> {
    let pack = open_pack(file, &trusted(trust)?)?;
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

/// A folder or a pack, as a catalog (a pack checked against the trusted keys).
fn catalog_at(path: &Path, trust: &[PackKey]) -> Result<(Catalog, String), PlannerError> {
    if path.is_dir() {
        return Ok((
            planner_store::load_catalog_dir(path)?,
            format!("folder {}", path.display()),
        ));
    }
    let pack = open_pack(path, trust)?;
    let what = format!(
        "pack {} ({}, signed by {})",
        path.display(),
        pack.origin.publisher,
        pack.origin.key_id
    );
    Ok((pack.catalog, what))
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
    let keys = trusted(trust)?;
    let (a, a_what) = catalog_at(old, &keys)?;
    let (b, b_what) = catalog_at(new, &keys)?;
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
pub fn apply(file: &Path, workspace: &Path, trust: &[PathBuf]) -> Result<String, PlannerError> {
    let pack: OpenedPack = open_pack(file, &trusted(trust)?)?;
    let mut ws = Workspace::open(workspace)?;
    let preview = ws.pack_preview(&pack)?;
    let applied = ws.apply_pack(&pack)?;
    Ok(format!(
        "{}\nApplied to {}: \"{}\" (undo it in the app with Edit → Undo).\n",
        preview_text(&preview),
        workspace.display(),
        applied.label
    ))
}
