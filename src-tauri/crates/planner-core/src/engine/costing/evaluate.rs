//! Evaluation: a resolved [`Plan`] in, a ledger and decision figures per scenario out.
//!
//! This step cannot fail: every input was checked by `validate`, and anything doubtful about the
//! plan (a rack beyond its cooling, a model split over a slow fabric, demand left unmet) comes back
//! as a warning beside the numbers. It reads no clock: the months are the plan's.
//!
//! Per scenario, the work done outside the month loop (rates, routes, rack and network plans,
//! loan schedules) is done once, so the loop itself only adds and multiplies; 8 scenarios over 36
//! months evaluate well under a millisecond (see `benches/evaluate.rs`).

use rust_decimal::Decimal;
use rust_decimal::dec;
use serde::Serialize;

use crate::calendar::YearMonth;
use crate::engine::blocks::allocation::{Allocation, Rate, Routes, allocate};
use crate::engine::blocks::finance::{LoanPeriod, amortisation, monthly_rate, npv, straight_line_monthly};
use crate::engine::blocks::network::{NetworkPlan, plan_network};
use crate::engine::blocks::rack::{RackInput, RackPlan, plan_racks};
use crate::engine::blocks::sizing::{FabricSpeed, Parallelism, gpus_for_memory, memory_need, split_advice};
use crate::engine::input::scenario_file::LayerKind;
use crate::engine::model::assumption::Assumption;
use crate::engine::model::commitment::{lease_payment, reserved_payment};
use crate::engine::model::ledger::{Amounts, Category, Ledger, LedgerMonth, Usage};
use crate::engine::model::market::{MonthPath, scaled};
use crate::engine::model::scenario::{CloudEnergy, Financing, Layer, Owned, Plan, Scenario, Tier};
use crate::engine::model::workload::{FLOP_PER_PFLOP_HOUR, Workload};
use crate::workload_kind::WorkloadKind;

/// The evaluation of a whole plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    pub title: String,
    pub currency: String,
    pub start: YearMonth,
    pub horizon_months: u32,
    pub discount_rate: Decimal,
    pub monthly_discount_rate: Decimal,
    /// The workloads' ids, in file order (what per-workload figures are indexed by).
    pub workloads: Vec<String>,
    pub scenarios: Vec<ScenarioResult>,
    /// With a tax profile, the basis the scenarios are ranked on (the profile's `rank`); absent
    /// without one, when they are ranked before tax as always.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranked_on: Option<crate::engine::input::tax_spec::TaxBasis>,
}

/// The figures a decision rests on, over the horizon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub cash: Amounts,
    pub book: Amounts,
    pub total_cash: Decimal,
    pub total_book: Decimal,
    /// Net present value on the decision basis at the plan's discount rate: the cash costs of
    /// each month of the horizon, then the commitments (and exit charges) that fall due after it,
    /// each discounted from the month it falls due.
    pub npv: Decimal,
    pub demand_pflop_h: Decimal,
    pub served_pflop_h: Decimal,
    pub unmet_pflop_h: Decimal,
    pub delivered_gpu_h: Decimal,
    pub tokens: Decimal,
    /// Total cash less the shadow cost of work left undone (`unserved_cost`), per GPU-hour
    /// delivered: the cost of the work actually done.
    pub cost_per_gpu_hour: Option<Decimal>,
    /// As `cost_per_gpu_hour`, per useful PFLOP-hour served.
    pub cost_per_useful_pflop_hour: Option<Decimal>,
    pub cost_per_million_tokens: Option<Decimal>,
    /// Busy over available owned GPU-hours.
    pub owned_utilisation: Option<Decimal>,
    pub owned_available_gpu_h: Decimal,
    pub owned_busy_gpu_h: Decimal,
    pub idle_cost: Decimal,
    /// All energy: owned (metered at the facility) plus rented (estimated).
    pub energy_kwh: Decimal,
    pub emissions_kg: Decimal,
    /// The estimated part of `energy_kwh` and `emissions_kg`: rented layers, from catalog power,
    /// provider PUE and grid intensity (see each scenario's assumptions).
    pub cloud_energy_kwh: Decimal,
    pub cloud_emissions_kg: Decimal,
    /// Resale of owned hardware at the horizon, and of hardware a plan variant sells earlier
    /// (already in the ledger, as a negative cost).
    pub residual_value: Decimal,
    /// Commitments (reserved terms, leases) that run on after the horizon and are not in it, and
    /// exit charges of a plan variant that fall due at or after it.
    pub commitments_after_horizon: Decimal,
    /// Unserved work at its shadow price (already in the ledger, category `unserved_work`, and in
    /// the totals; not in the costs per unit, which are over the work done).
    pub unserved_cost: Decimal,
    /// What scenarios are ranked and compared on: the total over the horizon (unserved work at
    /// its shadow price included) plus the commitments that fall due after it.
    pub decision_total: Decimal,
    /// The after-tax figures, with a tax profile only ([`crate::engine::costing::tax_view`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_tax: Option<crate::engine::costing::tax_view::AfterTax>,
}

/// The rack and network plan of one owned layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LayerPlan {
    pub layer: String,
    pub racks: RackPlan,
    pub network: NetworkPlan,
}

/// The memory sizing of one workload on one layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SizingNote {
    pub workload: String,
    pub layer: String,
    pub memory_gb: Decimal,
    pub gpus_for_memory: u32,
    pub parallelism: Parallelism,
}

/// One scenario's results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScenarioResult {
    pub id: String,
    pub name: String,
    pub totals: Totals,
    pub ledger: Ledger,
    pub layer_plans: Vec<LayerPlan>,
    pub sizing: Vec<SizingNote>,
    pub warnings: Vec<String>,
    pub assumptions: Vec<Assumption>,
    /// The cost of leaving each layer that carries an exit clause, at every month of the horizon
    /// ([`crate::engine::model::commitment::layer_exit_costs`]); nothing of it is in the ledger.
    pub exit_costs: Vec<crate::engine::model::commitment::LayerExitCosts>,
    /// What buying against renting needs from this scenario (the `compare` module).
    pub buy_rent: BuyRentBasis,
    /// What the plan does month by month: dispatch, bridges, spot arithmetic, GPUs needed.
    pub operations: crate::engine::costing::operations::Operations,
}

/// A scenario's figures for the buy-versus-rent question, independent of the demand declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BuyRentBasis {
    /// Scenario-wide costs over the horizon that do not move with use: staff, software, fixed
    /// storage and egress, stack adaptation.
    pub scenario_fixed: Decimal,
    /// The owned side, when the scenario owns GPUs that are in service within the horizon.
    pub owned: Option<OwnedBasis>,
    /// Per workload: the cheapest price of one useful PFLOP-hour among this scenario's layers
    /// paid by use (on-demand, spot with its checkpoint overhead, pooled, token-metered), egress
    /// share and the layer's running cost per GPU-hour included, with the layer's id; only when no such layer may serve the workload, its
    /// cheapest reserved layer at its hourly rate (a reservation is billed whether used or not,
    /// so it prices an hour of use only when the scenario has nothing else).
    pub rent: Vec<Option<(Decimal, String)>>,
}

