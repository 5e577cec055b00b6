//! The desktop shell: one window, the app state, and thin IPC commands.
//!
//! Each `#[tauri::command]` converts its arguments, calls library functions and returns their
//! result; there is no business logic here, so everything the UI can do a test can do without a
//! window. The TypeScript bindings in `ui/src/lib/ipc/bindings.ts` are generated from these
//! signatures by tauri-specta (see `bindings_are_current` below).
//!
//! Commands that touch the workspace are `async`, so Tauri runs them on its worker threads and
//! the window's event loop never waits for SQLite or the engine: typing stays responsive while a
//! comparison is re-evaluated.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use planner_core::catalog::Catalog;
use planner_core::checklist::{ChecklistTemplate, Subject};
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::memo::{MemoDraft, MemoRecord};
use planner_core::scenario_file::{self, ScenarioSpec, WorkloadSpec};
use planner_core::vendors::{QuotePreview, ScorecardDraft, ScorecardView};
use planner_core::workspace::{self as core_ws, ScenarioDetail, SizingPreview, ViewState, WorkspaceSettings};
use planner_publish::identities::{Identities, IdentitySummary};
use planner_publish::{PdfCheck, Published, Signer};
use planner_report::charts::Theme;
use planner_report::screen::CompareScreen;
use planner_sign::Identity;
use planner_store::Workspace;
use planner_store::files::QuoteTemplate;
use planner_store::recent::{self, RecentFile};
use planner_store::workspace::{
    AnswerInput, Applied, ChecklistView, EditRequest, Imported, LogCheck, QuotesImported, SubjectStatus, WorkspaceInfo,
    now_ms,
};
use serde::{Deserialize, Serialize};
use tauri::{Manager, State};

mod dialogs;
mod launch;

pub use dialogs::FilePurpose;
pub use launch::LaunchOptions;

/// What the window's commands share.
#[derive(Debug)]
pub struct AppState {
    catalog_dir: PathBuf,
    config_dir: Option<PathBuf>,
    workspace: Mutex<Option<Workspace>>,
    /// Why the workspace named at launch did not open, for the start screen.
    launch_error: Mutex<Option<PlannerError>>,
}

impl AppState {
    pub fn new(catalog_dir: PathBuf, config_dir: Option<PathBuf>) -> AppState {
        AppState {
            catalog_dir,
            config_dir,
            workspace: Mutex::new(None),
            launch_error: Mutex::new(None),
        }
    }

    pub fn catalog_dir(&self) -> &Path {
        &self.catalog_dir
    }

    /// The open workspace, locked. A lock poisoned by an earlier panic is taken over: the
    /// workspace's state is on disk, in transactions, so nothing half-done is in memory.
    fn slot(&self) -> MutexGuard<'_, Option<Workspace>> {
        self.workspace.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn shipped_catalog(&self) -> Option<Catalog> {
        planner_store::load_catalog_dir(&self.catalog_dir).ok()
    }

    fn info(&self, ws: &Workspace) -> Result<WorkspaceInfo, PlannerError> {
        ws.info(self.shipped_catalog().as_ref())
    }

    /// The open workspace (if any), why the launch workspace failed (if it did), and the
    /// recent list.
    fn session(&self) -> Result<Session, PlannerError> {
        let launch_error = self
            .launch_error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let workspace = match self.slot().as_ref() {
            Some(ws) => Some(self.info(ws)?),
            None => None,
        };
        Ok(Session {
            workspace,
            launch_error,
            recent: self.config_dir.as_deref().map(recent::read_recent).unwrap_or_default(),
        })
    }

    /// Makes `ws` the open workspace and puts it first in the recent list.
    fn install(&self, ws: Workspace) -> Result<WorkspaceInfo, PlannerError> {
        let info = self.info(&ws)?;
        if let Some(dir) = &self.config_dir {
            // The recent list is a convenience: failing to save it must not fail the open.
            let _ = recent::note_recent(
                dir,
                ws.path(),
                &ws.settings().title,
                &planner_store::workspace::format_utc(planner_store::workspace::now_ms()),
            );
        }
        *self.slot() = Some(ws);
        Ok(info)
    }
}

