//! The compliance record in the workspace file: answers with evidence, sign-off and clearance,
//! and the hash-chained log that names the first entry changed behind the app's back.
// Test code: a failed unwrap is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_app::compliance::views;
use planner_core::compliance::checklist::AnswerInput;
use planner_core::compliance::checklist::{ChecklistTemplate, ItemStatus, Subject, SubjectKind};
use planner_core::engine::input::scenario_file::{self, ScenarioFile};
use planner_core::error::ErrorCode;
use planner_store::workspace::{EvidenceFile, Workspace, log_time};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn template_file() -> (String, String) {
    let name = "d1-compliance.toml".to_owned();
    let text = std::fs::read_to_string(repo().join("catalogs/checklists").join(&name)).unwrap();
    (name, text)
}

fn template() -> ChecklistTemplate {
    let (name, text) = template_file();
    planner_core::compliance::checklist::parse_template(&name, &text).unwrap()
}

fn new_workspace(dir: &Path) -> Workspace {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    let sample: ScenarioFile = scenario_file::parse(&text).unwrap();
    let (settings, _, _) = planner_core::engine::workspace::content::from_scenario_file(sample.clone());
    let files = planner_store::read_catalog_dir(&repo().join("catalogs")).unwrap();
    let mut ws = Workspace::create(&dir.join("client.cpw"), &settings, &files, NOW).unwrap();
    ws.import(&sample, "enterprise-hybrid.json", NOW).unwrap();
    ws
}

const T0: i64 = 1_795_000_000_000;

fn answer(item: &str, status: ItemStatus, note: &str) -> AnswerInput {
    AnswerInput {
        item: item.to_owned(),
        status,
        note: note.to_owned(),
        reviewer: "Dana Reviewer".to_owned(),
    }
}

fn blocking_for(t: &ChecklistTemplate, kind: SubjectKind) -> Vec<String> {
    t.items_for(kind).filter(|i| i.blocking).map(|i| i.id.clone()).collect()
}

/// Passes every blocking item of `subject`, the first with a file as evidence; returns the file.
fn pass_blocking(ws: &mut Workspace, subject: &Subject) -> EvidenceFile {
    let t = template();
    let file = EvidenceFile {
        name: "export-classification.pdf".to_owned(),
        bytes: b"%PDF-1.7 classification letter from the vendor".to_vec(),
    };
    for (i, item) in blocking_for(&t, subject.kind()).iter().enumerate() {
        let files = if i == 0 { vec![file.clone()] } else { Vec::new() };
        ws.answer_item(
            &t,
            &template_file(),
            subject,
            &answer(item, ItemStatus::Pass, &format!("checked {item}")),
            &files,
            T0 + i as i64 * 1000,
        )
        .unwrap();
    }
    file
}

fn status(ws: &Workspace, subject: &Subject) -> views::SubjectStatus {
    views::statuses(ws, &template())
        .unwrap()
        .into_iter()
        .find(|s| &s.subject == subject)
        .unwrap()
}

#[test]
fn a_reviewer_answers_with_evidence_signs_off_and_the_scenario_is_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let t = template();
    let hybrid = Subject::Scenario("hybrid".to_owned());
    let blocking = blocking_for(&t, SubjectKind::Scenario);
    assert!(
        blocking.len() >= 5,
        "the template has {} blocking scenario items",
        blocking.len()
    );

    let before = status(&ws, &hybrid);
    assert!(!before.cleared);
    assert_eq!(before.blocking_open as usize, blocking.len());
    assert_eq!(before.applicable as usize, t.items_for(SubjectKind::Scenario).count());

    let file = pass_blocking(&mut ws, &hybrid);
    let mid = status(&ws, &hybrid);
    assert_eq!(mid.blocking_open, 0);
    assert!(!mid.cleared, "answers alone do not clear: a sign-off is needed");

    let entry = ws
        .sign_off_checklist(
            &t,
            &template_file(),
            &hybrid,
            "Dana Reviewer",
            "D-1 review",
            T0 + 60_000,
        )
        .unwrap();
    assert_eq!(entry.seq as usize, blocking.len() + 1);
    assert_eq!(entry.action, "sign-off");
    assert_eq!(entry.at, log_time(T0 + 60_000));

    let after = status(&ws, &hybrid);
    assert!(after.cleared);
    assert_eq!(after.signed_by.as_deref(), Some("Dana Reviewer"));
    assert_eq!(after.answered as usize, blocking.len());
    // The other scenario is untouched.
    assert!(!status(&ws, &Subject::Scenario("all-cloud".to_owned())).cleared);

    // The evidence is inside the file, with its SHA-256.
    let view = views::checklist_view(&ws, &t, &hybrid).unwrap();
    let first = view.items.iter().find(|i| i.id == blocking[0]).unwrap();
    let ev = &first.answer.as_ref().unwrap().evidence[0];
    let digest: String = Sha256::digest(&file.bytes).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(ev.sha256, digest);
    assert_eq!(ev.size, file.bytes.len() as u64);
    assert_eq!(ws.evidence_bytes(&digest).unwrap(), file.bytes);
    assert!(view.clearance.cleared);
    assert!(view.log_problem.is_none());

    // It all survives closing and reopening, and the log verifies.
    let path = ws.path().to_path_buf();
    drop(ws);
    let ws = Workspace::open(&path).unwrap();
    assert!(status(&ws, &hybrid).cleared);
    let check = ws.verify_checklist_log().unwrap();
    assert_eq!(check.entries as usize, blocking.len() + 1);
    assert_eq!(check.evidence_files, 1);
    assert!(check.problem.is_none(), "{:?}", check.problem);
    assert_eq!(check.head, ws.checklist_log().unwrap().last().unwrap().hash);
}

