//! The workspace's content, as the engine sees it: settings, workloads and scenarios kept apart
//! (so each can be edited, saved and undone on its own) and put together into a
//! [`ScenarioFile`] when they are evaluated or exported.
//!
//! The workspace *file* (SQLite) lives in `planner-store`; this module holds what needs no disk:
//! the settings and view types, assembling a file from parts, evaluating a selection of
//! scenarios while telling which scenario each problem belongs to, and the sizing preview the
//! workloads screen shows.

use rust_decimal::Decimal;
use rust_decimal::dec;
use serde::{Deserialize, Serialize};

use crate::calendar::YearMonth;
use crate::catalog::Catalog;
use crate::engine::blocks::sizing::{MemoryNeed, Parallelism, memory_need, split_advice};
use crate::engine::costing::evaluate::{Evaluation, LayerPlan, SizingNote, evaluate_parallel};
use crate::engine::decide::decision::{DecisionView, HORIZON_CHOICES, MAX_COMPARED, ScenarioFigures, decision_view};
use crate::engine::input::scenario_file::{
    FORMAT_VERSION, FxRate, PricePoint, ScenarioFile, ScenarioSpec, WorkloadSpec,
};
use crate::engine::model::assumption::Assumption;
use crate::engine::resolve::validate::validate;
use crate::problem::Problem;
use crate::workload_kind::ModelShape;
use crate::workload_kind::WorkloadKind;

/// Everything of a scenario file but its workloads and scenarios.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct WorkspaceSettings {
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    /// ISO 4217 code of every amount.
    pub currency: String,
    pub start: YearMonth,
    pub horizon_months: u32,
    pub discount_rate: Decimal,
    #[serde(default)]
    pub price_point: PricePoint,
    #[serde(default)]
    pub fx: Vec<FxRate>,
    /// How old a catalog figure may be before it is marked stale: cloud prices, everything else.
    #[serde(default)]
    pub freshness: crate::catalog::diff::Freshness,
    /// The workspace's tax profile, for the after-tax view (absent: none, as before issue #44;
    /// left out when absent, so settings without one are kept as they were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax: Option<crate::engine::input::tax_spec::TaxSpec>,
}

impl WorkspaceSettings {
    /// Settings for a new, empty workspace starting in `start`.
    pub fn new(title: &str, start: YearMonth) -> WorkspaceSettings {
        WorkspaceSettings {
            title: title.to_owned(),
            description: None,
            currency: "USD".to_owned(),
            start,
            horizon_months: 36,
            discount_rate: dec!(0.08),
            price_point: PricePoint::Mid,
            fx: Vec::new(),
            freshness: crate::catalog::diff::Freshness::default(),
            tax: None,
        }
    }

    /// The settings' own rules: a title, an ISO 4217 currency, a horizon of 1 to
    /// [`MAX_HORIZON_MONTHS`](crate::problem::MAX_HORIZON_MONTHS) months and freshness
    /// thresholds of 1 to [`MAX_FRESHNESS_MONTHS`](crate::catalog::diff::MAX_FRESHNESS_MONTHS).
    pub fn check(&self) -> Result<(), crate::error::PlannerError> {
        use crate::error::PlannerError;
        if self.title.trim().is_empty() {
            return Err(PlannerError::invalid("settings.title", "give the workspace a title"));
        }
        if self.currency.len() != 3 || !self.currency.chars().all(|c| c.is_ascii_uppercase()) {
            return Err(PlannerError::invalid(
                "settings.currency",
                "write an ISO 4217 code of three capital letters, e.g. USD or EUR",
            ));
        }
        let most = crate::problem::MAX_HORIZON_MONTHS;
        if !(1..=most).contains(&self.horizon_months) {
            return Err(PlannerError::invalid(
                "settings.horizon_months",
                format!("the horizon is 1 to {most} months"),
            ));
        }
        let oldest = crate::catalog::diff::MAX_FRESHNESS_MONTHS;
        for (field, months) in [
            ("settings.freshness.cloud_months", self.freshness.cloud_months),
            ("settings.freshness.other_months", self.freshness.other_months),
        ] {
            if !(1..=oldest).contains(&months) {
                return Err(PlannerError::invalid(
                    field,
                    format!("a figure may be 1 to {oldest} months old before it is marked stale"),
                ));
            }
        }
        Ok(())
    }
}

