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
//! replacement capacity. Only reserved layers have variants for now: `evaluate` keeps booking a
//! lease's payments to the end of the lease whatever the layer's service end, so a lease's exit is
//! priced by [`exit_cost`] and [`exit_curve`] but cannot yet be a ledger variant.
//!
//! A clause is also part of the scenario: a reserved or leased layer's `exit_clause` in the
//! scenario file is carried on the resolved [`Layer`]. [`layer_exit_costs`] gives its cost of
//! leaving for notice in every month of the horizon (`evaluate` reports it per scenario, booking
//! nothing), [`scenario_exit_costs`] does so for every clause layer of one scenario, and
//! [`scenario_exit_variant`] prices "exit at month m" under the layer's own clause against staying.

use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::evaluate::{evaluate, lease_payment, reserved_payment};
use crate::finance::to_ledger;
use crate::scenario::{Financing, Layer, Plan};
use crate::scenario_file::LayerKind;
use crate::validate::Problem;

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
    if clause.notice_months > crate::validate::MAX_HORIZON_MONTHS {
        out.push(Problem {
            path: format!("{path}.notice_months"),
            message: format!(
                "{} months of notice is longer than any plan ({} months at most)",
                clause.notice_months,
                crate::validate::MAX_HORIZON_MONTHS
            ),
        });
    }
    out
}

/// What kind of commitment a schedule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum CommitmentKind {
    /// Reserved cloud capacity: booked as `commitments`.
    Reserved,
    /// Leased hardware: booked as `financing`.
    Lease,
}

/// The payments a contract owes over its whole term (also past the plan's horizon).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CommitmentSchedule {
    pub layer: String,
    pub kind: CommitmentKind,
    /// The plan month (0-based) of the first payment.
    pub start_month: u32,
    /// `payments[k]` falls due in plan month `start_month + k`, at ledger scale.
    pub payments: Vec<Decimal>,
}

impl CommitmentSchedule {
    /// The month after the last payment: the end of the term.
    pub fn end_month(&self) -> u32 {
        self.start_month
            .saturating_add(u32::try_from(self.payments.len()).unwrap_or(u32::MAX))
    }

    /// The payment due in plan month `m` (zero outside the term).
    pub fn payment(&self, m: u32) -> Decimal {
        m.checked_sub(self.start_month)
            .and_then(|k| self.payments.get(k as usize))
            .copied()
            .unwrap_or(Decimal::ZERO)
    }

    /// The payments due in plan months `from..to`.
    pub fn due_between(&self, from: u32, to: u32) -> Decimal {
        let from = from.max(self.start_month);
        let to = to.min(self.end_month());
        (from..to).map(|m| self.payment(m)).sum()
    }
}

/// The commitment schedule of a resolved layer, or `None` when the layer commits to nothing
/// (on-demand, spot, pooled, token-metered, owned hardware paid in cash or by a loan).
///
/// A reserved layer pays from its first month to its `until_month` (the end of its term, as
/// `validate` resolves it; for a layer its scenario file already exits, that exit's month, which
/// is why [`commitment_schedule`] refuses such a layer); leased hardware pays the lease from
/// delivery for the lease's term.
pub fn layer_schedule(plan: &Plan, layer: &Layer) -> Option<CommitmentSchedule> {
    match layer.kind {
        LayerKind::Reserved => {
            let end = layer.until_month?;
            Some(CommitmentSchedule {
                layer: layer.id.clone(),
                kind: CommitmentKind::Reserved,
                start_month: layer.from_month,
                payments: (layer.from_month..end)
                    .map(|m| to_ledger(reserved_payment(layer, plan.start.plus(m))))
                    .collect(),
            })
        }
        LayerKind::Owned => {
            let o = layer.owned.as_ref()?;
            let Financing::Lease { term_months, .. } = o.financing else {
                return None;
            };
            let payment = to_ledger(lease_payment(o)?);
            Some(CommitmentSchedule {
                layer: layer.id.clone(),
                kind: CommitmentKind::Lease,
                start_month: o.delivery_month,
                payments: vec![payment; term_months as usize],
            })
        }
        _ => None,
    }
}

