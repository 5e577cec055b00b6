//! `planner catalog keygen | pack | verify | diff | apply` (issue #18), with minisign (the
//! reference implementation) checking that packs are signed in its format, both ways. A missing
//! tool fails the test with what to install; nothing is skipped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn planner(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_planner"))
        .args(args)
        .arg("--catalog")
        .arg(root().join("catalogs"))
        .current_dir(dir)
        .output()
        .expect("run planner")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(out: &Output, what: &str) -> String {
    assert!(out.status.success(), "{what} failed ({}):\n{}", out.status, text(out));
    text(out)
}

fn tool(cmd: &mut Command, what: &str) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("{what}: {e}; install it (apt-get install minisign python3)"))
}

/// `planner catalog apply FILE --workspace ws.cpw --trust pub1.pub` in `dir`.
fn apply(file: &str, dir: &Path) -> Output {
    planner(
        &["catalog", "apply", file, "--workspace", "ws.cpw", "--trust", "pub1.pub"],
        dir,
    )
}

fn next() -> String {
    root().join("tests/fixtures/catalog-next").display().to_string()
}

/// A key made by `planner catalog keygen` and a pack of the fixture signed with it.
fn signed_pack(dir: &Path) {
    ok(&planner(&["catalog", "keygen", "--out", "pub1"], dir), "keygen");
    ok(
        &planner(
            &[
                "catalog",
                "pack",
                &next(),
                "--sign-with",
                "pub1.key",
                "--publisher",
                "Test Publisher",
                "--date",
                "2026-12-01",
                "--out",
                "next.cpack",
            ],
            dir,
        ),
        "pack",
    );
}

#[test]
fn a_pack_verifies_only_with_its_publishers_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    signed_pack(d);
    let refused = planner(&["catalog", "verify", "next.cpack"], d);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused).contains("not among the trusted publisher keys"),
        "{}",
        text(&refused)
    );
    let out = ok(
        &planner(&["catalog", "verify", "next.cpack", "--trust", "pub1.pub"], d),
        "verify",
    );
    assert!(out.contains("valid catalog pack"), "{out}");
    assert!(
        out.contains("version    2026.12.0") && out.contains("date       2026-12-01"),
        "{out}"
    );
    // One byte of the pack file changed (inside the compressed offers file) is refused.
    let mut bytes = std::fs::read(d.join("next.cpack")).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    std::fs::write(d.join("bad.cpack"), &bytes).unwrap();
    let bad = planner(&["catalog", "verify", "bad.cpack", "--trust", "pub1.pub"], d);
    assert_eq!(bad.status.code(), Some(1), "{}", text(&bad));
    assert!(
        text(&bad).contains("the catalog pack was refused and nothing was changed"),
        "{}",
        text(&bad)
    );
    // The secret key is readable by its owner only.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(d.join("pub1.key")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn minisign_verifies_our_signature_and_we_verify_a_key_minisign_made() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    signed_pack(d);
    let unzip = tool(
        Command::new("python3")
            .args(["-m", "zipfile", "-e", "next.cpack", "parts"])
            .current_dir(d),
        "python3",
    );
    assert!(unzip.status.success(), "{}", text(&unzip));
    let check = tool(
        Command::new("minisign")
            .args([
                "-V",
                "-p",
                "pub1.pub",
                "-m",
                "parts/manifest.toml",
                "-x",
                "parts/manifest.toml.minisig",
            ])
            .current_dir(d),
        "minisign",
    );
    assert!(
        check.status.success(),
        "minisign refused our signature:\n{}",
        text(&check)
    );
    assert!(
        text(&check).contains("publisher: Test Publisher; version: 2026.12.0; date: 2026-12-01"),
        "{}",
        text(&check)
    );
    // A key pair made by minisign itself (encrypted with a passphrase, its default) signs a
    // pack the app then accepts.
    let mut keygen = Command::new("minisign");
    keygen
        .args(["-G", "-p", "theirs.pub", "-s", "theirs.key"])
        .current_dir(d)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = keygen
        .spawn()
        .unwrap_or_else(|e| panic!("minisign: {e}; install it (apt-get install minisign)"));
    {
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"their passphrase\ntheir passphrase\n")
            .unwrap();
    }
    let made = child.wait_with_output().unwrap();
    assert!(made.status.success(), "{}", text(&made));
    let packed = Command::new(env!("CARGO_BIN_EXE_planner"))
        .args([
            "catalog",
            "pack",
            &next(),
            "--sign-with",
            "theirs.key",
            "--passphrase-env",
            "THEIR_PASS",
        ])
        .args(["--publisher", "Them", "--out", "theirs.cpack"])
        .env("THEIR_PASS", "their passphrase")
        .current_dir(d)
        .output()
        .unwrap();
    ok(&packed, "pack with a key minisign made");
    ok(
        &planner(&["catalog", "verify", "theirs.cpack", "--trust", "theirs.pub"], d),
        "verify",
    );
    let wrong = planner(&["catalog", "verify", "theirs.cpack", "--trust", "pub1.pub"], d);
    assert_eq!(wrong.status.code(), Some(1));
}

#[test]
fn diff_lists_the_fixtures_three_changes_between_a_folder_and_a_pack() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    signed_pack(d);
    let catalogs = root().join("catalogs").display().to_string();
    let json = ok(
        &planner(
            &[
                "catalog",
                "diff",
                &catalogs,
                "next.cpack",
                "--trust",
                "pub1.pub",
                "--json",
            ],
            d,
        ),
        "diff",
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (v["added"].as_u64(), v["removed"].as_u64(), v["changed"].as_u64()),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(v["entries"][0]["figures"][0]["old"]["low"], "6.88");
    assert_eq!(v["entries"][0]["figures"][0]["new"]["low"], "3.9");
    let shown = ok(&planner(&["catalog", "diff", &catalogs, &next()], d), "diff folders");
    assert!(
        shown.contains("on_demand_per_gpu_hour: 6.88 (as of 2026-09-25) → 3.9 (as of 2026-12-01)"),
        "{shown}"
    );
    assert!(shown.contains("removed offer vultr-mi300x"), "{shown}");
}

#[test]
fn apply_shows_each_scenarios_totals_and_refuses_a_rollback() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    signed_pack(d);
    let sample = root()
        .join("catalogs/samples/enterprise-hybrid.json")
        .display()
        .to_string();
    ok(
        &planner(&["workspace", "new", "ws.cpw", "--from", &sample], d),
        "workspace new",
    );
    let out = ok(&apply("next.cpack", d), "apply");
    assert!(
        out.contains("Applied to ws.cpw: \"Apply catalog pack 2026.12.0 from Test Publisher (was 2026.11.0)\""),
        "{out}"
    );
    assert!(out.contains("Scenarios (decision total and NPV, old → new):"), "{out}");
    // The same pack again: nothing to apply.
    let again = apply("next.cpack", d);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again).contains("already the catalog in use"), "{}", text(&again));
    // The shipped catalog as a pack (2026.11.0) onto a workspace on 2026.12.0: a rollback.
    let catalogs = root().join("catalogs").display().to_string();
    ok(
        &planner(
            &[
                "catalog",
                "pack",
                &catalogs,
                "--sign-with",
                "pub1.key",
                "--publisher",
                "Test Publisher",
                "--out",
                "old.cpack",
            ],
            d,
        ),
        "pack old",
    );
    let rollback = apply("old.cpack", d);
    assert_eq!(rollback.status.code(), Some(1));
    assert!(text(&rollback).contains("roll prices back"), "{}", text(&rollback));
}
