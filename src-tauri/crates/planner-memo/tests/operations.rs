//! What the plan does, in the memo (issue #20): the workloads as declared, each owned layer's
//! delivery and bridge, spot checkpoint arithmetic, what the work needs, and the dispatch
//! appendix. Expected text is built here from the engine's own figures (the bridge's lines, the
//! dispatch cells) with a formatter of this file, not the memo's, and read back both from the
//! memo's blocks and from the PDF with pdftotext.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Case, case, draft, memo, report, tool};
use planner_core::engine::costing::operations::{DispatchUnit, Operations};
use planner_core::memo::Paper;
use planner_memo::blocks::{Block, Row, Table};
use planner_memo::{MemoError, MemoInput, memo_pdf};
use rust_decimal::{Decimal, RoundingStrategy};

/// `d` rounded half-even to `dp` decimals and grouped by thousands, as a reader would type it.
fn typed(d: Decimal, dp: u32) -> String {
    let r = d.round_dp_with_strategy(dp, RoundingStrategy::MidpointNearestEven);
    let s = format!("{:.*}", dp as usize, r.abs());
    let (int, frac) = s.split_once('.').map_or((s.as_str(), ""), |(a, b)| (a, b));
    let digits: Vec<char> = int.chars().collect();
    let mut out = String::new();
    if r.is_sign_negative() && !r.is_zero() {
        out.push('-');
    }
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// The blocks from the heading `title` to the next heading.
fn section<'a>(blocks: &'a [Block], title: &str) -> &'a [Block] {
    let start = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading { text, .. } if text == title))
        .unwrap_or_else(|| panic!("no section {title:?}"));
    let end = blocks[start + 1..]
        .iter()
        .position(|b| matches!(b, Block::Heading { .. }))
        .map_or(blocks.len(), |k| start + 1 + k);
    &blocks[start..end]
}

fn tables(blocks: &[Block]) -> Vec<&Table> {
    blocks
        .iter()
        .filter_map(|b| if let Block::Table(t) = b { Some(t) } else { None })
        .collect()
}

