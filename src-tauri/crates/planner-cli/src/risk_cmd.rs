//! `planner risk`: the spread of a scenario file's outcomes over drawn catalog ranges.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::catalog::Catalog;
use planner_core::engine::input::scenario_file::ScenarioFile;
use planner_core::engine::resolve::validate::to_error;
use planner_core::engine::risk::drivers::Uncertain;
use planner_core::engine::risk::run::{Control, RiskOutcome, Stopped, analyse_with};
use planner_core::engine::risk::sampling::Sampling;
use planner_core::error::{ErrorCode, PlannerError};
use rust_decimal::Decimal;

use crate::evaluate::{money, read};

/// The decision total's P10 / P50 / P90 and mean per scenario and the chance each is cheaper than
/// `baseline`, from `draws` draws seeded with `seed`; with `json` the whole outcome. `file` is a
/// scenario file (on the catalog folder `catalog_dir`) or a workspace (its compare selection,
/// horizon and baseline, on its own catalog snapshot).
pub fn risk(
    catalog_dir: &Path,
    file: &Path,
    sampling: &Sampling,
    uncertain: &[Uncertain],
    baseline: Option<&str>,
    json: bool,
) -> Result<String, PlannerError> {
    let (parsed, out) = outcome(catalog_dir, file, baseline, sampling, uncertain)?;
    if json {
        return Ok(serde_json::to_string_pretty(&out).unwrap_or_default());
    }
    Ok(report(&parsed, &out))
}

/// The plan of `file` and its risk outcome.
fn outcome(
    catalog_dir: &Path,
    file: &Path,
    baseline: Option<&str>,
    sampling: &Sampling,
    uncertain: &[Uncertain],
) -> Result<(ScenarioFile, RiskOutcome), PlannerError> {
    let analyse = |catalog: &Catalog, plan: &ScenarioFile, baseline: Option<&str>| {
        analyse_with(catalog, plan, baseline, sampling, uncertain, &Control::new()).map_err(|s| match s {
            Stopped::Problems(p) => to_error(&p, Some(&file.display().to_string())),
            Stopped::Cancelled => PlannerError::new(ErrorCode::Cancelled, "The risk analysis was cancelled."),
        })
    };
    let name = file.display().to_string();
    Ok(if planner_app::session::is_workspace(file) {
        let (plan, catalog, view) = planner_app::compare::selection_in_file(file)?;
        if plan.scenarios.is_empty() {
            return Err(PlannerError::new(
                ErrorCode::InvalidInput,
                format!(
                    "{name}: the compare screen has no scenario chosen; choose the scenarios to analyse there first"
                ),
            ));
        }
        let baseline = baseline.or(view.baseline.as_deref());
        let out = analyse(&catalog, &plan, baseline)?;
        (plan, out)
    } else {
        let catalog: Catalog = planner_app::catalog::load(catalog_dir)?;
        let parsed = read(file)?;
        let out = analyse(&catalog, &parsed, baseline)?;
        (parsed, out)
    })
}

/// The outcome as text: the spread table, the break-evens, the tornados, the figures drawn.
fn report(parsed: &ScenarioFile, out: &RiskOutcome) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} — {} draws, seed {}, baseline {}; decision totals in {}",
        parsed.title, out.draws, out.seed, out.baseline, parsed.currency
    );
    let _ = writeln!(
        text,
        "{:<24} {:>14} {:>14} {:>14} {:>14} {:>14} {:>10}",
        "scenario", "at the point", "P10", "P50", "P90", "mean", "P(cheaper)"
    );
    for s in &out.scenarios {
        let p = s.cheaper_than_baseline.map_or_else(
            || "baseline".to_owned(),
            |p| format!("{}%", (p * Decimal::ONE_HUNDRED).round_dp(1)),
        );
        let _ = writeln!(
            text,
            "{:<24} {:>14} {:>14} {:>14} {:>14} {:>14} {:>10}",
            s.id,
            money(s.point_total),
            money(s.total.p10),
            money(s.total.p50),
            money(s.total.p90),
            money(s.total.mean),
            p
        );
    }
    for b in &out.break_evens {
        let share = (b.crossing_share * Decimal::ONE_HUNDRED).round_dp(1);
        let _ = match &b.at_month {
            Some(at) => writeln!(
                text,
                "\n{} and {} cross in {share}% of the draws, at {} / {} / {} months (P10 / P50 / P90).",
                b.scenario,
                out.baseline,
                at.p10.round_dp(1),
                at.p50.round_dp(1),
                at.p90.round_dp(1)
            ),
            None => writeln!(
                text,
                "\n{} and {} never cross in these draws.",
                b.scenario, out.baseline
            ),
        };
    }
    for t in &out.tornados {
        let _ = writeln!(
            text,
            "\nWhat moves {} − {} (at the point {}; P10 to P90 of the joint draws {}):",
            t.scenario,
            out.baseline,
            money(t.at_point),
            money(t.joint_spread)
        );
        for b in &t.bars {
            let f = &out.figures[b.figure as usize];
            let _ = writeln!(
                text,
                "  {:>14}  {} {} (difference {} at its P10, {} at its P90)",
                money(b.swing),
                f.entry,
                f.field,
                money(b.at_p10),
                money(b.at_p90)
            );
        }
        if let Some(note) = &t.interaction_note {
            let _ = writeln!(text, "  {note}");
        }
    }
    if out.figures.is_empty() {
        let _ = writeln!(
            text,
            "\nNo figure these scenarios use has a range: every draw is the point."
        );
    } else {
        let _ = writeln!(
            text,
            "\nDrawn ({}, mode at the file's price point; one provider's rates correlated {}):",
            out.shape.label(),
            out.group_correlation
        );
        for f in &out.figures {
            let group = f
                .group
                .as_deref()
                .map(|g| format!(" (moves with {g})"))
                .unwrap_or_default();
            let _ = writeln!(
                text,
                "  {} {}: {} .. {} .. {}{group}",
                f.entry, f.field, f.low, f.mode, f.high
            );
        }
    }
    if !out.method.is_empty() {
        let _ = writeln!(text, "\n{}", out.method);
    }
    text
}