fn no_workspace() -> PlannerError {
    PlannerError::new(
        ErrorCode::NoWorkspace,
        "No workspace is open: create one or open one from the start screen.",
    )
}

/// Runs `f` on the open workspace.
fn with_ws<T>(state: &AppState, f: impl FnOnce(&mut Workspace) -> Result<T, PlannerError>) -> Result<T, PlannerError> {
    let mut slot = state.slot();
    let ws = slot.as_mut().ok_or_else(no_workspace)?;
    f(ws)
}

/// What the start screen needs.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct Session {
    pub workspace: Option<WorkspaceInfo>,
    /// Why the workspace named at launch (`--workspace`) could not be opened.
    pub launch_error: Option<PlannerError>,
    pub recent: Vec<RecentFile>,
}

/// The catalog the app ships, freshly read and checked; on any error, every issue with file,
/// line and field.
#[tauri::command]
#[specta::specta]
async fn get_catalog(state: State<'_, AppState>) -> Result<Catalog, PlannerError> {
    planner_store::load_catalog_dir(state.catalog_dir())
}

/// The open workspace (if any), why the launch workspace failed (if it did), and the recent list.
#[tauri::command]
#[specta::specta]
async fn session(state: State<'_, AppState>) -> Result<Session, PlannerError> {
    state.session()
}

/// Creates a workspace at `path` titled `title`, starting next month, with a snapshot of the
/// shipped catalog, and opens it.
#[tauri::command]
#[specta::specta]
async fn create_workspace(
    state: State<'_, AppState>,
    path: String,
    title: String,
) -> Result<WorkspaceInfo, PlannerError> {
    let files = planner_store::read_catalog_dir(state.catalog_dir())?;
    let settings = WorkspaceSettings::new(&title, planner_store::workspace::next_month());
    let ws = Workspace::create(Path::new(&path), &settings, &files)?;
    state.install(ws)
}

/// Opens the workspace at `path` (closing the one open).
#[tauri::command]
#[specta::specta]
async fn open_workspace(state: State<'_, AppState>, path: String) -> Result<WorkspaceInfo, PlannerError> {
    // Close first, so reopening the same file does not find it locked by ourselves.
    let previous = state.slot().take();
    drop(previous);
    let ws = Workspace::open(Path::new(&path))?;
    state.install(ws)
}

/// Copies the open workspace to `path` and continues in the copy.
#[tauri::command]
#[specta::specta]
async fn save_workspace_as(state: State<'_, AppState>, path: String) -> Result<WorkspaceInfo, PlannerError> {
    let copy = with_ws(&state, |ws| ws.save_as(Path::new(&path)))?;
    state.install(copy)
}

/// Closes the open workspace (every edit is already saved).
#[tauri::command]
#[specta::specta]
async fn close_workspace(state: State<'_, AppState>) -> Result<(), PlannerError> {
    drop(state.slot().take());
    Ok(())
}

/// Asks the user for a file with the system dialog; `None` when they cancel.
#[tauri::command]
#[specta::specta]
async fn choose_file(app: tauri::AppHandle, purpose: FilePurpose) -> Result<Option<String>, PlannerError> {
    Ok(dialogs::choose(&app, purpose))
}

/// The catalog snapshot the open workspace computes with.
#[tauri::command]
#[specta::specta]
async fn workspace_catalog(state: State<'_, AppState>) -> Result<Catalog, PlannerError> {
    with_ws(&state, |ws| Ok(ws.catalog().clone()))
}

/// One scenario, whole, for the editor.
#[tauri::command]
#[specta::specta]
async fn get_scenario(state: State<'_, AppState>, id: String) -> Result<ScenarioSpec, PlannerError> {
    with_ws(&state, |ws| ws.scenario(&id))
}

/// Applies and saves one edit.
#[tauri::command]
#[specta::specta]
async fn apply_edit(state: State<'_, AppState>, request: EditRequest) -> Result<Applied, PlannerError> {
    with_ws(&state, |ws| ws.apply(&request))
}

