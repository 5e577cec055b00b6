//! Catalog packs: a publisher's catalog files with a manifest that names each file's SHA-256.
//!
//! The manifest is what the publisher signs (the signature itself is checked by `planner-sign`);
//! this module parses it and checks the pack's files against it, so one changed byte in any file
//! is caught here and one changed byte in the manifest is caught by the signature. The rules a
//! pack must pass, all of them before anything is applied:
//!
//! - every file the manifest lists is present, byte for byte (size and SHA-256), and no other file;
//! - file names are plain catalog names (`offers.toml`), no folders, each once;
//! - the manifest's version equals the version the catalog files declare (their highest);
//! - the files load as a catalog (the same loader and checks as the shipped catalog).
//!
//! Whether the pack is newer than the catalog in use (no rollback) is [`check_not_older`].

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::provenance::AsOf;
use super::{Catalog, load};

/// The manifest's file name inside a pack, and the signature's beside it.
pub const MANIFEST_NAME: &str = "manifest.toml";
pub const SIGNATURE_NAME: &str = "manifest.toml.minisig";

/// The manifest format this build reads and writes.
pub const MANIFEST_FORMAT: u32 = 1;

/// At most this many catalog files in one pack (the shipped catalog has five).
pub const MAX_FILES: usize = 32;

/// At most this many bytes in one catalog file, and in a whole pack once unpacked.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
pub const MAX_PACK_BYTES: u64 = 32 * 1024 * 1024;

/// Who published a pack, which catalog version it carries, and each file's digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub pack: PackHeader,
    pub files: Vec<ManifestFile>,
}

/// The manifest's `[pack]` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct PackHeader {
    pub format: u32,
    /// The publisher's name as the user sees it ("Compute Planner maintainers").
    pub publisher: String,
    /// The catalog version the pack carries, e.g. "2026.12.0": the highest version of its files.
    pub version: String,
    /// The day the pack was built.
    pub date: AsOf,
    /// What changed, in the publisher's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One `[[files]]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct ManifestFile {
    pub name: String,
    pub bytes: u64,
    /// Lower-case hex SHA-256 of the file's bytes.
    pub sha256: String,
}

/// Why a pack was refused: one sentence naming the file or field and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PackRefusal(pub String);

