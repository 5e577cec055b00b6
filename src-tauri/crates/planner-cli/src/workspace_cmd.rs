//! `planner workspace ...`: create a workspace file from a scenario file, show what one holds,
//! export it back to JSON, and check its integrity, with the same store the app uses.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::engine::input::scenario_file;
use planner_core::error::PlannerError;

/// Creates `out` with the shipped catalog's snapshot; with `from`, takes its settings, workloads
/// and scenarios and compares its first (up to 8) scenarios.
pub fn new(catalog_dir: &Path, out: &Path, title: Option<&str>, from: Option<&Path>) -> Result<String, PlannerError> {
    let mut text = format!("created {}\n", out.display());
    let host = crate::host::host(catalog_dir);
    let Some(from) = from else {
        planner_app::session::create(&host, out, title.unwrap_or("Untitled workspace"))?;
        return Ok(text);
    };
    let imported = planner_app::session::create_from(&host, out, title, from)?;
    let _ = writeln!(
        text,
        "imported {} workload(s) and {} scenario(s) from {}",
        imported.workloads,
        imported.scenarios,
        from.display()
    );
    Ok(text)
}

/// What a workspace holds, as text.
pub fn show(catalog_dir: &Path, path: &Path) -> Result<String, PlannerError> {
    let host = crate::host::host(catalog_dir);
    let info = planner_app::session::open(&host, path)?;
    let s = &info.settings;
    let mut out = String::new();
    let _ = writeln!(out, "{}\n{}", s.title, path.display());
    if let Some(why) = &info.read_only {
        let _ = writeln!(
            out,
            "read-only: {why}; it can be read, exported, verified and saved elsewhere (workspace save-as), not changed"
        );
    }
    let _ = writeln!(
        out,
        "currency {}, start {}, horizon {} months, discount rate {}",
        s.currency, s.start, s.horizon_months, s.discount_rate
    );
    let c = &info.catalog;
    let _ = writeln!(out, "catalog snapshot {} (taken {} UTC)", c.version, c.taken);
    if c.newer_available {
        let _ = writeln!(
            out,
            "note: the app ships catalog {}; this workspace keeps computing with {} until it is updated",
            c.shipped_version.as_deref().unwrap_or("?"),
            c.version
        );
    }
    let _ = writeln!(out, "{} workload(s):", info.workloads.len());
    for w in &info.workloads {
        let _ = writeln!(out, "  {:<24} {}", w.id, w.name);
    }
    let _ = writeln!(out, "{} scenario(s):", info.scenarios.len());
    for sc in info.scenarios.iter().take(50) {
        let _ = writeln!(out, "  {:<24} {}", sc.id, sc.name);
    }
    if info.scenarios.len() > 50 {
        let _ = writeln!(out, "  ... and {} more", info.scenarios.len() - 50);
    }
    let _ = writeln!(out, "compared: {}", info.view.selected.join(", "));
    if let Some(lock) = &info.lock {
        let _ = writeln!(
            out,
            "locked baseline: {} (against {}, locked {} UTC)",
            lock.scenarios.join(", "),
            lock.baseline,
            lock.locked_at
        );
    }
    if let Some(label) = &info.history.undo_label {
        let _ = writeln!(out, "last edit: {label}");
    }
    let memos = planner_app::memo::records(&host)?;
    let _ = writeln!(out, "{} memo record(s):", memos.len());
    for m in &memos {
        let what = match m.event {
            planner_core::memo::MemoEvent::Generated => format!("written, {} pages", m.pages),
            planner_core::memo::MemoEvent::Signed => format!(
                "signed by {} ({}), {} signature(s)",
                m.signer.as_deref().unwrap_or("?"),
                m.reason.as_deref().unwrap_or(""),
                m.signatures
            ),
        };
        let _ = writeln!(
            out,
            "  {} UTC  {what}\n      {}\n      sha256 {}",
            m.at, m.file, m.sha256
        );
    }
    Ok(out)
}

/// The workspace as a scenario file (JSON).
pub fn export(catalog_dir: &Path, path: &Path, out: Option<&Path>) -> Result<String, PlannerError> {
    let host = crate::host::host(catalog_dir);
    planner_app::session::open(&host, path)?;
    match out {
        Some(out) => {
            planner_app::scenarios::export_file(&host, out, None)?;
            Ok(format!("wrote {}\n", out.display()))
        }
        None => Ok(scenario_file::to_json(&planner_app::scenarios::export(&host, None)?) + "\n"),
    }
}

/// A compacted copy of a workspace at `out`, which must not exist.
pub fn save_as(catalog_dir: &Path, path: &Path, out: &Path) -> Result<String, PlannerError> {
    let host = crate::host::host(catalog_dir);
    planner_app::session::open(&host, path)?;
    let copy = planner_app::session::save_as(&host, out)?;
    let note = match &copy.read_only {
        Some(why) => format!(" (the copy is read-only too: {why})"),
        None => String::new(),
    };
    Ok(format!("wrote {}{note}\n", out.display()))
}

/// Locks the compared set of the workspace at `path` as the workshop baseline (the app's Lock
/// baseline), and says what was locked.
pub fn lock(catalog_dir: &Path, path: &Path) -> Result<String, PlannerError> {
    let host = crate::host::host(catalog_dir);
    let info = planner_app::session::open(&host, path)?;
    if let Some(held) = &info.lock {
        return Err(PlannerError::invalid(
            "lock",
            format!(
                "{} already has a locked baseline ({} scenarios, locked {} UTC); `planner workspace unlock {}` unlocks it first",
                path.display(),
                held.scenarios.len(),
                held.locked_at,
                path.display()
            ),
        ));
    }
    let lock = planner_app::compare::lock_baseline(&host)?;
    let name = |id: &str| {
        info.scenarios
            .iter()
            .find(|s| s.id == id)
            .map_or_else(|| id.to_owned(), |s| format!("{} ({id})", s.name))
    };
    let mut out = format!(
        "locked {} scenarios at {} UTC; differences are taken against {}\n",
        lock.scenarios.len(),
        lock.locked_at,
        name(&lock.baseline)
    );
    for id in &lock.scenarios {
        let _ = writeln!(out, "  {}", name(id));
    }
    let _ = writeln!(out, "`planner workspace unlock {}` unlocks them", path.display());
    Ok(out)
}

/// Unlocks the baseline of the workspace at `path` (the app's Unlock baseline).
pub fn unlock(catalog_dir: &Path, path: &Path) -> Result<String, PlannerError> {
    let host = crate::host::host(catalog_dir);
    let info = planner_app::session::open(&host, path)?;
    let Some(lock) = info.lock else {
        return Ok(format!("{} has no locked baseline; nothing changed\n", path.display()));
    };
    planner_app::compare::unlock_baseline(&host)?;
    Ok(format!(
        "unlocked the baseline of {} scenarios: they can be edited again\n",
        lock.scenarios.len()
    ))
}

/// SQLite's integrity check of a workspace.
pub fn check(catalog_dir: &Path, path: &Path) -> Result<String, PlannerError> {
    let host = crate::host::host(catalog_dir);
    planner_app::session::open(&host, path)?;
    planner_app::session::check_integrity(&host)?;
    Ok(format!("{}: ok\n", path.display()))
}
