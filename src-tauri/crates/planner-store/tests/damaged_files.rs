//! Issue #14: a damaged workspace file is reported as a sentence about the file (what is wrong,
//! what to do), with SQLite's words kept in the details; and a new workspace appears whole or not
//! at all.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_core::engine::input::scenario_file::{self, ScenarioFile};
use planner_core::error::{ErrorCode, PlannerError};
use planner_store::workspace::Workspace;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn catalog_files() -> Vec<(String, String)> {
    planner_store::read_catalog_dir(&repo().join("catalogs")).unwrap()
}

fn sample() -> ScenarioFile {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    scenario_file::parse(&text).unwrap()
}

/// A workspace with the sample imported, closed, at `dir/client.cpw`.
fn made(dir: &Path) -> PathBuf {
    let path = dir.join("client.cpw");
    let settings = planner_core::engine::workspace::content::from_scenario_file(sample()).0;
    let (ws, _) = Workspace::create_with(&path, &settings, &catalog_files(), NOW, |ws| {
        ws.import(&sample(), "sample.json", NOW)
    })
    .unwrap();
    drop(ws);
    path
}

/// Changes the file behind the app's back, as a damaged copy would be.
fn damage(path: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(sql).unwrap();
}

fn assert_damaged(err: &PlannerError, path: &Path, says: &str, sqlite: &str) {
    assert_eq!(err.code, ErrorCode::WorkspaceInvalid, "{err:?}");
    assert!(
        err.message.starts_with(&format!("{} is damaged: ", path.display())),
        "{}",
        err.message
    );
    assert!(err.message.contains(says), "{}", err.message);
    assert!(
        err.message
            .ends_with("Restore it from a backup or open a copy saved with Save As."),
        "{}",
        err.message
    );
    assert!(
        !err.message.contains(sqlite),
        "SQLite's words stay in the details: {}",
        err.message
    );
    assert!(
        err.details.iter().any(|d| d.message.contains(sqlite)),
        "{:?}",
        err.details
    );
}

#[test]
fn a_missing_table_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = made(dir.path());
    damage(&path, "DROP TABLE scenarios;");
    let ws = Workspace::open(&path).unwrap();
    let err = ws.scenario_summaries().unwrap_err();
    assert_damaged(
        &err,
        &path,
        "its table `scenarios` is missing (no such table)",
        "no such table: scenarios",
    );
}

#[test]
fn a_scenario_row_of_the_wrong_type_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = made(dir.path());
    // The table is strict, so the blob needs a table that is not: as an older tool would leave it.
    damage(
        &path,
        "ALTER TABLE scenarios RENAME TO old_scenarios;
         CREATE TABLE scenarios (id TEXT PRIMARY KEY, position INTEGER NOT NULL, name TEXT NOT NULL,
                                 summary TEXT NOT NULL, body TEXT NOT NULL);
         INSERT INTO scenarios SELECT * FROM old_scenarios;
         DROP TABLE old_scenarios;
         UPDATE scenarios SET body = X'00FF' WHERE rowid = (SELECT MIN(rowid) FROM scenarios);",
    );
    let ws = Workspace::open(&path).unwrap();
    let err = ws.all_scenarios().unwrap_err();
    assert_damaged(
        &err,
        &path,
        "a scenario row holds data of the wrong type (in column `body`)",
        "Invalid column type Blob",
    );
}

#[test]
fn a_missing_required_row_is_named() {
    for (table, sql) in [
        ("catalog_meta", "DELETE FROM catalog_meta;"),
        ("settings", "DELETE FROM settings;"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = made(dir.path());
        damage(&path, sql);
        let err = Workspace::open(&path).unwrap_err();
        assert!(
            err.message.contains("an item the workspace expects is missing"),
            "{table}: {err:?}"
        );
        assert_damaged(&err, &path, "is missing", "Query returned no rows");
    }
}

#[test]
fn a_failed_build_leaves_no_file_and_a_retry_works() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("client.cpw");
    let settings = planner_core::engine::workspace::content::from_scenario_file(sample()).0;
    let mut bad = sample();
    bad.workloads[0].id = "not an id!".to_owned();
    let err = Workspace::create_with(&path, &settings, &catalog_files(), NOW, |ws| {
        // The build writes only to a temporary file beside the target: the target never exists
        // half made, whenever the process dies.
        assert!(!path.exists());
        assert_ne!(ws.path(), path);
        assert_eq!(ws.path().parent(), path.parent());
        ws.import(&bad, "bad.json", NOW)
    })
    .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput, "{err:?}");
    assert!(!path.exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no temporary file is left"
    );

    let (ws, imported) = Workspace::create_with(&path, &settings, &catalog_files(), NOW, |ws| {
        ws.import(&sample(), "sample.json", NOW)
    })
    .unwrap();
    assert_eq!(imported.scenarios as usize, sample().scenarios.len());
    assert_eq!(ws.path(), path);
    assert_eq!(ws.all_scenarios().unwrap().len(), sample().scenarios.len());
    drop(ws);
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(left.iter().all(|n| !n.contains("partial")), "{left:?}");
    assert!(Workspace::open(&path).is_ok());
}

#[test]
fn a_file_that_appears_meanwhile_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("client.cpw");
    let settings = planner_core::engine::workspace::content::from_scenario_file(sample()).0;
    let err = Workspace::create_with(&path, &settings, &catalog_files(), NOW, |_| {
        std::fs::write(&path, b"someone else's file").map_err(|e| PlannerError::new(ErrorCode::Io, e.to_string()))
    })
    .unwrap_err();
    assert!(err.message.contains("nothing was replaced"), "{}", err.message);
    assert_eq!(std::fs::read(&path).unwrap(), b"someone else's file");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file is left"
    );
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
