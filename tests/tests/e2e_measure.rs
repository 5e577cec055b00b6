//! Measurements of the real app (printed, never asserted: timings belong in a report, not in a
//! pass/fail test). What it asserts is only that each measured change really reached the screen.
//!
//! - One change to a repainted comparison of 8 scenarios: a click on the horizon control, through
//!   `set_view` and `compare` (engine, the charts' points, IPC) to the frame after the decision
//!   table shows the new total; timed in the page with `performance.now()` and two animation
//!   frames.
//! - One what-if slider move to the repainted table and canvas charts, as the app measures it
//!   itself (`performance.measure("what-if:<seq>")`, read through WebDriver), over 100 moves:
//!   once as the page opens (the charts below the fold, so not redrawn) and once with the
//!   cumulative chart scrolled into view below the panel (it is redrawn on every move; the
//!   check that it is seen and drawn anew is asserted, since a focus that scrolled the page
//!   back would make the measure time no chart at all).
//! - The what-if command alone from an idle page, and the back end's part of it (`backend_ms`):
//!   with the slider's measures, this splits a move into engine, IPC and the page's update.
//! - One edit saved and the comparison of 8 recomputed, as IPC round trips from the page.
//! - Opening a workspace of 10,000 scenarios through the `open_workspace` command.
//!
//! Run alone with: `xvfb-run -a cargo test -p planner-tests --test e2e_measure -- --include-ignored --nocapture`.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use std::path::Path;

use driver::{App, workspace_root};
use planner_core::engine::workspace::content::ViewState;
use planner_tests::{create_workspace_from, sample_file};
use rust_decimal::Decimal;
use serde_json::{Value, json};

/// A workspace of `n` variants of the sample's two scenarios, the first 8 compared.
fn build(path: &Path, n: usize) -> Vec<String> {
    let file = sample_file().unwrap();
    let mut big = file.clone();
    big.scenarios = (0..n)
        .map(|i| {
            let mut s = file.scenarios[i % 2].clone();
            s.id = format!("{}-{i}", s.id);
            s.name = format!("{} ({i})", s.name);
            s.staff_fte += Decimal::new(i as i64 % 20, 1);
            s
        })
        .collect();
    let mut ws = create_workspace_from(path, &big).unwrap();
    let selected: Vec<String> = big.scenarios.iter().take(8).map(|s| s.id.clone()).collect();
    ws.set_view(&ViewState {
        selected: selected.clone(),
        baseline: None,
        horizon_months: Some(36),
    })
    .unwrap();
    selected
}

fn summary(name: &str, times: &Value) -> String {
    let mut t: Vec<f64> = times.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert!(!t.is_empty(), "{name}: no samples");
    t.sort_by(f64::total_cmp);
    let pick = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize];
    format!(
        "{name}: n={} min {:.1} ms, median {:.1} ms, p90 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        t.len(),
        t[0],
        pick(0.5),
        pick(0.9),
        pick(0.95),
        t[t.len() - 1]
    )
}

