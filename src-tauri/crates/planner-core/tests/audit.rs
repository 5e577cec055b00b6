//! The hash-chained audit log: intact chains verify; each kind of tampering is named at the
//! first broken entry.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use planner_core::compliance::audit::{
    AuditEntry, BreakReason, GENESIS, NewEntry, append, canonical_entry, canonical_json, entry_hash, verify,
    verify_head,
};
use planner_core::compliance::checklist::{Answer, Checklist, ChecklistChange, ItemStatus, Subject};
use serde_json::json;

fn new(i: u64) -> NewEntry {
    NewEntry {
        at: format!("2026-11-22T12:{i:02}:00Z"),
        actor: "ana".to_owned(),
        action: "answer".to_owned(),
        subject: "scenario:s1".to_owned(),
        payload: json!({ "item": format!("item-{i}"), "status": "pass", "note": "" }),
    }
}

/// A chain of `n` entries, seq 1..=n.
fn chain(n: u64) -> Vec<AuditEntry> {
    let mut c = Vec::new();
    for i in 1..=n {
        let e = append(&c, new(i));
        c.push(e);
    }
    c
}

#[test]
fn the_canonical_form_matches_a_digest_computed_outside_rust() {
    // Computed with:
    // printf '%s' '{"action":"answer","actor":"ana","at":"2026-11-22T12:00:00Z","payload":{"n":1,"note":"café \"ok\"\n"},"prev_hash":"0000000000000000000000000000000000000000000000000000000000000000","seq":1,"subject":"scenario:s1"}' | sha256sum
    // (keys sorted at every depth, no whitespace, `"` and newline escaped, é as raw UTF-8).
    let payload = json!({ "note": "café \"ok\"\n", "n": 1 });
    let text = canonical_entry(
        1,
        "2026-11-22T12:00:00Z",
        "ana",
        "answer",
        "scenario:s1",
        &payload,
        GENESIS,
    );
    assert_eq!(
        text,
        r#"{"action":"answer","actor":"ana","at":"2026-11-22T12:00:00Z","payload":{"n":1,"note":"café \"ok\"\n"},"prev_hash":"0000000000000000000000000000000000000000000000000000000000000000","seq":1,"subject":"scenario:s1"}"#
    );
    let first = append(
        &[],
        NewEntry {
            at: "2026-11-22T12:00:00Z".to_owned(),
            actor: "ana".to_owned(),
            action: "answer".to_owned(),
            subject: "scenario:s1".to_owned(),
            payload,
        },
    );
    assert_eq!(first.seq, 1);
    assert_eq!(first.prev_hash, GENESIS);
    assert_eq!(
        first.hash,
        "f13a603c45431ec1b35f8d5a89f3142840200e9d1719183da7b2f14760e0d881"
    );
}