/// Takes back the last edit; `None` when there is nothing to undo.
#[tauri::command]
#[specta::specta]
async fn undo(state: State<'_, AppState>) -> Result<Option<Applied>, PlannerError> {
    with_ws(&state, Workspace::undo)
}

/// Applies again the last edit undone; `None` when there is nothing to redo.
#[tauri::command]
#[specta::specta]
async fn redo(state: State<'_, AppState>) -> Result<Option<Applied>, PlannerError> {
    with_ws(&state, Workspace::redo)
}

/// Saves what the compare screen shows (not an undo step).
#[tauri::command]
#[specta::specta]
async fn set_view(state: State<'_, AppState>, view: ViewState) -> Result<ViewState, PlannerError> {
    with_ws(&state, |ws| ws.set_view(&view))
}

/// The comparison of the selected scenarios with its charts, drawn for `theme`.
#[tauri::command]
#[specta::specta]
async fn compare(state: State<'_, AppState>, theme: Theme) -> Result<CompareScreen, PlannerError> {
    let started = Instant::now();
    let (comparison, _, _) = with_ws(&state, |ws| ws.compare())?;
    let mut screen = planner_report::screen::compare_screen(comparison, theme);
    screen.backend_ms = format!("{:.1}", started.elapsed().as_secs_f64() * 1000.0);
    Ok(screen)
}

/// One scenario evaluated on its own, for the editor's figures, plans and assumptions.
#[tauri::command]
#[specta::specta]
async fn scenario_detail(state: State<'_, AppState>, scenario: ScenarioSpec) -> Result<ScenarioDetail, PlannerError> {
    with_ws(&state, |ws| {
        Ok(core_ws::scenario_detail(
            ws.catalog(),
            ws.settings(),
            ws.workloads(),
            &scenario,
        ))
    })
}

/// The cost of leaving each layer of a scenario that carries an exit clause, at every month of
/// the horizon (the scenario as the editor holds it, like `scenario_detail`).
#[tauri::command]
#[specta::specta]
async fn exit_costs(
    state: State<'_, AppState>,
    scenario: ScenarioSpec,
) -> Result<core_ws::ScenarioExits, PlannerError> {
    with_ws(&state, |ws| {
        Ok(core_ws::scenario_exits(
            ws.catalog(),
            ws.settings(),
            ws.workloads(),
            &scenario,
        ))
    })
}

/// Notice to leave `layer` of a scenario given in `month`, priced as a variant against staying.
#[tauri::command]
#[specta::specta]
async fn exit_variant(
    state: State<'_, AppState>,
    scenario: ScenarioSpec,
    layer: String,
    month: u32,
) -> Result<core_ws::ExitVariantOutcome, PlannerError> {
    with_ws(&state, |ws| {
        Ok(core_ws::scenario_exit_variant(
            ws.catalog(),
            ws.settings(),
            ws.workloads(),
            &scenario,
            &layer,
            month,
        ))
    })
}

/// A workload's memory fit on an accelerator of the workspace's catalog.
#[tauri::command]
#[specta::specta]
async fn size_workload(
    state: State<'_, AppState>,
    workload: WorkloadSpec,
    accelerator: String,
    gpus_per_server: u32,
) -> Result<Option<SizingPreview>, PlannerError> {
    with_ws(&state, |ws| {
        Ok(core_ws::size_workload(
            ws.catalog(),
            &workload,
            &accelerator,
            gpus_per_server,
        ))
    })
}

/// Replaces the workspace's catalog snapshot with the catalog the app ships (an undo step).
#[tauri::command]
#[specta::specta]
async fn update_catalog(state: State<'_, AppState>) -> Result<Applied, PlannerError> {
    let files = planner_store::read_catalog_dir(state.catalog_dir())?;
    with_ws(&state, |ws| ws.update_catalog(&files))
}

/// Adds the workloads and scenarios of a scenario JSON file (one undo step).
#[tauri::command]
#[specta::specta]
async fn import_scenarios(state: State<'_, AppState>, path: String) -> Result<Imported, PlannerError> {
    let path = PathBuf::from(path);
    let file = planner_store::files::read_scenario_file(&path)?;
    let name = path
        .file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    with_ws(&state, |ws| ws.import(&file, &name))
}

