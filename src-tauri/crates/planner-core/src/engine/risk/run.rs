//! The spread of a plan's outcomes: every ranged catalog figure its scenarios use that moves
//! money is drawn (see [`crate::engine::risk::sampling`]), the plan is validated and evaluated once per draw
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
//! - Each figure is triangular over its catalog range with its mode at the price point of the
//!   scenario that uses it (its own `price_point`, else the file's; the middle by default): one
//!   position in the range per draw is read on each scenario's distribution, so a scenario's
//!   draws centre on its own point and the draws stay paired. The cloud rates of one provider
//!   move together.
//! - Every total is the engine's decimal total of a draw; percentiles interpolate linearly
//!   between draws (numpy's default).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rust_decimal::Decimal;
use rust_decimal::prelude::{FromPrimitive, ToPrimitive};
use serde::{Deserialize, Serialize};

use crate::catalog::Catalog;
use crate::catalog::provenance::Figure;
use crate::engine::costing::evaluate::{Evaluation, evaluate};
use crate::engine::decide::compare::break_even_month;
use crate::engine::input::scenario_file::{PricePoint, ScenarioFile};
use crate::engine::model::assumption::Origin;
use crate::engine::resolve::validate::validate;
use crate::engine::risk::drivers::{Resolved, Uncertain, resolve, with_drivers};
use crate::engine::risk::sampling::{self, Distribution, Input, Sampling, Shape, Spread};
use crate::engine::risk::surface::{Fit, Outputs, Surface, TOLERANCE, largest_gap};
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
    /// The mode at the file's price point (a scenario at its own point draws around its own).
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
    /// The deterministic decision total and NPV, at the scenario's own price point.
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
    /// How the draws were evaluated: re-priced on the plan's surface (and what it was checked
    /// against), or each in full.
    #[serde(default)]
    pub method: String,
    /// The family each figure is drawn from (the mode at the plan's price point).
    #[serde(default)]
    pub shape: Shape,
    /// The figures of the plan the user marked uncertain, with their ranges.
    #[serde(default)]
    pub uncertain: Vec<Uncertain>,
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
fn input_of(catalog: &mut Catalog, place: &Place, point: PricePoint, shape: Shape) -> Option<(Input, DrawnFigure)> {
    let (entry, field, distribution, shown) = match place {
        Place::Figure { entry, field } => {
            let f = drawable(catalog, entry, field)?;
            let mode = at_point(f, point);
            let d = shape.over(f.low, mode, f.high);
            (entry, field.clone(), d, (f.low, mode, f.high))
        }
        Place::Resale { curve } => {
            // A position in every point's range: 0 the low end, 1 the high end.
            let mode = match point {
                PricePoint::Low => Decimal::ZERO,
                PricePoint::Mid => Decimal::new(5, 1),
                PricePoint::High => Decimal::ONE,
            };
            let d = shape.over(Decimal::ZERO, mode, Decimal::ONE);
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

/// Why an analysis gave no outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    /// The plan or the request has problems, as `validate` gives them.
    Problems(Vec<Problem>),
    /// The caller cancelled it.
    Cancelled,
}

impl From<Vec<Problem>> for Stopped {
    fn from(p: Vec<Problem>) -> Stopped {
        Stopped::Problems(p)
    }
}

/// Progress and cancellation of a running analysis, shared with the thread that started it.
#[derive(Debug, Default)]
pub struct Control {
    done: AtomicUsize,
    total: AtomicUsize,
    cancel: AtomicBool,
    full: bool,
}

impl Control {
    /// A control that re-prices the draws on the plan's surface when it checks out.
    pub fn new() -> Control {
        Control::default()
    }

    /// A control that evaluates every draw in full (slower; the reference the surface is tested
    /// against).
    pub fn full() -> Control {
        Control {
            full: true,
            ..Control::default()
        }
    }

    /// Asks the analysis to stop at its next step.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The steps done and the steps known so far (full evaluations, and draws re-priced).
    pub fn progress(&self) -> (usize, usize) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }

    fn plan(&self, steps: usize) {
        self.total.fetch_add(steps, Ordering::Relaxed);
    }

    fn step(&self, steps: usize) {
        self.done.fetch_add(steps, Ordering::Relaxed);
    }
}

/// Output indices of one scenario: the decision total, the NPV, then the cumulative cash at the
/// end of each month.
const TOTAL: usize = 0;
const NPV: usize = 1;
const MONTHS: usize = 2;

/// Every scenario's outputs in one full evaluation (validated and evaluated).
fn run_once(catalog: &Catalog, file: &ScenarioFile) -> Result<Outputs, Vec<Problem>> {
    let e = evaluate(&validate(catalog, file, None)?);
    Ok(e.scenarios
        .iter()
        .map(|s| {
            let mut out = vec![s.totals.decision_total, s.totals.npv];
            out.extend(s.ledger.months.iter().map(|m| m.cumulative_cash));
            out
        })
        .collect())
}

/// `catalog` with each place at the value `value_of(index)`.
fn with_values(catalog: &Catalog, places: &[Place], value_of: &impl Fn(usize) -> Decimal) -> Catalog {
    let mut drawn = catalog.clone();
    for (i, place) in places.iter().enumerate() {
        set_draw(&mut drawn, place, value_of(i));
    }
    drawn
}

/// The price point each scenario of `file` resolves its catalog figures at (as `validate` does):
/// the distinct points, the file's first, and each scenario's index among them.
fn scenario_points(file: &ScenarioFile) -> (Vec<PricePoint>, Vec<usize>) {
    let mut points = vec![file.price_point];
    let group = file
        .scenarios
        .iter()
        .map(|s| {
            let point = s.price_point.unwrap_or(file.price_point);
            points.iter().position(|p| *p == point).unwrap_or_else(|| {
                points.push(point);
                points.len() - 1
            })
        })
        .collect();
    (points, group)
}

/// The plan a draw is evaluated on: the catalog with its drawn figures (`places`, the first
/// inputs) and the file with its drawn drivers (the inputs after them).
struct Model<'a> {
    catalog: &'a Catalog,
    file: &'a ScenarioFile,
    places: &'a [Place],
    drivers: &'a [Resolved],
    /// The file as JSON, when it has drivers to write into.
    json: Option<serde_json::Value>,
    /// Every input's distribution at each price point a scenario resolves at (the file's first):
    /// a catalog figure's mode is at that point; a driver's is the file's value at every point.
    at_points: Vec<Vec<Distribution>>,
    /// Each scenario's price point, as an index of `at_points`.
    group: Vec<usize>,
}

