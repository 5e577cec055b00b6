//! The comparison of the selected scenarios: the screen with its charts, and its exports.

use std::path::Path;
use std::time::Instant;

use planner_core::calendar::YearMonth;
use planner_core::catalog::Catalog;
use planner_core::engine::costing::evaluate::Evaluation;
use planner_core::engine::editing::what_if::{DriverBase, WhatIf};
use planner_core::engine::input::scenario_file::{ScenarioFile, ScenarioSpec};
use planner_core::engine::risk::drivers::{Uncertain, candidates};
use planner_core::engine::risk::run::{Control, RiskOutcome, Stopped, analyse_with};
use planner_core::engine::risk::sampling::{Sampling, Shape};
use planner_core::engine::workspace::content::{self, BaselineLock, Comparison, ProblemPlace, ViewState};
use planner_core::error::{ErrorCode, PlannerError};
use planner_report::charts::RiskLabels;
use planner_report::charts::Theme;
use planner_report::screen::{CompareScreen, RiskCharts, StaleCount};
use planner_store::Workspace;
use serde::{Deserialize, Serialize};

use crate::host::{Host, WhatIfBase, with_workspace};

/// The scenarios the compare view `view` of `ws` selects, in its order.
fn selected(ws: &Workspace, view: &ViewState) -> Result<Vec<ScenarioSpec>, PlannerError> {
    view.selected.iter().map(|id| ws.scenario(id)).collect()
}

/// The compare selection of `ws` as a scenario file (the view's scenarios, in its order, over
/// its horizon), the catalog snapshot it computes with, and the view.
pub fn selection_file(ws: &Workspace) -> Result<(ScenarioFile, &Catalog, ViewState), PlannerError> {
    let view = ws.view()?;
    let chosen = selected(ws, &view)?;
    let mut file = content::to_scenario_file(ws.settings(), ws.workloads(), &chosen);
    if let Some(h) = view.horizon_months {
        file.horizon_months = h;
    }
    Ok((file, ws.catalog(), view))
}

/// The compare selection of the workspace file at `path`, opened read-only (nothing is written,
/// and a file another program holds open can be read): the scenario file over the view's
/// horizon, the catalog snapshot and the view.
pub fn selection_in_file(path: &Path) -> Result<(ScenarioFile, Catalog, ViewState), PlannerError> {
    let ws = Workspace::open_read_only(path)?;
    let (file, catalog, view) = selection_file(&ws)?;
    Ok((file, catalog.clone(), view))
}

/// The comparison of the open workspace's compare selection, as the compare screen computes it
/// (without its charts).
pub fn comparison(host: &impl Host) -> Result<Comparison, PlannerError> {
    with_workspace(host, |ws| evaluate_selection(ws).map(|(c, _, _)| c))
}

/// The compare view's selection of `ws`, evaluated: the comparison, the evaluation and the view.
pub fn evaluate_selection(ws: &Workspace) -> Result<(Comparison, Option<Evaluation>, ViewState), PlannerError> {
    let view = ws.view()?;
    let chosen = selected(ws, &view)?;
    let (comparison, evaluation) =
        content::compare_selection(ws.catalog(), ws.settings(), ws.workloads(), &chosen, &view);
    Ok((comparison, evaluation, view))
}

/// The most draws the app runs (the analysis itself takes up to `risk_run::MAX_DRAWS`).
pub const MAX_APP_DRAWS: u32 = 100_000;

/// A risk analysis as the compare screen shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RiskView {
    pub outcome: RiskOutcome,
    /// When it ran (UTC).
    pub ran_at: String,
    /// The digest of the plan it ran on: it is current while the compare screen's
    /// `plan_digest` is the same (the scenarios, settings, workloads, selection, horizon and
    /// catalog snapshot unchanged).
    pub digest: String,
    /// What the analysis took, in milliseconds.
    pub backend_ms: String,
    /// Its fan and tornado charts, drawn for the screen's theme.
    pub charts: RiskCharts,
}

/// What is kept in the workspace of the last analysis.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct KeptRisk {
    /// SHA-256 of what it ran on: the plan as a scenario file and the catalog snapshot version.
    digest: String,
    ran_at: String,
    backend_ms: String,
    outcome: RiskOutcome,
    /// The plan's currency and first month, for the charts' labels (absent in analyses kept
    /// before the charts: the compare selection's are used).
    #[serde(default)]
    labels: Option<(String, YearMonth)>,
}

