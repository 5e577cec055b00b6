//! The workspace file: round trips, undo and redo, the catalog snapshot, refusals that leave a
//! file untouched, save-as and import.
// Test code: a failed unwrap is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::input::scenario_file::{self, ScenarioFile};
use planner_core::engine::workspace::content::{ViewState, WorkspaceSettings};
use planner_core::error::ErrorCode;
use planner_store::workspace::Workspace;
use rust_decimal::Decimal;

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

fn settings() -> WorkspaceSettings {
    let (s, _, _) = planner_core::engine::workspace::content::from_scenario_file(sample());
    s
}

fn new_workspace(dir: &Path) -> Workspace {
    let mut ws = Workspace::create(&dir.join("client.cpw"), &settings(), &catalog_files(), NOW).unwrap();
    ws.import(&sample(), "enterprise-hybrid.json", NOW).unwrap();
    ws
}

fn put_scenario(ws: &mut Workspace, id: &str, staff: &str, at: i64, coalesce: Option<&str>) {
    let mut s = ws.scenario(id).unwrap();
    s.staff_fte = staff.parse().unwrap();
    ws.apply(
        &EditRequest {
            edit: Edit::PutScenario { scenario: s },
            label: format!("Edit {id}: staff"),
            coalesce: coalesce.map(str::to_owned),
        },
        at,
    )
    .unwrap();
}

fn staff(ws: &Workspace, id: &str) -> Decimal {
    ws.scenario(id).unwrap().staff_fte
}

fn total_cash(ws: &mut Workspace, ids: &[&str]) -> Vec<Decimal> {
    ws.set_view(&ViewState {
        selected: ids.iter().map(|s| (*s).to_owned()).collect(),
        baseline: None,
        horizon_months: None,
    })
    .unwrap();
    // The selection read back and evaluated by the core, as the app's compare does.
    let view = ws.view().unwrap();
    let chosen: Vec<_> = view.selected.iter().map(|id| ws.scenario(id).unwrap()).collect();
    let (cmp, _) = planner_core::engine::workspace::content::compare_selection(
        ws.catalog(),
        ws.settings(),
        ws.workloads(),
        &chosen,
        &view,
    );
    assert!(cmp.problems.is_empty(), "{:?}", cmp.problems);
    cmp.view.unwrap().scenarios.iter().map(|s| s.total_cash).collect()
}

#[test]
fn a_workspace_reopens_with_everything_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("client.cpw");
    let (ids, totals) = {
        let mut ws = new_workspace(dir.path());
        put_scenario(&mut ws, "hybrid", "1.5", 1_000, None);
        let ids: Vec<String> = ws.scenario_summaries().unwrap().into_iter().map(|s| s.id).collect();
        let totals = total_cash(&mut ws, &["hybrid", "all-cloud"]);
        (ids, totals)
    };
    assert_eq!(ids, ["hybrid", "all-cloud"]);
    let mut ws = Workspace::open(&path).unwrap();
    assert_eq!(ws.workloads().len(), 2);
    assert_eq!(staff(&ws, "hybrid"), Decimal::new(15, 1));
    assert_eq!(ws.view().unwrap().selected, ["hybrid", "all-cloud"]);
    assert_eq!(total_cash(&mut ws, &["hybrid", "all-cloud"]), totals);
    // The same numbers as the engine computes from the JSON file with the edit applied.
    let mut file = sample();
    file.scenarios[0].staff_fte = Decimal::new(15, 1);
    let catalog = planner_core::catalog::load(&catalog_files()).unwrap();
    let plan = planner_core::engine::resolve::validate::validate(&catalog, &file, None).unwrap();
    let eval = planner_core::engine::costing::evaluate::evaluate(&plan);
    let expected: Vec<Decimal> = eval
        .scenarios
        .iter()
        .map(|s| planner_core::engine::blocks::finance::present(s.totals.total_cash))
        .collect();
    assert_eq!(totals, expected);
    ws.integrity_check().unwrap();
}

