//! The RFP side: vendors' quotes and the vendor scorecard.
//!
//! [`quote`] reads a quote table (cells as a CSV or XLSX file holds them) into checked quotes and
//! turns each into a supply layer of a scenario; [`scorecard`] ranks vendors on five weighted
//! axes and finds the least weight change that changes the top vendor; [`vendors`] is the
//! scorecard as the buyer keeps it, the import preview and the scorecard screen; [`summary`] is
//! that screen sorted for a document (the memo's Vendor scorecard section, the workbook's
//! Scorecard sheet), with each vendor's commitments and the exit terms its quotes state.
//!
//! May import: [`crate::engine`] (a vendor's cost is its scenario's evaluated total),
//! [`crate::catalog`], [`crate::error`] and the shared modules at the crate root. Never
//! `compliance`: a vendor's compliance share comes in from the caller.

pub mod quote;
pub mod scorecard;
pub mod summary;
pub mod vendors;