impl KeptRisk {
    /// As the compare screen shows it, with its charts drawn for `theme`; `labels` when it
    /// keeps none.
    fn view(self, theme: Theme, labels: (String, YearMonth)) -> RiskView {
        let (currency, start) = self.labels.unwrap_or(labels);
        let charts = planner_report::screen::risk_charts(&self.outcome, &RiskLabels { currency, start }, theme);
        RiskView {
            outcome: self.outcome,
            ran_at: self.ran_at,
            digest: self.digest,
            backend_ms: self.backend_ms,
            charts,
        }
    }
}

/// The currency and first month of the compare selection's plan.
fn labels_of(file: &planner_core::engine::input::scenario_file::ScenarioFile) -> (String, YearMonth) {
    (file.currency.clone(), file.start)
}

/// The analysis kept in the workspace; `None` before the first or when it cannot be read (it is
/// only a result: run it again).
fn kept_risk(ws: &planner_store::Workspace) -> Result<Option<KeptRisk>, PlannerError> {
    Ok(ws
        .risk_run()?
        .and_then(|body| serde_json::from_str::<KeptRisk>(&body).ok()))
}

/// The draws, seed, shape and correlation of the analysis kept in `ws`, with the figures it marked
/// uncertain: a memo reruns them over its own scenarios. `None` when none is kept.
pub(crate) fn kept_sampling(ws: &planner_store::Workspace) -> Result<Option<(Sampling, Vec<Uncertain>)>, PlannerError> {
    Ok(kept_risk(ws)?.and_then(|k| {
        let sampling = Sampling {
            draws: usize::try_from(k.outcome.draws).ok()?,
            seed: k.outcome.seed.parse().ok()?,
            group_correlation: k.outcome.group_correlation.parse().ok()?,
            shape: k.outcome.shape,
        };
        Some((sampling, k.outcome.uncertain))
    }))
}

/// What a risk analysis is asked to draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RiskRequest {
    pub draws: u32,
    pub seed: u32,
    /// The distribution of each ranged figure (mode at the price point).
    pub shape: Shape,
    /// How strongly one provider's cloud rates move together: a decimal from 0 to 1, as typed.
    pub correlation: String,
    /// Figures of the plan the user marks uncertain, with their ranges.
    pub uncertain: Vec<Uncertain>,
}

fn digest(file: &planner_core::engine::input::scenario_file::ScenarioFile, snapshot: &str) -> String {
    let text = serde_json::to_string(file).unwrap_or_default();
    planner_core::compliance::audit::sha256_hex(format!("{text}\n{snapshot}").as_bytes())
}

/// How far the running risk analysis has come.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RiskProgress {
    /// Steps done and steps known so far: full evaluations, then the draws re-priced.
    pub done: u32,
    pub total: u32,
}

/// Ends the registered run however `run_risk` leaves.
struct Running<'h>(&'h crate::host::Slots);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.end_risk();
    }
}

