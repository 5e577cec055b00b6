//! Exit clauses: what it costs to leave a contract at month *m*, and the plan variant that leaves.
//!
//! A contract owes a **commitment schedule**: the payments it is due month by month until its
//! term ends, used or not. For a reserved layer that is `GPUs × hours of the calendar month ×
//! price per GPU-hour` from its first month to the end of its term; for leased hardware it is
//! the lease's level payment from delivery to the end of the lease. Both come from the same
//! functions the ledger books with ([`reserved_payment`], [`lease_payment`]), so a schedule never
//! disagrees with `evaluate`.
//!
//! An [`ExitClause`] says what leaving costs: a notice period (payments keep falling due while it
//! runs), a termination fee (fixed, or a share of the commitment that remains once the notice has
//! run), data egress (per TB × TB held) and a one-off offboarding cost. [`exit_cost`] prices
//! notice given in month `m` (plan months, 0-based, as everywhere in the engine):
//!
//! - the exit takes **effect** in month `e = m + notice`: the first month no longer owed;
//! - **due during notice** = the schedule's payments in months `m..e` (those before `m` are
//!   history, paid either way);
//! - **termination fee** = the fixed amount, or `share × Σ payments in e..end`; it is owed only
//!   when the exit ends the contract early (`e < end`): a notice that runs past the end of the
//!   term terminates nothing, the contract simply expires;
//! - **egress** = per TB × TB and **offboarding** are owed whenever notice is given while the
//!   contract is in force (`m < end`): leaving means moving out either way;
//! - **exit charges** = fee + egress + offboarding, the money that leaving adds; **total** =
//!   due during notice + exit charges, everything paid from month `m` on when leaving;
//! - **avoided** = the payments of months `e..end` that staying would have made, and the **net
//!   saving** = avoided − exit charges (positive: leaving is cheaper than staying to the end).
//!
//! Notice given at or after the end of the term (`m ≥ end`) leaves nothing to exit: every figure
//! is zero. Notice given before the contract starts is priced by the same formulas.
//!
//! Amounts are kept at the ledger's scale (10 decimal places, half-even) as the ledger books them,
//! so "base total − avoided + exit charges = the variant's total" holds exactly in decimals.
//!
//! [`exit_variant`] turns "leave layer L of scenario S at month m" into a scenario of the plan that
//! `evaluate` prices with the same ledger: the layer stops serving and paying when the exit takes
//! effect, and the exit charges are booked as one `termination_fees` amount in that month (the
//! resolved plan has one exit slot per layer, the same one a scenario file's `exit` fills; egress
//! and offboarding are booked there too because they are caused by the termination). Demand the
//! layer served moves to the scenario's other layers, so the variant also shows the cost of the
//! replacement capacity. [`exit_variant`] and [`scenario_exit_variant`] leave reserved layers; the
//! other kinds of exit — scaling down, downgrading, leaving a lease, selling owned hardware early —
//! are variants built by `kinds`, beside this module (which also takes "leave a reservation" as
//! one of its requests). A lease's exit there marks the hardware as returned
//! ([`crate::engine::model::scenario::Owned::retired`]), which is what makes `evaluate` stop booking its
//! payments when the exit takes effect; a lease without one is booked to the end of its term.
//!
//! A clause is also part of the scenario: a reserved or leased layer's `exit_clause` in the
//! scenario file is carried on the resolved [`Layer`]. [`layer_exit_costs`] gives its cost of
//! leaving for notice in every month of the horizon (`evaluate` reports it per scenario, booking
//! nothing), [`scenario_exit_costs`] does so for every clause layer of one scenario, and
//! [`scenario_exit_variant`] prices "exit at month m" under the layer's own clause against staying.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::engine::costing::evaluate::evaluate;
use crate::engine::input::scenario_file::LayerKind;
use crate::engine::model::commitment::{ExitCost, commitment_schedule, exit_cost, find_layer};
use crate::engine::model::scenario::Plan;
use crate::exit_clause::{ExitClause, validate_clause};
use crate::problem::Problem;

/// The id of the variant of scenario `scenario_id` that leaves `layer_id` at `notice_month`.
pub fn variant_id(scenario_id: &str, layer_id: &str, notice_month: u32) -> String {
    format!("{scenario_id}~exit-{layer_id}-m{notice_month}")
}

