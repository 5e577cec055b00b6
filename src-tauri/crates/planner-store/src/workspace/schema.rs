//! The workspace file's identity and schema: how a file is recognised before anything is
//! written to it, and the migrations that bring an older file up to date.
//!
//! A workspace is an SQLite database whose header carries [`APPLICATION_ID`] and, as its
//! `user_version`, the schema version. Both are read from the first 100 bytes with plain file IO
//! before SQLite opens the file, so a file that is not a workspace, or one written by a newer
//! version, is refused without SQLite creating a journal beside it or touching a byte.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use planner_core::error::{ErrorCode, PlannerError};
use rusqlite::Transaction;

/// "CPLW" (Compute PLanner Workspace), in the header's application-id field.
pub const APPLICATION_ID: u32 = 0x4350_4C57;

/// The schema this build writes. Each migration below takes a file from version `i` to `i + 1`.
pub const SCHEMA_VERSION: u32 = 6;

/// The migrations, in order; `MIGRATIONS[i]` takes a file from version `i` to `i + 1`.
const MIGRATIONS: [&str; 6] = [
    r"
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
-- The engine's file header (title, currency, start, horizon, discount rate, price point, fx).
CREATE TABLE settings (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
) STRICT;
-- What the compare screen shows (selection, baseline, horizon); not part of undo.
CREATE TABLE view_state (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
) STRICT;
CREATE TABLE workloads (
    id       TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    body     TEXT NOT NULL
) STRICT;
CREATE TABLE scenarios (
    id       TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    name     TEXT NOT NULL,
    summary  TEXT NOT NULL,
    body     TEXT NOT NULL
) STRICT;
CREATE INDEX scenarios_by_position ON scenarios (position);
-- The catalog text the numbers are computed from, file by file, as it was when taken.
CREATE TABLE catalog_files (
    name TEXT PRIMARY KEY,
    body TEXT NOT NULL
) STRICT;
CREATE TABLE catalog_meta (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    version  TEXT NOT NULL,
    taken_ms INTEGER NOT NULL
) STRICT;
-- The edit journal: undo applies `changes` backwards, redo forwards.
CREATE TABLE edits (
    seq          INTEGER PRIMARY KEY,
    at_ms        INTEGER NOT NULL,
    label        TEXT NOT NULL,
    coalesce_key TEXT,
    changes      TEXT NOT NULL,
    undone       INTEGER NOT NULL DEFAULT 0
) STRICT;
",
    r"
-- The memo as its author writes it (decision, rationale, scenarios); edited through the journal.
CREATE TABLE memo_draft (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
) STRICT;
-- Every memo written or signed from this workspace, with its SHA-256: a record, never undone.
CREATE TABLE memos (
    seq  INTEGER PRIMARY KEY,
    body TEXT NOT NULL
) STRICT;
",
    r"
-- The compliance record: every checklist answer, sign-off and revocation, in order, each entry
-- chained to the one before by SHA-256 (planner_core::compliance::audit). The checklists are read from this
-- log alone, so a row changed behind the app's back both breaks the chain and is what verify
-- names. Facts, never undone: a later answer supersedes an earlier one.
CREATE TABLE checklist_log (
    seq       INTEGER PRIMARY KEY,
    at        TEXT NOT NULL,
    actor     TEXT NOT NULL,
    action    TEXT NOT NULL,
    subject   TEXT NOT NULL,
    payload   TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash      TEXT NOT NULL
) STRICT;
CREATE INDEX checklist_log_by_subject ON checklist_log (subject, seq);
-- Evidence files attached to answers, stored by content: the answer holds name, SHA-256, size.
CREATE TABLE evidence (
    sha256 TEXT PRIMARY KEY,
    size   INTEGER NOT NULL,
    bytes  BLOB NOT NULL
) STRICT;
-- The vendor scorecard (weights, vendors' measured figures); edited through the journal.
CREATE TABLE scorecard (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
) STRICT;
",
    r"
-- The last risk analysis (issue #16): its draws, seed, what it was run on (a digest of the plan
-- and the catalog snapshot, to say when it is stale) and its outcome. Not an undo step: it
-- changes no figure, and a rerun with the same seed reproduces it.
CREATE TABLE risk_run (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
) STRICT;
",
    r"
-- Where the catalog snapshot came from when it was applied from a signed pack (issue #18): the
-- publisher, version, key, and the manifest and signature as signed, so the signature can be
-- checked again. No row: the catalog shipped with the app. Written with the snapshot.
CREATE TABLE catalog_origin (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
) STRICT;
",
    r"
-- The locked baseline (issue #17): the compared set, its baseline and when it was locked. No
-- row: nothing is locked. Not an undo step; while it exists, changes that would move the locked
-- scenarios' figures are refused.
CREATE TABLE baseline_lock (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
) STRICT;
",
];

/// What the first 100 bytes say about a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub application_id: u32,
    pub user_version: u32,
}

fn be_u32(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    if let Some(s) = bytes.get(at..at + 4) {
        b.copy_from_slice(s);
    }
    u32::from_be_bytes(b)
}

/// Reads the SQLite header of `path` without opening it as a database.
pub fn read_header(path: &Path) -> Result<Header, PlannerError> {
    let shown = path.display();
    let mut file = File::open(path).map_err(|e| {
        let code = if e.kind() == std::io::ErrorKind::NotFound {
            ErrorCode::NotFound
        } else {
            ErrorCode::Io
        };
        PlannerError::new(code, format!("{shown}: cannot open the workspace: {e}"))
    })?;
    let mut bytes = Vec::with_capacity(100);
    file.by_ref()
        .take(100)
        .read_to_end(&mut bytes)
        .map_err(|e| PlannerError::new(ErrorCode::Io, format!("{shown}: cannot read the workspace: {e}")))?;
    if bytes.len() < 100 || !bytes.starts_with(b"SQLite format 3\0") {
        return Err(PlannerError::new(
            ErrorCode::WorkspaceInvalid,
            format!(
                "{shown} is not a Compute Planner workspace (it is not an SQLite database). Nothing was changed; choose a .cpw workspace file, or import a scenario JSON file instead."
            ),
        ));
    }
    Ok(Header {
        user_version: be_u32(&bytes, 60),
        application_id: be_u32(&bytes, 68),
    })
}

/// Refuses a header that is not a workspace this build can open.
pub fn check_header(path: &Path, h: Header) -> Result<(), PlannerError> {
    let shown = path.display();
    if h.application_id != APPLICATION_ID {
        return Err(PlannerError::new(
            ErrorCode::WorkspaceInvalid,
            format!(
                "{shown} is an SQLite database but not a Compute Planner workspace (application id {:#010x}). Nothing was changed; choose a .cpw workspace file.",
                h.application_id
            ),
        ));
    }
    if h.user_version > SCHEMA_VERSION {
        return Err(PlannerError::new(
            ErrorCode::WorkspaceNewer,
            format!(
                "{shown} was written by a newer version of Compute Planner (workspace schema {}; this version reads up to {SCHEMA_VERSION}). Nothing was changed; open it with the newer version, or update this app.",
                h.user_version
            ),
        ));
    }
    Ok(())
}

/// Brings a file at schema `from` up to [`SCHEMA_VERSION`], every step in the caller's
/// transaction, so a failed migration leaves the file as it was.
pub fn migrate(tx: &Transaction<'_>, from: u32) -> Result<(), rusqlite::Error> {
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(from as usize) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    tx.pragma_update(None, "application_id", i64::from(APPLICATION_ID))?;
    Ok(())
}
