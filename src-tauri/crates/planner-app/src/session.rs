//! The workspace session: create, open, save as and close the workspace, and what the start
//! screen shows.

use std::path::{Path, PathBuf};

use planner_core::engine::workspace::content::{ViewState, WorkspaceSettings, from_scenario_file};
use planner_core::error::{ErrorCode, PlannerError};
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
    let shipped = crate::catalog::shipped(host).ok();
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
    drop(host.slots().replace_workspace(Some(ws)));
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
    let ws = Workspace::create(path, &settings, &files, now)?;
    install(host, ws)
}

/// Makes the workspace `out` from the scenario file `from` (its settings, workloads and
/// scenarios, with its first eight scenarios on the compare screen), titled `title` when given,
/// with a snapshot of the shipped catalog. It is not opened. The file is built whole under a
/// temporary name and appears only when complete: a bad scenario file (or a kill) leaves no
/// workspace behind, so trying again works. Returns what was imported.
pub fn create_from(host: &impl Host, out: &Path, title: Option<&str>, from: &Path) -> Result<Imported, PlannerError> {
    create_described(host, out, title, None, from)
}

/// [`create_from`], with `description` (when given) as the workspace's description: what the
/// plan is about, in a paragraph (the sample workspaces tell their story there).
pub fn create_described(
    host: &impl Host,
    out: &Path,
    title: Option<&str>,
    description: Option<&str>,
    from: &Path,
) -> Result<Imported, PlannerError> {
    let files = planner_store::read_catalog_dir(host.catalog_dir())?;
    let file = planner_store::files::read_scenario_file(from)?;
    let mut settings = from_scenario_file(file.clone()).0;
    if let Some(t) = title {
        t.clone_into(&mut settings.title);
    }
    if let Some(d) = description {
        settings.description = Some(d.to_owned());
    }
    let now = host.now_ms();
    let (_ws, imported) = Workspace::create_with(out, &settings, &files, now, |ws| {
        let imported = ws.import(&file, &file_name(from), now)?;
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

/// Whether `path` names a workspace file (by its extension, `.cpw`) rather than a scenario file.
pub fn is_workspace(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == planner_store::workspace::EXTENSION)
}

/// SQLite's integrity check of the open workspace.
pub fn check_integrity(host: &impl Host) -> Result<(), PlannerError> {
    with_workspace(host, |ws| ws.integrity_check())
}

/// Opens the workspace at `path` (closing the one open).
pub fn open(host: &impl Host, path: &Path) -> Result<WorkspaceInfo, PlannerError> {
    // Close first, so reopening the same file does not find it locked by ourselves.
    let previous = host.slots().replace_workspace(None);
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
    drop(host.slots().replace_workspace(None));
}

/// A sample workspace shipped with the app, as the start screen lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SampleInfo {
    /// The file's name without `.cpw`: what [`open_sample`] takes.
    pub id: String,
    pub title: String,
    /// The sample's story, from the workspace's description.
    pub description: String,
    /// Whether it can be opened; when not, `problem` says why.
    pub available: bool,
    pub problem: Option<String>,
}

/// The samples folder, or why there is none.
fn samples_folder(host: &impl Host) -> Result<&Path, PlannerError> {
    let fix = "reinstall Compute Planner, or in a development checkout run `cargo xtask samples` (it builds them into target/samples)";
    match host.samples_dir() {
        Some(dir) if dir.is_dir() => Ok(dir),
        Some(dir) => Err(PlannerError::new(
            ErrorCode::NotFound,
            format!("The sample workspaces' folder {} does not exist: {fix}.", dir.display()),
        )),
        None => Err(PlannerError::new(
            ErrorCode::NotFound,
            format!("This installation has no folder of sample workspaces: {fix}."),
        )),
    }
}

/// Every `<id>.cpw` in the samples folder, by id.
fn sample_files(host: &impl Host) -> Result<Vec<(String, PathBuf)>, PlannerError> {
    let dir = samples_folder(host)?;
    let entries = std::fs::read_dir(dir).map_err(|e| {
        PlannerError::new(
            ErrorCode::Io,
            format!("The sample workspaces' folder {} cannot be read: {e}.", dir.display()),
        )
    })?;
    let mut out: Vec<(String, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "cpw"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_owned(), p)))
        .collect();
    out.sort();
    Ok(out)
}

/// The sample workspaces shipped with the app: each one's id, title and story, read from the
/// file itself (opened read-only; a sample that cannot be opened is listed as unavailable, with
/// why).
pub fn samples(host: &impl Host) -> Result<Vec<SampleInfo>, PlannerError> {
    Ok(sample_files(host)?
        .into_iter()
        .map(|(id, path)| match Workspace::open_read_only(&path) {
            Ok(ws) => {
                let s = ws.settings();
                SampleInfo {
                    id,
                    title: s.title.clone(),
                    description: s.description.clone().unwrap_or_default(),
                    available: true,
                    problem: None,
                }
            }
            Err(e) => SampleInfo {
                title: id.clone(),
                id,
                description: String::new(),
                available: false,
                problem: Some(e.message),
            },
        })
        .collect())
}

/// Where the copy of sample `id` goes: `<documents>/Compute Planner/<id>.cpw`, else
/// `<id> (2).cpw` and so on: an earlier copy (with the user's edits) is never overwritten.
fn copy_target(host: &impl Host, id: &str) -> Result<PathBuf, PlannerError> {
    let docs = host.documents_dir().ok_or_else(|| {
        PlannerError::new(
            ErrorCode::Io,
            "No documents folder is known to copy the sample into: set PLANNER_DOCUMENTS_DIR to a folder you can write.",
        )
    })?;
    let folder = docs.join("Compute Planner");
    std::fs::create_dir_all(&folder).map_err(|e| {
        PlannerError::new(
            ErrorCode::Io,
            format!(
                "The sample cannot be copied: the folder {} cannot be created ({e}). Make the documents folder writable, or set PLANNER_DOCUMENTS_DIR to a folder you can write.",
                folder.display()
            ),
        )
    })?;
    (1..=999)
        .map(|n| match n {
            1 => folder.join(format!("{id}.cpw")),
            n => folder.join(format!("{id} ({n}).cpw")),
        })
        .find(|p| !p.exists())
        .ok_or_else(|| {
            PlannerError::new(
                ErrorCode::Io,
                format!(
                    "{} already holds 999 copies of the sample `{id}`: open one of them, or move them away.",
                    folder.display()
                ),
            )
        })
}

/// Copies the sample `id` into the user's documents folder (see [`copy_target`]) and opens the
/// copy as [`open`] does (closing the one open, adding it to the recent list). The shipped file
/// is only read.
pub fn open_sample(host: &impl Host, id: &str) -> Result<WorkspaceInfo, PlannerError> {
    let files = sample_files(host)?;
    let Some((_, source)) = files.iter().find(|(name, _)| name == id) else {
        let known: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
        return Err(PlannerError::new(
            ErrorCode::NotFound,
            format!(
                "There is no sample workspace `{id}`; the samples are: {}.",
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            ),
        ));
    };
    let target = copy_target(host, id)?;
    let previous = host.slots().replace_workspace(None);
    drop(previous);
    let sample = Workspace::open_read_only(source)?;
    let copy = sample.save_as(&target).map_err(|e| {
        PlannerError::new(
            e.code,
            format!(
                "The sample could not be copied to {}: {} Make the folder writable, or set PLANNER_DOCUMENTS_DIR to a folder you can write.",
                target.display(),
                e.message
            ),
        )
    })?;
    install(host, copy)
}