fn refuse(message: impl Into<String>) -> PackRefusal {
    PackRefusal(message.into())
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `name` is a plain catalog file name: letters, digits, `-`, `_`, `.`, ending `.toml`,
/// no folder, not hidden.
pub fn is_catalog_file_name(name: &str) -> bool {
    name.len() <= 64
        && name.ends_with(".toml")
        && name != MANIFEST_NAME
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.'))
}

impl Manifest {
    /// The manifest of `files` (name, bytes) as `publisher` on `date`; its version is the
    /// catalog's. Fails when the files do not load as a catalog.
    pub fn of(
        publisher: &str,
        date: AsOf,
        note: Option<&str>,
        files: &[(String, Vec<u8>)],
    ) -> Result<(Manifest, Catalog), PackRefusal> {
        let catalog = load_files(files)?;
        let mut entries: Vec<ManifestFile> = files
            .iter()
            .map(|(name, bytes)| ManifestFile {
                name: name.clone(),
                bytes: bytes.len() as u64,
                sha256: sha256_hex(bytes),
            })
            .collect();
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        let manifest = Manifest {
            pack: PackHeader {
                format: MANIFEST_FORMAT,
                publisher: publisher.trim().to_owned(),
                version: version_of(&catalog),
                date,
                note: note.map(str::to_owned).filter(|n| !n.trim().is_empty()),
            },
            files: entries,
        };
        manifest.check_header()?;
        Ok((manifest, catalog))
    }

    /// Reads a manifest's text.
    pub fn parse(text: &str) -> Result<Manifest, PackRefusal> {
        let manifest: Manifest = toml::from_str(text).map_err(|e| {
            refuse(format!(
                "{MANIFEST_NAME} is not a pack manifest: {}; the pack is damaged or not a catalog pack",
                e.message()
            ))
        })?;
        manifest.check_header()?;
        Ok(manifest)
    }

    /// The manifest as TOML text (what is signed).
    pub fn to_text(&self) -> String {
        // Serialising a struct of strings and numbers cannot fail.
        toml::to_string(self).unwrap_or_default()
    }

    fn check_header(&self) -> Result<(), PackRefusal> {
        if self.pack.format != MANIFEST_FORMAT {
            return Err(refuse(format!(
                "{MANIFEST_NAME}: pack format {} is not one this version reads (format {MANIFEST_FORMAT}); update Compute Planner or ask the publisher for a format {MANIFEST_FORMAT} pack",
                self.pack.format
            )));
        }
        if self.pack.publisher.trim().is_empty() || self.pack.publisher.chars().count() > 120 {
            return Err(refuse(format!(
                "{MANIFEST_NAME}: pack.publisher must name the publisher in 1 to 120 characters"
            )));
        }
        if !is_version(&self.pack.version) {
            return Err(refuse(format!(
                "{MANIFEST_NAME}: pack.version `{}` is not a dotted version such as 2026.12.0",
                self.pack.version
            )));
        }
        if self.files.is_empty() || self.files.len() > MAX_FILES {
            return Err(refuse(format!(
                "{MANIFEST_NAME}: a pack lists 1 to {MAX_FILES} catalog files; this one lists {}",
                self.files.len()
            )));
        }
        for (i, f) in self.files.iter().enumerate() {
            if !is_catalog_file_name(&f.name) {
                return Err(refuse(format!(
                    "{MANIFEST_NAME}: files[{i}].name `{}` is not a plain catalog file name (lower-case letters, digits, '-', '_', '.', ending .toml, no folder)",
                    f.name
                )));
            }
            if self.files[..i].iter().any(|g| g.name == f.name) {
                return Err(refuse(format!("{MANIFEST_NAME}: {} is listed twice", f.name)));
            }
            if f.sha256.len() != 64
                || !f
                    .sha256
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            {
                return Err(refuse(format!(
                    "{MANIFEST_NAME}: files[{i}].sha256 of {} is not 64 lower-case hex digits",
                    f.name
                )));
            }
            if f.bytes > MAX_FILE_BYTES {
                return Err(refuse(format!(
                    "{MANIFEST_NAME}: {} is listed at {} bytes; a catalog file is at most {MAX_FILE_BYTES}",
                    f.name, f.bytes
                )));
            }
        }
        Ok(())
    }

    /// Checks `files` (name, bytes) against the manifest and loads them: every listed file
    /// present with its size and digest, nothing else, the version the files declare equal to
    /// the manifest's. Returns the catalog.
    pub fn check(&self, files: &[(String, Vec<u8>)]) -> Result<Catalog, PackRefusal> {
        for (name, _) in files {
            if !self.files.iter().any(|f| f.name == *name) {
                return Err(refuse(format!(
                    "{name} is in the pack but not in its manifest; a pack carries only the files its publisher signed"
                )));
            }
        }
        for f in &self.files {
            let Some((_, bytes)) = files.iter().find(|(n, _)| *n == f.name) else {
                return Err(refuse(format!(
                    "{} is listed in the manifest but missing from the pack",
                    f.name
                )));
            };
            if bytes.len() as u64 != f.bytes || sha256_hex(bytes) != f.sha256 {
                return Err(refuse(format!(
                    "{} does not match the SHA-256 its manifest gives: the file was changed after the pack was signed",
                    f.name
                )));
            }
        }
        let catalog = load_files(files)?;
        let declared = version_of(&catalog);
        if declared != self.pack.version {
            return Err(refuse(format!(
                "{MANIFEST_NAME}: pack.version is {} but its catalog files declare {declared}; the publisher must build the pack again",
                self.pack.version
            )));
        }
        Ok(catalog)
    }
}

/// Refuses a pack whose version is older than the catalog in use (a rollback), the same version
/// with different files (a publisher must raise the version when anything changes), or the very
/// catalog in use (nothing to apply).
pub fn check_not_older(pack_version: &str, in_use: &str, same_files: bool) -> Result<(), PackRefusal> {
    match compare_versions(pack_version, in_use) {
        Ordering::Less => Err(refuse(format!(
            "the pack carries catalog {pack_version}, older than the {in_use} in use; applying it would roll prices back, so it is refused. Ask the publisher for a pack newer than {in_use}"
        ))),
        Ordering::Equal if !same_files => Err(refuse(format!(
            "the pack carries catalog {pack_version}, the version in use, but its files differ; a publisher raises the version whenever a figure changes, so it is refused"
        ))),
        Ordering::Equal => Err(refuse(format!(
            "the pack carries catalog {pack_version}, which is already the catalog in use; there is nothing to apply"
        ))),
        _ => Ok(()),
    }
}

fn load_files(files: &[(String, Vec<u8>)]) -> Result<Catalog, PackRefusal> {
    let mut texts = Vec::with_capacity(files.len());
    for (name, bytes) in files {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| refuse(format!("{name} is not UTF-8 text (byte {})", e.valid_up_to())))?;
        texts.push((name.clone(), text.to_owned()));
    }
    load(&texts).map_err(|e| {
        let first = e.issues.first().map(ToString::to_string).unwrap_or_default();
        refuse(format!(
            "the pack's catalog files do not load ({} problem(s)); the first: {first}",
            e.issues.len()
        ))
    })
}

fn is_version(v: &str) -> bool {
    !v.is_empty()
        && v.len() <= 32
        && v.split('.')
            .all(|p| !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The data version of a catalog: the highest version among its files.
pub fn version_of(c: &Catalog) -> String {
    c.files
        .iter()
        .map(|f| f.version.clone())
        .max_by(|a, b| compare_versions(a, b))
        .unwrap_or_default()
}

/// Compares dotted versions ("2026.11.0") number by number.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    let parts = |s: &str| s.split('.').map(|p| p.parse::<u64>().unwrap_or(0)).collect::<Vec<_>>();
    parts(a).cmp(&parts(b))
}