impl Model<'_> {
    /// Every scenario's outputs with input `k` at `value_of(k, its distribution at the
    /// scenario's price point)`, validated and evaluated in full: once per price point, each
    /// scenario's outputs taken from the evaluation at its own point.
    fn run(&self, value_of: impl Fn(usize, &Distribution) -> Decimal) -> Result<Outputs, Vec<Problem>> {
        let mut by_point = Vec::with_capacity(self.at_points.len());
        for dists in &self.at_points {
            let value = |k: usize| dists.get(k).map_or(Decimal::ZERO, |d| value_of(k, d));
            let catalog = with_values(self.catalog, self.places, &value);
            by_point.push(match &self.json {
                None => run_once(&catalog, self.file)?,
                Some(json) => {
                    let n = self.places.len();
                    let values: Vec<(&Resolved, Decimal)> = self
                        .drivers
                        .iter()
                        .enumerate()
                        .map(|(j, d)| (d, value(n + j)))
                        .collect();
                    run_once(&catalog, &with_drivers(json, &values)?)?
                }
            });
        }
        if by_point.len() == 1 {
            return Ok(by_point.pop().unwrap_or_default());
        }
        Ok((0..self.group.len())
            .map(|s| {
                let g = self.group[s];
                by_point.get(g).and_then(|o| o.get(s)).cloned().unwrap_or_default()
            })
            .collect())
    }
}