/// The owned hardware of a scenario, as fixed and variable costs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OwnedBasis {
    /// Owned-layer cash over the horizon that does not move with use: capital net of resale,
    /// installation, network, room, electricity at idle power for every in-service hour,
    /// colocation, support, maintenance, financing.
    pub layer_fixed: Decimal,
    /// Cost of one busy GPU-hour: power above idle (× PUE × tariff) and the running cost per
    /// hour of use, weighted by available hours.
    pub per_busy_gpu_hour: Decimal,
    /// Owned GPUs in service, averaged over the horizon (GPU-hours in service ÷ horizon hours).
    pub gpu_equivalents: Decimal,
    /// Available over in-service GPU-hours.
    pub availability: Decimal,
    /// Per workload: useful PFLOP-hours one owned GPU-hour gives it (capacity-weighted over the
    /// owned layers that may serve it), `None` when no owned layer may.
    pub useful_per_gpu_hour: Vec<Option<Decimal>>,
}

/// Evaluates every scenario of the plan.
pub fn evaluate(plan: &Plan) -> Evaluation {
    let monthly = monthly_rate(plan.discount_rate).unwrap_or_default();
    let scenarios = plan
        .scenarios
        .iter()
        .map(|s| scenario_result(plan, s, monthly))
        .collect();
    evaluation(plan, monthly, scenarios)
}

/// `evaluate` with the scenarios shared out over the machine's cores: the same figures in the
/// same order, sooner when there are several scenarios (each is evaluated on its own). For one
/// evaluation a person waits for (a comparison, a what-if move); not for work already spread
/// over every core, such as the risk draws, which call `evaluate`.
pub fn evaluate_parallel(plan: &Plan) -> Evaluation {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let n = plan.scenarios.len();
    if cores < 2 || n < 2 {
        return evaluate(plan);
    }
    let monthly = monthly_rate(plan.discount_rate).unwrap_or_default();
    let chunk = n.div_ceil(cores.min(n));
    let one = |s: &Scenario| scenario_result(plan, s, monthly);
    let scenarios = std::thread::scope(|scope| {
        let parts: Vec<_> = plan
            .scenarios
            .chunks(chunk)
            .map(|part| (part, scope.spawn(move || part.iter().map(one).collect::<Vec<_>>())))
            .collect();
        parts
            .into_iter()
            // A part whose thread failed is evaluated here again: the same failure then
            // reaches the caller as it would without threads.
            .flat_map(|(part, handle)| handle.join().unwrap_or_else(|_| part.iter().map(one).collect()))
            .collect()
    });
    evaluation(plan, monthly, scenarios)
}

/// One scenario's result. A scenario with its own demand, growth or discount rate is evaluated
/// against the plan as it sees it; every other against the plan itself.
fn scenario_result(plan: &Plan, s: &Scenario, monthly: Decimal) -> ScenarioResult {
    match plan.as_seen_by(s) {
        Some(own) => evaluate_scenario(&own, s, monthly_rate(own.discount_rate).unwrap_or_default()),
        None => evaluate_scenario(plan, s, monthly),
    }
}

fn evaluation(plan: &Plan, monthly: Decimal, scenarios: Vec<ScenarioResult>) -> Evaluation {
    Evaluation {
        title: plan.title.clone(),
        currency: plan.currency.clone(),
        start: plan.start,
        horizon_months: plan.horizon_months,
        discount_rate: plan.discount_rate,
        monthly_discount_rate: monthly,
        workloads: plan.workloads.iter().map(|w| w.id.clone()).collect(),
        scenarios,
        ranked_on: plan.tax.as_ref().map(|t| t.rank),
    }
}

/// The owned-layer figures fixed before the month loop.
struct OwnedSetup {
    layer: usize,
    hardware: Decimal,
    /// Capital other than hardware, paid on delivery: installation, network, power, cooling.
    extras: [(Category, Decimal); 4],
    dep_monthly: Decimal,
    loan: Vec<LoanPeriod>,
    loan_principal: Decimal,
    lease_payment: Decimal,
    it_kw: Decimal,
    kw_per_gpu: Decimal,
    /// Capital that is not servers (installation, network, power, cooling), for maintenance.
    non_server_capital: Decimal,
    // Running sums for the book view's disposal line.
    capital_paid: Decimal,
    depreciated: Decimal,
    /// The share of the depreciable capital that GPUs retired before the horizon carry (their
    /// hardware over the whole capital); 0 without a partial retirement.
    retired_capital_share: Decimal,
    /// Book value already written off by an early disposal, left out of the horizon's line.
    disposed: Decimal,
}

fn workload_priority(w: &Workload) -> u8 {
    w.class as u8
}

fn rate_for(w: &Workload, l: &Layer) -> Option<Rate> {
    match l.kind {
        // A layer priced by kind of token serves only workloads that declare their token mix.
        LayerKind::TokenMetered => match (w.kind, w.flops_per_token, l.token_price(w)) {
            (WorkloadKind::Inference, Some(fpt), Some(_)) => Rate::new(dec!(1000000) * fpt / FLOP_PER_PFLOP_HOUR),
            _ => None,
        },
        LayerKind::Spot if !w.takes_spot() => None,
        _ => {
            let peak = if w.precision.uses_8bit_peak() {
                l.peak_tflops_8
            } else {
                l.peak_tflops_16
            };
            let mfu = l.mfu.unwrap_or(w.mfu);
            Rate::new(peak * mfu / dec!(1000) / l.overhead_factor)
        }
    }
}

fn routes(plan: &Plan, s: &Scenario) -> Routes {
    let mut order: Vec<(Tier, u8, usize, usize, Rate)> = Vec::new();
    for (li, l) in s.layers.iter().enumerate() {
        for (wi, w) in plan.workloads.iter().enumerate() {
            if l.serves.as_ref().is_some_and(|sv| !sv.contains(&wi)) {
                continue;
            }
            if let Some(r) = rate_for(w, l) {
                order.push((Tier::of(l.kind), workload_priority(w), wi, li, r));
            }
        }
    }
    order.sort_by_key(|a| (a.0, a.1, a.2, a.3));
    Routes {
        visits: order.into_iter().map(|(_, _, w, l, r)| (w, l, r)).collect(),
        workloads: plan.workloads.len(),
        layers: s.layers.len(),
    }
}

fn active(l: &Layer, m: u32) -> bool {
    m >= l.from_month && l.until_month.is_none_or(|u| m < u)
}

/// Estimated kWh a rented layer drew in `month`: its GPU-hours × kW per GPU × PUE. Reserved
/// layers run for the whole committed hours: used hours at full power, the rest at the idle
/// share, as owned GPUs. Spot, on-demand and pooled count the paid hours (the machine goes back
/// to the provider when released). Token-metered layers count the GPU-hours their served compute
/// needs at the layer's peak and `mfu`.
fn cloud_kwh(
    l: &Layer,
    e: &CloudEnergy,
    units: Decimal,
    useful: Decimal,
    mfu: Decimal,
    month: YearMonth,
    active: bool,
) -> Decimal {
    let gpu_hours = match l.kind {
        LayerKind::Reserved if active => {
            let committed = Decimal::from(l.gpus.unwrap_or(0)) * month.hours();
            let idle = (committed - units).max(Decimal::ZERO);
            units + idle * e.idle_power_share
        }
        LayerKind::Reserved => units,
        LayerKind::Spot | LayerKind::OnDemand | LayerKind::Pooled => units,
        LayerKind::TokenMetered => {
            let per_gpu_hour = l.peak_tflops_16 * mfu / dec!(1000);
            if per_gpu_hour > Decimal::ZERO {
                useful / per_gpu_hour
            } else {
                Decimal::ZERO
            }
        }
        LayerKind::Owned => Decimal::ZERO,
    };
    gpu_hours * e.kw_per_gpu * e.pue
}

