//! Every kind of exit (issue #19), each priced as a variant of a scenario against staying, from
//! any month `m` of the horizon (plan months, 0-based, as everywhere in the engine).
//!
//! An [`ExitRequest`] says what to price; [`exit_request_variant`] builds the plan with the
//! variant scenario right after its base, and [`price_exit_request`] evaluates both with the same
//! ledger ([`ExitRequestPrice`]). Each variant moves the demand its layer no longer serves to the
//! scenario's other layers, as the reservation's exit does, so the difference also holds the cost
//! of the replacement capacity (or, when no layer can take the work, its shadow price on the
//! `unserved_work` line). The kinds and their conventions:
//!
//! - **Leave a reservation** ([`ExitRequest::LeaveReservation`]): notice given in `m` under the
//!   layer's exit clause, exactly [`crate::engine::exit::clauses::exit_variant`]: the layer serves and pays
//!   until the exit takes effect in `e = m + notice`, and the exit charges (fee, egress,
//!   offboarding) are booked in `termination_fees` in month `e`.
//! - **Scale down** ([`ExitRequest::ScaleDown`]) to `gpus` kept from month `m`:
//!   - *reserved*: notice in `m` reduces the commitment under the layer's clause. The GPUs given up
//!     are priced as a contract of their own, `(G − g) × hours × price` for the rest of the term:
//!     they serve and are paid until `e = m + notice`, the commitment after `e` is avoided, and the
//!     fee is the clause's on that part — `share × Σ (G − g) × hours × price` over `e..end` for a
//!     share of the remaining commitment, or the fixed fee × `(G − g) / G` (the share of the
//!     commitment given up) for a fixed fee — booked in `termination_fees` in month `e`. Egress and
//!     offboarding are not owed: the layer stays with the provider, and so does its data. In the
//!     variant the layer keeps `g` GPUs (and its clause) for its whole term, and the given-up part
//!     is a layer of its own, `<id>~given-up`, that ends at `e`.
//!   - *owned* (cash or loan): the `G − g` GPUs taken out leave service at the start of month `m`
//!     (no notice: the hardware is the buyer's). Their electricity, support and colocation stop
//!     (the room's and network's maintenance does not: the room stays), and they are **sold** in
//!     month `m` at the residual share for their age then (as an early sale, below). A loan runs
//!     on unchanged (a partial sale does not repay it); the depreciation and the resale at the
//!     horizon are those of the GPUs kept. Leased hardware is returned whole or not at all.
//!
//!   Scaling down to zero GPUs is a full exit (leave the reservation, leave the lease, or sell the
//!   hardware) and is refused as a scale-down, as is keeping as many GPUs as the layer has.
//! - **Downgrade** ([`ExitRequest::Downgrade`]): from month `m` the layer is replaced by `to`,
//!   another layer as a scenario file writes it (another catalog offer on demand, a shorter
//!   reserved term, …), resolved by `validate` with the scenario's price point and currency, its
//!   `start_month` set to `m` and, unless it says otherwise, serving the workloads the old layer
//!   served. A reserved old layer exits under its clause at `m` (as leaving the reservation: it
//!   serves and pays through the notice, the charges fall in `e`); a pay-as-you-go one stops at `m`.
//!   The new layer starts in `m`, so during a notice both are there (the old one serves first, as
//!   committed capacity is dispatched before on-demand). Owned hardware is not downgraded: sell it
//!   or leave its lease, with a replacement layer in the scenario.
//! - **Leave a lease** ([`ExitRequest::LeaveLease`]): notice given in `m` under the layer's clause,
//!   priced on the lease's commitment schedule: the lease payments are owed until the exit takes
//!   effect in `e = m + notice`, and none from `e` on; the hardware goes back to the lessor in `e`
//!   (it serves and runs until then, no resale) and the exit charges are booked in
//!   `termination_fees` in month `e`. The rest of the layer's capital (installation, network, …)
//!   is written off in the book view in `e`.
//! - **Sell early** ([`ExitRequest::SellEarly`]): owned hardware bought for cash or by a loan, sold
//!   at the start of month `m`: it serves and runs through `m − 1`, its resale is booked in the
//!   cash view in month `m` (`residual`, negative) at `hardware price × share`, and a loan's
//!   outstanding balance (after the payments of months before `m`) is paid off in `m` as
//!   `financing`; nothing is resold at the horizon. The **resale age** is `m − delivery month`,
//!   the months the hardware was in the buyer's hands. The share follows the horizon's rule: the
//!   request's `residual_share` (a quote, with its reason), else the layer's own `residual_share`
//!   from the scenario file, else the catalog's sourced resale estimate for the accelerator at that
//!   age (at the scenario's price point), else 0 with a warning; the figure used is recorded as an
//!   assumption at `<layer>.residual_share_at_sale`. Hardware not yet delivered in `m` cannot be
//!   sold.
//!
//! Charges that fall at or after the horizon are out of the ledger's cash and in the variant's
//! commitments after the horizon (so in its decision total), and a warning says so; the
//! difference against staying is taken on the decision totals. Where no
//! demand moves (the work the layer did is not taken over by a paid layer), the identities
//! "variant total = base total − avoided + exit charges" hold exactly in decimals for the
//! commitments: [`ExitBooking`] gives each figure.
//!
//! Impossible requests are refused with every [`Problem`] at its path under `request`
//! (`request.month`, `request.layer`, `request.gpus`, `request.to.offer`, …): a month outside the
//! horizon, an unknown scenario or layer, a layer of the wrong kind, a layer without the exit
//! clause its kind of exit needs, a scale-down to zero or to no fewer GPUs, an unknown offer.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::catalog::Catalog;
use crate::engine::blocks::finance::{amortisation, to_ledger};
use crate::engine::costing::evaluate::evaluate;
use crate::engine::input::scenario_file::{LayerKind, LayerSpec, Override, ScenarioFile};
use crate::engine::model::assumption::{Assumption, Origin};
use crate::engine::model::commitment::{ExitCost, exit_cost, find_layer, layer_schedule};
use crate::engine::model::scenario::{Financing, Layer, Plan, Retirement, Scenario};
use crate::engine::resolve::validate::{catalog_resale_share, validate};
use crate::exit_clause::{ExitClause, TerminationFee};
use crate::problem::Problem;

