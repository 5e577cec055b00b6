//! Crash safety of the workspace file: a writer is killed with SIGKILL in the middle of a burst
//! of edits, 100 times. Every time the file must open, pass SQLite's `PRAGMA integrity_check`,
//! and hold every edit the writer reported saved, plus at most the one that was in flight.
//!
//! The writer is `src/bin/edit-burst.rs`, which edits through `Workspace::apply`, the function
//! the app's `apply_edit` command calls; the kill lands at a pseudo-random moment (a fixed-seed
//! generator, so a failure can be replayed) between 1 and 40 ms into the burst.
// Test code: a failed unwrap is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use planner_store::Workspace;
use planner_tests::{Lcg, create_workspace_from, sample_file};
use rust_decimal::Decimal;

const KILLS: u32 = 100;

#[test]
fn killing_the_writer_mid_burst_never_loses_a_saved_edit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crash.cpw");
    drop(create_workspace_from(&path, &sample_file().unwrap()).unwrap());
    let mut rng = Lcg(0x5eed);
    let mut committed_unacknowledged = 0;
    let mut acknowledged_total = 0u64;
    for round in 0..KILLS {
        let mut child = Command::new(env!("CARGO_BIN_EXE_edit-burst"))
            .arg(&path)
            .arg("hybrid")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel::<u32>();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(n) = line.strip_prefix("saved ").and_then(|n| n.parse().ok())
                    && tx.send(n).is_err()
                {
                    break;
                }
            }
        });
        // Wait for the burst to start, then kill at a random moment inside it.
        let first = rx.recv_timeout(Duration::from_secs(30));
        assert!(first.is_ok(), "round {round}: the writer saved nothing in 30 s");
        std::thread::sleep(Duration::from_millis(1 + rng.next_u64() % 40));
        child.kill().unwrap(); // SIGKILL on Unix
        let status = child.wait().unwrap();
        assert!(!status.success(), "round {round}: the writer must die by the signal");
        reader.join().unwrap();
        let acknowledged = rx.try_iter().last().or(first.ok()).unwrap();
        acknowledged_total += u64::from(acknowledged);

        let ws =
            Workspace::open(&path).unwrap_or_else(|e| panic!("round {round}: the file does not open: {}", e.message));
        ws.integrity_check()
            .unwrap_or_else(|e| panic!("round {round}: {}", e.message));
        let held = ws.scenario("hybrid").unwrap().software_per_month;
        let acked = Decimal::from(acknowledged);
        assert!(
            held == acked || held == acked + Decimal::ONE,
            "round {round}: the writer reported edit {acknowledged} saved, but the file holds edit {held}"
        );
        if held == acked + Decimal::ONE {
            // The edit in flight reached the disk before the kill, unacknowledged.
            committed_unacknowledged += 1;
        }
        // The undo journal agrees with the data it describes.
        let label = ws.history().unwrap().undo_label.unwrap();
        assert_eq!(label, format!("burst {held}"), "round {round}");
    }
    println!(
        "{KILLS} kills, {acknowledged_total} edits acknowledged in all, none lost; the edit in flight was on disk unacknowledged {committed_unacknowledged} times and lost {} times",
        KILLS - committed_unacknowledged
    );
}
