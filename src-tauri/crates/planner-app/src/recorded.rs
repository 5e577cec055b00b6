//! Recorded answers: the UI's tests run against answers the real use cases gave.
//!
//! A UI test in record mode sends each call to the host server (`src/bin/host_server.rs`),
//! which answers through a [`Recorder`] and [`crate::router`]; the test writes every call with
//! its answer to `ui/tests/recorded/`. In replay mode the UI test gets those answers back in
//! order, and the test `recorded_answers` replays every file on a fresh [`Recorder`] and fails
//! when an answer changed, so no rule of the product lives in the UI's test double.
//!
//! A recording must read the same on any machine and on every run, so a [`Recorder`]:
//!
//! - runs on a [`TestHost`] whose clock starts at [`CLOCK_START_MS`] and moves only when told;
//! - reads paths in arguments that start with `@tmp/` as paths in its own scratch folder and
//!   `@repo/` as paths in the repository, and writes those folders back as `@tmp` and `@repo` in
//!   every answer;
//! - records measured durations (`backend_ms`) as `"0"`;
//! - draws every random value (signing keys, certificate serials) from a stream seeded afresh
//!   for each recording (`planner_sign::replay_random_for_recordings`), so keys, signatures and
//!   the digests of signed PDFs come out the same every time.
//!
//! Besides commands, a recording holds steps the test took on the host itself ([`Control`]):
//! moving the clock, naming a workspace at launch, writing a file the user would pick.

use std::path::{Path, PathBuf};

use planner_core::error::{ErrorCode, PlannerError};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{Host, TestHost, router, session};

/// Where the recorder's clock starts: 2026-11-23 09:00:00 UTC.
pub const CLOCK_START_MS: i64 = 1_795_424_400_000;

/// A step a test takes on the host rather than through a command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "control", rename_all = "kebab-case")]
pub enum Control {
    /// Moves the clock forward by `ms` milliseconds.
    Advance { ms: i64 },
    /// Opens `path` as the app does for a workspace named on its command line.
    Launch {
        path: String,
        #[serde(default)]
        read_only: bool,
    },
    /// Writes `text` to `path` (a file the user will pick: a quote sheet, evidence, a broken file).
    Write { path: String, text: String },
    /// Appends `text` to the file at `path` (a change made to a file behind the app's back).
    Append { path: String, text: String },
    /// Copies the file or folder `from` to `to`.
    Copy { from: String, to: String },
    /// From now on the shipped catalog is the folder `dir` (with its templates beside it), as
    /// when the app is started with `--catalog`. Nothing stays open.
    Catalog { dir: String },
    /// Makes the workspace `to` from the scenario file `from`, as the bundled sample is made
    /// (see `session::create_from`); it is not opened.
    Workspace {
        from: String,
        to: String,
        #[serde(default)]
        title: Option<String>,
    },
}

/// One thing a test asked: a command with its arguments, or a step on the host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Request {
    Call {
        command: String,
        #[serde(default)]
        args: Value,
    },
    Control(Control),
}

/// What came back: the command's answer or its refusal (a `PlannerError`, as JSON). In a
/// recording file, a long answer (a catalog, charts) is kept once, gzipped, in
/// `answers/<name>.json.gz` beside the recordings and named here ([`Answer::Stored`]), since
/// many tests get the same one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    Ok(Value),
    Error(Value),
    Stored(String),
}

/// Answers longer than this (as compact JSON) are kept in the answer store.
pub const STORED_ABOVE: usize = 2048;

impl Answer {
    /// The stored answer's name, if it is one.
    pub fn stored_name(&self) -> Option<&str> {
        match self {
            Answer::Stored(name) => Some(name),
            _ => None,
        }
    }
}

/// One line of a recording.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    #[serde(flatten)]
    pub request: Request,
    pub answer: Answer,
    /// `true` when the answer is the user's (a file dialog), not the app's: replays keep it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_user: bool,
}

