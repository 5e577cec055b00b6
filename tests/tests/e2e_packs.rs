//! End to end, a signed catalog pack in the real app (issue #18): a pack signed by an unknown key
//! is refused whole; the publisher's key is trusted in Settings; the pack is opened from its file,
//! its preview read (each scenario's totals old → new, the changed price with both sources, the
//! entries added and removed), applied, the Catalog tab then shows the pack's origin verified, and
//! Undo takes it back. The key pair is made here, at test time. Screenshots:
//! `artifacts/e2e/pack-*.png`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use driver::{App, workspace_root};
use planner_core::catalog::provenance::AsOf;
use serde_json::json;

/// A key pair made now and the fixture catalog (2026.12.0) packed and signed with it at `out`.
fn signed_pack(out: &std::path::Path) -> planner_sign::PackKey {
    let (public, secret) = planner_sign::generate_pack_key(None).unwrap();
    let date: AsOf = "2026-12-01".parse().unwrap();
    let parts = planner_store::pack::build_pack(
        &workspace_root().join("tests/fixtures/catalog-next"),
        &secret,
        None,
        "Test Publisher",
        date,
        Some("December prices (test fixture)"),
    )
    .unwrap();
    planner_store::files::write_atomic(out, &planner_store::pack::pack_bytes(&parts).unwrap()).unwrap();
    planner_sign::read_pack_key(&public).unwrap()
}

/// Serves `body` once over HTTP on 127.0.0.1 (no other address); returns the pack's address.
fn serve_once(body: Vec<u8>) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    format!("http://127.0.0.1:{port}/december.cpack")
}

async fn open_pack_dialog(app: &App, pack: &std::path::Path) {
    app.click("[data-testid='tab-catalog']").await;
    app.click("[data-testid='catalog-pack-open']").await;
    app.fill("[data-testid='pack-path']", &pack.display().to_string()).await;
    app.click("[data-testid='pack-open-path']").await;
}