/// One scenario through the stages of an evaluation: the routes and the warnings known before
/// any month, the owned layers' setup (racks, network, capital, financing), the memory sizing,
/// the month loop (dispatch, then every cost booked in the cash and the book view), and the
/// figures taken from the finished ledger (totals, commitments after the horizon, the
/// buy-versus-rent basis).
fn evaluate_scenario(plan: &Plan, s: &Scenario, monthly: Decimal) -> ScenarioResult {
    let routes = routes(plan, s);
    let mut warnings = s.warnings.clone();
    warn_unrouted_workloads(plan, &routes, &mut warnings);
    let (layer_plans, owned) = owned_setups(plan, s, &mut warnings);
    let sizing = sizing_notes(plan, s, &routes, &mut warnings);
    let token_mfu = token_mfu(plan, s, &routes);
    let mut run = run_months(plan, s, &routes, &token_mfu, owned);
    let dispatch = std::mem::take(&mut run.dispatch);
    let spot = crate::engine::costing::operations::spot_notes(s, &dispatch);
    warnings.extend(spot.iter().filter_map(|n| n.notice_warning.clone()));
    let operations = crate::engine::costing::operations::Operations {
        layers: crate::engine::costing::operations::ops_layers(s),
        workloads: plan.workloads.iter().map(|w| w.id.clone()).collect(),
        bridges: crate::engine::costing::operations::bridges(plan, s, &routes, &dispatch),
        needs: crate::engine::costing::operations::needs(plan, s, &routes, &dispatch),
        spot,
        months: dispatch,
    };
    if run.unmet_total > Decimal::ZERO {
        warnings.push(format!(
            "{} useful PFLOP-hours of demand are not served: no layer had capacity left for them",
            run.unmet_total.round_dp(1).normalize()
        ));
    }
    let after = commitments_after_horizon(plan, s);
    let buy_rent = BuyRentBasis {
        scenario_fixed: scenario_fixed(plan, s),
        owned: owned_basis(&run),
        rent: rent_prices(plan, s, &routes),
    };
    let token_cost = run.token_cost();
    let mut totals = totals(&run.ledger, monthly, run.residual_value, &after);
    totals.after_tax = plan
        .tax
        .as_ref()
        .map(|t| crate::engine::costing::tax_view::after_tax(&run.ledger, monthly, &after, t.rate));
    totals.cost_per_million_tokens =
        (totals.tokens > Decimal::ZERO).then(|| token_cost / (totals.tokens / dec!(1000000)));
    ScenarioResult {
        id: s.id.clone(),
        name: s.name.clone(),
        totals,
        ledger: run.ledger,
        layer_plans,
        sizing,
        warnings,
        assumptions: s.assumptions.clone(),
        exit_costs: s
            .layers
            .iter()
            .filter_map(|l| crate::engine::model::commitment::layer_exit_costs(plan, l))
            .collect(),
        buy_rent,
        operations,
    }
}

/// Warns of every workload that no layer of the scenario may serve.
fn warn_unrouted_workloads(plan: &Plan, routes: &Routes, warnings: &mut Vec<String>) {
    for (wi, w) in plan.workloads.iter().enumerate() {
        if !routes.visits.iter().any(|v| v.0 == wi) {
            warnings.push(format!("no layer of this scenario can serve workload `{}`", w.id));
        }
    }
}

/// Owned layers: racks, network, capital, financing schedules, fixed before the month loop, with
/// each layer's rack and network plan. Warns of servers without a fabric, of racks beyond their
/// limits and of hardware delivered after the horizon.
fn owned_setups(plan: &Plan, s: &Scenario, warnings: &mut Vec<String>) -> (Vec<LayerPlan>, Vec<OwnedSetup>) {
    let mut layer_plans = Vec::new();
    let mut owned = Vec::new();
    for (li, l) in s.layers.iter().enumerate() {
        let Some(o) = &l.owned else { continue };
        let racks = plan_racks(&RackInput {
            gpus: o.gpus,
            gpus_per_server: o.gpus_per_server,
            server_kw: o.server_kw,
            kw_per_rack_limit: s.facility.as_ref().map_or(Decimal::MAX, |f| f.kw_per_rack_limit),
            cooling: s.facility.as_ref().and_then(|f| f.cooling.clone()),
        });
        let network = layer_network(s, l, o, racks.servers, warnings);
        warnings.extend(racks.warnings.iter().map(|w| format!("layer `{}`: {w}", l.id)));
        if o.delivery_month >= plan.horizon_months {
            warnings.push(format!(
                "layer `{}` is delivered in month {}, after the horizon: it serves nothing here",
                l.id, o.delivery_month
            ));
        }
        owned.push(owned_setup(s, li, o, &racks, &network));
        layer_plans.push(LayerPlan {
            layer: l.id.clone(),
            racks,
            network,
        });
    }
    (layer_plans, owned)
}

/// The network of an owned layer on the scenario's fabric; without a fabric, none (and a
/// warning when the layer has more than one server, whose fabric is then not counted).
fn layer_network(s: &Scenario, l: &Layer, o: &Owned, servers: u32, warnings: &mut Vec<String>) -> NetworkPlan {
    match &s.fabric {
        Some(f) => plan_network(o.gpus, servers, &f.cost),
        None => {
            if servers > 1 {
                warnings.push(format!(
                    "layer `{}` has {} servers but the scenario names no network fabric; its cost is not counted",
                    l.id, servers
                ));
            }
            plan_network(
                0,
                0,
                &crate::engine::blocks::network::FabricCost {
                    id: String::new(),
                    per_port_cost: Decimal::ZERO,
                    switch_radix: None,
                    switch_cost: None,
                    optic_cost: None,
                },
            )
        }
    }
}

/// The capital of an owned layer and the schedules that pay for it: hardware, the other capital
/// paid on delivery, straight-line depreciation, the loan's amortisation or the lease payment.
fn owned_setup(s: &Scenario, layer: usize, o: &Owned, racks: &RackPlan, network: &NetworkPlan) -> OwnedSetup {
    let (pd, cu) = s.facility.as_ref().map_or((Decimal::ZERO, Decimal::ZERO), |f| {
        (
            f.power_distribution_per_rack * Decimal::from(racks.racks),
            f.cooling_upgrade_per_rack * Decimal::from(racks.racks),
        )
    });
    let hardware = o.hardware_per_gpu * Decimal::from(o.gpus);
    let extras = [
        (Category::Installation, o.installation),
        (Category::Network, network.cost),
        (Category::PowerDistribution, pd),
        (Category::Cooling, cu),
    ];
    let extras_sum: Decimal = extras.iter().map(|e| e.1).sum();
    let leased = matches!(o.financing, Financing::Lease { .. });
    let capital = if leased { extras_sum } else { hardware + extras_sum };
    let retired_capital_share = match o.retired {
        Some(r) if !leased && capital > Decimal::ZERO => {
            hardware * Decimal::from(r.gpus.min(o.gpus)) / Decimal::from(o.gpus.max(1)) / capital
        }
        _ => Decimal::ZERO,
    };
    let (loan, loan_principal) = match o.financing {
        Financing::Loan {
            monthly_rate,
            term_months,
            down_payment,
        } => {
            let principal = hardware * (Decimal::ONE - down_payment);
            (amortisation(principal, monthly_rate, term_months), principal)
        }
        _ => (Vec::new(), Decimal::ZERO),
    };
    OwnedSetup {
        layer,
        hardware,
        extras,
        dep_monthly: straight_line_monthly(capital, capital * o.salvage_share, o.life_months),
        loan,
        loan_principal,
        lease_payment: lease_payment(o).unwrap_or(Decimal::ZERO),
        it_kw: racks.it_kw,
        kw_per_gpu: o.server_kw / Decimal::from(o.gpus_per_server.max(1)),
        non_server_capital: extras_sum,
        capital_paid: Decimal::ZERO,
        depreciated: Decimal::ZERO,
        retired_capital_share,
        disposed: Decimal::ZERO,
    }
}