/// A driver's input: its range with its mode at the file's value (a whole-month figure is drawn
/// over half a month beyond each end and rounded, so each month keeps its share).
fn driver_input(d: &Resolved, shape: Shape) -> (Input, DrawnFigure) {
    let half = Decimal::new(5, 1);
    let (low, high) = if d.candidate.whole {
        (d.low - half, d.high + half)
    } else {
        (d.low, d.high)
    };
    let input = Input {
        key: d.candidate.path.clone(),
        distribution: shape.over(low, d.candidate.value, high),
        group: None,
    };
    let figure = DrawnFigure {
        entry: d.candidate.path.clone(),
        field: d.candidate.label.clone(),
        low: d.low,
        mode: d.candidate.value,
        high: d.high,
        group: None,
    };
    (input, figure)
}

/// What the summaries read of the draws: every draw evaluated in full, or the plan's surface.
trait Draws: Sync {
    fn count(&self) -> usize;
    /// Output `o` of scenario `s` in draw `d`, to rank the draws.
    fn approx(&self, d: usize, s: usize, o: usize) -> f64;
    /// The same in decimals: what is reported.
    fn exact(&self, d: usize, s: usize, o: usize) -> Decimal;
    fn mean(&self, s: usize, o: usize) -> Decimal;
}

/// Every draw evaluated in full: `0[d][s][o]`.
struct Full(Vec<Outputs>);

impl Draws for Full {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn approx(&self, d: usize, s: usize, o: usize) -> f64 {
        self.0[d][s][o].to_f64().unwrap_or(0.0)
    }
    fn exact(&self, d: usize, s: usize, o: usize) -> Decimal {
        self.0[d][s][o]
    }
    fn mean(&self, s: usize, o: usize) -> Decimal {
        let sum: Decimal = self.0.iter().map(|d| d[s][o]).sum();
        sum / Decimal::from(self.0.len().max(1))
    }
}

impl Draws for Surface {
    fn count(&self) -> usize {
        Surface::count(self)
    }
    fn approx(&self, d: usize, s: usize, o: usize) -> f64 {
        Surface::approx(self, d, s, o)
    }
    fn exact(&self, d: usize, s: usize, o: usize) -> Decimal {
        Surface::exact(self, d, s, o)
    }
    fn mean(&self, s: usize, o: usize) -> Decimal {
        Surface::mean(self, s, o)
    }
}

/// Percentiles `ps` of a column of `n` values (numpy's linear interpolation): the draws are
/// ordered by `approx` and the two order statistics around each percentile are taken in
/// decimals.
fn percentiles(
    n: usize,
    approx: impl Fn(usize) -> f64,
    exact: impl Fn(usize) -> Decimal,
    ps: &[Decimal],
) -> Option<Vec<Decimal>> {
    let last = n.checked_sub(1)?;
    let mut keys: Vec<(f64, usize)> = (0..n).map(|d| (approx(d), d)).collect();
    // Ties in floating point are within its rounding (about 1e-16 of the value): broken by the
    // draw's index, so the choice is reproducible.
    let order = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    ps.iter()
        .map(|p| {
            let h = Decimal::from(last) * p.clamp(&Decimal::ZERO, &Decimal::ONE);
            let below = h.floor();
            let i = below.to_usize().unwrap_or(0).min(last);
            let (_, at, above) = keys.select_nth_unstable_by(i, order);
            let low = exact(at.1);
            let high = above.iter().min_by(|a, b| order(a, b)).map_or(low, |k| exact(k.1));
            Some(low + (h - below) * (high - low))
        })
        .collect()
}

const P10_50_90: [Decimal; 3] = [
    Decimal::from_parts(1, 0, 0, false, 1),
    Decimal::from_parts(5, 0, 0, false, 1),
    Decimal::from_parts(9, 0, 0, false, 1),
];