#[test]
fn undo_and_redo_walk_the_journal_and_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("client.cpw");
    let before = {
        let mut ws = new_workspace(dir.path());
        let before = staff(&ws, "hybrid");
        put_scenario(&mut ws, "hybrid", "3", 10_000, None);
        put_scenario(&mut ws, "hybrid", "4", 20_000, None);
        let h = ws.history().unwrap();
        assert!(h.can_undo && !h.can_redo);
        assert_eq!(h.undo_label.as_deref(), Some("Edit hybrid: staff"));
        let undone = ws.undo().unwrap().unwrap();
        assert_eq!(undone.label, "Edit hybrid: staff");
        assert_eq!(staff(&ws, "hybrid"), Decimal::from(3));
        before
    };
    // Redo works after closing and reopening.
    let mut ws = Workspace::open(&path).unwrap();
    assert!(ws.history().unwrap().can_redo);
    ws.redo().unwrap().unwrap();
    assert_eq!(staff(&ws, "hybrid"), Decimal::from(4));
    ws.undo().unwrap().unwrap();
    ws.undo().unwrap().unwrap();
    assert_eq!(staff(&ws, "hybrid"), before);
    // Undoing the import removes both scenarios and both workloads.
    let applied = ws.undo().unwrap().unwrap();
    assert_eq!(applied.label, "Import enterprise-hybrid.json");
    assert!(ws.scenario_summaries().unwrap().is_empty());
    assert!(ws.workloads().is_empty());
    assert!(ws.undo().unwrap().is_none(), "nothing left to undo");
    ws.redo().unwrap().unwrap();
    assert_eq!(ws.scenario_summaries().unwrap().len(), 2);
    // A new edit drops what could have been redone.
    put_scenario(&mut ws, "all-cloud", "2", 30_000, None);
    assert!(!ws.history().unwrap().can_redo);
    assert!(ws.redo().unwrap().is_none());
}

#[test]
fn typing_in_one_field_is_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let before = staff(&ws, "hybrid");
    for (i, v) in ["1", "12", "12.5"].iter().enumerate() {
        put_scenario(&mut ws, "hybrid", v, 100_000 + 500 * i as i64, Some("hybrid.staff_fte"));
    }
    // Same key, but 5 s later: a new step.
    put_scenario(&mut ws, "hybrid", "13", 106_000, Some("hybrid.staff_fte"));
    ws.undo().unwrap().unwrap();
    assert_eq!(staff(&ws, "hybrid"), Decimal::new(125, 1));
    ws.undo().unwrap().unwrap();
    assert_eq!(staff(&ws, "hybrid"), before, "three keystrokes were one step");
}

/// The shipped catalog with the AWS p5 on-demand rate raised from 6.88 to `rate`, at `version`.
fn catalog_with_aws_rate(rate: &str, version: &str) -> Vec<(String, String)> {
    let mut files = catalog_files();
    let mut touched = false;
    for (name, text) in &mut files {
        *text = text.replace("version = \"2026.11.0\"", &format!("version = \"{version}\""));
        if name.ends_with("offers.toml") {
            let before = text.clone();
            *text = text.replacen(
                "on_demand_per_gpu_hour = { value = 6.88, note = \"55.04",
                &format!("on_demand_per_gpu_hour = {{ value = {rate}, note = \"55.04"),
                1,
            );
            touched = *text != before;
        }
    }
    assert!(touched, "the AWS p5 rate is where the test expects it");
    files
}

