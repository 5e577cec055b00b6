//! The spread of a plan's outcomes: every ranged catalog figure its scenarios use that moves
//! money is drawn (see [`crate::engine::risk`]), the plan is validated and evaluated once per draw
//! with the drawn figures (the draws split over every core), and each scenario's decision total
//! and NPV are summarised.
//!
//! Rules:
//! - A figure is drawn at the catalog entry, so one draw is shared by every scenario that uses it
//!   (common random numbers) and the engine applies it exactly as it applies a catalog figure
//!   (per system or per GPU, converted at the file's rates, at its price point).
//! - The figures drawn are the money-moving ones with a range: purchase prices, cloud rates,
//!   electricity tariffs, PUE, colocation rates, fabric ports, switches and optics, and resale curves (every point
//!   of a curve at one position of its range). Speeds and memory are never drawn: a price point
//!   moves prices, not speeds. Grid intensity and the cloud energy estimate move emissions only.
//! - Each figure is triangular over its catalog range with its mode at the file's price point
//!   (the middle by default); the cloud rates of one provider move together.
//! - Every total is the engine's decimal total of a draw; percentiles interpolate linearly
//!   between draws (numpy's default).

use rust_decimal::Decimal;
use rust_decimal::prelude::{FromPrimitive, ToPrimitive};
use serde::{Deserialize, Serialize};

use crate::catalog::Catalog;
use crate::catalog::provenance::Figure;
use crate::engine::assumption::Origin;
use crate::engine::compare::break_even_month;
use crate::engine::evaluate::{Evaluation, evaluate};
use crate::engine::risk::{self, Distribution, Input, Sampling, Spread};
use crate::engine::scenario_file::{PricePoint, ScenarioFile};
use crate::engine::validate::validate;
use crate::problem::Problem;

/// The most draws one analysis makes.
pub const MAX_DRAWS: usize = 100_000;

/// One drawn figure, as the report names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DrawnFigure {
    /// Catalog entry id and field, e.g. `aws-p5-h100` / `spot_per_gpu_hour`.
    pub entry: String,
    pub field: String,
    pub low: Decimal,
    pub mode: Decimal,
    pub high: Decimal,
    /// The figures of one group move together (the cloud rates of one provider).
    pub group: Option<String>,
}

/// One scenario's outcomes over the draws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioRisk {
    pub id: String,
    pub name: String,
    /// The deterministic decision total and NPV, at the file's price point.
    pub point_total: Decimal,
    pub point_npv: Decimal,
    /// The decision total (total cash and commitments after the horizon) over the draws.
    pub total: Spread,
    pub npv: Spread,
    /// The share of draws in which this scenario's decision total is below the baseline's (ties
    /// half); `None` for the baseline itself.
    pub cheaper_than_baseline: Option<Decimal>,
}

/// The spread of outcomes of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RiskOutcome {
    pub draws: u32,
    /// The seed, as text: a reviewer reruns the same draws with it.
    pub seed: String,
    pub group_correlation: String,
    /// The scenario the others are compared with.
    pub baseline: String,
    pub figures: Vec<DrawnFigure>,
    pub scenarios: Vec<ScenarioRisk>,
    /// For each scenario but the baseline, what drives its difference from the baseline.
    pub tornados: Vec<Tornado>,
    /// Each scenario's cumulative cash band, month by month.
    pub fans: Vec<Fan>,
    /// For each scenario but the baseline, when its cumulative cash crosses the baseline's.
    pub break_evens: Vec<BreakEvenRisk>,
}

/// Where a drawn figure sits in the catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// One figure, at `entry`'s `field`.
    Figure { entry: String, field: String },
    /// Every point of the resale curve `curve`, at one position of each point's range.
    Resale { curve: String },
}

