//! What the plan does, beside what it costs: who serves which work each month, what bridges the
//! months before owned hardware arrives, what spot capacity loses to interruptions, and how many
//! GPUs the work needs.
//!
//! Every figure here is read from the same month loop that books the ledger (`evaluate`), so the
//! plan and its cost never disagree:
//!
//! - **Dispatch**: per month, each workload's demand and unmet demand (useful PFLOP-hours), and
//!   every (workload, layer) pair that served: the layer's units (GPU-hours; millions of tokens
//!   on a token-metered layer), the useful PFLOP-hours they gave, and their cost at the layer's
//!   unit price for that workload (a token-metered layer priced by kind of token charges each
//!   workload by its token mix). A paid-by-use layer's cell cost is exactly what the ledger books
//!   for those hours; a reserved layer's is its hourly rate times the hours it gave (the
//!   commitment itself is paid whether used or not); owned hours cost nothing per hour here (their
//!   cost is capital and running costs, in the ledger). Owned GPU-hours available and not used are the idle hours.
//! - **Bridge**: for each owned layer, the months from its order to its delivery, and what served
//!   the workloads it will serve in those months: one line per layer with the months it served,
//!   its units and their cost; demand left unmet in those months is shown beside.
//! - **Spot**: each spot layer's Young/Daly interval, overhead factor, and the paid GPU-hours lost
//!   to checkpoints, re-done work and restarts: paid × (1 − 1/factor), at the layer's price. A
//!   warning when a checkpoint takes longer to write than the provider's notice before it
//!   reclaims a machine.
//! - **Needs**: per workload and per GPU layer that may serve it, the GPUs that serve its busiest
//!   month alone (`demand ÷ (hours × useful per GPU-hour × availability)`, rounded up); for
//!   training and fine-tuning, the GPUs that do the whole horizon's work within the workload's
//!   active months, and the time the layer's own GPUs take to do it (`work ÷ (GPUs × useful per
//!   GPU-hour × availability)`). Useful compute per GPU-hour is peak × MFU (÷ the spot overhead),
//!   the rate dispatch itself uses.

use rust_decimal::Decimal;
use serde::Serialize;

use crate::calendar::YearMonth;
use crate::engine::blocks::allocation::Routes;
use crate::engine::blocks::sizing::ceil_u32;
use crate::engine::blocks::spot::optimal_interval_h;
use crate::engine::input::scenario_file::LayerKind;
use crate::engine::model::assumption::Assumption;
use crate::engine::model::scenario::{Plan, Scenario};
use crate::engine::model::workload::FLOP_PER_PFLOP_HOUR;
use crate::workload_kind::WorkloadKind;

/// What one scenario's plan does, month by month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Operations {
    /// The scenario's layers, in file order: what every `layer` index points to.
    pub layers: Vec<OpsLayer>,
    /// The workloads' ids, in file order: what every `workload` index points to.
    pub workloads: Vec<String>,
    pub months: Vec<DispatchMonth>,
    pub bridges: Vec<Bridge>,
    pub spot: Vec<SpotNote>,
    pub needs: Vec<WorkNeed>,
}

/// One layer as the dispatch view names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct OpsLayer {
    pub id: String,
    pub kind: LayerKind,
    pub accelerator: Option<String>,
    pub unit: DispatchUnit,
}

/// What a layer's units are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum DispatchUnit {
    GpuHours,
    MillionTokens,
}

/// One month of dispatch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DispatchMonth {
    pub month: YearMonth,
    /// Per workload: useful PFLOP-hours asked for, and not served (rounding dust below a
    /// millionth of a PFLOP-hour counts as served, as in the ledger).
    pub demand_pflop_h: Vec<Decimal>,
    pub unmet_pflop_h: Vec<Decimal>,
    /// Every (workload, layer) pair that served something this month.
    pub served: Vec<DispatchCell>,
    /// Per layer: owned GPU-hours available and not used (0 for other layers).
    pub idle_gpu_h: Vec<Decimal>,
}

/// What one layer gave one workload in one month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DispatchCell {
    pub workload: u32,
    pub layer: u32,
    /// In the layer's unit (GPU-hours, or millions of tokens).
    pub units: Decimal,
    pub useful_pflop_h: Decimal,
    /// Units × the layer's unit price for the workload (0 for owned hours).
    pub cost: Decimal,
}

