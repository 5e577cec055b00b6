//! End to end: the decision memo in the real app under Xvfb. The author writes the decision on the
//! Memo screen (saved to the workspace as typed), makes a signing identity in the app, the memo is
//! made and signed by the author and then by a reviewer, and the screen's memo history shows both.
//! pdfsig judges the file and pdftotext finds the decision typed on screen; the workspace file,
//! opened afterwards with the store, records every memo event with the file's SHA-256.
//!
//! Choosing a file needs the system dialog, which WebDriver cannot drive, so the test calls the
//! commands the dialog feeds (`export_memo`, `sign_pdf`), as the workspace test does for exports.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use std::path::Path;
use std::process::Command;

use driver::App;
use planner_core::memo::MemoEvent;
use serde_json::json;

const PASS: &str = "correct horse battery staple";
const DECISION: &str = "Adopt the hybrid: owned H100 base load with cloud burst for training.";

fn tool(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("`{program}` could not be started ({e}): apt-get install poppler-utils"));
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn sha256(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn the_memo_is_written_on_screen_signed_by_author_and_reviewer_and_recorded() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let ws_path = work.path().join("client.cpw");
    let memo = work.path().join("decision-memo.pdf");
    driver::sample_workspace(&ws_path);
    let app = App::launch_on(&ws_path, &config).await;

    // 1. The draft, typed on the Memo screen and saved as typed.
    app.click("[data-testid='tab-memo']").await;
    app.text_of("[data-testid='memo-screen']").await;
    app.fill("[data-testid='memo-author']", "Ada Author").await;
    app.fill("[data-testid='memo-decision']", DECISION).await;
    app.fill(
        "[data-testid='memo-rationale']",
        "The owned fleet is busy around the clock; renting the base load costs more from the second year.",
    )
    .await;
    app.wait_text("[data-testid='saved-state']", "All changes saved").await;

    // 2. A signing identity made in the app.
    app.click("[data-testid='identity-new']").await;
    app.fill("[data-testid='new-identity-name']", "Ada Author").await;
    app.fill("[data-testid='new-identity-organisation']", "Example Ltd")
        .await;
    app.fill("[data-testid='new-identity-passphrase']", PASS).await;
    app.fill("[data-testid='new-identity-confirm']", PASS).await;
    app.click("[data-testid='new-identity-create']").await;
    app.wait_text("[data-testid='identity-list']", "Ada Author").await;
    app.screenshot("memo-1-draft-and-identity").await;
    let identities = app.invoke("list_identities", json!({})).await;
    let ada = identities[0]["id"].as_str().unwrap().to_owned();

    // 3. Made and signed by the author, then signed by a reviewer (the dialogs' commands).
    let published = app
        .invoke(
            "export_memo",
            json!({ "path": memo.display().to_string(),
                    "sign": { "identity": ada, "passphrase": PASS, "reason": "Author" } }),
        )
        .await;
    assert_eq!(published["record"]["event"], "signed", "{published}");
    let rex = app
        .invoke(
            "create_identity",
            json!({ "name": "Rex Reviewer", "organisation": "Example Ltd", "email": null, "passphrase": PASS }),
        )
        .await;
    app.invoke(
        "sign_pdf",
        json!({ "path": memo.display().to_string(),
                "sign": { "identity": rex["id"], "passphrase": PASS, "reason": "Reviewer: approved" } }),
    )
    .await;
    let check = app
        .invoke("verify_pdf", json!({ "path": memo.display().to_string() }))
        .await;
    assert_eq!(check["all_intact"], true, "{check}");
    assert_eq!(check["verification"]["signatures"].as_array().unwrap().len(), 2);

    // 4. The history on screen (reloaded from the workspace) names both signers.
    app.exec("location.reload(); return true;", vec![]).await;
    app.click("[data-testid='tab-memo']").await;
    let history = app.wait_text("[data-testid='memo-history']", "Rex Reviewer").await;
    assert!(history.contains("Ada Author"), "{history}");
    app.screenshot("memo-2-history").await;
    app.close().await;

    // 5. Judged outside the app: pdfsig, and the decision typed on screen is in the memo.
    let sig = tool("pdfsig", &[&memo.to_string_lossy()]);
    assert_eq!(sig.matches("Signature is Valid").count(), 2, "{sig}");
    let text = tool("pdftotext", &[&memo.to_string_lossy(), "-"]);
    let words: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(DECISION),
        "the decision typed on screen is in the memo:\n{words}"
    );
    assert!(words.contains("Ada Author"));

    // 6. The workspace recorded the memo, the author's signature and the reviewer's.
    let ws = planner_tests::open_when_free(&ws_path).unwrap();
    assert_eq!(ws.memo_draft().unwrap().decision, DECISION);
    let records = ws.memos().unwrap();
    let events: Vec<MemoEvent> = records.iter().map(|r| r.event).collect();
    assert_eq!(events, [MemoEvent::Generated, MemoEvent::Signed, MemoEvent::Signed]);
    assert_eq!(records[2].signer.as_deref(), Some("Rex Reviewer, Example Ltd"));
    assert_eq!(records[2].signatures, 2);
    assert_eq!(
        records[2].sha256,
        sha256(&memo),
        "the last record holds the file's SHA-256"
    );
}
