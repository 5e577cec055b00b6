//! End to end: the D-1 checklist in the real app under Xvfb. A reviewer answers every blocking
//! item of a scenario on the Compliance screen (one with a file attached as evidence), signs off,
//! and the scenario turns cleared there and on the scenario list. Then a checklist row is
//! changed in the workspace file behind the app's back: on the next start the app shows the log
//! as broken at that entry, verify names it, and nothing is cleared; the store's verify (what
//! `planner audit verify` prints) names the same entry.
//!
//! Attaching a file needs the system dialog, which WebDriver cannot drive, so that one answer is
//! given through the command the dialog feeds (`answer_checklist_item` with the file's path), as
//! the memo test does for exports; every other step is clicks and typing on the screen.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use std::path::Path;

use driver::{App, workspace_root};
use serde_json::json;

const REVIEWER: &str = "Dana Reviewer";

/// The blocking items that apply to a scenario, with the status and note the reviewer gives.
const ANSWERS: [(&str, &str, &str); 11] = [
    (
        "ec-2023-parameters",
        "pass",
        "TPP and performance density checked against the 2023 rule",
    ),
    (
        "ec-prc-chips",
        "not-applicable",
        "no PRC-designed accelerator in the plan",
    ),
    ("ec-china-h20", "not-applicable", "no delivery to China or Macau"),
    ("ec-china-h200", "not-applicable", "no delivery to China or Macau"),
    (
        "reg-eu-prohibited-literacy",
        "pass",
        "no prohibited practice; AI literacy training booked",
    ),
    (
        "reg-cn-algorithm-filing",
        "not-applicable",
        "no public-facing service in China",
    ),
    ("dc-china-dsl", "not-applicable", "no data processed in China"),
    ("dc-security-level", "pass", "confidential data stays in the EU region"),
    ("xb-gdpr-sccs", "pass", "SCCs (2021/914) signed with the cloud provider"),
    (
        "disp-sanitisation-method",
        "pass",
        "NIST SP 800-88 purge for NVMe, destroy for failed drives, in the support contract",
    ),
    (
        "ex-notice-and-fee",
        "pass",
        "3 months notice, 25% of the remaining commitment, stated in the order form",
    ),
];

async fn launch(ws_path: &Path, config: &Path) -> App {
    let args = vec![
        "--catalog".to_owned(),
        workspace_root().join("catalogs").display().to_string(),
        "--workspace".to_owned(),
        ws_path.display().to_string(),
    ];
    App::launch_with_env(&args, &[("PLANNER_CONFIG_DIR", config)]).await
}