/// Runs the risk analysis of the compare selection (over its horizon, against its baseline, on
/// the workspace's catalog snapshot) with `draws` draws from `seed`, keeps it in the workspace
/// and returns it with its charts drawn for `theme`. Each ranged figure is drawn from the
/// request's `shape` (mode at the price point), with the figures it marks uncertain; the cloud
/// rates of one provider move together with the copula correlation `correlation` (a decimal from
/// 0 to 1, as typed). The workspace is not held while the draws run: [`risk_progress`] reads how
/// far it has come and [`cancel_risk`] stops it (nothing is kept then).
pub fn run_risk(host: &impl Host, request: &RiskRequest, theme: Theme) -> Result<RiskView, PlannerError> {
    let (draws, seed, shape, correlation) = (request.draws, request.seed, request.shape, request.correlation.as_str());
    if !(1..=MAX_APP_DRAWS).contains(&draws) {
        return Err(PlannerError::invalid(
            "draws",
            format!("between 1 and {MAX_APP_DRAWS} draws, please (1,000 give P10 and P90 within about 1% of the cost)"),
        ));
    }
    let group_correlation = match correlation.trim().parse::<f64>() {
        Ok(c) if (0.0..=1.0).contains(&c) => c,
        _ => {
            return Err(PlannerError::invalid(
                "correlation",
                format!(
                    "`{correlation}` is not a correlation: a number from 0 (independent) to 1 (moving as one), e.g. 0.8"
                ),
            ));
        }
    };
    let ran_at = planner_store::workspace::format_utc(host.now_ms());
    let (file, catalog, view, digest, path) = with_workspace(host, |ws| {
        let (file, catalog, view) = selection_file(ws)?;
        if file.scenarios.is_empty() {
            return Err(PlannerError::invalid(
                "selected",
                "choose the scenarios to compare first: the analysis draws the compare screen's selection",
            ));
        }
        let digest = digest(&file, ws.snapshot_version());
        Ok((file.clone(), catalog.clone(), view, digest, ws.path().to_path_buf()))
    })?;
    let control = std::sync::Arc::new(Control::new());
    if !host.slots().start_risk(control.clone()) {
        return Err(PlannerError::invalid(
            "draws",
            "a risk analysis is running already: wait for it or cancel it",
        ));
    }
    let running = Running(host.slots());
    let started = Instant::now();
    let sampling = Sampling {
        draws: draws as usize,
        seed: u64::from(seed),
        group_correlation,
        shape,
    };
    let baseline = view.baseline.as_deref();
    let outcome = match analyse_with(&catalog, &file, baseline, &sampling, &request.uncertain, &control) {
        Ok(outcome) => outcome,
        Err(Stopped::Problems(p)) => return Err(planner_core::engine::resolve::validate::to_error(&p, None)),
        Err(Stopped::Cancelled) => {
            return Err(PlannerError::new(
                ErrorCode::Cancelled,
                "The risk analysis was cancelled; the last one kept, if any, is unchanged.",
            ));
        }
    };
    drop(running);
    let kept = KeptRisk {
        digest,
        ran_at,
        backend_ms: format!("{:.1}", started.elapsed().as_secs_f64() * 1000.0),
        outcome,
        labels: Some(labels_of(&file)),
    };
    with_workspace(host, |ws| {
        if ws.path() != path {
            return Err(PlannerError::new(
                ErrorCode::NotFound,
                "The workspace the risk analysis ran on was closed while it ran; nothing was kept.",
            ));
        }
        let body = serde_json::to_string(&kept)
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("The risk analysis could not be kept: {e}.")))?;
        ws.set_risk_run(&body)?;
        Ok(())
    })?;
    Ok(kept.view(theme, labels_of(&file)))
}

/// How far the running risk analysis has come; `None` when none is running.
pub fn risk_progress(host: &impl Host) -> Option<RiskProgress> {
    host.slots().running_risk().map(|c| {
        let (done, total) = c.progress();
        RiskProgress {
            done: u32::try_from(done).unwrap_or(u32::MAX),
            total: u32::try_from(total).unwrap_or(u32::MAX),
        }
    })
}

/// Cancels the running risk analysis; `false` when none is running.
pub fn cancel_risk(host: &impl Host) -> bool {
    host.slots().running_risk().map(|c| c.cancel()).is_some()
}

/// The last risk analysis kept in the workspace; `None` before the first (or when the kept one
/// cannot be read: it is only a result, run it again). It is current while its `digest` is the
/// compare screen's `plan_digest`. Its charts are drawn for `theme`.
pub fn risk(host: &impl Host, theme: Theme) -> Result<Option<RiskView>, PlannerError> {
    with_workspace(host, |ws| {
        let Some(kept) = kept_risk(ws)? else { return Ok(None) };
        let (file, _, _) = selection_file(ws)?;
        Ok(Some(kept.view(theme, labels_of(&file))))
    })
}

/// How to export the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum ExportFormat {
    /// A workbook: the comparison and one ledger sheet per scenario.
    Xlsx,
    /// The comparison table as CSV.
    Csv,
}

/// Saves what the compare screen shows (not an undo step).
pub fn set_view(host: &impl Host, view: &ViewState) -> Result<ViewState, PlannerError> {
    with_workspace(host, |ws| ws.set_view(view))
}

