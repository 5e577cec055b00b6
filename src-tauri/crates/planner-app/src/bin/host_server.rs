//! The host server: answers one JSON request per line on standard input with one JSON answer per
//! line on standard output, through the real use cases on a test host (see
//! `planner_app::recorded`). The UI tests record their answers against it:
//!
//! ```text
//! cargo run -p planner-app --bin planner-host-server -- REPO_DIR
//! {"command":"create_workspace","args":{"path":"@tmp/a.cpw","title":"Lab"}}
//! {"ok":{"path":"@tmp/a.cpw", ...}}
//! {"control":"advance","ms":3000}
//! {"ok":null}
//! {"control":"reset"}
//! {"ok":null}
//! ```
//!
//! `{"control":"reset"}` starts over on a fresh host and scratch folder. A line that does not
//! read is answered with an `error` naming what is wrong.
//!
//! Each recording gets a process of its own, when it is made and when it is replayed: the PDF
//! library numbers the objects of every document it makes from a counter kept for the whole
//! process, so a memo's bytes depend on how many the process made before.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use planner_app::recorded::{Recorder, Request};
use serde_json::{Value, json};

fn main() {
    let repo = std::env::args().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.."),
        PathBuf::from,
    );
    let repo = repo.canonicalize().unwrap_or(repo);
    let mut scratch = fresh();
    let Some(dir) = scratch.as_ref().map(|d| d.path().to_path_buf()) else {
        eprintln!("planner-host-server: no scratch folder could be made in the system's temporary folder");
        std::process::exit(1);
    };
    let mut recorder = Recorder::new(&repo, &dir);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Ok(v) if v.get("control").and_then(Value::as_str) == Some("reset") => {
                scratch = fresh();
                match scratch.as_ref() {
                    Some(d) => {
                        recorder = Recorder::new(&repo, d.path());
                        json!({ "ok": null })
                    }
                    None => json!({ "error": { "code": "io", "message": "no scratch folder", "details": [] } }),
                }
            }
            Ok(v) => match serde_json::from_value::<Request>(v) {
                // `{"ok": …}` or `{"error": …}`: a fresh answer is never a stored one.
                Ok(request) => {
                    serde_json::to_value(recorder.answer(&request)).unwrap_or_else(|e| bad_line(&e.to_string()))
                }
                Err(e) => bad_line(&e.to_string()),
            },
            Err(e) => bad_line(&e.to_string()),
        };
        if writeln!(out, "{answer}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}

fn fresh() -> Option<tempfile::TempDir> {
    tempfile::Builder::new().prefix("planner-host-").tempdir().ok()
}

fn bad_line(why: &str) -> Value {
    json!({ "error": { "code": "invalid-input", "message": format!("The request line does not read: {why}."), "details": [] } })
}