/// The spread of output `o` of scenario `s` over the draws.
fn spread_of(draws: &impl Draws, s: usize, o: usize) -> Option<Spread> {
    let at = percentiles(
        draws.count(),
        |d| draws.approx(d, s, o),
        |d| draws.exact(d, s, o),
        &P10_50_90,
    )?;
    Some(Spread {
        p10: at[0],
        p50: at[1],
        p90: at[2],
        mean: draws.mean(s, o),
    })
}

/// The share of draws in which scenario `s`'s decision total is below `base`'s (ties half).
fn share_below(draws: &impl Draws, s: usize, base: usize) -> Option<Decimal> {
    let n = draws.count();
    if n == 0 {
        return None;
    }
    let halves: usize = (0..n)
        .map(|d| {
            let (a, b) = (draws.approx(d, s, TOTAL), draws.approx(d, base, TOTAL));
            let near = (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
            let order = if near {
                draws.exact(d, s, TOTAL).cmp(&draws.exact(d, base, TOTAL))
            } else {
                a.total_cmp(&b)
            };
            match order {
                std::cmp::Ordering::Less => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Greater => 0,
            }
        })
        .sum();
    Some(Decimal::from(halves) / Decimal::from(2 * n))
}

/// The tornado of scenario `i` against the baseline `base`: each figure at its P10 and P90 with
/// the others at their points; `low_high[k]` are figure `k`'s two outcomes.
fn tornado(
    i: usize,
    base: usize,
    point: &Outputs,
    low_high: &[(Outputs, Outputs)],
    draws: &impl Draws,
    id: &str,
) -> Tornado {
    let diff = |o: &Outputs| o[i][TOTAL] - o[base][TOTAL];
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
    let joint = percentiles(
        draws.count(),
        |d| draws.approx(d, i, TOTAL) - draws.approx(d, base, TOTAL),
        |d| draws.exact(d, i, TOTAL) - draws.exact(d, base, TOTAL),
        &[P10_50_90[0], P10_50_90[2]],
    );
    let joint_spread = joint.map(|p| p[1] - p[0]).unwrap_or_default();
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

/// Where the cumulative cash of `a` crosses `b` for good, in average months, in floating point:
/// the rule of [`break_even_month`] (the decision totals `totals` say which is cheaper), only to
/// rank the draws.
fn crossing_rank(a: &[f64], b: &[f64], totals: (f64, f64), days: &[u32]) -> Option<f64> {
    let n = a.len().min(b.len());
    if n == 0 || totals.0 == totals.1 {
        return None;
    }
    let a_wins = totals.0 < totals.1;
    let gap = |k: usize| if a_wins { a[k] - b[k] } else { b[k] - a[k] };
    if gap(n - 1) >= 0.0 {
        return None;
    }
    let last_dearer = (0..n).rev().find(|&k| gap(k) > 0.0)?;
    let next = last_dearer + 1;
    let (before, after) = (gap(last_dearer), gap(next.min(n - 1)));
    let fraction = if before > after {
        (before / (before - after)).min(1.0)
    } else {
        1.0
    };
    let day = |k: usize| f64::from(days.get(k).copied().unwrap_or(30));
    let elapsed: f64 = (0..next).map(day).sum::<f64>() + fraction * day(next);
    Some(elapsed / 30.436_875)
}

/// The break-even of scenario `i` against `base` over the draws (`days`: each month's length).
fn break_even(i: usize, base: usize, draws: &impl Draws, days: &[u32], id: &str) -> BreakEvenRisk {
    let months = days.len();
    let series = |d: usize, s: usize, f: &dyn Fn(usize, usize, usize) -> f64| -> Vec<f64> {
        (0..months).map(|m| f(d, s, MONTHS + m)).collect()
    };
    let approx = |d: usize, s: usize, o: usize| draws.approx(d, s, o);
    let crossing: Vec<(usize, f64)> = (0..draws.count())
        .filter_map(|d| {
            let totals = (draws.approx(d, i, TOTAL), draws.approx(d, base, TOTAL));
            crossing_rank(&series(d, i, &approx), &series(d, base, &approx), totals, days).map(|r| (d, r))
        })
        .collect();
    let exact = |j: usize| {
        let d = crossing[j].0;
        let at = |s: usize| (0..months).map(|m| draws.exact(d, s, MONTHS + m)).collect::<Vec<_>>();
        let totals = (draws.exact(d, i, TOTAL), draws.exact(d, base, TOTAL));
        break_even_month(id, &at(i), "baseline", &at(base), totals, days).map_or(Decimal::ZERO, |b| b.at_month)
    };
    let at_month = percentiles(crossing.len(), |j| crossing[j].1, exact, &P10_50_90).map(|p| {
        // Months, not money: the mean is taken over the ranks in floating point.
        #[allow(clippy::cast_precision_loss)]
        let mean = crossing.iter().map(|c| c.1).sum::<f64>() / crossing.len() as f64;
        Spread {
            p10: p[0],
            p50: p[1],
            p90: p[2],
            mean: Decimal::from_f64(mean).unwrap_or_default().round_dp(6),
        }
    });
    BreakEvenRisk {
        scenario: id.to_owned(),
        crossing_share: Decimal::from(crossing.len()) / Decimal::from(draws.count().max(1)),
        at_month,
    }
}

/// The per-month P10, P50 and P90 of scenario `s`'s cumulative cash over the draws.
fn fan(s: usize, months: usize, draws: &impl Draws, id: &str) -> Fan {
    let mut band = Fan {
        scenario: id.to_owned(),
        p10: Vec::with_capacity(months),
        p50: Vec::with_capacity(months),
        p90: Vec::with_capacity(months),
    };
    for m in 0..months {
        let o = MONTHS + m;
        if let Some(p) = percentiles(
            draws.count(),
            |d| draws.approx(d, s, o),
            |d| draws.exact(d, s, o),
            &P10_50_90,
        ) {
            band.p10.push(p[0]);
            band.p50.push(p[1]);
            band.p90.push(p[2]);
        }
    }
    band
}

/// `run(0..n)` on every core, in order, counting each as a step of `control`; the first problem
/// met, if any. The results do not depend on how the work is split: each item is computed from
/// its own index.
fn in_parallel<T: Send>(
    n: usize,
    control: &Control,
    run: impl Fn(usize) -> Result<T, Vec<Problem>> + Sync,
) -> Result<Vec<T>, Stopped> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let chunk = n.div_ceil(cores.max(1)).max(1);
    let run = &run;
    let parts: Vec<Result<Vec<T>, Stopped>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|start| {
                scope.spawn(move || {
                    (start..(start + chunk).min(n))
                        .map(|i| {
                            if control.cancelled() {
                                return Err(Stopped::Cancelled);
                            }
                            let out = run(i).map_err(Stopped::Problems);
                            control.step(1);
                            out
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(Stopped::Problems(vec![Problem {
                        path: String::new(),
                        message: "a draw failed".to_owned(),
                    }]))
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

/// The inputs of `places` and `drivers` at the first of `points` (the file's price point), with
/// how the report names them, and every input's distribution at each of `points`.
fn inputs_at(
    catalog: &Catalog,
    places: &[Place],
    drivers: &[Resolved],
    points: &[PricePoint],
    shape: Shape,
) -> (Vec<Input>, Vec<DrawnFigure>, Vec<Vec<Distribution>>) {
    let mut probe = catalog.clone();
    let mut at = |point: PricePoint| -> (Vec<Input>, Vec<DrawnFigure>) {
        places
            .iter()
            .filter_map(|p| input_of(&mut probe, p, point, shape))
            .chain(drivers.iter().map(|d| driver_input(d, shape)))
            .unzip()
    };
    let mut at_points = Vec::with_capacity(points.len());
    let mut first = (Vec::new(), Vec::new());
    for (i, point) in points.iter().enumerate() {
        let (inputs, figures) = at(*point);
        at_points.push(inputs.iter().map(|x| x.distribution).collect());
        if i == 0 {
            first = (inputs, figures);
        }
    }
    (first.0, first.1, at_points)
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
    analyse_with(catalog, file, baseline, sampling, &[], &Control::new()).map_err(|s| match s {
        Stopped::Problems(p) => p,
        Stopped::Cancelled => Vec::new(),
    })
}

/// How many joint draws are evaluated in full to check the surface.
const CHECKED_DRAWS: usize = 8;

/// [`analyse`] with the figures of the file the user marks `uncertain` drawn too, reporting its
/// progress to `control` and stopping when it is cancelled. The draws are re-priced on the plan's
/// surface (see [`crate::engine::risk::surface`]) when every figure drawn is a price and the
/// surface agrees with the full evaluations it is checked against, and evaluated in full
/// otherwise.
pub fn analyse_with(
    catalog: &Catalog,
    file: &ScenarioFile,
    baseline: Option<&str>,
    sampling: &Sampling,
    uncertain: &[Uncertain],
    control: &Control,
) -> Result<RiskOutcome, Stopped> {
    let problem = |path: &str, message: String| {
        Stopped::Problems(vec![Problem {
            path: path.to_owned(),
            message,
        }])
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
    let drivers = resolve(file, uncertain)?;
    let places = places(catalog, &point);
    let (points, group) = scenario_points(file);
    let (inputs, figures, at_points) = inputs_at(catalog, &places, &drivers, &points, sampling.shape);
    let n = inputs.len();
    let model = Model {
        catalog,
        file,
        places: &places,
        drivers: &drivers,
        json: (!drivers.is_empty()).then(|| serde_json::to_value(file).unwrap_or_default()),
        at_points,
        group,
    };
    // One position per figure and draw, read on the figure's distribution at each scenario's
    // price point: every scenario centres on its own point, and the draws stay paired.
    let positions = sampling::positions(&inputs, sampling);
    let modes: Vec<Decimal> = inputs.iter().map(|x| x.distribution.quantile_of_mode()).collect();
    let tails: Vec<(Decimal, Decimal)> = inputs
        .iter()
        .map(|x| (x.distribution.quantile(0.1), x.distribution.quantile(0.9)))
        .collect();
    // The point, then each figure alone at its P10 and its P90.
    control.plan(1 + 2 * n);
    let singles = in_parallel(1 + 2 * n, control, |j| {
        let (k, tail) = (j.wrapping_sub(1) / 2, j % 2);
        model.run(|i, d| match (j, i == k, tail) {
            (0, _, _) | (_, false, _) => d.quantile_of_mode(),
            (_, true, 1) => d.quantile(0.1),
            _ => d.quantile(0.9),
        })
    })?;
    let mut singles = singles.into_iter();
    let at_point = singles.next().unwrap_or_default();
    let low_high: Vec<(Outputs, Outputs)> = (0..n).map_while(|_| Some((singles.next()?, singles.next()?))).collect();
    let fit = Fit::new(
        at_point.clone(),
        modes,
        tails.iter().map(|t| t.1).collect(),
        &low_high.iter().map(|p| p.1.clone()).collect::<Vec<_>>(),
    );
    let pairs = fit.pairs();
    // Drivers that move quantities (demand, growth, MFU, lead time, interruptions) change the
    // dispatch: the surface's premise does not hold, every draw is evaluated in full.
    let prices_only = drivers.iter().all(|d| d.candidate.price);
    // Scenarios at different price points read one position on different distributions: the
    // surface (linear in one value per figure) does not hold across them.
    let one_point = points.len() == 1;
    let fitted = if control.full || !prices_only || !one_point || sampling.draws <= 2 * (pairs.len() + CHECKED_DRAWS) {
        None
    } else {
        surface(
            &model,
            fit,
            &pairs,
            &low_high,
            &tails,
            // The draws' values are only needed on the surface (one price point).
            (sampling::values(&inputs, &positions), sampling.draws),
            control,
        )?
    };
    let summary = Summary {
        ids: &ids,
        base,
        days: point
            .scenarios
            .first()
            .map(|s| s.ledger.months.iter().map(|m| m.month.days()).collect())
            .unwrap_or_default(),
        point: &point,
        at_point: &at_point,
        low_high: &low_high,
    };
    let (mut outcome, method) = match fitted {
        Some((surface, method)) => (summary.outcome(&surface, control)?, method),
        None => {
            control.plan(sampling.draws);
            let outcomes = in_parallel(sampling.draws, control, |d| {
                model.run(|k, dist| dist.quantile(positions[k][d]))
            })?;
            (
                summary.outcome(&Full(outcomes), control)?,
                format!(
                    "Every one of the {} draws validated and evaluated in full.",
                    sampling.draws
                ),
            )
        }
    };
    outcome.draws = u32::try_from(sampling.draws).unwrap_or(u32::MAX);
    outcome.seed = sampling.seed.to_string();
    outcome.group_correlation = format!("{}", sampling.group_correlation);
    outcome.shape = sampling.shape;
    outcome.uncertain = uncertain.to_vec();
    outcome.figures = figures;
    outcome.method = match points_note(file, &points) {
        Some(note) => format!("{method} {note}"),
        None => method,
    };
    Ok(outcome)
}

/// The surface of the plan over `draws` (the values at the file's price point: it is fitted only
/// when every scenario resolves at that point), fitted from the point and the figures at their P90 and
/// each pair at their P90, when it gives the full evaluation of every figure at its P10 and of
/// [`CHECKED_DRAWS`] joint draws within [`TOLERANCE`]; with what was checked. `None` when it does
/// not (the draws are then evaluated in full).
#[allow(clippy::too_many_arguments)]
fn surface(
    model: &Model<'_>,
    fit: Fit,
    pairs: &[(usize, usize)],
    low_high: &[(Outputs, Outputs)],
    tails: &[(Decimal, Decimal)],
    (draws, count): (Vec<Vec<Decimal>>, usize),
    control: &Control,
) -> Result<Option<(Surface, String)>, Stopped> {
    let checked: Vec<usize> = (0..CHECKED_DRAWS).map(|i| i * count / CHECKED_DRAWS).collect();
    control.plan(pairs.len() + checked.len());
    let at_pairs = in_parallel(pairs.len(), control, |j| {
        let (a, b) = pairs[j];
        model.run(|k, _| if k == a || k == b { tails[k].1 } else { fit.x0[k] })
    })?;
    let full_checks = in_parallel(checked.len(), control, |j| model.run(|k, _| draws[k][checked[j]]))?;
    let x0 = fit.x0.clone();
    let mut surface = fit.surface(pairs, &at_pairs, draws, count);
    let mut gap = Decimal::ZERO;
    for (k, (low, _)) in low_high.iter().enumerate() {
        let on_surface = surface.at(|i| if i == k { tails[k].0 } else { x0[i] });
        gap = gap.max(largest_gap(&on_surface, low));
    }
    for (j, full) in full_checks.iter().enumerate() {
        gap = gap.max(largest_gap(&surface.at_draw(checked[j]), full));
    }
    if gap > TOLERANCE {
        return Ok(None);
    }
    control.plan(count);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let chunk = count.div_ceil(cores.max(1)).max(1);
    let shared = &surface;
    let parts: Vec<Vec<f64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..count)
            .step_by(chunk)
            .map(|start| {
                scope.spawn(move || {
                    let end = (start + chunk).min(count);
                    let mut out = Vec::new();
                    for from in (start..end).step_by(1024) {
                        if control.cancelled() {
                            break;
                        }
                        let to = (from + 1024).min(end);
                        out.extend(shared.rank(from, to));
                        control.step(to - from);
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    });
    if control.cancelled() {
        return Err(Stopped::Cancelled);
    }
    surface.set_ranked(parts.concat());
    let (figures, products) = surface.terms();
    let method = format!(
        "The {count} draws re-priced on the plan's surface ({figures} figure{}, {products} product{} of two), which gave the full evaluation of every figure at its P10 and of {} joint draws within {} (largest difference {}).",
        if figures == 1 { "" } else { "s" },
        if products == 1 { "" } else { "s" },
        checked.len(),
        TOLERANCE,
        gap_text(gap)
    );
    Ok(Some((surface, method)))
}

/// The price point as a sentence names it.
fn point_name(point: PricePoint) -> &'static str {
    match point {
        PricePoint::Low => "low",
        PricePoint::Mid => "mid",
        PricePoint::High => "high",
    }
}

/// What the method adds when the scenarios of `file` resolve at different price `points`: each
/// scenario's figures are drawn around its own point; the figures listed give their mode at the
/// file's.
fn points_note(file: &ScenarioFile, points: &[PricePoint]) -> Option<String> {
    if points.len() < 2 {
        return None;
    }
    let own: Vec<String> = file
        .scenarios
        .iter()
        .filter_map(|s| {
            s.price_point
                .filter(|p| *p != file.price_point)
                .map(|p| format!("{} at {}", s.name, point_name(p)))
        })
        .collect();
    Some(format!(
        "Scenarios price at different points ({}; the others at the file's {}): each scenario's figures are drawn around its own price point, one position in each figure's range shared by every scenario, so the comparisons stay paired. The figures listed give their mode at the file's point; every draw is evaluated in full, once per price point.",
        own.join(", "),
        point_name(file.price_point)
    ))
}

/// The largest difference between the surface and a full evaluation, as the method says it.
fn gap_text(gap: Decimal) -> String {
    if gap.is_zero() {
        "none".to_owned()
    } else {
        format!("{:.1e}", gap.to_f64().unwrap_or(0.0))
    }
}

/// What every summary of the draws shares.
struct Summary<'a> {
    ids: &'a [(String, String)],
    base: usize,
    days: Vec<u32>,
    point: &'a Evaluation,
    at_point: &'a Outputs,
    low_high: &'a [(Outputs, Outputs)],
}

impl Summary<'_> {
    fn outcome(&self, draws: &impl Draws, control: &Control) -> Result<RiskOutcome, Stopped> {
        let base = self.base;
        let mut scenarios = Vec::new();
        let mut tornados = Vec::new();
        let mut fans = Vec::new();
        let mut break_evens = Vec::new();
        for (i, (id, name)) in self.ids.iter().enumerate() {
            if control.cancelled() {
                return Err(Stopped::Cancelled);
            }
            let (Some(total), Some(npv)) = (spread_of(draws, i, TOTAL), spread_of(draws, i, NPV)) else {
                continue;
            };
            scenarios.push(ScenarioRisk {
                id: id.clone(),
                name: name.clone(),
                point_total: self.point.scenarios[i].totals.decision_total,
                point_npv: self.point.scenarios[i].totals.npv,
                total,
                npv,
                cheaper_than_baseline: if i == base { None } else { share_below(draws, i, base) },
            });
            if i != base {
                tornados.push(tornado(i, base, self.at_point, self.low_high, draws, id));
                break_evens.push(break_even(i, base, draws, &self.days, id));
            }
            fans.push(fan(i, self.days.len(), draws, id));
        }
        Ok(RiskOutcome {
            draws: 0,
            seed: String::new(),
            group_correlation: String::new(),
            baseline: self.ids[base].0.clone(),
            figures: Vec::new(),
            scenarios,
            tornados,
            fans,
            break_evens,
            method: String::new(),
            shape: Shape::Triangular,
            uncertain: Vec::new(),
        })
    }
}
