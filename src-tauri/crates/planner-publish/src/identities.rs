//! Signing identities kept in a folder (the app's configuration folder, `identities/`).
//!
//! Each identity is two files named after its id: `<id>.p12`, the private key and certificate as
//! a PKCS#12 file encrypted with the owner's passphrase (one the app made, or one imported from
//! the organisation, copied unchanged), and `<id>.json`, what the certificate says in the open
//! (name, organisation, fingerprint, validity), so the list can be shown without asking for any
//! passphrase. The passphrase is never stored.

use std::path::{Path, PathBuf};

use planner_core::error::{ErrorCode, PlannerError};
use planner_sign::Identity;
use planner_store::files::write_atomic;
use planner_store::workspace::UtcTime;
use serde::{Deserialize, Serialize};

/// The shortest passphrase accepted for a new identity.
pub const MIN_PASSPHRASE: usize = 8;
/// How long a certificate made here is valid, in days (three years, the planning horizon).
pub const VALID_DAYS: u32 = 3 * 365;

/// An identity as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct IdentitySummary {
    /// The file stem in the identities folder.
    pub id: String,
    pub common_name: Option<String>,
    pub organisation: Option<String>,
    pub email: Option<String>,
    pub issuer: String,
    pub not_before: String,
    pub not_after: String,
    /// SHA-256 fingerprint of the certificate, lowercase hex.
    pub sha256: String,
    pub self_signed: bool,
    /// "made here" or "imported".
    pub origin: String,
}

fn io(path: &Path, what: &str, e: &std::io::Error) -> PlannerError {
    PlannerError::new(ErrorCode::Io, format!("{}: cannot {what}: {e}", path.display()))
}

fn invalid(field: &str, message: String) -> PlannerError {
    PlannerError::invalid(field, message)
}

/// A PKCS#12 file that does not open: a wrong passphrase is placed on the `passphrase` field,
/// so the form shows it where it is typed; anything else is about the file.
fn pkcs12_refusal(e: &planner_sign::SignError, message: String) -> PlannerError {
    if matches!(e, planner_sign::SignError::WrongPassphrase) {
        invalid("passphrase", message)
    } else {
        PlannerError::new(ErrorCode::InvalidInput, message)
    }
}

/// A file-name-safe id from a name: lowercase letters, digits and dashes.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_owned();
    if out.is_empty() { "identity".to_owned() } else { out }
}

fn summary(id: &str, identity: &Identity, origin: &str) -> IdentitySummary {
    let c = identity.certificate();
    IdentitySummary {
        id: id.to_owned(),
        common_name: c.common_name,
        organisation: c.organisation,
        email: c.email,
        issuer: c.issuer,
        not_before: c.not_before,
        not_after: c.not_after,
        sha256: c.sha256_fingerprint,
        self_signed: c.self_signed,
        origin: origin.to_owned(),
    }
}

/// A new P-256 key with a self-signed certificate for `name` at `organisation`, valid from
/// `now_ms` for [`VALID_DAYS`], and the same as a PKCS#12 file encrypted with `passphrase`.
pub fn new_identity(
    name: &str,
    organisation: &str,
    email: Option<&str>,
    passphrase: &str,
    now_ms: i64,
) -> Result<(Identity, Vec<u8>), PlannerError> {
    if name.trim().is_empty() {
        return Err(invalid(
            "name",
            "give the signer's name, as it should appear on signatures".to_owned(),
        ));
    }
    if organisation.trim().is_empty() {
        return Err(invalid("organisation", "give the signer's organisation".to_owned()));
    }
    if passphrase.chars().count() < MIN_PASSPHRASE {
        return Err(invalid(
            "passphrase",
            format!("the passphrase must have at least {MIN_PASSPHRASE} characters; it encrypts the private key"),
        ));
    }
    let from = crate::timestamp(UtcTime::from_ms(now_ms));
    let email = email.map(str::trim).filter(|e| !e.is_empty());
    let identity = Identity::create(name.trim(), organisation.trim(), email, from, VALID_DAYS)
        .map_err(|e| PlannerError::new(ErrorCode::InvalidInput, format!("The identity could not be made: {e}.")))?;
    let p12 = identity.to_pkcs12(passphrase, name.trim()).map_err(|e| {
        PlannerError::new(
            ErrorCode::InvalidInput,
            format!("The identity could not be stored: {e}."),
        )
    })?;
    Ok((identity, p12))
}

/// The identities folder.
#[derive(Debug, Clone)]
pub struct Identities {
    dir: PathBuf,
}

