//! The catalog: the one the app ships and the workspace's snapshot of it.

use planner_core::catalog::Catalog;
use planner_core::error::PlannerError;
use planner_store::workspace::Applied;

use crate::host::{Host, with_workspace};

/// The catalog the app ships, freshly read and checked; on any error, every issue with file,
/// line and field.
pub fn shipped(host: &impl Host) -> Result<Catalog, PlannerError> {
    planner_store::load_catalog_dir(host.catalog_dir())
}

/// The catalog snapshot the open workspace computes with.
pub fn snapshot(host: &impl Host) -> Result<Catalog, PlannerError> {
    with_workspace(host, |ws| Ok(ws.catalog().clone()))
}

/// Replaces the workspace's catalog snapshot with the catalog the app ships (an undo step).
pub fn update(host: &impl Host) -> Result<Applied, PlannerError> {
    let files = planner_store::read_catalog_dir(host.catalog_dir())?;
    with_workspace(host, |ws| ws.update_catalog(&files))
}
