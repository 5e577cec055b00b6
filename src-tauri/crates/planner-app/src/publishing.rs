//! A catalog publisher's side of signed packs (issue #18), as the command line offers it: a
//! signing key made, a catalog folder packed and signed, a pack checked against the keys trusted,
//! two catalogs (folders or packs) compared, and a pack applied to a workspace file.
//!
//! The keys trusted here are the publisher key shipped with the app and the public key files the
//! caller names; the app's own list of trusted publishers (Settings) is [`crate::packs`]'.

use std::path::{Path, PathBuf};

use planner_core::catalog::Catalog;
use planner_core::catalog::provenance::{AsOf, AsOfError};
use planner_core::error::{ErrorCode, PlannerError};
use planner_sign::{PackKey, generate_pack_key, read_pack_key};
use planner_store::pack::{OpenedPack, build_pack, open_pack, pack_bytes, read_key_file, shipped_key};
use planner_store::workspace::{Applied, format_utc};

use crate::host::{Host, with_workspace};
use crate::packs::PackPreview;

/// A signing key made by [`make_key`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MadeKey {
    pub id: String,
    /// The public key file (`PREFIX.pub`): handed out, added by users in Settings.
    pub public_path: PathBuf,
    /// The secret key file (`PREFIX.key`): kept offline, it signs packs.
    pub secret_path: PathBuf,
    /// Whether the secret key is encrypted with a passphrase.
    pub encrypted: bool,
}

/// A pack written by [`pack_folder`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackWritten {
    pub version: String,
    pub publisher: String,
    pub files: usize,
}

fn io(path: &Path, what: &str, e: &std::io::Error) -> PlannerError {
    PlannerError::new(ErrorCode::Io, format!("{}: cannot {what}: {e}", path.display()))
}

/// The keys trusted: the publisher key shipped with the app and the public key file of each
/// path in `extra`.
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

/// Makes a signing key: `PREFIX.pub` and `PREFIX.key` beside `out` (the secret key readable by
/// its owner alone, encrypted with `passphrase` when one is given). A key file is never
/// overwritten.
pub fn make_key(out: &Path, passphrase: Option<&str>) -> Result<MadeKey, PlannerError> {
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
        generate_pack_key(passphrase).map_err(|e| PlannerError::new(ErrorCode::InvalidInput, e.to_string()))?;
    write_private(&secret_path, secret.as_bytes())?;
    std::fs::write(&public_path, public.as_bytes()).map_err(|e| io(&public_path, "write the public key", &e))?;
    let key = read_pack_key(&public).map_err(|e| PlannerError::new(ErrorCode::InvalidInput, e.to_string()))?;
    Ok(MadeKey {
        id: key.id,
        public_path,
        secret_path,
        encrypted: passphrase.is_some(),
    })
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

/// What [`pack_folder`] packs and signs.
#[derive(Debug, Clone, Copy)]
pub struct PackRequest<'a> {
    /// The catalog folder.
    pub dir: &'a Path,
    /// The secret key file.
    pub secret_key: &'a Path,
    pub passphrase: Option<&'a str>,
    pub publisher: &'a str,
    /// `YYYY-MM-DD`; `None`: today by the host's clock (UTC).
    pub date: Option<&'a str>,
    pub note: Option<&'a str>,
    pub out: &'a Path,
}

/// Packs the catalog folder of `request` and signs it with its secret key, written to its `out`.
pub fn pack_folder(host: &impl Host, request: &PackRequest<'_>) -> Result<PackWritten, PlannerError> {
    let secret =
        std::fs::read_to_string(request.secret_key).map_err(|e| io(request.secret_key, "read the secret key", &e))?;
    let today = format_utc(host.now_ms());
    let date_text = request.date.unwrap_or_else(|| today.get(..10).unwrap_or_default());
    let date: AsOf = date_text
        .parse()
        .map_err(|e: AsOfError| PlannerError::invalid("--date", e.to_string()))?;
    let parts = build_pack(
        request.dir,
        &secret,
        request.passphrase,
        request.publisher,
        date,
        request.note,
    )?;
    planner_store::files::write_atomic(request.out, &pack_bytes(&parts)?)?;
    let manifest = String::from_utf8_lossy(&parts.manifest).into_owned();
    let m = planner_core::catalog::pack::Manifest::parse(&manifest)
        .map_err(|e| PlannerError::new(ErrorCode::InvalidInput, e.0))?;
    Ok(PackWritten {
        version: m.pack.version,
        publisher: m.pack.publisher,
        files: m.files.len(),
    })
}

/// The pack at `file`, checked whole against the keys [`trusted`] with `trust`.
pub fn open(file: &Path, trust: &[PathBuf]) -> Result<OpenedPack, PlannerError> {
    open_pack(file, &trusted(trust)?)
}

/// A catalog folder, or a pack checked against the keys [`trusted`] with `trust`, as a catalog
/// and a line saying which.
pub fn catalog_at(path: &Path, trust: &[PathBuf]) -> Result<(Catalog, String), PlannerError> {
    if path.is_dir() {
        return Ok((crate::catalog::load(path)?, format!("folder {}", path.display())));
    }
    let pack = open(path, trust)?;
    let what = format!(
        "pack {} ({}, signed by {})",
        path.display(),
        pack.origin.publisher,
        pack.origin.key_id
    );
    Ok((pack.catalog, what))
}

/// Applies the pack at `file` (checked against the keys [`trusted`] with `trust`) to the open
/// workspace as one undo step; returns what it changed, previewed before applying, and the step.
pub fn apply_file(host: &impl Host, file: &Path, trust: &[PathBuf]) -> Result<(PackPreview, Applied), PlannerError> {
    let pack = open(file, trust)?;
    with_workspace(host, |ws| {
        let preview = crate::packs::preview(ws, &pack)?;
        let applied = ws.apply_pack(&pack, host.now_ms())?;
        Ok((preview, applied))
    })
}