/// The compared set locked in a workshop (issue #17): while it exists, nothing that would move
/// these scenarios' figures may change, and every difference is taken against `baseline`.
/// Kept in the workspace; not an undo step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BaselineLock {
    /// The compared set when it was locked, in its order.
    pub scenarios: Vec<String>,
    /// The pinned baseline, else the first compared.
    pub baseline: String,
    /// When it was locked, UTC, RFC 3339 to the second (`2026-11-26T10:41:00Z`).
    pub locked_at: String,
}

impl BaselineLock {
    /// When it was locked as a message shows it: `2026-11-26 10:41 UTC`.
    pub fn locked_when(&self) -> String {
        match (self.locked_at.get(..10), self.locked_at.get(11..16)) {
            (Some(day), Some(time)) => format!("{day} {time} UTC"),
            _ => self.locked_at.clone(),
        }
    }
}

/// What the compare screen shows: which scenarios, against which baseline, over how long.
/// Kept in the workspace so a handed-over file opens on the same comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct ViewState {
    /// Scenario ids, in the order shown (at most [`MAX_COMPARED`]).
    #[serde(default)]
    pub selected: Vec<String>,
    #[serde(default)]
    pub baseline: Option<String>,
    /// One of [`HORIZON_CHOICES`]; absent: the settings' horizon.
    #[serde(default)]
    pub horizon_months: Option<u32>,
}

impl ViewState {
    /// The view with ids that no longer exist dropped, at most [`MAX_COMPARED`] kept, and a
    /// horizon outside the choices forgotten.
    pub fn cleaned(&self, mut exists: impl FnMut(&str) -> bool) -> ViewState {
        let mut selected: Vec<String> = Vec::new();
        for id in &self.selected {
            if exists(id) && !selected.contains(id) && selected.len() < MAX_COMPARED {
                selected.push(id.clone());
            }
        }
        let baseline = self.baseline.clone().filter(|b| selected.contains(b));
        ViewState {
            selected,
            baseline,
            horizon_months: self.horizon_months.filter(|h| HORIZON_CHOICES.contains(h)),
        }
    }
}

/// Joins settings, workloads and scenarios into the engine's file format.
pub fn to_scenario_file(s: &WorkspaceSettings, workloads: &[WorkloadSpec], scenarios: &[ScenarioSpec]) -> ScenarioFile {
    ScenarioFile {
        format_version: FORMAT_VERSION,
        title: s.title.clone(),
        description: s.description.clone(),
        currency: s.currency.clone(),
        start: s.start,
        horizon_months: s.horizon_months,
        discount_rate: s.discount_rate,
        price_point: s.price_point,
        fx: s.fx.clone(),
        workloads: workloads.to_vec(),
        scenarios: scenarios.to_vec(),
        // A workspace keeps price paths on its scenarios (a file's `market` is folded into each
        // scenario's when the file is split, below).
        market: None,
        tax: s.tax.clone(),
    }
}

/// Splits a scenario file into settings, workloads and scenarios.
pub fn from_scenario_file(f: ScenarioFile) -> (WorkspaceSettings, Vec<WorkloadSpec>, Vec<ScenarioSpec>) {
    (
        WorkspaceSettings {
            title: f.title,
            description: f.description,
            currency: f.currency,
            start: f.start,
            horizon_months: f.horizon_months,
            discount_rate: f.discount_rate,
            price_point: f.price_point,
            fx: f.fx,
            freshness: crate::catalog::diff::Freshness::default(),
            tax: f.tax,
        },
        f.workloads,
        // The file's `market` applies to every scenario: folded into each scenario's own, whose
        // keys win, so the figures do not change.
        match &f.market {
            Some(shared) => f
                .scenarios
                .into_iter()
                .map(|mut s| {
                    s.market = Some(s.market.take().map_or_else(|| shared.clone(), |own| own.over(shared)));
                    s
                })
                .collect(),
            None => f.scenarios,
        },
    )
}

/// Which part of the workspace a problem is in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", content = "id", rename_all = "kebab-case")]
pub enum ProblemPlace {
    Settings,
    Workload(String),
    Scenario(String),
}