/// Writes the workspace (or the scenarios `ids`) as a scenario JSON file.
#[tauri::command]
#[specta::specta]
async fn export_scenarios(
    state: State<'_, AppState>,
    path: String,
    ids: Option<Vec<String>>,
) -> Result<(), PlannerError> {
    let file = with_ws(&state, |ws| ws.export(ids.as_deref()))?;
    planner_store::files::write_atomic(Path::new(&path), scenario_file::to_json(&file).as_bytes())
}

/// How to export the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "kebab-case")]
pub enum ExportFormat {
    /// A workbook: the comparison and one ledger sheet per scenario.
    Xlsx,
    /// The comparison table as CSV.
    Csv,
}

/// Exports the comparison on screen (XLSX with every ledger, or CSV).
#[tauri::command]
#[specta::specta]
async fn export_comparison(state: State<'_, AppState>, path: String, format: ExportFormat) -> Result<(), PlannerError> {
    let (comparison, evaluation, _) = with_ws(&state, |ws| ws.compare())?;
    let bytes = planner_report::screen::export_bytes(&comparison, evaluation.as_ref(), format == ExportFormat::Xlsx)?;
    planner_store::files::write_atomic(Path::new(&path), &bytes)
}

/// Exports one scenario's monthly ledger as CSV.
#[tauri::command]
#[specta::specta]
async fn export_ledger(state: State<'_, AppState>, path: String, scenario: String) -> Result<(), PlannerError> {
    let (comparison, evaluation, _) = with_ws(&state, |ws| ws.compare())?;
    let text = planner_report::screen::ledger_csv(&comparison, evaluation.as_ref(), &scenario)?;
    planner_store::files::write_atomic(Path::new(&path), text.as_bytes())
}

/// The open workspace's memo draft (edits go through `apply_edit` with `Edit::Memo`).
#[tauri::command]
#[specta::specta]
async fn memo_draft(state: State<'_, AppState>) -> Result<MemoDraft, PlannerError> {
    with_ws(&state, |ws| ws.memo_draft())
}

/// Every memo written or signed from the open workspace, oldest first.
#[tauri::command]
#[specta::specta]
async fn memo_records(state: State<'_, AppState>) -> Result<Vec<MemoRecord>, PlannerError> {
    with_ws(&state, |ws| ws.memos())
}

impl AppState {
    /// The shipped checklist template, as (file name, TOML text).
    fn shipped_checklist(&self) -> Result<(String, String), PlannerError> {
        planner_store::files::read_checklist_template(&self.catalog_dir)
    }
}

/// The template the open workspace's checklists are judged by (its kept copy, else the shipped
/// one) and the shipped file, which becomes the kept copy at the first change.
fn checklist_context(state: &AppState, ws: &Workspace) -> Result<(ChecklistTemplate, (String, String)), PlannerError> {
    let shipped = state.shipped_checklist()?;
    let template = ws.checklist_template(&shipped)?;
    Ok((template, shipped))
}

/// The clearance of every scenario and of every vendor with a record, for the badges.
#[tauri::command]
#[specta::specta]
async fn checklist_statuses(state: State<'_, AppState>) -> Result<Vec<SubjectStatus>, PlannerError> {
    with_ws(&state, |ws| {
        let (template, _) = checklist_context(&state, ws)?;
        ws.checklist_statuses(&template)
    })
}

/// One subject's checklist: items, answers with their history, hints, sign-off, clearance.
#[tauri::command]
#[specta::specta]
async fn checklist(state: State<'_, AppState>, subject: Subject) -> Result<ChecklistView, PlannerError> {
    with_ws(&state, |ws| {
        let (template, _) = checklist_context(&state, ws)?;
        ws.checklist_view(&template, &subject)
    })
}

/// Records an answer with the files at `evidence` (paths) attached; returns the checklist.
#[tauri::command]
#[specta::specta]
async fn answer_checklist_item(
    state: State<'_, AppState>,
    subject: Subject,
    answer: AnswerInput,
    evidence: Vec<String>,
) -> Result<ChecklistView, PlannerError> {
    let files = evidence
        .iter()
        .map(|p| planner_store::files::read_evidence(Path::new(p)))
        .collect::<Result<Vec<_>, _>>()?;
    with_ws(&state, |ws| {
        let (template, shipped) = checklist_context(&state, ws)?;
        ws.answer_item(&template, &shipped, &subject, &answer, &files)?;
        ws.checklist_view(&template, &subject)
    })
}

