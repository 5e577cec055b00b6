//! A workspace open read-only (issue #14): everything can be read, compared, exported and saved
//! elsewhere; every change is refused with the reason before anything is written, and the file
//! and its folder stay byte for byte as they were. The permission cases (a read-only file or
//! folder) are run through the command line as an unprivileged user in planner-cli's tests.
// Test code: a failed unwrap is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_core::compliance::checklist::AnswerInput;
use planner_core::compliance::checklist::{ItemStatus, Subject};
use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::costing::evaluate::Evaluation;
use planner_core::engine::input::scenario_file::{self, ScenarioFile};
use planner_core::engine::workspace::content::{Comparison, ViewState, compare_selection};
use planner_core::error::ErrorCode;
use planner_core::memo::{MemoEvent, MemoRecord};
use planner_store::workspace::Workspace;

/// The compare view's selection of `ws` evaluated by the core, as the app evaluates it.
fn compared(ws: &Workspace) -> (Comparison, Option<Evaluation>, ViewState) {
    let view = ws.view().unwrap();
    let chosen: Vec<_> = view.selected.iter().map(|id| ws.scenario(id).unwrap()).collect();
    let (c, e) = compare_selection(ws.catalog(), ws.settings(), ws.workloads(), &chosen, &view);
    (c, e, view)
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn sample() -> ScenarioFile {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    scenario_file::parse(&text).unwrap()
}

/// Every file in `dir` with its bytes.
fn folder(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

fn made(dir: &Path) -> PathBuf {
    let path = dir.join("client.cpw");
    let catalog = planner_store::read_catalog_dir(&repo().join("catalogs")).unwrap();
    let (settings, _, _) = planner_core::engine::workspace::content::from_scenario_file(sample());
    let (ws, _) = Workspace::create_with(&path, &settings, &catalog, NOW, |ws| {
        ws.import(&sample(), "sample.json", NOW)
    })
    .unwrap();
    drop(ws);
    path
}

fn assert_read_only(result: Result<impl std::fmt::Debug, planner_core::error::PlannerError>, action: &str) {
    let err = result.expect_err(action);
    assert_eq!(err.code, ErrorCode::WorkspaceReadOnly, "{action}: {err:?}");
    assert!(
        err.message
            .contains("open read-only (it was opened read-only on request)"),
        "{action}: {}",
        err.message
    );
    assert!(err.message.contains("Nothing was changed"), "{action}: {}", err.message);
    assert!(err.message.contains("Save As"), "{action}: {}", err.message);
}

#[test]
fn a_workspace_open_read_only_reads_whole_and_refuses_every_change_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = made(dir.path());
    let before = folder(dir.path());
    let writable = Workspace::open(&path).unwrap();
    let (scenarios, settings) = (writable.scenario_summaries().unwrap(), writable.settings().clone());
    let (cmp, _, _) = compared(&writable);
    assert!(writable.read_only().is_none());
    drop(writable);

    let mut ws = Workspace::open_read_only(&path).unwrap();
    assert_eq!(ws.read_only(), Some("it was opened read-only on request"));
    // Reading: the same workspace, the same figures, the same export.
    assert_eq!(ws.scenario_summaries().unwrap(), scenarios);
    assert_eq!(ws.settings(), &settings);
    assert_eq!(compared(&ws).0, cmp);
    assert_eq!(ws.export(None).unwrap().scenarios.len(), scenarios.len());
    ws.integrity_check().unwrap();
    let info = ws.info(None).unwrap();
    assert_eq!(info.read_only.as_deref(), Some("it was opened read-only on request"));

    // Choosing what to compare works, held in memory.
    let one = vec![scenarios[0].id.clone()];
    let view = ws
        .set_view(&ViewState {
            selected: one.clone(),
            baseline: None,
            horizon_months: None,
        })
        .unwrap();
    assert_eq!(view.selected, one);
    assert_eq!(ws.view().unwrap().selected, one);
    // So is a risk analysis: kept in memory, the file untouched (checked below).
    assert_eq!(ws.risk_run().unwrap(), None);
    ws.set_risk_run("{\"draws\":10}").unwrap();
    assert_eq!(ws.risk_run().unwrap().as_deref(), Some("{\"draws\":10}"));

    // Every change is refused with the reason.
    let mut s = ws.scenario(&scenarios[0].id).unwrap();
    s.staff_fte = "7".parse().unwrap();
    assert_read_only(
        ws.apply(
            &EditRequest {
                edit: Edit::PutScenario { scenario: s },
                label: "Edit".into(),
                coalesce: None,
            },
            NOW,
        ),
        "an edit",
    );
    assert_read_only(ws.undo(), "undo");
    assert_read_only(ws.redo(), "redo");
    assert_read_only(ws.import(&sample(), "again.json", NOW), "an import");
    let catalog = planner_store::read_catalog_dir(&repo().join("catalogs")).unwrap();
    assert_read_only(ws.update_catalog(&catalog, NOW), "a catalog update");
    assert_read_only(
        ws.record_memo(&MemoRecord {
            event: MemoEvent::Generated,
            at: "2026-11-23 10:00:00".into(),
            file: "/tmp/memo.pdf".into(),
            sha256: "aa".into(),
            pages: 1,
            scenarios: vec![],
            signer: None,
            certificate_sha256: None,
            reason: None,
            signatures: 0,
        }),
        "recording a memo",
    );
    let name = "d1-compliance.toml".to_owned();
    let text = std::fs::read_to_string(repo().join("catalogs/checklists").join(&name)).unwrap();
    let template = planner_core::compliance::checklist::parse_template(&name, &text).unwrap();
    let item = template.items.first().unwrap().id.clone();
    assert_read_only(
        ws.answer_item(
            &template,
            &(name.clone(), text.clone()),
            &Subject::Scenario(scenarios[0].id.clone()),
            &AnswerInput {
                item,
                status: ItemStatus::Pass,
                note: "checked".into(),
                reviewer: "Dana Reviewer".into(),
            },
            &[],
            NOW,
        ),
        "a checklist answer",
    );

    // Save As writes an editable copy elsewhere; the original folder is as it was.
    let elsewhere = tempfile::tempdir().unwrap();
    let mut copy = ws.save_as(&elsewhere.path().join("copy.cpw")).unwrap();
    assert!(copy.read_only().is_none());
    assert_eq!(copy.scenario_summaries().unwrap(), scenarios);
    let mut s = copy.scenario(&scenarios[0].id).unwrap();
    s.staff_fte = "7".parse().unwrap();
    copy.apply(
        &EditRequest {
            edit: Edit::PutScenario { scenario: s },
            label: "Edit".into(),
            coalesce: None,
        },
        NOW,
    )
    .unwrap();
    drop(ws);
    assert_eq!(
        folder(dir.path()),
        before,
        "nothing was written to the file or beside it"
    );
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
