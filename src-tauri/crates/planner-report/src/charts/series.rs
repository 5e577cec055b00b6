//! The points the compare screen's charts plot, as one structure that both renderers read: the
//! memo's plotters charts ([`super::cumulative_svg`], [`super::monthly_svg`]) draw from it, and
//! the screen's canvas charts receive it over IPC and plot it as it is. So the two cannot drift:
//! a test reads the points back out of the SVG and compares them with this structure.
//!
//! Values are `f64` here only because they are coordinates; the figures themselves stay decimal
//! in the decision view.

use planner_core::engine::decide::decision::{DecisionView, ScenarioFigures};
use serde::{Deserialize, Serialize};

use super::{Theme, category_colour, scenario_rgb, to_f64};
use crate::category_label;

/// `#RRGGBB`.
fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// One scenario's line of cumulative cash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SeriesLine {
    pub scenario: String,
    /// The legend's label ("Name (baseline)" for a pinned reference).
    pub label: String,
    /// `#RRGGBB`, the scenario's colour in every chart.
    pub colour: String,
    /// 4 for the reference, 2 for the others.
    pub width: u32,
    /// One value per month (cumulative cash at the end of that month).
    pub values: Vec<f64>,
}

/// A break-even marker: on line `line` (an index into `lines`) at the end of month `month`
/// (1-based), for `count` scenarios breaking even there against the reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BreakEvenMark {
    pub line: u32,
    pub month: u32,
    pub count: u32,
    /// The marker's point: x is the month index (month − 1), y the line's value there.
    pub x: f64,
    pub y: f64,
}

/// The cumulative cash chart's points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CumulativeSeries {
    /// The month labels, `YYYY-MM`, one per point.
    pub months: Vec<String>,
    /// In view order.
    pub lines: Vec<SeriesLine>,
    pub break_evens: Vec<BreakEvenMark>,
}

/// One stacked bar segment of a month: from `from` to `to` (costs stack up from zero, income
/// down from zero).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StackSegment {
    /// An index into the series' `categories`.
    pub category: u32,
    /// The month index (0 = the first month).
    pub month: u32,
    pub from: f64,
    pub to: f64,
}

/// A cost category that has a bar in a scenario's monthly chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SeriesCategory {
    pub label: String,
    pub colour: String,
}

/// One scenario's monthly cash by category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MonthlySeries {
    pub scenario: String,
    pub months: Vec<String>,
    /// The categories with at least one non-zero month, in the ledger's order.
    pub categories: Vec<SeriesCategory>,
    /// In drawing order: category by category, month by month.
    pub segments: Vec<StackSegment>,
}

fn month_labels(view: &DecisionView) -> Vec<String> {
    view.months.iter().map(ToString::to_string).collect()
}

fn is_reference(view: &DecisionView, s: &ScenarioFigures) -> bool {
    view.reference.as_deref() == Some(s.id.as_str())
}

/// The cumulative chart's points of `view`, coloured for `theme`.
pub fn cumulative_series(view: &DecisionView, theme: Theme) -> CumulativeSeries {
    let n = view.months.len();
    let lines: Vec<SeriesLine> = view
        .scenarios
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let reference = is_reference(view, s);
            SeriesLine {
                scenario: s.id.clone(),
                label: if reference {
                    let role = if view.baseline_pinned { "baseline" } else { "reference" };
                    format!("{} ({role})", s.name)
                } else {
                    s.name.clone()
                },
                colour: hex(scenario_rgb(i, theme)),
                width: if reference { 4 } else { 2 },
                values: s.cumulative.iter().take(n).map(to_f64).collect(),
            }
        })
        .collect();
    let break_evens = break_evens(view, &lines);
    CumulativeSeries {
        months: month_labels(view),
        lines,
        break_evens,
    }
}

/// One marker per line and month where a scenario breaks even against the reference, on the
/// line of the scenario that is cheaper from then on.
fn break_evens(view: &DecisionView, lines: &[SeriesLine]) -> Vec<BreakEvenMark> {
    let mut marks: Vec<BreakEvenMark> = Vec::new();
    for s in &view.scenarios {
        let Some(be) = s.difference.as_ref().and_then(|d| d.break_even.as_ref()) else {
            continue;
        };
        let Some(line) = view.scenarios.iter().position(|x| x.id == be.cheaper_after) else {
            continue;
        };
        let Some(k) = usize::try_from(be.month)
            .ok()
            .filter(|k| (1..=lines[line].values.len()).contains(k))
        else {
            continue;
        };
        let line = u32::try_from(line).unwrap_or(u32::MAX);
        match marks.iter_mut().find(|m| m.line == line && m.month == be.month) {
            Some(m) => m.count += 1,
            None => marks.push(BreakEvenMark {
                line,
                month: be.month,
                count: 1,
                x: (k - 1) as f64,
                y: lines
                    .get(line as usize)
                    .and_then(|l| l.values.get(k - 1))
                    .copied()
                    .unwrap_or(0.0),
            }),
        }
    }
    marks
}

/// The monthly chart's bars of scenario `scenario_id`, or `None` when the view has no such
/// scenario.
pub fn monthly_series(view: &DecisionView, scenario_id: &str) -> Option<MonthlySeries> {
    let scenario = view.scenarios.iter().find(|s| s.id == scenario_id)?;
    let n = view.months.len();
    let mut categories = Vec::new();
    let mut segments = Vec::new();
    let mut up = vec![0.0f64; n];
    let mut down = vec![0.0f64; n];
    for series in &scenario.monthly {
        if !series.values.iter().take(n).any(|v| !v.is_zero()) {
            continue;
        }
        let category = u32::try_from(categories.len()).unwrap_or(u32::MAX);
        categories.push(SeriesCategory {
            label: category_label(series.category).to_owned(),
            colour: hex(category_colour(series.category)),
        });
        for (k, v) in series.values.iter().take(n).enumerate() {
            if v.is_zero() {
                continue;
            }
            let v = to_f64(v);
            let stack = if v > 0.0 { &mut up[k] } else { &mut down[k] };
            segments.push(StackSegment {
                category,
                month: u32::try_from(k).unwrap_or(u32::MAX),
                from: *stack,
                to: *stack + v,
            });
            *stack += v;
        }
    }
    Some(MonthlySeries {
        scenario: scenario.id.clone(),
        months: month_labels(view),
        categories,
        segments,
    })
}