/// A problem, placed on the workspace item it belongs to, with the field path inside that item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PlacedProblem {
    pub subject: ProblemPlace,
    /// The field inside the item, e.g. `layers[0].price_per_gpu_hour` (empty: the item itself).
    pub field: String,
    pub message: String,
}

/// Splits `scenarios[3].layers[0].gpus` into (`scenarios`, 3, `layers[0].gpus`).
fn split_path(path: &str) -> Option<(&str, usize, &str)> {
    let (head, rest) = path.split_once('[')?;
    let (index, tail) = rest.split_once(']')?;
    let index = index.parse().ok()?;
    Some((head, index, tail.strip_prefix('.').unwrap_or(tail)))
}

fn place(p: &Problem, workloads: &[WorkloadSpec], scenarios: &[ScenarioSpec]) -> PlacedProblem {
    let placed = split_path(&p.path).and_then(|(head, i, field)| match head {
        "workloads" => workloads.get(i).map(|w| (ProblemPlace::Workload(w.id.clone()), field)),
        "scenarios" => scenarios.get(i).map(|s| (ProblemPlace::Scenario(s.id.clone()), field)),
        _ => None,
    });
    let (subject, field) = placed.unwrap_or((ProblemPlace::Settings, p.path.as_str()));
    PlacedProblem {
        subject,
        field: field.to_owned(),
        message: p.message.clone(),
    }
}

/// The evaluation of a selection of scenarios, with the problems that kept any out.
#[derive(Debug, Clone)]
pub struct SelectionResult {
    /// The scenarios that could be evaluated; `None` when none could (or a workload or setting
    /// is wrong, which stops every scenario).
    pub evaluation: Option<Evaluation>,
    pub problems: Vec<PlacedProblem>,
}

/// Evaluates `scenarios` against every workload. A scenario with a problem is left out (and its
/// problems reported); a problem in the settings or a workload stops the whole evaluation.
/// `horizon` replaces the settings' horizon.
pub fn evaluate_selection(
    catalog: &Catalog,
    settings: &WorkspaceSettings,
    workloads: &[WorkloadSpec],
    scenarios: &[ScenarioSpec],
    horizon: Option<u32>,
) -> SelectionResult {
    let file = to_scenario_file(settings, workloads, scenarios);
    let problems = match validate(catalog, &file, horizon) {
        Ok(plan) => {
            return SelectionResult {
                evaluation: Some(evaluate_parallel(&plan)),
                problems: Vec::new(),
            };
        }
        Err(problems) => problems,
    };
    let placed: Vec<PlacedProblem> = problems.iter().map(|p| place(p, workloads, scenarios)).collect();
    if placed.iter().any(|p| !matches!(p.subject, ProblemPlace::Scenario(_))) {
        return SelectionResult {
            evaluation: None,
            problems: placed,
        };
    }
    let good: Vec<ScenarioSpec> = scenarios
        .iter()
        .filter(|s| !placed.iter().any(|p| p.subject == ProblemPlace::Scenario(s.id.clone())))
        .cloned()
        .collect();
    let evaluation = if good.is_empty() {
        None
    } else {
        // Each scenario is checked on its own, so the rest validate as they are.
        validate(catalog, &to_scenario_file(settings, workloads, &good), horizon)
            .ok()
            .map(|plan| evaluate_parallel(&plan))
    };
    SelectionResult {
        evaluation,
        problems: placed,
    }
}

/// What the compare screen needs: the decision view of what could be evaluated, and why the
/// rest could not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Comparison {
    pub view: Option<DecisionView>,
    pub problems: Vec<PlacedProblem>,
}

/// Evaluates the view's selection and builds its decision view.
pub fn compare_selection(
    catalog: &Catalog,
    settings: &WorkspaceSettings,
    workloads: &[WorkloadSpec],
    selected: &[ScenarioSpec],
    view: &ViewState,
) -> (Comparison, Option<Evaluation>) {
    let result = evaluate_selection(catalog, settings, workloads, selected, view.horizon_months);
    let decision = result
        .evaluation
        .as_ref()
        .map(|e| decision_view(e, view.baseline.as_deref()));
    (
        Comparison {
            view: decision,
            problems: result.problems,
        },
        result.evaluation,
    )
}

