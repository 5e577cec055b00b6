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
//!   [`exit_clause`] (a contract's exit clause as it is written), [`workload_kind`] (what a
//!   workload is, in the scenario file's words) and [`market_shape`] (a price path and a
//!   price-performance decay as a file writes them, with their refusals);
//! - [`catalog`]: the sourced reference data and its provenance, parsed and checked;
//! - [`error`]: the one error shape that crosses every boundary, which can carry catalog issues;
//! - [`engine`]: the planning engine, from the scenario file to the decision figures;
//! - on top of the engine, side by side and unaware of each other: [`rfp`] (quotes, the vendor
//!   scorecard), [`compliance`] (the D-1 checklist and its audit log) and [`memo`] (the decision
//!   memo as its author writes it, and the record of each memo made).
//!
//! The planning engine reads as a pipeline through its rooms (see [`engine`]):
//! `engine::input::scenario_file::parse` (JSON text → a scenario file) →
//! `engine::resolve::validate::validate` (file + catalog → a plan, or every problem with its JSON
//! path) → `engine::costing::evaluate::evaluate` (plan → ledger and figures; cannot fail) →
//! `engine::decide::compare::compare_all` → `engine::decide::decision::decision_view` (what the
//! screen, the exports and the memo show). Other crates name every item by its room's path; the
//! crate root re-exports nothing.
//! On top of the engine: `rfp::quote` reads RFP quote tables into quotes and turns each into a
//! supply layer, `rfp::scorecard` ranks vendors on five weighted axes, `rfp::vendors` holds the
//! scorecard as the buyer keeps it and `rfp::summary` sorts it for a document;
//! `compliance::checklist` holds the D-1 checklist and `compliance::audit` the hash-chained log
//! of its changes.

pub mod calendar;
pub mod catalog;
pub mod compliance;
pub mod edit;
pub mod engine;
pub mod error;
pub mod exit_clause;
pub mod market_shape;
pub mod memo;
pub mod problem;
pub mod rfp;
pub mod workload_kind;