const REPAINT: &str = r#"
const [id, rounds, done] = arguments;
(async () => {
  const times = [];
  const cell = () => document.querySelector(`[data-testid='figure-${id}-total_cash']`);
  for (let i = 0; i < rounds; i++) {
    const before = cell() ? cell().textContent : null;
    const button = document.querySelector(`[data-testid='horizon-${i % 2 === 0 ? 24 : 36}']`);
    const t0 = performance.now();
    button.click();
    await new Promise((resolve, reject) => {
      const give_up = setTimeout(() => reject(new Error("the table did not change")), 10000);
      const check = () => {
        const c = cell();
        if (c && c.textContent !== before) {
          clearTimeout(give_up);
          requestAnimationFrame(() => requestAnimationFrame(resolve));
        } else requestAnimationFrame(check);
      };
      check();
    });
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
  return times;
})().then(done, (e) => done({ error: String(e) }));
"#;

const ROUND_TRIP: &str = r#"
const [id, rounds, done] = arguments;
const invoke = window.__TAURI_INTERNALS__.invoke;
(async () => {
  const times = [];
  const scenario = await invoke("get_scenario", { id });
  for (let i = 0; i < rounds; i++) {
    scenario.software_per_month = String(1000 + i);
    const t0 = performance.now();
    await invoke("apply_edit", { request: { edit: { kind: "put-scenario", scenario }, label: "measure", coalesce: "measure" } });
    const screen = await invoke("compare", { theme: "light" });
    if (!screen.comparison.view || screen.comparison.view.scenarios.length !== 8) throw new Error("not 8 scenarios");
    times.push(performance.now() - t0);
  }
  return times;
})().then(done, (e) => done({ error: String(e) }));
"#;

const COMPARE_ONLY: &str = r#"
const [rounds, done] = arguments;
const invoke = window.__TAURI_INTERNALS__.invoke;
(async () => {
  const times = [];
  const view_times = [];
  let bytes = 0;
  let svg = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const screen = await invoke("compare", { theme: "light" });
    times.push(performance.now() - t0);
    const t1 = performance.now();
    await invoke("set_view", { view: { selected: screen.comparison.view.scenarios.map((s) => s.id), baseline: null, horizon_months: 36 } });
    view_times.push(performance.now() - t1);
    bytes = JSON.stringify(screen).length;
    svg = JSON.stringify(screen.cumulative).length + JSON.stringify(screen.monthly).length;
  }
  return { times, view_times, bytes, svg };
})().then(done, (e) => done({ error: String(e) }));
"#;

/// Drags the demand slider through `rounds` moves (one pointer down, a pointer move per step, one
/// up, as a hand on the mouse makes them), each move waiting for the app's own measures of it:
/// `what-if-answer:<seq>` (input to the back end's answer received), `what-if-dom:<seq>` (input
/// to the table rows in sight updated, the canvas charts in view drawn and the page laid out; rows
/// out of sight are written when they come into sight or the drag rests) and `what-if:<seq>`
/// (input to the next animation frame, the one painted with it); returns the three lists of
/// durations. The measures are delivered by a `PerformanceObserver` rather than polled, so the
/// harness does no work on the page's thread while a move is handled.
const WHAT_IF: &str = r#"
const [rounds, done] = arguments;
(async () => {
  const slider = document.querySelector("[data-testid='what-if-slider-demand']");
  // One drag, as a pointer makes it: down on the thumb, a move per step, up at the end.
  const r = slider.getBoundingClientRect();
  const min = Number(slider.getAttribute("aria-valuemin"));
  const max = Number(slider.getAttribute("aria-valuemax"));
  const pointer = (type, v) => slider.dispatchEvent(new PointerEvent(type, { bubbles: true, cancelable: true, pointerId: 1, button: 0, clientX: r.left + ((v - min) / (max - min)) * r.width, clientY: r.top + r.height / 2 }));
  pointer("pointerdown", Number(slider.getAttribute("aria-valuenow")));
  const times = [];
  const dom = [];
  const answer = [];
  let last = {};
  let wake = null;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name.startsWith("what-if-answer:")) last.answer = e.duration;
      else if (e.name.startsWith("what-if-dom:")) last.dom = e.duration;
      else if (e.name.startsWith("what-if:")) {
        last.frame = e.duration;
        if (wake) wake();
      }
    }
  });
  observer.observe({ type: "measure" });
  try {
    for (let i = 0; i < rounds; i++) {
      last = {};
      const seen = new Promise((resolve, reject) => {
        const give_up = setTimeout(() => reject(new Error("no measure for move " + i)), 10000);
        wake = () => {
          clearTimeout(give_up);
          resolve();
        };
      });
      pointer("pointermove", 50 + (i % 20) * 5);
      await seen;
      wake = null;
      if (last.dom === undefined || last.answer === undefined) throw new Error("move " + i + " lacks a measure: " + JSON.stringify(last));
      times.push(last.frame);
      dom.push(last.dom);
      answer.push(last.answer);
      performance.clearMeasures();
      performance.clearMarks();
      await new Promise((r) => setTimeout(r, 30));
    }
  } finally {
    observer.disconnect();
    pointer("pointerup", 50 + ((rounds - 1) % 20) * 5);
  }
  return { times, dom, answer };
})().then(done, (e) => done({ error: String(e) }));
"#;

