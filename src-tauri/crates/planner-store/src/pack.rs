//! Catalog pack files: reading, checking and writing them (issue #18).
//!
//! A pack is a zip file (`.cpack`) holding `manifest.toml`, its minisign signature
//! `manifest.toml.minisig`, and the catalog files the manifest lists, nothing else, each at the
//! top level. [`open_pack`] refuses the whole pack, with the reason, unless every check holds, in
//! this order: the zip reads within its size bounds; the signature is by a trusted key and
//! matches the manifest; every file matches the manifest's SHA-256; the files load as a catalog
//! whose version is the manifest's. Whether it is newer than the catalog in use is checked when it
//! is applied to a workspace.

use std::io::{Cursor, Read, Write};
use std::path::Path;

use planner_core::catalog::Catalog;
use planner_core::catalog::pack::{
    MANIFEST_NAME, MAX_FILE_BYTES, MAX_FILES, MAX_PACK_BYTES, Manifest, SIGNATURE_NAME, is_catalog_file_name,
};
use planner_core::catalog::provenance::AsOf;
use planner_core::error::{ErrorCode, ErrorDetail, PlannerError};
use planner_sign::{PackKey, PackSigError, read_pack_key, sign_manifest, verify_manifest};
use serde::{Deserialize, Serialize};

/// The public key of the Compute Planner catalog publisher, which every copy of the app trusts.
/// Its secret key is kept offline by the maintainers and is not in the repository.
pub const SHIPPED_PUBLISHER_KEY: &str = include_str!("../../../../assets/catalog-publisher.pub");

/// The shipped publisher key, read.
pub fn shipped_key() -> Option<PackKey> {
    read_pack_key(SHIPPED_PUBLISHER_KEY).ok()
}

/// A pack's parts as read from its file, not yet checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackParts {
    pub manifest: Vec<u8>,
    pub signature: Vec<u8>,
    pub files: Vec<(String, Vec<u8>)>,
}

/// A pack that passed every check.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenedPack {
    pub manifest: Manifest,
    pub catalog: Catalog,
    /// The catalog files as text, by name.
    pub files: Vec<(String, String)>,
    pub origin: PackOrigin,
}

/// Where a workspace's catalog came from when it was applied from a pack: enough to check the
/// signature again at any time (the manifest and signature as signed, and the key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PackOrigin {
    pub publisher: String,
    pub version: String,
    pub date: String,
    pub key_id: String,
    pub public_key: String,
    pub manifest: String,
    pub signature: String,
}

fn refused(shown: &str, message: &str) -> PlannerError {
    PlannerError {
        code: ErrorCode::PackRefused,
        message: format!("{shown}: the catalog pack was refused and nothing was changed: {message}."),
        details: vec![ErrorDetail {
            file: Some(shown.to_owned()),
            line: None,
            column: None,
            field: None,
            kind: Some("pack-refused".to_owned()),
            message: message.to_owned(),
        }],
    }
}