/// One scenario evaluated on its own, for the scenario editor: its figures, the rack, network
/// and sizing plans, every figure it relies on with its origin, and its problems.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioDetail {
    pub figures: Option<ScenarioFigures>,
    pub layer_plans: Vec<LayerPlan>,
    pub sizing: Vec<SizingNote>,
    pub assumptions: Vec<Assumption>,
    /// What the plan does month by month (dispatch, bridges, spot arithmetic, GPUs needed).
    pub operations: Option<crate::engine::costing::operations::Operations>,
    pub problems: Vec<PlacedProblem>,
}

/// Evaluates one scenario against every workload.
pub fn scenario_detail(
    catalog: &Catalog,
    settings: &WorkspaceSettings,
    workloads: &[WorkloadSpec],
    scenario: &ScenarioSpec,
) -> ScenarioDetail {
    let result = evaluate_selection(catalog, settings, workloads, std::slice::from_ref(scenario), None);
    let view = result.evaluation.as_ref().map(|e| decision_view(e, None));
    let one = result.evaluation.and_then(|e| e.scenarios.into_iter().next());
    ScenarioDetail {
        figures: view.and_then(|v| v.scenarios.into_iter().next()),
        layer_plans: one.as_ref().map(|r| r.layer_plans.clone()).unwrap_or_default(),
        sizing: one.as_ref().map(|r| r.sizing.clone()).unwrap_or_default(),
        operations: one.as_ref().map(|r| r.operations.clone()),
        assumptions: one.map(|r| r.assumptions).unwrap_or_default(),
        problems: result.problems,
    }
}

/// A workload's memory fit on one accelerator, for the workloads screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SizingPreview {
    pub workload: String,
    pub accelerator: String,
    pub accelerator_name: String,
    pub gpu_memory_gb: Decimal,
    pub need: MemoryNeed,
    pub gpus_for_memory: u32,
    pub parallelism: Parallelism,
    /// What the stated demand needs on this accelerator (`None` when the accelerator states no
    /// peak at the workload's precision, or the demand is not given).
    pub throughput: Option<ThroughputNeed>,
    pub warnings: Vec<String>,
}

/// The GPUs a workload's stated demand needs on one accelerator, at its own MFU. A month here is
/// the average month (730.5 hours, 30.44 days); the scenario detail counts calendar months.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ThroughputNeed {
    /// Peak dense TFLOPS at the workload's precision (catalog midpoint) × MFU ÷ 1000.
    pub useful_pflop_per_gpu_h: Decimal,
    /// The first month's demand (before growth), in useful PFLOP-hours.
    pub month_pflop_h: Decimal,
    /// GPUs busy every hour of a month to serve it.
    pub gpus_for_month: u32,
    /// Training and fine-tuning: the work of the workload's active months (one month when it
    /// runs to the horizon), and the hours the GPUs its memory needs take to do it.
    pub work_pflop_h: Option<Decimal>,
    pub work_months: Option<u32>,
    pub hours_on_memory_gpus: Option<Decimal>,
}

/// Hours in the average month (365.25 × 24 ÷ 12).
const AVERAGE_MONTH_HOURS: Decimal = dec!(730.5);

fn throughput_need(
    w: &WorkloadSpec,
    acc: &crate::catalog::Accelerator,
    catalog: &Catalog,
    parameters: Decimal,
    memory_gpus: u32,
) -> Option<ThroughputNeed> {
    let peak =
        |a: &crate::catalog::Accelerator| crate::engine::resolve::validate::peak_of(a, w.precision.uses_8bit_peak());
    let useful = crate::engine::model::workload::useful_pflop_per_gpu_hour(peak(acc)?, w.mfu);
    if useful <= Decimal::ZERO {
        return None;
    }
    let month = match (w.tokens_per_month, w.gpu_hours_per_day, w.gpu_hours_on.as_deref()) {
        (Some(tokens), _, _) => {
            let per_token = crate::engine::model::workload::flops_per_token(w.kind, w.method, parameters);
            tokens.checked_mul(per_token)? / crate::engine::model::workload::FLOP_PER_PFLOP_HOUR
        }
        (None, Some(per_day), Some(on)) => {
            let on = catalog.accelerators.iter().find(|a| a.id == on)?;
            let days = AVERAGE_MONTH_HOURS / dec!(24);
            per_day * days * crate::engine::model::workload::useful_pflop_per_gpu_hour(peak(on)?, w.mfu)
        }
        _ => return None,
    };
    let training = w.kind != WorkloadKind::Inference;
    let months = w.active_months.unwrap_or(1).max(1);
    let work = month * Decimal::from(months);
    Some(ThroughputNeed {
        useful_pflop_per_gpu_h: useful,
        month_pflop_h: month,
        gpus_for_month: crate::engine::blocks::sizing::gpus_for_throughput(
            month,
            AVERAGE_MONTH_HOURS,
            useful,
            Decimal::ONE,
        ),
        work_pflop_h: training.then_some(work),
        work_months: training.then_some(months),
        hours_on_memory_gpus: (training && memory_gpus > 0).then(|| work / (Decimal::from(memory_gpus) * useful)),
    })
}

