//! Workloads and scenarios: edits with undo and redo, one scenario's figures, exits and sizing,
//! and scenario files in and out.

use std::path::Path;

use planner_core::edit::EditRequest;
use planner_core::engine::editing::draft::{self, Draft, TemplateKind};
use planner_core::engine::editing::layer_form::{self, LayerForm};
use planner_core::engine::editing::what_if::{DriverKind, WhatIf};
use planner_core::engine::input::scenario_file::{self, LayerKind, ScenarioFile, ScenarioSpec, WorkloadSpec};
use planner_core::engine::workspace::content::{
    self as core_ws, ExitVariantOutcome, ScenarioDetail, ScenarioExits, SizingPreview,
};
use planner_core::error::PlannerError;
use planner_core::workload_kind::WorkloadKind;
use planner_store::workspace::{Applied, Imported};
use serde::{Deserialize, Serialize};

use crate::host::{Host, file_name, with_workspace};

/// What a new scenario starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum DraftFrom {
    /// A template (Buy, Rent, Hybrid) on the workspace's catalog and currency.
    Template { template: TemplateKind },
    /// A copy of the saved scenario `scenario`.
    Copy { scenario: String },
}

/// A change to a scenario's shape that the engine's rules decide (see `planner_core::engine::editing::layer_form`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Reshape {
    /// Adds a layer of `layer_kind` on the accelerator the scenario already uses.
    AddLayer { layer_kind: LayerKind },
    /// Switches the layer at `index` to `layer_kind`, emptying the fields that kind does not take.
    LayerKind { index: u32, layer_kind: LayerKind },
    /// Adds a facility with the catalog's defaults for the owned layer's accelerator.
    AddFacility,
}

/// What the editor shows for each kind of layer: the fields it takes and an empty layer of it.
pub fn layer_forms(_host: &impl Host) -> Vec<LayerForm> {
    layer_form::forms()
}

/// A new scenario (not saved: the editor adds it as an edit) with an id unique in the workspace,
/// from a template on the workspace's catalog and currency, or as a copy of a saved scenario;
/// what the draft could not choose is in its notes.
pub fn draft(host: &impl Host, from: &DraftFrom) -> Result<Draft, PlannerError> {
    with_workspace(host, |ws| {
        let taken: Vec<String> = ws.scenario_summaries()?.into_iter().map(|s| s.id).collect();
        Ok(match from {
            DraftFrom::Template { template } => {
                draft::from_template(*template, ws.catalog(), &ws.settings().currency, &taken)
            }
            DraftFrom::Copy { scenario } => Draft {
                scenario: draft::copy_of(&ws.scenario(scenario)?, &taken),
                notes: Vec::new(),
            },
        })
    })
}

/// A new workload (not saved: the editor adds it as an edit) named `name`, of `kind`, with an id
/// unique in the workspace and the engine's defaults.
pub fn draft_workload(host: &impl Host, name: &str, kind: WorkloadKind) -> Result<WorkloadSpec, PlannerError> {
    with_workspace(host, |ws| {
        let taken: Vec<String> = ws.workloads().iter().map(|w| w.id.clone()).collect();
        Ok(draft::new_workload(name, kind, &taken))
    })
}

/// `scenario` (as the editor holds it) with `change` applied by the engine's rules on the
/// workspace's catalog; nothing is saved.
pub fn reshape(host: &impl Host, scenario: &ScenarioSpec, change: &Reshape) -> Result<ScenarioSpec, PlannerError> {
    with_workspace(host, |ws| {
        let catalog = ws.catalog();
        let mut out = scenario.clone();
        match change {
            Reshape::AddLayer { layer_kind } => out.layers.push(layer_form::new_layer(scenario, *layer_kind, catalog)),
            Reshape::LayerKind { index, layer_kind } => {
                let slot = usize::try_from(*index).ok().and_then(|i| out.layers.get_mut(i));
                let Some(layer) = slot else {
                    let n = scenario.layers.len();
                    return Err(PlannerError::invalid(
                        "index",
                        format!("the scenario has {n} layers; there is no layer {index} to change"),
                    ));
                };
                *layer = layer_form::change_kind(layer, *layer_kind, catalog);
            }
            Reshape::AddFacility => {
                let facility = draft::facility_for_scenario(scenario, catalog, &ws.settings().currency);
                let Some(facility) = facility else {
                    return Err(PlannerError::invalid(
                        "facility",
                        "the workspace catalog has no cooling technology or no region with a tariff: choose the facility by hand",
                    ));
                };
                out.facility = Some(facility);
            }
        }
        Ok(out)
    })
}

