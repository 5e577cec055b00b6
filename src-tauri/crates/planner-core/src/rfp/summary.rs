//! The vendor scorecard as a document carries it: what the decision memo's "Vendor scorecard"
//! section and the workbook's `Scorecard` sheet both print, taken from the scorecard screen's
//! [`ScorecardView`] so that screen, memo and workbook cannot disagree.
//!
//! Nothing is scored here: the ranking, the axis scores, the weights and the stability sentence
//! are the view's (the engine's words, unchanged). This module only sorts the view into what a
//! reader needs: the weights as entered and as shares, the ranked vendors with the scenario each
//! is priced on, the vendors left out of the ranking with what they lack, the vendors no one has
//! reviewed on the D-1 checklist, and each vendor's commitments with the exit terms its quotes
//! state (read from the vendor's scenario: a reserved layer, or owned hardware on a lease).

use rust_decimal::Decimal;
use serde::Serialize;

use crate::engine::input::scenario_file::{FinancingMethod, LayerKind, ScenarioSpec};
use crate::exit_clause::ExitClause;
use crate::rfp::scorecard::{PerAxis, normalise_weights};
use crate::rfp::vendors::{ScorecardDraft, ScorecardView};

/// One ranked vendor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RankedVendor {
    /// 1 for the top vendor.
    pub rank: u32,
    pub name: String,
    /// The id of the scenario the vendor is priced on.
    pub scenario: Option<String>,
    /// That scenario's name.
    pub scenario_name: Option<String>,
    /// The scenario's decision total (total cash plus commitments after the horizon), to the cent.
    pub tco: Option<Decimal>,
    /// 0..1 per axis, relative to the vendors ranked.
    pub axes: PerAxis,
    /// The weighted total, 0..1.
    pub score: Decimal,
    /// The checklist's share passed; `None`: not reviewed (counted as 0).
    pub compliance: Option<Decimal>,
}

/// A vendor left out of the ranking, with what it lacks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PartialVendor {
    pub name: String,
    /// The id of the scenario the vendor is priced on, when one is chosen.
    pub scenario: Option<String>,
    pub scenario_name: Option<String>,
    /// The scenario's total cash, when it evaluates.
    pub tco: Option<Decimal>,
    /// The checklist's share passed; `None`: not reviewed.
    pub compliance: Option<Decimal>,
    /// What is missing or wrong, in the scorecard's words ("the measured MFU is missing").
    pub missing: Vec<String>,
}

/// One commitment of a vendor (a reserved layer, or owned hardware on a lease) and the exit
/// terms its quote states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VendorCommitment {
    /// The layer of the vendor's scenario.
    pub layer: String,
    pub kind: LayerKind,
    /// `None`: the quote states no exit terms (the commitment runs its full term).
    pub exit_clause: Option<ExitClause>,
}

/// A vendor's commitments, in the order of its scenario's layers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VendorExits {
    pub vendor: String,
    /// The id of the scenario the commitments are read from.
    pub scenario: Option<String>,
    /// Empty when the vendor commits to nothing a clause could end (rentals and purchases).
    pub commitments: Vec<VendorCommitment>,
}

/// The scorecard as the memo and the workbook state it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScorecardSummary {
    pub currency: String,
    /// The horizon the vendors' costs are taken over.
    pub horizon_months: u32,
    /// The weights as the buyer typed them (any scale).
    pub entered_weights: PerAxis,
    /// The same divided by their sum; `None` when they are refused (see `weight_problems`).
    pub weights: Option<PerAxis>,
    /// Best first.
    pub ranked: Vec<RankedVendor>,
    /// The stability of the ranking in the engine's words; `None` when nothing is ranked.
    pub stability: Option<String>,
    /// Vendors not ranked, in the buyer's order.
    pub partial: Vec<PartialVendor>,
    /// Vendors with no D-1 checklist record, in the buyer's order: their compliance axis
    /// counts 0.
    pub not_reviewed: Vec<String>,
    /// Why the weights are refused.
    pub weight_problems: Vec<String>,
    /// Every vendor's commitments and their exit terms, in the buyer's order.
    pub exits: Vec<VendorExits>,
}

/// The layers of `spec` that commit the buyer: reserved capacity and owned hardware on a lease.
fn commitments(spec: &ScenarioSpec) -> Vec<VendorCommitment> {
    spec.layers
        .iter()
        .filter(|l| {
            l.kind == LayerKind::Reserved
                || l.exit_clause.is_some()
                || l.financing.as_ref().is_some_and(|f| f.method == FinancingMethod::Lease)
        })
        .map(|l| VendorCommitment {
            layer: l.id.clone(),
            kind: l.kind,
            exit_clause: l.exit_clause.clone(),
        })
        .collect()
}

/// The scorecard of `view` (computed from `draft`) as a document states it; `scenarios` holds
/// (at least) the scenarios the vendors are priced on, for their exit terms. `None` when the
/// scorecard lists no vendor: a document then leaves the scorecard out.
pub fn summary(draft: &ScorecardDraft, view: &ScorecardView, scenarios: &[ScenarioSpec]) -> Option<ScorecardSummary> {
    if view.vendors.is_empty() {
        return None;
    }
    let card = view.scorecard.as_ref();
    let ranked = card
        .map(|c| {
            c.ranking
                .iter()
                .map(|s| {
                    let status = view.vendors.iter().find(|v| v.name == s.name);
                    RankedVendor {
                        rank: s.rank,
                        name: s.name.clone(),
                        scenario: status.and_then(|v| v.scenario.clone()),
                        scenario_name: status.and_then(|v| v.scenario_name.clone()),
                        tco: status.and_then(|v| v.tco),
                        axes: s.axes,
                        score: s.score,
                        compliance: status.and_then(|v| v.compliance),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let partial = view
        .vendors
        .iter()
        .filter(|v| !v.problems.is_empty())
        .map(|v| PartialVendor {
            name: v.name.clone(),
            scenario: v.scenario.clone(),
            scenario_name: v.scenario_name.clone(),
            tco: v.tco,
            compliance: v.compliance,
            missing: v.problems.iter().map(|p| p.message.clone()).collect(),
        })
        .collect();
    let not_reviewed = view
        .vendors
        .iter()
        .filter(|v| v.compliance.is_none())
        .map(|v| v.name.clone())
        .collect();
    let exits = view
        .vendors
        .iter()
        .map(|v| VendorExits {
            vendor: v.name.clone(),
            scenario: v.scenario.clone(),
            commitments: v
                .scenario
                .as_ref()
                .and_then(|id| scenarios.iter().find(|s| &s.id == id))
                .map(commitments)
                .unwrap_or_default(),
        })
        .collect();
    Some(ScorecardSummary {
        currency: view.currency.clone(),
        horizon_months: view.horizon_months,
        entered_weights: draft.weights,
        weights: card
            .map(|c| c.weights)
            .or_else(|| normalise_weights(&draft.weights).ok()),
        ranked,
        stability: view.stability.clone(),
        partial,
        not_reviewed,
        weight_problems: view.problems.iter().map(|p| p.message.clone()).collect(),
        exits,
    })
}
