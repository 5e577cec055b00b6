//! A test helper for tests/tests/workspace_crash.rs: opens a workspace and edits one scenario as
//! fast as it can, through the same `planner_store::Workspace::apply` the app's `apply_edit`
//! command calls. After each edit is committed it prints `saved N` (N = the edit's number), so
//! the test knows which edits were acknowledged when it kills this process with SIGKILL.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use planner_core::edit::{Edit, EditRequest};
use planner_store::Workspace;
use rust_decimal::Decimal;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(id)) = (args.next(), args.next()) else {
        eprintln!("usage: edit-burst WORKSPACE SCENARIO_ID");
        return ExitCode::from(2);
    };
    let mut ws = match Workspace::open(&PathBuf::from(path)) {
        Ok(ws) => ws,
        Err(e) => {
            eprintln!("edit-burst: {}", e.message);
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    for n in 1u32.. {
        let mut scenario = match ws.scenario(&id) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("edit-burst: {}", e.message);
                return ExitCode::FAILURE;
            }
        };
        // The edit's number is written into the scenario, so the file says which edit it holds.
        scenario.software_per_month = Decimal::from(n);
        let request = EditRequest {
            edit: Edit::PutScenario { scenario },
            label: format!("burst {n}"),
            coalesce: None,
        };
        if let Err(e) = ws.apply(&request, NOW) {
            eprintln!("edit-burst: {}", e.message);
            return ExitCode::FAILURE;
        }
        if writeln!(out, "saved {n}").and_then(|()| out.flush()).is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