/// Signs off the subject's checklist as its answers stand, with the reviewer's signing identity
/// when `sign` names one (its `reason` is not used); returns the checklist.
#[tauri::command]
#[specta::specta]
async fn sign_off_checklist(
    state: State<'_, AppState>,
    subject: Subject,
    reviewer: String,
    note: String,
    sign: Option<SignWith>,
) -> Result<ChecklistView, PlannerError> {
    let identity = open_identity(&state, sign.as_ref())?;
    let by = planner_publish::SignOffBy::new(&reviewer, &note, identity.as_ref());
    with_ws(&state, |ws| {
        let (template, shipped) = checklist_context(&state, ws)?;
        planner_publish::sign_off(ws, &template, &shipped, &subject, &by, now_ms())?;
        ws.checklist_view(&template, &subject)
    })
}

/// Withdraws the subject's sign-off with a reason; returns the checklist.
#[tauri::command]
#[specta::specta]
async fn revoke_sign_off(
    state: State<'_, AppState>,
    subject: Subject,
    reviewer: String,
    reason: String,
) -> Result<ChecklistView, PlannerError> {
    with_ws(&state, |ws| {
        let (template, shipped) = checklist_context(&state, ws)?;
        ws.revoke_sign_off(&shipped, &subject, &reviewer, &reason, now_ms())?;
        ws.checklist_view(&template, &subject)
    })
}

/// Verifies the checklist log and names the first broken entry.
#[tauri::command]
#[specta::specta]
async fn verify_checklist_log(state: State<'_, AppState>) -> Result<LogCheck, PlannerError> {
    with_ws(&state, |ws| ws.verify_checklist_log())
}

/// Writes a stored evidence file (checked against its SHA-256) to `path`.
#[tauri::command]
#[specta::specta]
async fn export_evidence(state: State<'_, AppState>, sha256: String, path: String) -> Result<(), PlannerError> {
    let bytes = with_ws(&state, |ws| ws.evidence_bytes(&sha256))?;
    planner_store::files::write_atomic(Path::new(&path), &bytes)
}

/// An identity to sign with, and why.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct SignWith {
    /// The identity's id in the identities folder.
    pub identity: String,
    pub passphrase: String,
    /// Written into the signature: "Author", "Reviewer: approved", ...
    pub reason: String,
}

/// The signing identity `sign` names, unlocked with its passphrase; `None` when there is none.
fn open_identity(state: &AppState, sign: Option<&SignWith>) -> Result<Option<Identity>, PlannerError> {
    sign.map(|s| identities(state)?.open(&s.identity, &s.passphrase))
        .transpose()
}

fn identities(state: &AppState) -> Result<Identities, PlannerError> {
    state
        .config_dir
        .as_deref()
        .map(|d| Identities::new(&d.join("identities")))
        .ok_or_else(|| {
            PlannerError::new(
                ErrorCode::Io,
                "The app has no configuration folder to keep signing identities in.",
            )
        })
}

/// Writes the memo of the open workspace's draft to `path`, signed when `sign` is given, and
/// records it in the workspace.
#[tauri::command]
#[specta::specta]
async fn export_memo(
    state: State<'_, AppState>,
    path: String,
    sign: Option<SignWith>,
) -> Result<Published, PlannerError> {
    let identity = open_identity(&state, sign.as_ref())?;
    let signer = identity.as_ref().zip(sign.as_ref()).map(|(identity, s)| Signer {
        identity,
        reason: &s.reason,
    });
    with_ws(&state, |ws| {
        let draft = ws.memo_draft()?;
        planner_publish::publish_from_workspace(ws, &draft, Path::new(&path), now_ms(), signer.as_ref())
    })
}