/// Finds a scenario's layer by ids, or says which id is unknown.
fn find_layer<'p>(
    plan: &'p Plan,
    scenario_id: &str,
    layer_id: &str,
) -> Result<(usize, usize, &'p Layer), Vec<Problem>> {
    let Some(si) = plan.scenarios.iter().position(|s| s.id == scenario_id) else {
        return Err(vec![Problem {
            path: "scenario".to_owned(),
            message: format!("the plan has no scenario `{scenario_id}`"),
        }]);
    };
    let s = &plan.scenarios[si];
    let Some(li) = s.layers.iter().position(|l| l.id == layer_id) else {
        return Err(vec![Problem {
            path: "layer".to_owned(),
            message: format!("scenario `{scenario_id}` has no layer `{layer_id}`"),
        }]);
    };
    Ok((si, li, &s.layers[li]))
}

/// The commitment schedule of layer `layer_id` of scenario `scenario_id`.
///
/// Refused for a layer that commits to nothing, and for one whose scenario file already exits it
/// (its resolved term then ends at that exit, so it is not the contract's own schedule).
pub fn commitment_schedule(plan: &Plan, scenario_id: &str, layer_id: &str) -> Result<CommitmentSchedule, Vec<Problem>> {
    let (_, _, layer) = find_layer(plan, scenario_id, layer_id)?;
    if let Some((month, _)) = layer.exit_fee {
        return Err(vec![Problem {
            path: "layer".to_owned(),
            message: format!(
                "layer `{layer_id}` already leaves at month {month} in the scenario file; price its exit clause on the layer without that exit"
            ),
        }]);
    }
    layer_schedule(plan, layer).ok_or_else(|| {
        vec![Problem {
            path: "layer".to_owned(),
            message: format!(
                "layer `{layer_id}` commits to no payments (it is not reserved capacity or leased hardware): leaving it costs only egress and offboarding"
            ),
        }]
    })
}

/// The cost of giving notice to leave a contract in one month, itemised (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExitCost {
    /// The plan month notice is given.
    pub notice_month: u32,
    /// The first month no longer owed: `notice_month + notice`, at most the end of the term
    /// (equal to `notice_month` when the term has already ended).
    pub effective_month: u32,
    /// True when the exit ends the contract before its term does.
    pub early: bool,
    pub due_during_notice: Decimal,
    pub termination_fee: Decimal,
    pub egress: Decimal,
    pub offboarding: Decimal,
    /// Termination fee + egress + offboarding: what leaving adds to the payments.
    pub exit_charges: Decimal,
    /// Due during notice + exit charges: everything paid from the notice month on when leaving.
    pub total: Decimal,
    /// Payments staying would have made after the exit takes effect.
    pub avoided: Decimal,
    /// Avoided − exit charges: positive when leaving costs less than staying to the end.
    pub net_saving: Decimal,
}

/// Prices notice given in plan month `notice_month` under `clause` (see the module docs).
pub fn exit_cost(schedule: &CommitmentSchedule, clause: &ExitClause, notice_month: u32) -> ExitCost {
    let end = schedule.end_month();
    if notice_month >= end {
        return ExitCost {
            notice_month,
            effective_month: notice_month,
            early: false,
            due_during_notice: Decimal::ZERO,
            termination_fee: Decimal::ZERO,
            egress: Decimal::ZERO,
            offboarding: Decimal::ZERO,
            exit_charges: Decimal::ZERO,
            total: Decimal::ZERO,
            avoided: Decimal::ZERO,
            net_saving: Decimal::ZERO,
        };
    }
    let effective = notice_month.saturating_add(clause.notice_months).min(end);
    let early = effective < end;
    let due_during_notice = schedule.due_between(notice_month, effective);
    let avoided = schedule.due_between(effective, end);
    let termination_fee = if early {
        to_ledger(match clause.fee {
            TerminationFee::Fixed(v) => v,
            TerminationFee::ShareOfRemaining(share) => share * avoided,
        })
    } else {
        Decimal::ZERO
    };
    let egress = to_ledger(clause.egress_per_tb * clause.data_tb);
    let offboarding = to_ledger(clause.offboarding);
    let exit_charges = termination_fee + egress + offboarding;
    ExitCost {
        notice_month,
        effective_month: effective,
        early,
        due_during_notice,
        termination_fee,
        egress,
        offboarding,
        exit_charges,
        total: due_during_notice + exit_charges,
        avoided,
        net_saving: avoided - exit_charges,
    }
}

/// The cost of leaving at every month of the term: notice given in each plan month from the
/// first payment to the end of the term inclusive (the last point owes nothing).
pub fn exit_curve(schedule: &CommitmentSchedule, clause: &ExitClause) -> Vec<ExitCost> {
    (schedule.start_month..=schedule.end_month())
        .map(|m| exit_cost(schedule, clause, m))
        .collect()
}

