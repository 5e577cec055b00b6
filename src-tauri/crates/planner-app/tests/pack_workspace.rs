//! Signed catalog packs against files and workspaces (issue #18): every altered byte refused, an
//! unknown key refused, a rollback refused, the diff and the totals after applying exact, undo,
//! and an overridden figure kept. Keys are made here, at test time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_core::catalog::provenance::AsOf;
use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::input::scenario_file::{self, Override, ScenarioFile};
use planner_core::engine::workspace::content::{ViewState, WorkspaceSettings};
use planner_core::error::ErrorCode;
use planner_sign::{PackKey, generate_pack_key, read_pack_key};
use planner_store::pack::{PackParts, build_pack, check_pack, open_pack, pack_bytes, read_pack_bytes};
use planner_store::workspace::Workspace;
use rust_decimal::{Decimal, dec};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn keys() -> (PackKey, String) {
    let (public, secret) = generate_pack_key(None).unwrap();
    (read_pack_key(&public).unwrap(), secret)
}

fn pack_of(dir: &str, secret: &str) -> PackParts {
    let date: AsOf = "2026-12-01".parse().unwrap();
    build_pack(
        &repo().join(dir),
        secret,
        None,
        "Test Publisher",
        date,
        Some("December prices"),
    )
    .unwrap()
}

fn sample() -> ScenarioFile {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    scenario_file::parse(&text).unwrap()
}

fn settings() -> WorkspaceSettings {
    planner_core::engine::workspace::content::from_scenario_file(sample()).0
}

fn workspace_on(dir: &Path, catalog_dir: &str) -> Workspace {
    let files = planner_store::read_catalog_dir(&repo().join(catalog_dir)).unwrap();
    let mut ws = Workspace::create(&dir.join("client.cpw"), &settings(), &files, NOW).unwrap();
    ws.import(&sample(), "enterprise-hybrid.json", NOW).unwrap();
    ws
}

fn totals(ws: &mut Workspace) -> Vec<(Decimal, Decimal)> {
    ws.set_view(&ViewState {
        selected: vec!["hybrid".into(), "all-cloud".into()],
        baseline: None,
        horizon_months: None,
    })
    .unwrap();
    let (cmp, _, _) = planner_app::compare::evaluate_selection(ws).unwrap();
    assert!(cmp.problems.is_empty(), "{:?}", cmp.problems);
    cmp.view
        .unwrap()
        .scenarios
        .iter()
        .map(|s| (s.decision_total, s.npv))
        .collect()
}

#[test]
fn a_pack_written_and_read_back_opens_with_its_publisher_and_version() {
    let (key, secret) = keys();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("december.cpack");
    planner_store::files::write_atomic(
        &path,
        &pack_bytes(&pack_of("tests/fixtures/catalog-next", &secret)).unwrap(),
    )
    .unwrap();
    let pack = open_pack(&path, std::slice::from_ref(&key)).unwrap();
    assert_eq!(pack.origin.publisher, "Test Publisher");
    assert_eq!(pack.origin.version, "2026.12.0");
    assert_eq!(pack.origin.key_id, key.id);
    assert_eq!(pack.files.len(), 7);
    assert_eq!(pack.manifest.pack.note.as_deref(), Some("December prices"));
}

#[test]
fn one_changed_byte_anywhere_in_the_files_or_the_manifest_is_refused() {
    let (key, secret) = keys();
    let parts = pack_of("tests/fixtures/catalog-next", &secret);
    let trusted = std::slice::from_ref(&key);
    assert!(check_pack(&parts, trusted, "p").is_ok());
    // Every byte of the manifest, and a spread of bytes in every catalog file (first, last and
    // each 997th), flipped one at a time.
    for i in 0..parts.manifest.len() {
        let mut p = parts.clone();
        p.manifest[i] ^= 0x01;
        let err = check_pack(&p, trusted, "p").unwrap_err();
        assert_eq!(err.code, ErrorCode::PackRefused, "manifest byte {i}");
        assert!(
            err.message.contains("does not match the pack's manifest"),
            "{}",
            err.message
        );
    }
    for f in 0..parts.files.len() {
        let len = parts.files[f].1.len();
        let mut at: Vec<usize> = (0..len).step_by(997).collect();
        at.push(len - 1);
        for i in at {
            let mut p = parts.clone();
            p.files[f].1[i] ^= 0x01;
            let err = check_pack(&p, trusted, "p").unwrap_err();
            assert_eq!(err.code, ErrorCode::PackRefused);
            assert!(
                err.message.contains("changed after the pack was signed"),
                "{}",
                err.message
            );
            assert!(err.message.contains(&parts.files[f].0), "{}", err.message);
        }
    }
    // A signature byte changed is refused too.
    let mut p = parts.clone();
    let mid = p.signature.len() / 2;
    p.signature[mid] = if p.signature[mid] == b'A' { b'B' } else { b'A' };
    assert_eq!(check_pack(&p, trusted, "p").unwrap_err().code, ErrorCode::PackRefused);
}

