//! Where each figure a scenario relies on comes from: a catalog entry at a point of its range,
//! or a user's override and its reason.

use rust_decimal::Decimal;
use serde::Serialize;

use crate::catalog::provenance::Confidence;
use crate::engine::input::scenario_file::PricePoint;

/// Where a figure used by a scenario comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "origin", rename_all = "kebab-case")]
pub enum Origin {
    /// A catalog figure at the chosen point of its range.
    Catalog {
        entry: String,
        field: String,
        point: PricePoint,
        low: Decimal,
        high: Decimal,
        currency: Option<String>,
        as_of: String,
        confidence: Confidence,
        /// The figure's sources as a reader cites them: "title (date)".
        sources: Vec<String>,
    },
    /// A value the user set, and why.
    Override { reason: String },
    /// A value the planner derived by a stated rule from other figures, or its stated default
    /// (issue #44: resale from price-performance, a tax profile's default); neither typed by the
    /// user nor a catalog entry, and never a book value. `rule` says how it was reached.
    Derived { rule: String },
}

/// One figure a scenario relies on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Assumption {
    /// The field in the scenario file the figure fills.
    pub path: String,
    /// The value used, in the plan's currency where it is money.
    pub value: Decimal,
    #[serde(flatten)]
    pub origin: Origin,
}
