//! The planning engine: a scenario file in, checked, evaluated and compared; the figures a
//! decision rests on out.
//!
//! The pipeline: [`scenario_file`] (the versioned JSON format) → [`validate`] (with the catalog,
//! a resolved [`scenario::Plan`] or every problem at its JSON path; [`fx`] and [`limits`] check
//! the file's exchange rates and the bounds of its numbers, [`assumption`] records where each
//! figure comes from) → [`evaluate`] (cannot fail: a ledger and totals per scenario) →
//! [`compare`] → [`decision`] (what the screen, the exports and the memo show). [`plan`]
//! evaluates a selection of a workspace's scenarios and places each problem on its item.
//! [`commitment`] and [`exit`] price leaving a contract; [`exit_kinds`] prices every kind of exit
//! (leaving, scaling down, downgrading, leaving a lease, selling early) as a variant against staying. [`draft`], [`layer_form`] and [`ids`] are
//! what the editor starts from (templates, layer forms, ids); [`risk`] draws the ranged figures
//! for the spread of outcomes (Latin hypercube, common random numbers, rank correlation). The building blocks ([`workload`],
//! [`sizing`], [`rack`], [`network`], [`dispatch`], [`spot`], [`ledger`], [`finance`]) take plain
//! numbers and can be called on their own.
//!
//! May import: [`crate::catalog`], [`crate::error`] and the shared modules at the crate root
//! (`problem`, `calendar`, `exit_clause`, `workload_kind`). Never `rfp`, `compliance` or `memo`,
//! which build on it.

pub mod assumption;
pub mod commitment;
pub mod compare;
pub mod decision;
pub mod dispatch;
pub mod draft;
pub mod evaluate;
pub mod exit;
pub mod exit_kinds;
pub mod finance;
pub mod fx;
pub mod ids;
pub mod layer_form;
pub mod ledger;
pub mod limits;
pub mod network;
pub mod operations;
pub mod pack_effect;
pub mod plan;
pub mod rack;
pub mod risk;
pub mod risk_drivers;
pub mod risk_run;
pub mod risk_surface;
pub mod scenario;
pub mod scenario_file;
pub mod sizing;
pub mod spot;
pub mod validate;
pub mod what_if;
pub mod workload;
