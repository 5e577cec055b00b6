//! The CLI runs the app's use cases on a host of its own: the catalog folder given with
//! `--catalog`, the system clock, and no configuration folder (the command line keeps no recent
//! list and no identities; signing takes a PKCS#12 file).

use std::path::Path;

use planner_app::DesktopHost;
use planner_core::error::PlannerError;
use planner_store::workspace::WorkspaceInfo;

/// A host with the workspace at `path` open, and its summary.
pub fn open(catalog_dir: &Path, path: &Path) -> Result<(DesktopHost, WorkspaceInfo), PlannerError> {
    let host = DesktopHost::new(catalog_dir.to_path_buf(), None);
    let info = planner_app::session::open(&host, path)?;
    Ok((host, info))
}
