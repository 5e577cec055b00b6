//! The edit journal behind undo and redo, and the item reads and writes it replays.
//!
//! A journal entry holds every item it touched, before and after, as JSON. Applying an entry
//! forwards writes the afters; backwards, the befores (in reverse order). An item that is `None`
//! on the side being written is deleted. Undone entries stay (flagged) until a new edit drops
//! them, so redo works across a restart.

use planner_core::engine::input::scenario_file::{ScenarioSpec, WorkloadSpec};
use planner_core::engine::workspace::content::WorkspaceSettings;
use planner_core::memo::MemoDraft;
use planner_core::rfp::vendors::ScorecardDraft;
use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use super::types::{History, ScenarioSummary};

/// Journal entries kept; older ones are dropped (their edits stay, only their undo goes).
pub const JOURNAL_LIMIT: i64 = 1000;

/// Edits with the same coalesce key merge when they follow within this many milliseconds.
const COALESCE_MS: i64 = 2000;

/// An item with its place in its list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Positioned<T> {
    pub position: i64,
    pub item: T,
}

/// The catalog text a workspace computes with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    pub version: String,
    pub taken_ms: i64,
    pub files: Vec<(String, String)>,
    /// The signed pack the files came from; `None` for the catalog shipped with the app.
    #[serde(default)]
    pub origin: Option<crate::pack::PackOrigin>,
}

/// One item's change.
// A change lives for one edit; boxing its variants would save nothing worth the noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Change {
    Settings {
        before: WorkspaceSettings,
        after: WorkspaceSettings,
    },
    Workload {
        id: String,
        before: Option<Positioned<WorkloadSpec>>,
        after: Option<Positioned<WorkloadSpec>>,
    },
    Scenario {
        id: String,
        before: Option<Positioned<ScenarioSpec>>,
        after: Option<Positioned<ScenarioSpec>>,
    },
    Catalog {
        before: Snapshot,
        after: Snapshot,
    },
    Memo {
        before: MemoDraft,
        after: MemoDraft,
    },
    Scorecard {
        before: ScorecardDraft,
        after: ScorecardDraft,
    },
}

fn to_sql_error(e: serde_json::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(e))
}

fn from_json<T: for<'de> Deserialize<'de>>(body: &str, column: usize) -> rusqlite::Result<T> {
    serde_json::from_str(body)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Text, Box::new(e)))
}

/// The two lists of items that have an id and a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Workloads,
    Scenarios,
}

impl Table {
    pub fn noun(self) -> &'static str {
        match self {
            Table::Workloads => "workload",
            Table::Scenarios => "scenario",
        }
    }
}

