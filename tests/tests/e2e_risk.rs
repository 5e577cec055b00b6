//! End to end, the risk analysis on the compare screen of the sample workspace: draws and seed
//! typed, the engine's spread, odds, break-even and tornado on screen as the back end computed
//! them, the fan and tornado charts, the analysis kept in the workspace file (the store reads it
//! back), marked stale when the compared horizon changes, a long run cancelled, and the memo's
//! Risk section (pdftotext finds the percentiles and the seed). Screenshots:
//! `artifacts/e2e/risk-*.png`.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use driver::App;
use planner_core::engine::blocks::finance::present;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn a_risk_analysis_is_run_on_screen_kept_in_the_workspace_and_marked_stale_when_the_plan_moves() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let ws_path = work.path().join("client.cpw");
    driver::sample_workspace(&ws_path);
    let app = App::launch_on(&ws_path, &config).await;

    app.click("[data-testid='tab-compare']").await;
    app.text_of("[data-testid='compare-table']").await;
    app.text_of("[data-testid='risk-none']").await;
    app.fill("[data-testid='risk-draws']", "500").await;
    app.fill("[data-testid='risk-seed']", "42").await;
    app.click("[data-testid='risk-run']").await;
    let info = app
        .wait_text("[data-testid='risk-run-info']", "500 draws, seed 42")
        .await;
    assert!(info.contains("against Two DGX H100"), "{info}");

    // What the screen shows is what the back end kept.
    let kept = app.invoke("risk", json!({ "theme": "light" })).await;
    let hybrid = &kept["outcome"]["scenarios"][0];
    assert_eq!(hybrid["id"], "hybrid");
    let digits = |t: &str| t.chars().filter(char::is_ascii_digit).collect::<String>();
    let p50 = app.text_of("[data-testid='risk-p50-hybrid']").await;
    // Shown in cents, as every amount is presented (half-even).
    let engine: rust_decimal::Decimal = hybrid["total"]["p50"].as_str().unwrap().parse().unwrap();
    assert_eq!(digits(&p50), digits(&format!("{:.2}", present(engine))));
    let cheaper = app.text_of("[data-testid='risk-cheaper-all-cloud']").await;
    assert_eq!(cheaper, "0 % of draws");
    let tornado = app.text_of("[data-testid='risk-tornado-all-cloud']").await;
    let first = kept["outcome"]["tornados"][0]["bars"][0]["figure"].as_u64().unwrap() as usize;
    let entry = kept["outcome"]["figures"][first]["entry"].as_str().unwrap();
    assert!(tornado.contains(entry), "{tornado}");
    app.exec(
        "document.querySelector(\"[data-testid='risk']\").scrollIntoView(); return true;",
        vec![],
    )
    .await;
    app.screenshot("risk-1-analysis").await;

    // The fan and each tornado are drawn charts (SVG from the same series code as the others).
    let charts = app
        .exec(
            "return [\"[data-testid='risk-fan'] svg\", \"[data-testid='risk-tornado-all-cloud'] svg\"].map((css) => document.querySelectorAll(css).length);",
            vec![],
        )
        .await;
    assert_eq!(charts, json!([1, 1]), "one fan chart and one tornado chart");
    let method = app.text_of("[data-testid='risk-method']").await;
    assert!(method.contains("re-priced on the plan's surface"), "{method}");
    app.exec(
        "document.querySelector(\"[data-testid='risk-fan']\").scrollIntoView(); return true;",
        vec![],
    )
    .await;
    app.screenshot("risk-1b-fan-and-tornado").await;

    // Another horizon: the comparison moves, the analysis says it is stale.
    app.click("[data-testid='horizon-24']").await;
    app.wait_text("[data-testid='risk-stale']", "changed since this analysis ran")
        .await;
    app.exec(
        "document.querySelector(\"[data-testid='risk']\").scrollIntoView(); return true;",
        vec![],
    )
    .await;
    app.screenshot("risk-2-stale").await;
    cancel_a_long_run(&app).await;

    // Back on the plan's horizon, the training demand marked uncertain (80 to 200 GPU-hours a
    // day around the plan's 120), run again and make the memo: its Risk section holds the
    // percentiles and the seed and draw count a reviewer reruns them with.
    app.click("[data-testid='horizon-36']").await;
    let demand = mark_demand_uncertain(&app).await;
    app.fill("[data-testid='risk-draws']", "500").await;
    app.click("[data-testid='risk-run']").await;
    // Demand moves the dispatch: this run evaluates every draw in full (the one before it was
    // re-priced on the surface), which tells the two apart.
    app.wait_text("[data-testid='risk-method']", "Every one of the 500 draws")
        .await;
    let info = app.text_of("[data-testid='risk-run-info']").await;
    assert!(info.contains("500 draws, seed 42"), "{info}");
    let kept = app.invoke("risk", json!({ "theme": "light" })).await;
    assert_eq!(kept["outcome"]["uncertain"][0]["path"], demand);
    app.exec(
        "document.querySelector(\"[data-testid='risk-uncertain']\").scrollIntoView(); return true;",
        vec![],
    )
    .await;
    app.screenshot("risk-5-demand-uncertain").await;
    app.click("[data-testid='tab-memo']").await;
    app.fill("[data-testid='memo-author']", "Ada Author").await;
    app.fill("[data-testid='memo-decision']", "Adopt the hybrid plan.")
        .await;
    app.wait_text("[data-testid='saved-state']", "All changes saved").await;
    let memo = work.path().join("memo.pdf");
    app.invoke(
        "export_memo",
        json!({ "path": memo.display().to_string(), "sign": null }),
    )
    .await;
    app.close().await;
    let out = std::process::Command::new("pdftotext")
        .args([memo.to_string_lossy().as_ref(), "-"])
        .output()
        .expect("pdftotext (apt-get install poppler-utils)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let words: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("seed 42, 500 draws"), "{words}");
    for s in kept["outcome"]["scenarios"].as_array().unwrap() {
        for p in ["p10", "p50", "p90"] {
            let v: rust_decimal::Decimal = s["total"][p].as_str().unwrap().parse().unwrap();
            let shown = planner_report::grouped(present(v), 2);
            assert!(
                words.contains(&shown),
                "{} {p} {shown} is in the memo:\n{words}",
                s["id"]
            );
        }
    }

    // The file keeps it: the store reads back the same draws and seed.
    let ws = planner_store::Workspace::open(&ws_path).unwrap();
    let body: serde_json::Value = serde_json::from_str(&ws.risk_run().unwrap().unwrap()).unwrap();
    assert_eq!(
        (body["outcome"]["draws"].as_u64(), body["outcome"]["seed"].as_str()),
        (Some(500), Some("42"))
    );
}

