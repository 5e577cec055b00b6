//! End to end, the workspace as a person uses it: create one, add a workload and two scenarios
//! (buy versus rent) on screen, see the comparison with its charts, undo and redo an edit,
//! close, reopen: everything is there. The figures on screen, in the exported workbook (read by
//! openpyxl) and in the file (read by the store and evaluated by the engine) agree. Screenshots
//! are written to `artifacts/e2e/workspace-*.png`.
//!
//! Choosing a file goes through the system's dialog, which WebDriver cannot drive: the test calls
//! the command the dialog's answer feeds (`create_workspace`, `export_comparison`) directly and
//! drives everything else through the window.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use std::path::Path;
use std::process::Command;

use driver::{App, workspace_root};
use planner_core::engine::blocks::finance::present;
use planner_store::Workspace;
use serde_json::{Value, json};

const TITLE: &str = "Client A: buy or rent for the chat assistant";

/// The digits of a figure as shown (currency symbol, separators and locale dropped).
fn digits(text: &str) -> String {
    text.chars().filter(char::is_ascii_digit).collect()
}

fn scenario_ids(session: &Value) -> Vec<(String, String)> {
    session["workspace"]["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_owned(),
                s["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

async fn wait_saved(app: &App) {
    app.wait_text("[data-testid='saved-state']", "All changes saved").await;
}

/// Reads an XLSX comparison sheet with openpyxl: the header row and the "Total cash" row.
fn xlsx_total_cash(path: &Path) -> Vec<(String, f64)> {
    let script = r#"
import json, sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1], data_only=True)["Comparison"]
rows = list(ws.iter_rows(values_only=True))
header = rows[0]
total = next(r for r in rows if isinstance(r[0], str) and r[0].startswith("Total cash"))
print(json.dumps([[header[i], total[i]] for i in range(1, len(header)) if header[i] is not None]))
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .output()
        .expect("python3 (with openpyxl: pip install openpyxl)");
    assert!(
        out.status.success(),
        "openpyxl could not read {}: {} (pip install openpyxl)",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let pairs: Vec<(String, f64)> = serde_json::from_slice(&out.stdout).unwrap();
    pairs
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn create_edit_compare_undo_close_and_reopen() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let path = work.path().join("client-a.cpw");
    let catalog_dir = workspace_root().join("catalogs");
    let env = [("PLANNER_CONFIG_DIR", config.as_path())];
    let base_args = vec!["--catalog".to_owned(), catalog_dir.display().to_string()];

    // 1. The start screen, then a new workspace.
    let app = App::launch_with_env(&base_args, &env).await;
    app.text_of("[data-testid='start-new']").await;
    app.screenshot("workspace-1-start").await;
    app.invoke(
        "create_workspace",
        json!({ "path": path.display().to_string(), "title": TITLE }),
    )
    .await;
    app.exec("location.reload(); return true;", vec![]).await;
    app.wait_text("[data-testid='ws-title']", TITLE).await;

    // 2. A workload: a 70B model serving 30 billion tokens a month.
    app.click("[data-testid='tab-workloads']").await;
    app.click("[data-testid='add-workload']").await;
    app.fill("[data-testid='new-workload-name']", "Chat assistant").await;
    app.fill("[data-testid='new-workload-kind']", "inference").await;
    app.click("[data-testid='new-workload-create']").await;
    app.fill("[data-testid='workload-parameters']", "70").await;
    app.fill("[data-testid='workload-tokens']", "30000000000").await;
    wait_saved(&app).await;
    app.text_of("[data-testid='sizing-result']").await;
    // What the stated demand needs on the chosen accelerator (issue #20).
    let gpus = app.text_of("[data-testid='sizing-gpus-throughput']").await;
    assert!(gpus.trim().parse::<u32>().is_ok_and(|n| n >= 1), "{gpus}");
    app.screenshot("workspace-2-workload").await;

    // 3. Two scenarios from the templates: buy and rent.
    app.click("[data-testid='tab-scenarios']").await;
    app.click("[data-testid='add-scenario-buy']").await;
    wait_saved(&app).await;
    app.click("[data-testid='add-scenario-rent']").await;
    wait_saved(&app).await;
    let session = app.invoke("session", json!({})).await;
    let ids = scenario_ids(&session);
    assert_eq!(ids.len(), 2, "two scenarios: {ids:?}");
    let (buy, buy_name) = ids[0].clone();
    let (rent, _) = ids[1].clone();
    assert_eq!(
        session["workspace"]["scenarios"][0]["layers"],
        json!(["owned", "on-demand"]),
        "the buy template owns its GPUs and bridges their lead time on demand"
    );
    assert_eq!(session["workspace"]["scenarios"][1]["layers"], json!(["on-demand"]));
    app.screenshot("workspace-3-scenarios").await;

    // 4. The comparison and its charts.
    app.click("[data-testid='tab-compare']").await;
    for id in [&buy, &rent] {
        if !app.exists(&format!("[data-testid='compare-chosen-{id}']")).await {
            app.click(&format!("[data-testid='compare-pick-{id}']")).await;
        }
    }
    app.text_of("[data-testid='compare-table']").await;
    let buy_total = app.text_of(&format!("[data-testid='figure-{buy}-total_cash']")).await;
    let rent_total = app.text_of(&format!("[data-testid='figure-{rent}-total_cash']")).await;
    // Both charts are drawn on a canvas (waited for: the chart library loads on first use).
    app.text_of("[data-testid='chart-cumulative'] canvas").await;
    app.text_of("[data-testid='chart-monthly'] canvas").await;
    app.screenshot("workspace-4-compare").await;
    app.exec("window.scrollTo(0, 0); document.querySelector(\"[data-testid='chart-cumulative']\").scrollIntoView(); return true;", vec![]).await;
    app.screenshot("workspace-5-charts").await;

    // The exported workbook, read by openpyxl, says what the screen says.
    let xlsx = work.path().join("comparison.xlsx");
    app.invoke(
        "export_comparison",
        json!({ "path": xlsx.display().to_string(), "format": "xlsx" }),
    )
    .await;
    let workbook = xlsx_total_cash(&xlsx);
    assert_eq!(workbook.len(), 2, "{workbook:?}");
    assert_eq!(digits(&format!("{:.2}", workbook[0].1)), digits(&buy_total));
    assert_eq!(digits(&format!("{:.2}", workbook[1].1)), digits(&rent_total));

    // 5. Undo and redo an edit of the buy scenario's name.
    app.click("[data-testid='tab-scenarios']").await;
    app.click(&format!("[data-testid='scenario-row-{buy}']")).await;
    let renamed = "Buy our own H100 servers";
    app.fill("[data-testid='scenario-name']", renamed).await;
    wait_saved(&app).await;
    app.wait_text(&format!("[data-testid='scenario-row-{buy}']"), renamed)
        .await;
    app.click("[data-testid='undo']").await;
    app.wait_text(&format!("[data-testid='scenario-row-{buy}']"), &buy_name)
        .await;
    app.screenshot("workspace-6-undone").await;
    app.click("[data-testid='redo']").await;
    app.wait_text(&format!("[data-testid='scenario-row-{buy}']"), renamed)
        .await;
    app.close().await;

    // 6. Reopen: the workspace named at launch opens with everything in it (once the closed app
    // has let go of the file).
    drop(planner_tests::open_when_free(&path).unwrap());
    let mut args = base_args.clone();
    args.extend(["--workspace".to_owned(), path.display().to_string()]);
    let app = App::launch_with_env(&args, &env).await;
    app.wait_text("[data-testid='ws-title']", TITLE).await;
    app.click("[data-testid='tab-workloads']").await;
    let workloads = app.text_of("[data-testid='workload-list']").await;
    assert!(workloads.contains("Chat assistant"), "{workloads}");
    app.click("[data-testid='tab-scenarios']").await;
    app.wait_text(&format!("[data-testid='scenario-row-{buy}']"), renamed)
        .await;
    app.text_of(&format!("[data-testid='scenario-row-{rent}']")).await;
    app.click("[data-testid='tab-compare']").await;
    let again = app.text_of(&format!("[data-testid='figure-{buy}-total_cash']")).await;
    assert_eq!(again, buy_total, "the same total after reopening");
    app.screenshot("workspace-7-reopened").await;
    app.close().await;

    // The file holds what the screen showed, and the engine computes the same totals from it.
    let ws = planner_tests::open_when_free(&path).unwrap();
    ws.integrity_check().unwrap();
    assert_eq!(ws.scenario(&buy).unwrap().name, renamed);
    assert_eq!(ws.workloads()[0].name, "Chat assistant");
    let (comparison, evaluation, _) = planner_app::compare::evaluate_selection(&ws).unwrap();
    assert!(comparison.problems.is_empty(), "{:?}", comparison.problems);
    let eval = evaluation.unwrap();
    let engine: Vec<String> = eval
        .scenarios
        .iter()
        .map(|s| digits(&format!("{:.2}", present(s.totals.total_cash))))
        .collect();
    assert_eq!(engine, [digits(&buy_total), digits(&rent_total)]);
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn a_newer_workspace_or_a_foreign_file_is_refused_on_screen_and_left_untouched() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let catalog_dir = workspace_root().join("catalogs");
    // A workspace from a "newer version": one schema past this build's in its header.
    let newer = work.path().join("newer.cpw");
    {
        let files = planner_store::read_catalog_dir(&catalog_dir).unwrap();
        let settings = planner_core::engine::workspace::content::WorkspaceSettings::new(
            "From the future",
            planner_core::calendar::YearMonth::new(2027, 1).unwrap(),
        );
        drop(Workspace::create(&newer, &settings, &files, NOW).unwrap());
        let conn = rusqlite::Connection::open(&newer).unwrap();
        let future = planner_store::workspace::SCHEMA_VERSION + 1;
        conn.pragma_update(None, "user_version", future).unwrap();
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    let notes = work.path().join("notes.cpw");
    std::fs::write(&notes, "minutes of the steering committee\n".repeat(10)).unwrap();
    for (file, expected, shot) in [
        (&newer, "newer version of Compute Planner", "workspace-refused-newer"),
        (
            &notes,
            "is not a Compute Planner workspace",
            "workspace-refused-foreign",
        ),
    ] {
        let before = std::fs::read(file).unwrap();
        let args = vec![
            "--catalog".to_owned(),
            catalog_dir.display().to_string(),
            "--workspace".to_owned(),
            file.display().to_string(),
        ];
        let app = App::launch_with_env(&args, &[("PLANNER_CONFIG_DIR", config.as_path())]).await;
        let card = app
            .wait_text("[data-testid='start-screen'] [data-testid='error-screen']", expected)
            .await;
        assert!(card.contains("Nothing was changed"), "{card}");
        app.screenshot(shot).await;
        app.close().await;
        assert_eq!(
            std::fs::read(file).unwrap(),
            before,
            "{} is byte for byte unchanged",
            file.display()
        );
    }
    let mut left: Vec<String> = std::fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // The recent list's folder may or may not have been made; only the files beside the two count.
    left.retain(|name| name != "config");
    left.sort();
    assert_eq!(
        left,
        ["newer.cpw", "notes.cpw"],
        "no journal or lock file left beside them"
    );
}

/// A workspace opened read-only (`--read-only`, the same state a read-only file or folder
/// gives): the window says so and why, the compare figures are there, an undo is refused on
/// screen with the reason, the file stays byte for byte as it was, and Save As continues in an
/// editable copy (issue #14).
#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn a_read_only_workspace_says_why_refuses_changes_and_saves_as_an_editable_copy() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let catalog_dir = workspace_root().join("catalogs");
    let path = work.path().join("review.cpw");
    {
        let files = planner_store::read_catalog_dir(&catalog_dir).unwrap();
        let text = std::fs::read_to_string(catalog_dir.join("samples/enterprise-hybrid.json")).unwrap();
        let sample = planner_core::engine::input::scenario_file::parse(&text).unwrap();
        let (settings, _, _) = planner_core::engine::workspace::content::from_scenario_file(sample.clone());
        let (ws, _) = Workspace::create_with(&path, &settings, &files, NOW, |ws| {
            ws.import(&sample, "sample.json", NOW)
        })
        .unwrap();
        drop(ws);
    }
    let before = std::fs::read(&path).unwrap();
    let args = vec![
        "--catalog".to_owned(),
        catalog_dir.display().to_string(),
        "--workspace".to_owned(),
        path.display().to_string(),
        "--read-only".to_owned(),
    ];
    let app = App::launch_with_env(&args, &[("PLANNER_CONFIG_DIR", config.as_path())]).await;
    let notice = app
        .wait_text("[data-testid='read-only-notice']", "Opened read-only:")
        .await;
    assert!(notice.contains("it was opened read-only on request"), "{notice}");
    assert_eq!(app.text_of("[data-testid='saved-state']").await, "Read-only");
    // Choosing what to compare works (held in memory): the figures are computed as usual.
    app.click("[data-testid='tab-compare']").await;
    for id in ["hybrid", "all-cloud"] {
        app.click(&format!("[data-testid='compare-pick-{id}']")).await;
    }
    app.wait_text("[data-testid='compare-table']", "Total cash").await;
    assert!(!app.text_of("[data-testid='figure-hybrid-total_cash']").await.is_empty());
    app.screenshot("workspace-read-only").await;

    // The sample's import is an undo step; undoing it is a change, refused with the reason.
    app.click("[data-testid='undo']").await;
    let refused = app.wait_text("[data-testid='notice']", "open read-only").await;
    assert!(refused.contains("Save As"), "{refused}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is byte for byte unchanged"
    );

    let copy = work.path().join("copy.cpw");
    let info = app
        .invoke("save_workspace_as", json!({ "path": copy.display().to_string() }))
        .await;
    assert!(info["read_only"].is_null(), "{info}");
    app.close().await;
    assert!(Workspace::open(&copy).unwrap().read_only().is_none());
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
