//! Identity commands: the signing identities kept by the app.

use std::path::Path;

use planner_app::identities;
use planner_core::error::PlannerError;
use planner_publish::identities::IdentitySummary;

use super::Host;

/// The signing identities kept by the app.
#[tauri::command]
#[specta::specta]
pub async fn list_identities(host: Host<'_>) -> Result<Vec<IdentitySummary>, PlannerError> {
    identities::list(&*host)
}

/// Makes a P-256 key with a self-signed certificate and keeps it encrypted with `passphrase`.
#[tauri::command]
#[specta::specta]
pub async fn create_identity(
    host: Host<'_>,
    name: String,
    organisation: String,
    email: Option<String>,
    passphrase: String,
) -> Result<IdentitySummary, PlannerError> {
    identities::create(&*host, &name, &organisation, email.as_deref(), &passphrase)
}

/// Imports an organisation's PKCS#12 identity (checked with its passphrase).
#[tauri::command]
#[specta::specta]
pub async fn import_identity(
    host: Host<'_>,
    path: String,
    passphrase: String,
) -> Result<IdentitySummary, PlannerError> {
    identities::import(&*host, Path::new(&path), &passphrase)
}

/// Writes an identity's certificate (PEM) to `path`, for a validator to trust.
#[tauri::command]
#[specta::specta]
pub async fn export_certificate(
    host: Host<'_>,
    identity: String,
    passphrase: String,
    path: String,
) -> Result<(), PlannerError> {
    identities::export_certificate(&*host, &identity, &passphrase, Path::new(&path))
}