/// A UI test's recording: every call it made, in order, with its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    /// The test, as `file > describe > it`.
    pub test: String,
    pub entries: Vec<Entry>,
}

/// The seed of the random stream every recording starts with.
const RANDOM_SEED: u64 = 0x5EED_2026_1123;

/// Fields that measure the machine rather than the answer (how long the back end took), by
/// command, as JSON pointers into the answer: recorded as `"0"`.
const MEASURED_FIELDS: &[(&str, &str)] = &[
    ("compare", "/backend_ms"),
    ("compare_what_if", "/screen/backend_ms"),
    ("run_risk", "/backend_ms"),
    ("risk", "/backend_ms"),
];

/// A test host with its scratch folder, answering recorded calls reproducibly.
#[derive(Debug)]
pub struct Recorder {
    host: TestHost,
    /// Folder and canonical folder for `@tmp` and `@repo`.
    roots: Vec<(PathBuf, &'static str)>,
    tmp: PathBuf,
    repo: PathBuf,
}

impl Recorder {
    /// A recorder over the repository at `repo` (its `catalogs/` is the shipped catalog) with
    /// the scratch folder `tmp` (its `config/` is the app's configuration folder).
    pub fn new(repo: &Path, tmp: &Path) -> Recorder {
        planner_sign::replay_random_for_recordings(Some(RANDOM_SEED));
        let config = tmp.join("config");
        let host = TestHost::new(&repo.join("catalogs"), Some(&config), CLOCK_START_MS);
        let mut roots = Vec::new();
        for (dir, name) in [(tmp, "@tmp"), (repo, "@repo")] {
            if let Ok(canonical) = dir.canonicalize()
                && canonical != dir
            {
                roots.push((canonical, name));
            }
            roots.push((dir.to_path_buf(), name));
        }
        // The longer folder first, so a scratch folder inside the repository reads as @tmp.
        roots.sort_by_key(|(dir, _)| std::cmp::Reverse(dir.as_os_str().len()));
        Recorder {
            host,
            roots,
            tmp: tmp.to_path_buf(),
            repo: repo.to_path_buf(),
        }
    }

    /// Answers one request as the app would, in recorded form.
    pub fn answer(&mut self, request: &Request) -> Answer {
        match request {
            Request::Control(control) => match self.control(control) {
                Ok(()) => Answer::Ok(Value::Null),
                Err(e) => Answer::Error(self.recorded(error_value(&e))),
            },
            Request::Call { command, args } => {
                let args = self.real(args.clone());
                match router::route(&self.host, command, &args) {
                    Ok(mut value) => {
                        for (_, field) in MEASURED_FIELDS.iter().filter(|(c, _)| c == command) {
                            if let Some(v) = value.pointer_mut(field) {
                                *v = Value::String("0".to_owned());
                            }
                        }
                        Answer::Ok(self.recorded(value))
                    }
                    Err(e) => Answer::Error(self.recorded(error_value(&e))),
                }
            }
        }
    }

