//! The workspace file: one SQLite database per client or RFP, the source of truth for its
//! workloads, scenarios, the compare view and the catalog snapshot its numbers come from.
//!
//! Design:
//! - **Every edit is saved as it is made**, in one transaction with its journal entry, in WAL
//!   mode with `synchronous = FULL`: a crash (or `kill -9`) loses at most the edit in flight,
//!   and the file always opens (tests/tests/workspace_crash.rs kills a writer 100 times).
//! - **Undo and redo are the journal** (`edits`): each entry holds every item before and after,
//!   so undo writes the befores and redo the afters; a new edit drops the undone entries. The
//!   journal lives in the file, so undo survives closing the app. It keeps the last
//!   [`JOURNAL_LIMIT`] steps.
//! - **The catalog is a snapshot of its TOML text**, loaded by the same loader as the shipped
//!   catalog, so a workspace computes the same numbers after the shipped catalog changes. Taking
//!   the newer catalog is a deliberate, undoable edit.
//! - **Opening never writes before the file is known**: the header (application id, schema
//!   version) is read with plain file IO first; a file that is not a workspace or is newer than
//!   this build is refused untouched. Older files are migrated, each step in a transaction.
//! - **One writer**: the file is held in SQLite's exclusive locking mode, so a second window or
//!   program that opens it is told it is busy instead of interleaving edits.
//! - **Read-only when it must be**: a file that cannot be written (it is read-only, or its folder
//!   is, where SQLite keeps its log) opens read-only and says why; it can be read, exported,
//!   verified and saved elsewhere with Save As, and every change is refused with that reason
//!   before anything is attempted.

mod checklists;
mod history;
mod lock;
mod packs;
pub mod schema;
mod signoff;
mod types;
mod vendors;

use std::path::{Path, PathBuf};

use planner_core::catalog::{self, Catalog};
use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::input::ids::{check_id, free_id};
use planner_core::engine::input::scenario_file::{ScenarioFile, ScenarioSpec, WorkloadSpec};
use planner_core::engine::workspace::content::{self as core_ws, ViewState, WorkspaceSettings};
use planner_core::error::{ErrorCode, ErrorDetail, PlannerError};
use planner_core::memo::{MemoDraft, MemoRecord};
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

pub use checklists::{ChecklistRecord, EVIDENCE_LIMIT, EvidenceFile, LogCheck, LogProblem, log_time};
pub use history::JOURNAL_LIMIT;
pub use packs::{CatalogOrigin, origin_of};
pub use schema::SCHEMA_VERSION;
pub use signoff::verify_signoff_signature;
pub use types::{Applied, CatalogStatus, Changed, History, Imported, QuotesImported, ScenarioSummary, WorkspaceInfo};

use history::{Change, Positioned, Snapshot, Table};

/// The file extension offered for workspaces.
pub const EXTENSION: &str = "cpw";

/// The calendar month after the one of `now_ms` (UTC).
pub fn next_month_after(now_ms: i64) -> planner_core::calendar::YearMonth {
    let today = UtcTime::from_ms(now_ms);
    let year = u16::try_from(today.year).unwrap_or(2027);
    planner_core::calendar::YearMonth::new(year, today.month)
        .map_or(planner_core::calendar::YearMonth { year: 2027, month: 1 }, |m| {
            m.plus(1)
        })
}

/// A moment in UTC, split into its calendar parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtcTime {
    pub year: i64,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
}

impl UtcTime {
    /// The calendar parts of a Unix time in milliseconds.
    pub fn from_ms(ms: i64) -> UtcTime {
        let secs = ms.div_euclid(1000);
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let (year, month, day) = planner_core::calendar::civil_from_days(days);
        // Every part is in range by construction (rem < 86,400).
        let part = |v: i64| u8::try_from(v).unwrap_or(0);
        UtcTime {
            year,
            month,
            day,
            hour: part(rem / 3600),
            minute: part((rem % 3600) / 60),
            second: part(rem % 60),
        }
    }

    /// `YYYY-MM-DD`.
    pub fn date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// `YYYY-MM-DD HH:MM:SS`.
    pub fn seconds(&self) -> String {
        format!("{} {:02}:{:02}:{:02}", self.date(), self.hour, self.minute, self.second)
    }
}

/// `YYYY-MM-DD HH:MM` (UTC) of a Unix time in milliseconds.
pub fn format_utc(ms: i64) -> String {
    let t = UtcTime::from_ms(ms);
    format!("{} {:02}:{:02}", t.date(), t.hour, t.minute)
}

pub(crate) fn db_error(path: &Path, e: &rusqlite::Error) -> PlannerError {
    db_error_about(path, e, "a row")
}

/// What to do about a damaged workspace file, the end of every such message.
const RESTORE: &str = "Restore it from a backup or open a copy saved with Save As.";