/// The figure at `entry`'s `field` when it is one the analysis draws (see the module rules).
fn drawable<'c>(catalog: &'c mut Catalog, entry: &str, field: &str) -> Option<&'c mut Figure> {
    if let Some(o) = catalog.offers.iter_mut().find(|o| o.id == entry) {
        return match field {
            "on_demand_per_gpu_hour" => o.on_demand_per_gpu_hour.as_mut(),
            "reserved_1y_per_gpu_hour" => o.reserved_1y_per_gpu_hour.as_mut(),
            "reserved_3y_per_gpu_hour" => o.reserved_3y_per_gpu_hour.as_mut(),
            "spot_per_gpu_hour" => o.spot_per_gpu_hour.as_mut(),
            _ => None,
        };
    }
    if let Some(a) = catalog.accelerators.iter_mut().find(|a| a.id == entry) {
        return (field == "price_usd").then_some(a.price_usd.as_mut()).flatten();
    }
    let facility = &mut catalog.facility;
    if let Some(s) = facility.systems.iter_mut().find(|s| s.id == entry) {
        return (field == "price_usd").then_some(s.price_usd.as_mut()).flatten();
    }
    if let Some(c) = facility.cooling.iter_mut().find(|c| c.id == entry) {
        return (field == "pue").then_some(&mut c.pue);
    }
    if let Some(c) = facility.colocation.iter_mut().find(|c| c.id == entry) {
        return (field == "per_kw_month").then_some(&mut c.per_kw_month);
    }
    if let Some(u) = facility.upgrades.iter_mut().find(|u| u.id == entry) {
        return (field == "cost").then_some(&mut u.cost);
    }
    if let Some(f) = catalog.fabrics.iter_mut().find(|f| f.id == entry) {
        return match field {
            "per_port_cost" => Some(&mut f.per_port_cost),
            "switch_cost" => f.switch_cost.as_mut(),
            "optic_cost" => f.optic_cost.as_mut(),
            _ => None,
        };
    }
    if let Some(r) = catalog.regions.iter_mut().find(|r| r.id == entry) {
        return (field == "tariff_per_kwh")
            .then_some(r.tariff_per_kwh.as_mut())
            .flatten();
    }
    None
}

fn at_point(figure: &Figure, point: PricePoint) -> Decimal {
    match point {
        PricePoint::Low => figure.low,
        PricePoint::Mid => figure.mid(),
        PricePoint::High => figure.high,
    }
}

/// The provider of `entry` when it is a cloud offer: its rates move together.
fn group_of(catalog: &Catalog, entry: &str) -> Option<String> {
    catalog
        .offers
        .iter()
        .find(|o| o.id == entry)
        .map(|o| o.provider.clone())
}

/// The drawn figures of `evaluation`'s scenarios, once each, in the order first used.
fn places(catalog: &Catalog, evaluation: &Evaluation) -> Vec<Place> {
    let mut out: Vec<Place> = Vec::new();
    let mut probe = catalog.clone();
    for a in evaluation.scenarios.iter().flat_map(|s| &s.assumptions) {
        let Origin::Catalog {
            entry,
            field,
            low,
            high,
            ..
        } = &a.origin
        else {
            continue;
        };
        if low == high {
            continue;
        }
        let place = if catalog.resale.iter().any(|r| &r.id == entry) && field.starts_with("resale share") {
            Place::Resale { curve: entry.clone() }
        } else if drawable(&mut probe, entry, field).is_some() {
            Place::Figure {
                entry: entry.clone(),
                field: field.clone(),
            }
        } else {
            continue;
        };
        if !out.contains(&place) {
            out.push(place);
        }
    }
    out
}

/// The input of one place: the figure's triangle in catalog units, or a position 0..1 for a
/// resale curve; and how the report names it.
fn input_of(catalog: &mut Catalog, place: &Place, point: PricePoint) -> Option<(Input, DrawnFigure)> {
    let (entry, field, distribution, shown) = match place {
        Place::Figure { entry, field } => {
            let f = drawable(catalog, entry, field)?;
            let mode = at_point(f, point);
            let d = Distribution::triangular(f.low, mode, f.high);
            (entry, field.clone(), d, (f.low, mode, f.high))
        }
        Place::Resale { curve } => {
            // A position in every point's range: 0 the low end, 1 the high end.
            let mode = match point {
                PricePoint::Low => Decimal::ZERO,
                PricePoint::Mid => Decimal::new(5, 1),
                PricePoint::High => Decimal::ONE,
            };
            let d = Distribution::triangular(Decimal::ZERO, mode, Decimal::ONE);
            (
                curve,
                "resale share (position in each point's range)".to_owned(),
                d,
                (Decimal::ZERO, mode, Decimal::ONE),
            )
        }
    };
    let group = group_of(catalog, entry);
    let input = Input {
        key: format!("{entry}/{field}"),
        distribution,
        group: group.clone(),
    };
    let figure = DrawnFigure {
        entry: entry.clone(),
        field,
        low: shown.0,
        mode: shown.1,
        high: shown.2,
        group,
    };
    Some((input, figure))
}

