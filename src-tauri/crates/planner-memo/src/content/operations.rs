//! What each plan does beside what it costs (issue #20), as memo blocks: the workloads as the
//! planner declared them, each owned layer's delivery and what bridges the months before it, each
//! spot layer's checkpoint arithmetic, the GPUs the work needs, and the month-by-month dispatch
//! for the appendix.
//!
//! Every figure is the engine's (`ScenarioResult::operations`, read from the same month loop that
//! books the ledger) or the scenario file's; nothing is recomputed here but sums of the engine's
//! cells for the appendix's columns.

use planner_core::calendar::YearMonth;
use planner_core::engine::costing::evaluate::ScenarioResult;
use planner_core::engine::costing::operations::{Bridge, BridgeLine, DispatchUnit, Operations, SpotNote, WorkNeed};
use planner_core::engine::input::scenario_file::{LayerKind, WorkloadSpec};
use planner_core::engine::model::assumption::{Assumption, Origin};
use planner_core::workload_kind::{TuningMethod, WorkloadClass, WorkloadKind};
use rust_decimal::Decimal;

use super::{grouped, heading, money, small};
use crate::MemoInput;
use crate::blocks::{Block, Column, Row, Style, Table};

/// Value columns (layers given, idle, unmet) per dispatch table before it continues in another.
const DISPATCH_COLUMNS_PER_TABLE: usize = 8;
/// Above this many value columns in one table, layer ids in column heads are cut to
/// [`SHORT_ID`] characters.
const ABBREVIATE_ABOVE: usize = 5;
const SHORT_ID: usize = 12;
/// Hours from which a time to train is given in days.
const HOURS_SHOWN_AS_DAYS: u32 = 48;

/// `n thing` or `n things`.
fn count(n: u32, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// A declared figure as written, with thousands separators and no trailing zeros.
fn plain(d: Decimal) -> String {
    let d = d.normalize();
    grouped(d, d.scale())
}

fn kind_label(kind: WorkloadKind, method: Option<TuningMethod>) -> String {
    let base = match kind {
        WorkloadKind::PreTraining => "pre-training",
        WorkloadKind::FineTuning => "fine-tuning",
        WorkloadKind::Inference => "inference",
        WorkloadKind::Experimentation => "experimentation",
    };
    match (kind, method) {
        (WorkloadKind::FineTuning, Some(m)) => format!(
            "{base} ({})",
            match m {
                TuningMethod::Full => "full",
                TuningMethod::Lora => "LoRA",
                TuningMethod::Qlora => "QLoRA",
            }
        ),
        _ => base.to_owned(),
    }
}

fn class_label(class: WorkloadClass) -> &'static str {
    match class {
        WorkloadClass::Steady => "steady",
        WorkloadClass::Variable => "variable",
        WorkloadClass::Exploratory => "exploratory",
    }
}

/// A workload's demand as the file declares it.
pub fn declared_demand(w: &WorkloadSpec) -> String {
    match (w.tokens_per_month, w.gpu_hours_per_day) {
        (Some(t), _) => format!("{} tokens per month", plain(t)),
        (None, Some(h)) => format!(
            "{} GPU-hours per day on {}",
            plain(h),
            w.gpu_hours_on.as_deref().unwrap_or("an unnamed accelerator")
        ),
        (None, None) => "not declared".to_owned(),
    }
}

/// The months a workload is active in, within the horizon: "1–36 (2027-01 to 2029-12)".
fn active_label(w: &WorkloadSpec, start: YearMonth, horizon: u32) -> String {
    let first = w.active_from_month;
    let end = w
        .active_months
        .map_or(horizon, |n| first.saturating_add(n).min(horizon));
    if first >= end {
        return "none within the horizon".to_owned();
    }
    format!(
        "{}–{} ({} to {})",
        first + 1,
        end,
        start.plus(first),
        start.plus(end - 1)
    )
}

/// The workload's name as the file gives it, or its id.
fn workload_name<'a>(workloads: &'a [WorkloadSpec], id: &'a str) -> &'a str {
    workloads.iter().find(|w| w.id == id).map_or(id, |w| w.name.as_str())
}

