//! The payment schedules of a plan's commitments (reserved capacity, leased hardware) and what
//! leaving them costs at any month. `evaluate` books the payments and reports every layer's exit
//! costs; `exit` builds the plan variant that leaves.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::calendar::YearMonth;
use crate::engine::blocks::finance::{annuity_payment, to_ledger};
use crate::engine::input::scenario_file::LayerKind;
use crate::engine::model::scenario::{Financing, Layer, Owned, Plan};
use crate::exit_clause::{ExitClause, TerminationFee, validate_clause};
use crate::problem::Problem;

/// What a reserved layer pays in calendar month `month`: its committed GPUs × the month's hours ×
/// the price per GPU-hour, whether the hours are used or not. The one formula for the monthly
/// ledger, the commitments after the horizon and the exit clauses' commitment schedules.
pub fn reserved_payment(l: &Layer, month: YearMonth) -> Decimal {
    Decimal::from(l.gpus.unwrap_or(0)) * month.hours() * l.price_per_gpu_hour
}

/// The level monthly payment of leased hardware, or `None` when the hardware is not leased.
///
/// Leases are paid in advance: the first payment falls due in the delivery month and the last
/// one month before the term ends (an annuity due), which is how the ledger books them. The
/// payment is therefore the arrears annuity on the hardware price divided by `1 + r`, so the
/// payments discounted at the lease's own rate from the delivery month equal the price: a 7%
/// lease costs 7%, not more.
pub fn lease_payment(o: &Owned) -> Option<Decimal> {
    match o.financing {
        Financing::Lease {
            monthly_rate,
            term_months,
        } => Some(
            annuity_payment(o.hardware_per_gpu * Decimal::from(o.gpus), monthly_rate, term_months)
                / (Decimal::ONE + monthly_rate),
        ),
        _ => None,
    }
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
pub(crate) fn find_layer<'p>(
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
    /// True when [`scenario_exit_variant`] prices leaving as a plan variant: reserved layers. A
    /// lease's exit is a variant too, through the `leave-lease` request of
    /// the exit room's `kinds`.
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
/// `evaluate` reports this for every scenario (its `ScenarioResult::exit_costs`).
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