/// Adds a signature to the PDF at `path` (recorded in the open workspace, if any).
#[tauri::command]
#[specta::specta]
async fn sign_pdf(state: State<'_, AppState>, path: String, sign: SignWith) -> Result<MemoRecord, PlannerError> {
    let identity = identities(&state)?.open(&sign.identity, &sign.passphrase)?;
    let signer = Signer {
        identity: &identity,
        reason: &sign.reason,
    };
    let mut slot = state.slot();
    planner_publish::sign_file(Path::new(&path), &signer, now_ms(), slot.as_mut())
}

/// Every signature of the PDF at `path`: who, when, with which certificate, and whether the
/// document is intact since.
#[tauri::command]
#[specta::specta]
async fn verify_pdf(path: String) -> Result<PdfCheck, PlannerError> {
    planner_publish::verify_file(Path::new(&path))
}

/// The signing identities kept by the app.
#[tauri::command]
#[specta::specta]
async fn list_identities(state: State<'_, AppState>) -> Result<Vec<IdentitySummary>, PlannerError> {
    identities(&state)?.list()
}

/// Makes a P-256 key with a self-signed certificate and keeps it encrypted with `passphrase`.
#[tauri::command]
#[specta::specta]
async fn create_identity(
    state: State<'_, AppState>,
    name: String,
    organisation: String,
    email: Option<String>,
    passphrase: String,
) -> Result<IdentitySummary, PlannerError> {
    identities(&state)?.create(&name, &organisation, email.as_deref(), &passphrase, now_ms())
}

/// Imports an organisation's PKCS#12 identity (checked with its passphrase).
#[tauri::command]
#[specta::specta]
async fn import_identity(
    state: State<'_, AppState>,
    path: String,
    passphrase: String,
) -> Result<IdentitySummary, PlannerError> {
    identities(&state)?.import(Path::new(&path), &passphrase)
}

/// Writes an identity's certificate (PEM) to `path`, for a validator to trust.
#[tauri::command]
#[specta::specta]
async fn export_certificate(
    state: State<'_, AppState>,
    identity: String,
    passphrase: String,
    path: String,
) -> Result<(), PlannerError> {
    identities(&state)?.export_certificate(&identity, &passphrase, Path::new(&path))
}

// ---- Vendors: the scorecard and RFP quote import (issue #6) ----

/// The open workspace's vendor scorecard as entered (edits go through `apply_edit` with
/// `Edit::Scorecard`).
#[tauri::command]
#[specta::specta]
async fn scorecard_draft(state: State<'_, AppState>) -> Result<ScorecardDraft, PlannerError> {
    with_ws(&state, |ws| ws.scorecard())
}

/// The scorecard screen: each vendor's cost from the engine over the compare horizon, its
/// compliance from its D-1 checklist (absent for a vendor never reviewed), the ranking and its
/// stability.
#[tauri::command]
#[specta::specta]
async fn scorecard_view(state: State<'_, AppState>) -> Result<ScorecardView, PlannerError> {
    with_ws(&state, |ws| {
        let (template, _) = checklist_context(&state, ws)?;
        let compliance = ws.vendor_compliance(&template)?;
        ws.scorecard_view(&compliance)
    })
}

/// Reads an RFP quote file (CSV or XLSX) and shows each quote on the workspace's footing;
/// nothing is written. A file with any problem is refused with every problem located (file,
/// row, column, template column).
#[tauri::command]
#[specta::specta]
async fn preview_quotes(state: State<'_, AppState>, path: String) -> Result<QuotePreview, PlannerError> {
    let path = PathBuf::from(path);
    with_ws(&state, |ws| {
        let read = planner_store::read_quotes_in(&path, ws.catalog(), ws.settings())?;
        let mut preview = planner_core::vendors::preview(&path.display().to_string(), &read.quotes, ws.settings())?;
        preview.sheet = read.sheet.map(|s| s.describe());
        Ok(preview)
    })
}

/// Imports an RFP quote file: one scenario per vendor made from the scenario `base` with the
/// vendor's quotes as its layers, and the vendors on the scorecard, in one undo step. A file
/// with any problem imports nothing.
#[tauri::command]
#[specta::specta]
async fn import_quotes(state: State<'_, AppState>, path: String, base: String) -> Result<QuotesImported, PlannerError> {
    let path = PathBuf::from(path);
    let name = path
        .file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    with_ws(&state, |ws| {
        let quotes = planner_store::read_quotes(&path, ws.catalog(), ws.settings())?;
        ws.import_quotes(&quotes, &base, &name)
    })
}