/// One kind of exit to price against staying (see the module docs for what each books).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ExitRequest {
    /// Notice in `month` to leave a reserved layer under its exit clause.
    LeaveReservation { layer: String, month: u32 },
    /// Keep `gpus` of a reserved or owned layer's GPUs from `month` on (fewer than it has, at
    /// least one).
    ScaleDown { layer: String, month: u32, gpus: u32 },
    /// Replace a layer by `to` from `month` on; the old layer exits under its clause.
    Downgrade {
        layer: String,
        month: u32,
        to: Box<LayerSpec>,
    },
    /// Notice in `month` to leave an owned layer's lease under its exit clause.
    LeaveLease { layer: String, month: u32 },
    /// Sell an owned layer (cash or loan) at the start of `month`, at `residual_share` when given
    /// (a quote with its reason), else by the horizon's rule at the hardware's age then.
    SellEarly {
        layer: String,
        month: u32,
        #[serde(default)]
        residual_share: Option<Override>,
    },
}

impl ExitRequest {
    /// The layer the request exits.
    pub fn layer(&self) -> &str {
        match self {
            ExitRequest::LeaveReservation { layer, .. }
            | ExitRequest::ScaleDown { layer, .. }
            | ExitRequest::Downgrade { layer, .. }
            | ExitRequest::LeaveLease { layer, .. }
            | ExitRequest::SellEarly { layer, .. } => layer,
        }
    }

    /// The month notice is given (reservations, leases) or the hardware leaves (owned).
    pub fn month(&self) -> u32 {
        match self {
            ExitRequest::LeaveReservation { month, .. }
            | ExitRequest::ScaleDown { month, .. }
            | ExitRequest::Downgrade { month, .. }
            | ExitRequest::LeaveLease { month, .. }
            | ExitRequest::SellEarly { month, .. } => *month,
        }
    }
}

/// The resale of owned hardware sold before the horizon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EarlyResale {
    /// The month it is booked (the sale month).
    pub month: u32,
    /// Months from delivery to the sale: the age the share is taken at.
    pub age_months: u32,
    pub gpus: u32,
    /// The share of the hardware price received, and where it comes from (`None` when no figure
    /// covers the hardware: the share is then 0 and a warning says so).
    pub share: Decimal,
    pub assumption: Option<Assumption>,
    /// Hardware price of the GPUs sold × share, at the ledger's scale.
    pub amount: Decimal,
}

/// What a variant books for its exit, itemised.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExitBooking {
    pub layer: String,
    /// The month notice is given (reservations, leases) or the hardware leaves (owned).
    pub month: u32,
    /// The first month the layer, or the part given up, no longer serves or pays.
    pub effective_month: u32,
    /// The layer's GPUs before and after (after: 0 when it leaves whole).
    pub gpus_before: u32,
    pub gpus_after: u32,
    /// The clause's price of the commitment ended: the whole reservation or lease, or the part of
    /// the reservation given up (`None` for owned hardware sold, and pay-as-you-go layers).
    pub clause: Option<ExitCost>,
    /// The resale of hardware sold early (early sale, owned scale-down).
    pub resale: Option<EarlyResale>,
    /// A loan's outstanding balance paid off at the sale, at the ledger's scale.
    pub loan_payoff: Decimal,
    /// The id of the layer that takes over (downgrade).
    pub replacement: Option<String>,
}

