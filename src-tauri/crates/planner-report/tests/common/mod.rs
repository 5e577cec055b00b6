//! Shared by the report's integration tests and bench: real decision views, made by the engine
//! from the sample scenario files against the catalog the app ships.
#![allow(dead_code)]

use planner_core::decision::{DecisionView, decision_view};
use planner_core::evaluate::Evaluation;

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
pub fn sample_risk(name: &str, draws: usize, seed: u64) -> planner_core::risk_run::RiskOutcome {
    let file =
        planner_core::scenario_file::parse(&sample_text(name)).unwrap_or_else(|p| panic!("parse: {}", p.message));
    let sampling = planner_core::risk::Sampling {
        draws,
        seed,
        group_correlation: 0.8,
        shape: planner_core::risk::Shape::Triangular,
    };
    planner_core::risk_run::analyse(&engine::shipped_catalog(), &file, None, &sampling)
        .unwrap_or_else(|p| panic!("analyse: {p:#?}"))
}