#[test]
fn a_pack_signed_by_an_unknown_key_is_refused_and_names_the_key() {
    let (_, secret) = keys();
    let (other, _) = keys();
    let parts = pack_of("tests/fixtures/catalog-next", &secret);
    let err = check_pack(&parts, &[other], "p").unwrap_err();
    assert_eq!(err.code, ErrorCode::PackRefused);
    assert!(
        err.message.contains("not among the trusted publisher keys"),
        "{}",
        err.message
    );
    // With no trusted key at all, the same.
    assert!(check_pack(&parts, &[], "p").is_err());
}

#[test]
fn damaged_and_hostile_pack_files_are_refused_whole() {
    let (key, secret) = keys();
    let bytes = pack_bytes(&pack_of("tests/fixtures/catalog-next", &secret)).unwrap();
    let trusted = std::slice::from_ref(&key);
    // Truncated anywhere: refused (the zip does not read, or a part is missing or short).
    for cut in [0, 10, bytes.len() / 3, bytes.len() / 2, bytes.len() - 1] {
        let err = read_pack_bytes(&bytes[..cut], "cut.cpack")
            .and_then(|p| check_pack(&p, trusted, "cut.cpack"))
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::PackRefused, "cut at {cut}");
        assert!(
            err.message
                .starts_with("cut.cpack: the catalog pack was refused and nothing was changed")
        );
    }
    // Not a zip at all; an unsigned pack; a pack with an extra file or a folder.
    assert!(read_pack_bytes(b"hello", "x").is_err());
    let mut unsigned = pack_of("tests/fixtures/catalog-next", &secret);
    unsigned.signature.clear();
    let mut zipped = pack_bytes(&unsigned).unwrap();
    // (An empty signature part is present but cannot be read.)
    assert!(check_pack(&read_pack_bytes(&zipped, "x").unwrap(), trusted, "x").is_err());
    let mut extra = pack_of("tests/fixtures/catalog-next", &secret);
    extra.files.push(("../evil.toml".into(), b"x".to_vec()));
    zipped = pack_bytes(&extra).unwrap();
    let err = read_pack_bytes(&zipped, "x").unwrap_err();
    assert!(err.message.contains("not a catalog file"), "{}", err.message);
}

#[test]
fn applying_a_pack_gives_the_totals_of_a_workspace_made_on_it_and_undo_restores_them() {
    let (key, secret) = keys();
    let dir = tempfile::tempdir().unwrap();
    let mut ws = workspace_on(dir.path(), "catalogs");
    let before = totals(&mut ws);
    let pack = check_pack(&pack_of("tests/fixtures/catalog-next", &secret), &[key], "p").unwrap();
    let preview = planner_app::packs::preview(&ws, &pack).unwrap();
    assert_eq!(preview.refusal, None);
    assert_eq!(
        (preview.diff.added, preview.diff.removed, preview.diff.changed),
        (1, 1, 1)
    );
    // The preview's old and new totals are the workspace's before and after.
    let hybrid = preview.scenarios.iter().find(|s| s.id == "hybrid").unwrap();
    assert_eq!((hybrid.old.total.unwrap(), hybrid.old.npv.unwrap()), before[0]);
    let applied = ws.apply_pack(&pack, NOW).unwrap();
    assert_eq!(
        applied.label,
        "Apply catalog pack 2026.12.0 from Test Publisher (was 2026.11.0)"
    );
    let after = totals(&mut ws);
    assert_eq!((hybrid.new.total.unwrap(), hybrid.new.npv.unwrap()), after[0]);
    let fresh = {
        let dir2 = tempfile::tempdir().unwrap();
        let mut w2 = workspace_on(dir2.path(), "tests/fixtures/catalog-next");
        totals(&mut w2)
    };
    assert_eq!(after, fresh);
    assert!(
        after[0].0 < before[0].0,
        "on-demand H100 at 3.90 instead of 6.88 is cheaper"
    );
    let origin = ws.catalog_origin().unwrap();
    assert!(origin.verified, "{}", origin.statement);
    assert!(
        origin.statement.contains("published by Test Publisher on 2026-12-01"),
        "{}",
        origin.statement
    );
    ws.undo().unwrap().unwrap();
    assert_eq!(totals(&mut ws), before);
    assert!(!ws.catalog_origin().unwrap().verified);
    assert!(ws.catalog_origin().unwrap().statement.contains("shipped with the app"));
    ws.redo().unwrap().unwrap();
    assert_eq!(totals(&mut ws), fresh);
    // Reopened, the pack's origin is still there and still verifies.
    let path = dir.path().join("client.cpw");
    drop(ws);
    let ws = Workspace::open(&path).unwrap();
    assert!(ws.catalog_origin().unwrap().verified);
    assert_eq!(ws.catalog_status(None).version, "2026.12.0");
}

