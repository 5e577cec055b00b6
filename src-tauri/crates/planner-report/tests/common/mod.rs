//! Shared by the report's integration tests and bench: real decision views, made by the engine
//! from the sample scenario files against the catalog the app ships.
#![allow(dead_code)]

use planner_core::engine::costing::evaluate::Evaluation;
use planner_core::engine::decide::decision::{DecisionView, decision_view};

// The engine's own test helpers: the shipped catalog loader and parse → validate → evaluate.
#[path = "../../../planner-core/tests/common/mod.rs"]
mod engine;

/// The text of `catalogs/samples/<name>.json`.
pub fn sample_text(name: &str) -> String {
    let path = format!("{}/../../../catalogs/samples/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A scenario file evaluated against the shipped catalog, and its decision view (reference: the
/// first scenario, or `baseline` when given).
pub fn evaluate_text(text: &str, baseline: Option<&str>) -> (Evaluation, DecisionView) {
    let eval = engine::run_with(&engine::shipped_catalog(), text);
    let view = decision_view(&eval, baseline);
    (eval, view)
}

/// A sample evaluated against the shipped catalog, and its decision view.
pub fn sample(name: &str) -> (Evaluation, DecisionView) {
    evaluate_text(&sample_text(name), None)
}

/// Eight scenarios over 36 months: the embodied-AI sample's two scenarios four times over, each
/// copy with its own id and name and, for owned layers, more GPUs (so the lines differ).
pub fn eight_scenarios_text() -> String {
    copies_text(4)
}

/// `2 × copies` scenarios over 36 months: the embodied-AI sample's two scenarios `copies` times
/// over, each copy with its own id and name and, for owned layers, more GPUs.
pub fn copies_text(copies: u64) -> String {
    let mut file: serde_json::Value =
        serde_json::from_str(&sample_text("embodied-ai-team")).unwrap_or_else(|e| panic!("sample: {e}"));
    let originals = file["scenarios"].as_array().cloned().unwrap_or_default();
    assert_eq!(originals.len(), 2, "the embodied-AI sample has two scenarios");
    let mut scenarios = Vec::new();
    for k in 0..copies {
        for s in &originals {
            let mut s = s.clone();
            let id = format!("{}-{k}", s["id"].as_str().unwrap_or("s"));
            let name = format!("{} #{}", s["name"].as_str().unwrap_or("s"), k + 1);
            s["id"] = id.into();
            s["name"] = name.into();
            if let Some(layers) = s["layers"].as_array_mut() {
                for l in layers {
                    if let Some(g) = l["gpus"].as_u64() {
                        l["gpus"] = (g + g * k / 4).into();
                    }
                }
            }
            scenarios.push(s);
        }
    }
    file["horizon_months"] = 36.into();
    file["scenarios"] = scenarios.into();
    file.to_string()
}

/// The risk analysis of a sample on the shipped catalog: `draws` draws from `seed`, against the
/// first scenario.
pub fn sample_risk(name: &str, draws: usize, seed: u64) -> planner_core::engine::risk::run::RiskOutcome {
    let file = planner_core::engine::input::scenario_file::parse(&sample_text(name))
        .unwrap_or_else(|p| panic!("parse: {}", p.message));
    let sampling = planner_core::engine::risk::sampling::Sampling {
        draws,
        seed,
        group_correlation: 0.8,
        shape: planner_core::engine::risk::sampling::Shape::Triangular,
    };
    planner_core::engine::risk::run::analyse(&engine::shipped_catalog(), &file, None, &sampling)
        .unwrap_or_else(|p| panic!("analyse: {p:#?}"))
}

/// A vendor scorecard on the enterprise-hybrid sample, made by the engine as the scorecard screen
/// makes it: four vendors under weights 30/20/30/10/10 over the file's horizon. Three have every
/// figure and are ranked (`Nimbus Cloud` and `Cirrus Compute` priced on the all-cloud scenario,
/// whose reserved layer states an exit clause; `Forge Metal` on the hybrid); `Delta Partial` lacks
/// its measured MFU and expert hours, so it is left out. `Cirrus Compute` and `Delta Partial` have
/// no checklist record (not reviewed). Returns the draft, the screen's view and its summary.
pub fn sample_scorecard() -> (
    planner_core::rfp::vendors::ScorecardDraft,
    planner_core::rfp::vendors::ScorecardView,
    planner_core::rfp::summary::ScorecardSummary,
) {
    use planner_core::rfp::scorecard::PerAxis;
    use planner_core::rfp::vendors::{ScorecardDraft, VendorEntry};
    use rust_decimal::Decimal;
    let d = |t: &str| t.parse::<Decimal>().unwrap_or_else(|e| panic!("{t}: {e}"));
    let entry = |name: &str, scenario: &str, figures: [&str; 7]| {
        let f = |i: usize| (!figures[i].is_empty()).then(|| d(figures[i]));
        VendorEntry {
            name: name.to_owned(),
            scenario: Some(scenario.to_owned()),
            mfu: f(0),
            annual_failure_rate: f(1),
            sla: f(2),
            sla_refund_share: f(3),
            response_hours: f(4),
            expert_hours_per_month: f(5),
            exit_terms_stated: f(6),
        }
    };
    let draft = ScorecardDraft {
        weights: PerAxis::from_array(["30", "20", "30", "10", "10"].map(d)),
        vendors: vec![
            entry(
                "Nimbus Cloud",
                "all-cloud",
                ["0.40", "0.02", "0.999", "0.10", "2", "10", "1"],
            ),
            entry(
                "Forge Metal",
                "hybrid",
                ["0.45", "0.04", "0.995", "0.05", "8", "4", "1"],
            ),
            entry(
                "Cirrus Compute",
                "all-cloud",
                ["0.35", "0.03", "0.998", "0", "4", "8", "0"],
            ),
            entry("Delta Partial", "hybrid", ["", "0.03", "0.99", "0", "6", "", "1"]),
        ],
    };
    let compliance = [("Nimbus Cloud", "0.9"), ("Forge Metal", "0.8")]
        .into_iter()
        .map(|(n, s)| (n.to_owned(), d(s)))
        .collect();
    let file = planner_core::engine::input::scenario_file::parse(&sample_text("enterprise-hybrid"))
        .unwrap_or_else(|p| panic!("parse: {}", p.message));
    let (settings, workloads, scenarios) = planner_core::engine::workspace::content::from_scenario_file(file);
    let view = planner_core::rfp::vendors::scorecard_view(
        &draft,
        &engine::shipped_catalog(),
        &settings,
        &workloads,
        &scenarios,
        None,
        &compliance,
    );
    let summary = planner_core::rfp::summary::summary(&draft, &view, &scenarios)
        .unwrap_or_else(|| panic!("a scorecard with vendors has a summary"));
    (draft, view, summary)
}
