//! Catalog commands: the shipped catalog and the workspace's snapshot.

use planner_app::catalog;
use planner_core::catalog::Catalog;
use planner_core::error::PlannerError;
use planner_store::workspace::Applied;

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
