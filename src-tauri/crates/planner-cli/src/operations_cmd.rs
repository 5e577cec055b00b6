//! `planner plan FILE [--scenario S] [--json]` (the verb users know): the operations of each
//! scenario, that is what its plan does, beside what it
//! costs: who serves which workload each month, when owned hardware is delivered and what bridges
//! the months before, what spot capacity loses to interruptions, and the GPUs the work needs
//! (the engine's `operations`, read from the month loop that books the ledger).

use std::fmt::Write as _;
use std::path::Path;

use planner_core::catalog::Catalog;
use planner_core::engine::costing::evaluate::ScenarioResult;
use planner_core::engine::costing::operations::{DispatchUnit, Operations};
use planner_core::engine::model::assumption::Origin;
use planner_core::error::{ErrorCode, PlannerError};
use rust_decimal::Decimal;

use crate::evaluate::{load, money};

fn rounded(d: Decimal, places: u32) -> String {
    d.round_dp(places).normalize().to_string()
}

/// The plan of every scenario (or of `scenario`), as text or JSON.
pub fn plan(catalog: &Catalog, file: &Path, scenario: Option<&str>, json: bool) -> Result<String, PlannerError> {
    let e = load(catalog, file, None)?;
    let chosen: Vec<&ScenarioResult> = e
        .scenarios
        .iter()
        .filter(|s| scenario.is_none_or(|id| s.id == id))
        .collect();
    if chosen.is_empty() {
        let ids: Vec<&str> = e.scenarios.iter().map(|s| s.id.as_str()).collect();
        return Err(PlannerError::invalid(
            "--scenario",
            format!(
                "`{}` is not a scenario of {}; choose one of: {}",
                scenario.unwrap_or_default(),
                file.display(),
                ids.join(", ")
            ),
        ));
    }
    if json {
        let map: serde_json::Map<String, serde_json::Value> = chosen
            .iter()
            .map(|s| (s.id.clone(), serde_json::to_value(&s.operations).unwrap_or_default()))
            .collect();
        return serde_json::to_string_pretty(&map)
            .map_err(|err| PlannerError::new(ErrorCode::Io, format!("could not write JSON: {err}")));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — {} months from {}, {}",
        e.title, e.horizon_months, e.start, e.currency
    );
    for s in chosen {
        let _ = writeln!(out, "\n{} ({})", s.name, s.id);
        bridges(&mut out, &s.operations, &e.currency);
        spot(&mut out, &s.operations, &e.currency);
        needs(&mut out, &s.operations);
        dispatch(&mut out, &s.operations);
    }
    Ok(out)
}

fn bridges(out: &mut String, ops: &Operations, currency: &str) {
    for b in &ops.bridges {
        let source = match b.lead_time.as_ref().map(|a| &a.origin) {
            Some(Origin::Override { reason }) => format!("typed: {reason}"),
            Some(Origin::Derived { rule }) => format!("derived: {rule}"),
            Some(Origin::Catalog { entry, sources, .. }) => format!("catalog `{entry}`: {}", sources.join("; ")),
            None => "no lead time given".to_owned(),
        };
        let _ = writeln!(
            out,
            "  delivery  {}: ordered {}, delivered {}{} (lead time {} months; {source})",
            b.layer,
            b.order_month,
            b.delivery_month,
            if b.delivered_in_horizon {
                ""
            } else {
                ", after the horizon"
            },
            b.lead_time_months
        );
        for l in &b.lines {
            let unit = match l.unit {
                DispatchUnit::GpuHours => "GPU-h",
                DispatchUnit::MillionTokens => "M tokens",
            };
            let _ = writeln!(
                out,
                "  bridge    {} months of {} ({}): {} {unit}, {} {currency}",
                l.months,
                l.layer,
                l.accelerator.as_deref().unwrap_or("token-metered"),
                rounded(l.units, 0),
                money(l.cost)
            );
        }
        if !b.unmet_pflop_h.is_zero() {
            let _ = writeln!(
                out,
                "  not bridged: {} PFLOP-h of its workloads' demand unmet before delivery",
                rounded(b.unmet_pflop_h, 1)
            );
        }
    }
}

fn spot(out: &mut String, ops: &Operations, currency: &str) {
    for n in &ops.spot {
        let _ = writeln!(
            out,
            "  spot      {}: λ {}/h, write {} min, restart {} min, interval {} min, overhead ×{}; {} of {} GPU-h paid lost ({} {currency})",
            n.layer,
            rounded(n.interruptions_per_hour, 4),
            rounded(n.checkpoint_write_minutes, 2),
            rounded(n.restart_minutes, 2),
            n.interval_minutes.map_or_else(|| "-".to_owned(), |m| rounded(m, 1)),
            rounded(n.overhead_factor, 4),
            rounded(n.lost_gpu_h, 0),
            rounded(n.paid_gpu_h, 0),
            money(n.lost_cost)
        );
        if let Some(w) = &n.notice_warning {
            let _ = writeln!(out, "  warning   {w}");
        }
    }
}

fn needs(out: &mut String, ops: &Operations) {
    for n in &ops.needs {
        for on in &n.on {
            let train = on.time_to_train_h.map_or_else(String::new, |h| {
                format!(", {} h to train on {} GPUs", rounded(h, 1), on.layer_gpus.unwrap_or(0))
            });
            let within = on.gpus_for_active_months.map_or_else(String::new, |g| {
                format!(", {g} GPUs within its {} months", n.active_months)
            });
            let _ = writeln!(
                out,
                "  needs     {} on {}: {} PFLOP-h per GPU-h; {} GPUs for the busiest month{within}{train}",
                n.workload,
                on.layer,
                rounded(on.useful_pflop_per_gpu_h, 4),
                on.gpus_for_peak_month
            );
        }
    }
}

fn dispatch(out: &mut String, ops: &Operations) {
    let _ = write!(out, "  {:<8}", "month");
    for l in &ops.layers {
        let _ = write!(out, " {:>14}", l.id.chars().take(14).collect::<String>());
    }
    let _ = writeln!(out, " {:>12} {:>12}", "unmet PF-h", "idle GPU-h");
    for m in &ops.months {
        let _ = write!(out, "  {:<8}", m.month.to_string());
        for (li, _) in ops.layers.iter().enumerate() {
            let units: Decimal = m
                .served
                .iter()
                .filter(|c| c.layer as usize == li)
                .map(|c| c.units)
                .sum();
            let _ = write!(out, " {:>14}", rounded(units, 0));
        }
        let unmet: Decimal = m.unmet_pflop_h.iter().sum();
        let idle: Decimal = m.idle_gpu_h.iter().sum();
        let _ = writeln!(out, " {:>12} {:>12}", rounded(unmet, 1), rounded(idle, 0));
    }
}