/// Reads a pack's parts from the bytes of a `.cpack` zip; `shown` names it in messages.
pub fn read_pack_bytes(bytes: &[u8], shown: &str) -> Result<PackParts, PlannerError> {
    let bad = |m: String| refused(shown, &m);
    if bytes.len() as u64 > MAX_PACK_BYTES {
        return Err(bad(format!(
            "the file is {} bytes, more than the {MAX_PACK_BYTES} a pack may have",
            bytes.len()
        )));
    }
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| bad(format!("it is not a catalog pack (a pack is a zip file): {e}")))?;
    if zip.len() > MAX_FILES + 2 {
        return Err(bad(format!(
            "it holds {} files; a pack holds its manifest, the signature and at most {MAX_FILES} catalog files",
            zip.len()
        )));
    }
    let mut manifest = None;
    let mut signature = None;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut total: u64 = 0;
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| bad(format!("part {i} cannot be read: {e}")))?;
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        if entry.is_dir() {
            return Err(bad(format!(
                "it holds a folder `{name}`; a pack's files sit at its top level"
            )));
        }
        let limit = MAX_FILE_BYTES.min(MAX_PACK_BYTES.saturating_sub(total));
        if entry.size() > limit {
            return Err(bad(format!("{name} unpacks to more than {limit} bytes")));
        }
        let mut body = Vec::new();
        (&mut entry).take(limit + 1).read_to_end(&mut body).map_err(|e| {
            bad(format!(
                "{name} cannot be unpacked (the pack is damaged or truncated): {e}"
            ))
        })?;
        if body.len() as u64 > limit {
            return Err(bad(format!("{name} unpacks to more than {limit} bytes")));
        }
        total = total.saturating_add(body.len() as u64);
        let slot = match name.as_str() {
            MANIFEST_NAME => &mut manifest,
            SIGNATURE_NAME => &mut signature,
            n if is_catalog_file_name(n) => {
                if files.iter().any(|(f, _)| f == n) {
                    return Err(bad(format!("{n} is in the pack twice")));
                }
                files.push((name, body));
                continue;
            }
            _ => {
                return Err(bad(format!(
                    "it holds `{name}`, which is not a catalog file (plain lower-case names ending .toml), the manifest or its signature"
                )));
            }
        };
        if slot.replace(body).is_some() {
            return Err(bad(format!("{name} is in the pack twice")));
        }
    }
    let manifest = manifest.ok_or_else(|| bad(format!("it has no {MANIFEST_NAME}; it is not a catalog pack")))?;
    let signature = signature.ok_or_else(|| {
        bad(format!(
            "it has no signature ({SIGNATURE_NAME}); only signed packs are accepted"
        ))
    })?;
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(PackParts {
        manifest,
        signature,
        files,
    })
}

