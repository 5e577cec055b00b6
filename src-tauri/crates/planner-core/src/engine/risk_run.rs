//! The spread of a plan's outcomes: every ranged catalog figure its scenarios use that moves
//! money is drawn (see [`crate::engine::risk`]), the plan is validated and evaluated once per draw
//! with the drawn figures, and each scenario's decision total and NPV are summarised.
//!
//! Rules:
//! - A figure is drawn at the catalog entry, so one draw is shared by every scenario that uses it
//!   (common random numbers) and the engine applies it exactly as it applies a catalog figure
//!   (per system or per GPU, converted at the file's rates, at its price point).
//! - The figures drawn are the money-moving ones with a range: purchase prices, cloud rates,
//!   electricity tariffs, PUE, colocation rates, fabric port costs and resale curves (every point
//!   of a curve at one position of its range). Speeds and memory are never drawn: a price point
//!   moves prices, not speeds. Grid intensity and the cloud energy estimate move emissions only.
//! - Each figure is triangular over its catalog range with its mode at the file's price point
//!   (the middle by default); the cloud rates of one provider move together.
//! - Every total is the engine's decimal total of a draw; percentiles interpolate linearly
//!   between draws (numpy's default).

use rust_decimal::Decimal;
use serde::Serialize;

use crate::catalog::Catalog;
use crate::catalog::provenance::Figure;
use crate::engine::assumption::Origin;
use crate::engine::evaluate::{Evaluation, evaluate};
use crate::engine::risk::{self, Distribution, Input, Sampling, Spread};
use crate::engine::scenario_file::{PricePoint, ScenarioFile};
use crate::engine::validate::validate;
use crate::problem::Problem;

/// The most draws one analysis makes.
pub const MAX_DRAWS: usize = 100_000;

/// One drawn figure, as the report names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
        return (field == "per_port_cost").then_some(&mut f.per_port_cost);
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

/// Draws the plan `file` `sampling.draws` times on `catalog` and summarises each scenario against
/// `baseline` (the first scenario when `None`). The problems of the file, if any, as `validate`
/// gives them.
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
    let baseline = match baseline {
        Some(id) if point.scenarios.iter().any(|s| s.id == id) => id.to_owned(),
        Some(id) => return Err(problem("baseline", format!("no scenario has id `{id}`"))),
        None => match point.scenarios.first() {
            Some(s) => s.id.clone(),
            None => return Err(problem("scenarios", "the plan has no scenario to analyse".to_owned())),
        },
    };
    let places = places(catalog, &point);
    let mut probe = catalog.clone();
    let (inputs, figures): (Vec<Input>, Vec<DrawnFigure>) = places
        .iter()
        .filter_map(|p| input_of(&mut probe, p, file.price_point))
        .unzip();
    let draws = risk::draw(&inputs, sampling);
    let n = point.scenarios.len();
    let mut totals: Vec<Vec<Decimal>> = vec![Vec::with_capacity(sampling.draws); n];
    let mut npvs: Vec<Vec<Decimal>> = vec![Vec::with_capacity(sampling.draws); n];
    for d in 0..sampling.draws {
        let mut drawn = catalog.clone();
        for (place, values) in places.iter().zip(&draws) {
            set_draw(&mut drawn, place, values[d]);
        }
        let evaluation = evaluate(&validate(&drawn, file, None)?);
        for (i, s) in evaluation.scenarios.iter().enumerate().take(n) {
            totals[i].push(s.totals.decision_total);
            npvs[i].push(s.totals.npv);
        }
    }
    let base = point.scenarios.iter().position(|s| s.id == baseline).unwrap_or(0);
    let scenarios = point
        .scenarios
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            Some(ScenarioRisk {
                id: s.id.clone(),
                name: s.name.clone(),
                point_total: s.totals.decision_total,
                point_npv: s.totals.npv,
                total: risk::spread(&totals[i])?,
                npv: risk::spread(&npvs[i])?,
                cheaper_than_baseline: if i == base {
                    None
                } else {
                    risk::probability_below(&totals[i], &totals[base])
                },
            })
        })
        .collect();
    Ok(RiskOutcome {
        draws: u32::try_from(sampling.draws).unwrap_or(u32::MAX),
        seed: sampling.seed.to_string(),
        group_correlation: format!("{}", sampling.group_correlation),
        baseline,
        figures,
        scenarios,
    })
}
