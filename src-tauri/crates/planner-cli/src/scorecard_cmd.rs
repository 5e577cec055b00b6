//! `planner scorecard WORKSPACE [--json]`: the vendor scorecard of a workspace as the Vendors tab
//! shows it (weights, each vendor's cost, compliance and axis scores, the ranking and how stable
//! it is, the vendors not ranked with what each lacks, the vendors not reviewed), from the same
//! use case the app calls.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::error::{ErrorCode, PlannerError};
use planner_core::rfp::scorecard::PerAxis;
use planner_core::rfp::vendors::ScorecardView;
use rust_decimal::Decimal;

/// A share (0..1) as a percentage with one decimal.
fn pct(d: Decimal) -> String {
    format!("{}%", (d * Decimal::ONE_HUNDRED).round_dp(1))
}

fn axes(a: &PerAxis) -> String {
    format!(
        "performance {}, reliability {}, cost {}, service {}, compliance {}",
        pct(a.performance),
        pct(a.reliability),
        pct(a.cost),
        pct(a.service),
        pct(a.compliance)
    )
}

/// The scorecard of the workspace at `path`, as text or JSON.
pub fn scorecard(catalog_dir: &Path, path: &Path, json: bool) -> Result<String, PlannerError> {
    let host = crate::host::host(catalog_dir);
    planner_app::session::open(&host, path)?;
    let view = planner_app::vendors::scorecard(&host)?;
    if json {
        return serde_json::to_string_pretty(&view)
            .map(|s| s + "\n")
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("could not write JSON: {e}")));
    }
    let mut out = format!(
        "{}: vendor scorecard over {} months ({})\n",
        path.display(),
        view.horizon_months,
        view.currency
    );
    if view.vendors.is_empty() {
        out.push_str("no vendors: import RFP quotes (the Vendors tab) to score them\n");
    }
    for v in &view.vendors {
        let cost = v
            .tco
            .map_or_else(|| "no cost".to_owned(), |t| format!("{} {t}", view.currency));
        let compliance = v.compliance.map_or_else(|| "not reviewed".to_owned(), pct);
        let _ = writeln!(
            out,
            "  {}: {}, {cost}, compliance {compliance}",
            v.name,
            v.scenario_name.as_deref().unwrap_or("no scenario")
        );
        for p in &v.problems {
            let _ = writeln!(out, "    not ranked: {}: {}", p.field, p.message);
        }
    }
    for p in &view.problems {
        let _ = writeln!(out, "weights: {}: {}", p.field, p.message);
    }
    if let Some(card) = &view.scorecard {
        let _ = writeln!(out, "weights: {}", axes(&card.weights));
        for s in &card.ranking {
            let _ = writeln!(
                out,
                "  {}. {} score {} ({})",
                s.rank,
                s.name,
                pct(s.score),
                axes(&s.axes)
            );
        }
    }
    if let Some(stability) = &view.stability {
        let _ = writeln!(out, "stability: {stability}");
    }
    left_out(&view, &mut out);
    Ok(out)
}

/// The vendors left out of the ranking (partial: what each lacks) and those with no D-1
/// checklist record (not reviewed), as the memo and the workbook list them.
fn left_out(view: &ScorecardView, out: &mut String) {
    for v in view.vendors.iter().filter(|v| !v.problems.is_empty()) {
        let missing: Vec<&str> = v.problems.iter().map(|p| p.message.as_str()).collect();
        let _ = writeln!(out, "partial (not ranked): {}: {}", v.name, missing.join("; "));
    }
    let not_reviewed: Vec<&str> = view
        .vendors
        .iter()
        .filter(|v| v.compliance.is_none())
        .map(|v| v.name.as_str())
        .collect();
    if !not_reviewed.is_empty() {
        let _ = writeln!(
            out,
            "not reviewed (no D-1 checklist record, compliance counted as 0): {}",
            not_reviewed.join(", ")
        );
    }
}