/// A run of 100,000 draws over 60 months, cancelled while it runs: nothing is kept from it, the
/// analysis before it (500 draws, seed 42) stands.
async fn cancel_a_long_run(app: &App) {
    app.click("[data-testid='horizon-60']").await;
    // The 60-month comparison lands first: it lays the screen out again, which would move the
    // Run button from under a click made meanwhile.
    app.wait_text("[data-testid='compare-note']", "60 months from").await;
    app.fill("[data-testid='risk-draws']", "100000").await;
    app.click("[data-testid='risk-run']").await;
    app.text_of("[data-testid='risk-progress']").await;
    app.screenshot("risk-3-running").await;
    app.click("[data-testid='risk-cancel']").await;
    app.wait_text("[data-testid='risk-cancelled']", "Cancelled: nothing was kept")
        .await;
    app.screenshot("risk-4-cancelled").await;
    let kept = app.invoke("risk", json!({ "theme": "light" })).await;
    assert_eq!(
        (kept["outcome"]["draws"].as_u64(), kept["outcome"]["seed"].as_str()),
        (Some(500), Some("42"))
    );
}

/// Marks the training workload's demand uncertain, 80 to 200 GPU-hours a day around the plan's
/// 120, on the Risk panel; its path.
async fn mark_demand_uncertain(app: &App) -> &'static str {
    // The list opens from its summary; WebKit's WebDriver click does not toggle a <details>, so
    // it is opened by script here.
    app.exec(
        "document.querySelector(\"[data-testid='risk-uncertain']\").open = true; return true;",
        vec![],
    )
    .await;
    let demand = "workloads/quarterly-training/gpu_hours_per_day";
    // The figures offered come with the comparison: pick the training demand.
    let picked = app
        .exec(
            &format!(
                "const s = document.querySelector(\"[data-testid='risk-uncertain-pick']\"); s.value = '{demand}'; s.dispatchEvent(new Event('change', {{ bubbles: true }})); return [s.options.length, s.options.length, s.value, document.querySelector(\"[data-testid='risk-uncertain']\").open];"
            ),
            vec![],
        )
        .await;
    assert_eq!(picked[2], demand, "the training demand is offered: {picked}");
    assert_eq!(picked[3], true, "the list of uncertain figures is open: {picked}");
    app.fill("[data-testid='risk-uncertain-low']", "80").await;
    app.fill("[data-testid='risk-uncertain-high']", "200").await;
    app.click("[data-testid='risk-uncertain-add']").await;
    app.wait_text("[data-testid='risk-uncertain-list']", "Quarterly domain fine-tuning")
        .await;
    demand
}
