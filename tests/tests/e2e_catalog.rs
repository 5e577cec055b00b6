//! End to end: from the start screen the real app browses the catalog it ships and shows the H100
//! with its source, and a broken catalog is listed on the start screen, error by error, instead
//! of a crash.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use driver::{App, workspace_root};

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn catalog_browser_shows_h100_with_its_source() {
    let catalog_dir = workspace_root().join("catalogs");
    let catalog = planner_store::load_catalog_dir(&catalog_dir).expect("the shipped catalog loads");
    let h100 = catalog
        .accelerator("nvidia-h100-sxm")
        .expect("the catalog has the H100 SXM");

    let config = tempfile::tempdir().unwrap();
    let app = App::launch_with_env(
        &["--catalog".to_owned(), catalog_dir.display().to_string()],
        &[("PLANNER_CONFIG_DIR", config.path())],
    )
    .await;
    app.click("[data-testid='start-catalog']").await;
    let row = app.text_of("[data-testid='acc-row-nvidia-h100-sxm']").await;
    assert!(row.contains(&h100.name), "the H100 row shows its name: {row}");

    // The provenance of its memory figure is one click away and names the catalog's source.
    app.click("[data-testid='fig-nvidia-h100-sxm-memory_gb']").await;
    let panel = app.text_of("[data-testid='provenance']").await;
    for source in &h100.memory_gb.provenance.sources {
        assert!(
            panel.contains(&source.title),
            "the provenance panel names `{}`: {panel}",
            source.title
        );
    }
    assert!(
        panel.contains(&h100.memory_gb.provenance.as_of.to_string()),
        "and its date: {panel}"
    );
    let shot = app.screenshot("catalog-browser-h100").await;
    assert!(
        std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0) > 10_000,
        "a real screenshot"
    );
    app.close().await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn a_broken_catalog_shows_every_error_instead_of_crashing() {
    let work = tempfile::tempdir().unwrap();
    let min = workspace_root().join("tests/fixtures/catalog-min");
    for entry in std::fs::read_dir(&min).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, work.path().join(path.file_name().unwrap())).unwrap();
    }
    let broken = workspace_root().join("tests/fixtures/catalog-errors/malformed-number.accelerators.toml");
    std::fs::copy(&broken, work.path().join("accelerators.toml")).unwrap();
    let expected = planner_store::load_catalog_dir(work.path()).expect_err("broken");

    let config = tempfile::tempdir().unwrap();
    let app = App::launch_with_env(
        &["--catalog".to_owned(), work.path().display().to_string()],
        &[("PLANNER_CONFIG_DIR", config.path())],
    )
    .await;
    let screen = app
        .text_of("[data-testid='start-screen'] [data-testid='error-screen']")
        .await;
    for detail in &expected.details {
        let line = detail.line.unwrap().to_string();
        assert!(
            screen.contains(&line) && screen.contains(detail.field.as_deref().unwrap()),
            "the error screen lists {detail:?}: {screen}"
        );
    }
    app.screenshot("catalog-error-screen").await;
    app.close().await;
}