/// A database error as a sentence about the workspace file (what is wrong with it and what to
/// do), with SQLite's own words kept in `details`. `row` names what was being read ("a scenario
/// row") for a value of the wrong type.
pub(crate) fn db_error_about(path: &Path, e: &rusqlite::Error, row: &str) -> PlannerError {
    use rusqlite::ErrorCode as C;
    let shown = path.display();
    let technical = e.to_string();
    let code = match e {
        rusqlite::Error::SqliteFailure(f, _) => Some(f.code),
        _ => None,
    };
    // "no such table: scenarios" arrives as a prepare failure (or an input error), by its text.
    let missing = |what: &str| {
        technical
            .split_once(&format!("no such {what}: "))
            .map(|(_, rest)| rest.split_whitespace().next().unwrap_or_default().to_owned())
    };
    let (code, message) = if code == Some(C::DatabaseBusy) || code == Some(C::DatabaseLocked) {
        (
            ErrorCode::WorkspaceBusy,
            format!("{shown} is open in another window or program. Close it there, then open it here."),
        )
    } else if matches!(code, Some(C::NotADatabase | C::DatabaseCorrupt)) {
        (
            ErrorCode::WorkspaceInvalid,
            format!(
                "{shown} is damaged: it is no longer a readable database. {RESTORE} Nothing more was written to this file."
            ),
        )
    } else if let Some(table) = missing("table") {
        (
            ErrorCode::WorkspaceInvalid,
            format!(
                "{shown} is damaged: its table `{}` is missing (no such table). {RESTORE}",
                planner_core::problem::clip(&table)
            ),
        )
    } else if let Some(column) = missing("column") {
        (
            ErrorCode::WorkspaceInvalid,
            format!(
                "{shown} is damaged: a table lacks the column `{}` (no such column). {RESTORE}",
                planner_core::problem::clip(&column)
            ),
        )
    } else {
        match e {
            rusqlite::Error::QueryReturnedNoRows => (
                ErrorCode::WorkspaceInvalid,
                format!(
                    "{shown} is damaged: an item the workspace expects is missing (its settings or catalog snapshot record). {RESTORE}"
                ),
            ),
            rusqlite::Error::InvalidColumnType(_, column, _) | rusqlite::Error::InvalidColumnName(column) => (
                ErrorCode::WorkspaceInvalid,
                format!(
                    "{shown} is damaged: {row} holds data of the wrong type (in column `{}`). {RESTORE}",
                    planner_core::problem::clip(column)
                ),
            ),
            rusqlite::Error::FromSqlConversionFailure(..)
            | rusqlite::Error::IntegralValueOutOfRange(..)
            | rusqlite::Error::InvalidColumnIndex(_)
            | rusqlite::Error::Utf8Error(..) => (
                ErrorCode::WorkspaceInvalid,
                format!("{shown} is damaged: {row} holds data of the wrong type. {RESTORE}"),
            ),
            _ => match code {
                Some(C::DiskFull) => (
                    ErrorCode::Io,
                    format!("{shown} could not be written: the disk is full. Free some space and try again."),
                ),
                Some(C::ReadOnly | C::PermissionDenied | C::CannotOpen) => (
                    ErrorCode::Io,
                    format!(
                        "{shown} could not be opened for writing. Check that the folder exists and that you may write to it and to the file."
                    ),
                ),
                Some(C::ConstraintViolation) => (
                    ErrorCode::WorkspaceInvalid,
                    format!(
                        "{shown} refused a change that breaks one of its rules; the file may have been changed outside Compute Planner. {RESTORE}"
                    ),
                ),
                _ => (
                    ErrorCode::Io,
                    format!(
                        "{shown} could not be read or written (the database reported a failure). Check the disk, then try again; if it persists, {}",
                        RESTORE.to_lowercase()
                    ),
                ),
            },
        }
    };
    PlannerError {
        code,
        message,
        details: vec![ErrorDetail {
            file: Some(shown.to_string()),
            line: None,
            column: None,
            field: None,
            kind: Some("sqlite".to_owned()),
            message: planner_core::problem::clip_message(&technical).into_owned(),
        }],
    }
}

fn bad_body(path: &Path, what: &str, e: &serde_json::Error) -> PlannerError {
    PlannerError::new(
        ErrorCode::WorkspaceInvalid,
        format!(
            "{}: {what} cannot be read ({e}); the file was changed outside Compute Planner. Open a backup copy.",
            path.display()
        ),
    )
}

fn invalid(field: &str, message: &str) -> PlannerError {
    PlannerError::invalid(field, message)
}

pub use planner_core::catalog::pack::{compare_versions, version_of as catalog_version};

/// Strips the folder from catalog file names, so the snapshot reads the same on any machine.
fn snapshot_files(files: &[(String, String)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(name, text)| {
            let base = Path::new(name)
                .file_name()
                .map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned());
            (base, text.clone())
        })
        .collect()
}

/// An open workspace file.
#[derive(Debug)]
pub struct Workspace {
    conn: Connection,
    path: PathBuf,
    catalog: Catalog,
    snapshot_version: String,
    snapshot_taken_ms: i64,
    settings: WorkspaceSettings,
    workloads: Vec<WorkloadSpec>,
    revision: u32,
    /// Why the file is open read-only (`None`: it can be written).
    read_only: Option<String>,
    /// The compare view chosen while read-only: kept in memory, since the file cannot take it.
    view_in_memory: Option<ViewState>,
    /// The last risk analysis of a workspace open read-only (kept until it is closed).
    risk_in_memory: Option<String>,
    /// The private copy a read-only file with an unmerged write log is read from (declared
    /// after `conn`, so the connection closes before the copy is removed).
    scratch: Option<tempfile::TempDir>,
}

