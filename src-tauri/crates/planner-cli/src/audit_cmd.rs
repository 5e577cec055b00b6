//! `planner audit ...`: the checklist log of a workspace, verified or listed, with the same
//! store the app uses.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::error::{ErrorCode, PlannerError};

/// Verifies the chain; `Ok((text, intact))`. A broken log is a result (exit 1), not an error.
pub fn verify(catalog_dir: &Path, path: &Path, json: bool) -> Result<(String, bool), PlannerError> {
    let host = crate::host::host(catalog_dir);
    planner_app::session::open(&host, path)?;
    let check = planner_app::compliance::verify_log(&host)?;
    let intact = check.problem.is_none();
    if json {
        let text = serde_json::to_string_pretty(&check)
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("the result could not be written as JSON: {e}")))?;
        return Ok((format!("{text}\n"), intact));
    }
    let mut out = String::new();
    match &check.problem {
        None => {
            let _ = writeln!(
                out,
                "{}: checklist log intact: {} entr{}, {} evidence file(s), {} signed sign-off(s) verified, head {}",
                path.display(),
                check.entries,
                if check.entries == 1 { "y" } else { "ies" },
                check.evidence_files,
                check.signed_signoffs,
                check.head
            );
        }
        Some(p) => {
            let _ = writeln!(out, "BROKEN: {}", p.message);
            if p.position > 0 {
                let _ = writeln!(
                    out,
                    "  first broken entry: position {}, seq {}, {} on {} by {} at {}",
                    p.position, p.seq, p.action, p.subject, p.actor, p.at
                );
            }
        }
    }
    Ok((out, intact))
}

/// Every entry of the log, one line each, oldest first.
pub fn log(catalog_dir: &Path, path: &Path) -> Result<String, PlannerError> {
    let host = crate::host::host(catalog_dir);
    planner_app::session::open(&host, path)?;
    let mut out = String::new();
    for e in planner_app::compliance::log(&host)? {
        let what = match e.payload.get("answer") {
            Some(a) => format!(
                "{} = {}",
                a.get("item").and_then(|v| v.as_str()).unwrap_or("?"),
                a.get("status").and_then(|v| v.as_str()).unwrap_or("?")
            ),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "{:>4}  {}  {:<16} {:<28} {:<24} {}  {}",
            e.seq,
            e.at,
            e.action,
            e.subject,
            e.actor,
            e.hash.get(..12).unwrap_or(&e.hash),
            what
        );
    }
    if out.is_empty() {
        out = format!("{}: no checklist changes recorded\n", path.display());
    }
    Ok(out)
}
