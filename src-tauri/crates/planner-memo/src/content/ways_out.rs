//! The memo's "Ways out" of one scenario: each layer's ways out (leave a reservation, scale down,
//! downgrade, leave a lease, sell early) from the middle of the horizon, as the engine priced them
//! against staying with the same ledger ([`planner_core::engine::exit::kinds::standard_ways_out`]), and the
//! ways it refused, in words.

use planner_core::engine::decide::decision::DecisionView;
use planner_core::engine::exit::kinds::{ExitRequest, ExitRequestPrice, WaysOut};
use rust_decimal::Decimal;

use crate::blocks::{Block, Column, Row, Table};
use crate::content::{money, small};

fn way(p: &ExitRequestPrice) -> String {
    let b = &p.booking;
    match &p.request {
        ExitRequest::LeaveReservation { layer, .. } => format!("Leave {layer}"),
        ExitRequest::ScaleDown { layer, gpus, .. } => format!("Scale {layer} down to {gpus} of {} GPUs", b.gpus_before),
        ExitRequest::Downgrade { layer, to, .. } => format!(
            "Replace {layer} by {} ({})",
            to.id,
            to.offer.as_deref().unwrap_or("its offer")
        ),
        ExitRequest::LeaveLease { layer, .. } => format!("Leave the lease of {layer}"),
        ExitRequest::SellEarly { layer, .. } => format!("Sell {layer} early"),
    }
}

/// What leaving this way pays or receives at the exit itself: the clause's charges, or the resale
/// (negative: money received) and a loan paid off.
fn charges(p: &ExitRequestPrice) -> Decimal {
    let b = &p.booking;
    let clause = b.clause.as_ref().map_or(Decimal::ZERO, |c| c.exit_charges);
    let resale = b.resale.as_ref().map_or(Decimal::ZERO, |r| r.amount);
    clause - resale + b.loan_payoff
}

/// The "Ways out" blocks of scenario `id`, when the memo was given any.
pub fn ways_out_blocks(view: &DecisionView, ways: &[WaysOut], id: &str, out: &mut Vec<Block>) {
    let Some(w) = ways.iter().find(|w| w.scenario == id) else {
        return;
    };
    if w.priced.is_empty() && w.refused.is_empty() {
        out.push(Block::Subheading("Ways out".to_owned()));
        out.push(small(
            "Nothing to leave: every layer of this scenario is paid as it is used (no reservation, lease or owned hardware), so stopping costs nothing beyond the hours already used.",
        ));
        return;
    }
    out.push(Block::Subheading(format!(
        "Ways out from month {} ({})",
        w.month + 1,
        view.start.plus(w.month)
    )));
    if !w.priced.is_empty() {
        let rows = w
            .priced
            .iter()
            .map(|p| {
                Row::new(vec![
                    way(p),
                    view.start.plus(p.booking.effective_month).to_string(),
                    money(charges(p)),
                    money(p.variant_decision_total),
                    money(p.difference),
                ])
            })
            .collect();
        out.push(Block::Table(Table {
            columns: vec![
                Column::left("Way out", 2.6),
                Column::left("Takes effect", 1.0),
                Column::right(format!("At the exit ({})", view.currency), 1.3),
                Column::right("Decision total, leaving", 1.3),
                Column::right("Against staying", 1.3),
            ],
            rows,
            size: 7.6,
        }));
    }
    for r in &w.refused {
        out.push(small(format!("Not priced: {r}.")));
    }
    out.push(small(
        "Each way out is a variant of this scenario that the engine evaluates with the same ledger: the work the layer gave up moves to the scenario's other layers. At the exit: the clause's charges (fee, egress, offboarding), less any resale received, plus a loan paid off. Decision total: the variant's cash over the horizon plus what it still owes after it (charges that fall at or after the horizon included). Against staying: the variant's decision total less this scenario's (negative: leaving this way costs less).",
    ));
}