/// The plan with one more scenario, right after scenario `scenario_id`: a copy of it in which
/// notice to leave layer `layer_id` is given in plan month `notice_month` under `clause`.
///
/// In the variant the layer stops serving and paying in the month the exit takes effect, and
/// the exit charges (fee, egress, offboarding) are booked in `termination_fees` in that month.
/// `evaluate` then prices the variant with the same ledger as the base; for a contract and exit
/// inside the horizon, and a scenario whose demand does not move to other paid layers, the
/// variant's total cash equals the base total − [`ExitCost::avoided`] + [`ExitCost::exit_charges`].
/// Charges that fall after the horizon are out of the ledger's cash and in the variant's
/// commitments after the horizon (so in its decision total), and a warning says so.
///
/// Also returns the [`ExitCost`] the variant books. Refused (with every problem) for an invalid
/// clause, a notice month outside the horizon, unknown ids, a layer that is not reserved, or one
/// the scenario file already exits.
pub fn exit_variant(
    plan: &Plan,
    scenario_id: &str,
    layer_id: &str,
    clause: &ExitClause,
    notice_month: u32,
) -> Result<(Plan, ExitCost), Vec<Problem>> {
    let mut problems = validate_clause(clause, "clause");
    if notice_month >= plan.horizon_months {
        problems.push(Problem {
            path: "notice_month".to_owned(),
            message: format!(
                "month {notice_month} is beyond the horizon of {} months (months count from 0)",
                plan.horizon_months
            ),
        });
    }
    let found = find_layer(plan, scenario_id, layer_id);
    if let Ok((_, _, layer)) = &found
        && layer.kind != LayerKind::Reserved
    {
        problems.push(Problem {
            path: "layer".to_owned(),
            message: format!(
                "layer `{layer_id}` is not reserved capacity: this variant leaves reserved layers; price a lease's exit with the `leave-lease` request of `exit_kinds`"
            ),
        });
    }
    let schedule = match found.and_then(|_| commitment_schedule(plan, scenario_id, layer_id)) {
        Ok(s) => Some(s),
        Err(p) => {
            problems.extend(p);
            None
        }
    };
    let (Some(schedule), true) = (schedule, problems.is_empty()) else {
        problems.dedup();
        return Err(problems);
    };
    let (si, li, _) = find_layer(plan, scenario_id, layer_id)?;
    let cost = exit_cost(&schedule, clause, notice_month);
    let mut variant = plan.scenarios[si].clone();
    variant.id = variant_id(scenario_id, layer_id, notice_month);
    variant.name = format!("{} (leave {layer_id} at month {notice_month})", variant.name);
    let layer = &mut variant.layers[li];
    // The variant has left: the clause is spent, the layer has no cost of leaving any more.
    layer.exit_clause = None;
    if cost.early {
        layer.until_month = Some(cost.effective_month);
    }
    if !cost.exit_charges.is_zero() {
        layer.exit_fee = Some((cost.effective_month, cost.exit_charges));
        if cost.effective_month >= plan.horizon_months {
            variant.warnings.push(format!(
                "the exit charges of layer `{layer_id}` fall in month {}, after the horizon: they are not in this ledger's cash but in the commitments after the horizon (and so in the decision total)",
                cost.effective_month
            ));
        }
    }
    let mut out = plan.clone();
    out.scenarios.insert(si + 1, variant);
    Ok((out, cost))
}

/// "Leave layer L at month m" priced against staying: the base scenario and its exit variant,
/// both evaluated by the same ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExitVariantPrice {
    pub scenario: String,
    pub layer: String,
    /// The variant's scenario id ([`variant_id`]) and name.
    pub variant_id: String,
    pub variant_name: String,
    /// Total cash over the horizon, staying and leaving (cash only: what falls due after the
    /// horizon is not in it).
    pub base_total: Decimal,
    pub variant_total: Decimal,
    /// `variant_total − base_total`: the difference within the horizon, in cash only.
    pub cash_difference: Decimal,
    /// Commitments (and exit charges) still owed after the horizon, staying and leaving.
    pub base_after_horizon: Decimal,
    pub variant_after_horizon: Decimal,
    /// The decision totals, staying and leaving: total cash plus what falls due after the
    /// horizon, what scenarios are compared on.
    pub base_decision_total: Decimal,
    pub variant_decision_total: Decimal,
    /// Variant − base on the decision totals: negative when leaving costs less, counting what
    /// staying still owes after the horizon and the exit charges that fall at or after it.
    pub difference: Decimal,
    /// What the exit itself costs under the layer's clause.
    pub cost: ExitCost,
    /// The variant's warnings (e.g. charges that fall after the horizon).
    pub warnings: Vec<String>,
}

/// Prices giving notice in `notice_month` to leave layer `layer_id` of scenario `scenario_id`
/// under the layer's own exit clause: [`exit_variant`] builds the variant and `evaluate` prices
/// it and the base. The difference also holds the replacement capacity the scenario's other
/// layers provide. Refused when the layer has no clause, and for everything [`exit_variant`]
/// refuses.
pub fn scenario_exit_variant(
    plan: &Plan,
    scenario_id: &str,
    layer_id: &str,
    notice_month: u32,
) -> Result<ExitVariantPrice, Vec<Problem>> {
    let (si, _, layer) = find_layer(plan, scenario_id, layer_id)?;
    let Some(clause) = layer.exit_clause.clone() else {
        return Err(vec![Problem {
            path: "layer".to_owned(),
            message: format!("layer `{layer_id}` has no exit clause; give it one in the scenario to price leaving it"),
        }]);
    };
    let (mut with_variant, cost) = exit_variant(plan, scenario_id, layer_id, &clause, notice_month)?;
    // Only the base and its variant need evaluating.
    with_variant.scenarios = std::mem::take(&mut with_variant.scenarios)
        .into_iter()
        .skip(si)
        .take(2)
        .collect();
    let e = evaluate(&with_variant);
    let (Some(base), Some(variant)) = (e.scenarios.first(), e.scenarios.get(1)) else {
        return Err(vec![Problem {
            path: "scenario".to_owned(),
            message: "the exit variant could not be evaluated".to_owned(),
        }]);
    };
    Ok(ExitVariantPrice {
        scenario: scenario_id.to_owned(),
        layer: layer_id.to_owned(),
        variant_id: variant.id.clone(),
        variant_name: variant.name.clone(),
        base_total: base.totals.total_cash,
        variant_total: variant.totals.total_cash,
        cash_difference: variant.totals.total_cash - base.totals.total_cash,
        base_after_horizon: base.totals.commitments_after_horizon,
        variant_after_horizon: variant.totals.commitments_after_horizon,
        base_decision_total: base.totals.decision_total,
        variant_decision_total: variant.totals.decision_total,
        difference: variant.totals.decision_total - base.totals.decision_total,
        cost,
        warnings: variant.warnings.clone(),
    })
}
