//! The memo use case: publishing from a workspace: records, identities kept in a folder, and the refusal to add a
//! signature to a memo whose earlier signature no longer holds.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_app::compliance::{sign_signoff, views};
use planner_app::memo::publish as publish_from_workspace;
use planner_core::edit::{Edit, EditRequest};
use planner_core::error::ErrorCode;
use planner_core::memo::{MemoDraft, MemoEvent};
use planner_publish::identities::Identities;
use planner_publish::{Signer, sha256_hex, sign_file, verify_file};
use planner_store::Workspace;

const NOW: i64 = 1_795_341_600_000;
const PASS: &str = "correct horse battery staple";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn workspace(dir: &Path) -> Workspace {
    let files = planner_store::read_catalog_dir(&repo().join("catalogs")).unwrap();
    let sample =
        planner_store::files::read_scenario_file(&repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    let (settings, _, _) = planner_core::engine::workspace::content::from_scenario_file(sample.clone());
    let mut ws = Workspace::create(&dir.join("client.cpw"), &settings, &files, NOW).unwrap();
    ws.import(&sample, "enterprise-hybrid.json", NOW).unwrap();
    ws
}

fn draft() -> MemoDraft {
    MemoDraft {
        author: "Ada Example".into(),
        decision: "Adopt the hybrid.".into(),
        recommended: Some("hybrid".into()),
        scenarios: vec!["hybrid".into(), "all-cloud".into()],
        ..MemoDraft::default()
    }
}

#[test]
fn a_signed_memo_is_recorded_twice_with_the_hash_of_each_file() {
    let tmp = tempfile::tempdir().unwrap();
    let mut ws = workspace(tmp.path());
    let ids = Identities::new(&tmp.path().join("identities"));
    let summary = ids.create("Ada Example", "Example Ltd", None, PASS, NOW).unwrap();
    let identity = ids.open(&summary.id, PASS).unwrap();
    let out = tmp.path().join("memo.pdf");
    let published = publish_from_workspace(
        &mut ws,
        &draft(),
        &out,
        NOW,
        Some(&Signer {
            identity: &identity,
            reason: "Author",
        }),
    )
    .unwrap();
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(published.record.sha256, sha256_hex(&bytes));
    assert_eq!(published.size as usize, bytes.len());
    let records = ws.memos().unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].event, MemoEvent::Generated);
    assert_eq!(records[1].event, MemoEvent::Signed);
    assert_ne!(records[0].sha256, records[1].sha256, "signing changes the file");
    assert_eq!(records[1].signer.as_deref(), Some("Ada Example, Example Ltd"));
    assert_eq!(records[1].certificate_sha256.as_deref(), Some(summary.sha256.as_str()));
    assert_eq!(records[1].at, "2026-11-22 10:00:00");
    assert_eq!(records[0].scenarios, ["hybrid", "all-cloud"]);
    assert!(verify_file(&out).unwrap().all_intact);
}

#[test]
fn the_draft_saved_in_the_workspace_is_what_an_incomplete_memo_is_refused_for() {
    let tmp = tempfile::tempdir().unwrap();
    let mut ws = workspace(tmp.path());
    let mut d = draft();
    d.author = String::new();
    d.recommended = Some("nope".into());
    ws.apply(
        &EditRequest {
            edit: Edit::Memo { memo: d.clone() },
            label: "Edit memo".into(),
            coalesce: None,
        },
        NOW,
    )
    .unwrap();
    let out = tmp.path().join("memo.pdf");
    let saved = ws.memo_draft().unwrap();
    let err = publish_from_workspace(&mut ws, &saved, &out, NOW, None).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    let fields: Vec<_> = err.details.iter().filter_map(|d| d.field.clone()).collect();
    assert_eq!(fields, ["memo.author", "memo.recommended"]);
    assert!(!out.exists());
    assert!(ws.memos().unwrap().is_empty());
}

