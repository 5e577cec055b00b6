//! The catalog: the one the app ships and the workspace's snapshot of it.

use planner_core::catalog::Catalog;
use planner_core::error::PlannerError;
use planner_store::Workspace;
use planner_store::workspace::{Applied, Changed};

use crate::host::{Host, with_workspace};

/// The catalog the app ships, freshly read and checked; on any error, every issue with file,
/// line and field.
pub fn shipped(host: &impl Host) -> Result<Catalog, PlannerError> {
    load(host.catalog_dir())
}

/// The catalog in the folder `dir` (a command that names a folder rather than the shipped one),
/// read and checked as [`shipped`] is.
pub fn load(dir: &std::path::Path) -> Result<Catalog, PlannerError> {
    planner_store::load_catalog_dir(dir)
}

/// The catalog snapshot the open workspace computes with.
pub fn snapshot(host: &impl Host) -> Result<Catalog, PlannerError> {
    with_workspace(host, |ws| Ok(ws.catalog().clone()))
}

/// Replaces the workspace's catalog snapshot with the catalog the app ships (an undo step).
pub fn update(host: &impl Host) -> Result<Applied, PlannerError> {
    let files = planner_store::read_catalog_dir(host.catalog_dir())?;
    with_workspace(host, |ws| {
        let applied = ws.update_catalog(&files, host.now_ms())?;
        Ok(weighed(host, ws, applied))
    })
}

/// `applied` with any catalog change's status weighed against the catalog the app ships (the
/// store alone does not know it), so the screen is told whether a newer one is available.
pub(crate) fn weighed(host: &impl Host, ws: &Workspace, mut applied: Applied) -> Applied {
    if applied.changed.iter().any(|c| matches!(c, Changed::Catalog { .. })) {
        let shipped = shipped(host).ok();
        for change in &mut applied.changed {
            if let Changed::Catalog { status } = change {
                *status = ws.catalog_status(shipped.as_ref());
            }
        }
    }
    applied
}
