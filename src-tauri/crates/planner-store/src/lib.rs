//! Compute Planner persistence: everything that touches the disk.
//!
//! For now this is the catalog folder; the workspace file (SQLite) joins it later. The core
//! never reads files: this crate reads them and hands the text to `planner_core`.

pub mod catalog_dir;

pub use catalog_dir::{load_catalog_dir, read_catalog_dir};
