//! An exit clause as a contract states it (notice, termination fee, egress, offboarding) and its
//! check. A scenario file's layers carry one; `commitment` prices it and `exit` builds the plan
//! variant that leaves.

use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::problem::{MAX_HORIZON_MONTHS, Problem};

/// The termination fee of an exit clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", content = "value", rename_all = "kebab-case")]
pub enum TerminationFee {
    /// A fixed amount, in the plan's currency.
    Fixed(Decimal),
    /// A fraction (0 to 1) of the commitment still due after the notice period.
    ShareOfRemaining(Decimal),
}

/// What leaving a contract costs, per the contract's terms. In a scenario file it is a layer's
/// `exit_clause` (reserved layers and leased owned hardware); egress and offboarding default to 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct ExitClause {
    /// Months between giving notice and the exit taking effect; payments fall due meanwhile.
    pub notice_months: u32,
    /// The termination fee: `{"kind": "fixed", "value": "50000"}` or
    /// `{"kind": "share-of-remaining", "value": "0.25"}` (a share of the commitment still due
    /// once the notice has run).
    pub fee: TerminationFee,
    /// Data egress price per TB, and the TB to move out.
    #[serde(default)]
    pub egress_per_tb: Decimal,
    #[serde(default)]
    pub data_tb: Decimal,
    /// One-off cost of offboarding (migration work, decommissioning, legal).
    #[serde(default)]
    pub offboarding: Decimal,
}

/// Checks a clause; every problem carries its path under `path` (e.g. `exit.fee.value`).
pub fn validate_clause(clause: &ExitClause, path: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut non_negative = |field: &str, value: Decimal| {
        if value < Decimal::ZERO {
            out.push(Problem {
                path: format!("{path}.{field}"),
                message: format!("{value} is negative; give zero or more"),
            });
        }
    };
    match clause.fee {
        TerminationFee::Fixed(v) => non_negative("fee.value", v),
        TerminationFee::ShareOfRemaining(v) => non_negative("fee.value", v),
    }
    non_negative("egress_per_tb", clause.egress_per_tb);
    non_negative("data_tb", clause.data_tb);
    non_negative("offboarding", clause.offboarding);
    if let TerminationFee::ShareOfRemaining(v) = clause.fee
        && v > Decimal::ONE
    {
        out.push(Problem {
            path: format!("{path}.fee.value"),
            message: format!(
                "{v} is more than the whole remaining commitment; give a share from 0 to 1 (e.g. 0.25 for 25%)"
            ),
        });
    }
    if clause.notice_months > MAX_HORIZON_MONTHS {
        out.push(Problem {
            path: format!("{path}.notice_months"),
            message: format!(
                "{} months of notice is longer than any plan ({} months at most)",
                clause.notice_months, MAX_HORIZON_MONTHS
            ),
        });
    }
    out
}
