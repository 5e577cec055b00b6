//! Launch options: which catalog folder (and, later, which workspace file) the window opens.

use std::path::PathBuf;

/// Resolved launch options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchOptions {
    pub catalog_dir: PathBuf,
}

impl LaunchOptions {
    /// `--catalog DIR` wins, then `PLANNER_CATALOG`, then a `catalogs` folder beside the
    /// executable (installed layout), then the repository's `catalogs/` (development).
    pub fn from_env_and_args(args: impl Iterator<Item = String>) -> Result<LaunchOptions, String> {
        let mut catalog_dir = std::env::var_os("PLANNER_CATALOG").map(PathBuf::from);
        let mut args = args;
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--catalog" => {
                    let dir = args
                        .next()
                        .ok_or("--catalog needs a folder, e.g. --catalog ./catalogs")?;
                    catalog_dir = Some(PathBuf::from(dir));
                }
                other if other.starts_with("--catalog=") => {
                    catalog_dir = Some(PathBuf::from(&other["--catalog=".len()..]));
                }
                other => {
                    return Err(format!(
                        "unknown argument `{other}`; usage: compute-planner [--catalog DIR]"
                    ));
                }
            }
        }
        let catalog_dir = catalog_dir
            .or_else(|| {
                let beside = std::env::current_exe().ok()?.parent()?.join("catalogs");
                beside.is_dir().then_some(beside)
            })
            .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../catalogs")));
        Ok(LaunchOptions { catalog_dir })
    }
}
