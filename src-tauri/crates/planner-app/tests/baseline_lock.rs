//! The baseline lock of workshop mode (issue #17), through the use cases on a `TestHost`: what
//! it refuses (with the code, the words and the file untouched), what it leaves free, and that
//! the comparison and the memo take their differences against the locked baseline.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_app::{TestHost, catalog, compare, compliance, scenarios, session, vendors};
use planner_core::compliance::checklist::AnswerInput;
use planner_core::compliance::checklist::{ItemStatus, Subject};
use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::input::scenario_file::ScenarioSpec;
use planner_core::engine::workspace::content::{BaselineLock, ViewState};
use planner_core::error::{ErrorCode, PlannerError};
use planner_report::charts::Theme;

/// 2026-11-23T12:00:00Z.
const NOW_MS: i64 = 1_795_435_200_000;
const HYBRID: &str = "Two DGX H100 for the base, AWS spot and on-demand for bursts";
const ALL_CLOUD: &str = "Reserved H100 for the base, on-demand for bursts";
const UNLOCK: &str = "unlock it on the Compare tab (Unlock baseline)";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn view(selected: &[&str], baseline: Option<&str>, horizon_months: Option<u32>) -> ViewState {
    ViewState {
        selected: selected.iter().map(|s| (*s).to_owned()).collect(),
        baseline: baseline.map(str::to_owned),
        horizon_months,
    }
}

/// A host with the enterprise hybrid sample open in `dir/plan.cpw`, both scenarios compared.
fn opened(dir: &Path) -> TestHost {
    let config = dir.join("config");
    std::fs::create_dir_all(&config).unwrap();
    let host = TestHost::new(&repo().join("catalogs"), Some(&config), NOW_MS);
    session::create(&host, &dir.join("plan.cpw"), "Workshop").unwrap();
    scenarios::import_file(&host, &repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    compare::set_view(&host, &view(&["hybrid", "all-cloud"], None, None)).unwrap();
    host
}

fn edit(host: &TestHost, edit: Edit, label: &str) -> Result<planner_store::workspace::Applied, PlannerError> {
    scenarios::apply_edit(
        host,
        &EditRequest {
            edit,
            label: label.to_owned(),
            coalesce: None,
        },
    )
}

fn put(
    host: &TestHost,
    scenario: ScenarioSpec,
    label: &str,
) -> Result<planner_store::workspace::Applied, PlannerError> {
    edit(host, Edit::PutScenario { scenario }, label)
}

/// The workspace file and its write log, byte for byte.
fn bytes(dir: &Path) -> (Vec<u8>, Vec<u8>) {
    let main = std::fs::read(dir.join("plan.cpw")).unwrap();
    let wal = std::fs::read(dir.join("plan.cpw-wal")).unwrap_or_default();
    (main, wal)
}

/// Runs `refused`, which must fail with `ErrorCode::Locked` and exactly `message`, leaving the
/// file and what the UI lists unchanged.
fn assert_locked<T: std::fmt::Debug>(
    host: &TestHost,
    dir: &Path,
    message: &str,
    refused: impl FnOnce() -> Result<T, PlannerError>,
) {
    let before = (bytes(dir), session::session(host).unwrap().workspace);
    let err = refused().unwrap_err();
    assert_eq!(err.code, ErrorCode::Locked, "{}", err.message);
    assert_eq!(err.message, message);
    let after = (bytes(dir), session::session(host).unwrap().workspace);
    assert!(
        before == after,
        "a refusal changed the file or the workspace: {message}"
    );
}

fn scenario_refusal(name: &str, to: &str) -> String {
    format!("“{name}” is in the locked baseline (locked 2026-11-23 12:00 UTC): {UNLOCK} to {to}. Nothing was changed.")
}

fn feeds(what: &str, to: &str) -> String {
    format!(
        "{what} the figures of the locked baseline (locked 2026-11-23 12:00 UTC: “{HYBRID}”, “{ALL_CLOUD}”): {UNLOCK} to {to}. Nothing was changed."
    )
}

#[test]
fn a_lock_needs_two_compared_scenarios_without_problems() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    compare::set_view(&host, &view(&["hybrid"], None, None)).unwrap();
    let err = compare::lock_baseline(&host).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(
        err.message
            .starts_with("selected: compare at least two scenarios to lock a baseline"),
        "{}",
        err.message
    );

    let mut broken = scenarios::get(&host, "all-cloud").unwrap();
    broken.id = "broken".to_owned();
    broken.name = "Broken copy".to_owned();
    broken.layers[1].offer = Some("no-such-offer".to_owned());
    put(&host, broken, "Add broken").unwrap();
    compare::set_view(&host, &view(&["hybrid", "broken"], None, None)).unwrap();
    let err = compare::lock_baseline(&host).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(
        err.message
            .starts_with("selected: “Broken copy” has a problem that keeps it out of the comparison ("),
        "{}",
        err.message
    );
    assert_eq!(session::session(&host).unwrap().workspace.unwrap().lock, None);
}

