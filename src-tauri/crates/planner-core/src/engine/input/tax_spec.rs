//! The `tax` section of a scenario file: one tax profile for the whole file, from a catalog preset
//! and/or the user's own figures (issue #44; ENGINE_RULES.md, "The after-tax view").
//!
//! A preset fills every field the file does not give; a figure the file gives itself needs a
//! `reason` (a tax adviser's note, the company's own rate). `validate` resolves the section into
//! the plan's tax profile and records each figure as an assumption with its source.

use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::catalog::{TaxConvention, TaxMethod};

/// Which total ranks the scenarios when the file has a tax profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum TaxBasis {
    /// The decision total after the tax the deductions save (the default with a profile).
    #[default]
    AfterTax,
    /// The decision total before tax, as without a profile; the after-tax figures are shown beside.
    BeforeTax,
}

impl TaxBasis {
    /// The basis in words, as the decision states it.
    pub fn words(self) -> &'static str {
        match self {
            TaxBasis::AfterTax => "after tax",
            TaxBasis::BeforeTax => "before tax",
        }
    }
}

/// The file's tax profile. Each field left out comes from `preset`; without a preset, `rate`,
/// `method` and `recovery_years` are required (the convention defaults to none, the bonus share
/// to 0) and `reason` says where they come from.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct TaxSpec {
    /// A catalog tax profile (`planner catalog list --kind tax`) that fills every field not given.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// The tax rate on profits, as a fraction ("0.21" = 21%).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub rate: Option<Decimal>,
    /// How owned capital is depreciated for tax.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub method: Option<TaxMethod>,
    /// The recovery period in years (MACRS GDS: 3, 5 or 7).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub recovery_years: Option<u32>,
    /// none, half-year, or mid-quarter (the quarter follows from the month each owned layer is
    /// placed in service within its tax year).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub convention: Option<TaxConvention>,
    /// The share of the cost deducted in the first tax year on top of the method, 0 to 1.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub bonus_share: Option<Decimal>,
    /// The calendar month (1 to 12) the company's tax year starts in (default 1, January).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub fiscal_year_start_month: Option<u32>,
    /// Which total ranks the scenarios: after-tax (the default) or before-tax.
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub rank: Option<TaxBasis>,
    /// Where the figures not taken from the preset come from (required for them).
    #[serde(default)]
    #[schemars(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