/// Scrolls the comparison so that the cumulative chart sits just below the what-if panel (which
/// stays at the top) and says whether it can be seen there (the point 40 px into its canvas is
/// the chart's, not the panel's or outside the window) and what its canvas shows.
const CHART_IN_VIEW: &str = r#"
const chart = document.querySelector("[data-testid='chart-cumulative'] .canvas");
const panel = document.querySelector("[data-testid='what-if']");
const body = chart.closest(".body");
body.scrollTop += chart.getBoundingClientRect().top - panel.getBoundingClientRect().bottom - 8;
const r = chart.getBoundingClientRect();
const x = r.left + r.width / 2;
const y = r.top + 40;
const hit = y < window.innerHeight ? document.elementFromPoint(x, y) : null;
const canvas = chart.querySelector("canvas");
return { seen: hit !== null && chart.contains(hit), top: r.top, panel: panel.getBoundingClientRect().bottom, height: window.innerHeight, pixels: canvas ? canvas.toDataURL() : null };
"#;

/// The what-if command alone, from the page with nothing else to do: 30 round trips of
/// `compare_what_if` (a demand driver, 8 scenarios), with the back end's own time for each
/// (`backend_ms`), so a slider move's time can be split into engine, IPC and the page's update.
const WHAT_IF_ALONE: &str = r#"
const [rounds, done] = arguments;
const invoke = window.__TAURI_INTERNALS__.invoke;
(async () => {
  const times = [];
  const backend = [];
  let bytes = 0;
  for (let i = 0; i < rounds; i++) {
    const whatIf = { drivers: [{ kind: "demand", value: String(0.5 + (i % 20) * 0.05) }], scenario: null };
    const t0 = performance.now();
    const answer = await invoke("compare_what_if", { whatIf, theme: "light", monthly: null });
    times.push(performance.now() - t0);
    backend.push(Number(answer.screen.backend_ms));
    if (answer.screen.comparison.view.scenarios.length !== 8) throw new Error("not 8 scenarios");
    bytes = JSON.stringify(answer).length;
    await new Promise((r) => setTimeout(r, 30));
  }
  return { times, backend, bytes };
})().then(done, (e) => done({ error: String(e) }));
"#;

const OPEN: &str = r#"
const [path, done] = arguments;
const invoke = window.__TAURI_INTERNALS__.invoke;
(async () => {
  const t0 = performance.now();
  const info = await invoke("open_workspace", { path });
  return { ms: performance.now() - t0, scenarios: info.scenarios.length };
})().then(done, (e) => done({ error: String(e) }));
"#;