/// Memory fit and the split advice, per workload with a model and layer serving it. Warns of a
/// model that does not fit in a layer's GPUs and passes on the split advice's warnings.
fn sizing_notes(plan: &Plan, s: &Scenario, routes: &Routes, warnings: &mut Vec<String>) -> Vec<SizingNote> {
    let mut sizing = Vec::new();
    for (wi, w) in plan.workloads.iter().enumerate() {
        let Some(shape) = &w.shape else { continue };
        let need = memory_need(shape, w.kind, w.method);
        for (li, l) in s.layers.iter().enumerate() {
            if l.memory_gb <= Decimal::ZERO || !routes.visits.iter().any(|v| v.0 == wi && v.1 == li) {
                continue;
            }
            let per_server = l
                .owned
                .as_ref()
                .map_or(crate::engine::blocks::sizing::RENTED_GPUS_PER_SERVER, |o| {
                    o.gpus_per_server
                });
            let fabric = s.fabric.as_ref().map(|f| FabricSpeed {
                port_gbps: f.port_gbps,
                rdma: f.rdma,
            });
            let fabric = if l.owned.is_some() {
                fabric
            } else {
                Some(FabricSpeed {
                    port_gbps: 400,
                    rdma: true,
                })
            };
            let training = w.kind != WorkloadKind::Inference;
            let advice = split_advice(
                need.total_gb,
                l.memory_gb,
                per_server,
                l.has_scale_up_link,
                fabric,
                training,
            );
            let n = gpus_for_memory(need.total_gb, l.memory_gb);
            if let Some(g) = l.gpus
                && n > g
            {
                warnings.push(format!(
                    "workload `{}` needs {} GB ({n} GPUs of {} GB) but layer `{}` has {g}: it does not fit in memory",
                    w.id,
                    need.total_gb.round_dp(1).normalize(),
                    l.memory_gb.normalize(),
                    l.id
                ));
            }
            warnings.extend(
                advice
                    .warnings
                    .iter()
                    .map(|m| format!("workload `{}` on layer `{}`: {m}", w.id, l.id)),
            );
            sizing.push(SizingNote {
                workload: w.id.clone(),
                layer: l.id.clone(),
                memory_gb: need.total_gb,
                gpus_for_memory: n,
                parallelism: advice.parallelism,
            });
        }
    }
    sizing
}

/// The MFU a token-metered layer's hours are estimated at: its own, else the mean of the
/// workloads routed to it.
fn token_mfu(plan: &Plan, s: &Scenario, routes: &Routes) -> Vec<Decimal> {
    s.layers
        .iter()
        .enumerate()
        .map(|(li, l)| {
            l.mfu.unwrap_or_else(|| {
                let mfus: Vec<Decimal> = routes
                    .visits
                    .iter()
                    .filter(|v| v.1 == li)
                    .map(|v| plan.workloads[v.0].mfu)
                    .collect();
                if mfus.is_empty() {
                    Decimal::ZERO
                } else {
                    mfus.iter().copied().sum::<Decimal>() / Decimal::from(mfus.len())
                }
            })
        })
        .collect()
}

/// The tokens one useful PFLOP-hour gives each workload (0 where its model is unknown).
fn tokens_per_useful(plan: &Plan) -> Vec<Decimal> {
    plan.workloads
        .iter()
        .map(|w| {
            w.flops_per_token
                .filter(|f| *f > Decimal::ZERO)
                .map_or(Decimal::ZERO, |f| FLOP_PER_PFLOP_HOUR / f)
        })
        .collect()
}

/// The facility figures owned layers run at; without a facility, a PUE of 1 and nothing to pay
/// or emit.
#[derive(Clone, Copy)]
struct Site {
    pue: Decimal,
    tariff: Decimal,
    grid: Decimal,
    colo: Decimal,
}

impl Site {
    fn of(s: &Scenario) -> Site {
        let (pue, tariff, grid, colo) = s
            .facility
            .as_ref()
            .map_or((Decimal::ONE, Decimal::ZERO, Decimal::ZERO, Decimal::ZERO), |f| {
                (f.pue, f.tariff_per_kwh, f.grid_gco2_per_kwh, f.colocation_per_kw_month)
            });
        Site {
            pue,
            tariff,
            grid,
            colo,
        }
    }
}

/// What every booking of one month reads: the month, the plan's routes and facility, and what
/// dispatch decided.
struct Month<'a> {
    m: u32,
    ym: YearMonth,
    hours: Decimal,
    horizon: u32,
    routes: &'a Routes,
    site: Site,
    token_mfu: &'a [Decimal],
    capacity: &'a [Option<Decimal>],
    alloc: &'a Allocation,
    /// The scenario's support path (owned support and non-server maintenance move with it).
    support: Option<&'a MonthPath>,
}

/// Costs as the cash and the book view see them.
#[derive(Default)]
struct Books {
    cash: Amounts,
    book: Amounts,
}

impl Books {
    /// A cost both views book alike.
    fn add(&mut self, c: Category, amount: Decimal) {
        self.cash.add(c, amount);
        self.book.add(c, amount);
    }
}

/// What the month loop adds up over the horizon, beside the ledger itself.
struct Run {
    ledger: Ledger,
    cumulative: Decimal,
    residual_value: Decimal,
    unmet_total: Decimal,
    horizon_hours: Decimal,
    // Per layer over the horizon: its cost, the units it gave, and the units it gave to
    // workloads whose tokens are counted (for the cost per million tokens).
    layer_cost: Vec<Decimal>,
    layer_units: Vec<Decimal>,
    layer_token_units: Vec<Decimal>,
    owned: OwnedSums,
    /// Each month's dispatch, for the plan's own view ([`crate::engine::costing::operations`]).
    dispatch: Vec<crate::engine::costing::operations::DispatchMonth>,
    /// The after-tax view, with a tax profile only.
    tax: Option<crate::engine::costing::tax_view::TaxRun>,
}

/// The owned side as fixed and variable costs (for buy versus rent).
struct OwnedSums {
    variable: Decimal,
    layer_cash: Decimal,
    in_service_h: Decimal,
    rate_weighted: Decimal,
    useful_weighted: Vec<Decimal>,
    useful_weight: Vec<Decimal>,
}

