//! What a use case may reach outside the domain: the folders, the clock and the open workspace.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use planner_core::catalog::Catalog;
use planner_core::engine::input::scenario_file::ScenarioFile;
use planner_core::engine::model::scenario::Plan;
use planner_core::engine::risk::run::Control;
use planner_core::error::{ErrorCode, PlannerError};
use planner_store::Workspace;

/// Everything a use case needs from where it runs. The desktop app runs on a [`DesktopHost`],
/// tests on a [`TestHost`]; both hold the open workspace in [`Slots`].
pub trait Host: Sync {
    /// The folder of the shipped catalog (with the checklist and quote templates beside it).
    fn catalog_dir(&self) -> &Path;
    /// The app's configuration folder (recent files, signing identities), if it has one.
    fn config_dir(&self) -> Option<&Path>;
    /// The folder of the sample workspaces shipped with the app (`<name>.cpw`), if it has one.
    fn samples_dir(&self) -> Option<&Path>;
    /// The user's documents folder, where a sample opened from the start screen is copied.
    fn documents_dir(&self) -> Option<&Path>;
    /// Now, in milliseconds since the Unix epoch (UTC).
    fn now_ms(&self) -> i64;
    /// The open workspace and why the launch workspace failed.
    fn slots(&self) -> &Slots;
}

/// The open workspace (at most one) and why the workspace named at launch did not open.
#[derive(Debug, Default)]
pub struct Slots {
    workspace: Mutex<Option<Workspace>>,
    launch_error: Mutex<Option<PlannerError>>,
    risk: Mutex<Option<Arc<Control>>>,
    /// The catalog pack previewed and waiting for Apply.
    pack: Mutex<Option<planner_store::pack::OpenedPack>>,
    download: Mutex<Option<Arc<Download>>>,
    /// The saved plan a what-if drag moves from, resolved once (see [`WhatIfBase`]).
    what_if_base: Mutex<Option<WhatIfBase>>,
}

/// The saved plan of the compared scenarios, resolved (validated, catalog figures taken) for the
/// what-if drivers: what each driver replaces and what the multipliers multiply. A drag sends
/// dozens of moves against the same saved plan, so it is resolved once and kept with the file
/// and catalog it was resolved from; a move whose file or catalog differs in anything (an
/// edit, an undo, a new horizon or selection, another catalog snapshot, another workspace)
/// resolves again. Kept in memory only, and dropped with the workspace it came from: nothing of
/// it is saved.
#[derive(Debug)]
pub(crate) struct WhatIfBase {
    file: ScenarioFile,
    catalog: Catalog,
    plan: Option<Plan>,
}

impl WhatIfBase {
    /// The resolved plan of `file` with `catalog`, from `slot` when it holds the same file and
    /// catalog, else resolved now and kept there.
    pub(crate) fn of<'a>(slot: &'a mut Option<WhatIfBase>, file: &ScenarioFile, catalog: &Catalog) -> Option<&'a Plan> {
        let same = slot.as_ref().is_some_and(|b| b.file == *file && b.catalog == *catalog);
        if !same {
            *slot = Some(WhatIfBase {
                file: file.clone(),
                catalog: catalog.clone(),
                plan: planner_core::engine::editing::what_if::resolve(file, catalog),
            });
        }
        slot.as_ref().and_then(|b| b.plan.as_ref())
    }
}

impl Slots {
    /// The open workspace, locked. A lock poisoned by an earlier panic is taken over: the
    /// workspace's state is on disk, in transactions, so nothing half-done is in memory.
    pub fn workspace(&self) -> MutexGuard<'_, Option<Workspace>> {
        self.workspace.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Puts `ws` in the workspace slot (`None` closes it) and returns the workspace that was
    /// there, with what was kept in memory for it (the what-if base) dropped.
    pub(crate) fn replace_workspace(&self, ws: Option<Workspace>) -> Option<Workspace> {
        let previous = std::mem::replace(&mut *self.workspace(), ws);
        *self.what_if_base() = None;
        previous
    }

