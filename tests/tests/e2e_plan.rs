//! End to end, the plan beside its cost (issue 20) on the bundled enterprise-hybrid sample: the
//! hybrid scenario's detail shows the dispatch chart (one stacked bar per month), the DGX's
//! delivery and the bridge line with the engine's cost, the spot arithmetic with its notice
//! warning, and the needs table; the memo's text (pdftotext) holds the workloads table and the
//! bridge line. Screenshots: `artifacts/e2e/plan-*.png`.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use driver::App;
use planner_core::engine::blocks::finance::present;
use serde_json::json;

fn money(v: &serde_json::Value) -> String {
    let d: rust_decimal::Decimal = v.as_str().unwrap().parse().unwrap();
    planner_report::grouped(present(d), 2)
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn the_plan_shows_dispatch_delivery_and_the_bridge_on_screen_and_in_the_memo() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let ws_path = work.path().join("client.cpw");
    driver::sample_workspace(&ws_path);
    let app = App::launch_on(&ws_path, &config).await;

    // The scenarios screen opens on the hybrid scenario; its detail shows the plan.
    app.text_of("[data-testid='plan-view']").await;
    let spec = app.invoke("get_scenario", json!({ "id": "hybrid" })).await;
    let detail = app.invoke("scenario_detail", json!({ "scenario": spec })).await;
    let ops = &detail["operations"];
    let months = ops["months"].as_array().unwrap().len();
    assert_eq!(months, 36);

    // One stacked bar segment per layer that served in a month, plus unmet demand.
    let segments: usize = ops["months"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let mut layers: Vec<u64> = m["served"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["layer"].as_u64().unwrap())
                .collect();
            layers.sort_unstable();
            layers.dedup();
            let unmet = m["unmet_pflop_h"].as_array().unwrap().iter().any(|v| v != "0");
            layers.len() + usize::from(unmet)
        })
        .sum();
    let drawn = app
        .exec(
            "const c = document.querySelector(\"[data-testid='dispatch-chart']\"); c.scrollIntoView(); return c.querySelectorAll('rect').length;",
            vec![],
        )
        .await;
    assert_eq!(drawn.as_u64(), Some(segments as u64));
    app.screenshot("plan-1-dispatch-chart").await;

    // Delivery and the bridge, with the engine's cost.
    let bridge = &ops["bridges"][0];
    assert_eq!(bridge["layer"], "dgx");
    let line = &bridge["lines"][0];
    let shown = app.text_of("[data-testid='bridge-line-dgx']").await;
    assert!(
        shown.contains(&format!("Bridge: {} months of", line["months"])),
        "{shown}"
    );
    assert!(
        shown.contains(&money(&line["cost"])),
        "{shown} holds {}",
        money(&line["cost"])
    );
    let delivery = app.text_of("[data-testid='bridge-dgx']").await;
    assert!(
        delivery.contains(&format!("delivered {}", bridge["delivery_month"].as_str().unwrap())),
        "{delivery}"
    );
    let notice = app.text_of("[data-testid='spot-notice-spot']").await;
    assert!(notice.contains("120 s"), "{notice}");
    app.exec(
        "document.querySelector(\"[data-testid='bridge-dgx']\").scrollIntoView(); return true;",
        vec![],
    )
    .await;
    app.screenshot("plan-2-bridge-and-spot").await;
    app.exec(
        "document.querySelector(\"[data-testid='needs-table']\").scrollIntoView(); return true;",
        vec![],
    )
    .await;
    app.screenshot("plan-3-needs").await;

    // The memo carries the workloads table and the bridge line.
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
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../catalogs/samples/enterprise-hybrid.json");
    let sample: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(sample).unwrap()).unwrap();
    let workloads = &sample["workloads"];
    let out = std::process::Command::new("pdftotext")
        .args([memo.to_string_lossy().as_ref(), "-"])
        .output()
        .expect("pdftotext (apt-get install poppler-utils)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let words: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("Workloads"), "{words}");
    for w in workloads.as_array().unwrap() {
        let name = w["name"].as_str().unwrap();
        let name: String = name.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains(&name), "workload {name} is in the memo");
    }
    assert!(words.contains("bridge"), "{words}");
    assert!(
        words.contains(&money(&line["cost"])),
        "the bridge cost {} is in the memo",
        money(&line["cost"])
    );
}
