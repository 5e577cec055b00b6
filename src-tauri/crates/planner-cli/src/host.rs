//! The CLI runs the app's use cases on a host of its own: the catalog folder given with
//! `--catalog`, the system clock, and no configuration folder (the command line keeps no recent
//! list and no identities; signing takes a PKCS#12 file).

use std::path::Path;

use planner_app::DesktopHost;

/// The CLI's host over the catalog folder `catalog_dir`.
pub fn host(catalog_dir: &Path) -> DesktopHost {
    DesktopHost::new(catalog_dir.to_path_buf(), None, None, None)
}