/// The months before an owned layer is delivered, and what serves its work meanwhile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Bridge {
    pub layer: String,
    pub order_month: YearMonth,
    pub delivery_month: YearMonth,
    pub lead_time_months: u32,
    /// Where the lead time comes from: a catalog entry with its sources, or a typed value with
    /// its reason; `None` when no lead time was given (delivered in the order month).
    pub lead_time: Option<Assumption>,
    /// False when delivery falls after the horizon.
    pub delivered_in_horizon: bool,
    pub lines: Vec<BridgeLine>,
    /// The lines' cost.
    pub cost: Decimal,
    /// The layer's workloads' demand left unmet between order and delivery.
    pub unmet_pflop_h: Decimal,
}

/// One layer serving an owned layer's work before its delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BridgeLine {
    pub layer: String,
    pub kind: LayerKind,
    pub accelerator: Option<String>,
    /// Months in which it served.
    pub months: u32,
    pub units: Decimal,
    pub unit: DispatchUnit,
    pub cost: Decimal,
}

/// A spot layer's checkpoint arithmetic and what interruptions cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SpotNote {
    pub layer: String,
    pub provider: Option<String>,
    pub interruptions_per_hour: Decimal,
    pub checkpoint_write_minutes: Decimal,
    pub restart_minutes: Decimal,
    /// Young/Daly's interval √(2c/λ), in minutes; `None` when nothing interrupts.
    pub interval_minutes: Option<Decimal>,
    /// Paid hours per useful hour.
    pub overhead_factor: Decimal,
    /// GPU-hours paid over the horizon, and the part lost to checkpoints, re-done work and
    /// restarts (paid × (1 − 1/factor)), with its cost at the layer's price.
    pub paid_gpu_h: Decimal,
    pub lost_gpu_h: Decimal,
    pub lost_cost: Decimal,
    /// The provider's notice before it reclaims a machine, in seconds (catalog figure).
    pub notice_seconds: Option<Decimal>,
    /// Set when a checkpoint takes longer to write than the notice.
    pub notice_warning: Option<String>,
}

/// What one workload needs, over the scenario's layers that may serve it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct WorkNeed {
    pub workload: String,
    pub kind: WorkloadKind,
    /// Model parameters, when the workload names a model.
    pub parameters: Option<Decimal>,
    /// Tokens over the horizon (trained or served), when the model is known.
    pub tokens: Option<Decimal>,
    /// The work over the horizon: useful PFLOP-hours, and the same in FLOPs (`None` beyond
    /// what a decimal holds, about 7.9 × 10^28).
    pub demand_pflop_h: Decimal,
    pub flop: Option<Decimal>,
    /// Months of the horizon in which the workload asks for compute, and their hours.
    pub active_months: u32,
    pub active_hours: Decimal,
    /// The busiest month and its demand.
    pub peak_month: Option<YearMonth>,
    pub peak_pflop_h: Decimal,
    pub on: Vec<NeedOnLayer>,
}

/// One workload's needs on one GPU layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NeedOnLayer {
    pub layer: String,
    pub accelerator: Option<String>,
    /// Useful PFLOP-hours one paid GPU-hour of this layer gives the workload.
    pub useful_pflop_per_gpu_h: Decimal,
    pub availability: Decimal,
    /// The GPUs the layer holds or commits (`None`: unsized).
    pub layer_gpus: Option<u32>,
    /// GPUs that serve the busiest month on this layer alone.
    pub gpus_for_peak_month: u32,
    /// Training and fine-tuning: GPUs that do the horizon's work within the active months.
    pub gpus_for_active_months: Option<u32>,
    /// Training and fine-tuning: hours the layer's GPUs take to do the horizon's work.
    pub time_to_train_h: Option<Decimal>,
}

/// Below this many useful PFLOP-hours, unmet demand is rounding dust (as in the ledger).
const DUST: Decimal = rust_decimal::dec!(0.000001);

/// The layers as the dispatch view names them.
pub fn ops_layers(s: &Scenario) -> Vec<OpsLayer> {
    s.layers
        .iter()
        .map(|l| OpsLayer {
            id: l.id.clone(),
            kind: l.kind,
            accelerator: l.accelerator.clone(),
            unit: if l.kind == LayerKind::TokenMetered {
                DispatchUnit::MillionTokens
            } else {
                DispatchUnit::GpuHours
            },
        })
        .collect()
}

/// The price of one unit of layer `layer` serving workload `workload` (indices into the
/// scenario's layers and the plan's workloads), as the dispatch cells count it and the ledger
/// books it: a GPU-hour at the layer's hourly price; a million tokens at the workload's own price
/// on a token-metered layer ([`crate::engine::model::scenario::Layer::token_price`]: the blended price, or
/// Σ share × price over the workload's token mix); nothing for owned hours.
pub fn unit_price(plan: &Plan, s: &Scenario, workload: usize, layer: usize) -> Decimal {
    s.layers.get(layer).map_or(Decimal::ZERO, |l| match l.kind {
        LayerKind::Owned => Decimal::ZERO,
        LayerKind::TokenMetered => plan
            .workloads
            .get(workload)
            .and_then(|w| l.token_price(w))
            .unwrap_or_default(),
        _ => l.price_per_gpu_hour,
    })
}