async fn trust_in_settings(app: &App, key: &planner_sign::PackKey) {
    app.click("[data-testid='settings-open']").await;
    // WebKit's WebDriver click does not toggle a <details>: opened by script (its toggle event loads the list).
    app.exec(
        "document.querySelector(\"[data-testid='trusted-keys']\").open = true; return true;",
        vec![],
    )
    .await;
    app.wait_text("[data-testid='trusted-keys-list']", "shipped with the app")
        .await;
    app.fill("[data-testid='trusted-key-label']", "Test Publisher").await;
    app.fill(
        "[data-testid='trusted-key-text']",
        &format!(
            "untrusted comment: minisign public key: {}\n{}\n",
            key.id, key.public_key
        ),
    )
    .await;
    // The panel scrolls; WebKit's WebDriver clicks at the element's place without scrolling it in.
    app.exec(
        "document.querySelector(\"[data-testid='trusted-key-add']\").scrollIntoView({ block: 'center' }); return true;",
        vec![],
    )
    .await;
    app.click("[data-testid='trusted-key-add']").await;
    app.wait_text(&format!("[data-testid='trusted-key-{}']", key.id), "Test Publisher")
        .await;
    app.screenshot("pack-2-trusted").await;
    app.press("Escape", false, false).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn a_signed_pack_is_refused_untrusted_then_previewed_applied_and_undone() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let ws_path = work.path().join("client.cpw");
    let pack = work.path().join("december.cpack");
    let key = signed_pack(&pack);
    driver::sample_workspace(&ws_path);
    let app = App::launch_on(&ws_path, &config).await;
    let before = app.invoke("compare", json!({ "theme": "light" })).await;

    // Not yet trusted: refused whole, with the key named.
    open_pack_dialog(&app, &pack).await;
    let refused = app
        .wait_text("[data-testid='pack-refused']", "not among the trusted publisher keys")
        .await;
    assert!(refused.contains(&key.id), "{refused}");
    app.screenshot("pack-1-refused").await;
    app.press("Escape", false, false).await;
    trust_in_settings(&app, &key).await;

    // Trusted: the preview, read before anything changes.
    open_pack_dialog(&app, &pack).await;
    app.wait_text("[data-testid='pack-version']", "2026.11.0 → 2026.12.0")
        .await;
    assert_eq!(app.text_of("[data-testid='pack-publisher']").await, "Test Publisher");
    let summary = app.text_of("[data-testid='pack-summary']").await;
    assert!(
        summary.contains("1 entry changed (1 figure), 1 added, 1 removed"),
        "{summary}"
    );
    let h100 = app.text_of("[data-testid='pack-entry-aws-p5-h100']").await;
    assert!(
        h100.contains("6.88 (as of 2026-09-25)") && h100.contains("3.9 (as of 2026-12-01)"),
        "{h100}"
    );
    assert!(h100.contains("TEST FIXTURE: invented price feed"), "{h100}");
    // The reserved layer's own (overridden) rate stays, and the preview says so.
    assert!(h100.contains("your override stays"), "{h100}");
    assert!(app.exists("[data-testid='pack-entry-vultr-mi300x']").await);
    assert!(app.exists("[data-testid='pack-entry-fixture-cloud-h100']").await);
    let row = app.text_of("[data-testid='pack-scenario-hybrid']").await;
    assert!(row.contains("2,073,592") && row.contains("1,985,753"), "{row}");
    app.screenshot("pack-3-preview").await;
    app.exec(
        "document.querySelector(\"[data-testid='pack-changes']\").scrollIntoView(); return true;",
        vec![],
    )
    .await;
    app.screenshot("pack-4-changes").await;

    // Applied: one undo step; the Catalog tab shows the pack's origin, verified.
    app.click("[data-testid='pack-apply']").await;
    app.wait_text(
        "[data-testid='notice']",
        "Apply catalog pack 2026.12.0 from Test Publisher (was 2026.11.0)",
    )
    .await;
    assert!(!app.exists("[data-testid='pack-dialog']").await);
    let origin = app
        .wait_text("[data-testid='catalog-origin']", "published by Test Publisher")
        .await;
    assert!(origin.contains(&key.id) && origin.contains("verify"), "{origin}");
    app.wait_text("[data-testid='tab-catalog']", "2026.12.0").await;
    let after = app.invoke("compare", json!({ "theme": "light" })).await;
    let total = |v: &serde_json::Value| {
        v["comparison"]["view"]["scenarios"][0]["decision_total"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_ne!(total(&before), total(&after));
    app.screenshot("pack-5-applied").await;

    // Undo: the shipped catalog again, and its numbers.
    app.click("[data-testid='undo']").await;
    app.wait_text("[data-testid='catalog-origin']", "shipped with the app")
        .await;
    app.wait_text("[data-testid='tab-catalog']", "2026.11.0").await;
    let undone = app.invoke("compare", json!({ "theme": "light" })).await;
    assert_eq!(total(&undone), total(&before));
    app.screenshot("pack-6-undone").await;

    // The same pack from an address typed in the dialog, served on 127.0.0.1: downloaded, checked
    // and previewed by the real app; closing the dialog drops it and nothing changes.
    let url = serve_once(std::fs::read(&pack).unwrap());
    app.click("[data-testid='catalog-pack-open']").await;
    app.fill("[data-testid='pack-url']", &url).await;
    app.click("[data-testid='pack-download']").await;
    app.wait_text("[data-testid='pack-version']", "2026.11.0 → 2026.12.0")
        .await;
    app.screenshot("pack-8-downloaded").await;
    app.press("Escape", false, false).await;
    app.wait_text("[data-testid='catalog-origin']", "shipped with the app")
        .await;
    assert!(!app.exists("[data-testid='pack-dialog']").await);

    // The compare screen counts each scenario's stale figures, as the back end weighs them today.
    app.click("[data-testid='tab-compare']").await;
    let badge = app.wait_text("[data-testid='compare-stale-hybrid']", "stale").await;
    let screen = app.invoke("compare", json!({ "theme": "light" })).await;
    let counted = screen["stale"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["scenario"] == "hybrid")
        .unwrap()["figures"]
        .as_u64()
        .unwrap();
    assert!(
        counted > 0 && badge.starts_with(&format!("{counted} stale")),
        "{badge} / {counted}"
    );
    app.screenshot("pack-7-compare-stale").await;
    app.close().await;

    let ws = planner_tests::open_when_free(&ws_path).unwrap();
    assert_eq!(ws.catalog_status(None).version, "2026.11.0");
    assert_eq!(
        ws.history().unwrap().redo_label.as_deref(),
        Some("Apply catalog pack 2026.12.0 from Test Publisher (was 2026.11.0)")
    );
}