#[test]
fn identities_are_listed_without_a_passphrase_and_open_only_with_it() {
    let tmp = tempfile::tempdir().unwrap();
    let ids = Identities::new(&tmp.path().join("identities"));
    assert!(
        ids.list().unwrap().is_empty(),
        "a folder that does not exist holds none"
    );
    let ada = ids
        .create("Ada Example", "Example Ltd", Some("ada@example.com"), PASS, NOW)
        .unwrap();
    assert_eq!(ada.id, "ada-example");
    assert_eq!(ada.origin, "made here");
    assert!(ada.self_signed);
    let short = ids.create("Bob", "Example Ltd", None, "short", NOW).unwrap_err();
    assert_eq!(short.details[0].field.as_deref(), Some("passphrase"));
    let wrong = ids.open("ada-example", "not the passphrase").unwrap_err();
    assert!(wrong.message.to_lowercase().contains("passphrase"), "{}", wrong.message);
    // The PKCS#12 the app stored imports as another identity with the same certificate.
    let imported = ids
        .import(&tmp.path().join("identities/ada-example.p12"), PASS)
        .unwrap();
    assert_eq!(imported.id, "ada-example-2");
    assert_eq!(imported.sha256, ada.sha256);
    assert_eq!(imported.origin, "imported");
    let listed: Vec<String> = ids.list().unwrap().into_iter().map(|s| s.id).collect();
    assert_eq!(listed, ["ada-example", "ada-example-2"]);
    // The certificate, exported as PEM, is the one the identity signs with.
    let pem = tmp.path().join("ada.pem");
    ids.export_certificate("ada-example", PASS, &pem).unwrap();
    let text = std::fs::read_to_string(&pem).unwrap();
    assert!(text.starts_with("-----BEGIN CERTIFICATE-----"), "{text}");
    assert_eq!(text, ids.open("ada-example", PASS).unwrap().certificate_pem());
    assert_eq!(ids.open("../etc", PASS).unwrap_err().code, ErrorCode::InvalidInput);
}

#[test]
fn a_memo_whose_signature_no_longer_holds_is_not_signed_again() {
    let tmp = tempfile::tempdir().unwrap();
    let mut ws = workspace(tmp.path());
    let ids = Identities::new(&tmp.path().join("identities"));
    let ada = ids.create("Ada Example", "Example Ltd", None, PASS, NOW).unwrap();
    let rex = ids.create("Rex Reviewer", "Example Ltd", None, PASS, NOW).unwrap();
    let ada = ids.open(&ada.id, PASS).unwrap();
    let rex = ids.open(&rex.id, PASS).unwrap();
    let out = tmp.path().join("memo.pdf");
    publish_from_workspace(
        &mut ws,
        &draft(),
        &out,
        NOW,
        Some(&Signer {
            identity: &ada,
            reason: "Author",
        }),
    )
    .unwrap();
    // Change one byte of the text inside the signed range: the author's digest no longer matches.
    let mut bytes = std::fs::read(&out).unwrap();
    let at = bytes.windows(7).position(|w| w == b"/Author").unwrap();
    bytes[at + 1] = b'a';
    std::fs::write(&out, &bytes).unwrap();
    let err = sign_file(
        &out,
        &Signer {
            identity: &rex,
            reason: "Reviewer",
        },
        NOW,
        Some(&mut ws),
    )
    .unwrap_err();
    assert!(err.message.contains("no longer intact"), "{}", err.message);
    assert_eq!(std::fs::read(&out).unwrap(), bytes, "the file is left as it was");
    assert_eq!(
        ws.memos().unwrap().len(),
        2,
        "nothing recorded for the refused signature"
    );
}