#[test]
fn a_locked_baseline_refuses_what_would_move_its_figures_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let d = dir.path();
    // A step on a locked scenario, before the lock, for undo to meet.
    let mut hybrid = scenarios::get(&host, "hybrid").unwrap();
    let staff = hybrid.staff_fte;
    hybrid.staff_fte += rust_decimal::Decimal::ONE;
    put(&host, hybrid.clone(), "Edit hybrid: staff").unwrap();

    let lock = compare::lock_baseline(&host).unwrap();
    let expected = BaselineLock {
        scenarios: vec!["hybrid".to_owned(), "all-cloud".to_owned()],
        baseline: "hybrid".to_owned(),
        locked_at: "2026-11-23T12:00:00Z".to_owned(),
    };
    assert_eq!(lock, expected);
    let info = session::session(&host).unwrap().workspace.unwrap();
    assert_eq!(info.lock, Some(expected));
    assert_eq!(
        info.view.baseline.as_deref(),
        Some("hybrid"),
        "locking pins the baseline"
    );

    hybrid.staff_fte += rust_decimal::Decimal::ONE;
    let to_edit = "edit it, or duplicate it and edit the copy";
    assert_locked(&host, d, &scenario_refusal(HYBRID, to_edit), || {
        put(&host, hybrid.clone(), "Edit hybrid")
    });
    let mut renamed = scenarios::get(&host, "all-cloud").unwrap();
    renamed.name = "Renamed".to_owned();
    assert_locked(
        &host,
        d,
        &scenario_refusal(ALL_CLOUD, "rename it, or duplicate it and edit the copy"),
        || put(&host, renamed, "Rename"),
    );
    assert_locked(&host, d, &scenario_refusal(ALL_CLOUD, "delete it"), || {
        edit(
            &host,
            Edit::DeleteScenario {
                id: "all-cloud".to_owned(),
            },
            "Delete",
        )
    });
    let workload = info.workloads[0].clone();
    assert_locked(&host, d, &feeds("The workloads feed", "change a workload"), || {
        edit(&host, Edit::PutWorkload { workload }, "Edit workload")
    });
    assert_locked(&host, d, &feeds("The workloads feed", "change a workload"), || {
        edit(
            &host,
            Edit::DeleteWorkload {
                id: "batch-inference".to_owned(),
            },
            "Delete workload",
        )
    });
    let mut settings = info.settings.clone();
    settings.title = "Another title".to_owned();
    assert_locked(&host, d, &feeds("The workspace settings feed", "change them"), || {
        edit(&host, Edit::Settings { settings }, "Settings")
    });
    assert_locked(
        &host,
        d,
        &feeds(
            "The catalog snapshot feeds",
            "apply a catalog pack or update the catalog",
        ),
        || catalog::update(&host),
    );
    // Importing a scenario file adds workloads, which feed every scenario.
    assert_locked(&host, d, &feeds("The workloads feed", "change a workload"), || {
        scenarios::import_file(&host, &repo().join("catalogs/samples/enterprise-hybrid.json"))
    });
    assert_locked(
        &host,
        d,
        &scenario_refusal(HYBRID, "undo “Edit hybrid: staff”"),
        || scenarios::undo(&host),
    );
    assert_eq!(
        scenarios::get(&host, "hybrid").unwrap().staff_fte,
        staff + rust_decimal::Decimal::ONE
    );
    // The view may not drop a locked scenario nor take another baseline.
    assert_locked(
        &host,
        d,
        &format!(
            "“{ALL_CLOUD}” is in the locked baseline (locked 2026-11-23 12:00 UTC): it stays compared until you {UNLOCK}. You may add other scenarios and change the horizon. Nothing was changed."
        ),
        || compare::set_view(&host, &view(&["hybrid"], Some("hybrid"), None)),
    );
    let other_baseline = format!(
        "The baseline “{HYBRID}” is locked (locked 2026-11-23 12:00 UTC): {UNLOCK} to take the differences against another scenario. Nothing was changed."
    );
    assert_locked(&host, d, &other_baseline, || {
        compare::set_view(&host, &view(&["hybrid", "all-cloud"], Some("all-cloud"), None))
    });
    assert_locked(&host, d, &other_baseline, || {
        compare::set_view(&host, &view(&["hybrid", "all-cloud"], None, None))
    });
}