/// One exit priced against staying: the base scenario and its variant, evaluated by the same
/// ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExitRequestPrice {
    pub scenario: String,
    pub request: ExitRequest,
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
    /// Variant − base on the decision totals: negative when the exit costs less, counting what
    /// staying still owes after the horizon and the exit charges that fall at or after it.
    pub difference: Decimal,
    /// Useful PFLOP-hours of demand left unserved, staying and leaving (the demand moves to the
    /// scenario's other layers; what none can take is unserved and priced as such).
    pub base_unmet_pflop_h: Decimal,
    pub variant_unmet_pflop_h: Decimal,
    pub booking: ExitBooking,
    /// The variant's warnings (charges after the horizon, resale without an estimate, …).
    pub warnings: Vec<String>,
}

/// The id of a request's variant of scenario `scenario_id`.
pub fn request_variant_id(scenario_id: &str, request: &ExitRequest) -> String {
    let (layer, m) = (request.layer(), request.month());
    match request {
        ExitRequest::LeaveReservation { .. } => crate::engine::exit::clauses::variant_id(scenario_id, layer, m),
        ExitRequest::ScaleDown { gpus, .. } => format!("{scenario_id}~scale-down-{layer}-to{gpus}-m{m}"),
        ExitRequest::Downgrade { to, .. } => format!("{scenario_id}~downgrade-{layer}-to-{}-m{m}", to.id),
        ExitRequest::LeaveLease { .. } => format!("{scenario_id}~leave-lease-{layer}-m{m}"),
        ExitRequest::SellEarly { .. } => format!("{scenario_id}~sell-{layer}-m{m}"),
    }
}

fn describe(request: &ExitRequest) -> String {
    let (layer, m) = (request.layer(), request.month());
    match request {
        ExitRequest::LeaveReservation { .. } => format!("leave {layer} at month {m}"),
        ExitRequest::ScaleDown { gpus, .. } => format!("scale {layer} down to {gpus} GPUs at month {m}"),
        ExitRequest::Downgrade { to, .. } => format!("replace {layer} by {} at month {m}", to.id),
        ExitRequest::LeaveLease { .. } => format!("leave the lease of {layer} at month {m}"),
        ExitRequest::SellEarly { .. } => format!("sell {layer} at month {m}"),
    }
}

fn problem(path: &str, message: impl Into<String>) -> Vec<Problem> {
    vec![Problem {
        path: path.to_owned(),
        message: message.into(),
    }]
}

/// The plan of `file` with one more scenario right after `scenario_id`: the variant that carries
/// out `request`, and what it books. Refused, with every problem at its path under `request`,
/// for an impossible request (see the module docs); the file's own problems come as `validate`
/// gives them.
pub fn exit_request_variant(
    catalog: &Catalog,
    file: &ScenarioFile,
    scenario_id: &str,
    request: &ExitRequest,
) -> Result<(Plan, ExitBooking), Vec<Problem>> {
    let plan = validate(catalog, file, None)?;
    let m = request.month();
    let mut problems = Vec::new();
    if m >= plan.horizon_months {
        problems.extend(problem(
            "request.month",
            format!(
                "month {m} is beyond the horizon of {} months (months count from 0)",
                plan.horizon_months
            ),
        ));
    }
    let found = find_layer(&plan, scenario_id, request.layer()).map_err(|p| {
        p.into_iter()
            .map(|p| Problem {
                path: if p.path == "layer" {
                    "request.layer".to_owned()
                } else {
                    p.path
                },
                message: p.message,
            })
            .collect::<Vec<_>>()
    });
    let (si, li) = match found {
        Ok((si, li, _)) if problems.is_empty() => (si, li),
        Ok(_) => return Err(problems),
        Err(p) => {
            problems.extend(p);
            return Err(problems);
        }
    };
    let layer = &plan.scenarios[si].layers[li];
    if let Some((month, _)) = layer.exit_fee {
        return Err(problem(
            "request.layer",
            format!(
                "layer `{}` already leaves at month {month} in the scenario file; price other exits on the layer without that exit",
                layer.id
            ),
        ));
    }
    let (mut variant, booking) = match request {
        ExitRequest::LeaveReservation { .. } => leave_reservation(&plan, si, li, m)?,
        ExitRequest::ScaleDown { gpus, .. } => scale_down(catalog, file, &plan, (si, li), m, *gpus)?,
        ExitRequest::Downgrade { to, .. } => downgrade(catalog, file, &plan, (si, li), m, to)?,
        ExitRequest::LeaveLease { .. } => leave_lease(&plan, si, li, m)?,
        ExitRequest::SellEarly { residual_share, .. } => {
            sell_early(catalog, file, &plan, (si, li), m, residual_share.as_ref())?
        }
    };
    variant.id = request_variant_id(scenario_id, request);
    variant.name = format!("{} ({})", plan.scenarios[si].name, describe(request));
    let mut out = plan;
    out.scenarios.insert(si + 1, variant);
    Ok((out, booking))
}

