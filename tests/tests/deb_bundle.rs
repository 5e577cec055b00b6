//! The .deb that `cargo xtask test` bundles from the debug build: it holds the five sample
//! workspaces (beside the catalog), and each one, extracted, opens from the start screen as a copy
//! and compares at least two scenarios with figures, keeping none out; the enterprise hybrid has
//! its vendors, checklists and memo draft. xtask names the .deb in `PLANNER_DEB`.
// Test code: a failed unwrap is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::Command;

#[path = "../../src-tauri/crates/planner-cli/tests/sample_checks/mod.rs"]
mod sample_checks;

/// The .deb named by `PLANNER_DEB`; without it the test fails (it must not pass unchecked).
fn deb() -> PathBuf {
    let Some(path) = std::env::var_os("PLANNER_DEB") else {
        panic!(
            "PLANNER_DEB is not set: run `cargo xtask test`, which bundles the .deb and names it there, or set PLANNER_DEB to a .deb built with `npx tauri bundle --debug --bundles deb`"
        );
    };
    let path = PathBuf::from(path);
    assert!(
        path.is_file(),
        "PLANNER_DEB names {}, which is not a file",
        path.display()
    );
    path
}

#[test]
#[ignore = "needs the .deb bundled by `cargo xtask test` (PLANNER_DEB)"]
fn the_deb_ships_five_samples_that_open_and_compare() {
    let deb = deb();
    let listing = Command::new("dpkg-deb").arg("-c").arg(&deb).output().unwrap();
    assert!(listing.status.success(), "{}", String::from_utf8_lossy(&listing.stderr));
    let listing = String::from_utf8_lossy(&listing.stdout);
    let in_deb = |suffix: &str| listing.lines().any(|l| l.ends_with(suffix));
    for id in sample_checks::SAMPLES {
        assert!(
            in_deb(&format!("/samples/{id}.cpw")),
            "{id}.cpw is not in the .deb:\n{listing}"
        );
        // Installed as root, read by every user: the copy into their documents needs it.
        let line = listing
            .lines()
            .find(|l| l.ends_with(&format!("/samples/{id}.cpw")))
            .unwrap();
        assert!(
            line.starts_with("-rw-r--r--"),
            "{id}.cpw is not readable by every user: {line}"
        );
    }
    // The static resources are still there beside them.
    assert!(in_deb("/catalogs/accelerators.toml"), "{listing}");
    assert!(in_deb("/catalogs/checklists/d1-compliance.toml"), "{listing}");

    let dir = tempfile::tempdir().unwrap();
    let unpacked = Command::new("dpkg-deb")
        .arg("-x")
        .arg(&deb)
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(unpacked.success());
    // Tauri puts a .deb's resources in /usr/lib/<product name>/.
    let resources = dir.path().join("usr/lib/Compute Planner");
    let samples = resources.join("samples");
    assert!(samples.is_dir(), "{} is missing", samples.display());
    sample_checks::check_samples_dir(&resources.join("catalogs"), &samples);
    sample_checks::check_refusals(&resources.join("catalogs"), &samples);
}
