//! A workspace in a read-only folder, or a read-only workspace file, as a normal user has them
//! (issue #14): `workspace show`, `export` and `audit verify` used to fail with "disk I/O error".
//! Now the file opens read-only and says so; reading, exporting, verifying and Save As work;
//! a memo is refused before any file is written; nothing is written to the folder.
//!
//! Permission bits do not bind root, and CI runs as root: there the command runs as the
//! unprivileged user `nobody` (through util-linux's `setpriv`), from a copy of the binary in a
//! folder that user may enter. As any other user it runs as that user.
// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().expect("run id -u");
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A scratch folder the unprivileged user can enter, with the binary and the catalog in it.
struct Scratch {
    dir: tempfile::TempDir,
    root: bool,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        chmod(dir.path(), 0o755);
        let bin = dir.path().join("planner");
        std::fs::copy(env!("CARGO_BIN_EXE_planner"), &bin).unwrap();
        chmod(&bin, 0o755);
        let catalogs = dir.path().join("catalogs");
        copy_dir(&root().join("catalogs"), &catalogs);
        Scratch { dir, root: is_root() }
    }

    /// A new folder `name` holding a workspace made from the sample, owned by whoever runs the
    /// commands.
    fn workspace(&self, name: &str) -> PathBuf {
        let folder = self.dir.path().join(name);
        std::fs::create_dir(&folder).unwrap();
        let path = folder.join("plan.cpw");
        let out = Command::new(self.dir.path().join("planner"))
            .arg("--catalog")
            .arg(self.dir.path().join("catalogs"))
            .args(["workspace", "new"])
            .arg(&path)
            .arg("--from")
            .arg(root().join("catalogs/samples/enterprise-hybrid.json"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        self.hand_over(&folder);
        path
    }

    /// Gives `folder` and what is in it to the user the commands run as.
    fn hand_over(&self, folder: &Path) {
        if self.root {
            let out = Command::new("chown")
                .args(["-R", "nobody"])
                .arg(folder)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        }
    }

    /// Runs the binary as the unprivileged user.
    fn planner(&self, args: &[&str]) -> Output {
        let bin = self.dir.path().join("planner");
        let catalog = self.dir.path().join("catalogs");
        let mut cmd = if self.root {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
                .arg(&bin);
            c
        } else {
            Command::new(&bin)
        };
        cmd.arg("--catalog")
            .arg(&catalog)
            .args(args)
            .current_dir(self.dir.path())
            .env("HOME", self.dir.path())
            .env("TMPDIR", std::env::temp_dir())
            .output()
            .expect("run planner (as root, util-linux's setpriv must be installed)")
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    chmod(to, 0o755);
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
            chmod(&target, 0o644);
        }
    }
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

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_workspace_in_a_read_only_folder_reads_exports_verifies_and_saves_elsewhere() {
    let s = Scratch::new();
    let path = s.workspace("locked");
    let dir = path.parent().unwrap().to_path_buf();
    chmod(&dir, 0o555);
    let before = folder(&dir);
    let p = path.to_str().unwrap();

    let show = s.planner(&["workspace", "show", p]);
    assert!(show.status.success(), "{}", text(&show));
    let shown = text(&show);
    assert!(
        shown.contains(&format!(
            "read-only: its folder {} is read-only for you, and the workspace keeps its write log beside the file",
            dir.display()
        )),
        "{shown}"
    );
    assert!(
        shown.contains("enterprise-hybrid") || shown.contains("scenario(s):"),
        "{shown}"
    );
    assert!(!shown.contains("disk I/O error"), "{shown}");

    let export = s.planner(&["workspace", "export", p]);
    assert!(export.status.success(), "{}", text(&export));
    let exported: serde_json::Value = serde_json::from_slice(&export.stdout).unwrap();
    assert!(!exported["scenarios"].as_array().unwrap().is_empty());

    let check = s.planner(&["workspace", "check", p]);
    assert!(check.status.success(), "{}", text(&check));
    let audit = s.planner(&["audit", "verify", p]);
    assert!(audit.status.success(), "{}", text(&audit));
    assert!(text(&audit).contains("checklist log intact"), "{}", text(&audit));

    // A memo is recorded in its workspace: refused, and no PDF is left anywhere.
    let out_dir = s.dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    s.hand_over(&out_dir);
    let pdf = out_dir.join("memo.pdf");
    let memo = s.planner(&["memo", p, "--out", pdf.to_str().unwrap()]);
    assert_eq!(memo.status.code(), Some(1), "{}", text(&memo));
    assert!(
        text(&memo).contains("is open read-only") && text(&memo).contains("cannot make a memo from it"),
        "{}",
        text(&memo)
    );
    assert!(!pdf.exists());

    // Save As to a folder the user may write: the copy is editable.
    let copy = out_dir.join("copy.cpw");
    let saved = s.planner(&["workspace", "save-as", p, copy.to_str().unwrap()]);
    assert!(saved.status.success(), "{}", text(&saved));
    let shown_copy = s.planner(&["workspace", "show", copy.to_str().unwrap()]);
    assert!(shown_copy.status.success(), "{}", text(&shown_copy));
    assert!(!text(&shown_copy).contains("read-only"), "{}", text(&shown_copy));

    assert_eq!(folder(&dir), before, "nothing was written to the read-only folder");
    chmod(&dir, 0o755);
}

#[test]
fn a_read_only_workspace_file_opens_read_only_and_says_why() {
    let s = Scratch::new();
    let path = s.workspace("file");
    chmod(&path, 0o444);
    let before = folder(path.parent().unwrap());
    let show = s.planner(&["workspace", "show", path.to_str().unwrap()]);
    assert!(show.status.success(), "{}", text(&show));
    assert!(
        text(&show).contains("read-only: the file is read-only for you"),
        "{}",
        text(&show)
    );
    let audit = s.planner(&["audit", "verify", path.to_str().unwrap()]);
    assert!(audit.status.success(), "{}", text(&audit));
    assert_eq!(folder(path.parent().unwrap()), before);
}

#[test]
fn a_read_only_workspace_with_unmerged_edits_in_its_log_shows_them() {
    let s = Scratch::new();
    let path = s.workspace("log");
    // Leave an edit in the write-ahead log, as a crash would: a second connection writes with
    // checkpoints off, and the file and its log are copied while it is still open.
    let wal = PathBuf::from(format!("{}-wal", path.display()));
    let copy = path.with_file_name("crashed.cpw");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        conn.execute(
            "UPDATE settings SET body = json_set(body, '$.title', 'Title only in the log') WHERE id = 1",
            [],
        )
        .unwrap();
        std::fs::copy(&path, &copy).unwrap();
        std::fs::copy(&wal, format!("{}-wal", copy.display())).unwrap();
    }
    std::fs::remove_file(&path).unwrap();
    let dir = copy.parent().unwrap().to_path_buf();
    s.hand_over(&dir);
    chmod(&dir, 0o555);
    let before = folder(&dir);
    let show = s.planner(&["workspace", "show", copy.to_str().unwrap()]);
    assert!(show.status.success(), "{}", text(&show));
    assert!(text(&show).starts_with("Title only in the log\n"), "{}", text(&show));
    assert!(text(&show).contains("read-only: its folder"), "{}", text(&show));
    assert_eq!(folder(&dir), before, "the log was read, not merged into the file");
    chmod(&dir, 0o755);
}