/// The memo's words, one space between them (pdftotext, from poppler-utils).
fn memo_words(pdf: &Path) -> String {
    let out = std::process::Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap_or_else(|e| panic!("pdftotext could not be started ({e}): apt-get install poppler-utils"));
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_memo_states_each_scenarios_checklist_status_and_the_log_head_it_was_read_from() {
    use planner_core::compliance::checklist::AnswerInput;
    use planner_core::compliance::checklist::{ItemStatus, Subject, SubjectKind};

    let tmp = tempfile::tempdir().unwrap();
    let mut ws = workspace(tmp.path());
    // Nothing answered yet: both scenarios are not cleared, and the recommended one is flagged.
    let before = tmp.path().join("before.pdf");
    publish_from_workspace(&mut ws, &draft(), &before, NOW, None).unwrap();
    let words = memo_words(&before);
    assert!(words.contains("Compliance (D-1 checklists)"), "{words}");
    assert!(
        words.contains("No checklist answer is recorded in this workspace."),
        "{words}"
    );
    assert!(
        words.contains(
            "The recommended scenario is not cleared by its D-1 compliance checklist: no checklist answer recorded."
        ),
        "{words}"
    );

    // The hybrid scenario answered and signed off.
    let name = "d1-compliance.toml".to_owned();
    let text = std::fs::read_to_string(repo().join("catalogs/checklists").join(&name)).unwrap();
    let template = planner_core::compliance::checklist::parse_template(&name, &text).unwrap();
    let file = (name, text);
    let hybrid = Subject::Scenario("hybrid".into());
    let blocking: Vec<String> = template
        .items_for(SubjectKind::Scenario)
        .filter(|i| i.blocking)
        .map(|i| i.id.clone())
        .collect();
    for item in &blocking {
        let answer = AnswerInput {
            item: item.clone(),
            status: ItemStatus::Pass,
            note: "checked".into(),
            reviewer: "Dana Reviewer".into(),
        };
        ws.answer_item(&template, &file, &hybrid, &answer, &[], NOW).unwrap();
    }
    ws.sign_off_checklist(&template, &file, &hybrid, "Dana Reviewer", "", NOW + 1000)
        .unwrap();
    let check = ws.verify_checklist_log().unwrap();
    let after = tmp.path().join("after.pdf");
    publish_from_workspace(&mut ws, &draft(), &after, NOW, None).unwrap();
    let words = memo_words(&after);
    let applicable = template.items_for(SubjectKind::Scenario).count();
    assert!(
        words.contains(&format!(
            "Cleared: signed off by Dana Reviewer at 2026-11-22T10:00:01Z; {} of {applicable} items answered",
            blocking.len()
        )),
        "{words}"
    );
    assert!(words.contains("Not cleared: "), "the other scenario: {words}");
    assert!(!words.contains("The recommended scenario is not cleared"), "{words}");
    assert!(
        words.contains(&format!(
            "Checklist log: {} entries, 0 evidence file(s), head SHA-256 {}",
            blocking.len() + 1,
            check.head
        )),
        "{words}"
    );
}

#[test]
fn a_signed_sign_off_survives_a_rewritten_chain_only_as_a_named_broken_signature() {
    use planner_core::compliance::audit::{self, NewEntry};
    use planner_core::compliance::checklist::AnswerInput;
    use planner_core::compliance::checklist::{ItemStatus, Subject, SubjectKind};

    let tmp = tempfile::tempdir().unwrap();
    let mut ws = workspace(tmp.path());
    let ids = Identities::new(&tmp.path().join("identities"));
    let summary = ids.create("Dana Reviewer", "Example Ltd", None, PASS, NOW).unwrap();
    let identity = ids.open(&summary.id, PASS).unwrap();
    let name = "d1-compliance.toml".to_owned();
    let text = std::fs::read_to_string(repo().join("catalogs/checklists").join(&name)).unwrap();
    let template = planner_core::compliance::checklist::parse_template(&name, &text).unwrap();
    let file = (name, text);
    let hybrid = Subject::Scenario("hybrid".into());
    for item in template.items_for(SubjectKind::Scenario).filter(|i| i.blocking) {
        let answer = AnswerInput {
            item: item.id.clone(),
            status: ItemStatus::Pass,
            note: "checked".into(),
            reviewer: "Dana Reviewer".into(),
        };
        ws.answer_item(&template, &file, &hybrid, &answer, &[], NOW).unwrap();
    }
    let entry = ws
        .sign_off_checklist_signed(
            &template,
            &file,
            &hybrid,
            "Dana Reviewer",
            "D-1 review",
            NOW,
            &|content| sign_signoff(&identity, content),
        )
        .unwrap();
    let check = ws.verify_checklist_log().unwrap();
    assert!(check.problem.is_none(), "{:?}", check.problem);
    assert_eq!(check.signed_signoffs, 1);
    let statuses = views::statuses(&ws, &template).unwrap();
    assert!(statuses[0].cleared);
    let signature = &entry.payload["signoff"]["signature"];
    assert_eq!(signature["signer"], "Dana Reviewer, Example Ltd");
    assert_eq!(signature["certificate_sha256"], summary.sha256.as_str());

    // A forger rewrites the sign-off's note and recomputes every hash and the head: the chain
    // holds, but the signature no longer covers the sign-off, and verify names the entry.
    let path = ws.path().to_path_buf();
    let mut chain: Vec<audit::AuditEntry> = Vec::new();
    for mut e in ws.checklist_log().unwrap() {
        if e.action == "sign-off" {
            e.payload["signoff"]["note"] = serde_json::json!("approved without conditions");
        }
        let next = audit::append(
            &chain,
            NewEntry {
                at: e.at,
                actor: e.actor,
                action: e.action,
                subject: e.subject,
                payload: e.payload,
            },
        );
        chain.push(next);
    }
    drop(ws);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for e in &chain {
            conn.execute(
                "UPDATE checklist_log SET payload = ?1, prev_hash = ?2, hash = ?3 WHERE seq = ?4",
                rusqlite::params![
                    serde_json::to_string(&e.payload).unwrap(),
                    e.prev_hash,
                    e.hash,
                    e.seq as i64
                ],
            )
            .unwrap();
        }
        conn.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'checklist_head'",
            [&chain.last().unwrap().hash],
        )
        .unwrap();
    }
    // The chain alone cannot tell (it was rewritten whole); the store checks every signed
    // sign-off's signature on every verification, and no caller can turn that off.
    let ws = Workspace::open(&path).unwrap();
    let p = ws
        .verify_checklist_log()
        .unwrap()
        .problem
        .expect("the forged sign-off is found");
    assert_eq!(p.seq, entry.seq);
    assert_eq!(p.action, "sign-off");
    assert!(
        p.problem.contains("sign-off signature does not verify"),
        "{}",
        p.problem
    );
    assert!(!views::statuses(&ws, &template).unwrap()[0].cleared);
}