/// Prices `request` on scenario `scenario_id` of `file` against staying: [`exit_request_variant`]
/// builds the variant, `evaluate` prices it and the base with the same ledger.
pub fn price_exit_request(
    catalog: &Catalog,
    file: &ScenarioFile,
    scenario_id: &str,
    request: &ExitRequest,
) -> Result<ExitRequestPrice, Vec<Problem>> {
    let (mut plan, booking) = exit_request_variant(catalog, file, scenario_id, request)?;
    let si = plan.scenarios.iter().position(|s| s.id == scenario_id).unwrap_or(0);
    plan.scenarios = std::mem::take(&mut plan.scenarios)
        .into_iter()
        .skip(si)
        .take(2)
        .collect();
    let e = evaluate(&plan);
    let (Some(base), Some(variant)) = (e.scenarios.first(), e.scenarios.get(1)) else {
        return Err(problem("scenario", "the exit variant could not be evaluated"));
    };
    Ok(ExitRequestPrice {
        scenario: scenario_id.to_owned(),
        request: request.clone(),
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
        base_unmet_pflop_h: base.totals.unmet_pflop_h,
        variant_unmet_pflop_h: variant.totals.unmet_pflop_h,
        booking,
        warnings: variant.warnings.clone(),
    })
}

/// The layer's exit clause, or why leaving it needs one.
fn clause_of(layer: &Layer) -> Result<ExitClause, Vec<Problem>> {
    layer.exit_clause.clone().ok_or_else(|| {
        problem(
            "request.layer",
            format!(
                "layer `{}` has no exit clause; give it one in the scenario to price leaving it",
                layer.id
            ),
        )
    })
}

/// Warns when exit charges fall in or after the horizon's end.
fn warn_late_charges(plan: &Plan, variant: &mut Scenario, layer: &str, cost: &ExitCost) {
    if !cost.exit_charges.is_zero() && cost.effective_month >= plan.horizon_months {
        variant.warnings.push(format!(
            "the exit charges of layer `{layer}` fall in month {}, after the horizon: they are not in this ledger's cash but in the commitments after the horizon (and so in the decision total)",
            cost.effective_month
        ));
    }
}

/// Ends a layer under `cost`: it serves and pays until the exit takes effect, the charges are
/// booked then, and its clause is spent.
fn end_under_clause(l: &mut Layer, cost: &ExitCost) {
    l.exit_clause = None;
    if cost.early {
        l.until_month = Some(
            l.until_month
                .map_or(cost.effective_month, |u| u.min(cost.effective_month)),
        );
    }
    if !cost.exit_charges.is_zero() {
        l.exit_fee = Some((cost.effective_month, cost.exit_charges));
    }
}

fn leave_reservation(plan: &Plan, si: usize, li: usize, m: u32) -> Result<(Scenario, ExitBooking), Vec<Problem>> {
    let layer = &plan.scenarios[si].layers[li];
    if layer.kind != LayerKind::Reserved {
        return Err(problem(
            "request.layer",
            format!(
                "layer `{}` is not reserved capacity: leave a lease with `leave-lease`, sell owned hardware with `sell-early`",
                layer.id
            ),
        ));
    }
    let clause = clause_of(layer)?;
    let scenario_id = &plan.scenarios[si].id;
    let (with, cost) =
        crate::engine::exit::clauses::exit_variant(plan, scenario_id, &layer.id, &clause, m).map_err(|problems| {
            problems
                .into_iter()
                .map(|p| Problem {
                    path: match p.path.as_str() {
                        "notice_month" => "request.month".to_owned(),
                        "layer" => "request.layer".to_owned(),
                        _ => p.path,
                    },
                    message: p.message,
                })
                .collect::<Vec<_>>()
        })?;
    let variant = with.scenarios[si + 1].clone();
    let gpus = layer.gpus.unwrap_or(0);
    let booking = ExitBooking {
        layer: layer.id.clone(),
        month: m,
        effective_month: cost.effective_month,
        gpus_before: gpus,
        gpus_after: 0,
        clause: Some(cost),
        resale: None,
        loan_payoff: Decimal::ZERO,
        replacement: None,
    };
    Ok((variant, booking))
}

/// A scale-down: the reserved commitment reduced under its clause, or owned GPUs sold.
fn scale_down(
    catalog: &Catalog,
    file: &ScenarioFile,
    plan: &Plan,
    (si, li): (usize, usize),
    m: u32,
    kept: u32,
) -> Result<(Scenario, ExitBooking), Vec<Problem>> {
    let layer = &plan.scenarios[si].layers[li];
    if !matches!(layer.kind, LayerKind::Reserved | LayerKind::Owned) {
        return Err(problem(
            "request.layer",
            format!(
                "layer `{}` is paid as used: it commits to no GPUs to give up (cap its GPUs in the scenario instead)",
                layer.id
            ),
        ));
    }
    let had = layer.gpus.unwrap_or(0);
    if kept == 0 {
        return Err(problem(
            "request.gpus",
            "scaling down to zero GPUs is a full exit: price it with `leave-reservation`, `leave-lease` or `sell-early`",
        ));
    }
    if kept >= had {
        return Err(problem(
            "request.gpus",
            format!(
                "layer `{}` has {had} GPUs: a scale-down keeps fewer (from 1 to {})",
                layer.id,
                had.saturating_sub(1)
            ),
        ));
    }
    match layer.kind {
        LayerKind::Owned => {
            let o = owned_to_sell(layer, m, "scale down")?;
            let gpus = o.gpus - kept;
            let resale = sale_resale(catalog, file, plan, (si, li), m, gpus, None)?;
            let mut variant = plan.scenarios[si].clone();
            let l = &mut variant.layers[li];
            if let Some(o) = l.owned.as_mut() {
                o.retired = Some(Retirement {
                    month: m,
                    gpus,
                    resale_share: resale.share,
                });
            }
            variant.assumptions.extend(resale.assumption.clone());
            let booking = ExitBooking {
                layer: layer.id.clone(),
                month: m,
                effective_month: m,
                gpus_before: had,
                gpus_after: kept,
                clause: None,
                resale: Some(resale),
                loan_payoff: Decimal::ZERO,
                replacement: None,
            };
            Ok((variant, booking))
        }
        _ => scale_down_reserved(plan, si, li, m, kept),
    }
}