/// Sizes `w` on the catalog accelerator `accelerator` in a server of `gpus_per_server`, with a
/// 400G RDMA fabric between servers. `None` when the workload names no model (demand given in
/// GPU-hours has no memory to size) or the accelerator is not in the catalog.
pub fn size_workload(
    catalog: &Catalog,
    w: &WorkloadSpec,
    accelerator: &str,
    gpus_per_server: u32,
) -> Option<SizingPreview> {
    let model = w.model.as_ref()?;
    let acc = catalog.accelerators.iter().find(|a| a.id == accelerator)?;
    let shape = ModelShape {
        parameters: model.parameters_billion * dec!(1000000000),
        precision: w.precision,
        layers: model.layers,
        kv_heads: model.kv_heads,
        head_dim: model.head_dim,
        context_tokens: model.context_tokens,
        batch: model.batch,
    };
    let need = memory_need(&shape, w.kind, w.method);
    let gpu_memory_gb = acc.memory_gb.low;
    let advice = split_advice(
        need.total_gb,
        gpu_memory_gb,
        gpus_per_server.max(1),
        acc.has_scale_up_link(),
        Some(crate::engine::blocks::sizing::FabricSpeed {
            port_gbps: 400,
            rdma: true,
        }),
        w.kind != WorkloadKind::Inference,
    );
    let throughput = throughput_need(w, acc, catalog, shape.parameters, advice.gpus_for_memory);
    Some(SizingPreview {
        throughput,
        workload: w.id.clone(),
        accelerator: acc.id.clone(),
        accelerator_name: acc.name.clone(),
        gpu_memory_gb,
        need,
        gpus_for_memory: advice.gpus_for_memory,
        parallelism: advice.parallelism,
        warnings: advice.warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_into_item_and_field() {
        assert_eq!(
            split_path("scenarios[3].layers[0].gpus"),
            Some(("scenarios", 3, "layers[0].gpus"))
        );
        assert_eq!(split_path("workloads[12]"), Some(("workloads", 12, "")));
        assert_eq!(split_path("horizon_months"), None);
    }

    #[test]
    fn view_state_drops_missing_ids_and_keeps_at_most_eight() {
        let view = ViewState {
            selected: (0..12).map(|i| format!("s{i}")).chain(["s1".to_owned()]).collect(),
            baseline: Some("s10".into()),
            horizon_months: Some(48),
        };
        let clean = view.cleaned(|id| id != "s2");
        assert_eq!(clean.selected, ["s0", "s1", "s3", "s4", "s5", "s6", "s7", "s8"]);
        assert_eq!(clean.baseline, None, "the baseline must be among the selected");
        assert_eq!(clean.horizon_months, None, "48 is not a horizon choice");
    }
}

/// What leaving a scenario's contracts costs, for the scenario editor: every layer with an exit
/// clause and its cost of leaving at each month of the horizon, or why it cannot be priced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioExits {
    pub layers: Vec<crate::engine::model::commitment::LayerExitCosts>,
    pub problems: Vec<PlacedProblem>,
}

/// "Leave this layer at month m" priced against staying, or why it cannot be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExitVariantOutcome {
    pub price: Option<crate::engine::exit::clauses::ExitVariantPrice>,
    pub problems: Vec<PlacedProblem>,
}

