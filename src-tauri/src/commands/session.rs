//! Session commands: create, open, save as, close; the start screen; the system file dialog.

use std::path::Path;

use planner_app::session::{self, SampleInfo, Session};
use planner_core::error::PlannerError;
use planner_store::workspace::WorkspaceInfo;

use super::Host;
use crate::dialogs::{self, FilePurpose};

/// The open workspace (if any), why the launch workspace failed (if it did), and the recent list.
#[tauri::command]
#[specta::specta]
pub async fn session(host: Host<'_>) -> Result<Session, PlannerError> {
    session::session(&*host)
}

/// Creates a workspace at `path` titled `title`, starting next month, with a snapshot of the
/// shipped catalog, and opens it.
#[tauri::command]
#[specta::specta]
pub async fn create_workspace(host: Host<'_>, path: String, title: String) -> Result<WorkspaceInfo, PlannerError> {
    session::create(&*host, Path::new(&path), &title)
}

/// Opens the workspace at `path` (closing the one open).
#[tauri::command]
#[specta::specta]
pub async fn open_workspace(host: Host<'_>, path: String) -> Result<WorkspaceInfo, PlannerError> {
    session::open(&*host, Path::new(&path))
}

/// Copies the open workspace to `path` and continues in the copy.
#[tauri::command]
#[specta::specta]
pub async fn save_workspace_as(host: Host<'_>, path: String) -> Result<WorkspaceInfo, PlannerError> {
    session::save_as(&*host, Path::new(&path))
}

/// Closes the open workspace (every edit is already saved).
#[tauri::command]
#[specta::specta]
pub async fn close_workspace(host: Host<'_>) -> Result<(), PlannerError> {
    session::close(&*host);
    Ok(())
}

/// The sample workspaces shipped with the app, for the start screen.
#[tauri::command]
#[specta::specta]
pub async fn list_samples(host: Host<'_>) -> Result<Vec<SampleInfo>, PlannerError> {
    session::samples(&*host)
}

/// Copies the sample `id` into the user's documents folder and opens the copy.
#[tauri::command]
#[specta::specta]
pub async fn open_sample(host: Host<'_>, id: String) -> Result<WorkspaceInfo, PlannerError> {
    session::open_sample(&*host, &id)
}

/// Asks the user for a file with the system dialog; `None` when they cancel.
#[tauri::command]
#[specta::specta]
pub async fn choose_file(app: tauri::AppHandle, purpose: FilePurpose) -> Result<Option<String>, PlannerError> {
    Ok(dialogs::choose(&app, purpose))
}
