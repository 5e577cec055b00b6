//! Price paths and resale decays (catalog kind `market`, entries `[[path]]` and `[[resale_decay]]`):
//! how a price moves over a plan, each a dated, sourced assumption with a low, a mid and a high
//! band (issue #44).
//!
//! The shapes are the crate root's (`crate::market_shape`), so that a catalog file and a scenario
//! file spell them alike; the engine computes their multipliers and resolves which entry a
//! scenario follows (ENGINE_RULES.md, "Price paths in the ledger (issue #44)").

use serde::{Deserialize, Serialize};

use super::provenance::Provenance;
use crate::market_shape::{Band, Decay, PricePath};

/// Which price a catalog path moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum PathUse {
    /// The rental price of on-demand, spot and pooled layers (and the price a reservation locks).
    Rental,
    /// Token-metered (API) prices.
    Token,
    /// The purchase price of owned hardware at fixed performance.
    Purchase,
    /// The facility's electricity tariff.
    Electricity,
    /// Staff cost.
    Staff,
    /// Support and maintenance.
    Support,
}

impl PathUse {
    /// The word a file writes (`applies_to`), which is also the scenario file's `market` key.
    pub fn as_str(self) -> &'static str {
        match self {
            PathUse::Rental => "rental",
            PathUse::Token => "token",
            PathUse::Purchase => "purchase",
            PathUse::Electricity => "electricity",
            PathUse::Staff => "staff",
            PathUse::Support => "support",
        }
    }
}

/// A sourced price path with its low, mid and high bands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MarketPath {
    pub id: String,
    pub title: String,
    pub applies_to: PathUse,
    /// Rental: the offer family, the accelerators whose rental follows this path.
    pub accelerators: Vec<String>,
    /// Electricity: the catalog regions whose tariff follows this path.
    pub regions: Vec<String>,
    /// The path used for `applies_to` when no narrower entry matches (at most one per use).
    pub default: bool,
    /// The cheapest price outcome.
    pub low: PricePath,
    pub mid: PricePath,
    /// The dearest price outcome.
    pub high: PricePath,
    pub provenance: Provenance,
    pub notes: Option<String>,
}

impl MarketPath {
    /// The path of one band.
    pub fn band(&self, band: Band) -> &PricePath {
        match band {
            Band::Low => &self.low,
            Band::Mid => &self.mid,
            Band::High => &self.high,
        }
    }
}

/// A sourced price-performance decay (for resale derived from newer generations) with its bands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ResaleDecayEntry {
    pub id: String,
    pub title: String,
    /// The decay used when a scenario follows the catalog's defaults (at most one).
    pub default: bool,
    /// The fastest fall (the lowest resale).
    pub low: Decay,
    pub mid: Decay,
    /// The slowest fall (the highest resale).
    pub high: Decay,
    pub provenance: Provenance,
    pub notes: Option<String>,
}

impl ResaleDecayEntry {
    /// The decay of one band.
    pub fn band(&self, band: Band) -> Decay {
        match band {
            Band::Low => self.low,
            Band::Mid => self.mid,
            Band::High => self.high,
        }
    }
}