/// The Workloads section: one row per workload as declared.
pub fn workloads_section(input: &MemoInput<'_>, out: &mut Vec<Block>) {
    out.push(heading("Workloads", false));
    if input.workloads.is_empty() {
        out.push(small("The plan declares no workload."));
        return;
    }
    out.push(small(
        "The work every scenario is planned for, as the planner declared it: demand in its first active month (tokens, or GPU-hours per day on the accelerator named), growing by the monthly growth after that; model FLOPs utilisation (MFU) is the share of the accelerator's peak the work reaches. Months are counted from 1 = the first month of the horizon.",
    ));
    let view = input.view;
    let rows = input
        .workloads
        .iter()
        .map(|w| {
            Row::new(vec![
                // The id under the name: the sizing tables name workloads by id.
                if w.name == w.id {
                    w.name.clone()
                } else {
                    format!("{}\n{}", w.name, w.id)
                },
                kind_label(w.kind, w.method),
                class_label(w.class).to_owned(),
                w.model
                    .as_ref()
                    .map_or_else(|| "—".to_owned(), |m| plain(m.parameters_billion)),
                declared_demand(w),
                format!("{}%", plain(w.monthly_growth * Decimal::ONE_HUNDRED)),
                format!("{}%", plain(w.mfu * Decimal::ONE_HUNDRED)),
                active_label(w, view.start, view.horizon_months),
            ])
        })
        .collect();
    out.push(Block::Table(Table {
        columns: vec![
            Column::left("Workload", 2.0),
            Column::left("Kind", 1.0),
            Column::left("Class", 0.8),
            Column::right("Model (B params)", 0.8),
            Column::left("Demand as declared", 1.8),
            Column::right("Growth / month", 0.7),
            Column::right("MFU", 0.6),
            Column::left("Active months", 1.3),
        ],
        rows,
        size: 7.2,
    }));
}

/// The assumption ledger's rows for the workloads' declared demand (and its growth): the
/// planner's own figures, in the ledger's six columns.
pub fn demand_ledger_rows(workloads: &[WorkloadSpec]) -> Vec<Row> {
    let mut rows = Vec::new();
    for (i, w) in workloads.iter().enumerate() {
        let figures = [
            ("tokens_per_month", w.tokens_per_month),
            ("gpu_hours_per_day", w.gpu_hours_per_day),
            ("monthly_growth", Some(w.monthly_growth).filter(|g| !g.is_zero())),
        ];
        for (field, value) in figures {
            let Some(v) = value else { continue };
            let what = if field == "monthly_growth" {
                "growth of the declared demand"
            } else {
                "declared demand"
            };
            rows.push(Row::new(vec![
                format!("workloads[{i}].{field}"),
                v.normalize().to_string(),
                format!("{what} of {}: the planner's own figure", w.name),
                "–".to_owned(),
                "planner".to_owned(),
                "declared by the planner in the plan".to_owned(),
            ]));
        }
    }
    rows
}

/// Where a lead time comes from, in words.
fn lead_time_words(b: &Bridge) -> String {
    let months = count(b.lead_time_months, "month");
    match &b.lead_time {
        Some(Assumption {
            origin: Origin::Override { reason },
            ..
        }) => format!("lead time {months}: {}", reason.trim().trim_end_matches('.')),
        Some(Assumption {
            origin: Origin::Derived { rule },
            ..
        }) => format!("lead time {months}, derived: {}", rule.trim().trim_end_matches('.')),
        Some(
            a @ Assumption {
                origin:
                    Origin::Catalog {
                        entry,
                        field,
                        as_of,
                        sources,
                        ..
                    },
                ..
            },
        ) => {
            let value = if a.path.ends_with("weeks") {
                format!("{} weeks", plain(a.value))
            } else {
                plain(a.value)
            };
            format!(
                "lead time {months}, from the catalog's {entry}.{field}: {value} as of {as_of}; {}",
                sources.join("; ")
            )
        }
        None if b.lead_time_months == 0 => "no lead time".to_owned(),
        None => format!("lead time {months}"),
    }
}

fn units_words(units: Decimal, unit: DispatchUnit) -> String {
    match unit {
        DispatchUnit::GpuHours => format!("{} GPU-hours", grouped(units, 0)),
        DispatchUnit::MillionTokens => format!("{} million tokens", grouped(units, 1)),
    }
}

