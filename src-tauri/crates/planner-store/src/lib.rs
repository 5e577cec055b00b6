//! Compute Planner persistence: everything that touches the disk.
//!
//! The core never reads files: this crate reads them and hands the text to `planner_core`.
//! `catalog_dir` reads a catalog folder; `quotes` reads RFP quote files (CSV, XLSX), a workbook's references checked first
//! (`sheet_refs`) and its reader `contained`; `pack` reads, checks and writes signed catalog packs; `workspace` is the SQLite workspace file (the source of
//! truth for a client's workloads, scenarios and catalog snapshot); `recent` is the list of
//! recently opened workspaces.

pub mod catalog_dir;
mod contained;
pub mod files;
pub mod pack;
pub mod quotes;
pub mod recent;
mod sheet_refs;
pub mod workspace;

pub use catalog_dir::{load_catalog_dir, read_catalog_dir};
pub use quotes::{read_quotes, read_quotes_in};
pub use workspace::Workspace;
