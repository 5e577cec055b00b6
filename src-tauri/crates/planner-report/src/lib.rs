//! Compute Planner's reports: what leaves the app besides the screen.
//!
//! Everything here reads a [`DecisionView`](planner_core::decision::DecisionView) (and, for the
//! monthly ledger, the [`Evaluation`](planner_core::evaluate::Evaluation) it came from) and
//! returns bytes or text; nothing is read from or written to disk, and nothing here reaches a
//! clock except the XLSX writer's document creation date.
//!
//! - [`charts`]: the cumulative-cash and monthly-cash charts as self-contained SVG (plotters),
//!   for the screen now and the PDF memo later.
//! - [`export`]: the comparison as an XLSX workbook (with one ledger sheet per scenario) and as
//!   CSV, and one scenario's ledger as CSV.
//! - [`screen`]: what the shell's compare-screen and export commands return, built from the two.
//!
//! Money stays `Decimal` until the last step: the view's presented values (cents, half-even) are
//! converted to `f64` only for a chart coordinate or a spreadsheet cell.

pub mod charts;
pub mod export;
pub mod screen;

use planner_core::ledger::Category;

/// A cost category as a person reads it ("Power distribution"), for legends and column headers.
pub fn category_label(c: Category) -> &'static str {
    match c {
        Category::Hardware => "Hardware",
        Category::Installation => "Installation",
        Category::Network => "Network",
        Category::PowerDistribution => "Power distribution",
        Category::Cooling => "Cooling",
        Category::Electricity => "Electricity",
        Category::Colocation => "Colocation",
        Category::Staff => "Staff",
        Category::Support => "Support",
        Category::Operations => "Operations and maintenance",
        Category::Software => "Software",
        Category::CloudCompute => "Cloud compute",
        Category::Commitments => "Commitments",
        Category::StorageEgress => "Storage and egress",
        Category::Financing => "Financing",
        Category::TerminationFees => "Termination fees",
        Category::Adaptation => "Adaptation",
        Category::UnservedWork => "Unserved work (shadow price)",
        Category::Depreciation => "Depreciation",
        Category::Residual => "Residual value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_labels_are_distinct_and_capitalised() {
        let labels: Vec<&str> = Category::ALL.iter().map(|&c| category_label(c)).collect();
        for (i, a) in labels.iter().enumerate() {
            assert!(a.starts_with(|ch: char| ch.is_ascii_uppercase()), "{a}");
            assert!(!a.contains('_'), "{a}");
            for b in &labels[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