fn line_words(l: &BridgeLine, currency: &str) -> String {
    format!(
        "{} ({}, {}, {currency} {})",
        l.layer,
        count(l.months, "month"),
        units_words(l.units, l.unit),
        money(l.cost)
    )
}

/// One owned layer's delivery and bridge in one sentence.
pub fn bridge_sentence(b: &Bridge, currency: &str) -> String {
    let after = if b.delivered_in_horizon {
        ""
    } else {
        ", after the horizon"
    };
    let unmet = grouped(b.unmet_pflop_h, 1);
    let rest = if !b.lines.is_empty() {
        let lines: Vec<String> = b.lines.iter().map(|l| line_words(l, currency)).collect();
        let left = if b.unmet_pflop_h.is_zero() {
            String::new()
        } else {
            format!(", and {unmet} PFLOP-hours of it are left unmet")
        };
        format!(
            "until delivery its work is served by {}{left}; bridge: {currency} {}",
            lines.join(" and "),
            money(b.cost)
        )
    } else if !b.unmet_pflop_h.is_zero() {
        format!("until delivery its work is unmet: {unmet} PFLOP-hours left undone, with no other layer serving it")
    } else if b.lead_time_months == 0 {
        return format!(
            "{}: ordered and delivered {} ({}): nothing to bridge.",
            b.layer,
            b.delivery_month,
            lead_time_words(b)
        );
    } else {
        "its workloads ask for nothing before delivery: nothing to bridge".to_owned()
    };
    format!(
        "{}: ordered {}, delivered {}{after} ({}); {rest}.",
        b.layer,
        b.order_month,
        b.delivery_month,
        lead_time_words(b)
    )
}

/// One spot layer's checkpoint arithmetic and its losses in one paragraph.
pub fn spot_sentence(s: &SpotNote, currency: &str) -> String {
    let provider = s.provider.as_deref().map_or_else(String::new, |p| format!(" ({p})"));
    let interval = s.interval_minutes.map_or_else(
        || "nothing interrupts it, so no checkpoint interval applies".to_owned(),
        |i| {
            format!(
                "checkpoint every {} minutes (Young/Daly, from {} interruptions per hour and a {}-minute checkpoint write; {}-minute restart)",
                grouped(i, 1),
                plain(s.interruptions_per_hour),
                plain(s.checkpoint_write_minutes.round_dp(2)),
                plain(s.restart_minutes.round_dp(2))
            )
        },
    );
    let notice = s.notice_seconds.map_or_else(String::new, |n| {
        format!(
            " The provider gives {} seconds' notice before it reclaims a machine.",
            grouped(n, 0)
        )
    });
    format!(
        "{}{provider}: {interval}; overhead factor {} paid hours per useful hour. Of {} GPU-hours paid, {} are lost to checkpoints, re-done work and restarts: {currency} {}.{notice}",
        s.layer,
        grouped(s.overhead_factor, 3),
        grouped(s.paid_gpu_h, 0),
        grouped(s.lost_gpu_h, 0),
        money(s.lost_cost)
    )
}

/// Useful PFLOP per GPU-hour: three decimals, four below a tenth.
fn per_gpu_hour(v: Decimal) -> String {
    grouped(v, if v < Decimal::new(1, 1) { 4 } else { 3 })
}

/// A time to train in days from two days up, else in hours.
pub fn time_to_train(hours: Decimal) -> String {
    if hours >= Decimal::from(HOURS_SHOWN_AS_DAYS) {
        format!("{} days", grouped(hours / Decimal::from(24), 1))
    } else {
        format!("{} hours", grouped(hours, 1))
    }
}

fn needs_rows(needs: &[WorkNeed], workloads: &[WorkloadSpec]) -> Vec<Row> {
    let mut rows = Vec::new();
    for n in needs {
        let name = workload_name(workloads, &n.workload).to_owned();
        if n.on.is_empty() {
            rows.push(Row::new(vec![
                name,
                "no GPU layer".to_owned(),
                "–".to_owned(),
                "–".to_owned(),
                "–".to_owned(),
                "–".to_owned(),
            ]));
            continue;
        }
        for l in &n.on {
            rows.push(Row::new(vec![
                name.clone(),
                l.layer_gpus
                    .map_or_else(|| l.layer.clone(), |g| format!("{} ({g} GPUs)", l.layer)),
                per_gpu_hour(l.useful_pflop_per_gpu_h),
                l.gpus_for_peak_month.to_string(),
                l.gpus_for_active_months
                    .map_or_else(|| "–".to_owned(), |g| g.to_string()),
                l.time_to_train_h.map_or_else(|| "–".to_owned(), time_to_train),
            ]));
        }
    }
    rows
}

