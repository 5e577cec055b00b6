//! What crosses the boundary: the workspace as the UI lists it, the edits it sends, and what an
//! edit, an undo or a redo changed.

use planner_core::engine::input::scenario_file::{LayerKind, ScenarioSpec, WorkloadSpec};
use planner_core::engine::workspace::content::{BaselineLock, ViewState, WorkspaceSettings};
use planner_core::memo::MemoDraft;
use planner_core::rfp::vendors::ScorecardDraft;
use serde::{Deserialize, Serialize};

/// A scenario as the list shows it, without its body (a workspace may hold thousands).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioSummary {
    pub id: String,
    pub name: String,
    /// The kind of each supply layer, in order.
    pub layers: Vec<LayerKind>,
    /// Catalog accelerator or offer ids the layers name.
    pub supplies: Vec<String>,
    /// How many values replace a catalog figure.
    pub overrides: u32,
}

impl ScenarioSummary {
    pub fn of(s: &ScenarioSpec) -> ScenarioSummary {
        let overrides = serde_json::to_value(s).map_or(0, |v| count_overrides(&v));
        ScenarioSummary {
            id: s.id.clone(),
            name: s.name.clone(),
            layers: s.layers.iter().map(|l| l.kind).collect(),
            supplies: s
                .layers
                .iter()
                .filter_map(|l| l.accelerator.clone().or_else(|| l.offer.clone()))
                .collect(),
            overrides,
        }
    }
}

/// Counts overrides anywhere in a scenario: objects with a `value` and a `reason` and nothing
/// else but a `currency` (an override priced in another currency than the workspace's counts
/// like any other).
fn count_overrides(v: &serde_json::Value) -> u32 {
    match v {
        serde_json::Value::Object(map) => {
            let shape = map
                .keys()
                .all(|k| matches!(k.as_str(), "value" | "reason" | "currency"));
            let own = u32::from(shape && map.contains_key("value") && map.contains_key("reason"));
            own + map.values().map(count_overrides).sum::<u32>()
        }
        serde_json::Value::Array(items) => items.iter().map(count_overrides).sum(),
        _ => 0,
    }
}

/// Where undo and redo stand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct History {
    pub can_undo: bool,
    pub can_redo: bool,
    /// What undo would take back, e.g. "Edit scenario Buy 64 × H100".
    pub undo_label: Option<String>,
    pub redo_label: Option<String>,
    /// Rises with every edit, undo and redo; the UI drops answers older than what it shows.
    pub revision: u32,
}

/// The catalog snapshot a workspace computes with, and whether the app ships a newer one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogStatus {
    /// The data version of the snapshot in the workspace, e.g. "2026.11.0".
    pub version: String,
    /// When the snapshot was taken, UTC, "YYYY-MM-DD HH:MM".
    pub taken: String,
    /// The version of the catalog the app ships, when it could be read.
    pub shipped_version: Option<String>,
    /// The shipped catalog is newer than the snapshot: the numbers are still the snapshot's
    /// until the user updates it.
    pub newer_available: bool,
}

/// The open workspace, as the UI lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct WorkspaceInfo {
    pub path: String,
    pub settings: WorkspaceSettings,
    pub workloads: Vec<WorkloadSpec>,
    pub scenarios: Vec<ScenarioSummary>,
    pub view: ViewState,
    pub history: History,
    pub catalog: CatalogStatus,
    /// Why the workspace is open read-only (it can be read, exported, verified and saved
    /// elsewhere, not changed); `None` when it can be changed.
    pub read_only: Option<String>,
    /// The locked baseline (issue #17); `None` when nothing is locked.
    pub lock: Option<BaselineLock>,
}

/// An item as it is after an edit, undo or redo (`None`: it no longer exists).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Changed {
    Settings {
        settings: WorkspaceSettings,
    },
    Workload {
        id: String,
        workload: Option<WorkloadSpec>,
    },
    Scenario {
        id: String,
        summary: Option<ScenarioSummary>,
    },
    Catalog {
        status: CatalogStatus,
    },
    Memo {
        memo: MemoDraft,
    },
    Scorecard {
        scorecard: ScorecardDraft,
    },
}

/// What an edit, undo or redo did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Applied {
    pub history: History,
    /// The label of the step applied or taken back.
    pub label: String,
    pub changed: Vec<Changed>,
}

/// What importing a scenario file added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Imported {
    pub applied: Applied,
    pub workloads: u32,
    pub scenarios: u32,
    /// Ids that were taken and were renamed, as "old → new".
    pub renamed: Vec<String>,
}

/// What importing an RFP quote file added (one undo step).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct QuotesImported {
    pub applied: Applied,
    pub quotes: u32,
    /// The vendors, in the order they first appear in the file.
    pub vendors: Vec<String>,
    /// The scenario made for each vendor, in the same order.
    pub scenarios: Vec<String>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::ScenarioSummary;

    #[test]
    fn overrides_are_counted_as_a_file_shows_them() {
        // Two overrides in the workspace's currency and one with a currency of its own: three.
        let spec: planner_core::engine::input::scenario_file::ScenarioSpec = serde_json::from_str(
            r#"{"id": "s", "name": "S", "layers": [
                {"id": "a", "kind": "owned", "price_per_gpu": {"value": "1", "reason": "q"},
                 "peak_tflops": {"value": "2", "reason": "m"}},
                {"id": "b", "kind": "on-demand", "price_per_gpu_hour": {"value": "3", "currency": "EUR", "reason": "q"}}
            ]}"#,
        )
        .unwrap();
        assert_eq!(ScenarioSummary::of(&spec).overrides, 3);
    }
}