#[test]
fn sign_off_is_refused_while_a_blocking_item_is_open_and_voided_by_a_later_answer() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let t = template();
    let s = Subject::Scenario("all-cloud".to_owned());
    let blocking = blocking_for(&t, SubjectKind::Scenario);
    // Everything but the last blocking item.
    for (i, item) in blocking.iter().take(blocking.len() - 1).enumerate() {
        ws.answer_item(
            &t,
            &template_file(),
            &s,
            &answer(item, ItemStatus::NotApplicable, "no"),
            &[],
            T0 + i as i64,
        )
        .unwrap();
    }
    let err = ws
        .sign_off_checklist(&t, &template_file(), &s, "Dana Reviewer", "", T0 + 100)
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains(blocking.last().unwrap()), "{}", err.message);
    assert_eq!(ws.verify_checklist_log().unwrap().entries as usize, blocking.len() - 1);

    // A failed blocking item may be signed (the record says it failed) but does not clear.
    let last = blocking.last().unwrap();
    ws.answer_item(
        &t,
        &template_file(),
        &s,
        &answer(last, ItemStatus::Fail, "no transfer mechanism"),
        &[],
        T0 + 200,
    )
    .unwrap();
    ws.sign_off_checklist(&t, &template_file(), &s, "Dana Reviewer", "", T0 + 300)
        .unwrap();
    let st = status(&ws, &s);
    assert!(st.signed_off);
    assert_eq!(st.blocking_failed, 1);
    assert!(!st.cleared);

    // Pass it: the sign-off no longer covers the answers in force, so nothing is cleared.
    ws.answer_item(
        &t,
        &template_file(),
        &s,
        &answer(last, ItemStatus::Pass, "SCCs signed"),
        &[],
        T0 + 400,
    )
    .unwrap();
    let view = views::checklist_view(&ws, &t, &s).unwrap();
    assert!(view.signoff_void);
    assert!(!view.clearance.cleared);
    let item = view.items.iter().find(|i| &i.id == last).unwrap();
    assert_eq!(item.history.len(), 1, "the failed answer stays in the item's history");
    assert_eq!(item.history[0].status, ItemStatus::Fail);
    ws.sign_off_checklist(&t, &template_file(), &s, "Lee Second", "re-signed", T0 + 500)
        .unwrap();
    assert!(status(&ws, &s).cleared);
    // Withdrawing the sign-off un-clears it.
    ws.revoke_sign_off(&template_file(), &s, "Lee Second", "contract terms changed", T0 + 600)
        .unwrap();
    assert!(!status(&ws, &s).cleared);
}