/// Why `path` (an existing workspace file) cannot be written here, if it cannot: the file is
/// read-only, or its folder is (SQLite writes its log and journal beside the file), or the disk
/// is mounted read-only. Checked by trying, so permissions, access lists and read-only mounts
/// all count; the folder check makes and removes a temporary file.
pub fn write_access(path: &Path) -> Option<String> {
    use std::io::ErrorKind;
    let refused = |e: &std::io::Error| matches!(e.kind(), ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem);
    let mount = |e: &std::io::Error| e.kind() == ErrorKind::ReadOnlyFilesystem;
    if let Err(e) = std::fs::OpenOptions::new().read(true).write(true).open(path) {
        if mount(&e) {
            return Some("the disk it is on is mounted read-only".to_owned());
        }
        if refused(&e) {
            return Some("the file is read-only for you".to_owned());
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match tempfile::Builder::new().prefix(".cpw-write-check.").tempfile_in(&dir) {
        Err(e) if mount(&e) => Some("the disk it is on is mounted read-only".to_owned()),
        Err(e) if refused(&e) => Some(format!(
            "its folder {} is read-only for you, and the workspace keeps its write log beside the file",
            dir.display()
        )),
        _ => None,
    }
}

/// `path` as an SQLite URI filename (`file:` and the absolute path, with `%`, `?` and `#`
/// escaped), for opening with URI parameters.
fn sqlite_uri(path: &Path) -> String {
    let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let text = full.to_string_lossy().replace('\\', "/");
    let mut uri = String::from("file:");
    if !text.starts_with('/') {
        // A Windows drive path: file:///C:/...
        uri.push_str("///");
    }
    for c in text.chars() {
        match c {
            '%' => uri.push_str("%25"),
            '?' => uri.push_str("%3f"),
            '#' => uri.push_str("%23"),
            _ => uri.push(c),
        }
    }
    uri
}

impl Workspace {
    fn connect(path: &Path, create: bool) -> Result<Connection, PlannerError> {
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if create {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let conn = Connection::open_with_flags(path, flags).map_err(|e| db_error(path, &e))?;
        // Exclusive locking before the first read: no shared-memory file, and one writer.
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")
            .map_err(|e| db_error(path, &e))?;
        Ok(conn)
    }

    /// A read-only connection to a file that cannot be written, opened as immutable: SQLite
    /// reads it without creating anything beside it. A file with a write-ahead log beside it
    /// (edits a crash left unmerged, which SQLite cannot read from a folder it may not write to)
    /// is read from a private copy of the two in a temporary folder, so those edits are shown;
    /// the copy lives as long as the workspace stays open and the original is never written.
    fn connect_read_only(path: &Path) -> Result<(Connection, Option<tempfile::TempDir>), PlannerError> {
        let wal = PathBuf::from(format!("{}-wal", path.display()));
        let pending_log = std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0);
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
        if !pending_log {
            let uri = format!("{}?immutable=1", sqlite_uri(path));
            let conn = Connection::open_with_flags(&uri, flags).map_err(|e| db_error(path, &e))?;
            return Ok((conn, None));
        }
        let io = |what: &str, e: std::io::Error| {
            PlannerError::new(
                ErrorCode::Io,
                format!(
                    "{} is read-only and has edits in its write log that can only be read from a copy, but {what} ({e}). Free some space in the temporary folder, or copy the file and its -wal file to a folder you can write to and open the copy.",
                    path.display()
                ),
            )
        };
        let scratch = tempfile::Builder::new()
            .prefix("compute-planner-read-only.")
            .tempdir()
            .map_err(|e| io("a temporary folder could not be made", e))?;
        let copy = scratch.path().join("workspace.cpw");
        std::fs::copy(path, &copy).map_err(|e| io("the file could not be copied", e))?;
        std::fs::copy(&wal, scratch.path().join("workspace.cpw-wal"))
            .map_err(|e| io("its write log could not be copied", e))?;
        let conn = Self::connect(&copy, false).map_err(|mut err| {
            err.message = err
                .message
                .replace(&copy.display().to_string(), &path.display().to_string());
            err
        })?;
        Ok((conn, Some(scratch)))
    }

    fn configure(conn: &Connection, path: &Path) -> Result<(), PlannerError> {
        conn.pragma_update(None, "journal_mode", "WAL")
            .and_then(|()| conn.pragma_update(None, "synchronous", "FULL"))
            .map_err(|e| db_error(path, &e))
    }

    /// Creates a workspace at `path` (which must not exist) with `settings` and a snapshot of
    /// the catalog `files` (name, TOML text), which must load without errors, taken at `at_ms`
    /// (Unix ms, the host's clock).
    pub fn create(
        path: &Path,
        settings: &WorkspaceSettings,
        catalog_files: &[(String, String)],
        at_ms: i64,
    ) -> Result<Workspace, PlannerError> {
        Self::create_with(path, settings, catalog_files, at_ms, |_| Ok(())).map(|(ws, ())| ws)
    }

    /// Creates a workspace at `path` as [`Workspace::create`] does, and lets `fill` add to it
    /// (import a scenario file, set the view) before it appears. The file is built whole under a
    /// temporary name in the same folder, closed, and only then renamed to `path`, refusing to
    /// replace a file that appeared there meanwhile: when anything fails (or the process is
    /// killed) `path` does not exist, so trying again works (issue #14).
    pub fn create_with<T>(
        path: &Path,
        settings: &WorkspaceSettings,
        catalog_files: &[(String, String)],
        now_ms: i64,
        fill: impl FnOnce(&mut Workspace) -> Result<T, PlannerError>,
    ) -> Result<(Workspace, T), PlannerError> {
        settings.check()?;
        if path.exists() {
            return Err(PlannerError::new(
                ErrorCode::Io,
                format!(
                    "{} already exists; choose another name, or open it instead.",
                    path.display()
                ),
            ));
        }
        let files = snapshot_files(catalog_files);
        let catalog = catalog::load(&files).map_err(PlannerError::from)?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path
            .file_name()
            .map_or_else(|| "workspace".to_owned(), |n| n.to_string_lossy().into_owned());
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".partial")
            .tempfile_in(&dir)
            .map_err(|e| {
                PlannerError::new(
                    ErrorCode::Io,
                    format!(
                        "{} cannot be created: a file cannot be made in {} ({e}). Check that the folder exists and that you may write to it.",
                        path.display(),
                        dir.display()
                    ),
                )
            })?
            .into_temp_path();
        let built = Self::build(&temp, settings, &files, &catalog, now_ms, fill);
        // SQLite's side files of the temporary name, if a failure left any.
        let side_files = || {
            for ext in ["-wal", "-journal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{ext}", temp.display()));
            }
        };
        let value = match built {
            Ok(v) => v,
            Err(mut err) => {
                side_files();
                // Messages name the file the user asked for, not the temporary one.
                let (from, to) = (temp.display().to_string(), path.display().to_string());
                err.message = err.message.replace(&from, &to);
                for d in &mut err.details {
                    if let Some(f) = &mut d.file {
                        *f = f.replace(&from, &to);
                    }
                }
                return Err(err);
            }
        };
        side_files();
        temp.persist_noclobber(path).map_err(|e| {
            PlannerError::new(
                ErrorCode::Io,
                format!(
                    "{} cannot be created ({}); nothing was replaced. Choose another name, or open the file that is there.",
                    path.display(),
                    e.error
                ),
            )
        })?;
        // The rename is durable once the folder is written (best effort: not every system
        // lets a folder be opened for that).
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        let ws = Self::open(path)?;
        Ok((ws, value))
    }

    /// Builds the whole workspace at `temp`, runs `fill` on it and closes it, leaving one
    /// self-contained file (no write-ahead log beside it) ready to be renamed.
    fn build<T>(
        temp: &Path,
        settings: &WorkspaceSettings,
        files: &[(String, String)],
        catalog: &Catalog,
        now_ms: i64,
        fill: impl FnOnce(&mut Workspace) -> Result<T, PlannerError>,
    ) -> Result<T, PlannerError> {
        let mut ws = Self::create_inner(temp, settings, files, catalog, now_ms)?;
        let value = fill(&mut ws)?;
        let conn = ws.conn;
        // Leaving write-ahead logging checkpoints the log into the file and removes it; `open`
        // turns it on again.
        conn.pragma_update(None, "journal_mode", "DELETE")
            .map_err(|e| db_error(temp, &e))?;
        conn.close().map_err(|(_, e)| db_error(temp, &e))?;
        Ok(value)
    }

    fn create_inner(
        path: &Path,
        settings: &WorkspaceSettings,
        files: &[(String, String)],
        catalog: &Catalog,
        taken: i64,
    ) -> Result<Workspace, PlannerError> {
        let mut conn = Self::connect(path, true)?;
        let e = |e: rusqlite::Error| db_error(path, &e);
        // The first transaction runs with a rollback journal, so the header (application id,
        // schema version) lands in the main file itself, where `open` reads it before SQLite
        // does; only then does the file switch to write-ahead logging.
        let version = catalog_version(catalog);
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(e)?;
        schema::migrate(&tx, 0).map_err(e)?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('created_by', ?1), ('created_ms', ?2)",
            params![
                concat!("Compute Planner ", env!("CARGO_PKG_VERSION")),
                taken.to_string()
            ],
        )
        .map_err(e)?;
        let body = serde_json::to_string(settings).map_err(|x| bad_body(path, "the settings", &x))?;
        tx.execute("INSERT INTO settings (id, body) VALUES (1, ?1)", [body])
            .map_err(e)?;
        let view = serde_json::to_string(&ViewState::default()).map_err(|x| bad_body(path, "the view", &x))?;
        tx.execute("INSERT INTO view_state (id, body) VALUES (1, ?1)", [view])
            .map_err(e)?;
        history::write_snapshot(
            &tx,
            &Snapshot {
                version,
                taken_ms: taken,
                files: files.to_vec(),
                origin: None,
            },
        )
        .map_err(e)?;
        tx.commit().map_err(e)?;
        Self::configure(&conn, path)?;
        Self::load(conn, path)
    }

    /// Opens an existing workspace, migrating an older one. A file that is not a workspace or
    /// is newer than this build is refused and left untouched.
    pub fn open(path: &Path) -> Result<Workspace, PlannerError> {
        Self::open_as(path, None)
    }

    /// Opens an existing workspace read-only whether or not it could be written: nothing is
    /// written to it or beside it, and every change is refused (see [`Workspace::check_writable`]).
    pub fn open_read_only(path: &Path) -> Result<Workspace, PlannerError> {
        Self::open_as(path, Some("it was opened read-only on request".to_owned()))
    }

    fn open_as(path: &Path, read_only: Option<String>) -> Result<Workspace, PlannerError> {
        let header = schema::read_header(path)?;
        // A header of zeros with a write-ahead log beside it may be a file whose first
        // transaction is still in the log: let SQLite read it (checked again below).
        let wal = PathBuf::from(format!("{}-wal", path.display()));
        let pending = header.application_id == 0 && header.user_version == 0 && wal.is_file();
        if !pending {
            schema::check_header(path, header)?;
        }
        let read_only = read_only.or_else(|| write_access(path));
        let (mut conn, scratch) = match &read_only {
            None => (Self::connect(path, false)?, None),
            Some(_) => Self::connect_read_only(path)?,
        };
        let e = |e: rusqlite::Error| db_error(path, &e);
        // The header on disk can lag a write-ahead log; ask SQLite before writing anything.
        let app: i64 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(e)?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(e)?;
        schema::check_header(
            path,
            schema::Header {
                application_id: u32::try_from(app).unwrap_or(0),
                user_version: u32::try_from(version).unwrap_or(u32::MAX),
            },
        )?;
        let from = u32::try_from(version).unwrap_or(0);
        if let Some(why) = read_only {
            if from < schema::SCHEMA_VERSION {
                return Err(PlannerError::new(
                    ErrorCode::WorkspaceReadOnly,
                    format!(
                        "{} was written by an older version of Compute Planner and must be upgraded to open, which writes to it; but {why}. Nothing was changed. Copy the file to a folder you can write to and open the copy.",
                        path.display()
                    ),
                ));
            }
            let mut ws = Self::load(conn, path)?;
            ws.read_only = Some(why);
            ws.scratch = scratch;
            return Ok(ws);
        }
        Self::configure(&conn, path)?;
        if from < schema::SCHEMA_VERSION {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(e)?;
            schema::migrate(&tx, from).map_err(e)?;
            tx.commit().map_err(e)?;
            // Move the new header into the main file, where the next open reads it first.
            conn.pragma_update(None, "wal_checkpoint", "TRUNCATE").map_err(e)?;
        }
        Self::load(conn, path)
    }

    fn load(conn: Connection, path: &Path) -> Result<Workspace, PlannerError> {
        let e = |e: rusqlite::Error| db_error(path, &e);
        let settings_body: String = conn
            .query_row("SELECT body FROM settings WHERE id = 1", [], |r| r.get(0))
            .map_err(|x| db_error_about(path, &x, "the settings row"))?;
        let settings: WorkspaceSettings =
            serde_json::from_str(&settings_body).map_err(|x| bad_body(path, "the settings", &x))?;
        let workloads = read_list(&conn, path, WORKLOADS_SQL, "workload")?;
        let snapshot = history::read_snapshot(&conn).map_err(e)?;
        let catalog = catalog::load(&snapshot.files).map_err(|err| {
            let mut p = PlannerError::from(err);
            p.message = format!(
                "{}: the workspace's catalog snapshot does not load. {}",
                path.display(),
                p.message
            );
            p
        })?;
        let revision = conn
            .query_row("SELECT COALESCE(MAX(seq), 0) FROM edits", [], |r| r.get::<_, i64>(0))
            .map_err(e)?;
        Ok(Workspace {
            read_only: None,
            view_in_memory: None,
            risk_in_memory: None,
            scratch: None,
            conn,
            path: path.to_path_buf(),
            catalog,
            snapshot_version: snapshot.version,
            snapshot_taken_ms: snapshot.taken_ms,
            settings,
            workloads,
            revision: u32::try_from(revision).unwrap_or(0),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why the workspace is open read-only; `None` when it can be changed.
    pub fn read_only(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// Refuses `action` ("change it", "make a memo from it") on a workspace open read-only,
    /// saying why and what to do; nothing has been attempted when this fails.
    pub fn check_writable(&self, action: &str) -> Result<(), PlannerError> {
        match &self.read_only {
            None => Ok(()),
            Some(why) => Err(PlannerError::new(
                ErrorCode::WorkspaceReadOnly,
                format!(
                    "{} is open read-only ({why}), so Compute Planner cannot {action}. Nothing was changed. Use Save As to keep an editable copy in a folder you can write to, or make the file and its folder writable and open it again.",
                    self.path.display()
                ),
            )),
        }
    }

    /// The catalog the workspace computes with (its snapshot).
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn settings(&self) -> &WorkspaceSettings {
        &self.settings
    }

    pub fn workloads(&self) -> &[WorkloadSpec] {
        &self.workloads
    }

    fn err(&self, e: &rusqlite::Error) -> PlannerError {
        db_error(&self.path, e)
    }

    /// Every scenario's summary, in list order.
    pub fn scenario_summaries(&self) -> Result<Vec<ScenarioSummary>, PlannerError> {
        read_list(
            &self.conn,
            &self.path,
            "SELECT id, summary FROM scenarios ORDER BY position, id",
            "scenario",
        )
    }

    /// One scenario, whole.
    pub fn scenario(&self, id: &str) -> Result<ScenarioSpec, PlannerError> {
        history::read_scenario(&self.conn, id)
            .map_err(|e| db_error_about(&self.path, &e, "a scenario row"))?
            .map(|p| p.item)
            .ok_or_else(|| {
                PlannerError::new(
                    ErrorCode::NotFound,
                    format!("there is no scenario `{id}` in {}", self.path.display()),
                )
            })
    }

    /// One scenario, whole, or `None` when there is no scenario `id`.
    pub fn find_scenario(&self, id: &str) -> Result<Option<ScenarioSpec>, PlannerError> {
        Ok(history::read_scenario(&self.conn, id)
            .map_err(|e| db_error_about(&self.path, &e, "a scenario row"))?
            .map(|p| p.item))
    }

    /// Every scenario, whole, in list order.
    pub fn all_scenarios(&self) -> Result<Vec<ScenarioSpec>, PlannerError> {
        read_list(
            &self.conn,
            &self.path,
            "SELECT id, body FROM scenarios ORDER BY position, id",
            "scenario",
        )
    }

    /// The compare view as saved, cleaned of scenarios that no longer exist; while the baseline
    /// is locked, with every locked scenario compared and the locked baseline pinned, whatever
    /// was saved.
    pub fn view(&self) -> Result<ViewState, PlannerError> {
        let view = match &self.view_in_memory {
            Some(view) => view.clone(),
            None => {
                let body: Option<String> = self
                    .conn
                    .query_row("SELECT body FROM view_state WHERE id = 1", [], |r| r.get(0))
                    .optional()
                    .map_err(|e| self.err(&e))?;
                // A view that cannot be read is only a view: start from the default rather than refuse.
                body.and_then(|b| serde_json::from_str(&b).ok()).unwrap_or_default()
            }
        };
        let view = self.locked_view(view)?;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT 1 FROM scenarios WHERE id = ?1")
            .map_err(|e| self.err(&e))?;
        Ok(view.cleaned(|id| stmt.exists([id]).unwrap_or(false)))
    }

    /// Saves the compare view (not an undo step: choosing what to look at changes no figure).
    /// A workspace open read-only keeps it in memory until it is closed. While the baseline is
    /// locked, a view that drops a locked scenario or takes another baseline is refused.
    pub fn set_view(&mut self, view: &ViewState) -> Result<ViewState, PlannerError> {
        self.check_view_lock(view)?;
        if self.read_only.is_some() {
            self.view_in_memory = Some(view.clone());
            return self.view();
        }
        let body = serde_json::to_string(view).map_err(|x| bad_body(&self.path, "the view", &x))?;
        self.conn
            .execute(
                "INSERT INTO view_state (id, body) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET body = excluded.body",
                [body],
            )
            .map_err(|e| self.err(&e))?;
        self.view()
    }

    /// The last risk analysis as kept (JSON, as `planner_app::compare` writes it); `None` before
    /// the first.
    pub fn risk_run(&self) -> Result<Option<String>, PlannerError> {
        if let Some(body) = &self.risk_in_memory {
            return Ok(Some(body.clone()));
        }
        self.conn
            .query_row("SELECT body FROM risk_run WHERE id = 1", [], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(&e))
    }

    /// Keeps `body` as the last risk analysis (not an undo step: it changes no figure). A
    /// workspace open read-only keeps it in memory until it is closed.
    pub fn set_risk_run(&mut self, body: &str) -> Result<(), PlannerError> {
        if self.read_only.is_some() {
            self.risk_in_memory = Some(body.to_owned());
            return Ok(());
        }
        self.conn
            .execute(
                "INSERT INTO risk_run (id, body) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET body = excluded.body",
                [body],
            )
            .map_err(|e| self.err(&e))?;
        Ok(())
    }

    /// The version of the catalog snapshot the workspace computes with.
    pub fn snapshot_version(&self) -> &str {
        &self.snapshot_version
    }

    /// The snapshot's status against the catalog the app ships (`shipped`, when it loads).
    pub fn catalog_status(&self, shipped: Option<&Catalog>) -> CatalogStatus {
        let shipped_version = shipped.map(catalog_version);
        let newer_available = shipped_version
            .as_deref()
            .is_some_and(|v| compare_versions(v, &self.snapshot_version).is_gt());
        CatalogStatus {
            version: self.snapshot_version.clone(),
            taken: format_utc(self.snapshot_taken_ms),
            shipped_version,
            newer_available,
        }
    }

    pub fn history(&self) -> Result<History, PlannerError> {
        history::state(&self.conn, self.revision).map_err(|e| self.err(&e))
    }

    /// Everything the UI lists.
    pub fn info(&self, shipped: Option<&Catalog>) -> Result<WorkspaceInfo, PlannerError> {
        Ok(WorkspaceInfo {
            path: self.path.display().to_string(),
            settings: self.settings.clone(),
            workloads: self.workloads.clone(),
            scenarios: self.scenario_summaries()?,
            view: self.view()?,
            history: self.history()?,
            catalog: self.catalog_status(shipped),
            read_only: self.read_only.clone(),
            lock: self.lock()?,
        })
    }

    /// The item `id` of `table` as it is, and `item` put in its place (or at the end).
    fn put<T: Clone + for<'de> serde::Deserialize<'de>>(
        &self,
        table: Table,
        id: &str,
        item: &T,
    ) -> Result<(Option<Positioned<T>>, Positioned<T>), PlannerError> {
        let before: Option<Positioned<T>> = history::read_item(&self.conn, table, id).map_err(|e| self.err(&e))?;
        let position = match &before {
            Some(b) => b.position,
            None => history::next_position(&self.conn, table).map_err(|e| self.err(&e))?,
        };
        Ok((
            before,
            Positioned {
                position,
                item: item.clone(),
            },
        ))
    }

    /// The item `id` of `table`, which must exist.
    fn existing<T: for<'de> serde::Deserialize<'de>>(
        &self,
        table: Table,
        id: &str,
    ) -> Result<Positioned<T>, PlannerError> {
        history::read_item(&self.conn, table, id)
            .map_err(|e| self.err(&e))?
            .ok_or_else(|| PlannerError::new(ErrorCode::NotFound, format!("there is no {} `{id}`", table.noun())))
    }

    /// Turns an edit into the changes it makes, checking ids and that what it names exists.
    fn changes_for(&self, edit: &Edit) -> Result<Vec<Change>, PlannerError> {
        Ok(match edit {
            Edit::Settings { settings } => {
                settings.check()?;
                vec![Change::Settings {
                    before: self.settings.clone(),
                    after: settings.clone(),
                }]
            }
            Edit::PutWorkload { workload } => {
                check_id("workload.id", &workload.id)?;
                let (before, after) = self.put(Table::Workloads, &workload.id, workload)?;
                vec![Change::Workload {
                    id: workload.id.clone(),
                    before,
                    after: Some(after),
                }]
            }
            Edit::DeleteWorkload { id } => vec![Change::Workload {
                id: id.clone(),
                before: Some(self.existing(Table::Workloads, id)?),
                after: None,
            }],
            Edit::PutScenario { scenario } => {
                check_id("scenario.id", &scenario.id)?;
                if scenario.name.trim().is_empty() {
                    return Err(invalid("scenario.name", "give the scenario a name"));
                }
                let (before, after) = self.put(Table::Scenarios, &scenario.id, scenario)?;
                vec![Change::Scenario {
                    id: scenario.id.clone(),
                    before,
                    after: Some(after),
                }]
            }
            Edit::Memo { memo } => vec![Change::Memo {
                before: self.memo_draft()?,
                after: memo.clone(),
            }],
            Edit::Scorecard { scorecard } => vec![Change::Scorecard {
                before: self.scorecard()?,
                after: scorecard.clone(),
            }],
            Edit::DeleteScenario { id } => vec![Change::Scenario {
                id: id.clone(),
                before: Some(self.existing(Table::Scenarios, id)?),
                after: None,
            }],
        })
    }

    /// Applies and saves an edit as one undo step, stamped `at_ms` (Unix ms, the host's clock:
    /// the store reads no clock of its own).
    pub fn apply(&mut self, request: &EditRequest, at_ms: i64) -> Result<Applied, PlannerError> {
        let changes = self.changes_for(&request.edit)?;
        self.commit(&request.label, request.coalesce.as_deref(), changes, at_ms)
    }

    fn commit(
        &mut self,
        label: &str,
        coalesce: Option<&str>,
        changes: Vec<Change>,
        at_ms: i64,
    ) -> Result<Applied, PlannerError> {
        self.check_writable("change it")?;
        self.check_lock(&changes, lock::Attempt::Edit)?;
        let path = self.path.clone();
        let e = |e: rusqlite::Error| db_error(&path, &e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(e)?;
        for c in &changes {
            history::write_after(&tx, c).map_err(e)?;
        }
        history::record(&tx, label, coalesce, &changes, at_ms).map_err(e)?;
        tx.commit().map_err(e)?;
        self.revision = self.revision.wrapping_add(1);
        self.after_write(&changes, false)?;
        Ok(Applied {
            history: self.history()?,
            label: label.to_owned(),
            changed: self.changed(&changes, false),
        })
    }

    /// Takes back the last edit; `None` when there is nothing to undo.
    pub fn undo(&mut self) -> Result<Option<Applied>, PlannerError> {
        self.step(true)
    }

    /// Applies again the last edit undone; `None` when there is nothing to redo.
    pub fn redo(&mut self) -> Result<Option<Applied>, PlannerError> {
        self.step(false)
    }

    fn step(&mut self, undo: bool) -> Result<Option<Applied>, PlannerError> {
        self.check_writable(if undo { "undo an edit" } else { "redo an edit" })?;
        let path = self.path.clone();
        let journal = |err| match err {
            history::StepError::Db(x) => db_error(&path, &x),
            history::StepError::Body(x) => bad_body(&path, "the undo journal", &x),
        };
        // The lock is checked on the step as the journal holds it, before anything is written.
        if let Some((_, label, changes)) = history::pending(&self.conn, undo).map_err(journal)? {
            let attempt = if undo {
                lock::Attempt::Undo(&label)
            } else {
                lock::Attempt::Redo(&label)
            };
            self.check_lock(&changes, attempt)?;
        }
        let e = |e: rusqlite::Error| db_error(&path, &e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(e)?;
        let Some((label, changes)) = history::step(&tx, undo).map_err(journal)? else {
            return Ok(None);
        };
        tx.commit().map_err(e)?;
        self.revision = self.revision.wrapping_add(1);
        self.after_write(&changes, undo)?;
        Ok(Some(Applied {
            history: self.history()?,
            label,
            changed: self.changed(&changes, undo),
        }))
    }

    /// Refreshes the in-memory copies after changes were written (`backwards`: their befores).
    fn after_write(&mut self, changes: &[Change], backwards: bool) -> Result<(), PlannerError> {
        // The workload list is read back once, however many workloads the step touched (an
        // import adds them all in one step).
        if changes.iter().any(|c| matches!(c, Change::Workload { .. })) {
            self.workloads = read_list(&self.conn, &self.path, WORKLOADS_SQL, "workload")?;
        }
        for c in changes {
            match c {
                Change::Settings { before, after } => {
                    self.settings = if backwards { before } else { after }.clone();
                }
                Change::Catalog { before, after } => {
                    let s = if backwards { before } else { after };
                    self.catalog = catalog::load(&s.files).map_err(PlannerError::from)?;
                    self.snapshot_version = s.version.clone();
                    self.snapshot_taken_ms = s.taken_ms;
                }
                Change::Workload { .. } | Change::Scenario { .. } | Change::Memo { .. } | Change::Scorecard { .. } => {}
            }
        }
        Ok(())
    }

    fn changed(&self, changes: &[Change], backwards: bool) -> Vec<Changed> {
        changes
            .iter()
            .map(|c| match c {
                Change::Settings { before, after } => Changed::Settings {
                    settings: if backwards { before } else { after }.clone(),
                },
                Change::Workload { id, before, after } => Changed::Workload {
                    id: id.clone(),
                    workload: if backwards { before } else { after }.as_ref().map(|p| p.item.clone()),
                },
                Change::Scenario { id, before, after } => Changed::Scenario {
                    id: id.clone(),
                    summary: if backwards { before } else { after }
                        .as_ref()
                        .map(|p| ScenarioSummary::of(&p.item)),
                },
                Change::Catalog { .. } => Changed::Catalog {
                    status: self.catalog_status(None),
                },
                Change::Memo { before, after } => Changed::Memo {
                    memo: if backwards { before } else { after }.clone(),
                },
                Change::Scorecard { before, after } => Changed::Scorecard {
                    scorecard: if backwards { before } else { after }.clone(),
                },
            })
            .collect()
    }

    /// Replaces the catalog snapshot with `files` (the catalog the app ships), as an undo step
    /// taken at `at_ms`.
    pub fn update_catalog(&mut self, files: &[(String, String)], at_ms: i64) -> Result<Applied, PlannerError> {
        let files = snapshot_files(files);
        let fresh = catalog::load(&files).map_err(PlannerError::from)?;
        let before = history::read_snapshot(&self.conn).map_err(|e| self.err(&e))?;
        let after = Snapshot {
            version: catalog_version(&fresh),
            taken_ms: at_ms,
            files,
            origin: None,
        };
        let label = format!("Update catalog {} → {}", before.version, after.version);
        self.commit(&label, None, vec![Change::Catalog { before, after }], at_ms)
    }

    /// Adds the workloads and scenarios of a scenario file as one undo step. Ids already taken
    /// get a suffix (`-2`, `-3`, ...). The file's currency must be the workspace's. Stamped `at_ms`.
    pub fn import(&mut self, file: &ScenarioFile, source: &str, at_ms: i64) -> Result<Imported, PlannerError> {
        if file.currency != self.settings.currency {
            return Err(invalid(
                "currency",
                &format!(
                    "{source} is in {} but this workspace is in {}; its amounts would be misread. Convert the file or import it into a {} workspace.",
                    file.currency, self.settings.currency, file.currency
                ),
            ));
        }
        let e = |e: rusqlite::Error| self.err(&e);
        let mut renamed = Vec::new();
        let mut changes = Vec::new();
        let first_w = history::next_position(&self.conn, Table::Workloads).map_err(e)?;
        let mut taken_w: Vec<String> = self.workloads.iter().map(|w| w.id.clone()).collect();
        let mut workload_ids = std::collections::HashMap::new();
        for (position, w) in (first_w..).zip(&file.workloads) {
            check_id("workloads[].id", &w.id)?;
            let id = free_id(&w.id, |c| taken_w.iter().any(|t| t == c));
            if id != w.id {
                renamed.push(format!("workload {} → {id}", w.id));
            }
            taken_w.push(id.clone());
            workload_ids.insert(w.id.clone(), id.clone());
            let mut item = w.clone();
            item.id.clone_from(&id);
            changes.push(Change::Workload {
                id,
                before: None,
                after: Some(Positioned { position, item }),
            });
        }
        let first_s = history::next_position(&self.conn, Table::Scenarios).map_err(e)?;
        let mut exists = self.conn.prepare("SELECT 1 FROM scenarios WHERE id = ?1").map_err(e)?;
        let mut new_ids: Vec<String> = Vec::new();
        for (position, s) in (first_s..).zip(&file.scenarios) {
            check_id("scenarios[].id", &s.id)?;
            let id = free_id(&s.id, |c| {
                new_ids.iter().any(|t| t == c) || exists.exists([c]).unwrap_or(true)
            });
            if id != s.id {
                renamed.push(format!("scenario {} → {id}", s.id));
            }
            new_ids.push(id.clone());
            let mut item = s.clone();
            item.id.clone_from(&id);
            changes.push(Change::Scenario {
                id,
                before: None,
                after: Some(Positioned { position, item }),
            });
        }
        drop(exists);
        let (workloads, scenarios) = (file.workloads.len(), file.scenarios.len());
        let label = format!("Import {source}");
        let applied = self.commit(&label, None, changes, at_ms)?;
        Ok(Imported {
            applied,
            workloads: u32::try_from(workloads).unwrap_or(u32::MAX),
            scenarios: u32::try_from(scenarios).unwrap_or(u32::MAX),
            renamed,
        })
    }

    /// The workspace (or the scenarios `ids` of it, in that order) as a scenario file.
    pub fn export(&self, ids: Option<&[String]>) -> Result<ScenarioFile, PlannerError> {
        let scenarios = match ids {
            Some(ids) => ids.iter().map(|id| self.scenario(id)).collect::<Result<Vec<_>, _>>()?,
            None => self.all_scenarios()?,
        };
        Ok(core_ws::to_scenario_file(&self.settings, &self.workloads, &scenarios))
    }

    /// The memo draft (the empty draft until someone writes one).
    pub fn memo_draft(&self) -> Result<MemoDraft, PlannerError> {
        history::read_memo_draft(&self.conn).map_err(|e| self.err(&e))
    }

    /// Adds a record of a memo written or signed. Records are facts, not edits: undo does not
    /// take them back.
    pub fn record_memo(&mut self, record: &MemoRecord) -> Result<(), PlannerError> {
        self.check_writable("record a memo in it")?;
        let body = serde_json::to_string(record)
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("the memo record could not be written: {e}")))?;
        self.conn
            .execute("INSERT INTO memos (body) VALUES (?1)", [body])
            .map_err(|e| self.err(&e))?;
        Ok(())
    }

    /// Every memo written or signed from this workspace, oldest first.
    pub fn memos(&self) -> Result<Vec<MemoRecord>, PlannerError> {
        let mut stmt = self
            .conn
            .prepare("SELECT body FROM memos ORDER BY seq")
            .map_err(|e| self.err(&e))?;
        let bodies: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .map_err(|e| self.err(&e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.err(&e))?;
        bodies
            .iter()
            .map(|b| serde_json::from_str(b).map_err(|e| bad_body(&self.path, "a memo record", &e)))
            .collect()
    }

    /// Writes a compacted copy to `target` (which must not exist) and opens it; this file stays
    /// as it is. The undo journal goes along.
    pub fn save_as(&self, target: &Path) -> Result<Workspace, PlannerError> {
        if target.exists() {
            return Err(PlannerError::new(
                ErrorCode::Io,
                format!("{} already exists; choose another name.", target.display()),
            ));
        }
        let target_text = target.to_str().ok_or_else(|| {
            PlannerError::new(
                ErrorCode::Io,
                format!(
                    "{}: the path is not valid UTF-8; choose another name.",
                    target.display()
                ),
            )
        })?;
        self.conn
            .execute("VACUUM INTO ?1", [target_text])
            .map_err(|e| db_error(target, &e))?;
        Workspace::open(target)
    }

    /// Runs SQLite's full integrity check; `Ok(())` when it reports "ok".
    pub fn integrity_check(&self) -> Result<(), PlannerError> {
        let mut stmt = self.conn.prepare("PRAGMA integrity_check").map_err(|e| self.err(&e))?;
        let rows: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .map_err(|e| self.err(&e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.err(&e))?;
        if rows == ["ok"] {
            Ok(())
        } else {
            Err(PlannerError::new(
                ErrorCode::WorkspaceInvalid,
                format!(
                    "{} fails SQLite's integrity check: {}",
                    self.path.display(),
                    rows.join("; ")
                ),
            ))
        }
    }
}

const WORKLOADS_SQL: &str = "SELECT id, body FROM workloads ORDER BY position, id";

/// Every row of a query of `(id, JSON)` read as `T`, in order; a row that does not read names
/// its `noun` and id.
fn read_list<T: for<'de> serde::Deserialize<'de>>(
    conn: &Connection,
    path: &Path,
    sql: &str,
    noun: &str,
) -> Result<Vec<T>, PlannerError> {
    let row = format!("a {noun} row");
    let e = |e: rusqlite::Error| db_error_about(path, &e, &row);
    let mut stmt = conn.prepare_cached(sql).map_err(e)?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .map_err(e)?;
    let mut out = Vec::new();
    for row in rows {
        let (id, body) = row.map_err(e)?;
        out.push(serde_json::from_str(&body).map_err(|x| bad_body(path, &format!("{noun} `{id}`"), &x))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_formatting_matches_known_dates() {
        assert_eq!(format_utc(0), "1970-01-01 00:00");
        // 2026-11-21 12:34:56 UTC
        assert_eq!(format_utc(1_795_264_496_000), "2026-11-21 12:34");
        // 2024-02-29 23:59 UTC (a leap day)
        assert_eq!(format_utc(1_709_251_140_000), "2024-02-29 23:59");
        assert_eq!(UtcTime::from_ms(1_709_251_199_999).seconds(), "2024-02-29 23:59:59");
        assert_eq!(UtcTime::from_ms(-1).seconds(), "1969-12-31 23:59:59");
    }

    #[test]
    fn versions_compare_by_number() {
        assert!(compare_versions("2026.11.0", "2026.9.3").is_gt());
        assert!(compare_versions("2026.11.0", "2026.11.0").is_eq());
        assert!(compare_versions("2026.11", "2026.11.1").is_lt());
    }

    #[test]
    fn ids_are_checked_and_freed() {
        assert!(check_id("f", "buy-h100_v1.2").is_ok());
        assert!(check_id("f", "").is_err());
        assert!(check_id("f", "a b").is_err());
        assert_eq!(free_id("a", |c| c == "a" || c == "a-2"), "a-3");
        assert_eq!(free_id("b", |_| false), "b");
    }
}
