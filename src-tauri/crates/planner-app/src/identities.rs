//! The signing identities the app keeps in its configuration folder.

use std::path::Path;

use planner_core::error::{ErrorCode, PlannerError};
use planner_publish::identities::{Identities, IdentitySummary};
use planner_sign::Identity;
use serde::Deserialize;

use crate::host::Host;

/// An identity to sign with, and why.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SignWith {
    /// The identity's id in the identities folder.
    pub identity: String,
    pub passphrase: String,
    /// Written into the signature: "Author", "Reviewer: approved", ...
    pub reason: String,
}

/// The identities folder of the host's configuration folder.
fn store(host: &impl Host) -> Result<Identities, PlannerError> {
    host.config_dir()
        .map(|d| Identities::new(&d.join("identities")))
        .ok_or_else(|| {
            PlannerError::new(
                ErrorCode::Io,
                "The app has no configuration folder to keep signing identities in.",
            )
        })
}

/// The signing identity `sign` names, unlocked with its passphrase; `None` when there is none.
pub fn open(host: &impl Host, sign: Option<&SignWith>) -> Result<Option<Identity>, PlannerError> {
    sign.map(|s| open_one(host, s)).transpose()
}

/// The signing identity `sign` names, unlocked with its passphrase.
pub fn open_one(host: &impl Host, sign: &SignWith) -> Result<Identity, PlannerError> {
    store(host)?.open(&sign.identity, &sign.passphrase)
}

/// Opens the PKCS#12 identity file at `path` with `passphrase`: the command line's way to sign,
/// since it keeps no identities folder.
pub fn open_file(path: &Path, passphrase: &str) -> Result<Identity, PlannerError> {
    let bytes = std::fs::read(path).map_err(|e| {
        PlannerError::new(
            ErrorCode::Io,
            format!("{}: cannot read the identity: {e}", path.display()),
        )
    })?;
    Identity::from_pkcs12(&bytes, passphrase)
        .map_err(|e| PlannerError::new(ErrorCode::InvalidInput, format!("{}: {e}", path.display())))
}

/// Makes a P-256 key with a self-signed certificate and writes it to `out` as PKCS#12 encrypted
/// with `passphrase` (the command line's identities are files); refused when `out` exists.
pub fn create_file(
    host: &impl Host,
    name: &str,
    organisation: &str,
    email: Option<&str>,
    passphrase: &str,
    out: &Path,
) -> Result<Identity, PlannerError> {
    if out.exists() {
        return Err(PlannerError::new(
            ErrorCode::Io,
            format!("{} already exists; choose another name.", out.display()),
        ));
    }
    let (identity, p12) =
        planner_publish::identities::new_identity(name, organisation, email, passphrase, host.now_ms())?;
    planner_store::files::write_atomic(out, &p12)?;
    Ok(identity)
}

/// The signing identities kept by the app.
pub fn list(host: &impl Host) -> Result<Vec<IdentitySummary>, PlannerError> {
    store(host)?.list()
}

/// Makes a P-256 key with a self-signed certificate and keeps it encrypted with `passphrase`.
pub fn create(
    host: &impl Host,
    name: &str,
    organisation: &str,
    email: Option<&str>,
    passphrase: &str,
) -> Result<IdentitySummary, PlannerError> {
    store(host)?.create(name, organisation, email, passphrase, host.now_ms())
}

/// Imports an organisation's PKCS#12 identity from `path` (checked with its passphrase).
pub fn import(host: &impl Host, path: &Path, passphrase: &str) -> Result<IdentitySummary, PlannerError> {
    store(host)?.import(path, passphrase)
}

/// Writes an identity's certificate (PEM) to `path`, for a validator to trust.
pub fn export_certificate(host: &impl Host, identity: &str, passphrase: &str, path: &Path) -> Result<(), PlannerError> {
    store(host)?.export_certificate(identity, passphrase, path)
}