async fn run_async(app: &App, script: &str, args: Vec<Value>) -> Value {
    let call = app.client.execute_async(script, args);
    let v = tokio::time::timeout(std::time::Duration::from_secs(120), call)
        .await
        .expect("the measurement finished within 2 minutes")
        .expect("the measurement script ran");
    assert!(v.get("error").is_none(), "{v}");
    v
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn measure_repaint_edit_and_open() {
    let work = tempfile::tempdir().unwrap();
    let eight = work.path().join("eight.cpw");
    let large = work.path().join("large.cpw");
    let selected = build(&eight, 8);
    build(&large, 10_000);
    let config = work.path().join("config");
    let args = vec![
        "--catalog".to_owned(),
        workspace_root().join("catalogs").display().to_string(),
        "--workspace".to_owned(),
        eight.display().to_string(),
    ];
    let app = App::launch_with_env(&args, &[("PLANNER_CONFIG_DIR", config.as_path())]).await;
    app.click("[data-testid='tab-compare']").await;
    let last = selected.last().unwrap();
    app.text_of(&format!("[data-testid='figure-{last}-total_cash']")).await;

    let repaint = run_async(&app, REPAINT, vec![json!(last), json!(20)]).await;
    app.click("[data-testid='what-if-open']").await;
    app.wait_text("[data-testid='what-if-replaces-demand']", "replaces")
        .await;
    let what_if = run_async(&app, WHAT_IF, vec![json!(100)]).await;
    // The same drag with the cumulative chart scrolled into view under the panel (which stays
    // at the top): a chart off screen is drawn only when it comes into view, so the drag above
    // (the table below the panel, the charts below the fold) redraws no canvas. The chart must
    // be seen, and drawn anew, for the measure to count.
    let before = app.exec(CHART_IN_VIEW, vec![]).await;
    assert_eq!(
        before["seen"], true,
        "the cumulative chart is in view below the panel: {before}"
    );
    let charts_in_view = run_async(&app, WHAT_IF, vec![json!(100)]).await;
    let after = app.exec(CHART_IN_VIEW, vec![]).await;
    assert_eq!(after["seen"], true, "the chart stayed in view during the drag: {after}");
    assert_ne!(before["pixels"], after["pixels"], "the drag redrew the chart in view");
    app.click("[data-testid='what-if-reset']").await;
    let what_if_alone = run_async(&app, WHAT_IF_ALONE, vec![json!(30)]).await;
    let round_trip = run_async(&app, ROUND_TRIP, vec![json!(selected[0]), json!(30)]).await;
    let compare_only = run_async(&app, COMPARE_ONLY, vec![json!(30)]).await;
    let open = run_async(&app, OPEN, vec![json!(large.display().to_string())]).await;
    assert_eq!(open["scenarios"], 10_000);
    println!(
        "{}",
        summary("horizon click → repainted comparison of 8 scenarios", &repaint)
    );
    println!(
        "{}",
        summary(
            "what-if slider move → answer received (engine and IPC)",
            &what_if["answer"]
        )
    );
    println!(
        "{}",
        summary(
            "what-if slider move, the charts below the fold → the table rows in sight updated and laid out",
            &what_if["dom"]
        )
    );
    println!(
        "{}",
        summary(
            "what-if slider move, the charts below the fold → the next frame (painted with the update)",
            &what_if["times"]
        )
    );
    println!(
        "{}",
        summary(
            "what-if slider move, the cumulative chart in view → rows in sight and charts updated, laid out",
            &charts_in_view["dom"]
        )
    );
    println!(
        "{}",
        summary(
            "what-if slider move, the cumulative chart in view → the next frame (painted with the update)",
            &charts_in_view["times"]
        )
    );
    println!(
        "{}; answer {} bytes of JSON",
        summary(
            "what-if command alone, page idle (engine and IPC round trip)",
            &what_if_alone["times"]
        ),
        what_if_alone["bytes"]
    );
    println!(
        "{}",
        summary(
            "what-if command alone: the back end's part (backend_ms)",
            &what_if_alone["backend"]
        )
    );
    println!(
        "{}",
        summary(
            "edit saved + 8 scenarios compared with charts (IPC round trips)",
            &round_trip
        )
    );
    println!(
        "{}; answer {} bytes of JSON, {} bytes of it chart points",
        summary(
            "compare of 8 scenarios with charts alone (IPC round trip)",
            &compare_only["times"]
        ),
        compare_only["bytes"],
        compare_only["svg"]
    );
    println!(
        "{}",
        summary("set_view alone (IPC round trip)", &compare_only["view_times"])
    );
    println!(
        "open_workspace of 10,000 scenarios (IPC round trip): {:.1} ms",
        open["ms"].as_f64().unwrap()
    );
    app.close().await;
}
