//! The workspace session: create, open, save as and close the workspace, and what the start
//! screen shows.

use std::path::Path;

use planner_core::error::PlannerError;
use planner_core::workspace::WorkspaceSettings;
use planner_store::Workspace;
use planner_store::recent::{self, RecentFile};
use planner_store::workspace::WorkspaceInfo;
use serde::Serialize;

use crate::host::{Host, with_workspace};

/// What the start screen needs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Session {
    pub workspace: Option<WorkspaceInfo>,
    /// Why the workspace named at launch (`--workspace`) could not be opened.
    pub launch_error: Option<PlannerError>,
    pub recent: Vec<RecentFile>,
}

/// The workspace's summary, with its catalog weighed against the shipped one.
fn info(host: &impl Host, ws: &Workspace) -> Result<WorkspaceInfo, PlannerError> {
    let shipped = planner_store::load_catalog_dir(host.catalog_dir()).ok();
    ws.info(shipped.as_ref())
}

/// Makes `ws` the open workspace and puts it first in the recent list.
fn install(host: &impl Host, ws: Workspace) -> Result<WorkspaceInfo, PlannerError> {
    let info = info(host, &ws)?;
    if let Some(dir) = host.config_dir() {
        // The recent list is a convenience: failing to save it must not fail the open.
        let _ = recent::note_recent(
            dir,
            ws.path(),
            &ws.settings().title,
            &planner_store::workspace::format_utc(host.now_ms()),
        );
    }
    *host.slots().workspace() = Some(ws);
    Ok(info)
}

/// The open workspace (if any), why the launch workspace failed (if it did), and the recent list.
pub fn session(host: &impl Host) -> Result<Session, PlannerError> {
    let workspace = match host.slots().workspace().as_ref() {
        Some(ws) => Some(info(host, ws)?),
        None => None,
    };
    Ok(Session {
        workspace,
        launch_error: host.slots().launch_error(),
        recent: host.config_dir().map(recent::read_recent).unwrap_or_default(),
    })
}

/// Creates a workspace at `path` titled `title`, starting next month, with a snapshot of the
/// shipped catalog, and opens it.
pub fn create(host: &impl Host, path: &Path, title: &str) -> Result<WorkspaceInfo, PlannerError> {
    let files = planner_store::read_catalog_dir(host.catalog_dir())?;
    let settings = WorkspaceSettings::new(title, planner_store::workspace::next_month());
    let ws = Workspace::create(path, &settings, &files)?;
    install(host, ws)
}

/// Opens the workspace at `path` (closing the one open).
pub fn open(host: &impl Host, path: &Path) -> Result<WorkspaceInfo, PlannerError> {
    // Close first, so reopening the same file does not find it locked by ourselves.
    let previous = host.slots().workspace().take();
    drop(previous);
    let ws = Workspace::open(path)?;
    install(host, ws)
}

/// Opens the workspace named at launch (read-only when asked); why it failed, if it does, is
/// kept for the start screen instead of being returned.
pub fn launch(host: &impl Host, path: &Path, read_only: bool) {
    let opened = if read_only {
        Workspace::open_read_only(path)
    } else {
        Workspace::open(path)
    };
    if let Err(e) = opened.and_then(|ws| install(host, ws)) {
        host.slots().set_launch_error(e);
    }
}

/// Copies the open workspace to `path` and continues in the copy.
pub fn save_as(host: &impl Host, path: &Path) -> Result<WorkspaceInfo, PlannerError> {
    let copy = with_workspace(host, |ws| ws.save_as(path))?;
    install(host, copy)
}

/// Closes the open workspace (every edit is already saved).
pub fn close(host: &impl Host) {
    drop(host.slots().workspace().take());
}