/// The month loop: each month, the workloads' demand and the layers' capacity, dispatch, then
/// every cost booked (rented layers, owned layers, the scenario's running costs) and the month
/// added to the ledger.
fn run_months(plan: &Plan, s: &Scenario, routes: &Routes, token_mfu: &[Decimal], mut owned: Vec<OwnedSetup>) -> Run {
    let horizon = plan.horizon_months;
    let site = Site::of(s);
    let tokens_per_useful = tokens_per_useful(plan);
    let mut run = Run::new(plan, s);
    let mut growth: Vec<Decimal> = vec![Decimal::ONE; plan.workloads.len()];
    let mut demand = vec![Decimal::ZERO; plan.workloads.len()];
    let mut capacity: Vec<Option<Decimal>> = vec![None; s.layers.len()];
    let mut alloc = Allocation::default();
    for m in 0..horizon {
        let ym = plan.start.plus(m);
        let hours = ym.hours();
        run.horizon_hours += hours;
        month_demand(plan, m, ym.days(), &mut growth, &mut demand);
        month_capacity(s, m, hours, &mut capacity);
        allocate(routes, &demand, &capacity, &tokens_per_useful, &mut alloc);
        let month = Month {
            m,
            ym,
            hours,
            horizon,
            routes,
            // The tariff in force this month on the electricity path (flat without one).
            site: Site {
                tariff: scaled(site.tariff, s.market.electricity.as_ref(), m),
                ..site
            },
            token_mfu,
            capacity: &capacity,
            alloc: &alloc,
            support: s.market.support.as_ref(),
        };
        let mut books = Books::default();
        let mut usage = Usage::default();
        let unserved = run.book_demand(plan, &demand, &alloc, &mut usage);
        run.book_rented(plan, s, &month, &mut books, &mut usage);
        for os in &mut owned {
            run.book_owned(os, &s.layers[os.layer], &month, &mut books, &mut usage);
        }
        book_scenario_costs(s, m, unserved, &mut books);
        run.record_dispatch(plan, s, &month, &demand);
        run.close_month(ym, books, usage, site.grid);
    }
    run
}

/// Each workload's demand in month `m`; growth compounds from the workload's own first month,
/// and stops with its last (the factor then stays within what `validate` bounded).
fn month_demand(plan: &Plan, m: u32, days: u32, growth: &mut [Decimal], demand: &mut [Decimal]) {
    for (wi, w) in plan.workloads.iter().enumerate() {
        demand[wi] = w.demand(m, days, growth[wi]);
        if m >= w.active_from && w.active_months.is_none_or(|n| m < w.active_from.saturating_add(n)) {
            growth[wi] *= Decimal::ONE + w.monthly_growth;
        }
    }
}

/// Each layer's capacity in month `m`, in GPU-hours: none outside its months, unbounded (`None`)
/// for token-metered and unsized layers.
fn month_capacity(s: &Scenario, m: u32, hours: Decimal, capacity: &mut [Option<Decimal>]) {
    for (li, l) in s.layers.iter().enumerate() {
        capacity[li] = if !active(l, m) {
            Some(Decimal::ZERO)
        } else if l.kind == LayerKind::TokenMetered {
            None
        } else {
            // Owned GPUs retired in a plan variant leave the layer's capacity from their month.
            let gpus = match &l.owned {
                Some(o) if o.retired.is_some() => Some(o.gpus_at(m)),
                _ => l.gpus,
            };
            gpus.map(|g| Decimal::from(g) * hours * l.availability)
        };
    }
}

/// The scenario-wide running costs of month `m` (staff, software, storage and egress, the
/// stack's adaptation while it lasts), egress as a share of the month's cloud spend, and the
/// unserved work at its shadow price.
fn book_scenario_costs(s: &Scenario, m: u32, unserved: Decimal, books: &mut Books) {
    for (cat, amount) in [
        (Category::Staff, scaled(s.staff_per_month, s.market.staff.as_ref(), m)),
        (Category::Software, s.software_per_month),
        (Category::StorageEgress, s.storage_egress_per_month),
        (
            Category::Adaptation,
            if m < s.adaptation_months {
                s.adaptation_per_month
            } else {
                Decimal::ZERO
            },
        ),
    ] {
        books.add(cat, amount);
    }
    let cloud_spend = books.cash.get(Category::CloudCompute) + books.cash.get(Category::Commitments);
    let egress = cloud_spend * s.egress_share_of_cloud_spend;
    books.add(Category::StorageEgress, egress);
    books.add(Category::UnservedWork, unserved);
}

impl Run {
    fn new(plan: &Plan, s: &Scenario) -> Run {
        Run {
            ledger: Ledger {
                months: Vec::with_capacity(plan.horizon_months as usize),
            },
            cumulative: Decimal::ZERO,
            residual_value: Decimal::ZERO,
            unmet_total: Decimal::ZERO,
            horizon_hours: Decimal::ZERO,
            layer_cost: vec![Decimal::ZERO; s.layers.len()],
            layer_units: vec![Decimal::ZERO; s.layers.len()],
            layer_token_units: vec![Decimal::ZERO; s.layers.len()],
            dispatch: Vec::with_capacity(plan.horizon_months as usize),
            tax: plan
                .tax
                .as_ref()
                .map(|t| crate::engine::costing::tax_view::TaxRun::new(t, s.layers.len())),
            owned: OwnedSums {
                variable: Decimal::ZERO,
                layer_cash: Decimal::ZERO,
                in_service_h: Decimal::ZERO,
                rate_weighted: Decimal::ZERO,
                useful_weighted: vec![Decimal::ZERO; plan.workloads.len()],
                useful_weight: vec![Decimal::ZERO; plan.workloads.len()],
            },
        }
    }

    /// The month's demand, served work and tokens into `usage`; returns the unserved work at its
    /// shadow price.
    fn book_demand(&mut self, plan: &Plan, demand: &[Decimal], alloc: &Allocation, usage: &mut Usage) -> Decimal {
        for d in demand {
            usage.demand_pflop_h += *d;
        }
        for v in &alloc.served {
            usage.served_pflop_h += *v;
        }
        let mut unserved = Decimal::ZERO;
        for (wi, v) in alloc.unmet.iter().enumerate() {
            // Below a millionth of a PFLOP-hour is rounding dust of the unit conversions.
            if *v > UNMET_DUST {
                self.unmet_total += *v;
                unserved += *v * plan.workloads[wi].shadow_price_per_pflop_h;
            }
        }
        for t in &alloc.tokens_by_layer {
            usage.tokens += *t;
        }
        unserved
    }

