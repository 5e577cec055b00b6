//! The five sample workspaces built from their recipes (`catalogs/samples/recipes/`) with
//! `planner workspace sample`, then listed and opened as the start screen does: each compares at
//! least two scenarios with figures and keeps none out; the enterprise hybrid carries vendors,
//! checklists and a memo draft. A recipe that fails leaves no file behind.
// Test code: a failed unwrap is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod sample_checks;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn build(recipe: &Path, out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_planner"))
        .arg("--catalog")
        .arg(root().join("catalogs"))
        .args(["workspace", "sample"])
        .arg(recipe)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn every_recipe_builds_a_sample_the_start_screen_opens() {
    let samples = tempfile::tempdir().unwrap();
    for id in sample_checks::SAMPLES {
        let recipe = root().join(format!("catalogs/samples/recipes/{id}.toml"));
        let out = samples.path().join(format!("{id}.cpw"));
        let run = build(&recipe, &out);
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "{id}: {}{stdout}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(stdout.contains("compared: "), "{stdout}");
    }
    // Building again over an existing file is refused, and the file is kept.
    let again = build(
        &root().join("catalogs/samples/recipes/enterprise-hybrid.toml"),
        &samples.path().join("enterprise-hybrid.cpw"),
    );
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    sample_checks::check_samples_dir(&root().join("catalogs"), samples.path());
    sample_checks::check_refusals(&root().join("catalogs"), samples.path());
}

#[test]
fn a_recipe_that_fails_leaves_no_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let samples = root().join("catalogs/samples");
    // A sign-off before every blocking item is answered: refused, naming what is open.
    let recipe = dir.path().join("half.toml");
    let text = format!(
        "scenarios = {:?}\ntitle = \"Sample: half\"\ndescription = \"d\"\n[compare]\nselected = [\"hybrid\", \"all-cloud\"]\n\
         [[checklists]]\nscenario = \"hybrid\"\nreviewer = \"R\"\nsign_off = \"too early\"\n\
         [[checklists.answers]]\nitem = \"ec-classify\"\nstatus = \"pass\"\nnote = \"checked\"\n",
        samples.join("enterprise-hybrid.json").display().to_string()
    );
    std::fs::write(&recipe, text).unwrap();
    let out = dir.path().join("half.cpw");
    let run = build(&recipe, &out);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(
        stderr.contains("was not built") && stderr.contains("ex-notice-and-fee"),
        "{stderr}"
    );
    assert!(!out.exists());
    // A misspelt field is refused by name.
    std::fs::write(&recipe, "scenario = \"x.json\"\n").unwrap();
    let run = build(&recipe, &out);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("scenario"), "{stderr}");
    assert!(!out.exists());
}