/// `catalog` with the drawn `value` at `place`: a figure becomes that one point.
fn set_draw(catalog: &mut Catalog, place: &Place, value: Decimal) {
    match place {
        Place::Figure { entry, field } => {
            if let Some(f) = drawable(catalog, entry, field) {
                f.low = value;
                f.high = value;
            }
        }
        Place::Resale { curve } => {
            let Some(c) = catalog.resale.iter_mut().find(|c| &c.id == curve) else {
                return;
            };
            for p in &mut c.points {
                let at = p.share.low + value * (p.share.high - p.share.low);
                p.share.low = at;
                p.share.high = at;
            }
        }
    }
}

/// One bar of a tornado: how far the scenario's difference from the baseline moves when one
/// figure goes from its P10 to its P90, every other figure at its point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TornadoBar {
    /// The drawn figure: its index in [`RiskOutcome::figures`].
    pub figure: u32,
    /// The difference (scenario − baseline decision total) with the figure at its P10 and P90.
    pub at_p10: Decimal,
    pub at_p90: Decimal,
    /// `at_p90 − at_p10`.
    pub swing: Decimal,
}

/// What drives one scenario's difference from the baseline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Tornado {
    pub scenario: String,
    /// The difference at every figure's point.
    pub at_point: Decimal,
    /// The ten figures that move the difference most, largest swing first (ties: figure order).
    pub bars: Vec<TornadoBar>,
    /// P90 − P10 of the difference over the joint draws.
    pub joint_spread: Decimal,
    /// √(Σ swing²) over every figure: what the one-at-a-time swings add up to when the figures
    /// act independently and additively.
    pub swings_combined: Decimal,
    /// Said when the two disagree by more than half: the figures interact or move together, and
    /// the bars alone do not explain the spread.
    pub interaction_note: Option<String>,
}

/// The band of one scenario's cumulative cash, month by month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Fan {
    pub scenario: String,
    pub p10: Vec<Decimal>,
    pub p50: Vec<Decimal>,
    pub p90: Vec<Decimal>,
}

/// When one scenario's cumulative cash crosses the baseline's for good, over the draws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BreakEvenRisk {
    pub scenario: String,
    /// The share of draws in which the curves cross (the one cheaper at the horizon was dearer
    /// before).
    pub crossing_share: Decimal,
    /// The break-even point over the draws that cross, in average months from the start (as the
    /// compare screen places it); `None` when no draw crosses.
    pub at_month: Option<Spread>,
}

/// Each scenario's decision total, NPV and cumulative cash in one evaluation.
struct Outcome {
    totals: Vec<Decimal>,
    npvs: Vec<Decimal>,
    cumulative: Vec<Vec<Decimal>>,
}

fn run_once(catalog: &Catalog, file: &ScenarioFile) -> Result<Outcome, Vec<Problem>> {
    let e = evaluate(&validate(catalog, file, None)?);
    Ok(Outcome {
        totals: e.scenarios.iter().map(|s| s.totals.decision_total).collect(),
        npvs: e.scenarios.iter().map(|s| s.totals.npv).collect(),
        cumulative: e
            .scenarios
            .iter()
            .map(|s| s.ledger.months.iter().map(|m| m.cumulative_cash).collect())
            .collect(),
    })
}

/// `catalog` with each place at the value `value_of(index)`.
fn with_values(catalog: &Catalog, places: &[Place], value_of: impl Fn(usize) -> Decimal) -> Catalog {
    let mut drawn = catalog.clone();
    for (i, place) in places.iter().enumerate() {
        set_draw(&mut drawn, place, value_of(i));
    }
    drawn
}

