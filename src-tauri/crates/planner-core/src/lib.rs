//! Compute Planner's domain core.
//!
//! Everything here is a pure function of its arguments: no file, clock, network or Tauri. The
//! shell, the command line and the tests call the same functions and get the same answers.

pub mod catalog;
pub mod error;
pub mod provenance;
