//! End to end, a client workshop (issue 17) in the real app: open the enterprise-hybrid sample
//! from the start screen (a copy lands in the documents folder), lock the baseline, try to edit
//! a locked scenario (refused, with how to unlock), drag the demand slider and see the totals and
//! both charts change, keep the what-if as a scenario and undo it, then present: full screen,
//! large type, the what-if marked, the views stepped with the arrow keys, Esc leaving.
//! Screenshots: `artifacts/e2e/workshop-*.png`.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use std::path::{Path, PathBuf};

use driver::{App, workspace_root};
use serde_json::{Value, json};

/// The sample workspaces `cargo xtask samples` builds.
fn samples_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PLANNER_SAMPLES_DIR") {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace_root().join("target"), PathBuf::from);
    target.join("samples")
}

async fn open_sample(app: &App, docs: &Path) {
    app.wait_text("[data-testid='samples']", "enterprise hybrid").await;
    app.screenshot("workshop-1-start").await;
    app.click("[data-testid='sample-enterprise-hybrid']").await;
    app.text_of("[data-testid='ws-title']").await;
    let copies: Vec<PathBuf> = std::fs::read_dir(docs.join("Compute Planner"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cpw"))
        .collect();
    assert_eq!(copies.len(), 1, "one copy in the documents folder: {copies:?}");
    assert!(
        copies[0]
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("enterprise-hybrid")
    );
}

/// Locks the compared set on the compare tab; returns the locked ids.
async fn lock(app: &App) -> Vec<String> {
    app.click("[data-testid='tab-compare']").await;
    app.text_of("[data-testid='compare-table']").await;
    app.click("[data-testid='lock-baseline']").await;
    app.wait_text("[data-testid='lock-banner']", "Baseline locked").await;
    let now = info(app).await;
    let locked: Vec<String> = now["lock"]["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert!(locked.len() >= 2, "{now}");
    app.screenshot("workshop-2-locked").await;
    locked
}

/// Renaming a locked scenario is refused, says how to unlock, and changes nothing.
async fn refused_edit(app: &App, id: &str) {
    let before = app.invoke("get_scenario", json!({ "id": id })).await;
    app.click("[data-testid='tab-scenarios']").await;
    app.click(&format!("[data-testid='scenario-row-{id}']")).await;
    app.fill("[data-testid='scenario-name']", "Renamed during the workshop")
        .await;
    let notice = app.wait_text("[data-testid='notice']", "locked").await;
    assert!(notice.contains("nlock"), "the refusal says how to unlock: {notice}");
    app.screenshot("workshop-3-refused").await;
    let after = app.invoke("get_scenario", json!({ "id": id })).await;
    assert_eq!(before["name"], after["name"], "nothing was saved");
}

/// The open workspace's summary, as the back end has it.
async fn info(app: &App) -> Value {
    app.invoke("session", json!({})).await["workspace"].clone()
}

fn cell_css(id: &str) -> String {
    format!("[data-testid='figure-{id}-decision_total']")
}

/// Drags the demand slider to half: the totals and both charts follow, marked as a what-if.
async fn drag_demand(app: &App, first: &str) {
    app.click("[data-testid='tab-compare']").await;
    app.text_of("[data-testid='compare-table']").await;
    let total_before = app.text_of(&cell_css(first)).await;
    let chart_before = app.text_of("[data-testid='chart-cumulative-summary']").await;
    app.click("[data-testid='what-if-open']").await;
    app.wait_text("[data-testid='what-if-replaces-demand']", "replaces")
        .await;
    for v in [90.0, 75.0, 60.0, 50.0] {
        app.slide("[data-testid='what-if-slider-demand']", v).await;
    }
    app.wait_text("[data-testid='what-if-active']", "demand").await;
    app.wait_text("[data-testid='what-if-mark-demand']", "what-if").await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let total_after = loop {
        let now = app.text_of(&cell_css(first)).await;
        if now != total_before || std::time::Instant::now() > deadline {
            break now;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_ne!(total_after, total_before, "the total follows the slider");
    let chart_after = app.text_of("[data-testid='chart-cumulative-summary']").await;
    assert_ne!(chart_after, chart_before, "the cumulative chart follows the slider");
    assert!(
        app.exists(&format!("[data-testid='was-{first}-decision_total']")).await,
        "the saved figure is shown beside it"
    );
    // The canvas charts are drawn (uPlot puts its canvas in the chart's frame).
    let canvases = app
        .exec("return document.querySelectorAll(\"[data-testid='chart-cumulative'] canvas, [data-testid='chart-monthly'] canvas\").length;", vec![])
        .await;
    if canvases.as_u64().unwrap() < 2 {
        let chart = app
            .exec("const c = document.querySelector(\"[data-testid='chart-cumulative']\"); return c ? c.innerText.slice(0, 300) + ' | ' + c.querySelector('.canvas').outerHTML.slice(0, 200) : 'none';", vec![])
            .await;
        panic!("the charts have {canvases} canvases: {chart}");
    }
    // The panel stays at the top while the comparison scrolls beneath it: the chart is brought
    // up to just below it, and the point 40 px into the chart is the chart's, not the panel's.
    let seen = app
        .exec(
            "const chart = document.querySelector(\"[data-testid='chart-cumulative'] .canvas\");
             const panel = document.querySelector(\"[data-testid='what-if']\");
             chart.closest('.body').scrollTop += chart.getBoundingClientRect().top - panel.getBoundingClientRect().bottom - 8;
             const r = chart.getBoundingClientRect();
             const hit = document.elementFromPoint(r.left + r.width / 2, r.top + 40);
             return hit !== null && chart.contains(hit) && panel.getBoundingClientRect().top >= 0;",
            vec![],
        )
        .await;
    assert_eq!(seen, true, "the chart is seen below the panel, which stays in view");
    app.screenshot("workshop-4-what-if").await;
    app.exec(
        "window.scrollTo(0, 0); document.querySelector(\"[data-testid='what-if']\").scrollIntoView(); return true;",
        vec![],
    )
    .await;
}

fn scenario_count(info: &Value) -> usize {
    info["scenarios"].as_array().unwrap().len()
}

/// Keeps the what-if as a scenario (its drivers as overrides with the workshop reason), then
/// undoes it.
async fn keep_and_undo(app: &App) {
    let before = scenario_count(&info(app).await);
    app.click("[data-testid='what-if-keep']").await;
    app.wait_text("[data-testid='notice']", "Kept the what-if").await;
    let now = info(app).await;
    assert_eq!(scenario_count(&now), before + 1);
    let kept = now["scenarios"].as_array().unwrap().last().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let spec = app.invoke("get_scenario", json!({ "id": kept })).await;
    let text = spec.to_string();
    assert!(
        text.contains("workshop what-if, 20"),
        "the drivers are overrides with the workshop reason: {text}"
    );
    app.screenshot("workshop-5-kept").await;
    app.click("[data-testid='undo']").await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while scenario_count(&info(app).await) != before {
        assert!(std::time::Instant::now() < deadline, "undo took the kept scenario away");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Presents: F5, large type, the what-if marked, four views stepped with →, Esc leaves.
async fn present(app: &App) {
    app.slide("[data-testid='what-if-slider-demand']", 60.0).await;
    app.wait_text("[data-testid='what-if-active']", "demand").await;
    app.exec(
        "document.activeElement && document.activeElement.blur(); return true;",
        vec![],
    )
    .await;
    app.press("F5", false, false).await;
    app.text_of("[data-testid='presenting']").await;
    app.wait_text("[data-testid='presenting-what-if']", "WHAT-IF").await;
    let size = app
        .exec(
            "return parseFloat(getComputedStyle(document.querySelector(\"[data-testid='presenting']\")).fontSize);",
            vec![],
        )
        .await;
    assert!(size.as_f64().unwrap() >= 20.0, "body type at least 20 px: {size}");
    let chrome = app
        .exec("const p = document.querySelector(\"[data-testid='presenting']\").getBoundingClientRect(); return p.top <= 0 && p.left <= 0 && p.width >= window.innerWidth && p.height >= window.innerHeight;", vec![])
        .await;
    assert_eq!(chrome, json!(true), "the presenting view covers the editing chrome");
    let names = ["comparison", "cumulative", "risk", "detail"];
    for (i, name) in names.iter().enumerate() {
        let view = app
            .exec(
                "return document.querySelector(\"[data-testid='presenting']\").dataset.view;",
                vec![],
            )
            .await;
        assert_eq!(view, json!(i.to_string()));
        app.screenshot(&format!("workshop-6-present-{}-{name}", i + 1)).await;
        app.press("ArrowRight", false, false).await;
    }
    app.text_of("[data-testid='presenting-table']").await;
    app.press("Escape", false, false).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while app.exists("[data-testid='presenting']").await {
        assert!(std::time::Instant::now() < deadline, "Esc leaves presenting");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver, the built app and `cargo xtask samples`; run by `cargo xtask test`"]
async fn a_workshop_opens_a_sample_locks_the_baseline_explores_keeps_and_presents() {
    let samples = samples_dir();
    assert!(
        samples.join("enterprise-hybrid.cpw").is_file(),
        "no samples in {}: run `cargo xtask samples`",
        samples.display()
    );
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let docs = work.path().join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    let args = vec![
        "--catalog".to_owned(),
        workspace_root().join("catalogs").display().to_string(),
    ];
    let app = App::launch_with_env(
        &args,
        &[
            ("PLANNER_CONFIG_DIR", config.as_path()),
            ("PLANNER_SAMPLES_DIR", samples.as_path()),
            ("PLANNER_DOCUMENTS_DIR", docs.as_path()),
        ],
    )
    .await;
    // The presenting view is looked at as a projector shows it.
    app.client.set_window_size(1920, 1080).await.ok();
    open_sample(&app, &docs).await;
    let locked = lock(&app).await;
    refused_edit(&app, &locked[0]).await;
    drag_demand(&app, &locked[0]).await;
    keep_and_undo(&app).await;
    present(&app).await;
    app.close().await;
}
