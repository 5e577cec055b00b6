//! Compute Planner's reports: what leaves the app besides the screen.
//!
//! Everything here reads a [`DecisionView`](planner_core::engine::decide::decision::DecisionView) (and, for the
//! monthly ledger, the [`Evaluation`](planner_core::engine::costing::evaluate::Evaluation) it came from) and
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

use planner_core::engine::model::ledger::Category;
use rust_decimal::{Decimal, RoundingStrategy};

/// `d` rounded half-even to `dp` decimals, with thousands separators (money in the memo: 2; a
/// chart's label: 0).
pub fn grouped(d: Decimal, dp: u32) -> String {
    let rounded = d.round_dp_with_strategy(dp, RoundingStrategy::MidpointNearestEven);
    let text = format!("{:.*}", dp as usize, rounded.abs());
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::with_capacity(text.len() + text.len() / 3 + 1);
    if rounded.is_sign_negative() && !rounded.is_zero() {
        out.push('-');
    }
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

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