/// A reserved layer keeps `kept` GPUs; the part given up is a layer of its own that ends when the
/// notice has run, priced under the clause (see the module docs).
fn scale_down_reserved(
    plan: &Plan,
    si: usize,
    li: usize,
    m: u32,
    kept: u32,
) -> Result<(Scenario, ExitBooking), Vec<Problem>> {
    let layer = &plan.scenarios[si].layers[li];
    let clause = clause_of(layer)?;
    let had = layer.gpus.unwrap_or(0);
    let given_up = had - kept;
    let mut part = layer.clone();
    part.id = format!("{}~given-up", layer.id);
    part.gpus = Some(given_up);
    part.exit_clause = None;
    let Some(schedule) = layer_schedule(plan, &part) else {
        return Err(problem("request.layer", "the reserved layer has no term to scale down"));
    };
    if m >= schedule.end_month() {
        return Err(problem(
            "request.month",
            format!(
                "the term of layer `{}` ends in month {}: there is no commitment left to reduce in month {m}",
                layer.id,
                schedule.end_month()
            ),
        ));
    }
    let part_clause = ExitClause {
        notice_months: clause.notice_months,
        fee: match clause.fee {
            TerminationFee::Fixed(v) => TerminationFee::Fixed(v * Decimal::from(given_up) / Decimal::from(had)),
            share @ TerminationFee::ShareOfRemaining(_) => share,
        },
        egress_per_tb: Decimal::ZERO,
        data_tb: Decimal::ZERO,
        offboarding: Decimal::ZERO,
    };
    let cost = exit_cost(&schedule, &part_clause, m);
    end_under_clause(&mut part, &cost);
    let mut variant = plan.scenarios[si].clone();
    variant.layers[li].gpus = Some(kept);
    variant.layers.push(part);
    warn_late_charges(plan, &mut variant, &layer.id, &cost);
    let booking = ExitBooking {
        layer: layer.id.clone(),
        month: m,
        effective_month: cost.effective_month,
        gpus_before: had,
        gpus_after: kept,
        clause: Some(cost),
        resale: None,
        loan_payoff: Decimal::ZERO,
        replacement: None,
    };
    Ok((variant, booking))
}

/// The owned part of a layer that can be sold in month `m` (bought for cash or by a loan, and
/// delivered by then), or why not.
fn owned_to_sell<'l>(
    layer: &'l Layer,
    m: u32,
    what: &str,
) -> Result<&'l crate::engine::model::scenario::Owned, Vec<Problem>> {
    let Some(o) = layer.owned.as_ref() else {
        return Err(problem(
            "request.layer",
            format!("layer `{}` is not owned hardware: there is nothing to {what}", layer.id),
        ));
    };
    if matches!(o.financing, Financing::Lease { .. }) {
        return Err(problem(
            "request.layer",
            format!(
                "layer `{}` is leased: the hardware goes back to the lessor whole, not sold; price `leave-lease`",
                layer.id
            ),
        ));
    }
    if m < o.delivery_month {
        return Err(problem(
            "request.month",
            format!(
                "layer `{}` is delivered in month {}: in month {m} there is no hardware yet to {what}",
                layer.id, o.delivery_month
            ),
        ));
    }
    Ok(o)
}