/// The tornado of scenario `i` against the baseline `base`: each figure at its P10 and P90 with
/// the others at their modes; `low_high[k]` are figure `k`'s two outcomes.
fn tornado(
    i: usize,
    base: usize,
    point: &Outcome,
    low_high: &[(Outcome, Outcome)],
    joint: &[Decimal],
    id: &str,
) -> Tornado {
    let diff = |o: &Outcome| o.totals[i] - o.totals[base];
    let mut bars: Vec<TornadoBar> = low_high
        .iter()
        .enumerate()
        .map(|(figure, (lo, hi))| TornadoBar {
            figure: u32::try_from(figure).unwrap_or(u32::MAX),
            at_p10: diff(lo),
            at_p90: diff(hi),
            swing: diff(hi) - diff(lo),
        })
        .collect();
    let squares: Decimal = bars.iter().map(|b| b.swing * b.swing).sum();
    // A diagnostic, not money: the square root is taken in floating point, rounded to the cent.
    let root = squares.to_f64().map(f64::sqrt).and_then(Decimal::from_f64);
    let swings_combined = root.unwrap_or_default().round_dp(2);
    bars.sort_by(|a, b| b.swing.abs().cmp(&a.swing.abs()).then(a.figure.cmp(&b.figure)));
    bars.truncate(10);
    let joint_spread = risk::spread(joint).map(|s| s.p90 - s.p10).unwrap_or_default();
    let (lo, hi) = (
        joint_spread * Decimal::new(2, 0) / Decimal::new(3, 0),
        joint_spread * Decimal::new(3, 0) / Decimal::TWO,
    );
    let interaction_note = (joint_spread > Decimal::ZERO && (swings_combined < lo || swings_combined > hi)).then(|| {
        format!(
            "The one-at-a-time swings combine to {swings_combined} while the joint draws spread {joint_spread} (P10 to P90): the figures interact or move together, so the bars do not explain the whole spread."
        )
    });
    Tornado {
        scenario: id.to_owned(),
        at_point: diff(point),
        bars,
        joint_spread,
        swings_combined,
        interaction_note,
    }
}

/// The break-even of scenario `i` against `base` over the draws (`days`: each month's length).
fn break_even(i: usize, base: usize, draws: &[Outcome], days: &[u32], id: &str) -> BreakEvenRisk {
    let points: Vec<Decimal> = draws
        .iter()
        .filter_map(|o| break_even_month(id, &o.cumulative[i], "baseline", &o.cumulative[base], days))
        .map(|b| b.at_month)
        .collect();
    let n = Decimal::from(draws.len().max(1));
    BreakEvenRisk {
        scenario: id.to_owned(),
        crossing_share: Decimal::from(points.len()) / n,
        at_month: risk::spread(&points),
    }
}

/// The per-month P10, P50 and P90 of scenario `i`'s cumulative cash over the draws.
fn fan(i: usize, draws: &[Outcome], id: &str) -> Fan {
    let months = draws.first().map_or(0, |o| o.cumulative[i].len());
    let mut band = Fan {
        scenario: id.to_owned(),
        p10: Vec::with_capacity(months),
        p50: Vec::with_capacity(months),
        p90: Vec::with_capacity(months),
    };
    for m in 0..months {
        let at: Vec<Decimal> = draws.iter().map(|o| o.cumulative[i][m]).collect();
        if let Some(s) = risk::spread(&at) {
            band.p10.push(s.p10);
            band.p50.push(s.p50);
            band.p90.push(s.p90);
        }
    }
    band
}

/// `run(0..n)` on every core, in order; the first problem met, if any. The results do not depend
/// on how the work is split: each draw is computed from its own index.
fn in_parallel<T: Send>(
    n: usize,
    run: impl Fn(usize) -> Result<T, Vec<Problem>> + Sync,
) -> Result<Vec<T>, Vec<Problem>> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let chunk = n.div_ceil(cores.max(1)).max(1);
    let run = &run;
    let parts: Vec<Result<Vec<T>, Vec<Problem>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|start| scope.spawn(move || (start..(start + chunk).min(n)).map(run).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(vec![Problem {
                        path: String::new(),
                        message: "a draw failed".to_owned(),
                    }])
                })
            })
            .collect()
    });
    let mut out = Vec::with_capacity(n);
    for part in parts {
        out.extend(part?);
    }
    Ok(out)
}

