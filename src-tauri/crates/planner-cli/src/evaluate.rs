//! `planner evaluate FILE [--json] [--horizon N]` and `planner compare FILE`: read a scenario
//! file, validate it against the catalog, evaluate it, and return the text to print. Reading the
//! file is the only IO here; the rest is planner-core. Amounts are shown rounded half-to-even to
//! cents (the one presentation rule); `--json` gives the full monthly ledger at full precision.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::catalog::Catalog;
use planner_core::engine::blocks::finance::present;
use planner_core::engine::costing::evaluate::{Evaluation, evaluate as run};
use planner_core::engine::decide::compare::compare_all;
use planner_core::engine::input::scenario_file::{ScenarioFile, parse};
use planner_core::engine::model::scenario::Plan;
use planner_core::engine::resolve::validate::{to_error, validate};
use planner_core::error::{ErrorCode, ErrorDetail, PlannerError};
use rust_decimal::Decimal;

pub(crate) fn load(catalog: &Catalog, file: &Path, horizon: Option<u32>) -> Result<Evaluation, PlannerError> {
    Ok(run(&plan_of(catalog, file, horizon)?))
}

/// A scenario file read, parsed and validated against `catalog`: every problem located.
pub fn plan_of(catalog: &Catalog, file: &Path, horizon: Option<u32>) -> Result<Plan, PlannerError> {
    let parsed = read(file)?;
    validate(catalog, &parsed, horizon).map_err(|problems| to_error(&problems, Some(&file.display().to_string())))
}

/// A scenario file read and parsed (not validated): a problem located to its field.
pub fn read(file: &Path) -> Result<ScenarioFile, PlannerError> {
    let name = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| {
        PlannerError::new(
            ErrorCode::Io,
            format!("Could not read the scenario file {name}: {e}. Check the path and try again."),
        )
    })?;
    let parsed = parse(&text).map_err(|p| {
        let mut err = PlannerError::new(
            ErrorCode::InvalidInput,
            format!("{name} is not a valid scenario file: {}", p.message),
        );
        err.details.push(ErrorDetail {
            file: Some(name.clone()),
            line: None,
            column: None,
            field: Some(p.path),
            kind: Some("invalid-input".to_owned()),
            message: p.message,
        });
        err
    })?;
    Ok(parsed)
}

pub(crate) fn money(d: Decimal) -> String {
    present(d).to_string()
}

fn opt(d: Option<Decimal>) -> String {
    d.map_or_else(|| "-".to_owned(), money)
}

/// Totals per scenario as text, or with `json` the whole evaluation (monthly ledger included).
pub fn evaluate(catalog: &Catalog, file: &Path, json: bool, horizon: Option<u32>) -> Result<String, PlannerError> {
    let e = load(catalog, file, horizon)?;
    if json {
        return serde_json::to_string_pretty(&e)
            .map_err(|err| PlannerError::new(ErrorCode::Io, format!("could not write JSON: {err}")));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — {} months from {}, {} (rounded half-even to cents)",
        e.title, e.horizon_months, e.start, e.currency
    );
    for s in &e.scenarios {
        let t = &s.totals;
        let _ = writeln!(out, "\n{} ({})", s.name, s.id);
        let _ = writeln!(out, "  total cash        {}", money(t.total_cash));
        if !t.unserved_cost.is_zero() {
            let _ = writeln!(
                out,
                "  of which unserved work (shadow price) {}",
                money(t.unserved_cost)
            );
        }
        if !t.commitments_after_horizon.is_zero() {
            let _ = writeln!(
                out,
                "  commitments after the horizon {}",
                money(t.commitments_after_horizon)
            );
        }
        let _ = writeln!(out, "  decision total    {}", money(t.decision_total));
        let _ = writeln!(out, "  NPV               {}", money(t.npv));
        let _ = writeln!(out, "  per GPU-hour      {}", opt(t.cost_per_gpu_hour));
        let _ = writeln!(out, "  per PFLOP-hour    {}", opt(t.cost_per_useful_pflop_hour));
        let _ = writeln!(out, "  per M tokens      {}", opt(t.cost_per_million_tokens));
        let _ = writeln!(out, "  owned utilisation {}", opt(t.owned_utilisation));
        let _ = writeln!(out, "  idle cost         {}", money(t.idle_cost));
        let _ = writeln!(out, "  energy kWh        {}", money(t.energy_kwh));
        let _ = writeln!(out, "  emissions kg      {}", money(t.emissions_kg));
        if !t.cloud_energy_kwh.is_zero() {
            let _ = writeln!(
                out,
                "  of which rented capacity (estimate) {} kWh, {} kg",
                money(t.cloud_energy_kwh),
                money(t.cloud_emissions_kg)
            );
        }
        for w in &s.warnings {
            let _ = writeln!(out, "  warning: {w}");
        }
    }
    Ok(out)
}