/// One scenario, whole, for the editor.
pub fn get(host: &impl Host, id: &str) -> Result<ScenarioSpec, PlannerError> {
    with_workspace(host, |ws| ws.scenario(id))
}

/// Applies and saves one edit.
pub fn apply_edit(host: &impl Host, request: &EditRequest) -> Result<Applied, PlannerError> {
    with_workspace(host, |ws| {
        let applied = ws.apply(request, host.now_ms())?;
        Ok(crate::catalog::weighed(host, ws, applied))
    })
}

/// The scenario a kept what-if made.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct KeptWhatIf {
    pub id: String,
    pub name: String,
    /// The edit as applied (the new scenario, the history), for the screen's lists.
    pub applied: Applied,
    /// The compare view after it: the new scenario appended, the horizon of a Horizon driver.
    pub view: planner_core::engine::workspace::content::ViewState,
}

/// Keeps the drivers of `what_if` on `scenario` as a new scenario: a copy named "<name>
/// (what-if)" (name and id unique) with the drivers written as overrides whose reason is
/// `workshop what-if, YYYY-MM-DD` (today, UTC, by the host's clock), added in one undo step and
/// appended to the compare selection when it has room. The Horizon driver is not a scenario
/// figure: it sets the compare view's horizon (a view, not an undo step).
pub fn keep_what_if(host: &impl Host, what_if: &WhatIf, scenario: &str) -> Result<KeptWhatIf, PlannerError> {
    let stamp = planner_store::workspace::format_utc(host.now_ms());
    let reason = format!("workshop what-if, {}", stamp.get(..10).unwrap_or(&stamp));
    let what_if = WhatIf {
        drivers: what_if.drivers.clone(),
        scenario: Some(scenario.to_owned()),
    };
    with_workspace(host, |ws| {
        let original = ws.scenario(scenario)?;
        let summaries = ws.scenario_summaries()?;
        let taken: Vec<String> = summaries.iter().map(|s| s.id.clone()).collect();
        let names: Vec<String> = summaries.iter().map(|s| s.name.clone()).collect();
        let file = core_ws::to_scenario_file(ws.settings(), ws.workloads(), std::slice::from_ref(&original));
        let changed = planner_core::engine::editing::what_if::apply(&file, ws.catalog(), &what_if, &reason)
            .map_err(|p| crate::compare::what_if_error(&p))?;
        let mut kept = changed.scenarios.into_iter().next().unwrap_or(original);
        kept.name = unique_name(&format!("{} (what-if)", kept.name), &names);
        kept.id = planner_core::engine::input::ids::unique_id(&kept.name, &taken, "scenario");
        let request = EditRequest {
            edit: planner_core::edit::Edit::PutScenario { scenario: kept.clone() },
            label: format!("Keep what-if as \"{}\"", kept.name),
            coalesce: None,
        };
        let applied = ws.apply(&request, host.now_ms())?;
        let applied = crate::catalog::weighed(host, ws, applied);
        let mut view = ws.view()?;
        if view.selected.len() < planner_core::engine::decide::decision::MAX_COMPARED {
            view.selected.push(kept.id.clone());
        }
        if let Some(h) = what_if.drivers.iter().find(|d| d.kind == DriverKind::Horizon) {
            view.horizon_months = u32::try_from(h.value).ok();
        }
        let view = ws.set_view(&view)?;
        Ok(KeptWhatIf {
            id: kept.id,
            name: kept.name,
            applied,
            view,
        })
    })
}

/// `name`, or `name 2`, `name 3`… the first not in `names`.
fn unique_name(name: &str, names: &[String]) -> String {
    let mut candidate = name.to_owned();
    let mut n = 2;
    while names.contains(&candidate) {
        candidate = format!("{name} {n}");
        n += 1;
    }
    candidate
}

