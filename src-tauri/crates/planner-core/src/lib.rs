//! Compute Planner's domain core.
//!
//! Everything here is a pure function of its arguments: no file, clock, network or Tauri. The
//! shell, the command line and the tests call the same functions and get the same answers.
//!
//! The crate is four rooms, one per reason to change, over a few shared modules; each room
//! imports only what is below it, so the order is one-way and no module imports one that imports
//! it back (`tests/tests/architecture.rs` checks it):
//!
//! - at the bottom, the vocabulary every room shares: [`problem`] (a problem at its JSON path,
//!   the longest horizon, how messages quote input), [`calendar`] (months of the horizon),
//!   [`exit_clause`] (a contract's exit clause as it is written) and [`workload_kind`] (what a
//!   workload is, in the scenario file's words);
//! - [`catalog`]: the sourced reference data and its provenance, parsed and checked;
//! - [`error`]: the one error shape that crosses every boundary, which can carry catalog issues;
//! - [`engine`]: the planning engine, from the scenario file to the decision figures;
//! - on top of the engine, side by side and unaware of each other: [`rfp`] (quotes, the vendor
//!   scorecard), [`compliance`] (the D-1 checklist and its audit log) and [`memo`] (the decision
//!   memo as its author writes it, and the record of each memo made).
//!
//! The planning engine reads as a pipeline:
//! `scenario_file::parse` (JSON text → [`scenario_file::ScenarioFile`]) →
//! `validate::validate` (file + catalog → [`scenario::Plan`], or every problem with its JSON path) →
//! `evaluate::evaluate` (plan → ledger and figures; cannot fail) →
//! `compare::compare_all` (decision figures between scenarios) → `decision::decision_view` (what
//! the screen, the exports and the memo show). `plan` evaluates a selection of a workspace's
//! scenarios and places each problem on the item it belongs to.
//! `exit` prices exit clauses (the cost of leaving a contract at any month, and the plan variant
//! that leaves), `quote` reads RFP quote tables into quotes and turns each into a supply layer,
//! and `scorecard` ranks vendors on five weighted axes with the smallest weight
//! change that would change the top vendor; `vendors` holds the scorecard as the buyer keeps it
//! (weights, each vendor's figures, its scenario), the import preview of quotes and the
//! scorecard screen computed with the engine's cost and the checklist's compliance;
//! `rfp::summary` sorts that screen for a document (the memo's and the workbook's scorecard).
//! `checklist` holds the D-1 compliance checklist (template loader, answers, the cleared rule,
//! hints from the plan) and `audit` the hash-chained log of its changes.
//! The building blocks (`finance`, `sizing`, `rack`, `network`, `spot`, `dispatch`) take plain
//! numbers and can be called on their own.

pub mod calendar;
pub mod catalog;
pub mod compliance;
pub mod engine;
pub mod error;
pub mod exit_clause;
pub mod memo;
pub mod problem;
pub mod rfp;
pub mod workload_kind;

// The stable paths: every module keeps the path it had before the core was split into rooms, so
// the other crates, the tests and the benches need not change. New code may use either.
pub use catalog::provenance;
pub use compliance::{audit, checklist};
pub use engine::{
    assumption, commitment, compare, decision, dispatch, draft, evaluate, exit, exit_kinds, finance, fx, ids,
    layer_form, ledger, limits, network, operations, pack_effect, plan, rack, risk, risk_drivers, risk_run,
    risk_surface, scenario, scenario_file, sizing, spot, validate, what_if, workload,
};
pub use rfp::{quote, scorecard, vendors};