#[test]
fn the_snapshot_keeps_the_numbers_until_the_catalog_is_updated() {
    let dir = tempfile::tempdir().unwrap();
    // A workspace made in September, when (in this test) AWS p5 cost 9.00 per GPU-hour.
    let path = dir.path().join("old.cpw");
    let mut ws = Workspace::create(&path, &settings(), &catalog_with_aws_rate("9.00", "2026.9.0"), NOW).unwrap();
    ws.import(&sample(), "enterprise-hybrid.json", NOW).unwrap();
    let september = total_cash(&mut ws, &["hybrid", "all-cloud"]);
    let shipped = planner_core::catalog::load(&catalog_files()).unwrap();
    let status = ws.catalog_status(Some(&shipped));
    assert_eq!(status.version, "2026.9.0");
    assert_eq!(status.shipped_version.as_deref(), Some("2026.11.0"));
    assert!(status.newer_available);
    // Updating is deliberate: the numbers change only now, to what the shipped catalog gives.
    let applied = ws.update_catalog(&catalog_files(), NOW).unwrap();
    assert_eq!(applied.label, "Update catalog 2026.9.0 → 2026.11.0");
    assert!(!ws.catalog_status(Some(&shipped)).newer_available);
    let november = total_cash(&mut ws, &["hybrid", "all-cloud"]);
    let fresh = {
        let dir2 = tempfile::tempdir().unwrap();
        let mut w2 = new_workspace(dir2.path());
        total_cash(&mut w2, &["hybrid", "all-cloud"])
    };
    assert_eq!(november, fresh);
    assert!(
        november[0] < september[0],
        "on-demand bursts are cheaper at 6.88 than at 9.00"
    );
    ws.undo().unwrap().unwrap();
    assert_eq!(total_cash(&mut ws, &["hybrid", "all-cloud"]), september);
    drop(ws);
    let mut ws = Workspace::open(&path).unwrap();
    assert_eq!(ws.catalog_status(None).version, "2026.9.0", "the undo was saved");
    assert_eq!(total_cash(&mut ws, &["hybrid", "all-cloud"]), september);
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

fn leftovers(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_newer_workspace_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("future.cpw");
    drop(new_workspace(dir.path()));
    std::fs::rename(dir.path().join("client.cpw"), &path).unwrap();
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", planner_store::workspace::SCHEMA_VERSION + 1)
            .unwrap();
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    let before = bytes(&path);
    let files_before = leftovers(dir.path());
    let err = Workspace::open(&path).unwrap_err();
    assert_eq!(err.code, ErrorCode::WorkspaceNewer);
    assert!(err.message.contains("newer version"), "{}", err.message);
    let future = format!("schema {}", planner_store::workspace::SCHEMA_VERSION + 1);
    assert!(err.message.contains(&future), "{}", err.message);
    assert!(err.message.contains("Nothing was changed"), "{}", err.message);
    assert_eq!(bytes(&path), before);
    assert_eq!(
        leftovers(dir.path()),
        files_before,
        "no journal or lock file left beside it"
    );
}

#[test]
fn files_that_are_not_workspaces_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.cpw");
    std::fs::write(&text, "these are meeting notes, not a database\n".repeat(10)).unwrap();
    let empty = dir.path().join("empty.cpw");
    std::fs::write(&empty, "").unwrap();
    let other = dir.path().join("other.sqlite");
    {
        let conn = rusqlite::Connection::open(&other).unwrap();
        conn.execute_batch("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);")
            .unwrap();
    }
    let files_before = leftovers(dir.path());
    for (path, expect) in [
        (&text, "not an SQLite database"),
        (&empty, "not an SQLite database"),
        (&other, "not a Compute Planner workspace"),
    ] {
        let before = bytes(path);
        let err = Workspace::open(path).unwrap_err();
        assert_eq!(err.code, ErrorCode::WorkspaceInvalid, "{}", path.display());
        assert!(err.message.contains(expect), "{}", err.message);
        assert!(err.message.contains(&path.display().to_string()), "{}", err.message);
        assert_eq!(bytes(path), before);
    }
    assert_eq!(leftovers(dir.path()), files_before);
    let missing = Workspace::open(&dir.path().join("missing.cpw")).unwrap_err();
    assert_eq!(missing.code, ErrorCode::NotFound);
}