/// Reads a pack file.
pub fn read_pack(path: &Path) -> Result<PackParts, PlannerError> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| io(path, "open the pack", &e))?;
    if meta.len() > MAX_PACK_BYTES {
        return Err(refused(
            &shown,
            &format!(
                "the file is {} bytes, more than the {MAX_PACK_BYTES} a pack may have",
                meta.len()
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| io(path, "read the pack", &e))?;
    read_pack_bytes(&bytes, &shown)
}

fn io(path: &Path, what: &str, e: &std::io::Error) -> PlannerError {
    let code = if e.kind() == std::io::ErrorKind::NotFound {
        ErrorCode::NotFound
    } else {
        ErrorCode::Io
    };
    PlannerError::new(code, format!("{}: cannot {what}: {e}", path.display()))
}

/// Checks a pack's parts against the `trusted` keys: the signature first (so nothing unsigned is
/// even parsed as a catalog), then each file's digest, then the catalog.
pub fn check_pack(parts: &PackParts, trusted: &[PackKey], shown: &str) -> Result<OpenedPack, PlannerError> {
    let bad = |m: &str| refused(shown, m);
    let signature = std::str::from_utf8(&parts.signature).map_err(|_| bad("its signature is not text"))?;
    let verified = verify_manifest(signature, &parts.manifest, trusted).map_err(|e| bad(&e.to_string()))?;
    let manifest_text = std::str::from_utf8(&parts.manifest).map_err(|_| bad("its manifest is not UTF-8 text"))?;
    let manifest = Manifest::parse(manifest_text).map_err(|e| bad(&e.0))?;
    let catalog = manifest.check(&parts.files).map_err(|e| bad(&e.0))?;
    let key = trusted
        .iter()
        .find(|k| k.id == verified.key_id)
        .cloned()
        .ok_or_else(|| bad("the signing key is no longer trusted"))?;
    let files = parts
        .files
        .iter()
        .map(|(n, b)| (n.clone(), String::from_utf8_lossy(b).into_owned()))
        .collect();
    Ok(OpenedPack {
        origin: PackOrigin {
            publisher: manifest.pack.publisher.clone(),
            version: manifest.pack.version.clone(),
            date: manifest.pack.date.to_string(),
            key_id: key.id,
            public_key: key.public_key,
            manifest: manifest_text.to_owned(),
            signature: signature.to_owned(),
        },
        manifest,
        catalog,
        files,
    })
}

/// Reads and checks a pack file.
pub fn open_pack(path: &Path, trusted: &[PackKey]) -> Result<OpenedPack, PlannerError> {
    let shown = path.display().to_string();
    check_pack(&read_pack(path)?, trusted, &shown)
}

/// Whether the catalog `files` (as a workspace snapshot holds them) are still exactly what
/// `origin`'s signed manifest lists, and the signature still verifies with its key.
pub fn recheck_origin(origin: &PackOrigin, files: &[(String, String)]) -> Result<String, String> {
    let key = read_pack_key(&origin.public_key).map_err(|e| e.to_string())?;
    let verified = verify_manifest(
        &origin.signature,
        origin.manifest.as_bytes(),
        std::slice::from_ref(&key),
    )
    .map_err(|e| match e {
        PackSigError::BadSignature { .. } => "the recorded manifest no longer matches its signature".to_owned(),
        other => other.to_string(),
    })?;
    let manifest = Manifest::parse(&origin.manifest).map_err(|e| e.0)?;
    let bytes: Vec<(String, Vec<u8>)> = files.iter().map(|(n, t)| (n.clone(), t.as_bytes().to_vec())).collect();
    manifest
        .check(&bytes)
        .map_err(|e| format!("the catalog in the workspace differs from the signed pack: {}", e.0))?;
    Ok(verified.key_id)
}

/// Builds a signed pack from the catalog folder `dir`: the manifest of its `*.toml` files, signed
/// with the minisign secret key `secret` (encrypted keys need `passphrase`).
pub fn build_pack(
    dir: &Path,
    secret: &str,
    passphrase: Option<&str>,
    publisher: &str,
    date: AsOf,
    note: Option<&str>,
) -> Result<PackParts, PlannerError> {
    let shown = dir.display().to_string();
    let texts = crate::catalog_dir::read_catalog_dir(dir)?;
    let mut files = Vec::with_capacity(texts.len());
    for (path, text) in texts {
        let name = Path::new(&path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !is_catalog_file_name(&name) {
            return Err(PlannerError::new(
                ErrorCode::InvalidInput,
                format!("{path}: a pack's catalog files have plain lower-case names ending .toml; rename it"),
            ));
        }
        files.push((name, text.into_bytes()));
    }
    let (manifest, _) = Manifest::of(publisher, date, note, &files)
        .map_err(|e| PlannerError::new(ErrorCode::CatalogInvalid, format!("{shown}: {}", e.0)))?;
    let text = manifest.to_text();
    let comment = format!(
        "Compute Planner catalog pack; publisher: {}; version: {}; date: {}",
        manifest.pack.publisher, manifest.pack.version, manifest.pack.date
    );
    let signature = sign_manifest(secret, passphrase, text.as_bytes(), &comment)
        .map_err(|e| PlannerError::new(ErrorCode::InvalidInput, format!("the secret key: {e}")))?;
    Ok(PackParts {
        manifest: text.into_bytes(),
        signature: signature.into_bytes(),
        files,
    })
}

/// The `.cpack` zip of `parts` (written with `files::write_atomic`).
pub fn pack_bytes(parts: &PackParts) -> Result<Vec<u8>, PlannerError> {
    let fail = |e: &dyn std::fmt::Display| PlannerError::new(ErrorCode::Io, format!("cannot write the pack: {e}"));
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let mut put = |name: &str, body: &[u8]| -> Result<(), PlannerError> {
        zip.start_file(name, options).map_err(|e| fail(&e))?;
        zip.write_all(body).map_err(|e| fail(&e))
    };
    put(MANIFEST_NAME, &parts.manifest)?;
    put(SIGNATURE_NAME, &parts.signature)?;
    for (name, body) in &parts.files {
        put(name, body)?;
    }
    let out = zip.finish().map_err(|e| fail(&e))?;
    Ok(out.into_inner())
}

/// The public keys in `text` (a `.pub` file or the bare key line), read.
pub fn read_key_file(path: &Path) -> Result<PackKey, PlannerError> {
    let text = std::fs::read_to_string(path).map_err(|e| io(path, "read the public key", &e))?;
    read_pack_key(&text).map_err(|e| PlannerError::new(ErrorCode::InvalidInput, format!("{}: {e}", path.display())))
}