/// The decision figures of every pair of scenarios, side by side.
pub fn compare(catalog: &Catalog, file: &Path) -> Result<String, PlannerError> {
    let e = load(catalog, file, None)?;
    let mut out = String::new();
    let _ = writeln!(out, "{} — {} months, {}", e.title, e.horizon_months, e.currency);
    let _ = writeln!(
        out,
        "{:<24} {:>16} {:>16} {:>12} {:>12}",
        "scenario", "decision total", "NPV (decision)", "per GPU-h", "per PFLOP-h"
    );
    for s in &e.scenarios {
        let t = &s.totals;
        let _ = writeln!(
            out,
            "{:<24} {:>16} {:>16} {:>12} {:>12}",
            s.id,
            money(t.decision_total),
            money(t.npv),
            opt(t.cost_per_gpu_hour),
            opt(t.cost_per_useful_pflop_hour)
        );
    }
    for c in compare_all(&e) {
        let be = c.break_even.as_ref().map_or_else(
            || {
                if c.break_even_note.is_some() {
                    "none within the horizon (see below)".to_owned()
                } else {
                    "no crossing".to_owned()
                }
            },
            |b| {
                format!(
                    "month {} (at {} months; {} cheaper from then on)",
                    b.month,
                    b.at_month.round_dp(1),
                    b.cheaper_after
                )
            },
        );
        let _ = writeln!(
            out,
            "\n{} vs {}: decision total difference {}, NPV difference {}, break-even {}",
            c.a,
            c.b,
            money(c.total_difference),
            money(c.npv_difference),
            be
        );
        for note in [&c.break_even_note, &c.npv_note].into_iter().flatten() {
            let _ = writeln!(out, "  {note}");
        }
        if let Some(x) = &c.buy_vs_rent {
            let _ = writeln!(out, "  {}", x.words);
        }
        if let Some(note) = planner_core::engine::decide::compare::resale_share_of_difference(&c, e.horizon_months) {
            let _ = writeln!(out, "  {note}");
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../planner-core/tests/fixtures/engine-catalog"
        );
        let files: Vec<(String, String)> = ["accelerators", "offers", "facility", "fabrics", "regions"]
            .iter()
            .map(|k| {
                (
                    format!("{k}.toml"),
                    std::fs::read_to_string(format!("{dir}/{k}.toml")).unwrap_or_default(),
                )
            })
            .collect();
        planner_core::catalog::load(&files).unwrap_or_else(|e| panic!("{:?}", e.issues))
    }

    fn sample(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../../catalogs/samples/{name}.json"))
    }

    #[test]
    fn evaluate_prints_totals_and_json_ledger() {
        let c = catalog();
        let text = evaluate(&c, &sample("student-lora-rtx4090"), false, None).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(text.contains("total cash") && text.contains("rent-spot"), "{text}");
        let json = evaluate(&c, &sample("student-lora-rtx4090"), true, Some(12)).unwrap_or_else(|e| panic!("{e:?}"));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(v["scenarios"][0]["ledger"]["months"].as_array().map(Vec::len), Some(12));
    }

    #[test]
    fn compare_gives_break_even_figures() {
        let text = compare(&catalog(), &sample("student-lora-rtx4090")).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(
            text.contains("Owning pays off above 21.87 hours of use per owned GPU per day"),
            "{text}"
        );
    }

    #[test]
    fn invalid_input_names_the_field() {
        let dir = std::env::temp_dir().join(format!("planner-cli-eval-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_default();
        let text = std::fs::read_to_string(sample("enterprise-hybrid")).unwrap_or_default();
        let bad = text
            .replacen("\"horizon_months\": 36", "\"horizon_months\": 0", 1)
            .replacen("{ \"id\": \"on-demand\", \"kind\": \"on-demand\", \"offer\": \"aws-p5-h100\" }", "{ \"id\": \"on-demand\", \"kind\": \"on-demand\", \"offer\": \"aws-p5-h100\", \"price_per_gpu_hour\": { \"value\": \"-1\", \"reason\": \"typo\" } }", 1)
            .replacen("\"system\": \"dgx-h100\"", "\"system\": \"dgx-h100\", \"availability\": \"1.2\"", 1)
            .replacen("\"offer\": \"aws-p5-h100\", \"term\": \"3y\"", "\"accelerator\": \"nvidia-h999\", \"term\": \"3y\"", 1)
            .replacen("\"method\": \"loan\", \"annual_rate\": \"0.07\", \"term_months\": 36, \"down_payment\": \"0.2\"", "\"method\": \"lease\", \"annual_rate\": \"0.07\", \"term_months\": 72", 1);
        let path = dir.join("bad.json");
        std::fs::write(&path, bad).unwrap_or_default();
        let err = evaluate(&catalog(), &path, false, None)
            .err()
            .unwrap_or_else(|| panic!("accepted"));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(err.code, ErrorCode::InvalidInput);
        let fields: Vec<&str> = err.details.iter().filter_map(|d| d.field.as_deref()).collect();
        for want in [
            "horizon_months",
            "scenarios[0].layers[2].price_per_gpu_hour",
            "scenarios[0].layers[0].availability",
            "scenarios[1].layers[0].accelerator",
            "scenarios[0].layers[0].financing.term_months",
        ] {
            assert!(fields.contains(&want), "{want} missing from {fields:?}");
        }
    }
}
