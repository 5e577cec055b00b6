//! Compute Planner's domain core.
//!
//! Everything here is a pure function of its arguments: no file, clock, network or Tauri. The
//! shell, the command line and the tests call the same functions and get the same answers.
//!
//! The planning engine reads as a pipeline:
//! `scenario_file::parse` (JSON text → [`scenario_file::ScenarioFile`]) →
//! `validate::validate` (file + catalog → [`scenario::Plan`], or every problem with its JSON path) →
//! `evaluate::evaluate` (plan → ledger and figures; cannot fail) →
//! `compare::compare_all` (decision figures between scenarios) → `decision::decision_view` (what
//! the screen, the exports and the memo show). `workspace` evaluates a selection of a workspace's
//! scenarios and places each problem on the item it belongs to.
//! `exit` prices exit clauses (the cost of leaving a contract at any month, and the plan variant
//! that leaves), `quote` reads RFP quote tables into quotes and turns each into a supply layer,
//! and `scorecard` ranks vendors on five weighted axes with the smallest weight
//! change that would change the top vendor; `vendors` holds the scorecard as the buyer keeps it
//! (weights, each vendor's figures, its scenario), the import preview of quotes and the
//! scorecard screen computed with the engine's cost and the checklist's compliance.
//! `checklist` holds the D-1 compliance checklist (template loader, answers, the cleared rule,
//! hints from the plan) and `audit` the hash-chained log of its changes.
//! The building blocks (`finance`, `sizing`, `rack`, `network`, `spot`, `dispatch`) take plain
//! numbers and can be called on their own.

pub mod assumption;
pub mod audit;
pub mod calendar;
pub mod catalog;
pub mod checklist;
pub mod commitment;
pub mod compare;
pub mod decision;
pub mod dispatch;
pub mod error;
pub mod evaluate;
pub mod exit;
pub mod exit_clause;
pub mod finance;
pub mod fx;
pub mod ledger;
pub mod limits;
pub mod memo;
pub mod network;
pub mod problem;
pub mod quote;
pub mod rack;
pub mod scenario;
pub mod scenario_file;
pub mod scorecard;
pub mod sizing;
pub mod spot;
pub mod validate;
pub mod vendors;
pub mod workload;
pub mod workload_kind;
pub mod workspace;
/// The provenance of catalog figures lives with the catalog; this is its old path.
pub use catalog::provenance;
