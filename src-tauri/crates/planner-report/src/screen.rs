//! What the compare screen receives in one answer: the comparison and the points of its two
//! charts (coloured for the UI's theme; the screen plots them on a canvas, the memo draws the
//! same points with plotters), and the exports of that same comparison. The shell's commands call
//! these, so the screen, the files and the memo are drawn from one decision view.

use planner_core::engine::costing::evaluate::Evaluation;
use planner_core::engine::risk::run::RiskOutcome;
use planner_core::engine::workspace::content::Comparison;
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::rfp::summary::ScorecardSummary;
use serde::{Deserialize, Serialize};

use crate::charts::series::{CumulativeSeries, MonthlySeries, cumulative_series, monthly_series};
use crate::charts::{ChartSize, RiskLabels, Theme, risk_fan_svg, risk_tornado_svg, tornado_height};
use crate::export;

/// The risk fan chart's size on screen (SVG user units; the UI scales it to its column).
pub const CUMULATIVE_SIZE: ChartSize = ChartSize {
    width: 960,
    height: 420,
};

/// One scenario's chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioChart {
    pub scenario: String,
    pub svg: String,
}

/// The compare screen's content.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CompareScreen {
    pub comparison: Comparison,
    /// The points of the cumulative cash chart, with the break-even points; absent when nothing
    /// could be evaluated.
    pub cumulative: Option<CumulativeSeries>,
    /// The bars of the cash per month by category, one chart per scenario.
    pub monthly: Vec<MonthlySeries>,
    /// Charts that could not be drawn, and why (the figures are still shown).
    pub chart_errors: Vec<String>,
    /// Milliseconds the back end spent (read, evaluate, draw), set by the shell.
    pub backend_ms: String,
    /// A digest of the plan compared (its scenarios, workloads, settings, horizon and catalog
    /// snapshot), set by the caller: a result computed on the plan (the risk analysis) is current
    /// while it carries the same digest.
    pub plan_digest: String,
    /// The figures of the compared plan a risk analysis may draw beyond the catalog's ranges
    /// (demand, growth, MFU, lead time, interruptions, overrides), set by the caller.
    pub risk_candidates: Vec<planner_core::engine::risk::drivers::Candidate>,
    /// Per compared scenario, how many catalog figures it relies on are older than the
    /// workspace's thresholds today, set by the caller (it knows the date).
    pub stale: Vec<StaleCount>,
}

/// How many stale catalog figures a scenario relies on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StaleCount {
    pub scenario: String,
    pub figures: u32,
    /// The oldest of them, in months.
    pub oldest_months: u32,
}

/// The comparison with its charts' points, coloured for `theme`.
pub fn compare_screen(comparison: Comparison, theme: Theme) -> CompareScreen {
    screen_of(comparison, theme, Monthly::Every)
}

/// [`compare_screen`] with one monthly chart: scenario `monthly`'s, or the first scenario's when
/// `monthly` is absent or not compared (what a what-if move sends back: the screen shows one at a
/// time).
pub fn compare_screen_one_monthly(comparison: Comparison, theme: Theme, monthly: Option<&str>) -> CompareScreen {
    screen_of(comparison, theme, Monthly::One(monthly))
}

/// Which scenarios' monthly charts a screen carries.
enum Monthly<'a> {
    Every,
    /// The named scenario's, or the first scenario's when it is absent or not compared.
    One(Option<&'a str>),
}

/// The screen with the monthly charts `which` asks for.
fn screen_of(comparison: Comparison, theme: Theme, which: Monthly<'_>) -> CompareScreen {
    let mut chart_errors = Vec::new();
    let mut cumulative = None;
    let mut monthly = Vec::new();
    if let Some(view) = &comparison.view {
        if view.months.is_empty() || view.scenarios.is_empty() {
            chart_errors.push(
                "cumulative cost chart: there is nothing to draw: the comparison has no scenarios or no months"
                    .to_owned(),
            );
        } else {
            cumulative = Some(cumulative_series(view, theme));
            monthly = match which {
                Monthly::Every => view
                    .scenarios
                    .iter()
                    .filter_map(|s| monthly_series(view, &s.id))
                    .collect(),
                Monthly::One(id) => view
                    .scenarios
                    .iter()
                    .find(|s| Some(s.id.as_str()) == id)
                    .or_else(|| view.scenarios.first())
                    .and_then(|s| monthly_series(view, &s.id))
                    .into_iter()
                    .collect(),
            };
        }
    }
    CompareScreen {
        comparison,
        cumulative,
        monthly,
        chart_errors,
        backend_ms: String::new(),
        plan_digest: String::new(),
        risk_candidates: Vec::new(),
        stale: Vec::new(),
    }
}

