//! End to end: the Vendors tab in the real app under Xvfb. A workspace holds the quotes of
//! `good.csv` imported through the store (one scenario per vendor) and the vendors' measured
//! figures; the tab shows the engine's ranking and its stability in words, a weight typed on screen
//! is saved in the workspace and changes the ranking, and the preview command refuses a broken
//! file with its row and column. Screenshots in light and dark go to `artifacts/e2e/`.
//!
//! Choosing a file needs the system dialog, which WebDriver cannot drive, so the test calls the
//! command the dialog feeds (`preview_quotes`), as the memo test does for exports.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use driver::{App, workspace_root};
use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::input::scenario_file::FxRate;
use rust_decimal::dec;
use serde_json::json;

fn quotes_fixture(name: &str) -> std::path::PathBuf {
    workspace_root()
        .join("src-tauri/crates/planner-store/tests/fixtures/quotes")
        .join(name)
}

/// Makes the workspace at `ws_path` from the sample: a EUR rate, the quotes of `good.csv`
/// imported (one scenario per vendor) and each vendor's measured figures on the scorecard.
fn rfp_workspace(ws_path: &std::path::Path) {
    let sample = planner_tests::sample_file().unwrap();
    let mut ws = planner_tests::create_workspace_from(ws_path, &sample).unwrap();
    let mut settings = ws.settings().clone();
    settings.fx.push(FxRate::market(
        "EUR",
        "USD",
        dec!(1.08),
        "ECB reference rate 2026-11-20",
    ));
    ws.apply(
        &EditRequest {
            edit: Edit::Settings { settings },
            label: "Edit settings: fx".into(),
            coalesce: None,
        },
        NOW,
    )
    .unwrap();
    let quotes = planner_store::read_quotes(&quotes_fixture("good.csv"), ws.catalog(), ws.settings()).unwrap();
    ws.import_quotes(&quotes, "hybrid", "good.csv", NOW).unwrap();
    let mut card = ws.scorecard().unwrap();
    let figures = [
        (dec!(0.42), dec!(0.03), dec!(0.995), dec!(0.05), dec!(10)),
        (dec!(0.35), dec!(0.05), dec!(0.99), dec!(0), dec!(0)),
        (dec!(0.48), dec!(0.02), dec!(0.999), dec!(0.1), dec!(40)),
    ];
    for (v, (mfu, afr, sla, refund, expert)) in card.vendors.iter_mut().zip(figures) {
        v.mfu = Some(mfu);
        v.annual_failure_rate = Some(afr);
        v.sla = v.sla.or(Some(sla));
        v.sla_refund_share = v.sla_refund_share.or(Some(refund));
        v.response_hours = v.response_hours.or(Some(dec!(12)));
        v.expert_hours_per_month = Some(expert);
    }
    ws.apply(
        &EditRequest {
            edit: Edit::Scorecard { scorecard: card },
            label: "Edit scorecard: vendors".into(),
            coalesce: None,
        },
        NOW,
    )
    .unwrap();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn the_vendors_tab_ranks_imported_vendors_and_follows_the_weights() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let ws_path = work.path().join("rfp.cpw");
    rfp_workspace(&ws_path);
    let app = App::launch_on(&ws_path, &config).await;

    app.click("[data-testid='tab-vendors']").await;
    app.text_of("[data-testid='ranking']").await;
    let stability = app.wait_text("[data-testid='stability']", "would put").await;
    let first = app.text_of("[data-testid='ranking-row']").await;
    // Nobody has a checklist record yet.
    app.wait_text("[data-testid='vendor-0-compliance']", "not reviewed")
        .await;
    app.screenshot("vendors-light").await;

    // All weight on cost: the cheapest vendor's scenario comes out on top.
    for axis in ["performance", "reliability", "service", "compliance"] {
        app.fill(&format!("[data-testid='weight-{axis}']"), "0").await;
    }
    app.fill("[data-testid='weight-cost']", "100").await;
    app.wait_text("[data-testid='weight-share-cost']", "100").await;
    let after = app.wait_text("[data-testid='stability']", "from cost").await;
    assert_ne!(after, stability);
    let top = app.text_of("[data-testid='ranking-row']").await;
    let view = app.invoke("scorecard_view", json!({})).await;
    let cheapest = view["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .min_by(|a, b| {
            let x: rust_decimal::Decimal = a["tco"].as_str().unwrap().parse().unwrap();
            let y: rust_decimal::Decimal = b["tco"].as_str().unwrap().parse().unwrap();
            x.cmp(&y)
        })
        .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(top.contains(&cheapest), "{top} / {cheapest} (before: {first})");
    // A vendor whose scenario leaves demand unserved is marked in the ranking.
    let partial = view["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| {
            v["unmet_pflop_h"]
                .as_str()
                .is_some_and(|u| u.parse::<rust_decimal::Decimal>().unwrap() > rust_decimal::Decimal::ZERO)
        })
        .count();
    let marks: serde_json::Value = app
        .exec(
            "return document.querySelectorAll(\"[data-testid='ranking-unmet']\").length;",
            vec![],
        )
        .await;
    assert_eq!(marks.as_u64(), Some(partial as u64));

    // The preview refuses a broken file, naming row and column.
    let script = "const [path, done] = arguments; window.__TAURI_INTERNALS__.invoke('preview_quotes', { path }).then((v) => done({ ok: v }), (e) => done({ err: e }));";
    let answer = app
        .client
        .execute_async(
            script,
            vec![json!(quotes_fixture("wrong-types.csv").display().to_string())],
        )
        .await
        .unwrap();
    let details = answer["err"]["details"].as_array().unwrap();
    assert_eq!(
        (details[0]["line"].as_u64(), details[0]["column"].as_u64()),
        (Some(2), Some(5))
    );

    app.exec(
        "document.documentElement.dataset.theme = 'dark'; localStorage.setItem('theme', 'dark');",
        vec![],
    )
    .await;
    app.press("Escape", false, false).await;
    app.screenshot("vendors-dark").await;
    app.close().await;

    // The weights typed on screen are in the file.
    let ws = planner_tests::open_when_free(&ws_path).unwrap();
    let card = ws.scorecard().unwrap();
    assert_eq!((card.weights.cost, card.weights.performance), (dec!(100), dec!(0)));
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