/// The resale of `gpus` of an owned layer sold in month `m`, by the horizon's rule at the age
/// then (see the module docs), with the figure recorded as an assumption.
fn sale_resale(
    catalog: &Catalog,
    file: &ScenarioFile,
    plan: &Plan,
    (si, li): (usize, usize),
    m: u32,
    gpus: u32,
    typed: Option<&Override>,
) -> Result<EarlyResale, Vec<Problem>> {
    let layer = &plan.scenarios[si].layers[li];
    let o = owned_to_sell(layer, m, "sell")?;
    let age = m - o.delivery_month;
    let scenario_id = &plan.scenarios[si].id;
    let fi = file.scenarios.iter().position(|s| &s.id == scenario_id).unwrap_or(si);
    let spec = file
        .scenarios
        .get(fi)
        .and_then(|s| s.layers.iter().position(|l| l.id == layer.id).map(|j| (s, j)));
    let path = match spec {
        Some((_, j)) => format!("scenarios[{fi}].layers[{j}].residual_share_at_sale"),
        None => "request.residual_share".to_owned(),
    };
    let overridden = |value: Decimal, reason: String| Assumption {
        path: path.clone(),
        value,
        origin: Origin::Override { reason },
    };
    let (share, assumption) = if let Some(t) = typed {
        check_typed_share(t)?;
        (t.value, Some(overridden(t.value, t.reason.clone())))
    } else if let Some((s, j)) = spec
        && let Some(r) = s.layers[j].residual_share
    {
        let reason = s.layers[j]
            .residual_reason
            .clone()
            .filter(|r| !r.trim().is_empty())
            .unwrap_or_else(|| "the layer's residual_share in the scenario file; no reason stated".to_owned());
        (r, Some(overridden(r, reason)))
    } else {
        let point = spec.and_then(|(s, _)| s.price_point).unwrap_or(file.price_point);
        let (share, assumption, _) =
            catalog_resale_share(catalog, layer.accelerator.as_deref(), &layer.id, age, point, &path);
        (share, assumption)
    };
    let amount = to_ledger(
        o.hardware_per_gpu * Decimal::from(o.gpus) * Decimal::from(gpus) / Decimal::from(o.gpus.max(1)) * share,
    );
    Ok(EarlyResale {
        month: m,
        age_months: age,
        gpus,
        share,
        assumption,
        amount,
    })
}

