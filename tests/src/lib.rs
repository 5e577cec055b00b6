//! Integration tests live in tests/tests/; this library holds what several of them share.

use std::path::{Path, PathBuf};

use planner_core::engine::input::scenario_file::{self, ScenarioFile};
use planner_core::engine::workspace::content::from_scenario_file;
use planner_core::error::{ErrorCode, PlannerError};
use planner_store::Workspace;

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf)
}

/// The enterprise-hybrid sample scenario file, parsed.
pub fn sample_file() -> Result<ScenarioFile, String> {
    let path = repo_root().join("catalogs/samples/enterprise-hybrid.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    scenario_file::parse(&text).map_err(|p| format!("{}: {}", path.display(), p.message))
}

/// Creates a workspace at `path` with the shipped catalog and the settings, workloads and
/// scenarios of `file`.
pub fn create_workspace_from(path: &Path, file: &ScenarioFile) -> Result<Workspace, PlannerError> {
    let files = planner_store::read_catalog_dir(&repo_root().join("catalogs"))?;
    let (settings, _, _) = from_scenario_file(file.clone());
    let mut ws = Workspace::create(path, &settings, &files, NOW)?;
    ws.import(file, "enterprise-hybrid.json", NOW)?;
    Ok(ws)
}

/// Opens the workspace at `path`, waiting (up to 15 s) while another process holds it: an app
/// an end-to-end test just closed may still be shutting down, and it keeps the file in SQLite's
/// exclusive locking mode until it exits.
pub fn open_when_free(path: &Path) -> Result<Workspace, PlannerError> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        match Workspace::open(path) {
            Err(e) if e.code == ErrorCode::WorkspaceBusy && std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            other => return other,
        }
    }
}

/// A small linear congruential generator: the same "random" moments on every run, so a failure
/// can be replayed.
#[derive(Debug)]
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