/// One item of `table` with its position, if it exists.
pub fn read_item<T: for<'de> Deserialize<'de>>(
    conn: &Connection,
    table: Table,
    id: &str,
) -> rusqlite::Result<Option<Positioned<T>>> {
    let sql = match table {
        Table::Workloads => "SELECT position, body FROM workloads WHERE id = ?1",
        Table::Scenarios => "SELECT position, body FROM scenarios WHERE id = ?1",
    };
    conn.query_row(sql, [id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .optional()?
        .map(|(position, body)| {
            Ok(Positioned {
                position,
                item: from_json(&body, 1)?,
            })
        })
        .transpose()
}

pub fn read_scenario(conn: &Connection, id: &str) -> rusqlite::Result<Option<Positioned<ScenarioSpec>>> {
    read_item(conn, Table::Scenarios, id)
}

/// One past the highest position in `table`.
pub fn next_position(conn: &Connection, table: Table) -> rusqlite::Result<i64> {
    let sql = match table {
        Table::Workloads => "SELECT COALESCE(MAX(position), -1) + 1 FROM workloads",
        Table::Scenarios => "SELECT COALESCE(MAX(position), -1) + 1 FROM scenarios",
    };
    conn.query_row(sql, [], |r| r.get(0))
}

pub fn read_snapshot(conn: &Connection) -> rusqlite::Result<Snapshot> {
    let (version, taken_ms) = conn.query_row("SELECT version, taken_ms FROM catalog_meta WHERE id = 1", [], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
    })?;
    let mut stmt = conn.prepare("SELECT name, body FROM catalog_files ORDER BY name")?;
    let files = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let origin: Option<String> = conn
        .query_row("SELECT body FROM catalog_origin WHERE id = 1", [], |r| r.get(0))
        .optional()?;
    Ok(Snapshot {
        version,
        taken_ms,
        files,
        // A record that does not read is treated as no pack: the memo then says the signature
        // could not be checked, rather than claiming one.
        origin: origin.and_then(|o| serde_json::from_str(&o).ok()),
    })
}

pub fn write_snapshot(tx: &Transaction<'_>, s: &Snapshot) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM catalog_files", [])?;
    for (name, body) in &s.files {
        tx.execute(
            "INSERT INTO catalog_files (name, body) VALUES (?1, ?2)",
            params![name, body],
        )?;
    }
    tx.execute(
        "INSERT INTO catalog_meta (id, version, taken_ms) VALUES (1, ?1, ?2)
         ON CONFLICT (id) DO UPDATE SET version = excluded.version, taken_ms = excluded.taken_ms",
        params![s.version, s.taken_ms],
    )?;
    tx.execute("DELETE FROM catalog_origin", [])?;
    if let Some(origin) = &s.origin {
        let body = serde_json::to_string(origin).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        tx.execute("INSERT INTO catalog_origin (id, body) VALUES (1, ?1)", params![body])?;
    }
    Ok(())
}

fn write_settings(tx: &Transaction<'_>, s: &WorkspaceSettings) -> rusqlite::Result<()> {
    let body = serde_json::to_string(s).map_err(to_sql_error)?;
    tx.execute(
        "INSERT INTO settings (id, body) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET body = excluded.body",
        [body],
    )?;
    Ok(())
}

/// The memo draft; a workspace that never had one reads as the empty draft.
pub fn read_memo_draft(conn: &Connection) -> rusqlite::Result<MemoDraft> {
    conn.query_row("SELECT body FROM memo_draft WHERE id = 1", [], |r| {
        r.get::<_, String>(0)
    })
    .optional()?
    .map_or_else(|| Ok(MemoDraft::default()), |body| from_json(&body, 0))
}

fn write_memo_draft(tx: &Transaction<'_>, m: &MemoDraft) -> rusqlite::Result<()> {
    let body = serde_json::to_string(m).map_err(to_sql_error)?;
    tx.execute(
        "INSERT INTO memo_draft (id, body) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET body = excluded.body",
        [body],
    )?;
    Ok(())
}

/// The vendor scorecard; a workspace that never had one reads as the default (equal weights, no
/// vendors).
pub fn read_scorecard(conn: &Connection) -> rusqlite::Result<ScorecardDraft> {
    conn.query_row("SELECT body FROM scorecard WHERE id = 1", [], |r| r.get::<_, String>(0))
        .optional()?
        .map_or_else(|| Ok(ScorecardDraft::default()), |body| from_json(&body, 0))
}

fn write_scorecard(tx: &Transaction<'_>, s: &ScorecardDraft) -> rusqlite::Result<()> {
    let body = serde_json::to_string(s).map_err(to_sql_error)?;
    tx.execute(
        "INSERT INTO scorecard (id, body) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET body = excluded.body",
        [body],
    )?;
    Ok(())
}

fn write_workload(tx: &Transaction<'_>, id: &str, w: Option<&Positioned<WorkloadSpec>>) -> rusqlite::Result<()> {
    match w {
        None => {
            tx.execute("DELETE FROM workloads WHERE id = ?1", [id])?;
        }
        Some(p) => {
            let body = serde_json::to_string(&p.item).map_err(to_sql_error)?;
            tx.execute(
                "INSERT INTO workloads (id, position, body) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET position = excluded.position, body = excluded.body",
                params![id, p.position, body],
            )?;
        }
    }
    Ok(())
}

fn write_scenario(tx: &Transaction<'_>, id: &str, s: Option<&Positioned<ScenarioSpec>>) -> rusqlite::Result<()> {
    match s {
        None => {
            tx.execute("DELETE FROM scenarios WHERE id = ?1", [id])?;
        }
        Some(p) => {
            let body = serde_json::to_string(&p.item).map_err(to_sql_error)?;
            let summary = serde_json::to_string(&ScenarioSummary::of(&p.item)).map_err(to_sql_error)?;
            tx.execute(
                "INSERT INTO scenarios (id, position, name, summary, body) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (id) DO UPDATE SET position = excluded.position, name = excluded.name,
                     summary = excluded.summary, body = excluded.body",
                params![id, p.position, p.item.name, summary, body],
            )?;
        }
    }
    Ok(())
}

fn write_side(tx: &Transaction<'_>, c: &Change, backwards: bool) -> rusqlite::Result<()> {
    match c {
        Change::Settings { before, after } => write_settings(tx, if backwards { before } else { after }),
        Change::Workload { id, before, after } => {
            write_workload(tx, id, if backwards { before } else { after }.as_ref())
        }
        Change::Scenario { id, before, after } => {
            write_scenario(tx, id, if backwards { before } else { after }.as_ref())
        }
        Change::Catalog { before, after } => write_snapshot(tx, if backwards { before } else { after }),
        Change::Memo { before, after } => write_memo_draft(tx, if backwards { before } else { after }),
        Change::Scorecard { before, after } => write_scorecard(tx, if backwards { before } else { after }),
    }
}

/// Writes the after side of a change.
pub fn write_after(tx: &Transaction<'_>, c: &Change) -> rusqlite::Result<()> {
    write_side(tx, c, false)
}

/// Records an applied edit: drops the redo steps, merges into the last step when the coalesce
/// key matches within [`COALESCE_MS`], and keeps at most [`JOURNAL_LIMIT`] steps.
pub fn record(
    tx: &Transaction<'_>,
    label: &str,
    coalesce: Option<&str>,
    changes: &[Change],
    at_ms: i64,
) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM edits WHERE undone = 1", [])?;
    let last: Option<(i64, i64, Option<String>, String)> = tx
        .query_row(
            "SELECT seq, at_ms, coalesce_key, changes FROM edits ORDER BY seq DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    if let (Some(key), Some((seq, last_at, Some(last_key), body))) = (coalesce, &last)
        && key == last_key
        && (0..=COALESCE_MS).contains(&(at_ms - last_at))
    {
        let previous: Vec<Change> = from_json(body, 3)?;
        if let Some(merged) = merge(&previous, changes) {
            let merged = serde_json::to_string(&merged).map_err(to_sql_error)?;
            tx.execute(
                "UPDATE edits SET at_ms = ?1, label = ?2, changes = ?3 WHERE seq = ?4",
                params![at_ms, label, merged, seq],
            )?;
            return Ok(());
        }
    }
    let body = serde_json::to_string(changes).map_err(to_sql_error)?;
    tx.execute(
        "INSERT INTO edits (at_ms, label, coalesce_key, changes) VALUES (?1, ?2, ?3, ?4)",
        params![at_ms, label, coalesce, body],
    )?;
    tx.execute(
        "DELETE FROM edits WHERE seq <= (SELECT MAX(seq) FROM edits) - ?1",
        [JOURNAL_LIMIT],
    )?;
    Ok(())
}

/// The earlier step's befores with the later step's afters, when both touch the same items.
fn merge(earlier: &[Change], later: &[Change]) -> Option<Vec<Change>> {
    if earlier.len() != later.len() {
        return None;
    }
    earlier
        .iter()
        .zip(later)
        .map(|(a, b)| match (a, b) {
            (Change::Settings { before, .. }, Change::Settings { after, .. }) => Some(Change::Settings {
                before: before.clone(),
                after: after.clone(),
            }),
            (Change::Memo { before, .. }, Change::Memo { after, .. }) => Some(Change::Memo {
                before: before.clone(),
                after: after.clone(),
            }),
            (Change::Scorecard { before, .. }, Change::Scorecard { after, .. }) => Some(Change::Scorecard {
                before: before.clone(),
                after: after.clone(),
            }),
            (Change::Workload { id, before, .. }, Change::Workload { id: id2, after, .. }) if id == id2 => {
                Some(Change::Workload {
                    id: id.clone(),
                    before: before.clone(),
                    after: after.clone(),
                })
            }
            (Change::Scenario { id, before, .. }, Change::Scenario { id: id2, after, .. }) if id == id2 => {
                Some(Change::Scenario {
                    id: id.clone(),
                    before: before.clone(),
                    after: after.clone(),
                })
            }
            _ => None,
        })
        .collect()
}

/// Why a step could not be taken.
#[derive(Debug)]
pub enum StepError {
    Db(rusqlite::Error),
    Body(serde_json::Error),
}

impl From<rusqlite::Error> for StepError {
    fn from(e: rusqlite::Error) -> StepError {
        StepError::Db(e)
    }
}

/// Undoes the last applied step (`undo`) or redoes the first undone one, returning its label and
/// changes; `None` when there is none.
pub fn step(tx: &Transaction<'_>, undo: bool) -> Result<Option<(String, Vec<Change>)>, StepError> {
    let Some((seq, label, changes)) = pending(tx, undo)? else {
        return Ok(None);
    };
    if undo {
        for c in changes.iter().rev() {
            write_side(tx, c, true)?;
        }
    } else {
        for c in &changes {
            write_side(tx, c, false)?;
        }
    }
    tx.execute("UPDATE edits SET undone = ?1 WHERE seq = ?2", params![undo, seq])?;
    Ok(Some((label, changes)))
}

/// The step undo (`undo`) or redo would take, as (seq, label, changes), without taking it.
pub fn pending(conn: &Connection, undo: bool) -> Result<Option<(i64, String, Vec<Change>)>, StepError> {
    let sql = if undo {
        "SELECT seq, label, changes FROM edits WHERE undone = 0 ORDER BY seq DESC LIMIT 1"
    } else {
        "SELECT seq, label, changes FROM edits WHERE undone = 1 ORDER BY seq ASC LIMIT 1"
    };
    let Some((seq, label, body)) = conn
        .query_row(sql, [], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))
        })
        .optional()?
    else {
        return Ok(None);
    };
    let changes: Vec<Change> = serde_json::from_str(&body).map_err(StepError::Body)?;
    Ok(Some((seq, label, changes)))
}

/// Where undo and redo stand.
pub fn state(conn: &Connection, revision: u32) -> rusqlite::Result<History> {
    let undo_label: Option<String> = conn
        .query_row(
            "SELECT label FROM edits WHERE undone = 0 ORDER BY seq DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    let redo_label: Option<String> = conn
        .query_row(
            "SELECT label FROM edits WHERE undone = 1 ORDER BY seq ASC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    Ok(History {
        can_undo: undo_label.is_some(),
        can_redo: redo_label.is_some(),
        undo_label,
        redo_label,
        revision,
    })
}
