//! `planner exit FILE --scenario S --layer L --notice N --fee F`: what leaving a committed layer
//! (a reserved contract) costs if notice is given in each month of its term, priced by the
//! engine's `exit` module against the commitment schedule the ledger books.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::catalog::Catalog;
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::exit::{ExitClause, TerminationFee, layer_exit_curve};
use planner_core::finance::present;
use planner_core::validate::to_error;
use rust_decimal::Decimal;

use crate::evaluate::plan_of;

/// The exit clause as given on the command line.
#[derive(Debug, Clone)]
pub struct ClauseArgs {
    pub notice_months: u32,
    /// `25%` (a share of the commitment remaining after the notice) or `50000` (fixed).
    pub fee: String,
    pub egress_per_tb: Option<String>,
    pub data_tb: Option<String>,
    pub offboarding: Option<String>,
}

fn amount(flag: &str, text: Option<&str>) -> Result<Decimal, PlannerError> {
    match text {
        None => Ok(Decimal::ZERO),
        Some(t) => t.trim().parse::<Decimal>().map_err(|_| {
            PlannerError::invalid(
                flag,
                format!("`{t}` is not a number; write a plain decimal such as 1200.50"),
            )
        }),
    }
}

/// The clause the arguments describe.
pub fn clause(a: &ClauseArgs) -> Result<ExitClause, PlannerError> {
    let fee = match a.fee.trim().strip_suffix('%') {
        Some(share) => TerminationFee::ShareOfRemaining(amount("--fee", Some(share))? / Decimal::ONE_HUNDRED),
        None => TerminationFee::Fixed(amount("--fee", Some(&a.fee))?),
    };
    Ok(ExitClause {
        notice_months: a.notice_months,
        fee,
        egress_per_tb: amount("--egress-per-tb", a.egress_per_tb.as_deref())?,
        data_tb: amount("--data-tb", a.data_tb.as_deref())?,
        offboarding: amount("--offboarding", a.offboarding.as_deref())?,
    })
}

/// The exit cost curve as a table, or as JSON.
pub fn curve(
    catalog: &Catalog,
    file: &Path,
    scenario: &str,
    layer: &str,
    args: &ClauseArgs,
    json: bool,
) -> Result<String, PlannerError> {
    let plan = plan_of(catalog, file, None)?;
    let clause = clause(args)?;
    let name = file.display().to_string();
    let costs = layer_exit_curve(&plan, scenario, layer, &clause).map_err(|p| to_error(&p, Some(&name)))?;
    if json {
        return serde_json::to_string_pretty(&costs)
            .map(|s| s + "\n")
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("could not write JSON: {e}")));
    }
    let mut out = format!(
        "{name}: leaving layer `{layer}` of scenario `{scenario}`, notice {} month(s), fee {}, in {}\n\n",
        clause.notice_months, args.fee, plan.currency
    );
    let _ = writeln!(
        out,
        "{:<8} {:<8} {:>14} {:>14} {:>12} {:>14} {:>16} {:>16}",
        "notice", "leaves", "during notice", "fee", "egress+off", "total", "avoided", "net saving"
    );
    for c in &costs {
        let _ = writeln!(
            out,
            "{:<8} {:<8} {:>14} {:>14} {:>12} {:>14} {:>16} {:>16}",
            plan.start.plus(c.notice_month).to_string(),
            plan.start.plus(c.effective_month).to_string(),
            format!("{:.2}", present(c.due_during_notice)),
            format!("{:.2}", present(c.termination_fee)),
            format!("{:.2}", present(c.egress + c.offboarding)),
            format!("{:.2}", present(c.total)),
            format!("{:.2}", present(c.avoided)),
            format!("{:.2}", present(c.net_saving)),
        );
    }
    Ok(out)
}