#[test]
fn bad_answers_are_refused_with_the_field_named_and_nothing_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let t = template();
    let s = Subject::Scenario("hybrid".to_owned());
    let item = blocking_for(&t, SubjectKind::Scenario)[0].clone();
    let vendor_only = t
        .items
        .iter()
        .find(|i| i.applies_to == planner_core::compliance::checklist::AppliesTo::Vendor)
        .unwrap()
        .id
        .clone();
    let cases: Vec<(AnswerInput, Subject, Vec<EvidenceFile>, &str)> = vec![
        (
            AnswerInput {
                reviewer: "  ".into(),
                ..answer(&item, ItemStatus::Pass, "ok")
            },
            s.clone(),
            vec![],
            "reviewer",
        ),
        (
            answer("no-such-item", ItemStatus::Pass, "ok"),
            s.clone(),
            vec![],
            "item",
        ),
        (answer(&vendor_only, ItemStatus::Pass, "ok"), s.clone(), vec![], "item"),
        (answer(&item, ItemStatus::Pass, "  "), s.clone(), vec![], "note"),
        (
            answer(&item, ItemStatus::Pass, "ok"),
            s.clone(),
            vec![EvidenceFile {
                name: "../etc/passwd".into(),
                bytes: vec![1],
            }],
            "evidence",
        ),
        (
            answer(&item, ItemStatus::Pass, "ok"),
            Subject::Vendor(String::new()),
            vec![],
            "subject",
        ),
    ];
    for (input, subject, files, field) in cases {
        let err = ws
            .answer_item(&t, &template_file(), &subject, &input, &files, T0)
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidInput, "{field}: {}", err.message);
        assert_eq!(
            err.details.first().and_then(|d| d.field.as_deref()),
            Some(field),
            "{}",
            err.message
        );
    }
    let missing = ws
        .answer_item(
            &t,
            &template_file(),
            &Subject::Scenario("gone".into()),
            &answer(&item, ItemStatus::Pass, "ok"),
            &[],
            T0,
        )
        .unwrap_err();
    assert_eq!(missing.code, ErrorCode::NotFound, "{}", missing.message);
    let check = ws.verify_checklist_log().unwrap();
    assert_eq!(check.entries, 0);
    assert_eq!(check.evidence_files, 0);
    assert!(ws.kept_checklist_template().unwrap().is_none());
}

/// Makes a log of 4 entries on the hybrid scenario and closes the file.
fn logged_workspace(dir: &Path) -> (PathBuf, Vec<String>) {
    let mut ws = new_workspace(dir);
    let t = template();
    let s = Subject::Scenario("hybrid".to_owned());
    let items: Vec<String> = blocking_for(&t, SubjectKind::Scenario).into_iter().take(4).collect();
    for (i, item) in items.iter().enumerate() {
        let status = if i == 2 { ItemStatus::Fail } else { ItemStatus::Pass };
        let files = if i == 1 {
            vec![EvidenceFile {
                name: "dpa.pdf".into(),
                bytes: b"data processing agreement".to_vec(),
            }]
        } else {
            Vec::new()
        };
        ws.answer_item(
            &t,
            &template_file(),
            &s,
            &answer(item, status, "reviewed"),
            &files,
            T0 + i as i64 * 1000,
        )
        .unwrap();
    }
    (ws.path().to_path_buf(), items)
}

fn tamper(path: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(path).unwrap();
    assert_eq!(conn.execute(sql, []).unwrap(), 1, "{sql}");
}

#[test]
fn a_checklist_row_changed_behind_the_apps_back_is_named_and_clears_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (path, items) = logged_workspace(dir.path());
    // Turn the failed answer (entry 3) into a pass, as someone with a SQLite browser would.
    tamper(
        &path,
        "UPDATE checklist_log SET payload = replace(payload, '\"status\":\"fail\"', '\"status\":\"pass\"') WHERE seq = 3",
    );
    let mut ws = Workspace::open(&path).unwrap();
    let check = ws.verify_checklist_log().unwrap();
    let p = check.problem.expect("the change is found");
    assert_eq!((p.position, p.seq), (3, 3));
    assert_eq!(p.action, "answer");
    assert_eq!(p.subject, "scenario:hybrid");
    assert_eq!(p.actor, "Dana Reviewer");
    assert!(p.problem.contains("does not match its hash"), "{}", p.problem);
    assert!(p.message.contains("entry 3 (seq 3"), "{}", p.message);
    assert!(p.message.contains("client.cpw"), "{}", p.message);

    // Nothing is cleared on a broken log, and nothing more can be recorded on top of it.
    let t = template();
    let s = Subject::Scenario("hybrid".to_owned());
    let view = views::checklist_view(&ws, &t, &s).unwrap();
    assert!(view.log_problem.is_some());
    assert!(!view.clearance.cleared);
    let err = ws
        .answer_item(
            &t,
            &template_file(),
            &s,
            &answer(&items[0], ItemStatus::Pass, "again"),
            &[],
            T0 + 9000,
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::WorkspaceInvalid);
    assert!(
        err.message.contains("entry 3 (seq 3") && err.message.contains("Nothing was recorded"),
        "{}",
        err.message
    );
    assert_eq!(ws.checklist_log().unwrap().len(), 4);
}