/// The exit-cost curve of one layer of one scenario, from the plan as resolved.
pub fn layer_exit_curve(
    plan: &Plan,
    scenario_id: &str,
    layer_id: &str,
    clause: &ExitClause,
) -> Result<Vec<ExitCost>, Vec<Problem>> {
    let problems = validate_clause(clause, "clause");
    if !problems.is_empty() {
        return Err(problems);
    }
    let schedule = commitment_schedule(plan, scenario_id, layer_id)?;
    Ok(exit_curve(&schedule, clause))
}

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
/// Charges that fall after the horizon are out of the ledger, and a warning says so.
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
                "layer `{layer_id}` is not reserved capacity: only reserved layers can be left in a plan variant for now (a lease's exit cost is given by its exit curve)"
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
                "the exit charges of layer `{layer_id}` fall in month {}, after the horizon: they are not in this ledger",
                cost.effective_month
            ));
        }
    }
    let mut out = plan.clone();
    out.scenarios.insert(si + 1, variant);
    Ok((out, cost))
}

/// One layer's exit clause and its cost of leaving at every month of the horizon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LayerExitCosts {
    pub layer: String,
    pub kind: CommitmentKind,
    pub clause: ExitClause,
    /// The plan month of the contract's first payment, and the month after its last.
    pub start_month: u32,
    pub end_month: u32,
    /// True when leaving can be priced as a plan variant ([`scenario_exit_variant`]): reserved
    /// layers; a lease's exit is priced by its curve only.
    pub variant_available: bool,
    /// `curve[m]` is notice given in plan month `m`, for every month of the horizon.
    pub curve: Vec<ExitCost>,
}

/// Every layer of scenario `scenario_id` that carries an exit clause, in the scenario's order,
/// with its cost of leaving for notice given in each month of the horizon (`0..horizon_months`;
/// months at or after the end of the term owe nothing). Refused for an unknown scenario.
pub fn scenario_exit_costs(plan: &Plan, scenario_id: &str) -> Result<Vec<LayerExitCosts>, Vec<Problem>> {
    let Some(scenario) = plan.scenarios.iter().find(|s| s.id == scenario_id) else {
        return Err(vec![Problem {
            path: "scenario".to_owned(),
            message: format!("the plan has no scenario `{scenario_id}`"),
        }]);
    };
    let mut out = Vec::new();
    for layer in &scenario.layers {
        if layer.exit_clause.is_none() {
            continue;
        }
        // Says why a clause layer has no schedule (`validate` lets none through).
        commitment_schedule(plan, scenario_id, &layer.id)?;
        out.extend(layer_exit_costs(plan, layer));
    }
    Ok(out)
}

/// The cost of leaving one resolved layer under its own clause, at every month of the horizon;
/// `None` when it has no clause, commits to nothing, or already leaves through a fixed exit.
/// `evaluate` reports this for every scenario ([`crate::evaluate::ScenarioResult::exit_costs`]).
pub fn layer_exit_costs(plan: &Plan, layer: &Layer) -> Option<LayerExitCosts> {
    let clause = layer.exit_clause.as_ref()?;
    if layer.exit_fee.is_some() {
        return None;
    }
    let schedule = layer_schedule(plan, layer)?;
    Some(LayerExitCosts {
        layer: layer.id.clone(),
        kind: schedule.kind,
        clause: clause.clone(),
        start_month: schedule.start_month,
        end_month: schedule.end_month(),
        variant_available: schedule.kind == CommitmentKind::Reserved,
        curve: (0..plan.horizon_months)
            .map(|m| exit_cost(&schedule, clause, m))
            .collect(),
    })
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
    /// Total cash over the horizon, staying and leaving.
    pub base_total: Decimal,
    pub variant_total: Decimal,
    /// Variant − base: negative when leaving costs less over the horizon.
    pub difference: Decimal,
    /// Commitments still owed after the horizon, staying and leaving.
    pub base_after_horizon: Decimal,
    pub variant_after_horizon: Decimal,
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
        difference: variant.totals.total_cash - base.totals.total_cash,
        base_after_horizon: base.totals.commitments_after_horizon,
        variant_after_horizon: variant.totals.commitments_after_horizon,
        cost,
        warnings: variant.warnings.clone(),
    })
}