/// A workload's work over the horizon in one sentence.
fn work_sentence(n: &WorkNeed, workloads: &[WorkloadSpec]) -> String {
    let name = workload_name(workloads, &n.workload);
    let Some(peak) = n.peak_month.filter(|_| n.active_months > 0) else {
        return format!("{name}: asks for no compute within the horizon.");
    };
    let tokens = n
        .tokens
        .map_or_else(String::new, |t| format!(" (about {} tokens)", grouped(t, 0)));
    format!(
        "{name}: {} useful PFLOP-hours{tokens} over {}; the busiest month is {peak} ({} PFLOP-hours).",
        grouped(n.demand_pflop_h, 1),
        count(n.active_months, "active month"),
        grouped(n.peak_pflop_h, 1)
    )
}

/// A scenario's delivery and bridge, spot and needs blocks.
pub fn scenario_operations(input: &MemoInput<'_>, r: &ScenarioResult, out: &mut Vec<Block>) {
    let ops = &r.operations;
    let currency = input.view.currency.as_str();
    if !ops.bridges.is_empty() {
        out.push(Block::Subheading("Delivery and bridge".to_owned()));
        for b in &ops.bridges {
            out.push(Block::Paragraph {
                text: bridge_sentence(b, currency),
                style: Style::BODY,
            });
        }
        out.push(small(
            "The bridge is what serves an owned layer's workloads from its order to its delivery, at the serving layer's price (already in the ledger); work no layer can take in those months is left unmet and priced at its shadow price.",
        ));
    }
    if !ops.spot.is_empty() {
        out.push(Block::Subheading("Spot capacity".to_owned()));
        for s in &ops.spot {
            out.push(Block::Paragraph {
                text: spot_sentence(s, currency),
                style: Style::BODY,
            });
            // The engine's full warning is in the scenario's Warnings below: a short one here.
            if let (Some(_), Some(notice)) = (&s.notice_warning, s.notice_seconds) {
                out.push(Block::Paragraph {
                    text: format!(
                        "• Notice warning: a checkpoint takes {} minutes to write, longer than the {} seconds' notice, so none can be saved once the notice comes (see Warnings).",
                        plain(s.checkpoint_write_minutes.round_dp(2)),
                        grouped(notice, 0)
                    ),
                    style: Style::WARNING,
                });
            }
        }
    }
    if ops.needs.is_empty() {
        return;
    }
    out.push(Block::Subheading("What the work needs".to_owned()));
    out.push(Block::Table(Table {
        columns: vec![
            Column::left("Workload", 1.9),
            Column::left("Layer", 1.3),
            Column::right("Useful PFLOP per GPU-h", 0.9),
            Column::right("GPUs for the peak month", 0.9),
            Column::right("GPUs within the active months", 1.0),
            Column::right("Time to train on the layer's GPUs", 1.0),
        ],
        rows: needs_rows(&ops.needs, input.workloads),
        size: 7.2,
    }));
    for n in &ops.needs {
        out.push(small(work_sentence(n, input.workloads)));
    }
    out.push(small(
        "GPUs for the peak month serve the busiest month on that layer alone; for training and fine-tuning, GPUs within the active months do the whole horizon's work in the months the workload is active, and the time to train is that work on the layer's own GPUs. Useful compute per GPU-hour is peak × MFU (spot: divided by its overhead factor); availability is counted in.",
    ));
}

/// One value column of a dispatch table.
#[derive(Clone, Copy)]
enum DispatchColumn {
    Given(usize),
    Idle(usize),
    Unmet,
}