/// Draws the plan `file` `sampling.draws` times on `catalog` and summarises each scenario against
/// `baseline` (the first scenario when `None`): its spread, the chance it is cheaper, its fan of
/// cumulative cash and the tornado of its difference. The problems of the file, if any, as
/// `validate` gives them.
pub fn analyse(
    catalog: &Catalog,
    file: &ScenarioFile,
    baseline: Option<&str>,
    sampling: &Sampling,
) -> Result<RiskOutcome, Vec<Problem>> {
    let problem = |path: &str, message: String| {
        vec![Problem {
            path: path.to_owned(),
            message,
        }]
    };
    if sampling.draws == 0 || sampling.draws > MAX_DRAWS {
        return Err(problem("draws", format!("between 1 and {MAX_DRAWS} draws, please")));
    }
    let point = evaluate(&validate(catalog, file, None)?);
    let ids: Vec<(String, String)> = point.scenarios.iter().map(|s| (s.id.clone(), s.name.clone())).collect();
    let base = match baseline {
        None if ids.is_empty() => return Err(problem("scenarios", "the plan has no scenario to analyse".to_owned())),
        None => 0,
        Some(id) => ids
            .iter()
            .position(|(s, _)| s == id)
            .ok_or_else(|| problem("baseline", format!("no scenario has id `{id}`")))?,
    };
    let places = places(catalog, &point);
    let mut probe = catalog.clone();
    let (inputs, figures): (Vec<Input>, Vec<DrawnFigure>) = places
        .iter()
        .filter_map(|p| input_of(&mut probe, p, file.price_point))
        .unzip();
    let draws = risk::draw(&inputs, sampling);
    let outcomes = in_parallel(sampling.draws, |d| {
        run_once(&with_values(catalog, &places, |k| draws[k][d]), file)
    })?;
    let modes: Vec<Decimal> = inputs.iter().map(|x| x.distribution.quantile_of_mode()).collect();
    let at_point = run_once(&with_values(catalog, &places, |k| modes[k]), file)?;
    let swing_at = |k: usize, p: f64| {
        run_once(
            &with_values(catalog, &places, |j| {
                if j == k {
                    inputs[k].distribution.quantile(p)
                } else {
                    modes[j]
                }
            }),
            file,
        )
    };
    let low_high: Vec<(Outcome, Outcome)> = (0..inputs.len())
        .map(|k| Ok((swing_at(k, 0.1)?, swing_at(k, 0.9)?)))
        .collect::<Result<_, Vec<Problem>>>()?;
    let column = |i: usize, pick: fn(&Outcome) -> &Vec<Decimal>| -> Vec<Decimal> {
        outcomes.iter().map(|o| pick(o)[i]).collect()
    };
    let mut scenarios = Vec::new();
    let mut tornados = Vec::new();
    let mut fans = Vec::new();
    let mut break_evens = Vec::new();
    let days: Vec<u32> = point
        .scenarios
        .first()
        .map(|s| s.ledger.months.iter().map(|m| m.month.days()).collect())
        .unwrap_or_default();
    for (i, (id, name)) in ids.iter().enumerate() {
        let totals = column(i, |o| &o.totals);
        let base_totals = column(base, |o| &o.totals);
        let (Some(total), Some(npv)) = (risk::spread(&totals), risk::spread(&column(i, |o| &o.npvs))) else {
            continue;
        };
        scenarios.push(ScenarioRisk {
            id: id.clone(),
            name: name.clone(),
            point_total: point.scenarios[i].totals.decision_total,
            point_npv: point.scenarios[i].totals.npv,
            total,
            npv,
            cheaper_than_baseline: if i == base {
                None
            } else {
                risk::probability_below(&totals, &base_totals)
            },
        });
        if i != base {
            let joint: Vec<Decimal> = totals.iter().zip(&base_totals).map(|(a, b)| a - b).collect();
            tornados.push(tornado(i, base, &at_point, &low_high, &joint, id));
            break_evens.push(break_even(i, base, &outcomes, &days, id));
        }
        fans.push(fan(i, &outcomes, id));
    }
    Ok(RiskOutcome {
        draws: u32::try_from(sampling.draws).unwrap_or(u32::MAX),
        seed: sampling.seed.to_string(),
        group_correlation: format!("{}", sampling.group_correlation),
        baseline: ids[base].0.clone(),
        figures,
        scenarios,
        tornados,
        fans,
        break_evens,
    })
}
