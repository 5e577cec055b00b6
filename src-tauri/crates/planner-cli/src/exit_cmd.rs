//! `planner exit FILE --scenario S --layer L [--notice N --fee F ...]`: what leaving a committed
//! layer (a reserved contract or a lease) costs if notice is given in each month of its term,
//! priced by the engine's `exit` module against the commitment schedule the ledger books. The
//! clause is the layer's own `exit_clause` from the file unless clause flags are given.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::catalog::Catalog;
use planner_core::engine::blocks::finance::present;
use planner_core::engine::model::commitment::layer_exit_curve;
use planner_core::engine::resolve::validate::to_error;
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::exit_clause::{ExitClause, TerminationFee};
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

/// Which way out `planner exit --variant` prices (the engine's `ExitRequest`).
#[derive(Debug, Clone)]
pub struct VariantArgs {
    /// `leave-reservation`, `scale-down`, `downgrade`, `leave-lease` or `sell-early`.
    pub kind: String,
    pub month: Option<u32>,
    /// Scale down: the GPUs kept.
    pub gpus: Option<u32>,
    /// Downgrade: the new layer's offer, kind (`on-demand`, `reserved`, `spot`) and reserved term.
    pub to_offer: Option<String>,
    pub to_kind: Option<String>,
    pub to_term: Option<String>,
    /// Downgrade: the GPUs the new layer commits to (required for a reserved term).
    pub to_gpus: Option<u32>,
    /// The exit clause typed with the flags, priced instead of the file's; empty: the file's.
    pub clause: ClauseArgs,
    /// Early sale: a quoted resale share, with its reason.
    pub residual_share: Option<String>,
    pub reason: Option<String>,
}

fn request(layer: &str, v: &VariantArgs) -> Result<planner_core::engine::exit::kinds::ExitRequest, PlannerError> {
    let month = v.month.ok_or_else(|| {
        PlannerError::invalid(
            "--month",
            "give the plan month (0 = the first) notice is given or the hardware leaves",
        )
    })?;
    let mut body = serde_json::json!({ "kind": v.kind, "layer": layer, "month": month });
    match v.kind.as_str() {
        "scale-down" => {
            let gpus = v
                .gpus
                .ok_or_else(|| PlannerError::invalid("--gpus", "a scale-down needs the GPUs kept, e.g. --gpus 4"))?;
            body["gpus"] = gpus.into();
        }
        "downgrade" => {
            let offer = v.to_offer.as_deref().ok_or_else(|| {
                PlannerError::invalid(
                    "--to-offer",
                    "a downgrade needs the catalog offer that takes over, e.g. --to-offer aws-p5-h100",
                )
            })?;
            let kind = v.to_kind.as_deref().unwrap_or("on-demand");
            let mut to = serde_json::json!({ "id": format!("{layer}-{kind}"), "kind": kind, "offer": offer });
            match v.to_gpus {
                Some(gpus) => to["gpus"] = gpus.into(),
                None if kind == "reserved" => {
                    return Err(PlannerError::invalid(
                        "--to-gpus",
                        "a reserved replacement commits to a number of GPUs, e.g. --to-gpus 8",
                    ));
                }
                None => {}
            }
            if let Some(term) = &v.to_term {
                to["term"] = term.as_str().into();
            } else if kind == "reserved" {
                return Err(PlannerError::invalid(
                    "--to-term",
                    "a reserved layer needs its term, e.g. --to-term 1y",
                ));
            }
            body["to"] = to;
        }
        "sell-early" => {
            if let Some(share) = &v.residual_share {
                let reason = v.reason.as_deref().filter(|r| !r.trim().is_empty()).ok_or_else(|| {
                    PlannerError::invalid("--reason", "a typed resale share needs its reason (a buy-back quote), e.g. --reason \"buy-back offer B-12\"")
                })?;
                body["residual_share"] = serde_json::json!({ "value": share, "reason": reason });
            }
        }
        "leave-reservation" | "leave-lease" => {}
        other => {
            return Err(PlannerError::invalid(
                "--variant",
                format!(
                    "`{other}` is not a way out; choose leave-reservation, scale-down, downgrade, leave-lease or sell-early"
                ),
            ));
        }
    }
    serde_json::from_value(body)
        .map_err(|e| PlannerError::invalid("--variant", format!("the request is not valid: {e}")))
}