/// [`unit_price`] in month `m` (from the plan's start): on a layer whose price follows a path
/// (on-demand, spot, pooled, token-metered), the price times the path's multiplier that month;
/// the price itself otherwise.
pub fn unit_price_in(plan: &Plan, s: &Scenario, workload: usize, layer: usize, m: u32) -> Decimal {
    let price = unit_price(plan, s, workload, layer);
    let path = s.layers.get(layer).and_then(|l| l.price_path.as_ref());
    crate::engine::model::market::scaled(price, path, m)
}

/// Strips rounding dust from a month's unmet demand.
pub fn clean_unmet(unmet: &[Decimal]) -> Vec<Decimal> {
    unmet
        .iter()
        .map(|v| if *v > DUST { *v } else { Decimal::ZERO })
        .collect()
}

/// The bridge of every owned layer.
pub fn bridges(plan: &Plan, s: &Scenario, routes: &Routes, months: &[DispatchMonth]) -> Vec<Bridge> {
    let mut out = Vec::new();
    for (li, l) in s.layers.iter().enumerate() {
        let Some(o) = &l.owned else { continue };
        let work: Vec<usize> = routes
            .visits
            .iter()
            .filter(|(_, vl, _)| *vl == li)
            .map(|(w, _, _)| *w)
            .collect();
        let end = o.delivery_month.min(plan.horizon_months);
        let window = o.order_month.min(end)..end;
        let mut lines: Vec<BridgeLine> = Vec::new();
        let mut unmet = Decimal::ZERO;
        for m in window.clone() {
            let Some(month) = months.get(m as usize) else { continue };
            for w in &work {
                unmet += month.unmet_pflop_h.get(*w).copied().unwrap_or_default();
            }
            let mut served_here: Vec<usize> = Vec::new();
            for c in &month.served {
                let (cw, cl) = (c.workload as usize, c.layer as usize);
                if cl == li || !work.contains(&cw) || s.layers.get(cl).is_some_and(|x| x.owned.is_some()) {
                    continue;
                }
                let Some(bl) = s.layers.get(cl) else { continue };
                let line = match lines.iter_mut().position(|x| x.layer == bl.id) {
                    Some(i) => &mut lines[i],
                    None => {
                        lines.push(BridgeLine {
                            layer: bl.id.clone(),
                            kind: bl.kind,
                            accelerator: bl.accelerator.clone(),
                            months: 0,
                            units: Decimal::ZERO,
                            unit: if bl.kind == LayerKind::TokenMetered {
                                DispatchUnit::MillionTokens
                            } else {
                                DispatchUnit::GpuHours
                            },
                            cost: Decimal::ZERO,
                        });
                        let n = lines.len() - 1;
                        &mut lines[n]
                    }
                };
                line.units += c.units;
                line.cost += c.cost;
                if !served_here.contains(&cl) {
                    served_here.push(cl);
                    line.months += 1;
                }
            }
        }
        let lead_time = s
            .assumptions
            .iter()
            .find(|a| {
                a.path.starts_with("scenarios[")
                    && (a.path.ends_with(&format!("layers[{li}].lead_time_months"))
                        || a.path.ends_with(&format!("layers[{li}].lead_time_weeks")))
            })
            .cloned();
        out.push(Bridge {
            layer: l.id.clone(),
            order_month: plan.start.plus(o.order_month),
            delivery_month: plan.start.plus(o.delivery_month),
            lead_time_months: o.delivery_month - o.order_month.min(o.delivery_month),
            lead_time,
            delivered_in_horizon: o.delivery_month < plan.horizon_months,
            cost: lines.iter().map(|x| x.cost).sum(),
            lines,
            unmet_pflop_h: unmet,
        });
    }
    out
}