#[test]
fn canonical_json_sorts_nested_keys_and_escapes_controls() {
    let v = json!({ "b": [ { "z": null, "a": true } ], "a": "\u{1}\t" });
    assert_eq!(canonical_json(&v), r#"{"a":"\u0001\t","b":[{"a":true,"z":null}]}"#);
}

#[test]
fn an_intact_chain_verifies_and_links_each_entry_to_the_previous() {
    let c = chain(10);
    assert_eq!(verify(&c), Ok(()));
    assert_eq!(verify(&[]), Ok(()));
    for w in c.windows(2) {
        assert_eq!(w[1].prev_hash, w[0].hash);
        assert_eq!(w[1].seq, w[0].seq + 1);
    }
    assert!(c.iter().all(|e| e.hash == entry_hash(e) && e.hash.len() == 64));
    assert_eq!(verify_head(&c, &c[9].hash), Ok(()));
}

#[test]
fn an_edited_payload_is_named_at_its_entry() {
    let mut c = chain(10);
    c[4].payload = json!({ "item": "item-5", "status": "fail", "note": "" });
    let err = verify(&c).unwrap_err();
    assert_eq!((err.position, err.seq), (5, 5));
    assert!(matches!(err.reason, BreakReason::HashMismatch { .. }));
}

#[test]
fn every_edited_field_is_caught() {
    let edits: [fn(&mut AuditEntry); 5] = [
        |e| e.at.push('x'),
        |e| e.actor = "mallory".to_owned(),
        |e| e.action = "sign-off".to_owned(),
        |e| e.subject = "scenario:s2".to_owned(),
        |e| e.payload["note"] = json!("x"),
    ];
    for edit in edits {
        let mut c = chain(10);
        edit(&mut c[6]);
        assert_eq!(verify(&c).unwrap_err().seq, 7);
    }
}

#[test]
fn a_forged_hash_is_named_at_its_entry() {
    let mut c = chain(10);
    c[4].hash = "f".repeat(64);
    let err = verify(&c).unwrap_err();
    assert_eq!(err.seq, 5);
    assert!(matches!(err.reason, BreakReason::HashMismatch { .. }));
}

#[test]
fn an_edit_with_a_recomputed_hash_breaks_the_link_of_the_next_entry() {
    let mut c = chain(10);
    c[4].payload["status"] = json!("fail");
    c[4].hash = entry_hash(&c[4]);
    let err = verify(&c).unwrap_err();
    assert_eq!((err.position, err.seq), (6, 6));
    assert!(matches!(err.reason, BreakReason::PrevHashMismatch { .. }));
}

#[test]
fn a_wrong_prev_hash_is_named_at_its_entry() {
    let mut c = chain(10);
    c[7].prev_hash = c[5].hash.clone();
    let err = verify(&c).unwrap_err();
    assert_eq!(err.seq, 8);
    assert!(matches!(err.reason, BreakReason::PrevHashMismatch { .. }));
    // The first entry must start from GENESIS.
    let mut c = chain(3);
    c[0].prev_hash = "1".repeat(64);
    assert_eq!(verify(&c).unwrap_err().position, 1);
}

#[test]
fn a_deleted_entry_is_named_by_the_entry_after_the_gap() {
    let mut c = chain(10);
    c.remove(2); // seq 3
    let err = verify(&c).unwrap_err();
    assert_eq!((err.position, err.seq), (3, 4));
    assert_eq!(err.reason, BreakReason::SeqGap { expected: 3, found: 4 });
}

#[test]
fn a_deleted_entry_with_renumbered_seqs_still_breaks_the_chain() {
    let mut c = chain(10);
    c.remove(2);
    for (i, e) in c.iter_mut().enumerate() {
        e.seq = u64::try_from(i).unwrap() + 1;
    }
    // Entry 3 (was 4) now carries a seq that changes its hash, and it links to the deleted one.
    let err = verify(&c).unwrap_err();
    assert_eq!(err.position, 3);
    assert!(matches!(err.reason, BreakReason::PrevHashMismatch { .. }));
}

#[test]
fn swapped_entries_are_named_at_the_first_of_the_two() {
    let mut c = chain(10);
    c.swap(3, 4);
    let err = verify(&c).unwrap_err();
    assert_eq!((err.position, err.seq), (4, 5));
    assert_eq!(err.reason, BreakReason::SeqGap { expected: 4, found: 5 });
}

#[test]
fn a_gap_in_seq_is_named() {
    let mut c = chain(10);
    c[6].seq = 9;
    let err = verify(&c).unwrap_err();
    assert_eq!(err.position, 7);
    assert_eq!(err.reason, BreakReason::SeqGap { expected: 7, found: 9 });
}

#[test]
fn a_cut_tail_is_caught_only_against_a_kept_head() {
    let c = chain(10);
    let head = c[9].hash.clone();
    let cut = &c[..8];
    assert_eq!(verify(cut), Ok(()), "a shorter chain is consistent in itself");
    let err = verify_head(cut, &head).unwrap_err();
    assert!(matches!(err.reason, BreakReason::HeadMismatch { .. }));
    assert_eq!(err.seq, 8);
}

#[test]
fn checklist_changes_are_recorded_as_typed_payloads_and_verify() {
    let subject = Subject::Scenario("s1".to_owned());
    let mut list = Checklist::new(subject.clone());
    let mut log = Vec::new();
    let answer = Answer {
        item: "ec-classify".to_owned(),
        status: ItemStatus::Pass,
        note: "vendor classification attached".to_owned(),
        evidence: vec![planner_core::compliance::checklist::Evidence {
            name: "eccn.pdf".to_owned(),
            sha256: "ab".repeat(32),
            size: 1234,
        }],
        reviewer: "ana".to_owned(),
        at: "2026-11-22T12:00:00Z".to_owned(),
    };
    list.answers.push(answer.clone());
    let change = ChecklistChange::Answer { answer };
    let e = append(&log, change.entry(&subject, "ana", "2026-11-22T12:00:00Z"));
    log.push(e);
    let signoff = list.sign("lead", "2026-11-22T12:30:00Z", "");
    let e = append(
        &log,
        ChecklistChange::SignOff { signoff }.entry(&subject, "lead", "2026-11-22T12:30:00Z"),
    );
    log.push(e);
    assert_eq!(verify(&log), Ok(()));
    assert_eq!(log[0].action, "answer");
    assert_eq!(log[1].action, "sign-off");
    assert_eq!(log[0].subject, "scenario:s1");
    assert_eq!(log[0].payload["change"], "answer");
    assert_eq!(log[0].payload["answer"]["status"], "pass");
    let back: ChecklistChange = serde_json::from_value(log[1].payload.clone()).unwrap();
    assert!(matches!(back, ChecklistChange::SignOff { .. }));
    // A sign-off by name only is logged without a `signature` key, as before the wire form became
    // total (issue #15): the chain's payloads keep their shape.
    assert_eq!(
        canonical_json(&log[1].payload),
        format!(
            r#"{{"change":"sign-off","signoff":{{"answers_sha256":"{}","at":"2026-11-22T12:30:00Z","note":"","reviewer":"lead"}}}}"#,
            log[1].payload["signoff"]["answers_sha256"].as_str().unwrap()
        )
    );
    // Entries survive a JSON round trip (as the store will keep them) and still verify.
    let text = serde_json::to_string(&log).unwrap();
    let back: Vec<AuditEntry> = serde_json::from_str(&text).unwrap();
    assert_eq!(verify(&back), Ok(()));
}
