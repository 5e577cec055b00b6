//! Catalogs: the sourced reference data (accelerators, cloud offers, facility, fabrics, regions).
//!
//! Catalog files are TOML, one kind per file, documented in `catalogs/README.md`. This module
//! parses and checks their text; reading them from disk is the store's job. [`provenance`] holds
//! where each figure comes from (sources, date, confidence), which the catalog and everything that
//! cites a figure share.
//!
//! May import: only [`crate::problem`] at the crate root, for the horizon and message limits, and
//! [`crate::market_shape`], for the shapes of the price paths and decays the `market` kind ships.
//! Everything else in the crate may build on it.

pub mod diff;
mod issue;
mod load;
mod market_model;
mod model;
pub mod pack;
pub mod provenance;
mod tax_model;

pub(crate) use issue::tagged;
pub use issue::{CatalogError, CatalogIssue, IssueKind};
pub(crate) use load::{Ctx, SrcList, open_toml};
pub use load::{FORMAT_VERSION, ParsedFile, assemble, load, parse_file};
pub use market_model::*;
pub use model::*;
pub use tax_model::*;