    /// Rented layers: what each is paid for the month (reserved commitments while active, hours
    /// or tokens used otherwise), a fixed-month exit fee (in the layer's whole cost too), and
    /// their estimated energy. A token-metered layer priced by kind of token is paid per
    /// (workload, layer) cell of the dispatch, each workload's millions of tokens at its own
    /// price (its token mix); a blended price is the same for every workload, so the layer's
    /// units are paid at it.
    fn book_rented(&mut self, plan: &Plan, s: &Scenario, month: &Month<'_>, books: &mut Books, usage: &mut Usage) {
        let (m, alloc) = (month.m, month.alloc);
        for (li, l) in s.layers.iter().enumerate() {
            let units = alloc.units[li];
            self.layer_units[li] += units;
            self.layer_token_units[li] += alloc.token_units[li];
            if let Some(e) = &l.cloud_energy {
                let kwh = cloud_kwh(
                    l,
                    e,
                    units,
                    alloc.useful_by_layer[li],
                    month.token_mfu[li],
                    month.ym,
                    active(l, m),
                );
                usage.cloud_energy_kwh += kwh;
                usage.cloud_emissions_kg += kwh * e.grid_gco2_per_kwh / dec!(1000);
            }
            match l.kind {
                LayerKind::Reserved => {
                    if active(l, m) {
                        let paid = reserved_payment(l, month.ym);
                        books.add(Category::Commitments, paid);
                        self.layer_cost[li] += paid;
                    }
                    usage.delivered_gpu_h += units;
                }
                LayerKind::Spot | LayerKind::OnDemand | LayerKind::Pooled => {
                    // The price in force this month on the layer's path (flat without one).
                    let cost = units * scaled(l.price_per_gpu_hour, l.price_path.as_ref(), m);
                    books.add(Category::CloudCompute, cost);
                    self.layer_cost[li] += cost;
                    usage.delivered_gpu_h += units;
                }
                LayerKind::TokenMetered => {
                    let cost = match l.token_prices {
                        None => units * scaled(l.price_per_million_tokens, l.price_path.as_ref(), m),
                        Some(_) => alloc
                            .cells
                            .iter()
                            .filter(|c| c.1 == li)
                            .map(|&(w, _, units, _)| {
                                units * crate::engine::costing::operations::unit_price_in(plan, s, w, li, m)
                            })
                            .sum(),
                    };
                    books.add(Category::CloudCompute, cost);
                    self.layer_cost[li] += cost;
                }
                LayerKind::Owned => {}
            }
            // A rented layer's running costs: per GPU-hour it bills (its units; token-metered
            // layers take none) and per month in service (see ENGINE_RULES.md, "Rented running
            // costs").
            if l.kind != LayerKind::Owned {
                let per_hour = units * l.running_cost_per_gpu_hour;
                let per_month = if active(l, m) {
                    scaled(l.running_cost_per_month, s.market.support.as_ref(), m)
                } else {
                    Decimal::ZERO
                };
                if !per_hour.is_zero() {
                    books.add(Category::Operations, per_hour);
                }
                if !per_month.is_zero() {
                    books.add(Category::Support, per_month);
                }
                self.layer_cost[li] += per_hour + per_month;
            }
            if let Some((at, fee)) = l.exit_fee
                && at == m
            {
                books.add(Category::TerminationFees, fee);
                // Part of the layer's whole cost (the cost per million tokens allocates it).
                self.layer_cost[li] += fee;
            }
        }
    }

    /// One owned layer's month: its capital and financing as they fall due, its running costs
    /// while in service, its disposal at the horizon, its hours and idle cost.
    fn book_owned(&mut self, os: &mut OwnedSetup, l: &Layer, month: &Month<'_>, books: &mut Books, usage: &mut Usage) {
        let Some(o) = &l.owned else { return };
        let mut layer = Books::default();
        self.residual_value += book_owned_capital(os, o, month, &mut layer);
        let busy = month.alloc.units[os.layer];
        let (available, variable) = if active(l, month.m) {
            self.owned.book_in_service(os, o, month, busy, &mut layer, usage)
        } else {
            (Decimal::ZERO, Decimal::ZERO)
        };
        // Disposal at the horizon: resale in the cash view, book value less resale in the book view.
        if month.m + 1 == month.horizon {
            // The resale share was resolved by `validate`: the user's, or a sourced market
            // estimate at the hardware's age, or 0; never the book value.
            let delivered = month.m >= o.delivery_month;
            let leased = matches!(o.financing, Financing::Lease { .. });
            let resale = if delivered && !leased {
                // Only the GPUs still held are sold here (those retired earlier were disposed of).
                match o.kept_share(month.m) {
                    Some(kept) => os.hardware * kept * o.residual_share,
                    None => os.hardware * o.residual_share,
                }
            } else {
                Decimal::ZERO
            };
            self.residual_value += resale;
            layer.cash.add(Category::Residual, -resale);
            layer.book.add(
                Category::Residual,
                os.capital_paid - os.depreciated - os.disposed - resale,
            );
        }
        usage.owned_available_gpu_h += available;
        usage.owned_busy_gpu_h += busy;
        usage.delivered_gpu_h += busy;
        // Idle cost: every fixed cost of the layer this month (its book view, capital as
        // depreciation, less the disposal line and less what moved with use) in the share of its
        // available GPU-hours that were idle.
        if available > Decimal::ZERO && busy < available {
            let fixed = layer.book.total() - layer.book.get(Category::Residual) - variable;
            usage.idle_cost += fixed * (available - busy) / available;
        }
        if let Some(tax) = &mut self.tax {
            let leased = matches!(o.financing, Financing::Lease { .. });
            tax.book_owned(&crate::engine::costing::tax_view::OwnedMonth {
                layer: os.layer,
                owned: o,
                basis: os.non_server_capital + if leased { Decimal::ZERO } else { os.hardware },
                retired_share: os.retired_capital_share,
                m: month.m,
                ym: month.ym,
                horizon: month.horizon,
                cash: &layer.cash,
                book: &layer.book,
            });
        }
        self.layer_cost[os.layer] += layer.cash.total();
        self.owned.layer_cash += layer.cash.total();
        books.cash.add_all(&layer.cash);
        books.book.add_all(&layer.book);
    }

    /// Records what dispatch decided this month, for the plan's own view.
    fn record_dispatch(&mut self, plan: &Plan, s: &Scenario, month: &Month<'_>, demand: &[Decimal]) {
        use crate::engine::costing::operations::{DispatchCell, DispatchMonth, clean_unmet, unit_price_in};
        let alloc = month.alloc;
        let served = alloc
            .cells
            .iter()
            .map(|&(w, l, units, useful)| DispatchCell {
                workload: u32::try_from(w).unwrap_or(u32::MAX),
                layer: u32::try_from(l).unwrap_or(u32::MAX),
                units,
                useful_pflop_h: useful,
                cost: units * unit_price_in(plan, s, w, l, month.m),
            })
            .collect();
        let idle_gpu_h = s
            .layers
            .iter()
            .enumerate()
            .map(|(li, l)| match (&l.owned, month.capacity[li]) {
                (Some(_), Some(available)) if active(l, month.m) => (available - alloc.units[li]).max(Decimal::ZERO),
                _ => Decimal::ZERO,
            })
            .collect();
        self.dispatch.push(DispatchMonth {
            month: month.ym,
            demand_pflop_h: demand.to_vec(),
            unmet_pflop_h: clean_unmet(&alloc.unmet),
            served,
            idle_gpu_h,
        });
    }

    /// Closes the month: emissions (owned energy metered at the facility's grid, rented energy
    /// estimated per layer), the views settled to the ledger's scale, the running cash total.
    fn close_month(&mut self, ym: YearMonth, books: Books, mut usage: Usage, grid: Decimal) {
        let Books { mut cash, mut book } = books;
        usage.emissions_kg = usage.energy_kwh * grid / dec!(1000) + usage.cloud_emissions_kg;
        usage.energy_kwh += usage.cloud_energy_kwh;
        cash.settle();
        book.settle();
        let tax = self.tax.as_mut().map(|t| t.close(&cash, &book));
        self.cumulative += cash.total();
        self.ledger.months.push(LedgerMonth {
            month: ym,
            cash,
            book,
            cumulative_cash: self.cumulative,
            usage,
            tax,
        });
    }

    /// The cost of the tokens served: each layer's cost in the share of its units that went to
    /// workloads whose tokens are counted.
    fn token_cost(&self) -> Decimal {
        self.layer_cost
            .iter()
            .zip(self.layer_units.iter().zip(&self.layer_token_units))
            .filter(|(_, (u, _))| **u > Decimal::ZERO)
            // t ≤ u, so the share t ÷ u never takes the cost past itself; the product first keeps
            // the figures exact, and the share first where the product would overflow.
            .map(|(c, (u, t))| {
                c.checked_mul(*t)
                    .and_then(|ct| ct.checked_div(*u))
                    .unwrap_or_else(|| *c * (*t / *u))
            })
            .sum()
    }
}