#[test]
fn a_workspace_open_elsewhere_is_busy() {
    let dir = tempfile::tempdir().unwrap();
    let ws = new_workspace(dir.path());
    let err = Workspace::open(ws.path()).unwrap_err();
    assert_eq!(err.code, ErrorCode::WorkspaceBusy, "{}", err.message);
    drop(ws);
    assert!(Workspace::open(&dir.path().join("client.cpw")).is_ok());
}

#[test]
fn save_as_copies_everything_and_leaves_the_original() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    put_scenario(&mut ws, "hybrid", "2", 1_000, None);
    let copy = ws.save_as(&dir.path().join("copy.cpw")).unwrap();
    assert_eq!(copy.scenario_summaries().unwrap(), ws.scenario_summaries().unwrap());
    assert_eq!(copy.settings(), ws.settings());
    assert!(copy.history().unwrap().can_undo, "the journal goes along");
    assert_eq!(copy.catalog_status(None).version, ws.catalog_status(None).version);
    assert!(ws.save_as(&dir.path().join("copy.cpw")).is_err(), "never overwrites");
}

#[test]
fn import_renames_taken_ids_and_refuses_another_currency_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let again = ws.import(&sample(), "enterprise-hybrid.json", NOW).unwrap();
    assert_eq!(again.scenarios, 2);
    assert!(
        again.renamed.contains(&"scenario hybrid → hybrid-2".to_owned()),
        "{:?}",
        again.renamed
    );
    assert!(
        again
            .renamed
            .contains(&"workload batch-inference → batch-inference-2".to_owned()),
        "{:?}",
        again.renamed
    );
    let ids: Vec<String> = ws.scenario_summaries().unwrap().into_iter().map(|s| s.id).collect();
    assert_eq!(ids, ["hybrid", "all-cloud", "hybrid-2", "all-cloud-2"]);
    let mut eur = sample();
    eur.currency = "EUR".into();
    let err = ws.import(&eur, "eur.json", NOW).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(
        err.message.contains("EUR") && err.message.contains("USD"),
        "{}",
        err.message
    );
    assert_eq!(ws.scenario_summaries().unwrap().len(), 4, "nothing half-imported");
    // Export gives back a file the engine reads, with the same scenarios.
    let exported = ws.export(Some(&["hybrid".to_owned()])).unwrap();
    let text = scenario_file::to_json(&exported);
    let back = scenario_file::parse(&text).unwrap();
    assert_eq!(back.scenarios[0], ws.scenario("hybrid").unwrap());
}

#[test]
fn bad_edits_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let mut s = ws.scenario("hybrid").unwrap();
    s.id = "has space".into();
    let err = ws
        .apply(
            &EditRequest {
                edit: Edit::PutScenario { scenario: s },
                label: "x".into(),
                coalesce: None,
            },
            NOW,
        )
        .unwrap_err();
    assert_eq!(err.details[0].field.as_deref(), Some("scenario.id"));
    let mut st = ws.settings().clone();
    st.currency = "usd".into();
    let err = ws
        .apply(
            &EditRequest {
                edit: Edit::Settings { settings: st },
                label: "x".into(),
                coalesce: None,
            },
            NOW,
        )
        .unwrap_err();
    assert_eq!(err.details[0].field.as_deref(), Some("settings.currency"));
    let err = ws
        .apply(
            &EditRequest {
                edit: Edit::DeleteScenario { id: "nope".into() },
                label: "x".into(),
                coalesce: None,
            },
            NOW,
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    assert_eq!(
        ws.history().unwrap().undo_label.as_deref(),
        Some("Import enterprise-hybrid.json")
    );
}

fn memo_edit(ws: &mut Workspace, draft: &planner_core::memo::MemoDraft, at: i64) {
    ws.apply(
        &EditRequest {
            edit: Edit::Memo { memo: draft.clone() },
            label: "Edit memo: decision".to_owned(),
            coalesce: Some("memo:decision".to_owned()),
        },
        at,
    )
    .unwrap();
}