#[test]
fn a_locked_baseline_leaves_new_scenarios_quotes_checklists_and_the_memo_free() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    compare::lock_baseline(&host).unwrap();

    // Duplicating a locked scenario, editing the copy, comparing it and changing the horizon.
    let mut copy = scenarios::get(&host, "hybrid").unwrap();
    copy.id = "hybrid-copy".to_owned();
    copy.name = "Hybrid, one more engineer".to_owned();
    put(&host, copy.clone(), "Duplicate hybrid").unwrap();
    copy.staff_fte += rust_decimal::Decimal::ONE;
    put(&host, copy, "Edit the copy").unwrap();
    let shown = compare::set_view(
        &host,
        &view(&["hybrid", "all-cloud", "hybrid-copy"], Some("hybrid"), Some(36)),
    )
    .unwrap();
    assert_eq!(shown.selected, ["hybrid", "all-cloud", "hybrid-copy"]);
    assert_eq!(shown.horizon_months, Some(36));
    // Undo and redo of a step on an unlocked scenario.
    assert_eq!(scenarios::undo(&host).unwrap().unwrap().label, "Edit the copy");
    assert_eq!(scenarios::redo(&host).unwrap().unwrap().label, "Edit the copy");

    // The memo draft, the RFP quotes (which add scenarios) and the checklists.
    let mut memo = planner_app::memo::draft(&host).unwrap();
    memo.decision = "Adopt the hybrid plan.".to_owned();
    edit(&host, Edit::Memo { memo }, "Memo").unwrap();
    let imported = vendors::import_quotes(&host, &repo().join("catalogs/templates/rfp-quotes.csv"), "hybrid").unwrap();
    assert_eq!(imported.quotes, 3);
    let subject = Subject::Scenario("hybrid".to_owned());
    let item = compliance::checklist(&host, &subject).unwrap().items[0].id.clone();
    let answer = AnswerInput {
        item,
        status: ItemStatus::Pass,
        note: "checked in the workshop".to_owned(),
        reviewer: "Rita Reviewer".to_owned(),
    };
    compliance::answer(&host, &subject, &answer, &[]).unwrap();

    // Unlocking frees the locked scenarios again.
    compare::unlock_baseline(&host).unwrap();
    assert_eq!(session::session(&host).unwrap().workspace.unwrap().lock, None);
    let mut hybrid = scenarios::get(&host, "hybrid").unwrap();
    hybrid.name = "Renamed after the workshop".to_owned();
    put(&host, hybrid, "Rename").unwrap();
    compare::set_view(&host, &view(&["all-cloud"], None, None)).unwrap();
    compare::unlock_baseline(&host).unwrap();
}

#[test]
fn the_lock_survives_reopening_and_the_comparison_is_against_the_locked_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let path = dir.path().join("plan.cpw");
    compare::set_view(&host, &view(&["hybrid", "all-cloud"], Some("all-cloud"), None)).unwrap();
    let lock = compare::lock_baseline(&host).unwrap();
    assert_eq!(lock.baseline, "all-cloud", "the pinned baseline is the one locked");
    session::close(&host);

    // A view saved behind the app's back, naming another baseline and leaving a locked one out.
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute(
            "UPDATE view_state SET body = ?1 WHERE id = 1",
            [serde_json::to_string(&view(&["hybrid"], Some("hybrid"), None)).unwrap()],
        )
        .unwrap();
    }
    let info = session::open(&host, &path).unwrap();
    assert_eq!(info.lock, Some(lock));
    assert_eq!(info.view.selected, ["all-cloud", "hybrid"]);
    assert_eq!(info.view.baseline.as_deref(), Some("all-cloud"));
    let screen = compare::screen(&host, Theme::Light).unwrap();
    let decision = screen.comparison.view.expect("the locked set evaluates");
    assert_eq!(decision.reference.as_deref(), Some("all-cloud"));
    let hybrid = decision.scenarios.iter().find(|s| s.id == "hybrid").unwrap();
    let all_cloud = decision.scenarios.iter().find(|s| s.id == "all-cloud").unwrap();
    let difference = hybrid
        .difference
        .as_ref()
        .expect("hybrid is compared with the baseline");
    assert_eq!(difference.against, "all-cloud");
    assert_eq!(difference.total, hybrid.decision_total - all_cloud.decision_total);
    assert!(
        all_cloud.difference.is_none(),
        "the baseline has no difference to itself"
    );
}
