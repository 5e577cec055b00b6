//! The workspace session: create, open, save as and close the workspace, and what the start
//! screen shows.

use std::path::Path;

use planner_core::error::PlannerError;
use planner_core::plan::{ViewState, WorkspaceSettings, from_scenario_file};
use planner_store::Workspace;
use planner_store::recent::{self, RecentFile};
use planner_store::workspace::{Imported, WorkspaceInfo};
use serde::Serialize;

use crate::host::{Host, file_name, with_workspace};

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
    let now = host.now_ms();
    let settings = WorkspaceSettings::new(title, planner_store::workspace::next_month_after(now));
    let ws = Workspace::create_at(path, &settings, &files, now)?;
    install(host, ws)
}

/// Makes the workspace `out` from the scenario file `from` (its settings, workloads and
/// scenarios, with its first eight scenarios on the compare screen), titled `title` when given,
/// with a snapshot of the shipped catalog. It is not opened. The file is built whole under a
/// temporary name and appears only when complete: a bad scenario file (or a kill) leaves no
/// workspace behind, so trying again works. Returns what was imported.
pub fn create_from(host: &impl Host, out: &Path, title: Option<&str>, from: &Path) -> Result<Imported, PlannerError> {
    let files = planner_store::read_catalog_dir(host.catalog_dir())?;
    let file = planner_store::files::read_scenario_file(from)?;
    let mut settings = from_scenario_file(file.clone()).0;
    if let Some(t) = title {
        t.clone_into(&mut settings.title);
    }
    let (_ws, imported) = Workspace::create_with_at(out, &settings, &files, host.now_ms(), |ws| {
        let imported = ws.import(&file, &file_name(from))?;
        let selected: Vec<String> = file.scenarios.iter().take(8).map(|s| s.id.clone()).collect();
        ws.set_view(&ViewState {
            selected,
            baseline: None,
            horizon_months: None,
        })?;
        Ok(imported)
    })?;
    Ok(imported)
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
