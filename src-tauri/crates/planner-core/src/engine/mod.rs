//! The planning engine: a scenario file in, checked, evaluated and compared; the figures a
//! decision rests on out.
//!
//! The engine is ten rooms, each a folder with one reason to change. From the bottom up:
//!
//! - [`input`]: the scenario file as written, the id rule, exchange rates, bounds of numbers;
//! - [`blocks`]: building blocks on plain numbers (finance, sizing, rack, network, spot, the
//!   allocation of demand to layers);
//! - [`model`]: the resolved plan, where each figure comes from, the ledger, commitments;
//! - [`resolve`]: file + catalog → a plan, or every problem at its JSON path;
//! - [`costing`]: plan → ledger and figures (cannot fail);
//! - [`decide`]: the figures between scenarios and what the screens, exports and memo show;
//! - [`exit`]: what leaving costs, and every way out as a priced plan variant;
//! - [`risk`]: the spread of outcomes over drawn figures;
//! - [`editing`]: templates, layer forms, the live what-if, a catalog pack's effect;
//! - [`workspace`]: the workspace's content assembled and a selection of it evaluated.
//!
//! Each room's `mod.rs` names the rooms it may import; `tests/tests/architecture.rs` holds the
//! same table and fails on any other edge between rooms. Every room may import the crate's
//! shared modules (`problem`, `calendar`, `exit_clause`, `workload_kind`), [`crate::catalog`]
//! and [`crate::error`]; never `rfp`, `compliance` or `memo`, which build on the engine.

pub mod blocks;
pub mod costing;
pub mod decide;
pub mod editing;
pub mod exit;
pub mod input;
pub mod model;
pub mod resolve;
pub mod risk;
pub mod workspace;
