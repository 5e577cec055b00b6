//! Input: the scenario file as it is written (the versioned JSON format, its layer kinds and
//! empty layers), the table of layer fields (with each field's bound, money and quote column), the
//! id rule, the exchange rates, the bounds of its numbers (`bounds`, the limits they are built
//! from; `limits`, the check of a file against them), and the file's tax profile (`tax_spec`).
//! Nothing here knows a catalog or a resolved plan, beyond the words a tax method and convention
//! are written in, which the catalog's tax presets share. The file's price paths and resale
//! decays (issue #44) are written in the shapes the crate root defines
//! (`crate::market_shape::PricePath`, `crate::market_shape::Decay`), which the catalog shares.
//!
//! May import: [`super::blocks`].

pub mod bounds;
pub mod fx;
pub mod ids;
pub mod layer_fields;
pub mod limits;
pub mod scenario_file;
pub mod tax_spec;