/// Every spot layer's checkpoint arithmetic, from the month loop's paid hours.
pub fn spot_notes(s: &Scenario, months: &[DispatchMonth]) -> Vec<SpotNote> {
    let sixty = Decimal::from(60);
    let mut out = Vec::new();
    for (li, l) in s.layers.iter().enumerate() {
        let Some(terms) = &l.spot else { continue };
        let c = &terms.checkpointing;
        let paid: Decimal = months
            .iter()
            .flat_map(|m| m.served.iter())
            .filter(|cell| cell.layer as usize == li)
            .map(|cell| cell.units)
            .sum();
        let f = l.overhead_factor;
        let lost = if f > Decimal::ZERO {
            paid * (Decimal::ONE - Decimal::ONE / f)
        } else {
            Decimal::ZERO
        };
        let write_min = c.checkpoint_write_h * sixty;
        let notice_warning = terms.notice_s.and_then(|notice| {
            (write_min * sixty > notice).then(|| {
                format!(
                    "layer `{}`: a checkpoint takes {} min to write but {} gives {} s notice before reclaiming a machine, so no checkpoint can be saved once the notice comes: each interruption loses the work since the last periodic checkpoint (the overhead factor of {} assumes exactly that). Shorten the write (asynchronous or sharded checkpoints) or prefer a provider with a longer notice",
                    l.id,
                    write_min.round_dp(2).normalize(),
                    terms.provider.as_deref().unwrap_or("the provider"),
                    notice.round_dp(0).normalize(),
                    f.round_dp(3).normalize()
                )
            })
        });
        out.push(SpotNote {
            layer: l.id.clone(),
            provider: terms.provider.clone(),
            interruptions_per_hour: c.interruptions_per_hour,
            checkpoint_write_minutes: write_min,
            restart_minutes: c.restart_h * sixty,
            interval_minutes: optimal_interval_h(c).map(|t| t * sixty),
            overhead_factor: f,
            paid_gpu_h: paid,
            lost_gpu_h: lost,
            lost_cost: lost * l.price_per_gpu_hour,
            notice_seconds: terms.notice_s,
            notice_warning,
        });
    }
    out
}

/// What each workload needs on each GPU layer that may serve it.
pub fn needs(plan: &Plan, s: &Scenario, routes: &Routes, months: &[DispatchMonth]) -> Vec<WorkNeed> {
    let mut out = Vec::new();
    for (wi, w) in plan.workloads.iter().enumerate() {
        let mut total = Decimal::ZERO;
        let mut active_months = 0u32;
        let mut active_hours = Decimal::ZERO;
        let mut peak: Option<(YearMonth, Decimal, Decimal)> = None;
        for m in months {
            let d = m.demand_pflop_h.get(wi).copied().unwrap_or_default();
            if d <= Decimal::ZERO {
                continue;
            }
            total += d;
            active_months += 1;
            let hours = m.month.hours();
            active_hours += hours;
            // The busiest month is the one that needs the most GPUs: demand per hour.
            if peak.is_none_or(|(_, pd, ph)| d / hours > pd / ph) {
                peak = Some((m.month, d, hours));
            }
        }
        let training = w.kind != WorkloadKind::Inference;
        let on = routes
            .visits
            .iter()
            .filter(|(vw, _, _)| *vw == wi)
            .filter_map(|&(_, li, rate)| {
                let l = s.layers.get(li)?;
                if l.kind == LayerKind::TokenMetered {
                    return None;
                }
                let per_gpu_h = rate.useful_per_unit * l.availability;
                let gpus_for = |work: Decimal, hours: Decimal| {
                    if hours > Decimal::ZERO && per_gpu_h > Decimal::ZERO {
                        ceil_u32(work / (hours * per_gpu_h))
                    } else {
                        0
                    }
                };
                Some(NeedOnLayer {
                    layer: l.id.clone(),
                    accelerator: l.accelerator.clone(),
                    useful_pflop_per_gpu_h: rate.useful_per_unit,
                    availability: l.availability,
                    layer_gpus: l.gpus,
                    gpus_for_peak_month: peak.map_or(0, |(_, d, h)| gpus_for(d, h)),
                    gpus_for_active_months: training.then(|| gpus_for(total, active_hours)),
                    time_to_train_h: l
                        .gpus
                        .filter(|g| training && *g > 0 && per_gpu_h > Decimal::ZERO)
                        .map(|g| total / (Decimal::from(g) * per_gpu_h)),
                })
            })
            .collect();
        out.push(WorkNeed {
            workload: w.id.clone(),
            kind: w.kind,
            parameters: w.parameters,
            tokens: w
                .flops_per_token
                .filter(|f| *f > Decimal::ZERO)
                .and_then(|f| total.checked_mul(FLOP_PER_PFLOP_HOUR / f)),
            demand_pflop_h: total,
            flop: total.checked_mul(FLOP_PER_PFLOP_HOUR),
            active_months,
            active_hours,
            peak_month: peak.map(|p| p.0),
            peak_pflop_h: peak.map_or(Decimal::ZERO, |p| p.1),
            on,
        });
    }
    out
}