#[test]
fn the_memo_draft_is_saved_typed_as_one_step_and_undone() {
    use planner_core::memo::{MemoDraft, Paper};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("client.cpw");
    {
        let mut ws = new_workspace(dir.path());
        assert_eq!(
            ws.memo_draft().unwrap(),
            MemoDraft::default(),
            "a new workspace has an empty draft"
        );
        let mut d = MemoDraft {
            author: "Ada Example".into(),
            paper: Paper::Letter,
            ..MemoDraft::default()
        };
        // Typing "Buy" a key at a time, within the coalescing window, is one undo step.
        for (i, text) in ["B", "Bu", "Buy"].iter().enumerate() {
            d.decision = (*text).to_owned();
            memo_edit(&mut ws, &d, 1_000 + i as i64 * 300);
        }
        assert_eq!(ws.memo_draft().unwrap().decision, "Buy");
        let undone = ws.undo().unwrap().unwrap();
        assert_eq!(undone.label, "Edit memo: decision");
        assert_eq!(ws.memo_draft().unwrap(), MemoDraft::default());
        match &undone.changed[..] {
            [planner_store::workspace::Changed::Memo { memo }] => assert_eq!(memo, &MemoDraft::default()),
            other => panic!("undo reported {other:?}"),
        }
        ws.redo().unwrap().unwrap();
    }
    let ws = Workspace::open(&path).unwrap();
    let d = ws.memo_draft().unwrap();
    assert_eq!(
        (d.decision.as_str(), d.author.as_str(), d.paper),
        ("Buy", "Ada Example", Paper::Letter)
    );
}

#[test]
fn memo_records_are_kept_in_order_and_are_not_undone() {
    use planner_core::memo::{MemoEvent, MemoRecord};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("client.cpw");
    let record = |event, sha: &str, signatures| MemoRecord {
        event,
        at: "2026-11-22 10:00:00".into(),
        file: "/tmp/memo.pdf".into(),
        sha256: sha.into(),
        pages: 9,
        scenarios: vec!["owned-burst".into(), "cloud-reserved".into()],
        signer: (signatures > 0).then(|| "Ada Example, Example Ltd".to_owned()),
        certificate_sha256: None,
        reason: None,
        signatures,
    };
    {
        let mut ws = new_workspace(dir.path());
        ws.record_memo(&record(MemoEvent::Generated, "aa", 0)).unwrap();
        ws.record_memo(&record(MemoEvent::Signed, "bb", 1)).unwrap();
        // The last undo step is the import; undoing it leaves the records alone.
        ws.undo().unwrap().unwrap();
        assert_eq!(ws.memos().unwrap().len(), 2);
    }
    let memos = Workspace::open(&path).unwrap().memos().unwrap();
    assert_eq!(
        memos,
        vec![
            record(MemoEvent::Generated, "aa", 0),
            record(MemoEvent::Signed, "bb", 1)
        ]
    );
}

#[test]
fn a_schema_1_workspace_is_migrated_and_keeps_its_content() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.cpw");
    {
        new_workspace(dir.path());
    }
    std::fs::rename(dir.path().join("client.cpw"), &path).unwrap();
    // Take the file back to schema 1: drop what migrations 2 to 6 added and set the version.
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "DROP TABLE memo_draft; DROP TABLE memos; DROP TABLE checklist_log; DROP TABLE evidence;
             DROP TABLE scorecard; DROP TABLE risk_run; DROP TABLE catalog_origin; DROP TABLE baseline_lock;
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let ws = Workspace::open(&path).unwrap();
    assert_eq!(ws.scenario_summaries().unwrap().len(), 2);
    assert_eq!(ws.memo_draft().unwrap(), planner_core::memo::MemoDraft::default());
    assert!(ws.memos().unwrap().is_empty());
    drop(ws);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(v, 6);
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('checklist_log', 'evidence', 'scorecard', 'risk_run', 'catalog_origin', 'baseline_lock')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 6);
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
