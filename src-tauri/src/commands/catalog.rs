//! Catalog commands: the shipped catalog and the workspace's snapshot.

use planner_app::catalog;
use planner_app::packs::{self, CatalogFreshness, DownloadProgress, TrustedKey};
use planner_core::catalog::Catalog;
use planner_core::error::PlannerError;
use planner_store::workspace::{Applied, PackPreview};

use super::Host;

/// The catalog the app ships, freshly read and checked; on any error, every issue with file,
/// line and field.
#[tauri::command]
#[specta::specta]
pub async fn get_catalog(host: Host<'_>) -> Result<Catalog, PlannerError> {
    catalog::shipped(&*host)
}

/// The catalog snapshot the open workspace computes with.
#[tauri::command]
#[specta::specta]
pub async fn workspace_catalog(host: Host<'_>) -> Result<Catalog, PlannerError> {
    catalog::snapshot(&*host)
}

/// Replaces the workspace's catalog snapshot with the catalog the app ships (an undo step).
#[tauri::command]
#[specta::specta]
pub async fn update_catalog(host: Host<'_>) -> Result<Applied, PlannerError> {
    catalog::update(&*host)
}

/// The workspace catalog's origin (its pack signature checked again) and its stale figures today.
#[tauri::command]
#[specta::specta]
pub async fn catalog_freshness(host: Host<'_>) -> Result<CatalogFreshness, PlannerError> {
    packs::freshness(&*host)
}

/// The catalog publishers this computer trusts.
#[tauri::command]
#[specta::specta]
pub async fn pack_keys(host: Host<'_>) -> Result<Vec<TrustedKey>, PlannerError> {
    packs::keys(&*host)
}

/// Trusts a catalog publisher's public key (minisign format) under `label`.
#[tauri::command]
#[specta::specta]
pub async fn add_pack_key(host: Host<'_>, public_key: String, label: String) -> Result<Vec<TrustedKey>, PlannerError> {
    packs::add_key(&*host, &public_key, &label)
}

/// Stops trusting a publisher key the user added.
#[tauri::command]
#[specta::specta]
pub async fn remove_pack_key(host: Host<'_>, id: String) -> Result<Vec<TrustedKey>, PlannerError> {
    packs::remove_key(&*host, &id)
}

/// Opens and checks a catalog pack file and shows what it would change; nothing changes yet.
#[tauri::command]
#[specta::specta]
pub async fn open_pack(host: Host<'_>, path: String) -> Result<PackPreview, PlannerError> {
    packs::open_file(&*host, std::path::Path::new(&path))
}

/// Downloads a catalog pack from the address the user typed (the app's only network access),
/// checks it and shows what it would change; nothing changes yet.
#[tauri::command]
#[specta::specta]
pub async fn download_pack(host: Host<'_>, url: String) -> Result<PackPreview, PlannerError> {
    packs::download(&*host, &url)
}

/// How far the running download has come; null when none runs.
#[tauri::command]
#[specta::specta]
pub async fn download_progress(host: Host<'_>) -> Result<Option<DownloadProgress>, PlannerError> {
    Ok(packs::download_progress(&*host))
}

/// Stops the running download; false when none runs.
#[tauri::command]
#[specta::specta]
pub async fn cancel_download(host: Host<'_>) -> Result<bool, PlannerError> {
    Ok(packs::cancel_download(&*host))
}

/// Applies the previewed pack to the workspace's catalog (one undo step).
#[tauri::command]
#[specta::specta]
pub async fn apply_pack(host: Host<'_>) -> Result<Applied, PlannerError> {
    packs::apply(&*host)
}

/// Drops the previewed pack.
#[tauri::command]
#[specta::specta]
pub async fn discard_pack(host: Host<'_>) -> Result<(), PlannerError> {
    packs::discard(&*host);
    Ok(())
}