/// The RFP quote template shipped with the app (beside the catalog it reads).
#[tauri::command]
#[specta::specta]
async fn quote_template(state: State<'_, AppState>) -> Result<QuoteTemplate, PlannerError> {
    planner_store::files::read_quote_template(state.catalog_dir())
}

/// The command set and type exports, shared by the running app and the bindings test.
pub fn specta_builder() -> tauri_specta::Builder<tauri::Wry> {
    tauri_specta::Builder::<tauri::Wry>::new().commands(tauri_specta::collect_commands![
        get_catalog,
        session,
        create_workspace,
        open_workspace,
        save_workspace_as,
        close_workspace,
        choose_file,
        workspace_catalog,
        get_scenario,
        apply_edit,
        undo,
        redo,
        set_view,
        compare,
        scenario_detail,
        exit_costs,
        exit_variant,
        size_workload,
        update_catalog,
        import_scenarios,
        export_scenarios,
        export_comparison,
        export_ledger,
        memo_draft,
        memo_records,
        export_memo,
        sign_pdf,
        verify_pdf,
        list_identities,
        create_identity,
        import_identity,
        export_certificate,
        checklist_statuses,
        checklist,
        answer_checklist_item,
        sign_off_checklist,
        revoke_sign_off,
        verify_checklist_log,
        export_evidence,
        scorecard_draft,
        scorecard_view,
        preview_quotes,
        import_quotes,
        quote_template,
    ])
}

/// Where the generated TypeScript bindings are committed.
pub fn bindings_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/lib/ipc/bindings.ts")
}

/// Starts the app. Launch failures are reported on stderr with what to do, never a panic.
pub fn run() {
    let options = match LaunchOptions::from_env_and_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("compute-planner: {message}");
            std::process::exit(2);
        }
    };
    let builder = specta_builder();
    let launch_workspace = options.workspace.clone();
    let launch_read_only = options.read_only;
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(builder.invoke_handler())
        .setup(move |app| {
            builder.mount_events(app);
            let config_dir = options.config_dir.clone().or_else(|| app.path().app_config_dir().ok());
            let state = AppState::new(options.catalog_dir.clone(), config_dir);
            if let Some(path) = &launch_workspace {
                let opened = if launch_read_only {
                    Workspace::open_read_only(path)
                } else {
                    Workspace::open(path)
                };
                match opened {
                    Ok(ws) => {
                        if let Err(e) = state.install(ws) {
                            *state
                                .launch_error
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                        }
                    }
                    Err(e) => {
                        *state
                            .launch_error
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                    }
                }
            }
            app.manage(state);
            Ok(())
        })
        .run(tauri::generate_context!());
    if let Err(e) = result {
        eprintln!("compute-planner: the window could not start: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use specta_typescript::Typescript;

    fn typescript() -> Typescript {
        Typescript::default()
            .header("// Generated by tauri-specta from src-tauri/src/lib.rs. Do not edit: run\n// `UPDATE_BINDINGS=1 cargo test -p compute-planner bindings` to regenerate.\n")
    }

    /// Fails when the committed bindings differ from what the Rust signatures generate.
    #[test]
    fn bindings_are_current() {
        let dir = tempfile::tempdir().unwrap();
        let fresh = dir.path().join("bindings.ts");
        specta_builder().export(typescript(), &fresh).unwrap();
        let fresh_text = std::fs::read_to_string(&fresh).unwrap();
        let committed = bindings_path();
        if std::env::var_os("UPDATE_BINDINGS").is_some() {
            std::fs::write(&committed, &fresh_text).unwrap();
        }
        let committed_text = std::fs::read_to_string(&committed).unwrap_or_default();
        assert!(
            committed_text == fresh_text,
            "ui/src/lib/ipc/bindings.ts is stale: run `UPDATE_BINDINGS=1 cargo test -p compute-planner bindings` and commit it"
        );
    }
}
