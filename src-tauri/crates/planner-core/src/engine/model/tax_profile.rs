//! The plan's tax profile, resolved: the rate, the depreciation schedules for each quarter an
//! asset may be placed in service in, the company's tax year and the basis that ranks
//! (ENGINE_RULES.md, "The after-tax view").

use rust_decimal::Decimal;
use serde::Serialize;

use crate::catalog::{TaxConvention, TaxMethod};
use crate::engine::input::tax_spec::TaxBasis;

/// A tax profile as `evaluate` uses it. `validate` computed the schedules, so evaluation cannot
/// fail on them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TaxProfile {
    /// The tax rate on profits, as a fraction: every deduction saves `rate ×` its amount.
    pub rate: Decimal,
    pub method: TaxMethod,
    pub recovery_years: u32,
    pub convention: TaxConvention,
    pub bonus_share: Decimal,
    /// The calendar month (1 to 12) each tax year starts in.
    pub fiscal_year_start_month: u32,
    /// Which total ranks the scenarios.
    pub rank: TaxBasis,
    /// The share of the depreciable basis deducted in each tax year, year 1 first (adding to 1):
    /// one schedule, or, under the mid-quarter convention, one per quarter of the tax year the
    /// asset is placed in service in (`[0]` for the first quarter).
    pub schedules: Vec<Vec<Decimal>>,
}

impl TaxProfile {
    /// The months since the start of its tax year of calendar month `month` (1 to 12): 0 for the
    /// first month of the tax year, 11 for its last.
    pub fn month_of_tax_year(&self, month: u32) -> u32 {
        (month + 12 - self.fiscal_year_start_month.clamp(1, 12)) % 12
    }

    /// Whether calendar month `month` (1 to 12) is the last month of a tax year.
    pub fn ends_tax_year(&self, month: u32) -> bool {
        self.month_of_tax_year(month) == 11
    }

    /// The schedule of an asset placed in service in calendar month `month` (1 to 12): under the
    /// mid-quarter convention, that of the quarter of the tax year the month falls in.
    pub fn schedule_for(&self, month: u32) -> &[Decimal] {
        let quarter = (self.month_of_tax_year(month) / 3) as usize;
        let pick = if self.schedules.len() == 4 { quarter } else { 0 };
        self.schedules.get(pick).map_or(&[], Vec::as_slice)
    }
}
