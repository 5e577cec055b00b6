//! Launch options: which catalog folder and which workspace file the window opens, where the
//! recent-workspaces list is kept, and where the sample workspaces and the user's documents are.

use std::path::PathBuf;

/// Resolved launch options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchOptions {
    pub catalog_dir: PathBuf,
    /// `--workspace FILE` or `PLANNER_WORKSPACE`: opened at start.
    pub workspace: Option<PathBuf>,
    /// `--read-only`: the launch workspace opens read-only even where it could be written
    /// (to review a file without any risk of changing it).
    pub read_only: bool,
    /// `PLANNER_CONFIG_DIR`: where the recent list lives (tests point it at a temporary
    /// folder); absent, the platform's configuration folder for the app.
    pub config_dir: Option<PathBuf>,
    /// `--samples DIR` or `PLANNER_SAMPLES_DIR`: the sample workspaces; absent, the shell looks
    /// in the installed resources, then (a development build) in the repository's `target/samples`.
    pub samples_dir: Option<PathBuf>,
    /// `PLANNER_DOCUMENTS_DIR`: where an opened sample is copied (tests point it at a temporary
    /// folder); absent, the platform's documents folder, else the home folder.
    pub documents_dir: Option<PathBuf>,
}

impl LaunchOptions {
    /// `--catalog DIR` wins, then `PLANNER_CATALOG`, then a `catalogs` folder beside the
    /// executable (installed layout), then the repository's `catalogs/` (development).
    pub fn from_env_and_args(args: impl Iterator<Item = String>) -> Result<LaunchOptions, String> {
        let mut catalog_dir = std::env::var_os("PLANNER_CATALOG").map(PathBuf::from);
        let mut workspace = std::env::var_os("PLANNER_WORKSPACE").map(PathBuf::from);
        let config_dir = std::env::var_os("PLANNER_CONFIG_DIR").map(PathBuf::from);
        let mut samples_dir = std::env::var_os("PLANNER_SAMPLES_DIR").map(PathBuf::from);
        let documents_dir = std::env::var_os("PLANNER_DOCUMENTS_DIR").map(PathBuf::from);
        let mut read_only = false;
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
                "--workspace" => {
                    let file = args
                        .next()
                        .ok_or("--workspace needs a file, e.g. --workspace client.cpw")?;
                    workspace = Some(PathBuf::from(file));
                }
                other if other.starts_with("--workspace=") => {
                    workspace = Some(PathBuf::from(&other["--workspace=".len()..]));
                }
                "--samples" => {
                    let dir = args
                        .next()
                        .ok_or("--samples needs a folder, e.g. --samples ./target/samples")?;
                    samples_dir = Some(PathBuf::from(dir));
                }
                other if other.starts_with("--samples=") => {
                    samples_dir = Some(PathBuf::from(&other["--samples=".len()..]));
                }
                "--read-only" => read_only = true,
                other => {
                    return Err(format!(
                        "unknown argument `{other}`; usage: compute-planner [--catalog DIR] [--samples DIR] [--workspace FILE [--read-only]]"
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
        if read_only && workspace.is_none() {
            return Err(
                "--read-only applies to the workspace opened at start; give it with --workspace FILE".to_owned(),
            );
        }
        Ok(LaunchOptions {
            catalog_dir,
            workspace,
            read_only,
            config_dir,
            samples_dir,
            documents_dir,
        })
    }
}

/// The repository's `target/samples` (what `cargo xtask samples` builds), for a development
/// build run from the repository; `None` when it does not exist (an installed app).
pub fn dev_samples_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/samples"));
    dir.is_dir().then_some(dir)
}

/// Whether `dri` (normally `/dev/dri`) holds a GPU render node (`renderD*`), that is whether
/// WebKit's hardware acceleration has a GPU to run on. Without one WebKitGTK composites with a
/// software GL (its DMA-BUF renderer), which costs time and memory and accelerates nothing: the
/// shell turns that renderer off before WebKit starts ([`disable_dmabuf_renderer_without_gpu`])
/// and sets the web view's hardware acceleration policy to "never". Measured with 1,000
/// scenarios on a 2-core machine without a GPU: first paint 950–1,393 ms and 396–408 MiB PSS
/// with WebKit's default (five launches), 766–872 ms (median 780 over seven) and 278–281 MiB
/// with "never".
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub fn has_gpu_render_node(dri: &std::path::Path) -> bool {
    std::fs::read_dir(dri).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

/// The variable that turns WebKitGTK's DMA-BUF renderer off; WebKit reads it once, when the
/// first web view is made.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub const DMABUF_RENDERER_VARIABLE: &str = "WEBKIT_DISABLE_DMABUF_RENDERER";

/// Whether the shell should turn WebKit's DMA-BUF renderer off: only when the machine has no
/// GPU render node (the renderer would run on a software GL) and the user has not set the
/// variable themselves (their choice, either way, stands).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub fn disable_dmabuf_renderer(gpu: bool, already_set: bool) -> bool {
    !gpu && !already_set
}

/// Turns WebKit's DMA-BUF renderer off when there is no GPU ([`disable_dmabuf_renderer`]).
/// The hardware acceleration policy (set on the web view once it exists) does not undo the
/// renderer's start-up: with the policy "never" but the renderer on, a 1,000-scenario workspace
/// painted first at a median of 810 ms (639–1,000, six launches) in 281–284 MiB PSS; with the
/// renderer off, 685 ms (569–798) in 274–277 MiB, alternating on the same build (issue #17).
///
/// # Safety
///
/// Sets an environment variable, so it must run while no other thread exists (first thing in
/// `main`, before Tauri, GTK or tokio start a thread).
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub unsafe fn disable_dmabuf_renderer_without_gpu() {
    let already_set = std::env::var_os(DMABUF_RENDERER_VARIABLE).is_some();
    if disable_dmabuf_renderer(has_gpu_render_node(std::path::Path::new("/dev/dri")), already_set) {
        // SAFETY: the caller guarantees no other thread exists that could read or write the
        // environment at the same time.
        unsafe { std::env::set_var(DMABUF_RENDERER_VARIABLE, "1") };
    }
}

#[cfg(test)]
mod renderer_tests {
    use super::{disable_dmabuf_renderer, has_gpu_render_node};

    #[test]
    fn a_gpu_is_seen_only_through_a_render_node() {
        let dir = tempfile::tempdir().unwrap();
        // No GPU: an empty or missing /dev/dri, or only a display card node.
        assert!(!has_gpu_render_node(dir.path()));
        assert!(!has_gpu_render_node(&dir.path().join("missing")));
        std::fs::write(dir.path().join("card0"), b"").unwrap();
        assert!(!has_gpu_render_node(dir.path()));
        std::fs::write(dir.path().join("renderD128"), b"").unwrap();
        assert!(has_gpu_render_node(dir.path()));
    }

    #[test]
    fn the_dmabuf_renderer_is_turned_off_only_without_a_gpu_and_a_choice() {
        assert!(disable_dmabuf_renderer(false, false));
        // A GPU keeps WebKit's default; a variable the user set stands (even "0").
        assert!(!disable_dmabuf_renderer(true, false));
        assert!(!disable_dmabuf_renderer(false, true));
        assert!(!disable_dmabuf_renderer(true, true));
    }
}