/// One way out priced against staying, as text or JSON.
pub fn variant(
    catalog: &Catalog,
    file: &Path,
    scenario: &str,
    layer: &str,
    v: &VariantArgs,
    json: bool,
) -> Result<String, PlannerError> {
    let mut parsed = crate::evaluate::read(file)?;
    let name = file.display().to_string();
    let req = request(layer, v)?;
    let typed_clause = !v.clause.is_empty();
    if typed_clause {
        // The clause as typed replaces the layer's own for this pricing, never silently ignored.
        let typed = clause(&v.clause)?;
        let spec = parsed
            .scenarios
            .iter_mut()
            .find(|s| s.id == scenario)
            .and_then(|s| s.layers.iter_mut().find(|l| l.id == layer))
            .ok_or_else(|| {
                PlannerError::invalid(
                    "--layer",
                    format!("{name} has no layer `{layer}` in scenario `{scenario}` to give the typed exit clause to"),
                )
            })?;
        spec.exit_clause = Some(typed);
    }
    let price = planner_core::engine::exit::kinds::price_exit_request(catalog, &parsed, scenario, &req)
        .map_err(|p| to_error(&p, Some(&name)))?;
    if json {
        return serde_json::to_string_pretty(&price)
            .map(|s| s + "\n")
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("could not write JSON: {e}")));
    }
    let start = parsed.start;
    let money = |d: Decimal| format!("{:.2}", present(d));
    let b = &price.booking;
    let mut out = format!(
        "{name}: {} ({}), against staying, in {}\n\n",
        price.variant_name, price.variant_id, parsed.currency
    );
    if typed_clause {
        let _ = writeln!(
            out,
            "  exit clause         as typed (--notice, --fee, …), not the file's"
        );
    }
    let _ = writeln!(out, "  notice / leaves     {} (month {})", start.plus(b.month), b.month);
    let _ = writeln!(
        out,
        "  takes effect        {} (month {})",
        start.plus(b.effective_month),
        b.effective_month
    );
    let _ = writeln!(out, "  GPUs                {} → {}", b.gpus_before, b.gpus_after);
    if let Some(c) = &b.clause {
        let _ = writeln!(out, "  due during notice   {}", money(c.due_during_notice));
        let _ = writeln!(out, "  termination fee     {}", money(c.termination_fee));
        let _ = writeln!(out, "  egress + offboard   {}", money(c.egress + c.offboarding));
        let _ = writeln!(out, "  avoided             {}", money(c.avoided));
    }
    if let Some(r) = &b.resale {
        let _ = writeln!(
            out,
            "  resale              {} GPUs at {} months × share {} = {}",
            r.gpus,
            r.age_months,
            r.share.round_dp(4).normalize(),
            money(r.amount)
        );
    }
    if !b.loan_payoff.is_zero() {
        let _ = writeln!(out, "  loan paid off       {}", money(b.loan_payoff));
    }
    if let Some(r) = &b.replacement {
        let _ = writeln!(out, "  taken over by       {r}");
    }
    let _ = writeln!(
        out,
        "  cash within horizon {} staying, {} leaving",
        money(price.base_total),
        money(price.variant_total)
    );
    let _ = writeln!(
        out,
        "  owed after horizon  {} staying, {} leaving",
        money(price.base_after_horizon),
        money(price.variant_after_horizon)
    );
    let _ = writeln!(
        out,
        "  decision total      {} staying, {} leaving",
        money(price.base_decision_total),
        money(price.variant_decision_total)
    );
    let _ = writeln!(
        out,
        "  difference          {} on the decision total (negative: leaving costs less)",
        money(price.difference)
    );
    if price.variant_unmet_pflop_h != price.base_unmet_pflop_h {
        let _ = writeln!(
            out,
            "  unmet demand        {} PFLOP-h staying, {} leaving",
            price.base_unmet_pflop_h.round_dp(1).normalize(),
            price.variant_unmet_pflop_h.round_dp(1).normalize()
        );
    }
    for w in &price.warnings {
        let _ = writeln!(out, "  warning: {w}");
    }
    Ok(out)
}