async fn badge(app: &App, css: &str) -> String {
    app.exec(
        "const el = document.querySelector(arguments[0]); return el ? el.dataset.cleared : null;",
        vec![json!(css)],
    )
    .await
    .as_str()
    .unwrap_or("missing")
    .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn a_reviewer_clears_a_scenario_and_a_row_changed_behind_the_apps_back_is_named() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let ws_path = work.path().join("client.cpw");
    let evidence = work.path().join("eccn-classification-letter.pdf");
    std::fs::write(
        &evidence,
        b"%PDF-1.7\n% the vendor's ECCN classification letter (test file)\n",
    )
    .unwrap();
    {
        let sample = planner_tests::sample_file().unwrap();
        planner_tests::create_workspace_from(&ws_path, &sample).unwrap();
    }
    let app = launch(&ws_path, &config).await;

    // 1. The Compliance screen opens on the first scenario, not cleared.
    app.click("[data-testid='tab-compliance']").await;
    app.wait_text("[data-testid='checklist-clearance']", "Not cleared")
        .await;
    assert_eq!(
        badge(&app, "[data-testid='compliance-badge-scenario-hybrid']").await,
        "no"
    );
    app.fill("[data-testid='reviewer-name']", REVIEWER).await;

    // 2. The export classification, with the letter attached (the dialog's command), shown on screen.
    app.invoke(
        "answer_checklist_item",
        json!({ "subject": { "kind": "scenario", "id": "hybrid" },
                "answer": { "item": "ec-classify", "status": "pass",
                            "note": "3A090.a; 4A090.a for the servers", "reviewer": REVIEWER },
                "evidence": [evidence.display().to_string()] }),
    )
    .await;
    app.click("[data-testid='compliance-subject-scenario-all-cloud']").await;
    app.click("[data-testid='compliance-subject-scenario-hybrid']").await;
    let item = app
        .wait_text(
            "[data-testid='checklist-item-ec-classify']",
            "eccn-classification-letter.pdf",
        )
        .await;
    assert!(item.contains("Pass") && item.contains(REVIEWER), "{item}");

    // 3. Every other blocking item answered on the screen.
    for (id, status, note) in ANSWERS {
        app.click(&format!("[data-testid='answer-open-{id}']")).await;
        app.click(&format!("[data-testid='answer-status-{id}-{status}']")).await;
        app.fill(&format!("[data-testid='answer-note-{id}']"), note).await;
        app.click(&format!("[data-testid='answer-save-{id}']")).await;
        let shown = if status == "pass" { "Pass" } else { "N/A" };
        app.wait_text(&format!("[data-testid='item-status-{id}']"), shown).await;
    }
    app.wait_text("[data-testid='checklist-clearance']", "Not signed off")
        .await;
    assert_eq!(badge(&app, "[data-testid='checklist-badge']").await, "no");
    app.screenshot("checklist-1-answered").await;

    // 4. Signed off: the scenario turns cleared here and on the scenario list.
    app.fill("[data-testid='signoff-note']", "D-1 review before contract signature")
        .await;
    app.click("[data-testid='signoff-submit']").await;
    app.wait_text("[data-testid='signoff-state']", &format!("Signed off by {REVIEWER}"))
        .await;
    app.wait_text("[data-testid='checklist-clearance']", "Cleared.").await;
    assert_eq!(badge(&app, "[data-testid='checklist-badge']").await, "yes");
    assert_eq!(
        badge(&app, "[data-testid='compliance-badge-scenario-hybrid']").await,
        "yes"
    );
    assert_eq!(
        badge(&app, "[data-testid='compliance-badge-scenario-all-cloud']").await,
        "no"
    );
    app.click("[data-testid='verify-log']").await;
    let verified = app.wait_text("[data-testid='verify-result']", "Intact").await;
    assert!(verified.contains("13 entries, 1 evidence file(s)"), "{verified}");
    app.screenshot("checklist-2-cleared").await;
    app.click("[data-testid='tab-scenarios']").await;
    app.wait_text("[data-testid='clearance-hybrid']", "Cleared").await;
    assert_eq!(badge(&app, "[data-testid='clearance-all-cloud']").await, "no");
    app.close().await;

    // 5. The record as the store reads it: 12 answers and a sign-off, chained.
    {
        let ws = planner_tests::open_when_free(&ws_path).unwrap();
        let check = ws.verify_checklist_log().unwrap();
        assert_eq!((check.entries, check.evidence_files), (13, 1));
        assert!(check.problem.is_none(), "{:?}", check.problem);
    }

    // 6. Behind the app's back: the answer of entry 3 (ec-prc-chips, not applicable) becomes a pass.
    {
        let conn = rusqlite::Connection::open(&ws_path).unwrap();
        let changed = conn
            .execute(
                "UPDATE checklist_log SET payload = replace(payload, '\"not-applicable\"', '\"pass\"') WHERE seq = 3",
                [],
            )
            .unwrap();
        assert_eq!(changed, 1);
    }

    // 7. The app names the entry, clears nothing, and its verify says the same.
    let app = launch(&ws_path, &config).await;
    app.click("[data-testid='tab-compliance']").await;
    let banner = app.wait_text("[data-testid='log-problem']", "entry 3 (seq 3").await;
    assert!(
        banner.contains("answer on scenario:hybrid by Dana Reviewer") && banner.contains("does not match its hash"),
        "{banner}"
    );
    assert_eq!(
        badge(&app, "[data-testid='compliance-badge-scenario-hybrid']").await,
        "no"
    );
    app.click("[data-testid='verify-log']").await;
    let broken = app.wait_text("[data-testid='verify-result']", "entry 3 (seq 3").await;
    assert!(broken.contains("broken"), "{broken}");
    app.screenshot("checklist-3-tampered").await;
    app.click("[data-testid='tab-scenarios']").await;
    app.wait_text("[data-testid='clearance-hybrid']", "Not cleared").await;
    app.close().await;

    let ws = planner_tests::open_when_free(&ws_path).unwrap();
    let problem = ws.verify_checklist_log().unwrap().problem.unwrap();
    assert_eq!((problem.position, problem.seq), (3, 3));
}