/// Locks the compared set (issue #17): the compare view's scenarios, in order, with its pinned
/// baseline (else the first), stamped with the host's clock. Refused when fewer than two
/// scenarios are compared or when a problem keeps one out of the comparison. While locked,
/// changes that would move these scenarios' figures are refused (`ErrorCode::Locked`) and every
/// difference is taken against the locked baseline. Not an undo step; locking again replaces
/// the lock with the set compared now.
pub fn lock_baseline(host: &impl Host) -> Result<BaselineLock, PlannerError> {
    let locked_at = planner_store::workspace::log_time(host.now_ms());
    with_workspace(host, |ws| {
        let (comparison, _, view) = evaluate_selection(ws)?;
        if view.selected.len() < 2 {
            return Err(PlannerError::invalid(
                "selected",
                "compare at least two scenarios to lock a baseline: the lock keeps the compared set and the scenario the others are measured against",
            ));
        }
        if let Some(p) = comparison.problems.first() {
            let what = match &p.subject {
                ProblemPlace::Scenario(id) => format!("“{}”", ws.scenario(id).map_or_else(|_| id.clone(), |s| s.name)),
                ProblemPlace::Workload(id) => format!("the workload `{id}`"),
                ProblemPlace::Settings => "the workspace settings".to_owned(),
            };
            return Err(PlannerError::invalid(
                "selected",
                format!(
                    "{what} has a problem that keeps it out of the comparison ({}); fix it, or leave that scenario out, before locking the baseline",
                    p.message
                ),
            ));
        }
        let Some(baseline) = view.baseline.clone().or_else(|| view.selected.first().cloned()) else {
            return Err(PlannerError::invalid(
                "selected",
                "compare at least two scenarios to lock a baseline",
            ));
        };
        let lock = BaselineLock {
            scenarios: view.selected.clone(),
            baseline,
            locked_at,
        };
        ws.set_lock(&lock)?;
        Ok(lock)
    })
}

/// Lifts the baseline lock (not an undo step; nothing happens when nothing is locked). The
/// compare view keeps its pinned baseline.
pub fn unlock_baseline(host: &impl Host) -> Result<(), PlannerError> {
    with_workspace(host, |ws| ws.clear_lock().map(|_| ()))
}

/// The comparison of the selected scenarios with its charts, drawn for `theme`, with the time
/// the back end took.
pub fn screen(host: &impl Host, theme: Theme) -> Result<CompareScreen, PlannerError> {
    let started = Instant::now();
    let today = crate::packs::today(host);
    let (comparison, plan_digest, risk_candidates, stale) = with_workspace(host, |ws| {
        let (comparison, evaluation, _) = evaluate_selection(ws)?;
        let (file, _, _) = selection_file(ws)?;
        let freshness = ws.settings().freshness;
        let stale = evaluation
            .iter()
            .flat_map(|e| &e.scenarios)
            .map(|s| {
                let ages: Vec<u32> = s
                    .assumptions
                    .iter()
                    .filter_map(|a| {
                        planner_core::engine::editing::pack_effect::stale_age(a, ws.catalog(), &freshness, today)
                    })
                    .map(|(age, _)| age)
                    .collect();
                StaleCount {
                    scenario: s.id.clone(),
                    figures: u32::try_from(ages.len()).unwrap_or(u32::MAX),
                    oldest_months: ages.iter().copied().max().unwrap_or(0),
                }
            })
            .collect();
        Ok((
            comparison,
            digest(&file, ws.snapshot_version()),
            candidates(&file),
            stale,
        ))
    })?;
    let mut screen = planner_report::screen::compare_screen(comparison, theme);
    screen.plan_digest = plan_digest;
    screen.risk_candidates = risk_candidates;
    screen.stale = stale;
    screen.backend_ms = format!("{:.1}", started.elapsed().as_secs_f64() * 1000.0);
    Ok(screen)
}

/// The comparison with live what-if drivers applied, and what each driver replaces.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct WhatIfScreen {
    pub screen: CompareScreen,
    pub bases: Vec<DriverBase>,
}

