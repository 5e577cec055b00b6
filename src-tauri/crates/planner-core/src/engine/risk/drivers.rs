//! The figures of a plan a user marks uncertain for a risk analysis, beyond the catalog's ranges:
//! demand, growth and MFU of a workload; a layer's lead time (whole months) and spot
//! interruption rate; the value of an override (a quoted price, a tariff, a PUE) with a low and
//! high of its own.
//!
//! A driver names its figure by a path of ids through the scenario file,
//! `workloads/<id>/<field>` or `scenarios/<id>/layers/<id>/<field>` (an override's figure ends in
//! `/value`), `scenarios/<id>/facility/<field>/value`, `scenarios/<id>/network/<field>/value`.
//! Its mode is the value the file holds, which must lie in its range. [`candidates`] lists what a
//! plan's file can vary, with the value it holds.
//!
//! A driver is drawn by writing the drawn value into the file before it is validated, so the
//! engine's own bounds and rules apply to it as to a typed value.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::input::scenario_file::{LayerKind, Override, ScenarioFile};
use crate::problem::Problem;

/// A figure of the plan a user marks uncertain, with its range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Uncertain {
    /// Where the figure is in the scenario file, by ids (see the module documentation).
    pub path: String,
    pub low: Decimal,
    pub high: Decimal,
}

/// A figure of the file a user may mark uncertain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Candidate {
    pub path: String,
    /// What it is, in words ("Training: GPU-hours a day").
    pub label: String,
    /// The value the file holds: the mode of its draws.
    pub value: Decimal,
    /// Drawn in whole units (months).
    pub whole: bool,
    /// A price (or a multiplier of one): drawing it moves money only, never the dispatch, so the
    /// draws may be re-priced on the plan's surface. Anything else (demand, growth, MFU, lead
    /// time, interruptions) changes who serves what, and every draw is then evaluated in full.
    pub price: bool,
}

fn candidate(path: String, label: String, value: Decimal, whole: bool, price: bool) -> Candidate {
    Candidate {
        path,
        label,
        value,
        whole,
        price,
    }
}

fn overridden(out: &mut Vec<Candidate>, base: &str, what: &str, field: &str, o: Option<&Override>) {
    if let Some(o) = o {
        out.push(candidate(
            format!("{base}/{field}/value"),
            format!("{what}: {} (override)", field.replace('_', " ")),
            o.value,
            false,
            true,
        ));
    }
}

/// Every figure of `file` a user may mark uncertain, in file order.
pub fn candidates(file: &ScenarioFile) -> Vec<Candidate> {
    let mut out = Vec::new();
    for w in &file.workloads {
        let base = format!("workloads/{}", w.id);
        if let Some(h) = w.gpu_hours_per_day {
            out.push(candidate(
                format!("{base}/gpu_hours_per_day"),
                format!("{}: demand, GPU-hours a day", w.name),
                h,
                false,
                false,
            ));
        }
        if let Some(t) = w.tokens_per_month {
            out.push(candidate(
                format!("{base}/tokens_per_month"),
                format!("{}: demand, tokens a month", w.name),
                t,
                false,
                false,
            ));
        }
        out.push(candidate(
            format!("{base}/monthly_growth"),
            format!("{}: growth a month", w.name),
            w.monthly_growth,
            false,
            false,
        ));
        out.push(candidate(
            format!("{base}/mfu"),
            format!("{}: MFU", w.name),
            w.mfu,
            false,
            false,
        ));
    }
    for s in &file.scenarios {
        for l in &s.layers {
            let base = format!("scenarios/{}/layers/{}", s.id, l.id);
            let what = format!("{} / {}", s.name, l.id);
            overridden(&mut out, &base, &what, "price_per_gpu", l.price_per_gpu.as_ref());
            overridden(
                &mut out,
                &base,
                &what,
                "price_per_gpu_hour",
                l.price_per_gpu_hour.as_ref(),
            );
            for (field, o) in [
                ("price_per_million_tokens", &l.price_per_million_tokens),
                ("price_per_million_input_tokens", &l.price_per_million_input_tokens),
                ("price_per_million_output_tokens", &l.price_per_million_output_tokens),
                ("price_per_million_cached_tokens", &l.price_per_million_cached_tokens),
            ] {
                overridden(&mut out, &base, &what, field, o.as_ref());
            }
            if l.kind == LayerKind::Owned {
                let months = Decimal::from(l.lead_time_months);
                out.push(candidate(
                    format!("{base}/lead_time_months"),
                    format!("{what}: lead time, months"),
                    months,
                    true,
                    false,
                ));
            }
            if let Some(r) = l.residual_share {
                out.push(candidate(
                    format!("{base}/residual_share"),
                    format!("{what}: residual value share"),
                    r,
                    false,
                    true,
                ));
            }
            if let Some(i) = l.interruptions_per_hour {
                out.push(candidate(
                    format!("{base}/interruptions_per_hour"),
                    format!("{what}: spot interruptions an hour"),
                    i,
                    false,
                    false,
                ));
            }
        }
        if let Some(f) = &s.facility {
            let base = format!("scenarios/{}/facility", s.id);
            let what = format!("{} / facility", s.name);
            overridden(&mut out, &base, &what, "tariff_per_kwh", f.tariff_per_kwh.as_ref());
            overridden(&mut out, &base, &what, "pue", f.pue.as_ref());
            overridden(
                &mut out,
                &base,
                &what,
                "colocation_per_kw_month",
                f.colocation_per_kw_month.as_ref(),
            );
        }
        if let Some(n) = &s.network {
            let what = format!("{} / network", s.name);
            overridden(
                &mut out,
                &format!("scenarios/{}/network", s.id),
                &what,
                "per_port_cost",
                n.per_port_cost.as_ref(),
            );
        }
    }
    out
}