/// Takes back the last edit; `None` when there is nothing to undo.
pub fn undo(host: &impl Host) -> Result<Option<Applied>, PlannerError> {
    with_workspace(host, |ws| Ok(ws.undo()?.map(|a| crate::catalog::weighed(host, ws, a))))
}

/// Applies again the last edit undone; `None` when there is nothing to redo.
pub fn redo(host: &impl Host) -> Result<Option<Applied>, PlannerError> {
    with_workspace(host, |ws| Ok(ws.redo()?.map(|a| crate::catalog::weighed(host, ws, a))))
}

/// One scenario evaluated on its own (as the editor holds it), for the editor's figures, plans
/// and assumptions.
pub fn detail(host: &impl Host, scenario: &ScenarioSpec) -> Result<ScenarioDetail, PlannerError> {
    with_workspace(host, |ws| {
        Ok(core_ws::scenario_detail(
            ws.catalog(),
            ws.settings(),
            ws.workloads(),
            scenario,
        ))
    })
}

/// The cost of leaving each layer of a scenario that carries an exit clause, at every month of
/// the horizon.
pub fn exit_costs(host: &impl Host, scenario: &ScenarioSpec) -> Result<ScenarioExits, PlannerError> {
    with_workspace(host, |ws| {
        Ok(core_ws::scenario_exits(
            ws.catalog(),
            ws.settings(),
            ws.workloads(),
            scenario,
        ))
    })
}

/// Notice to leave `layer` of a scenario given in `month`, priced as a variant against staying.
pub fn exit_variant(
    host: &impl Host,
    scenario: &ScenarioSpec,
    layer: &str,
    month: u32,
) -> Result<ExitVariantOutcome, PlannerError> {
    with_workspace(host, |ws| {
        Ok(core_ws::scenario_exit_variant(
            ws.catalog(),
            ws.settings(),
            ws.workloads(),
            scenario,
            layer,
            month,
        ))
    })
}

/// One way out of a scenario (leave a reservation, scale down, downgrade, leave a lease, sell
/// early), priced as a variant against staying.
pub fn exit_request(
    host: &impl Host,
    scenario: &ScenarioSpec,
    request: &planner_core::engine::exit::kinds::ExitRequest,
) -> Result<planner_core::engine::workspace::content::ExitRequestOutcome, PlannerError> {
    with_workspace(host, |ws| {
        Ok(core_ws::scenario_exit_request(
            ws.catalog(),
            ws.settings(),
            ws.workloads(),
            scenario,
            request,
        ))
    })
}

/// A workload's memory fit on an accelerator of the workspace's catalog.
pub fn size_workload(
    host: &impl Host,
    workload: &WorkloadSpec,
    accelerator: &str,
    gpus_per_server: u32,
) -> Result<Option<SizingPreview>, PlannerError> {
    with_workspace(host, |ws| {
        Ok(core_ws::size_workload(
            ws.catalog(),
            workload,
            accelerator,
            gpus_per_server,
        ))
    })
}

/// Reads and checks the scenario file at `path` (JSON, every problem located).
pub fn read_file(path: &Path) -> Result<ScenarioFile, PlannerError> {
    planner_store::files::read_scenario_file(path)
}

/// Adds the workloads and scenarios of the scenario JSON file at `path` (one undo step).
pub fn import_file(host: &impl Host, path: &Path) -> Result<Imported, PlannerError> {
    let file = planner_store::files::read_scenario_file(path)?;
    with_workspace(host, |ws| ws.import(&file, &file_name(path), host.now_ms()))
}

/// The workspace (or the scenarios `ids`) as a scenario file.
pub fn export(host: &impl Host, ids: Option<&[String]>) -> Result<ScenarioFile, PlannerError> {
    with_workspace(host, |ws| ws.export(ids))
}

/// Writes the workspace (or the scenarios `ids`) as a scenario JSON file at `path`.
pub fn export_file(host: &impl Host, path: &Path, ids: Option<&[String]>) -> Result<(), PlannerError> {
    let file = export(host, ids)?;
    planner_store::files::write_atomic(path, scenario_file::to_json(&file).as_bytes())
}
