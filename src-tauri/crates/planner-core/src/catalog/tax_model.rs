//! Tax profile presets (catalog kind `tax`, entries `[[tax_profile]]`): a jurisdiction's income
//! tax rate and how it lets computer hardware be depreciated, each with its sources (issue #44).
//!
//! The words for a depreciation method and a convention are written here, at the bottom of the
//! crate, so that a catalog file and a scenario file spell them alike; the engine's tax block
//! (`engine::blocks::tax`) computes the schedules they name.

use serde::{Deserialize, Serialize};

use super::provenance::{Figure, Provenance};

/// How a tax profile spreads the cost of capital over its recovery period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum TaxMethod {
    /// Equal deductions over the recovery period.
    StraightLine,
    /// 150% declining balance, switching to straight line when that gives more.
    #[serde(rename = "declining-balance-150")]
    DecliningBalance150,
    /// 200% declining balance, switching to straight line when that gives more.
    #[serde(rename = "declining-balance-200")]
    DecliningBalance200,
    /// The US MACRS General Depreciation System (200% declining balance for the 3-, 5- and
    /// 7-year classes, with the half-year or the mid-quarter convention).
    MacrsGds,
}

impl TaxMethod {
    /// The method as a file writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            TaxMethod::StraightLine => "straight-line",
            TaxMethod::DecliningBalance150 => "declining-balance-150",
            TaxMethod::DecliningBalance200 => "declining-balance-200",
            TaxMethod::MacrsGds => "macrs-gds",
        }
    }
}

/// When in its first tax year an asset counts as placed in service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum TaxConvention {
    /// A full year's deduction in the first tax year.
    None,
    /// Half a year's deduction in the first tax year, whenever in it the asset arrives.
    HalfYear,
    /// The middle of the quarter of the tax year the asset is placed in service in (7/8, 5/8,
    /// 3/8 or 1/8 of a year's deduction in the first tax year).
    MidQuarter,
}

impl TaxConvention {
    /// The convention as a file writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            TaxConvention::None => "none",
            TaxConvention::HalfYear => "half-year",
            TaxConvention::MidQuarter => "mid-quarter",
        }
    }
}

/// A sourced tax profile: a jurisdiction's rate on company profits and its depreciation rule for
/// computer hardware.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TaxPreset {
    pub id: String,
    pub title: String,
    pub jurisdiction: String,
    /// The tax rate on profits, as a fraction ("0.21" = 21%): one figure, never a range.
    pub rate: Figure,
    pub method: TaxMethod,
    pub recovery_years: u32,
    pub convention: TaxConvention,
    /// The share of the cost deducted in the first tax year on top of the method (0 to 1).
    pub bonus_share: Figure,
    /// Where the method, the recovery period and the convention come from.
    pub provenance: Provenance,
    pub notes: Option<String>,
}
