//! The vendor scorecard (issue #19) as memo blocks: the buyer's weights, the ranking with the
//! scenario each vendor is priced on and its five axis scores, the stability sentence as the
//! engine words it, the vendors left out of the ranking (and what each lacks) or never reviewed on
//! the D-1 checklist, and each vendor's exit terms as its quotes state them.
//!
//! Everything comes from [`ScorecardSummary`] (the scorecard screen's own view, sorted for a
//! document): nothing is scored or ranked here. The section is left out when the memo has no
//! scorecard.

use planner_core::engine::input::scenario_file::LayerKind;
use planner_core::exit_clause::{ExitClause, TerminationFee};
use planner_core::rfp::scorecard::{Axis, PerAxis};
use planner_core::rfp::summary::{ScorecardSummary, VendorCommitment, VendorExits};
use rust_decimal::Decimal;

use super::{grouped, heading, money, name_of, paragraph, percent, small};
use crate::MemoInput;
use crate::blocks::{Block, Column, Row, Table};

/// The axes as the tables head them.
fn axis_title(a: Axis) -> &'static str {
    match a {
        Axis::Performance => "Performance",
        Axis::Reliability => "Reliability",
        Axis::Cost => "Cost",
        Axis::Service => "Service",
        Axis::Compliance => "Compliance",
    }
}

/// A weight as the buyer typed it, without trailing zeros.
fn entered(d: Decimal) -> String {
    let d = d.normalize();
    grouped(d, d.scale())
}

/// The Vendor scorecard section, when the memo has a scorecard.
pub fn scorecard_section(input: &MemoInput<'_>, out: &mut Vec<Block>) {
    let Some(s) = input.scorecard else {
        return;
    };
    out.push(heading("Vendor scorecard", false));
    out.push(small(format!(
        "The RFP's vendors on the buyer's scorecard, each priced on its own scenario: that scenario's decision total (its total cash over {} months plus the commitments that fall due after them), in {}. On each axis a vendor scores from 0% (the weakest of the vendors ranked) to 100% (the strongest): performance is the measured MFU; reliability the failure rate, SLA uptime and SLA refund; cost the decision total; service the response time and expert hours; compliance the D-1 checklist's share passed, with stated exit terms counting for half. The weighted total is each axis score times its weight, summed.",
        s.horizon_months, s.currency
    )));
    out.push(weights_table(s));
    for p in &s.weight_problems {
        out.push(small(format!("Weights refused: {p}")));
    }
    if s.ranked.is_empty() {
        out.push(paragraph(
            "No vendor has every figure the scorecard needs, so none is ranked yet.",
        ));
    } else {
        out.push(ranking_table(s));
    }
    if let Some(sentence) = &s.stability {
        out.push(paragraph(format!("Stability of the ranking: {sentence}")));
    }
    left_out(s, out);
    exit_terms(input, s, out);
}

/// The weights as entered and as shares of their sum.
fn weights_table(s: &ScorecardSummary) -> Block {
    let mut columns = vec![Column::left("Weights", 1.6)];
    columns.extend(Axis::ALL.iter().map(|a| Column::right(axis_title(*a), 1.0)));
    let row = |label: &str, w: &PerAxis, cell: fn(Decimal) -> String| {
        let mut cells = vec![label.to_owned()];
        cells.extend(Axis::ALL.iter().map(|a| cell(w.get(*a))));
        Row::new(cells)
    };
    let mut rows = vec![row("As entered", &s.entered_weights, entered)];
    if let Some(w) = &s.weights {
        rows.push(row("Share of the total", w, percent));
    }
    Block::Table(Table {
        columns,
        rows,
        size: 7.6,
    })
}

/// One row per ranked vendor, best first.
fn ranking_table(s: &ScorecardSummary) -> Block {
    // Widths that keep each axis's name on one line at this size.
    let mut columns = vec![
        Column::right("Rank", 0.55),
        Column::left("Vendor", 1.1),
        Column::left(format!("Priced on (decision total, {})", s.currency), 1.6),
    ];
    columns.extend(Axis::ALL.iter().map(|a| Column::right(axis_title(*a), 1.2)));
    columns.push(Column::right("Weighted total", 1.0));
    let rows = s
        .ranked
        .iter()
        .map(|v| {
            let priced_on = match (&v.scenario_name, v.tco) {
                (Some(name), Some(tco)) => format!("{name}\n{}", money(tco)),
                (Some(name), None) => name.clone(),
                (None, _) => "—".to_owned(),
            };
            let mut cells = vec![v.rank.to_string(), v.name.clone(), priced_on];
            cells.extend(Axis::ALL.iter().map(|a| percent(v.axes.get(*a))));
            if v.compliance.is_none()
                && let Some(c) = cells.last_mut()
            {
                c.push_str("\nnot reviewed");
            }
            cells.push(percent(v.score));
            if v.rank == 1 {
                Row::strong(cells)
            } else {
                Row::new(cells)
            }
        })
        .collect();
    Block::Table(Table {
        columns,
        rows,
        size: 7.0,
    })
}

