//! `planner exit FILE --scenario S --layer L [--notice N --fee F ...]`: what leaving a committed
//! layer (a reserved contract or a lease) costs if notice is given in each month of its term,
//! priced by the engine's `exit` module against the commitment schedule the ledger books. The
//! clause is the layer's own `exit_clause` from the file unless clause flags are given.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::catalog::Catalog;
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::exit::{ExitClause, TerminationFee, layer_exit_curve};
use planner_core::finance::present;
use planner_core::validate::to_error;
use rust_decimal::Decimal;

use crate::evaluate::plan_of;

/// The exit clause as given on the command line (every field absent: the file's clause).
#[derive(Debug, Clone)]
pub struct ClauseArgs {
    pub notice_months: Option<u32>,
    /// `25%` (a share of the commitment remaining after the notice) or `50000` (fixed).
    pub fee: Option<String>,
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

impl ClauseArgs {
    /// True when no clause flag is given.
    pub fn is_empty(&self) -> bool {
        self.notice_months.is_none()
            && self.fee.is_none()
            && self.egress_per_tb.is_none()
            && self.data_tb.is_none()
            && self.offboarding.is_none()
    }
}

/// The clause the arguments describe (absent notice and fee: zero).
pub fn clause(a: &ClauseArgs) -> Result<ExitClause, PlannerError> {
    let fee_text = a.fee.as_deref().unwrap_or("0");
    let fee = match fee_text.trim().strip_suffix('%') {
        Some(share) => TerminationFee::ShareOfRemaining(amount("--fee", Some(share))? / Decimal::ONE_HUNDRED),
        None => TerminationFee::Fixed(amount("--fee", Some(fee_text))?),
    };
    Ok(ExitClause {
        notice_months: a.notice_months.unwrap_or(0),
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
    let name = file.display().to_string();
    let clause = if args.is_empty() {
        plan.scenarios
            .iter()
            .find(|s| s.id == scenario)
            .and_then(|s| s.layers.iter().find(|l| l.id == layer))
            .and_then(|l| l.exit_clause.clone())
            .ok_or_else(|| {
                PlannerError::invalid(
                    "--notice",
                    format!("layer `{layer}` of scenario `{scenario}` in {name} has no exit_clause; give the clause with --notice and --fee"),
                )
            })?
    } else {
        clause(args)?
    };
    let costs = layer_exit_curve(&plan, scenario, layer, &clause).map_err(|p| to_error(&p, Some(&name)))?;
    if json {
        return serde_json::to_string_pretty(&costs)
            .map(|s| s + "\n")
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("could not write JSON: {e}")));
    }
    let mut out = format!(
        "{name}: leaving layer `{layer}` of scenario `{scenario}`, notice {} month(s), fee {}, in {}\n\n",
        clause.notice_months,
        match clause.fee {
            TerminationFee::Fixed(v) => v.to_string(),
            TerminationFee::ShareOfRemaining(share) => format!("{}%", (share * Decimal::ONE_HUNDRED).normalize()),
        },
        plan.currency
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