fn dispatch_columns(ops: &Operations) -> Vec<DispatchColumn> {
    let given = ops.layers.iter().enumerate().filter(|&(li, _)| {
        ops.months
            .iter()
            .flat_map(|m| &m.served)
            .any(|c| c.layer as usize == li && !c.units.is_zero())
    });
    let mut cols: Vec<DispatchColumn> = given.map(|(li, _)| DispatchColumn::Given(li)).collect();
    cols.extend(
        ops.layers
            .iter()
            .enumerate()
            .filter(|(_, l)| l.kind == LayerKind::Owned)
            .map(|(li, _)| DispatchColumn::Idle(li)),
    );
    cols.push(DispatchColumn::Unmet);
    cols
}

fn cut(id: &str, abbreviate: bool) -> String {
    match id.char_indices().nth(SHORT_ID) {
        Some((at, _)) if abbreviate => format!("{}…", &id[..at]),
        _ => id.to_owned(),
    }
}

fn dispatch_head(ops: &Operations, c: DispatchColumn, abbreviate: bool) -> String {
    let id = |li: usize| ops.layers.get(li).map_or_else(String::new, |l| cut(&l.id, abbreviate));
    match c {
        DispatchColumn::Given(li) => match ops.layers.get(li).map(|l| l.unit) {
            Some(DispatchUnit::MillionTokens) => format!("{} (M tokens)", id(li)),
            _ => format!("{} (GPU-h)", id(li)),
        },
        DispatchColumn::Idle(li) => format!("{} idle (GPU-h)", id(li)),
        DispatchColumn::Unmet => "Unmet (PFLOP-h)".to_owned(),
    }
}

fn dispatch_value(m: &planner_core::engine::costing::operations::DispatchMonth, c: DispatchColumn) -> Decimal {
    match c {
        DispatchColumn::Given(li) => m
            .served
            .iter()
            .filter(|x| x.layer as usize == li)
            .map(|x| x.units)
            .sum(),
        DispatchColumn::Idle(li) => m.idle_gpu_h.get(li).copied().unwrap_or_default(),
        DispatchColumn::Unmet => m.unmet_pflop_h.iter().copied().sum(),
    }
}

/// The appendix of each scenario's month-by-month dispatch.
pub fn dispatch_appendix(input: &MemoInput<'_>, out: &mut Vec<Block>) {
    out.push(heading("Appendix: dispatch", true));
    out.push(small(
        "What each layer gave each month, summed over the workloads it served, in its own unit: GPU-hours, or millions of tokens on a token-metered layer; the owned GPU-hours available and not used (idle); and the demand no layer served (useful PFLOP-hours, all workloads). Layers that gave nothing are left out; long layer names are cut when a table has many columns.",
    ));
    for r in &input.evaluation.scenarios {
        let ops = &r.operations;
        let cols = dispatch_columns(ops);
        let chunks: Vec<&[DispatchColumn]> = cols.chunks(DISPATCH_COLUMNS_PER_TABLE).collect();
        let parts = chunks.len();
        for (i, chunk) in chunks.into_iter().enumerate() {
            out.push(Block::Subheading(if parts == 1 {
                r.name.clone()
            } else {
                format!("{} ({} of {parts})", r.name, i + 1)
            }));
            out.push(Block::Table(dispatch_table(ops, chunk)));
        }
    }
}

fn dispatch_table(ops: &Operations, cols: &[DispatchColumn]) -> Table {
    let abbreviate = cols.len() > ABBREVIATE_ABOVE;
    let mut columns = vec![Column::left("Month", 0.9)];
    columns.extend(
        cols.iter()
            .map(|&c| Column::right(dispatch_head(ops, c, abbreviate), 1.0)),
    );
    let mut totals = vec![Decimal::ZERO; cols.len()];
    let mut rows: Vec<Row> = ops
        .months
        .iter()
        .map(|m| {
            let mut cells = vec![m.month.to_string()];
            for (k, &c) in cols.iter().enumerate() {
                let v = dispatch_value(m, c);
                totals[k] += v;
                cells.push(grouped(v, 1));
            }
            Row::new(cells)
        })
        .collect();
    let mut total = vec!["Total".to_owned()];
    total.extend(totals.iter().map(|v| grouped(*v, 1)));
    rows.push(Row::strong(total));
    Table {
        columns,
        rows,
        size: 6.6,
    }
}