/// A residual share typed with the request: a fraction, with its reason, and no currency.
fn check_typed_share(t: &Override) -> Result<(), Vec<Problem>> {
    let mut problems = Vec::new();
    if t.value < Decimal::ZERO || t.value > Decimal::ONE {
        problems.extend(problem(
            "request.residual_share.value",
            format!(
                "{} is not a fraction between 0 and 1; write the share as a fraction (\"0.45\" for 45%)",
                t.value
            ),
        ));
    }
    if t.reason.trim().is_empty() {
        problems.extend(problem(
            "request.residual_share.reason",
            "say where the resale price comes from (a quote, a buy-back offer)",
        ));
    }
    if t.currency.is_some() {
        problems.extend(problem(
            "request.residual_share.currency",
            "a share is not money, so it has no currency; remove `currency`",
        ));
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// Owned hardware (cash or loan) sold at the start of month `m`.
fn sell_early(
    catalog: &Catalog,
    file: &ScenarioFile,
    plan: &Plan,
    (si, li): (usize, usize),
    m: u32,
    typed: Option<&Override>,
) -> Result<(Scenario, ExitBooking), Vec<Problem>> {
    let layer = &plan.scenarios[si].layers[li];
    let o = owned_to_sell(layer, m, "sell")?;
    let resale = sale_resale(catalog, file, plan, (si, li), m, o.gpus, typed)?;
    let loan_payoff = match o.financing {
        Financing::Loan {
            monthly_rate,
            term_months,
            down_payment,
        } => {
            let principal = o.hardware_per_gpu * Decimal::from(o.gpus) * (Decimal::ONE - down_payment);
            let paid = (m - o.delivery_month).saturating_sub(1) as usize;
            let schedule = amortisation(principal, monthly_rate, term_months);
            to_ledger(if paid == 0 {
                principal
            } else {
                schedule.get(paid - 1).map_or(Decimal::ZERO, |p| p.balance)
            })
        }
        _ => Decimal::ZERO,
    };
    let mut variant = plan.scenarios[si].clone();
    let l = &mut variant.layers[li];
    l.until_month = Some(l.until_month.map_or(m, |u| u.min(m)));
    if let Some(o) = l.owned.as_mut() {
        o.retired = Some(Retirement {
            month: m,
            gpus: o.gpus,
            resale_share: resale.share,
        });
    }
    variant.assumptions.extend(resale.assumption.clone());
    if resale.assumption.is_none() {
        variant.warnings.push(format!(
            "layer `{}`: no resale figure covers the hardware at {} months: its sale in month {m} is counted at 0; type the quoted share with the request",
            layer.id, resale.age_months
        ));
    }
    let booking = ExitBooking {
        layer: layer.id.clone(),
        month: m,
        effective_month: m,
        gpus_before: o.gpus,
        gpus_after: 0,
        clause: None,
        resale: Some(resale),
        loan_payoff,
        replacement: None,
    };
    Ok((variant, booking))
}

/// An owned layer's lease left under its clause: payments stop when the exit takes effect, the
/// hardware goes back then, the charges are booked then.
fn leave_lease(plan: &Plan, si: usize, li: usize, m: u32) -> Result<(Scenario, ExitBooking), Vec<Problem>> {
    let layer = &plan.scenarios[si].layers[li];
    let leased = layer
        .owned
        .as_ref()
        .filter(|o| matches!(o.financing, Financing::Lease { .. }));
    let (Some(o), Some(schedule)) = (leased, layer_schedule(plan, layer)) else {
        return Err(problem(
            "request.layer",
            format!(
                "layer `{}` is not leased hardware: leave a reservation with `leave-reservation`, sell owned hardware with `sell-early`",
                layer.id
            ),
        ));
    };
    let clause = clause_of(layer)?;
    if m >= schedule.end_month() {
        return Err(problem(
            "request.month",
            format!(
                "the lease of layer `{}` ends in month {}: there is nothing left to leave in month {m}",
                layer.id,
                schedule.end_month()
            ),
        ));
    }
    let cost = exit_cost(&schedule, &clause, m);
    let mut variant = plan.scenarios[si].clone();
    let l = &mut variant.layers[li];
    end_under_clause(l, &cost);
    if cost.early
        && let Some(owned) = l.owned.as_mut()
    {
        owned.retired = Some(Retirement {
            month: cost.effective_month,
            gpus: o.gpus,
            resale_share: Decimal::ZERO,
        });
    }
    warn_late_charges(plan, &mut variant, &layer.id, &cost);
    let booking = ExitBooking {
        layer: layer.id.clone(),
        month: m,
        effective_month: cost.effective_month,
        gpus_before: o.gpus,
        gpus_after: 0,
        clause: Some(cost),
        resale: None,
        loan_payoff: Decimal::ZERO,
        replacement: None,
    };
    Ok((variant, booking))
}

/// A layer replaced from month `m` by `to`, resolved by `validate` as part of the scenario.
fn downgrade(
    catalog: &Catalog,
    file: &ScenarioFile,
    plan: &Plan,
    (si, li): (usize, usize),
    m: u32,
    to: &LayerSpec,
) -> Result<(Scenario, ExitBooking), Vec<Problem>> {
    let layer = &plan.scenarios[si].layers[li];
    if layer.kind == LayerKind::Owned {
        return Err(problem(
            "request.layer",
            format!(
                "layer `{}` is owned hardware: sell it with `sell-early` or leave its lease with `leave-lease`, and add the replacement to the scenario",
                layer.id
            ),
        ));
    }
    let (replacement, assumptions, warnings) = resolve_replacement(catalog, file, plan, (si, li), m, to)?;
    let mut variant = plan.scenarios[si].clone();
    let l = &mut variant.layers[li];
    let (clause_cost, effective) = if layer.kind == LayerKind::Reserved {
        let clause = clause_of(layer)?;
        let Some(schedule) = layer_schedule(plan, layer) else {
            return Err(problem("request.layer", "the reserved layer has no term to leave"));
        };
        let cost = exit_cost(&schedule, &clause, m);
        end_under_clause(l, &cost);
        let effective = cost.effective_month;
        (Some(cost), effective)
    } else {
        l.until_month = Some(l.until_month.map_or(m, |u| u.min(m)));
        (None, m)
    };
    if let Some(cost) = &clause_cost {
        warn_late_charges(plan, &mut variant, &layer.id, cost);
    }
    variant.layers.push(replacement);
    variant.assumptions.extend(assumptions);
    for w in warnings {
        if !variant.warnings.contains(&w) {
            variant.warnings.push(w);
        }
    }
    let booking = ExitBooking {
        layer: layer.id.clone(),
        month: m,
        effective_month: effective,
        gpus_before: layer.gpus.unwrap_or(0),
        gpus_after: 0,
        clause: clause_cost,
        resale: None,
        loan_payoff: Decimal::ZERO,
        replacement: Some(to.id.clone()),
    };
    Ok((variant, booking))
}

/// Resolves the replacement layer as the scenario file would: the scenario's spec with `to`
/// appended (starting in `m`, serving what the old layer served unless it says), validated alone.
/// Returns the resolved layer, its assumptions (paths as in the scenario) and the warnings;
/// problems are given at their paths under `request.to`.
fn resolve_replacement(
    catalog: &Catalog,
    file: &ScenarioFile,
    plan: &Plan,
    (si, li): (usize, usize),
    m: u32,
    to: &LayerSpec,
) -> Result<(Layer, Vec<Assumption>, Vec<String>), Vec<Problem>> {
    if to.kind == LayerKind::Owned {
        return Err(problem(
            "request.to.kind",
            "a downgrade replaces a layer by rented capacity (on-demand, reserved, spot, pooled, token-metered); buying hardware is a scenario of its own",
        ));
    }
    if to.start_month != 0 && to.start_month != m {
        return Err(problem(
            "request.to.start_month",
            format!("the replacement starts in the downgrade's month {m}; leave `start_month` out"),
        ));
    }
    let scenario_id = &plan.scenarios[si].id;
    let Some(fi) = file.scenarios.iter().position(|s| &s.id == scenario_id) else {
        return Err(problem("scenario", format!("the file has no scenario `{scenario_id}`")));
    };
    let mut spec = to.clone();
    spec.start_month = m;
    if spec.serves.is_none() {
        spec.serves = plan.scenarios[si].layers[li].serves.as_ref().map(|sv| {
            sv.iter()
                .filter_map(|&w| plan.workloads.get(w).map(|w| w.id.clone()))
                .collect()
        });
    }
    let mut scenario = file.scenarios[fi].clone();
    let k = scenario.layers.len();
    scenario.layers.push(spec);
    let one = ScenarioFile {
        scenarios: vec![scenario],
        ..file.clone()
    };
    let here = format!("scenarios[0].layers[{k}]");
    let there = format!("scenarios[{fi}].layers[{k}]");
    let resolved = validate(catalog, &one, None).map_err(|problems| {
        problems
            .into_iter()
            .map(|p| Problem {
                path: match p.path.strip_prefix(&here) {
                    Some(rest) => format!("request.to{rest}"),
                    None => p.path,
                },
                message: p.message,
            })
            .collect::<Vec<_>>()
    })?;
    let Some(mut s) = resolved.scenarios.into_iter().next() else {
        return Err(problem("request.to", "the replacement layer could not be resolved"));
    };
    let Some(layer) = s.layers.pop() else {
        return Err(problem("request.to", "the replacement layer could not be resolved"));
    };
    let assumptions = s
        .assumptions
        .into_iter()
        .filter_map(|a| {
            a.path.strip_prefix(&here).map(|rest| Assumption {
                path: format!("{there}{rest}"),
                ..a.clone()
            })
        })
        .collect();
    Ok((layer, assumptions, s.warnings))
}

/// One scenario's ways out as a memo states them ([`standard_ways_out`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WaysOut {
    pub scenario: String,
    /// The month they are priced from (the middle of the horizon).
    pub month: u32,
    pub priced: Vec<ExitRequestPrice>,
    /// The ways the engine refused for this scenario, in words ("scale dgx down …: why").
    pub refused: Vec<String>,
}

/// [`standard_ways_out`] for each of `scenarios` of `file`.
pub fn ways_out_of(catalog: &crate::catalog::Catalog, file: &ScenarioFile, scenarios: &[String]) -> Vec<WaysOut> {
    scenarios
        .iter()
        .map(|id| {
            let (priced, refused) = standard_ways_out(catalog, file, id);
            WaysOut {
                scenario: id.clone(),
                month: file.horizon_months / 2,
                priced,
                refused,
            }
        })
        .collect()
}

/// The ways out a memo states for one scenario, each priced against staying: for every layer that
/// has one, its ways out from the middle of the horizon (the month a reader most often asks
/// about: "what if we change course half-way?"): leave a reservation, scale it down to half its
/// GPUs, downgrade it to on-demand on the same offer; sell owned hardware early, or scale it down
/// to half; leave a lease. A way the engine refuses for this layer (no clause, nothing to scale)
/// is left out, not invented; the caller gets the refusals' messages beside the prices.
pub fn standard_ways_out(
    catalog: &crate::catalog::Catalog,
    file: &ScenarioFile,
    scenario_id: &str,
) -> (Vec<ExitRequestPrice>, Vec<String>) {
    let Some(scenario) = file.scenarios.iter().find(|s| s.id == scenario_id) else {
        return (Vec::new(), Vec::new());
    };
    let horizon = file.horizon_months;
    let month = horizon / 2;
    let mut requests = Vec::new();
    for l in &scenario.layers {
        let layer = l.id.clone();
        let half = l.gpus.map(|g| g / 2).filter(|g| *g > 0);
        match l.kind {
            LayerKind::Reserved => {
                requests.push(ExitRequest::LeaveReservation {
                    layer: layer.clone(),
                    month,
                });
                if let Some(gpus) = half {
                    requests.push(ExitRequest::ScaleDown {
                        layer: layer.clone(),
                        month,
                        gpus,
                    });
                }
                if let Some(offer) = &l.offer {
                    let mut to = crate::engine::input::scenario_file::empty_layer(
                        &format!("{layer}-on-demand"),
                        LayerKind::OnDemand,
                    );
                    to.offer = Some(offer.clone());
                    requests.push(ExitRequest::Downgrade {
                        layer,
                        month,
                        to: Box::new(to),
                    });
                }
            }
            LayerKind::Owned => {
                let leased = l
                    .financing
                    .as_ref()
                    .is_some_and(|f| f.method == crate::engine::input::scenario_file::FinancingMethod::Lease);
                if leased {
                    requests.push(ExitRequest::LeaveLease { layer, month });
                } else {
                    requests.push(ExitRequest::SellEarly {
                        layer: layer.clone(),
                        month,
                        residual_share: None,
                    });
                    if let Some(gpus) = half {
                        requests.push(ExitRequest::ScaleDown { layer, month, gpus });
                    }
                }
            }
            _ => {}
        }
    }
    let mut priced = Vec::new();
    let mut refused = Vec::new();
    for r in &requests {
        match price_exit_request(catalog, file, scenario_id, r) {
            Ok(p) => priced.push(p),
            Err(problems) => refused.extend(problems.into_iter().map(|p| format!("{}: {}", describe(r), p.message))),
        }
    }
    (priced, refused)
}