/// Validates one scenario against every workload; its problems placed on it otherwise.
fn plan_of_one(
    catalog: &Catalog,
    settings: &WorkspaceSettings,
    workloads: &[WorkloadSpec],
    scenario: &ScenarioSpec,
) -> Result<crate::engine::model::scenario::Plan, Vec<PlacedProblem>> {
    let scenarios = std::slice::from_ref(scenario);
    validate(catalog, &to_scenario_file(settings, workloads, scenarios), None)
        .map_err(|problems| problems.iter().map(|p| place(p, workloads, scenarios)).collect())
}

/// Problems of the exit engine (`layer`, `notice_month`), placed on the scenario.
fn on_scenario(scenario: &ScenarioSpec, problems: Vec<Problem>) -> Vec<PlacedProblem> {
    problems
        .into_iter()
        .map(|p| PlacedProblem {
            subject: ProblemPlace::Scenario(scenario.id.clone()),
            field: p.path,
            message: p.message,
        })
        .collect()
}

/// The cost of leaving each clause-carrying layer of `scenario` ([`crate::engine::model::commitment::scenario_exit_costs`]).
pub fn scenario_exits(
    catalog: &Catalog,
    settings: &WorkspaceSettings,
    workloads: &[WorkloadSpec],
    scenario: &ScenarioSpec,
) -> ScenarioExits {
    let result = plan_of_one(catalog, settings, workloads, scenario).and_then(|plan| {
        crate::engine::model::commitment::scenario_exit_costs(&plan, &scenario.id).map_err(|p| on_scenario(scenario, p))
    });
    match result {
        Ok(layers) => ScenarioExits {
            layers,
            problems: Vec::new(),
        },
        Err(problems) => ScenarioExits {
            layers: Vec::new(),
            problems,
        },
    }
}

/// Notice to leave `layer` of `scenario` given in `month`, priced as a variant of the scenario
/// ([`crate::engine::exit::clauses::scenario_exit_variant`]).
pub fn scenario_exit_variant(
    catalog: &Catalog,
    settings: &WorkspaceSettings,
    workloads: &[WorkloadSpec],
    scenario: &ScenarioSpec,
    layer: &str,
    month: u32,
) -> ExitVariantOutcome {
    let result = plan_of_one(catalog, settings, workloads, scenario).and_then(|plan| {
        crate::engine::exit::clauses::scenario_exit_variant(&plan, &scenario.id, layer, month)
            .map_err(|p| on_scenario(scenario, p))
    });
    match result {
        Ok(price) => ExitVariantOutcome {
            price: Some(price),
            problems: Vec::new(),
        },
        Err(problems) => ExitVariantOutcome { price: None, problems },
    }
}

/// An exit of any kind priced against staying, or why it cannot be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExitRequestOutcome {
    pub price: Option<crate::engine::exit::kinds::ExitRequestPrice>,
    pub problems: Vec<PlacedProblem>,
}

/// `request` (leave a reservation, scale down, downgrade, leave a lease, sell early) on `scenario`,
/// priced as a variant of it ([`crate::engine::exit::kinds::price_exit_request`]). The scenario's
/// own problems are placed as `validate` finds them; the request's (`request.month`,
/// `request.layer`, `request.to.offer`, …) on the scenario.
pub fn scenario_exit_request(
    catalog: &Catalog,
    settings: &WorkspaceSettings,
    workloads: &[WorkloadSpec],
    scenario: &ScenarioSpec,
    request: &crate::engine::exit::kinds::ExitRequest,
) -> ExitRequestOutcome {
    let scenarios = std::slice::from_ref(scenario);
    let file = to_scenario_file(settings, workloads, scenarios);
    match crate::engine::exit::kinds::price_exit_request(catalog, &file, &scenario.id, request) {
        Ok(price) => ExitRequestOutcome {
            price: Some(price),
            problems: Vec::new(),
        },
        Err(problems) => {
            let (from_request, from_file): (Vec<Problem>, Vec<Problem>) = problems.into_iter().partition(|p| {
                p.path.starts_with("request") || ["scenario", "layer", "notice_month"].contains(&p.path.as_str())
            });
            let mut placed: Vec<PlacedProblem> = from_file.iter().map(|p| place(p, workloads, scenarios)).collect();
            placed.extend(on_scenario(scenario, from_request));
            ExitRequestOutcome {
                price: None,
                problems: placed,
            }
        }
    }
}