/// A risk analysis's charts as the compare screen shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RiskCharts {
    /// Each scenario's cumulative cash band (P10 to P90) and P50; absent when it could not be
    /// drawn.
    pub fan: Option<String>,
    /// What drives each scenario's difference from the baseline, one tornado per scenario but
    /// the baseline (none for a scenario no drawn figure moves).
    pub tornados: Vec<ScenarioChart>,
    /// Charts that could not be drawn, and why.
    pub errors: Vec<String>,
}

/// Draws a risk analysis's fan and tornados for `theme`, at the compare screen's chart width.
pub fn risk_charts(outcome: &RiskOutcome, labels: &RiskLabels, theme: Theme) -> RiskCharts {
    let mut errors = Vec::new();
    let fan = risk_fan_svg(outcome, labels, theme, CUMULATIVE_SIZE)
        .map_err(|e| errors.push(format!("risk fan chart: {e}")))
        .ok();
    let mut tornados = Vec::new();
    for t in outcome.tornados.iter().filter(|t| !t.bars.is_empty()) {
        let size = ChartSize {
            width: CUMULATIVE_SIZE.width,
            height: tornado_height(t.bars.len(), t.interaction_note.is_some()),
        };
        match risk_tornado_svg(outcome, labels, &t.scenario, theme, size) {
            Ok(svg) => tornados.push(ScenarioChart {
                scenario: t.scenario.clone(),
                svg,
            }),
            Err(e) => errors.push(format!("tornado of {}: {e}", t.scenario)),
        }
    }
    RiskCharts { fan, tornados, errors }
}

fn nothing_to_export(c: &Comparison) -> PlannerError {
    let why = if c.problems.is_empty() {
        "choose 2 to 8 scenarios on the compare screen first".to_owned()
    } else {
        format!(
            "no scenario could be evaluated ({} problem{}); fix them on the scenario screen",
            c.problems.len(),
            if c.problems.len() == 1 { "" } else { "s" }
        )
    };
    PlannerError::new(ErrorCode::InvalidInput, format!("Nothing to export: {why}."))
}

fn export_error(e: &export::ExportError) -> PlannerError {
    PlannerError::new(ErrorCode::InvalidInput, format!("The export failed: {e}."))
}

/// The comparison as an XLSX workbook (`xlsx`, with a Risk sheet when `risk` is the analysis of
/// the same plan, and a Scorecard sheet when `scorecard` is given) or CSV text, as bytes to write.
pub fn export_bytes(
    comparison: &Comparison,
    evaluation: Option<&Evaluation>,
    risk: Option<&RiskOutcome>,
    scorecard: Option<&ScorecardSummary>,
    xlsx: bool,
) -> Result<Vec<u8>, PlannerError> {
    let (Some(view), Some(eval)) = (&comparison.view, evaluation) else {
        return Err(nothing_to_export(comparison));
    };
    if xlsx {
        export::comparison_xlsx(view, eval, risk, scorecard).map_err(|e| export_error(&e))
    } else {
        Ok(export::comparison_csv(view).into_bytes())
    }
}

/// One scenario's monthly ledger as CSV.
pub fn ledger_csv(
    comparison: &Comparison,
    evaluation: Option<&Evaluation>,
    scenario: &str,
) -> Result<String, PlannerError> {
    let (Some(view), Some(eval)) = (&comparison.view, evaluation) else {
        return Err(nothing_to_export(comparison));
    };
    export::ledger_csv(view, eval, scenario).map_err(|e| export_error(&e))
}