/// A what-if's problems as one error, each at its field (`drivers[1].value`, `scenario`).
pub(crate) fn what_if_error(problems: &[planner_core::problem::Problem]) -> PlannerError {
    let mut error = planner_core::engine::resolve::validate::to_error(problems, None);
    error.message = format!(
        "The what-if has {} problem{}; nothing was changed. Bring each driver listed back into its range.",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    error
}

/// The comparison of the compare selection (its horizon, its baseline) with the drivers of
/// `what_if` written into a copy of the plan (`planner_core::engine::editing::what_if::apply`), drawn for `theme`;
/// nothing is saved. Empty `drivers` give the plain comparison. `bases` say what each driver
/// replaces over the scenarios it applies to (before the drivers).
///
/// A slider sends one of these per move, so the answer carries one monthly chart, scenario
/// `monthly`'s (the first compared scenario's when `None` or not compared), not all of them:
/// the other charts were about three quarters of the answer, and the screen shows one at a time.
/// Nor does it carry the scenarios' own month-by-month figures (`cumulative`, `monthly_total`,
/// `monthly` of each scenario in the decision view, left empty): the screen draws the months
/// from the chart series, and those figures were 27 of the 61 KB a move sent for 8 scenarios
/// (the page parsed the answer in 0.6 ms, 0.2 ms without them).
pub fn what_if(
    host: &impl Host,
    what_if: &WhatIf,
    theme: Theme,
    monthly: Option<&str>,
) -> Result<WhatIfScreen, PlannerError> {
    let started = Instant::now();
    let (comparison, bases) = with_workspace(host, |ws| {
        let (file, catalog, view) = selection_file(ws)?;
        // The saved plan, resolved for what the drivers replace and what they multiply: once per
        // saved state, not once per move (the workspace lock is held, then this one).
        let mut kept = host.slots().what_if_base();
        let base = WhatIfBase::of(&mut kept, &file, catalog);
        let bases = planner_core::engine::editing::what_if::bases_resolved(&file, base, what_if.scenario.as_deref());
        let changed = planner_core::engine::editing::what_if::apply_resolved(&file, base, what_if, "what-if")
            .map_err(|p| what_if_error(&p))?;
        drop(kept);
        let (settings, workloads, scenarios) = planner_core::engine::workspace::content::from_scenario_file(changed);
        // The file carries the horizon (the view's, or the driver's): the view adds none.
        let view = ViewState {
            horizon_months: None,
            ..view
        };
        let (comparison, _) = planner_core::engine::workspace::content::compare_selection(
            catalog, &settings, &workloads, &scenarios, &view,
        );
        Ok((comparison, bases))
    })?;
    let mut screen = planner_report::screen::compare_screen_one_monthly(comparison, theme, monthly);
    if let Some(view) = screen.comparison.view.as_mut() {
        for s in &mut view.scenarios {
            s.cumulative = Vec::new();
            s.monthly_total = Vec::new();
            s.monthly = Vec::new();
        }
    }
    screen.backend_ms = format!("{:.1}", started.elapsed().as_secs_f64() * 1000.0);
    Ok(WhatIfScreen { screen, bases })
}

/// Exports the comparison on screen to `path` (XLSX with every ledger, or CSV).
/// The XLSX workbook also holds the kept risk analysis when it is current (its digest is the plan's)
/// and the vendor scorecard when it lists vendors (the `Scorecard` sheet).
pub fn export(host: &impl Host, path: &Path, format: ExportFormat) -> Result<(), PlannerError> {
    let xlsx = format == ExportFormat::Xlsx;
    let (comparison, evaluation, risk, scorecard) = with_workspace(host, |ws| {
        let (comparison, evaluation, _) = evaluate_selection(ws)?;
        let (file, _, _) = selection_file(ws)?;
        let plan = digest(&file, ws.snapshot_version());
        let risk = kept_risk(ws)?.filter(|k| k.digest == plan).map(|k| k.outcome);
        // Only the workbook carries the scorecard: the CSV is the comparison table alone.
        let scorecard = if xlsx { crate::vendors::summary_of(ws)? } else { None };
        Ok((comparison, evaluation, risk, scorecard))
    })?;
    let bytes = planner_report::screen::export_bytes(
        &comparison,
        evaluation.as_ref(),
        risk.as_ref(),
        scorecard.as_ref(),
        xlsx,
    )?;
    planner_store::files::write_atomic(path, &bytes)
}

/// Exports one scenario's monthly ledger as CSV to `path`.
pub fn export_ledger(host: &impl Host, path: &Path, scenario: &str) -> Result<(), PlannerError> {
    let (comparison, evaluation, _) = with_workspace(host, |ws| evaluate_selection(ws))?;
    let text = planner_report::screen::ledger_csv(&comparison, evaluation.as_ref(), scenario)?;
    planner_store::files::write_atomic(path, text.as_bytes())
}
