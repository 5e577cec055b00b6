//! The edits a person makes to a workspace's content: one [`Edit`] at a time, named for the undo
//! menu by an [`EditRequest`]. The store applies them as undo steps; the app's use cases and the
//! command line make them.

use serde::{Deserialize, Serialize};

use crate::engine::input::scenario_file::{ScenarioSpec, WorkloadSpec};
use crate::engine::workspace::content::WorkspaceSettings;
use crate::memo::MemoDraft;
use crate::rfp::vendors::ScorecardDraft;

/// One change a person makes.
// An edit lives for one command call; boxing its variants would save nothing worth the noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Edit {
    Settings {
        settings: WorkspaceSettings,
    },
    /// Adds the workload, or replaces the one with its id.
    PutWorkload {
        workload: WorkloadSpec,
    },
    DeleteWorkload {
        id: String,
    },
    /// Adds the scenario, or replaces the one with its id.
    PutScenario {
        scenario: ScenarioSpec,
    },
    DeleteScenario {
        id: String,
    },
    /// Replaces the memo draft (decision, rationale, author, scenarios, paper).
    Memo {
        memo: MemoDraft,
    },
    /// Replaces the vendor scorecard (weights, vendors and their figures).
    Scorecard {
        scorecard: ScorecardDraft,
    },
}

/// An edit with what the undo menu calls it. Edits with the same `coalesce` key that follow each
/// other within two seconds merge into one undo step (typing in a field is one step, not one per
/// key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EditRequest {
    pub edit: Edit,
    pub label: String,
    #[serde(default)]
    pub coalesce: Option<String>,
}