/// An owned layer's capital and financing in one month: hardware milestones (the share not
/// financed), the other capital on delivery, loan payments and the balance settled at the
/// horizon (so that horizons compare fairly), lease payments over the term, depreciation over
/// the hardware's life; and, in a variant that retires GPUs early ([`Owned::retired`]), their
/// disposal in their month. Returns the resale booked this month before the horizon's.
fn book_owned_capital(os: &mut OwnedSetup, o: &Owned, month: &Month<'_>, layer: &mut Books) -> Decimal {
    let m = month.m;
    let hw_share = match o.financing {
        Financing::Cash => Decimal::ONE,
        Financing::Loan { down_payment, .. } => down_payment,
        Financing::Lease { .. } => Decimal::ZERO,
    };
    for (due, share) in &o.milestones {
        if *due == m && !hw_share.is_zero() {
            let paid = os.hardware * *share * hw_share;
            layer.cash.add(Category::Hardware, paid);
            os.capital_paid += paid;
        }
    }
    let delivered = m >= o.delivery_month;
    if m == o.delivery_month {
        for (cat, amount) in os.extras {
            layer.cash.add(cat, amount);
            os.capital_paid += amount;
        }
    }
    // A layer retired whole in month `ended` pays no financing from then on: a loan's balance is
    // paid off in that month, a lease's payments stop.
    let ended = o.retired_whole().map(|r| r.month);
    let running = ended.is_none_or(|e| m < e);
    if let Financing::Loan { .. } = o.financing {
        if m > o.delivery_month && running {
            let k = (m - o.delivery_month - 1) as usize;
            if let Some(p) = os.loan.get(k) {
                layer.cash.add(Category::Financing, p.interest + p.principal);
                layer.book.add(Category::Financing, p.interest);
                os.capital_paid += p.principal;
            }
        }
        if ended == Some(m) && delivered {
            // Sold at the start of month `m`: the balance after the payments of months before it.
            let owed = loan_balance(os, (m - o.delivery_month).saturating_sub(1) as usize);
            if owed > Decimal::ZERO {
                layer.cash.add(Category::Financing, owed);
                os.capital_paid += owed;
            }
        }
        if m + 1 == month.horizon && delivered && running {
            let owed = loan_balance(os, (m - o.delivery_month) as usize);
            if owed > Decimal::ZERO {
                layer.cash.add(Category::Financing, owed);
                os.capital_paid += owed;
            }
        }
    }
    if let Financing::Lease { term_months, .. } = o.financing
        && delivered
        && m < o.delivery_month + term_months
        && running
    {
        layer.add(Category::Financing, os.lease_payment);
    }
    let resale = match o.retired {
        Some(r) if r.month == m && delivered => book_retirement(os, o, r, layer),
        _ => Decimal::ZERO,
    };
    if delivered && m - o.delivery_month < o.life_months && running {
        // After a partial retirement only the capital of the GPUs kept depreciates.
        let dep = match o.retired {
            Some(r) if m >= r.month => os.dep_monthly * (Decimal::ONE - os.retired_capital_share),
            _ => os.dep_monthly,
        };
        layer.book.add(Category::Depreciation, dep);
        os.depreciated += dep;
    }
    resale
}

/// The loan's outstanding balance after `paid` payments (the principal before any).
fn loan_balance(os: &OwnedSetup, paid: usize) -> Decimal {
    if paid == 0 {
        os.loan_principal
    } else {
        os.loan.get(paid - 1).map_or(Decimal::ZERO, |p| p.balance)
    }
}

/// The disposal of GPUs retired in month `r.month` (see [`Owned::retired`]): their resale as a
/// negative cost in the cash view, and in the book view the book value written off less the
/// resale: the whole remaining book value when the layer ends, else the retired GPUs' share of
/// it (their hardware over the capital). Returns the resale.
fn book_retirement(
    os: &mut OwnedSetup,
    o: &Owned,
    r: crate::engine::model::scenario::Retirement,
    layer: &mut Books,
) -> Decimal {
    let leased = matches!(o.financing, Financing::Lease { .. });
    let gpus = r.gpus.min(o.gpus);
    let resale = if leased {
        Decimal::ZERO
    } else {
        os.hardware * Decimal::from(gpus) / Decimal::from(o.gpus.max(1)) * r.resale_share
    };
    let written_off = if gpus >= o.gpus {
        os.capital_paid - os.depreciated - os.disposed
    } else {
        let capital: Decimal = os.non_server_capital + if leased { Decimal::ZERO } else { os.hardware };
        os.retired_capital_share * (capital - os.depreciated)
    };
    os.disposed += written_off;
    layer.cash.add(Category::Residual, -resale);
    layer.book.add(Category::Residual, written_off - resale);
    resale
}

impl OwnedSums {
    /// An in-service owned layer's running costs for the month (support, colocation,
    /// electricity at busy and idle power, operations) and its share of the buy-versus-rent
    /// basis; returns the GPU-hours it had available and the part of its costs that moved with
    /// use (power above idle and the running cost, for the busy hours).
    fn book_in_service(
        &mut self,
        os: &OwnedSetup,
        o: &Owned,
        month: &Month<'_>,
        busy: Decimal,
        layer: &mut Books,
        usage: &mut Usage,
    ) -> (Decimal, Decimal) {
        let Site { pue, tariff, colo, .. } = month.site;
        let mut support = scaled(os.hardware * o.support_rate_per_year / dec!(12), month.support, month.m);
        let mut colocation = os.it_kw * colo;
        // GPUs retired in a plan variant no longer need support or rack space.
        if let Some(kept) = o.kept_share(month.m) {
            support *= kept;
            colocation *= kept;
        }
        layer.add(Category::Support, support);
        layer.add(Category::Colocation, colocation);
        let all_hours = Decimal::from(o.gpus_at(month.m)) * month.hours;
        let idle_hours = all_hours - busy;
        let kwh = (busy + idle_hours * o.idle_power_share) * os.kw_per_gpu * pue;
        let power = kwh * tariff;
        layer.add(Category::Electricity, power);
        usage.energy_kwh += kwh;
        let operations = scaled(
            os.non_server_capital * o.non_server_maintenance_rate_per_year / dec!(12),
            month.support,
            month.m,
        ) + busy * o.running_cost_per_gpu_hour;
        layer.add(Category::Operations, operations);
        let available = month.capacity[os.layer].unwrap_or(Decimal::ZERO);
        // What one more busy hour costs: power above idle and the running cost.
        let per_busy = (Decimal::ONE - o.idle_power_share) * os.kw_per_gpu * pue * tariff + o.running_cost_per_gpu_hour;
        let variable = busy * per_busy;
        self.variable += variable;
        self.in_service_h += all_hours;
        self.rate_weighted += per_busy * available;
        for &(w, vl, rate) in &month.routes.visits {
            if vl == os.layer {
                self.useful_weighted[w] += rate.useful_per_unit * available;
                self.useful_weight[w] += available;
            }
        }
        (available, variable)
    }
}