#[test]
fn an_older_pack_is_refused_and_nothing_changes() {
    let (key, secret) = keys();
    let dir = tempfile::tempdir().unwrap();
    let mut ws = workspace_on(dir.path(), "tests/fixtures/catalog-next");
    let before = totals(&mut ws);
    let history = ws.history().unwrap();
    let old = check_pack(&pack_of("catalogs", &secret), &[key], "old.cpack").unwrap();
    let preview = planner_app::packs::preview(&ws, &old).unwrap();
    assert!(
        preview
            .refusal
            .as_deref()
            .unwrap_or_default()
            .contains("older than the 2026.12.0 in use")
    );
    let err = ws.apply_pack(&old, NOW).unwrap_err();
    assert_eq!(err.code, ErrorCode::PackRefused);
    assert!(err.message.contains("roll prices back"), "{}", err.message);
    assert_eq!(totals(&mut ws), before);
    assert_eq!(ws.history().unwrap().undo_label, history.undo_label);
}

#[test]
fn an_overridden_figure_survives_and_the_diff_says_so() {
    let (key, secret) = keys();
    let dir = tempfile::tempdir().unwrap();
    let mut ws = workspace_on(dir.path(), "catalogs");
    // The all-cloud scenario's on-demand layer takes an RFP quote for the p5 on-demand rate.
    let mut s = ws.scenario("all-cloud").unwrap();
    let layer = s.layers.iter_mut().find(|l| l.id == "on-demand").unwrap();
    layer.price_per_gpu_hour = Some(Override {
        value: dec!(5.10),
        currency: None,
        reason: "RFP quote AWS Q-7 (valid until 2027-03-31)".into(),
    });
    ws.apply(
        &EditRequest {
            edit: Edit::PutScenario { scenario: s },
            label: "quote".into(),
            coalesce: None,
        },
        NOW,
    )
    .unwrap();
    let before = totals(&mut ws);
    let pack = check_pack(&pack_of("tests/fixtures/catalog-next", &secret), &[key], "p").unwrap();
    let preview = planner_app::packs::preview(&ws, &pack).unwrap();
    let h100 = preview.diff.entries.iter().find(|e| e.id == "aws-p5-h100").unwrap();
    let kept = &h100.figures[0].kept;
    assert!(
        kept.iter().any(|k| k.starts_with("your quote stays: Reserved H100 for the base, on-demand for bursts (layer on-demand) keeps 5.10 (RFP quote AWS Q-7")),
        "{kept:?}"
    );
    // The reserved layer's own rate (an override in the sample) does not take the new on-demand
    // rate either, since the reserved rate would otherwise derive from it.
    assert!(
        kept.iter().any(|k| k.starts_with(
            "your override stays: Reserved H100 for the base, on-demand for bursts (layer reserved) keeps 3.44"
        )),
        "{kept:?}"
    );
    assert_eq!(
        kept.len(),
        2,
        "the hybrid scenario's layers take the catalog's rates: {kept:?}"
    );
    ws.apply_pack(&pack, NOW).unwrap();
    let after = totals(&mut ws);
    assert_eq!(after[1], before[1], "all-cloud keeps its quoted and overridden rates");
    assert_ne!(after[0], before[0], "hybrid takes the new on-demand rate");
    assert_eq!(
        ws.scenario("all-cloud")
            .unwrap()
            .layers
            .iter()
            .find(|l| l.id == "on-demand")
            .unwrap()
            .price_per_gpu_hour
            .as_ref()
            .map(|o| o.value),
        Some(dec!(5.10))
    );
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
