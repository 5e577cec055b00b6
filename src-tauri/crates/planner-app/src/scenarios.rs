//! Workloads and scenarios: edits with undo and redo, one scenario's figures, exits and sizing,
//! and scenario files in and out.

use std::path::Path;

use planner_core::error::PlannerError;
use planner_core::plan::{self as core_ws, ExitVariantOutcome, ScenarioDetail, ScenarioExits, SizingPreview};
use planner_core::scenario_file::{self, ScenarioFile, ScenarioSpec, WorkloadSpec};
use planner_store::workspace::{Applied, EditRequest, Imported};

use crate::host::{Host, file_name, with_workspace};

/// One scenario, whole, for the editor.
pub fn get(host: &impl Host, id: &str) -> Result<ScenarioSpec, PlannerError> {
    with_workspace(host, |ws| ws.scenario(id))
}

/// Applies and saves one edit.
pub fn apply_edit(host: &impl Host, request: &EditRequest) -> Result<Applied, PlannerError> {
    with_workspace(host, |ws| {
        let applied = ws.apply(request)?;
        Ok(crate::catalog::weighed(host, ws, applied))
    })
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

/// Adds the workloads and scenarios of the scenario JSON file at `path` (one undo step).
pub fn import_file(host: &impl Host, path: &Path) -> Result<Imported, PlannerError> {
    let file = planner_store::files::read_scenario_file(path)?;
    with_workspace(host, |ws| ws.import(&file, &file_name(path)))
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