/// The vendors left out of the ranking with what each lacks, and those never reviewed.
fn left_out(s: &ScorecardSummary, out: &mut Vec<Block>) {
    if !s.partial.is_empty() {
        out.push(Block::Subheading("Not ranked: figures missing".to_owned()));
        for p in &s.partial {
            let on = p
                .scenario_name
                .as_ref()
                .map_or_else(String::new, |n| format!(", priced on {n},"));
            out.push(paragraph(format!(
                "{}{on} is partial and not ranked: {}.",
                p.name,
                p.missing.join("; ")
            )));
        }
    }
    if !s.not_reviewed.is_empty() {
        let (names, verb) = match s.not_reviewed.as_slice() {
            [one] => (one.clone(), "has"),
            many => (many.join(", "), "have"),
        };
        out.push(small(format!(
            "Not reviewed: {names} {verb} no D-1 checklist record in this workspace, so the scorecard counts their compliance as 0 until a reviewer answers their checklist."
        )));
    }
}

/// One commitment and its exit terms in a few words.
fn commitment_words(c: &VendorCommitment, currency: &str) -> String {
    let what = match c.kind {
        LayerKind::Reserved => "reserved layer",
        LayerKind::Owned => "leased layer",
        _ => "layer",
    };
    match &c.exit_clause {
        None => format!(
            "{what} {}: the quote states no exit terms (it runs its full term)",
            c.layer
        ),
        Some(x) => format!("{what} {}: {}", c.layer, clause_words(x, currency)),
    }
}

/// Notice, fee, egress and offboarding of an exit clause, briefly.
fn clause_words(x: &ExitClause, currency: &str) -> String {
    let fee = match x.fee {
        TerminationFee::Fixed(v) => format!("a fee of {currency} {}", money(v)),
        TerminationFee::ShareOfRemaining(share) => format!(
            "a fee of {}% of the commitment remaining",
            grouped(share * Decimal::ONE_HUNDRED, 2)
        ),
    };
    let mut words = format!(
        "{} month{} notice, {fee}",
        x.notice_months,
        if x.notice_months == 1 { "" } else { "s" }
    );
    if !x.data_tb.is_zero() {
        words.push_str(&format!(
            ", egress {} TB at {currency} {} per TB",
            grouped(x.data_tb, 2),
            money(x.egress_per_tb)
        ));
    }
    if !x.offboarding.is_zero() {
        words.push_str(&format!(", offboarding {currency} {}", money(x.offboarding)));
    }
    words
}

/// Each vendor's commitments and their exit terms as quoted, with where the memo prices leaving.
fn exit_terms(input: &MemoInput<'_>, s: &ScorecardSummary, out: &mut Vec<Block>) {
    out.push(Block::Subheading("Exit terms as quoted".to_owned()));
    for e in &s.exits {
        out.push(paragraph(format!(
            "{} — {}",
            e.vendor,
            vendor_exit_words(input, e, &s.currency)
        )));
    }
}

fn vendor_exit_words(input: &MemoInput<'_>, e: &VendorExits, currency: &str) -> String {
    let Some(id) = &e.scenario else {
        return "no scenario chosen, so its quotes' terms are not known here.".to_owned();
    };
    if e.commitments.is_empty() {
        return "commits to nothing an exit clause could end (rentals or purchases only).".to_owned();
    }
    let terms: Vec<String> = e.commitments.iter().map(|c| commitment_words(c, currency)).collect();
    let priced = e.commitments.iter().any(|c| c.exit_clause.is_some());
    let pointer = match name_of(input.view, id) {
        Some(name) if priced => format!(" The cost of leaving is priced under Scenario: {name}, Exit terms."),
        Some(_) => String::new(),
        None if priced => {
            " Its scenario is not among this memo's scenarios, so the cost of leaving is not priced here.".to_owned()
        }
        None => String::new(),
    };
    format!("{}.{pointer}", terms.join("; "))
}
