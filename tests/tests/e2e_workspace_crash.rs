//! End to end, crash safety of the real app: the app is started on a workspace, a burst of edits
//! runs in its window through the same IPC command the editor uses (`apply_edit`), and the app
//! process is killed with SIGKILL in the middle of the burst: 40 times in `cargo xtask test`, 100
//! times in CI's soak (`cargo xtask soak --kills 100`). Each time the file must
//! open, pass SQLite's `PRAGMA integrity_check`, hold at least every edit the window had been
//! told was saved when the kill was ordered, and its undo journal must name the edit it holds.
//!
//! (tests/tests/workspace_crash.rs does the same with a bare writer process, where the
//! acknowledgement of every edit can be read exactly; here the window is the writer, so the
//! test knows a lower bound: the edits acknowledged just before it sent the signal.)

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "e2e/driver.rs"]
mod driver;

use std::process::Command;
use std::time::{Duration, Instant};

use driver::{App, workspace_root};
use planner_store::Workspace;
use planner_tests::{Lcg, create_workspace_from, sample_file};
use rust_decimal::Decimal;

/// Kill rounds in `cargo xtask test`; `PLANNER_KILL_ROUNDS` asks for another number (CI's soak,
/// `cargo xtask soak`, runs 100).
const KILLS: u32 = 40;

/// The rounds asked for: `PLANNER_KILL_ROUNDS` (1 to 10,000) when set, else [`KILLS`].
fn kill_rounds() -> u32 {
    match std::env::var("PLANNER_KILL_ROUNDS") {
        Err(_) => KILLS,
        Ok(v) => match v.trim().parse::<u32>() {
            Ok(n) if (1..=10_000).contains(&n) => n,
            _ => panic!("PLANNER_KILL_ROUNDS is `{v}`: give a whole number of rounds from 1 to 10000"),
        },
    }
}

/// Starts an endless burst of edits in the window; `window.__acked` counts the saved ones.
const BURST: &str = r#"
const invoke = window.__TAURI_INTERNALS__.invoke;
window.__acked = 0;
window.__burstError = null;
(async () => {
  try {
    const scenario = await invoke("get_scenario", { id: "hybrid" });
    for (let n = 1; ; n++) {
      scenario.software_per_month = String(n);
      await invoke("apply_edit", { request: { edit: { kind: "put-scenario", scenario }, label: "burst " + n, coalesce: null } });
      window.__acked = n;
    }
  } catch (e) {
    window.__burstError = String(e && e.message ? e.message : JSON.stringify(e));
  }
})();
return true;
"#;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "end-to-end: needs Xvfb, tauri-driver and the built app; run by `cargo xtask test`"]
async fn killing_the_app_mid_burst_leaves_a_whole_file_with_every_saved_edit() {
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    let path = work.path().join("crash.cpw");
    let catalog_dir = workspace_root().join("catalogs");
    drop(create_workspace_from(&path, &sample_file().unwrap()).unwrap());
    let args = vec![
        "--catalog".to_owned(),
        catalog_dir.display().to_string(),
        "--workspace".to_owned(),
        path.display().to_string(),
    ];
    let mut rng = Lcg(0xc0ffee);
    let started = Instant::now();
    let mut acknowledged_total = 0u64;
    let kills = kill_rounds();
    for round in 0..kills {
        let app = App::launch_with_env(&args, &[("PLANNER_CONFIG_DIR", config.as_path())]).await;
        app.exec(BURST, vec![]).await;
        // Let the burst get going, then kill at a random moment inside it.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let acked = app.exec("return window.__acked;", vec![]).await;
            if acked.as_u64().unwrap_or(0) > 0 {
                break;
            }
            let error = app.exec("return window.__burstError;", vec![]).await;
            assert!(error.is_null(), "round {round}: the burst failed: {error}");
            assert!(Instant::now() < deadline, "round {round}: no edit saved within 20 s");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(10 + rng.next_u64() % 150)).await;
        let pid = app.app_pid();
        let acked = app.exec("return window.__acked;", vec![]).await.as_u64().unwrap();
        let status = Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
        assert!(status.success(), "round {round}: kill -9 {pid}");
        // Wait for the process to be gone before the file is opened again.
        let gone = Instant::now() + Duration::from_secs(10);
        while std::path::Path::new(&format!("/proc/{pid}")).exists() && Instant::now() < gone {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        app.close().await;
        acknowledged_total += acked;

        let ws =
            Workspace::open(&path).unwrap_or_else(|e| panic!("round {round}: the file does not open: {}", e.message));
        ws.integrity_check()
            .unwrap_or_else(|e| panic!("round {round}: {}", e.message));
        let held = ws.scenario("hybrid").unwrap().software_per_month;
        assert!(
            held >= Decimal::from(acked),
            "round {round}: the window had {acked} edits saved before the kill, but the file holds edit {held}"
        );
        let label = ws.history().unwrap().undo_label.unwrap();
        assert_eq!(
            label,
            format!("burst {held}"),
            "round {round}: the journal names the edit held"
        );
    }
    println!(
        "{kills} kills of the app, {acknowledged_total} edits acknowledged before the kills, none lost; {:.0} s in all",
        started.elapsed().as_secs_f64()
    );
}