impl Identities {
    pub fn new(dir: &Path) -> Identities {
        Identities { dir: dir.to_path_buf() }
    }

    fn p12(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.p12"))
    }

    fn sidecar(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// An id not yet taken, from `name`.
    fn free_id(&self, name: &str) -> String {
        let base = slug(name);
        let mut id = base.clone();
        let mut n = 2;
        while self.p12(&id).exists() || self.sidecar(&id).exists() {
            id = format!("{base}-{n}");
            n += 1;
        }
        id
    }

    fn save(&self, id: &str, p12: &[u8], s: &IdentitySummary) -> Result<(), PlannerError> {
        std::fs::create_dir_all(&self.dir).map_err(|e| io(&self.dir, "create the identities folder", &e))?;
        let json = serde_json::to_vec_pretty(s)
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("the identity could not be written: {e}")))?;
        write_atomic(&self.p12(id), p12)?;
        write_atomic(&self.sidecar(id), &json)
    }

    /// Every identity in the folder, by name. A folder that does not exist holds none; a sidecar
    /// that cannot be read is left out of the list (its PKCS#12 file is untouched).
    pub fn list(&self) -> Result<Vec<IdentitySummary>, PlannerError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io(&self.dir, "read the identities folder", &e)),
        };
        let mut out: Vec<IdentitySummary> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .filter_map(|p| std::fs::read(&p).ok())
            .filter_map(|b| serde_json::from_slice::<IdentitySummary>(&b).ok())
            .filter(|s| self.p12(&s.id).is_file())
            .collect();
        out.sort_by(|a, b| a.common_name.cmp(&b.common_name).then(a.id.cmp(&b.id)));
        Ok(out)
    }

    /// Makes a new identity (see [`new_identity`]) and stores it in the folder.
    pub fn create(
        &self,
        name: &str,
        organisation: &str,
        email: Option<&str>,
        passphrase: &str,
        now_ms: i64,
    ) -> Result<IdentitySummary, PlannerError> {
        let (identity, p12) = new_identity(name, organisation, email, passphrase, now_ms)?;
        let id = self.free_id(name);
        let s = summary(&id, &identity, "made here");
        self.save(&id, &p12, &s)?;
        Ok(s)
    }

    /// Imports the PKCS#12 file at `path` (checked by opening it with `passphrase`), copied
    /// unchanged into the folder.
    pub fn import(&self, path: &Path, passphrase: &str) -> Result<IdentitySummary, PlannerError> {
        let bytes = std::fs::read(path).map_err(|e| io(path, "read the PKCS#12 file", &e))?;
        let identity = Identity::from_pkcs12(&bytes, passphrase)
            .map_err(|e| pkcs12_refusal(&e, format!("{}: {e}", path.display())))?;
        let name = identity.certificate().common_name.unwrap_or_else(|| {
            path.file_stem()
                .map_or_else(|| "identity".to_owned(), |s| s.to_string_lossy().into_owned())
        });
        let id = self.free_id(&name);
        let s = summary(&id, &identity, "imported");
        self.save(&id, &bytes, &s)?;
        Ok(s)
    }

    /// Opens identity `id` with its passphrase.
    pub fn open(&self, id: &str, passphrase: &str) -> Result<Identity, PlannerError> {
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(invalid(
                "identity",
                format!("`{}` is not an identity id", planner_sign::shorten(id)),
            ));
        }
        let path = self.p12(id);
        let bytes = std::fs::read(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                PlannerError::new(
                    ErrorCode::NotFound,
                    format!(
                        "There is no identity `{}`; create or import one first.",
                        planner_sign::shorten(id)
                    ),
                )
            } else {
                io(&path, "read the identity", &e)
            }
        })?;
        Identity::from_pkcs12(&bytes, passphrase)
            .map_err(|e| pkcs12_refusal(&e, format!("Identity `{}`: {e}", planner_sign::shorten(id))))
    }

    /// Writes identity `id`'s certificate (public) as PEM to `out`, for a reviewer or validator
    /// to trust.
    pub fn export_certificate(&self, id: &str, passphrase: &str, out: &Path) -> Result<(), PlannerError> {
        let identity = self.open(id, passphrase)?;
        write_atomic(out, identity.certificate_pem().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn ids_are_file_name_safe() {
        assert_eq!(slug("Ada Lovelace"), "ada-lovelace");
        assert_eq!(slug("  Zoë  O'Neil, CFO "), "zo-o-neil-cfo");
        assert_eq!(slug("../../etc"), "etc");
        assert_eq!(slug("***"), "identity");
    }
}
