//! Scenario and workload commands: edits with undo and redo, one scenario's figures, exits and
//! sizing, scenario files.

use std::path::Path;

use planner_app::scenarios::{self, DraftFrom, KeptWhatIf, Reshape};
use planner_core::engine::editing::draft::Draft;
use planner_core::engine::editing::layer_form::LayerForm;
use planner_core::engine::editing::what_if::WhatIf;
use planner_core::engine::exit::kinds::ExitRequest;
use planner_core::engine::input::scenario_file::{ScenarioSpec, WorkloadSpec};
use planner_core::engine::workspace::content::{
    ExitRequestOutcome, ExitVariantOutcome, ScenarioDetail, ScenarioExits, SizingPreview,
};
use planner_core::error::PlannerError;
use planner_core::workload_kind::WorkloadKind;
use planner_store::workspace::{Applied, EditRequest, Imported};

use super::Host;

/// What the editor shows for each kind of layer: the fields it takes and an empty layer of it.
#[tauri::command]
#[specta::specta]
pub async fn layer_forms(host: Host<'_>) -> Result<Vec<LayerForm>, PlannerError> {
    Ok(scenarios::layer_forms(&*host))
}

/// A new scenario, not saved, from a template on the workspace's catalog and currency or as a
/// copy of a saved scenario, with an id unique in the workspace; what it could not choose is in
/// its notes.
#[tauri::command]
#[specta::specta]
pub async fn draft_scenario(host: Host<'_>, from: DraftFrom) -> Result<Draft, PlannerError> {
    scenarios::draft(&*host, &from)
}

/// A new workload, not saved, named `name` of `kind`, with an id unique in the workspace and the
/// engine's defaults.
#[tauri::command]
#[specta::specta]
pub async fn draft_workload(host: Host<'_>, name: String, kind: WorkloadKind) -> Result<WorkloadSpec, PlannerError> {
    scenarios::draft_workload(&*host, &name, kind)
}

/// The scenario as the editor holds it with one change of shape (a layer added, a layer's kind,
/// a facility added) made by the engine's rules; nothing is saved.
#[tauri::command]
#[specta::specta]
pub async fn reshape_scenario(
    host: Host<'_>,
    scenario: ScenarioSpec,
    change: Reshape,
) -> Result<ScenarioSpec, PlannerError> {
    scenarios::reshape(&*host, &scenario, &change)
}

/// One scenario, whole, for the editor.
#[tauri::command]
#[specta::specta]
pub async fn get_scenario(host: Host<'_>, id: String) -> Result<ScenarioSpec, PlannerError> {
    scenarios::get(&*host, &id)
}

/// Applies and saves one edit.
#[tauri::command]
#[specta::specta]
pub async fn apply_edit(host: Host<'_>, request: EditRequest) -> Result<Applied, PlannerError> {
    scenarios::apply_edit(&*host, &request)
}

/// Takes back the last edit; `None` when there is nothing to undo.
#[tauri::command]
#[specta::specta]
pub async fn undo(host: Host<'_>) -> Result<Option<Applied>, PlannerError> {
    scenarios::undo(&*host)
}

/// Applies again the last edit undone; `None` when there is nothing to redo.
#[tauri::command]
#[specta::specta]
pub async fn redo(host: Host<'_>) -> Result<Option<Applied>, PlannerError> {
    scenarios::redo(&*host)
}

/// One scenario evaluated on its own, for the editor's figures, plans and assumptions.
#[tauri::command]
#[specta::specta]
pub async fn scenario_detail(host: Host<'_>, scenario: ScenarioSpec) -> Result<ScenarioDetail, PlannerError> {
    scenarios::detail(&*host, &scenario)
}

/// The cost of leaving each layer of a scenario that carries an exit clause, at every month of
/// the horizon (the scenario as the editor holds it, like `scenario_detail`).
#[tauri::command]
#[specta::specta]
pub async fn exit_costs(host: Host<'_>, scenario: ScenarioSpec) -> Result<ScenarioExits, PlannerError> {
    scenarios::exit_costs(&*host, &scenario)
}

/// One way out of a scenario (leave a reservation, scale down, downgrade, leave a lease, sell
/// early), priced as a variant against staying.
#[tauri::command]
#[specta::specta]
pub async fn exit_request(
    host: Host<'_>,
    scenario: ScenarioSpec,
    request: ExitRequest,
) -> Result<ExitRequestOutcome, PlannerError> {
    scenarios::exit_request(&*host, &scenario, &request)
}

/// Notice to leave `layer` of a scenario given in `month`, priced as a variant against staying.
#[tauri::command]
#[specta::specta]
pub async fn exit_variant(
    host: Host<'_>,
    scenario: ScenarioSpec,
    layer: String,
    month: u32,
) -> Result<ExitVariantOutcome, PlannerError> {
    scenarios::exit_variant(&*host, &scenario, &layer, month)
}

/// A workload's memory fit on an accelerator of the workspace's catalog.
#[tauri::command]
#[specta::specta]
pub async fn size_workload(
    host: Host<'_>,
    workload: WorkloadSpec,
    accelerator: String,
    gpus_per_server: u32,
) -> Result<Option<SizingPreview>, PlannerError> {
    scenarios::size_workload(&*host, &workload, &accelerator, gpus_per_server)
}

/// Adds the workloads and scenarios of a scenario JSON file (one undo step).
#[tauri::command]
#[specta::specta]
pub async fn import_scenarios(host: Host<'_>, path: String) -> Result<Imported, PlannerError> {
    scenarios::import_file(&*host, Path::new(&path))
}

/// Writes the workspace (or the scenarios `ids`) as a scenario JSON file.
#[tauri::command]
#[specta::specta]
pub async fn export_scenarios(host: Host<'_>, path: String, ids: Option<Vec<String>>) -> Result<(), PlannerError> {
    scenarios::export_file(&*host, Path::new(&path), ids.as_deref())
}

/// Keeps the what-if drivers on `scenario` as a new scenario (one undo step), added to the
/// compare selection when it has room.
#[tauri::command]
#[specta::specta]
pub async fn keep_what_if(host: Host<'_>, what_if: WhatIf, scenario: String) -> Result<KeptWhatIf, PlannerError> {
    scenarios::keep_what_if(&*host, &what_if, &scenario)
}
