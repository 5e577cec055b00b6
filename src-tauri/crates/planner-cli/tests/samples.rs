//! The five sample workspaces built from their recipes (`catalogs/samples/recipes/`) with
//! `planner workspace sample`, then listed and opened as the start screen does: each compares at
//! least two scenarios with figures and keeps none out; the enterprise hybrid carries vendors,
//! checklists and a memo draft. A recipe that fails leaves no file behind. `workspace lock` and
//! `unlock` lock and unlock the enterprise hybrid's compared set as the app does.
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

fn planner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_planner"))
        .arg("--catalog")
        .arg(root().join("catalogs"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_command_line_locks_and_unlocks_a_workspace_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("eh.cpw");
    let built = build(&root().join("catalogs/samples/recipes/enterprise-hybrid.toml"), &ws);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let file = ws.to_str().unwrap();
    let compared = planner_store::Workspace::open(&ws).unwrap().view().unwrap().selected;
    assert!(compared.len() >= 2);

    let locked = planner(&["workspace", "lock", file]);
    let text = String::from_utf8_lossy(&locked.stdout);
    assert!(locked.status.success(), "{}", String::from_utf8_lossy(&locked.stderr));
    assert!(
        text.starts_with(&format!("locked {} scenarios at ", compared.len())),
        "{text}"
    );
    for id in &compared {
        assert!(text.contains(&format!("({id})")), "{id} in {text}");
    }
    // The lock is in the file, as the app reads it, and `show` says so.
    let lock = planner_store::Workspace::open(&ws).unwrap().lock().unwrap().unwrap();
    assert_eq!(lock.scenarios, compared);
    let shown = String::from_utf8_lossy(&planner(&["workspace", "show", file]).stdout).into_owned();
    assert!(
        shown.contains(&format!("locked baseline: {}", compared.join(", "))),
        "{shown}"
    );
    // Locking twice is refused with how to unlock; the lock stays.
    let again = planner(&["workspace", "lock", file]);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).to_lowercase().contains("unlock"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );

    let unlocked = planner(&["workspace", "unlock", file]);
    assert!(
        unlocked.status.success(),
        "{}",
        String::from_utf8_lossy(&unlocked.stderr)
    );
    assert!(
        String::from_utf8_lossy(&unlocked.stdout)
            .contains(&format!("unlocked the baseline of {} scenarios", compared.len()))
    );
    assert!(planner_store::Workspace::open(&ws).unwrap().lock().unwrap().is_none());
    let twice = planner(&["workspace", "unlock", file]);
    assert!(twice.status.success());
    assert!(String::from_utf8_lossy(&twice.stdout).contains("has no locked baseline; nothing changed"));
}