    /// Why the workspace named at launch could not be opened, if it could not.
    pub fn launch_error(&self) -> Option<PlannerError> {
        self.launch_error.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub(crate) fn set_launch_error(&self, error: PlannerError) {
        *self.launch_error.lock().unwrap_or_else(PoisonError::into_inner) = Some(error);
    }

    /// The risk analysis running now, if one is: its progress and its cancel switch.
    pub fn running_risk(&self) -> Option<Arc<Control>> {
        self.risk.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Registers `control` as the running risk analysis; `false` when one is running already.
    pub(crate) fn start_risk(&self, control: Arc<Control>) -> bool {
        let mut slot = self.risk.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_some() {
            return false;
        }
        *slot = Some(control);
        true
    }

    pub(crate) fn end_risk(&self) {
        *self.risk.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    pub(crate) fn set_pack(&self, pack: Option<planner_store::pack::OpenedPack>) {
        *self.pack.lock().unwrap_or_else(PoisonError::into_inner) = pack;
    }

    pub(crate) fn take_pack(&self) -> Option<planner_store::pack::OpenedPack> {
        self.pack.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// The pack download running now, if one is.
    pub fn running_download(&self) -> Option<Arc<Download>> {
        self.download.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Registers a download; `false` when one is running already.
    pub(crate) fn start_download(&self, d: Arc<Download>) -> bool {
        let mut slot = self.download.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_some() {
            return false;
        }
        *slot = Some(d);
        true
    }

    /// The kept resolution of the saved plan for what-if moves, locked (see [`WhatIfBase`]).
    pub(crate) fn what_if_base(&self) -> MutexGuard<'_, Option<WhatIfBase>> {
        self.what_if_base.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn end_download(&self) {
        *self.download.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// A catalog pack download under way: its cancel switch and how far it has come (`packs`).
#[derive(Debug, Default)]
pub struct Download {
    pub(crate) cancel: AtomicBool,
    pub(crate) received: AtomicU64,
    /// The announced size plus one; 0 when unknown.
    pub(crate) total: AtomicU64,
}

/// The refusal of a use case that needs an open workspace when none is.
pub(crate) fn no_workspace() -> PlannerError {
    PlannerError::new(
        ErrorCode::NoWorkspace,
        "No workspace is open: create one or open one from the start screen.",
    )
}

/// Runs `f` on the open workspace, or refuses when none is open.
pub fn with_workspace<H: Host + ?Sized, T>(
    host: &H,
    f: impl FnOnce(&mut Workspace) -> Result<T, PlannerError>,
) -> Result<T, PlannerError> {
    let mut slot = host.slots().workspace();
    let ws = slot.as_mut().ok_or_else(no_workspace)?;
    f(ws)
}

/// The last part of `path` (what a history entry or an import names), or the whole path.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// The desktop app's host: the system clock.
#[derive(Debug)]
pub struct DesktopHost {
    catalog_dir: PathBuf,
    config_dir: Option<PathBuf>,
    samples_dir: Option<PathBuf>,
    documents_dir: Option<PathBuf>,
    slots: Slots,
}

impl DesktopHost {
    /// A host over the catalog folder, the configuration folder, the shipped samples' folder
    /// and the user's documents folder (each but the catalog optional).
    pub fn new(
        catalog_dir: PathBuf,
        config_dir: Option<PathBuf>,
        samples_dir: Option<PathBuf>,
        documents_dir: Option<PathBuf>,
    ) -> DesktopHost {
        DesktopHost {
            catalog_dir,
            config_dir,
            samples_dir,
            documents_dir,
            slots: Slots::default(),
        }
    }
}

impl Host for DesktopHost {
    fn catalog_dir(&self) -> &Path {
        &self.catalog_dir
    }

    fn config_dir(&self) -> Option<&Path> {
        self.config_dir.as_deref()
    }

    fn samples_dir(&self) -> Option<&Path> {
        self.samples_dir.as_deref()
    }

    fn documents_dir(&self) -> Option<&Path> {
        self.documents_dir.as_deref()
    }

    fn now_ms(&self) -> i64 {
        system_now_ms()
    }

    fn slots(&self) -> &Slots {
        &self.slots
    }
}

/// Milliseconds since the Unix epoch by the system clock (0 before 1970): the desktop host's
/// clock, and the only place outside the shell that reads it.
pub fn system_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A host for tests: given folders and a clock that stands still until moved.
#[derive(Debug)]
pub struct TestHost {
    catalog_dir: PathBuf,
    config_dir: Option<PathBuf>,
    samples_dir: Option<PathBuf>,
    documents_dir: Option<PathBuf>,
    now: AtomicI64,
    slots: Slots,
}

impl TestHost {
    /// A host reading the catalog in `catalog_dir`, keeping its configuration in `config_dir`,
    /// whose clock reads `now_ms`.
    pub fn new(catalog_dir: &Path, config_dir: Option<&Path>, now_ms: i64) -> TestHost {
        TestHost {
            catalog_dir: catalog_dir.to_path_buf(),
            config_dir: config_dir.map(Path::to_path_buf),
            samples_dir: None,
            documents_dir: None,
            now: AtomicI64::new(now_ms),
            slots: Slots::default(),
        }
    }

    /// The host with `dir` as the shipped samples' folder.
    #[must_use]
    pub fn with_samples_dir(mut self, dir: &Path) -> TestHost {
        self.samples_dir = Some(dir.to_path_buf());
        self
    }

    /// The host with `dir` as the user's documents folder.
    #[must_use]
    pub fn with_documents_dir(mut self, dir: &Path) -> TestHost {
        self.documents_dir = Some(dir.to_path_buf());
        self
    }

    /// Moves the clock forward by `ms`.
    pub fn advance(&self, ms: i64) {
        self.now.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Host for TestHost {
    fn catalog_dir(&self) -> &Path {
        &self.catalog_dir
    }

    fn config_dir(&self) -> Option<&Path> {
        self.config_dir.as_deref()
    }

    fn samples_dir(&self) -> Option<&Path> {
        self.samples_dir.as_deref()
    }

    fn documents_dir(&self) -> Option<&Path> {
        self.documents_dir.as_deref()
    }

    fn now_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }

    fn slots(&self) -> &Slots {
        &self.slots
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn the_what_if_base_is_dropped_with_its_workspace() {
        let file = planner_core::engine::input::scenario_file::parse(
            r#"{ "format_version": 1, "title": "t", "currency": "USD", "start": "2026-01",
                 "horizon_months": 12, "discount_rate": "0.08", "workloads": [], "scenarios": [] }"#,
        )
        .unwrap();
        let catalog = Catalog::default();
        let slots = Slots::default();
        WhatIfBase::of(&mut slots.what_if_base(), &file, &catalog);
        assert!(slots.what_if_base().is_some(), "a move keeps the base");
        assert!(slots.replace_workspace(None).is_none());
        assert!(slots.what_if_base().is_none(), "closing the workspace drops the base");
    }
}