#[test]
fn deleted_reordered_or_rehashed_entries_and_changed_evidence_are_named() {
    let cases: [(&str, &str, u64, &str); 5] = [
        // A middle entry deleted: the next one's seq is wrong.
        (
            "DELETE FROM checklist_log WHERE seq = 2",
            "",
            2,
            "number is 3 where 2 was expected",
        ),
        // The last entry deleted: the head kept in meta catches it.
        ("DELETE FROM checklist_log WHERE seq = 4", "", 3, "removed from the end"),
        // Entry 2's note rewritten and its hash recomputed by hand would still break entry 3's link;
        // here the link itself is edited.
        (
            "UPDATE checklist_log SET prev_hash = '0000000000000000000000000000000000000000000000000000000000000000' WHERE seq = 3",
            "",
            3,
            "does not link",
        ),
        // The reviewer's name changed.
        (
            "UPDATE checklist_log SET actor = 'Someone Else' WHERE seq = 1",
            "",
            1,
            "does not match its hash",
        ),
        // The evidence file's bytes replaced: entry 2 refers to it.
        (
            "UPDATE evidence SET bytes = X'00'",
            "",
            2,
            "evidence file `dpa.pdf` was changed",
        ),
    ];
    for (sql, _, position, words) in cases {
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = logged_workspace(dir.path());
        tamper(&path, sql);
        let ws = Workspace::open(&path).unwrap();
        let p = ws
            .verify_checklist_log()
            .unwrap()
            .problem
            .unwrap_or_else(|| panic!("{sql}: not found"));
        assert_eq!(p.position, position, "{sql}: {}", p.message);
        assert!(p.problem.contains(words), "{sql}: {}", p.problem);
    }
}

#[test]
fn the_compliance_axis_is_the_share_passed_of_a_cleared_vendor() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let t = template();
    let v = Subject::Vendor("Example Cloud".to_owned());
    assert_eq!(ws.compliance_share(&t, &v).unwrap(), Decimal::ZERO);
    pass_blocking(&mut ws, &v);
    // Not signed yet: not cleared, so 0.
    assert_eq!(ws.compliance_share(&t, &v).unwrap(), Decimal::ZERO);
    // One non-blocking vendor item fails.
    let optional = t
        .items_for(SubjectKind::Vendor)
        .find(|i| !i.blocking)
        .unwrap()
        .id
        .clone();
    ws.answer_item(
        &t,
        &template_file(),
        &v,
        &answer(&optional, ItemStatus::Fail, "no HBM disclosure"),
        &[],
        T0 + 50_000,
    )
    .unwrap();
    ws.sign_off_checklist(&t, &template_file(), &v, "Dana Reviewer", "", T0 + 60_000)
        .unwrap();
    let applicable = t.items_for(SubjectKind::Vendor).count();
    let passed = blocking_for(&t, SubjectKind::Vendor).len();
    assert_eq!(
        ws.compliance_share(&t, &v).unwrap(),
        Decimal::from(passed) / Decimal::from(applicable)
    );
    // The vendor is listed after the scenarios.
    let statuses = views::statuses(&ws, &t).unwrap();
    assert_eq!(statuses.len(), 3);
    assert_eq!(statuses[2].subject, v);
    assert!(statuses[2].cleared);
}

#[test]
fn the_template_is_kept_with_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let t = template();
    let s = Subject::Scenario("hybrid".to_owned());
    let item = blocking_for(&t, SubjectKind::Scenario)[0].clone();
    ws.answer_item(
        &t,
        &template_file(),
        &s,
        &answer(&item, ItemStatus::Pass, "ok"),
        &[],
        T0,
    )
    .unwrap();
    assert_eq!(ws.kept_checklist_template().unwrap(), Some(template_file()));
    // A newer app shipping another template still judges this record by the kept one.
    let newer = ("d1-compliance.toml".to_owned(), "not even toml [".to_owned());
    let kept = ws.checklist_template(&newer).unwrap();
    assert_eq!(kept.items.len(), t.items.len());
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