    fn control(&mut self, control: &Control) -> Result<(), PlannerError> {
        match control {
            Control::Advance { ms } => self.host.advance(*ms),
            Control::Launch { path, read_only } => session::launch(&self.host, &self.path(path), *read_only),
            Control::Write { path, text } => {
                let path = self.path(path);
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, &e))?;
                }
                std::fs::write(&path, text).map_err(|e| io_error(&path, &e))?;
            }
            Control::Append { path, text } => {
                use std::io::Write as _;
                let path = self.path(path);
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .and_then(|mut f| f.write_all(text.as_bytes()))
                    .map_err(|e| io_error(&path, &e))?;
            }
            Control::Copy { from, to } => copy(&self.path(from), &self.path(to))?,
            Control::Catalog { dir } => {
                let config = self.tmp.join("config");
                self.host = TestHost::new(&self.path(dir), Some(&config), self.host.now_ms());
            }
            Control::Workspace { from, to, title } => {
                session::create_from(&self.host, &self.path(to), title.as_deref(), &self.path(from))?;
            }
        }
        Ok(())
    }

    /// A path as a test writes it (`@tmp/…`, `@repo/…`), on this machine.
    fn path(&self, text: &str) -> PathBuf {
        PathBuf::from(self.real_text(text))
    }

    fn real_text(&self, text: &str) -> String {
        if let Some(rest) = text.strip_prefix("@tmp") {
            return format!("{}{rest}", self.tmp.display());
        }
        if let Some(rest) = text.strip_prefix("@repo") {
            return format!("{}{rest}", self.repo.display());
        }
        text.to_owned()
    }

    /// Arguments as recorded, made real: folders replaced.
    fn real(&self, value: Value) -> Value {
        map_strings(value, &|s| self.real_text(s))
    }

    /// An answer made reproducible: folders replaced.
    fn recorded(&self, value: Value) -> Value {
        map_strings(value, &|s| {
            let mut out = s.to_owned();
            for (dir, name) in &self.roots {
                out = out.replace(&dir.display().to_string(), name);
            }
            out
        })
    }
}

/// Copies a file, or a folder with everything in it.
fn copy(from: &Path, to: &Path) -> Result<(), PlannerError> {
    if from.is_dir() {
        std::fs::create_dir_all(to).map_err(|e| io_error(to, &e))?;
        for entry in std::fs::read_dir(from).map_err(|e| io_error(from, &e))? {
            let entry = entry.map_err(|e| io_error(from, &e))?;
            copy(&entry.path(), &to.join(entry.file_name()))?;
        }
        return Ok(());
    }
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, &e))?;
    }
    std::fs::copy(from, to).map_err(|e| io_error(from, &e))?;
    Ok(())
}

fn error_value(e: &PlannerError) -> Value {
    serde_json::to_value(e).unwrap_or_else(|_| Value::String(e.to_string()))
}

fn io_error(path: &Path, e: &std::io::Error) -> PlannerError {
    PlannerError::new(ErrorCode::Io, format!("{}: {e}", path.display()))
}

/// `value` with every string (keys too) passed through `f`.
fn map_strings(value: Value, f: &dyn Fn(&str) -> String) -> Value {
    match value {
        Value::String(s) => Value::String(f(&s)),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| map_strings(v, f)).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .map(|(k, v)| (f(&k), map_strings(v, f)))
                .collect::<Map<String, Value>>(),
        ),
        other => other,
    }
}

/// Where two answers first differ, as a JSON pointer with both values; `None` when equal.
pub fn first_difference(expected: &Value, actual: &Value) -> Option<String> {
    fn walk(path: &str, a: &Value, b: &Value) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (k, v) in x {
                    let p = format!("{path}/{k}");
                    match y.get(k) {
                        Some(w) => {
                            if let Some(d) = walk(&p, v, w) {
                                return Some(d);
                            }
                        }
                        None => return Some(format!("{p}: recorded {v}, now absent")),
                    }
                }
                y.keys()
                    .find(|k| !x.contains_key(*k))
                    .map(|k| format!("{path}/{k}: absent when recorded, now {}", y[k]))
            }
            (Value::Array(x), Value::Array(y)) => {
                for (i, (v, w)) in x.iter().zip(y).enumerate() {
                    if let Some(d) = walk(&format!("{path}/{i}"), v, w) {
                        return Some(d);
                    }
                }
                (x.len() != y.len()).then(|| format!("{path}: {} items recorded, {} now", x.len(), y.len()))
            }
            // A number is the same number however it is written: the UI's recorder writes 6000
            // where serde writes 6000.0 (chart coordinates are f64).
            (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => None,
            _ => (a != b).then(|| format!("{}: recorded {a}, now {b}", if path.is_empty() { "/" } else { path })),
        }
    }
    walk("", expected, actual)
}