/// A driver checked against its file: its JSON pointer and candidate.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub pointer: String,
    pub candidate: Candidate,
    pub low: Decimal,
    pub high: Decimal,
}

/// The JSON pointer (by index) of an id path in `value`: in an array, a segment is the id of an
/// element.
fn pointer_of(value: &Value, path: &str) -> Option<String> {
    let mut at = value;
    let mut pointer = String::new();
    for segment in path.split('/') {
        let (next, key) = match at {
            Value::Array(items) => {
                let i = items
                    .iter()
                    .position(|x| x.get("id").and_then(Value::as_str) == Some(segment))?;
                (&items[i], i.to_string())
            }
            Value::Object(map) => (map.get(segment)?, segment.to_owned()),
            _ => return None,
        };
        at = next;
        pointer.push('/');
        pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
    }
    Some(pointer)
}

/// Checks `drivers` against `file` (each names a figure it can vary, once, with its value in its
/// range); every problem at `uncertain[i]`.
pub(crate) fn resolve(file: &ScenarioFile, drivers: &[Uncertain]) -> Result<Vec<Resolved>, Vec<Problem>> {
    let json = serde_json::to_value(file).unwrap_or(Value::Null);
    let known = candidates(file);
    let mut out: Vec<Resolved> = Vec::new();
    let mut problems = Vec::new();
    for (i, d) in drivers.iter().enumerate() {
        let at = format!("uncertain[{i}]");
        let problem = |message: String| Problem {
            path: at.clone(),
            message,
        };
        let Some(c) = known.iter().find(|c| c.path == d.path) else {
            problems.push(problem(format!(
                "`{}` is not a figure of these scenarios that can be drawn: choose one the list offers (demand, growth, MFU, lead time, interruptions, an override's value)",
                d.path
            )));
            continue;
        };
        if out.iter().any(|r| r.candidate.path == d.path) {
            problems.push(problem(format!(
                "`{}` is marked uncertain twice: keep one range",
                d.path
            )));
            continue;
        }
        if !(d.low <= c.value && c.value <= d.high) {
            problems.push(problem(format!(
                "the range {} to {} of `{}` must hold the value the plan uses, {}",
                d.low, d.high, d.path, c.value
            )));
            continue;
        }
        if c.whole && (d.low.fract() != Decimal::ZERO || d.high.fract() != Decimal::ZERO || d.low < Decimal::ZERO) {
            problems.push(problem(format!(
                "`{}` is counted in whole months: give whole numbers from 0",
                d.path
            )));
            continue;
        }
        match pointer_of(&json, &d.path) {
            Some(pointer) => out.push(Resolved {
                pointer,
                candidate: c.clone(),
                low: d.low,
                high: d.high,
            }),
            None => problems.push(problem(format!("`{}` is not in the scenario file", d.path))),
        }
    }
    if problems.is_empty() { Ok(out) } else { Err(problems) }
}

/// `base` (the file as JSON) with each driver's value written in, as a file.
pub(crate) fn with_drivers(base: &Value, drivers: &[(&Resolved, Decimal)]) -> Result<ScenarioFile, Vec<Problem>> {
    let mut json = base.clone();
    for (d, value) in drivers {
        let Some(slot) = json.pointer_mut(&d.pointer) else {
            continue;
        };
        *slot = if d.candidate.whole {
            Value::from(value.round().normalize().to_string().parse::<u64>().unwrap_or(0))
        } else {
            Value::String(value.normalize().to_string())
        };
    }
    serde_json::from_value(json).map_err(|e| {
        vec![Problem {
            path: "uncertain".to_owned(),
            message: format!("a drawn value does not fit the scenario file: {e}"),
        }]
    })
}