fn paragraphs(blocks: &[Block]) -> Vec<&str> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// The PDF's text with its whitespace folded (table cells and paragraphs may wrap).
fn flat_text(c: &Case) -> String {
    let m = memo(c, &draft(c, Paper::A4));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memo.pdf");
    std::fs::write(&path, &m.bytes).unwrap();
    let out = tool("pdftotext", &[&path.to_string_lossy(), "-"]);
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn hybrid() -> Case {
    case(&report::sample_text("enterprise-hybrid"), None)
}

#[test]
fn the_workloads_table_lists_each_workload_as_declared() {
    let c = hybrid();
    let d = draft(&c, Paper::A4);
    let blocks = planner_memo::content::blocks(&common::input(&c, &d)).unwrap();
    // After the comparison, before the first scenario's section.
    let at = |title: &str| {
        blocks
            .iter()
            .position(|b| matches!(b, Block::Heading { text, .. } if text.starts_with(title)))
            .unwrap()
    };
    assert!(at("Comparison") < at("Workloads") && at("Workloads") < at("Scenario: "));
    let t = tables(section(&blocks, "Workloads"));
    assert_eq!(t.len(), 1);
    let rows = &t[0].rows;
    assert_eq!(rows.len(), c.file.workloads.len());
    for (row, w) in rows.iter().zip(&c.file.workloads) {
        assert_eq!(
            row.cells[0],
            format!("{}\n{}", w.name, w.id),
            "the name, and the id under it"
        );
    }
    // The sample's two workloads, as its file declares them.
    let w0 = &c.file.workloads[0];
    let tokens = w0.tokens_per_month.unwrap();
    assert_eq!(
        rows[0].cells[1..],
        [
            "inference".to_owned(),
            "steady".to_owned(),
            w0.model.as_ref().unwrap().parameters_billion.to_string(),
            format!("{} tokens per month", typed(tokens, 0)),
            "0%".to_owned(),
            format!("{}%", (w0.mfu * Decimal::ONE_HUNDRED).normalize()),
            "1–36 (2027-01 to 2029-12)".to_owned(),
        ]
    );
    assert_eq!(rows[0].cells[4], "150,000,000,000 tokens per month");
    assert_eq!(rows[0].cells[6], "30%");
    let w1 = &c.file.workloads[1];
    assert_eq!(rows[1].cells[1], "fine-tuning (full)");
    assert_eq!(rows[1].cells[2], "variable");
    assert_eq!(
        rows[1].cells[4],
        format!(
            "{} GPU-hours per day on {}",
            w1.gpu_hours_per_day.unwrap(),
            w1.gpu_hours_on.as_deref().unwrap()
        )
    );
    assert_eq!(rows[1].cells[6], "40%");

    // The declared demand joins the assumption ledger as the planner's figure.
    let ledger = section(&blocks, "Assumption ledger");
    let ledger_rows: Vec<&Row> = tables(ledger).into_iter().flat_map(|t| &t.rows).collect();
    let demand = ledger_rows
        .iter()
        .find(|r| r.cells[0] == "workloads[0].tokens_per_month")
        .unwrap();
    assert_eq!(demand.cells[1], tokens.to_string());
    assert!(demand.cells[2].starts_with("declared demand of "), "{:?}", demand.cells);
    assert_eq!(demand.cells[4], "planner");
    let hours = ledger_rows
        .iter()
        .find(|r| r.cells[0] == "workloads[1].gpu_hours_per_day")
        .unwrap();
    assert_eq!(hours.cells[1], w1.gpu_hours_per_day.unwrap().to_string());

    // The PDF says it too.
    let text = flat_text(&c);
    for w in &c.file.workloads {
        assert!(text.contains(&w.name), "no workload {:?} in the memo", w.name);
    }
    assert!(text.contains("150,000,000,000 tokens per month"));
    // (The ledger's narrow columns break paths and values inside words, and pdftotext reads a
    // table's wrapped cells side by side: the subheading and the origin's end are looked for.)
    assert!(text.contains("Workloads: declared demand Field"));
    assert!(text.contains("model: the planner's own figure"));
}

#[test]
fn an_owned_layer_with_a_lead_time_states_its_delivery_and_its_on_demand_bridge() {
    let c = hybrid();
    let r = c.eval.scenarios.iter().find(|s| s.id == "hybrid").unwrap();
    let ops = &r.operations;
    let b = ops.bridges.iter().find(|b| b.layer == "dgx").unwrap();
    assert_eq!(b.lead_time_months, 3);
    assert_eq!(b.lines.len(), 1, "{b:?}");
    let line = &b.lines[0];
    assert_eq!((line.layer.as_str(), line.months), ("on-demand", 3));
    // The bridge's cost is its lines' cost, and the on-demand cells of the three months before
    // delivery: the dispatch and the bridge agree.
    let lines_cost: Decimal = b.lines.iter().map(|l| l.cost).sum();
    assert_eq!(b.cost, lines_cost);
    let od = ops.layers.iter().position(|l| l.id == "on-demand").unwrap();
    let dispatched: Decimal = ops
        .months
        .iter()
        .filter(|m| m.month < b.delivery_month)
        .flat_map(|m| &m.served)
        .filter(|x| x.layer as usize == od && x.workload == 0)
        .map(|x| x.cost)
        .sum();
    assert_eq!(dispatched, b.cost);
    assert!(b.cost > Decimal::from(100_000), "{}", b.cost);

    let expected = format!(
        "dgx: ordered {}, delivered {} (lead time 3 months: Sample assumption: a three-month delivery slot held by the reseller.",
        b.order_month, b.delivery_month
    );
    assert_eq!(b.order_month.to_string(), "2027-01");
    assert_eq!(b.delivery_month.to_string(), "2027-04");
    let served = format!(
        "until delivery its work is served by on-demand (3 months, {} GPU-hours, USD {}); bridge: USD {}.",
        typed(line.units, 0),
        typed(line.cost, 2),
        typed(lines_cost, 2)
    );
    let d = draft(&c, Paper::A4);
    let blocks = planner_memo::content::blocks(&common::input(&c, &d)).unwrap();
    let scenario = section(&blocks, &format!("Scenario: {} (recommended)", r.name));
    let sentence = paragraphs(scenario)
        .into_iter()
        .find(|p| p.starts_with("dgx: "))
        .unwrap();
    assert!(sentence.starts_with(&expected), "{sentence}");
    assert!(sentence.ends_with(&served), "{sentence}\nexpected the end {served}");

    // Spot: the interval, the overhead, the losses and the provider's notice warning.
    let spot = &ops.spot[0];
    let spot_text = paragraphs(scenario)
        .into_iter()
        .find(|p| p.starts_with("spot (AWS): "))
        .unwrap();
    assert!(
        spot_text.contains(&format!(
            "checkpoint every {} minutes",
            typed(spot.interval_minutes.unwrap(), 1)
        )),
        "{spot_text}"
    );
    assert!(spot_text.contains(&format!(
        "Of {} GPU-hours paid, {} are lost to checkpoints, re-done work and restarts: USD {}.",
        typed(spot.paid_gpu_h, 0),
        typed(spot.lost_gpu_h, 0),
        typed(spot.lost_cost, 2)
    )));
    // The notice warning, short beside the figures and whole among the warnings.
    let warning = spot.notice_warning.as_deref().unwrap();
    let short = format!(
        "• Notice warning: a checkpoint takes {} minutes to write, longer than the {} seconds' notice",
        spot.checkpoint_write_minutes.normalize(),
        spot.notice_seconds.unwrap()
    );
    assert_eq!(
        short,
        "• Notice warning: a checkpoint takes 3 minutes to write, longer than the 120 seconds' notice"
    );
    assert!(scenario.iter().any(|b| matches!(
        b,
        Block::Paragraph { text, style } if text.starts_with(&short) && *style == planner_memo::blocks::Style::WARNING
    )));
    assert!(scenario.iter().any(|b| matches!(
        b,
        Block::Paragraph { text, .. } if text == &format!("• {warning}")
    )));

    // What the work needs: a row per workload and GPU layer, the engine's GPUs.
    let needs = tables(scenario)
        .into_iter()
        .find(|t| t.columns[0].title == "Workload" && t.columns.len() == 6 && t.columns[3].title.starts_with("GPUs"))
        .unwrap();
    let pairs: usize = ops.needs.iter().map(|n| n.on.len()).sum();
    assert_eq!(needs.rows.len(), pairs);
    let first = &ops.needs[0].on[0];
    assert_eq!(needs.rows[0].cells[0], c.file.workloads[0].name);
    assert_eq!(needs.rows[0].cells[1], "dgx (16 GPUs)");
    assert_eq!(needs.rows[0].cells[3], first.gpus_for_peak_month.to_string());
    assert_eq!(
        needs.rows[0].cells[4], "–",
        "inference: no GPUs within the active months"
    );

    // The PDF reads the same sentence.
    let text = flat_text(&c);
    assert!(text.contains(&expected), "the PDF lacks {expected}");
    assert!(text.contains(&served), "the PDF lacks {served}");
    assert!(text.contains("What the work needs") && text.contains("Delivery and bridge"));
}

#[test]
fn a_bridge_without_serving_layer_is_unmet_and_no_lead_time_has_nothing_to_bridge() {
    let c = case(&report::sample_text("embodied-ai-team"), None);
    let r = &c.eval.scenarios[0];
    let ascend = r.operations.bridges.iter().find(|b| b.layer == "ascend").unwrap();
    assert!(ascend.lines.is_empty() && !ascend.unmet_pflop_h.is_zero());
    // The unmet demand of the bridge months, summed here from the dispatch.
    let unmet: Decimal = r
        .operations
        .months
        .iter()
        .filter(|m| m.month < ascend.delivery_month)
        .map(|m| m.unmet_pflop_h[1])
        .sum();
    assert_eq!(unmet, ascend.unmet_pflop_h);
    let d = draft(&c, Paper::A4);
    let blocks = planner_memo::content::blocks(&common::input(&c, &d)).unwrap();
    let scenario = section(&blocks, &format!("Scenario: {} (recommended)", r.name));
    let texts = paragraphs(scenario);
    let sentence = texts.iter().find(|p| p.starts_with("ascend: ")).unwrap();
    assert!(
        sentence.ends_with(&format!(
            "; until delivery its work is unmet: {} PFLOP-hours left undone, with no other layer serving it.",
            typed(unmet, 1)
        )),
        "{sentence}"
    );
    let jetson = texts.iter().find(|p| p.starts_with("jetson: ")).unwrap();
    assert_eq!(
        *jetson,
        "jetson: ordered and delivered 2027-03 (no lead time): nothing to bridge."
    );
}

#[test]
fn training_needs_state_the_time_to_train_on_the_layers_gpus() {
    let c = case(&report::sample_text("university-lab-pool"), None);
    let r = &c.eval.scenarios[0];
    let on = &r.operations.needs[0].on[0];
    let hours = on.time_to_train_h.unwrap();
    let d = draft(&c, Paper::A4);
    let blocks = planner_memo::content::blocks(&common::input(&c, &d)).unwrap();
    let scenario = section(&blocks, &format!("Scenario: {} (recommended)", r.name));
    let needs = tables(scenario)
        .into_iter()
        .find(|t| t.columns.len() == 6 && t.columns[5].title.starts_with("Time to train"))
        .unwrap();
    let row = &needs.rows[0];
    assert_eq!(row.cells[1], format!("{} ({} GPUs)", on.layer, on.layer_gpus.unwrap()));
    assert_eq!(row.cells[4], on.gpus_for_active_months.unwrap().to_string());
    assert!(hours > Decimal::from(48));
    assert_eq!(row.cells[5], format!("{} days", typed(hours / Decimal::from(24), 1)));
}

/// The dispatch table's value of column `head` in month row `k`, as a decimal.
fn cell(t: &Table, head: &str, k: usize) -> Decimal {
    let col = t
        .columns
        .iter()
        .position(|c| c.title == head)
        .unwrap_or_else(|| panic!("no column {head:?} in {:?}", t.columns));
    t.rows[k].cells[col].replace(',', "").parse().unwrap()
}

fn given(ops: &Operations, layer: &str, k: usize) -> Decimal {
    let li = ops.layers.iter().position(|l| l.id == layer).unwrap();
    ops.months[k]
        .served
        .iter()
        .filter(|x| x.layer as usize == li)
        .map(|x| x.units)
        .sum()
}

#[test]
fn the_dispatch_appendix_has_a_row_per_month_with_the_engines_hours() {
    let c = hybrid();
    let d = draft(&c, Paper::A4);
    let blocks = planner_memo::content::blocks(&common::input(&c, &d)).unwrap();
    let appendix = section(&blocks, "Appendix: dispatch");
    let t = tables(appendix);
    assert_eq!(t.len(), c.eval.scenarios.len(), "one table per scenario (few layers)");
    for (table, r) in t.iter().zip(&c.eval.scenarios) {
        let months: Vec<&Row> = table.rows.iter().filter(|row| !row.strong).collect();
        assert_eq!(months.len(), c.view.horizon_months as usize);
        for (row, m) in months.iter().zip(&c.view.months) {
            assert_eq!(row.cells[0], m.to_string());
        }
        assert_eq!(table.rows.last().unwrap().cells[0], "Total");
        // Every month's GPU-hours across the layers are the ledger's delivered hours.
        let ops = &r.operations;
        for (k, lm) in r.ledger.months.iter().enumerate() {
            let gpu: Decimal = ops
                .layers
                .iter()
                .filter(|l| l.unit == DispatchUnit::GpuHours)
                .map(|l| given(ops, &l.id, k))
                .sum();
            assert_eq!(gpu, lm.usage.delivered_gpu_h, "{} {}", r.id, lm.month);
        }
    }
    let hybrid = &c.eval.scenarios[0];
    let ops = &hybrid.operations;
    let table = t[0];
    // Before delivery the dgx gives nothing and on-demand serves; from 2027-04 the dgx serves
    // and stands idle for the rest of its hours.
    assert_eq!(cell(table, "dgx (GPU-h)", 0), Decimal::ZERO);
    assert_eq!(
        cell(table, "on-demand (GPU-h)", 0),
        given(ops, "on-demand", 0).round_dp(1)
    );
    assert_eq!(cell(table, "dgx (GPU-h)", 3), given(ops, "dgx", 3).round_dp(1));
    assert_eq!(
        cell(table, "dgx idle (GPU-h)", 3),
        ops.months[3].idle_gpu_h[0].round_dp(1)
    );
    assert!(cell(table, "dgx idle (GPU-h)", 3) > Decimal::ZERO);
    assert_eq!(cell(table, "Unmet (PFLOP-h)", 0), Decimal::ZERO);

    let text = flat_text(&c);
    assert!(text.contains("Appendix: dispatch"));
    assert!(text.contains("dgx idle (GPU-h)"));
}

#[test]
fn a_workload_name_the_memo_cannot_print_is_refused_by_name() {
    let c = hybrid();
    let d = draft(&c, Paper::A4);
    let mut workloads = c.file.workloads.clone();
    workloads[0].name = "معالجة المستندات".to_owned();
    let err = memo_pdf(&MemoInput {
        workloads: &workloads,
        ..common::input(&c, &d)
    })
    .unwrap_err();
    let MemoError::Unset(texts) = &err else {
        panic!("{err}");
    };
    assert!(
        texts
            .iter()
            .any(|t| t.label == "the name of workload `batch-inference`"),
        "{err}"
    );
}