/// What falls due after the horizon, month by month (`[k]` is plan month `horizon + k`): the
/// payments of reserved terms and leases that run past it, and exit charges a plan variant owes
/// when its exit takes effect at or after the horizon.
fn commitments_after_horizon(plan: &Plan, s: &Scenario) -> Vec<Decimal> {
    let horizon = plan.horizon_months;
    let mut tail: Vec<Decimal> = Vec::new();
    let mut add = |m: u32, amount: Decimal| {
        let k = (m - horizon) as usize;
        if tail.len() <= k {
            tail.resize(k + 1, Decimal::ZERO);
        }
        tail[k] += amount;
    };
    for l in &s.layers {
        if let Some(until) = l.until_month {
            for m in horizon.max(l.from_month)..until {
                match (&l.kind, &l.owned) {
                    (LayerKind::Reserved, _) => add(m, reserved_payment(l, plan.start.plus(m))),
                    (LayerKind::Owned, Some(o)) => {
                        if let Some(p) = lease_payment(o) {
                            add(m, p);
                        }
                    }
                    _ => {}
                }
            }
        }
        if let Some((at, fee)) = l.exit_fee
            && at >= horizon
        {
            add(at, fee);
        }
    }
    tail
}

/// The scenario-wide costs over the horizon that do not move with use.
fn scenario_fixed(plan: &Plan, s: &Scenario) -> Decimal {
    let horizon = plan.horizon_months;
    let adaptation = s.adaptation_per_month * Decimal::from(s.adaptation_months.min(horizon));
    match &s.market.staff {
        // Staff on a path: each month's cost at that month's multiplier.
        Some(path) => {
            let staff: Decimal = (0..horizon).map(|m| s.staff_per_month * path.at(m)).sum();
            staff + (s.software_per_month + s.storage_egress_per_month) * Decimal::from(horizon) + adaptation
        }
        None => {
            (s.staff_per_month + s.software_per_month + s.storage_egress_per_month) * Decimal::from(horizon)
                + adaptation
        }
    }
}

/// The owned hardware as fixed and variable costs, when any was in service within the horizon.
fn owned_basis(run: &Run) -> Option<OwnedBasis> {
    let sums = &run.owned;
    (sums.in_service_h > Decimal::ZERO && run.horizon_hours > Decimal::ZERO).then(|| {
        let available: Decimal = run.ledger.months.iter().map(|m| m.usage.owned_available_gpu_h).sum();
        OwnedBasis {
            layer_fixed: sums.layer_cash - sums.variable,
            per_busy_gpu_hour: if available > Decimal::ZERO {
                sums.rate_weighted / available
            } else {
                Decimal::ZERO
            },
            gpu_equivalents: sums.in_service_h / run.horizon_hours,
            availability: available / sums.in_service_h,
            useful_per_gpu_hour: sums
                .useful_weighted
                .iter()
                .zip(&sums.useful_weight)
                .map(|(u, w)| (*w > Decimal::ZERO).then(|| *u / *w))
                .collect(),
        }
    })
}

/// Per workload, the cheapest price of one useful PFLOP-hour among the layers paid by use,
/// egress share included, with the layer's id; a reserved layer only when no layer paid by use
/// may serve the workload.
fn rent_prices(plan: &Plan, s: &Scenario, routes: &Routes) -> Vec<Option<(Decimal, String)>> {
    (0..plan.workloads.len())
        .map(|wi| {
            routes
                .visits
                .iter()
                .filter(|v| v.0 == wi)
                .filter_map(|&(_, li, rate)| {
                    let l = &s.layers[li];
                    let price = match l.kind {
                        LayerKind::Owned => return None,
                        // The workload's own price per million tokens (its mix on split prices).
                        LayerKind::TokenMetered => l.token_price(&plan.workloads[wi])?,
                        _ => l.price_per_gpu_hour,
                    };
                    // A price on a path: at its hours-weighted mean multiplier over the horizon.
                    let price = match &l.price_path {
                        Some(path) => price * path.hours_weighted_mean(plan.start, plan.horizon_months),
                        None => price,
                    };
                    // Egress follows cloud spend; a running cost per GPU-hour is paid per unit too.
                    let per_useful = price * rate.units_per_useful * (Decimal::ONE + s.egress_share_of_cloud_spend)
                        + l.running_cost_per_gpu_hour * rate.units_per_useful;
                    Some((l.kind == LayerKind::Reserved, per_useful, l.id.clone()))
                })
                // Paid by use first (`false` orders before `true`), then the cheapest.
                .min_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)))
                .map(|(_, per_useful, layer)| (per_useful, layer))
        })
        .collect()
}

/// Unmet demand below this many useful PFLOP-hours in a month is rounding dust of the unit
/// conversions, not work left undone.
const UNMET_DUST: Decimal = dec!(0.000001);

fn totals(ledger: &Ledger, monthly: Decimal, residual_value: Decimal, after: &[Decimal]) -> Totals {
    let cash = ledger.cash_totals();
    let book = ledger.book_totals();
    let total_cash = cash.total();
    let mut u = Usage::default();
    for m in &ledger.months {
        let x = &m.usage;
        u.demand_pflop_h += x.demand_pflop_h;
        u.served_pflop_h += x.served_pflop_h;
        u.delivered_gpu_h += x.delivered_gpu_h;
        u.tokens += x.tokens;
        u.owned_available_gpu_h += x.owned_available_gpu_h;
        u.owned_busy_gpu_h += x.owned_busy_gpu_h;
        u.idle_cost += x.idle_cost;
        u.energy_kwh += x.energy_kwh;
        u.emissions_kg += x.emissions_kg;
        u.cloud_energy_kwh += x.cloud_energy_kwh;
        u.cloud_emissions_kg += x.cloud_emissions_kg;
    }
    // Cost per unit is over the work done: the shadow price of work left undone is not a cost
    // of that work (it is `unserved_cost`, shown apart).
    let unserved = cash.get(Category::UnservedWork);
    let done_cost = total_cash - unserved;
    let per = |d: Decimal| (d > Decimal::ZERO).then(|| done_cost / d);
    Totals {
        cash,
        book,
        total_cash,
        total_book: book.total(),
        // The decision basis discounted: the horizon's cash, then what falls due after it, each
        // in the month it falls due.
        npv: npv(monthly, &[ledger.cash_flows(), after.to_vec()].concat()),
        demand_pflop_h: u.demand_pflop_h,
        served_pflop_h: u.served_pflop_h,
        unmet_pflop_h: u.demand_pflop_h - u.served_pflop_h,
        delivered_gpu_h: u.delivered_gpu_h,
        tokens: u.tokens,
        cost_per_gpu_hour: per(u.delivered_gpu_h),
        cost_per_useful_pflop_hour: per(u.served_pflop_h),
        cost_per_million_tokens: per(u.tokens / dec!(1000000)),
        owned_utilisation: (u.owned_available_gpu_h > Decimal::ZERO)
            .then(|| u.owned_busy_gpu_h / u.owned_available_gpu_h),
        owned_available_gpu_h: u.owned_available_gpu_h,
        owned_busy_gpu_h: u.owned_busy_gpu_h,
        idle_cost: u.idle_cost,
        energy_kwh: u.energy_kwh,
        emissions_kg: u.emissions_kg,
        cloud_energy_kwh: u.cloud_energy_kwh,
        cloud_emissions_kg: u.cloud_emissions_kg,
        residual_value,
        commitments_after_horizon: after.iter().copied().sum(),
        unserved_cost: unserved,
        decision_total: total_cash + after.iter().copied().sum::<Decimal>(),
        after_tax: None,
    }
}
