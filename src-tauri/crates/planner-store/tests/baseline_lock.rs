//! The locked baseline in the workspace file (issue #17): a file from before the lock opens
//! with none, a lock survives closing the file, and what it refuses leaves the file untouched.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::input::scenario_file;
use planner_core::engine::workspace::content::{BaselineLock, ViewState};
use planner_core::error::ErrorCode;
use planner_store::workspace::Workspace;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn catalog_files() -> Vec<(String, String)> {
    planner_store::read_catalog_dir(&repo().join("catalogs")).unwrap()
}

/// The enterprise hybrid sample in `dir/client.cpw`, both scenarios compared.
fn new_workspace(dir: &Path) -> Workspace {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    let file = scenario_file::parse(&text).unwrap();
    let (settings, _, _) = planner_core::engine::workspace::content::from_scenario_file(file.clone());
    let mut ws = Workspace::create(&dir.join("client.cpw"), &settings, &catalog_files(), NOW).unwrap();
    ws.import(&file, "enterprise-hybrid.json", NOW).unwrap();
    ws.set_view(&ViewState {
        selected: vec!["hybrid".to_owned(), "all-cloud".to_owned()],
        baseline: None,
        horizon_months: None,
    })
    .unwrap();
    ws
}

fn lock() -> BaselineLock {
    BaselineLock {
        scenarios: vec!["hybrid".to_owned(), "all-cloud".to_owned()],
        baseline: "hybrid".to_owned(),
        locked_at: "2026-11-26T10:41:00Z".to_owned(),
    }
}

fn bytes(path: &Path) -> (Vec<u8>, Vec<u8>) {
    let wal = PathBuf::from(format!("{}-wal", path.display()));
    (std::fs::read(path).unwrap(), std::fs::read(wal).unwrap_or_default())
}

#[test]
fn a_file_from_before_the_lock_opens_with_none_and_its_content_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("client.cpw");
    let before = {
        let ws = new_workspace(dir.path());
        ws.info(None).unwrap()
    };
    // Take the file back to schema 5, as the previous release wrote it.
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("DROP TABLE baseline_lock; PRAGMA user_version = 5;")
            .unwrap();
    }
    let ws = Workspace::open(&path).unwrap();
    let info = ws.info(None).unwrap();
    assert_eq!(info.lock, None);
    assert_eq!(info, before, "the migration changes nothing the workspace holds");
    drop(ws);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(v, 6);
}

#[test]
fn a_lock_survives_reopening_and_refusals_leave_the_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("client.cpw");
    {
        let mut ws = new_workspace(dir.path());
        // A step on a locked scenario, undone before the lock, for redo to meet.
        let mut s = ws.scenario("all-cloud").unwrap();
        s.staff_fte += rust_decimal::Decimal::ONE;
        ws.apply(
            &EditRequest {
                edit: Edit::PutScenario { scenario: s },
                label: "Edit all-cloud: staff".to_owned(),
                coalesce: None,
            },
            NOW,
        )
        .unwrap();
        ws.undo().unwrap().unwrap();
        ws.set_lock(&lock()).unwrap();
    }
    let mut ws = Workspace::open(&path).unwrap();
    assert_eq!(ws.lock().unwrap(), Some(lock()));
    assert_eq!(ws.info(None).unwrap().lock, Some(lock()));
    assert_eq!(ws.view().unwrap().baseline.as_deref(), Some("hybrid"));

    let before = bytes(&path);
    let err = ws.redo().unwrap_err();
    assert_eq!(err.code, ErrorCode::Locked);
    assert_eq!(
        err.message,
        "“Reserved H100 for the base, on-demand for bursts” is in the locked baseline (locked 2026-11-26 10:41 UTC): unlock it on the Compare tab (Unlock baseline) to redo “Edit all-cloud: staff”. Nothing was changed."
    );
    let err = ws.update_catalog(&catalog_files(), NOW).unwrap_err();
    assert_eq!(err.code, ErrorCode::Locked);
    assert!(
        err.message.starts_with(
            "The catalog snapshot feeds the figures of the locked baseline (locked 2026-11-26 10:41 UTC: “Two DGX H100"
        ),
        "{}",
        err.message
    );
    assert_eq!(bytes(&path), before, "a refusal writes nothing");
    assert!(ws.history().unwrap().can_redo, "the refused redo is still there");

    assert!(ws.clear_lock().unwrap());
    assert!(!ws.clear_lock().unwrap(), "nothing left to unlock");
    assert_eq!(ws.redo().unwrap().unwrap().label, "Edit all-cloud: staff");
    drop(ws);
    assert_eq!(Workspace::open(&path).unwrap().lock().unwrap(), None);
}

#[test]
fn a_read_only_workspace_cannot_be_locked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("client.cpw");
    drop(new_workspace(dir.path()));
    let mut ws = Workspace::open_read_only(&path).unwrap();
    assert_eq!(ws.set_lock(&lock()).unwrap_err().code, ErrorCode::WorkspaceReadOnly);
    assert_eq!(ws.lock().unwrap(), None);
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
