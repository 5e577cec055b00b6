//! The vendor comparison as the buyer keeps it in a workspace: what they enter (weights and each
//! vendor's measured figures), the quotes of an RFP shown on the workspace's footing, and the
//! scorecard computed from both with the engine's cost and the checklist's compliance.
//!
//! [`ScorecardDraft`] is an item of the workspace like the memo draft: saved as typed, undoable.
//! A vendor's figures may be missing while the RFP is under way (MFU is measured in a trial,
//! expert hours come from the contract), so every figure is optional; a vendor with a missing or
//! out-of-range figure is listed with what to fill in and left out of the ranking rather than
//! ranked on a guess. Importing quotes fills in what the quotes say ([`entry_from_quotes`]): the
//! weakest SLA and service terms they state, 0 for an uptime, a refund or expert hours none of
//! them promises (unless the buyer typed a figure), and the share of the vendor's reservations
//! that state exit terms, which the compliance axis weighs (see `scorecard`).
//!
//! [`scorecard_view`] takes everything as arguments: the vendors' scenarios are evaluated over
//! the compare screen's horizon and each vendor's cost is its scenario's total cash as the compare
//! screen shows it (presented to the cent); compliance comes in as a map from vendor name to the
//! checklist's share of applicable items passed. A vendor absent from that map has not been
//! reviewed: its compliance counts as 0 (the scorecard's rule for a vendor not cleared), and the
//! view says so rather than showing a number that was never reviewed.

use std::collections::BTreeMap;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

use crate::catalog::Catalog;
use crate::catalog::provenance::AsOf;
use crate::engine::decide::decision::decision_view;
use crate::engine::input::scenario_file::{CommitTerm, ScenarioSpec, WorkloadSpec};
use crate::engine::workspace::content::{ProblemPlace, SelectionResult, WorkspaceSettings, evaluate_selection};
use crate::error::PlannerError;
use crate::exit_clause::ExitClause;
use crate::rfp::quote::{Quote, QuoteKind};
use crate::rfp::scorecard::{Axis, Flip, PerAxis, Scorecard, VendorInput, scorecard};

/// What the buyer enters on the scorecard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields, default)]
pub struct ScorecardDraft {
    /// On any scale (the screen uses points out of 100); divided by their sum when scored.
    pub weights: PerAxis,
    /// In the order the buyer listed them.
    pub vendors: Vec<VendorEntry>,
}

impl Default for ScorecardDraft {
    /// Equal weights, 20 points each, and no vendors.
    fn default() -> ScorecardDraft {
        let twenty = Decimal::from(20);
        ScorecardDraft {
            weights: PerAxis::from_array([twenty; 5]),
            vendors: Vec::new(),
        }
    }
}

/// One vendor's figures as entered (or taken from its quotes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields, default)]
pub struct VendorEntry {
    /// As the quotes name the vendor; unique on the scorecard.
    pub name: String,
    /// The scenario whose total cost over the compare horizon is the vendor's cost.
    pub scenario: Option<String>,
    /// Measured model FLOPs utilisation, 0..1.
    pub mfu: Option<Decimal>,
    /// Failures per device-year.
    pub annual_failure_rate: Option<Decimal>,
    /// SLA availability, 0..1.
    pub sla: Option<Decimal>,
    /// Share of the bill refunded on an SLA miss, 0..1.
    pub sla_refund_share: Option<Decimal>,
    /// Support response time, hours.
    pub response_hours: Option<Decimal>,
    /// Expert (solutions-engineer) hours per month.
    pub expert_hours_per_month: Option<Decimal>,
    /// Share of the vendor's commitments whose quotes state exit terms, 0..1 (set on import,
    /// see [`vendor_terms`]); absent: not known, counted as 0 on the compliance axis.
    #[serde(default)]
    pub exit_terms_stated: Option<Decimal>,
}

/// A field of the scorecard draft that needs attention, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScorecardProblem {
    /// The field, e.g. `vendors[1].mfu` or `weights.cost`.
    pub field: String,
    pub message: String,
}

/// One vendor as the scorecard screen lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct VendorStatus {
    pub name: String,
    pub scenario: Option<String>,
    /// The scenario's name, when it exists.
    pub scenario_name: Option<String>,
    /// The scenario's decision total over the horizon (total cash plus the commitments that fall
    /// due after it), to the cent, as the compare screen ranks on it.
    pub tco: Option<Decimal>,
    /// Demand the scenario leaves unserved (useful PFLOP-hours): a cost that looks low may be
    /// low because the vendor's capacity does not cover the workloads.
    pub unmet_pflop_h: Option<Decimal>,
    /// The checklist's share of applicable items passed; `None`: not reviewed (counts as 0).
    pub compliance: Option<Decimal>,
    /// Why the vendor is not ranked; empty when it is.
    pub problems: Vec<ScorecardProblem>,
}

/// The scorecard screen: every vendor, the ranking of those with every figure, and its
/// stability in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScorecardView {
    pub currency: String,
    pub horizon_months: u32,
    pub vendors: Vec<VendorStatus>,
    /// The ranked vendors (those without problems); `None` when none can be ranked or the
    /// weights are refused.
    pub scorecard: Option<Scorecard>,
    /// The least change of weights that changes the top vendor, as a sentence.
    pub stability: Option<String>,
    /// Problems with the weights.
    pub problems: Vec<ScorecardProblem>,
}

fn problem(field: String, message: impl Into<String>) -> ScorecardProblem {
    ScorecardProblem {
        field,
        message: message.into(),
    }
}

/// The figures of `entry` that are missing or out of range, located under `vendors[i]`.
fn entry_problems(i: usize, entry: &VendorEntry, earlier: &[VendorEntry]) -> Vec<ScorecardProblem> {
    let p = format!("vendors[{i}]");
    let mut out = Vec::new();
    if entry.name.trim().is_empty() {
        out.push(problem(format!("{p}.name"), "give the vendor a name"));
    } else if earlier.iter().any(|e| e.name == entry.name) {
        out.push(problem(
            format!("{p}.name"),
            format!("`{}` is listed twice; vendor names must be unique", entry.name),
        ));
    }
    let shares = [
        ("mfu", "the measured MFU", entry.mfu),
        ("sla", "the SLA availability", entry.sla),
        ("sla_refund_share", "the SLA refund share", entry.sla_refund_share),
    ];
    if let Some(v) = entry.exit_terms_stated
        && (v < Decimal::ZERO || v > Decimal::ONE)
    {
        out.push(problem(
            format!("{p}.exit_terms_stated"),
            format!("the share of commitments with stated exit terms is {v}: give a share from 0 to 1"),
        ));
    }
    for (field, what, value) in shares {
        match value {
            None => out.push(problem(format!("{p}.{field}"), format!("{what} is missing"))),
            Some(v) if v < Decimal::ZERO || v > Decimal::ONE => out.push(problem(
                format!("{p}.{field}"),
                format!("{what} is {v}: give a share from 0 to 1 (0.999 for 99.9%)"),
            )),
            Some(_) => {}
        }
    }
    let amounts = [
        (
            "annual_failure_rate",
            "the annual failure rate",
            entry.annual_failure_rate,
        ),
        ("response_hours", "the support response time", entry.response_hours),
        (
            "expert_hours_per_month",
            "the expert hours per month",
            entry.expert_hours_per_month,
        ),
    ];
    for (field, what, value) in amounts {
        match value {
            None => out.push(problem(format!("{p}.{field}"), format!("{what} is missing"))),
            Some(v) if v < Decimal::ZERO => out.push(problem(
                format!("{p}.{field}"),
                format!("{what} is {v}: give zero or more"),
            )),
            Some(_) => {}
        }
    }
    out
}

/// Points rounded to one decimal, without a trailing `.0`.
fn points(share: Decimal) -> String {
    let p = (share * Decimal::ONE_HUNDRED).round_dp_with_strategy(1, RoundingStrategy::MidpointAwayFromZero);
    p.normalize().to_string()
}

/// The stability of the ranking in words: how much weight must move, from which axes to which,
/// for `flip.challenger` to take the top spot from `top`.
pub fn stability_words(top: &str, flip: &Flip) -> String {
    let change = flip.change.to_array();
    let from: Vec<(Axis, Decimal)> = Axis::ALL
        .iter()
        .zip(change)
        .filter(|(_, c)| *c < Decimal::ZERO)
        .map(|(a, c)| (*a, -c))
        .collect();
    let to: Vec<Axis> = Axis::ALL
        .iter()
        .zip(change)
        .filter(|(_, c)| *c > Decimal::ZERO)
        .map(|(a, _)| *a)
        .collect();
    let total = points(flip.threshold);
    let amount = if total == "0" {
        "less than 0.1 points".to_owned()
    } else {
        format!("{total} point{}", if total == "1" { "" } else { "s" })
    };
    let from_text = match from.as_slice() {
        [(a, _)] => a.name().to_owned(),
        many => {
            let parts: Vec<String> = many
                .iter()
                .map(|(a, c)| format!("{} ({})", a.name(), points(*c)))
                .collect();
            join_words(&parts)
        }
    };
    let to_text = join_words(&to.iter().map(|a| a.name().to_owned()).collect::<Vec<_>>());
    format!(
        "Moving {amount} of weight from {from_text} to {to_text} would put {} level with {top} on top; any more puts {} ahead.",
        flip.challenger, flip.challenger
    )
}

fn join_words(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Everything the scorecard screen shows. `scenarios` holds (at least) the scenarios the vendors
/// name, `horizon` replaces the settings' horizon (the compare screen's choice), and
/// `compliance` maps a vendor's name to its checklist share (absent: not reviewed, 0).
pub fn scorecard_view(
    draft: &ScorecardDraft,
    catalog: &Catalog,
    settings: &WorkspaceSettings,
    workloads: &[WorkloadSpec],
    scenarios: &[ScenarioSpec],
    horizon: Option<u32>,
    compliance: &BTreeMap<String, Decimal>,
) -> ScorecardView {
    // Each scenario named by a vendor is evaluated once, together (one horizon, one catalog).
    let named = named_scenarios(draft, scenarios);
    let result = if named.is_empty() {
        None
    } else {
        Some(evaluate_selection(catalog, settings, workloads, &named, horizon))
    };
    let figures = result
        .as_ref()
        .and_then(|r| r.evaluation.as_ref())
        .map(|e| decision_view(e, None).scenarios)
        .unwrap_or_default();
    let mut vendors = Vec::new();
    let mut inputs = Vec::new();
    for (i, v) in draft.vendors.iter().enumerate() {
        let mut problems = entry_problems(i, v, &draft.vendors[..i]);
        let spec = v
            .scenario
            .as_ref()
            .and_then(|id| scenarios.iter().find(|s| &s.id == id));
        let fig = v.scenario.as_ref().and_then(|id| figures.iter().find(|f| &f.id == id));
        if let Some(p) = scenario_problem(i, v.scenario.as_deref(), spec.is_some(), fig.is_some(), result.as_ref()) {
            problems.push(p);
        }
        let share = compliance.get(&v.name).copied();
        if let Some(s) = share
            && (s < Decimal::ZERO || s > Decimal::ONE)
        {
            problems.push(problem(
                format!("vendors[{i}].compliance"),
                format!("the checklist gave a compliance share of {s}, outside 0..1"),
            ));
        }
        if problems.is_empty()
            && let Some(f) = fig
        {
            inputs.push(VendorInput {
                name: v.name.clone(),
                mfu: v.mfu.unwrap_or_default(),
                annual_failure_rate: v.annual_failure_rate.unwrap_or_default(),
                sla: v.sla.unwrap_or_default(),
                sla_refund_share: v.sla_refund_share.unwrap_or_default(),
                tco: f.decision_total,
                response_hours: v.response_hours.unwrap_or_default(),
                expert_hours_per_month: v.expert_hours_per_month.unwrap_or_default(),
                compliance: share.unwrap_or_default(),
                exit_terms_stated: v.exit_terms_stated.unwrap_or_default(),
            });
        }
        vendors.push(VendorStatus {
            name: v.name.clone(),
            scenario: v.scenario.clone(),
            scenario_name: spec.map(|s| s.name.clone()),
            tco: fig.map(|f| f.decision_total),
            unmet_pflop_h: fig.map(|f| f.unmet_pflop_h),
            compliance: share,
            problems,
        });
    }
    let mut problems = Vec::new();
    let card = rank(draft, &inputs, &mut problems);
    let stability = card.as_ref().and_then(stability);
    ScorecardView {
        currency: settings.currency.clone(),
        horizon_months: horizon.unwrap_or(settings.horizon_months),
        vendors,
        scorecard: card,
        stability,
        problems,
    }
}

/// The vendors named scenarios, each once, in the order the vendors name them.
fn named_scenarios(draft: &ScorecardDraft, scenarios: &[ScenarioSpec]) -> Vec<ScenarioSpec> {
    let mut named: Vec<ScenarioSpec> = Vec::new();
    for v in &draft.vendors {
        if let Some(id) = &v.scenario
            && !named.iter().any(|s| &s.id == id)
            && let Some(s) = scenarios.iter().find(|s| &s.id == id)
        {
            named.push(s.clone());
        }
    }
    named
}

/// What stands between vendor `i` and its cost: no scenario chosen, a scenario that is gone
/// (`has_spec` false), or one that cannot be evaluated (`has_figures` false: its problems said).
fn scenario_problem(
    i: usize,
    scenario: Option<&str>,
    has_spec: bool,
    has_figures: bool,
    result: Option<&SelectionResult>,
) -> Option<ScorecardProblem> {
    match (scenario, has_spec, has_figures) {
        (None, _, _) => Some(problem(
            format!("vendors[{i}].scenario"),
            "choose the scenario whose cost is this vendor's (import the vendor's quotes to make one)",
        )),
        (Some(id), false, _) => Some(problem(
            format!("vendors[{i}].scenario"),
            format!("there is no scenario `{id}` any more: choose another"),
        )),
        (Some(id), true, false) => {
            let why: Vec<String> = result
                .iter()
                .flat_map(|r| &r.problems)
                .filter(|p| {
                    p.subject == ProblemPlace::Scenario(id.to_owned())
                        || !matches!(p.subject, ProblemPlace::Scenario(_))
                })
                .map(|p| {
                    if p.field.is_empty() {
                        p.message.clone()
                    } else {
                        format!("{}: {}", p.field, p.message)
                    }
                })
                .collect();
            Some(problem(
                format!("vendors[{i}].scenario"),
                format!(
                    "scenario `{id}` cannot be evaluated, so its cost is unknown: {}",
                    if why.is_empty() {
                        "see the scenario's problems".to_owned()
                    } else {
                        why.join("; ")
                    }
                ),
            ))
        }
        (Some(_), true, true) => None,
    }
}

/// The scorecard of the vendors with every figure, under the draft's weights; refused weights go
/// to `problems` (checked even when no vendor can be ranked yet, so they show first).
fn rank(draft: &ScorecardDraft, inputs: &[VendorInput], problems: &mut Vec<ScorecardProblem>) -> Option<Scorecard> {
    if inputs.is_empty() {
        // The weights are still checked, so a refused weight shows before any vendor is ranked.
        if let Err(ps) = crate::rfp::scorecard::normalise_weights(&draft.weights) {
            problems.extend(ps.into_iter().map(|p| problem(p.path, p.message)));
        }
        None
    } else {
        match scorecard(inputs, &draft.weights) {
            Ok(card) => Some(card),
            Err(ps) => {
                problems.extend(ps.into_iter().map(|p| problem(p.path, p.message)));
                None
            }
        }
    }
}

/// How stable the ranking is, in words: the least weight change that puts another vendor on
/// top, or why none can.
fn stability(c: &Scorecard) -> Option<String> {
    let top = c.ranking.first()?;
    Some(match &c.flip {
        Some(f) => stability_words(&top.name, f),
        None if c.ranking.len() == 1 => {
            format!(
                "Only {} is ranked: the ranking cannot change until another vendor has every figure.",
                top.name
            )
        }
        None => format!(
            "No change of weights puts another vendor on top: {} is at least as good as each of the others on every axis.",
            top.name
        ),
    })
}

/// A quote as the import preview shows it: on the workspace's footing (its currency), with the
/// layer it becomes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct QuoteRow {
    pub vendor: String,
    pub quote_id: String,
    pub kind: QuoteKind,
    pub accelerator: String,
    pub gpus: Option<u32>,
    /// Rentals: the price per GPU-hour in the workspace's currency.
    pub price_per_gpu_hour: Option<Decimal>,
    /// Owned: the purchase price per GPU in the workspace's currency.
    pub price_per_gpu: Option<Decimal>,
    /// The currency the vendor quoted in (the prices above are converted when it differs).
    pub quoted_currency: String,
    pub valid_until: AsOf,
    /// The quote's validity has ended: its last valid day is before the day of the preview.
    pub expired: bool,
    /// Reserved: the commitment in months.
    pub commitment_months: Option<u32>,
    /// Reserved: the exit clause the layer carries, amounts in the workspace's currency.
    pub exit_clause: Option<ExitClause>,
    /// Data egress per TB in the workspace's currency.
    pub egress_per_tb: Option<Decimal>,
    pub sla_uptime: Option<Decimal>,
    pub sla_refund_share: Option<Decimal>,
    pub response_hours: Option<Decimal>,
    pub expert_hours_per_month: Option<Decimal>,
    /// The spreadsheet row the quote was read from.
    pub row: u32,
    /// The id of the layer the quote becomes.
    pub layer: String,
}

/// Quotes read from one file, ready to import.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct QuotePreview {
    pub file: String,
    /// The workspace's currency, in which the prices are shown.
    pub currency: String,
    pub quotes: Vec<QuoteRow>,
    /// The vendors, in the order they first appear: each becomes one scenario.
    pub vendors: Vec<String>,
    /// Which sheet of a workbook the quotes were read from, and why that one ("the sheet
    /// \"Quotes\" (the only worksheet)"); `None` for a CSV file.
    pub sheet: Option<String>,
}

/// The vendors of `quotes`, in the order they first appear.
pub fn vendor_names(quotes: &[Quote]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for q in quotes {
        if !out.contains(&q.vendor) {
            out.push(q.vendor.clone());
        }
    }
    out
}

/// The preview of `quotes` read from `file` on the day `today`, converted with `settings`'
/// exchange rates.
pub fn preview(
    file: &str,
    quotes: &[Quote],
    settings: &WorkspaceSettings,
    today: AsOf,
) -> Result<QuotePreview, PlannerError> {
    let mut rows = Vec::new();
    for q in quotes {
        let layer = q.to_layer_spec(&q.layer_id(), settings)?;
        let rate = q.rate(settings)?;
        rows.push(QuoteRow {
            vendor: q.vendor.clone(),
            quote_id: q.quote_id.clone(),
            kind: q.offer_kind,
            accelerator: q.accelerator.clone(),
            gpus: q.gpus,
            price_per_gpu_hour: layer.price_per_gpu_hour.as_ref().map(|o| o.value),
            price_per_gpu: layer.price_per_gpu.as_ref().map(|o| o.value),
            quoted_currency: q.currency.clone(),
            valid_until: q.valid_until,
            expired: q.valid_until.last_day() < today,
            commitment_months: layer.term.map(CommitTerm::months),
            exit_clause: layer.exit_clause.clone(),
            egress_per_tb: q.egress_per_tb.map(|e| e * rate),
            sla_uptime: q.sla_uptime,
            sla_refund_share: q.sla_refund_share,
            response_hours: q.response_hours,
            expert_hours_per_month: q.expert_hours_per_month,
            row: q.source.row,
            layer: layer.id,
        });
    }
    Ok(QuotePreview {
        file: file.to_owned(),
        currency: settings.currency.clone(),
        quotes: rows,
        vendors: vendor_names(quotes),
        sheet: None,
    })
}

/// The service terms a vendor's quotes state, as the scorecard takes them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct VendorTerms {
    /// The lowest `sla_uptime` stated; `None` when no quote states one.
    pub sla: Option<Decimal>,
    /// The lowest `sla_refund_share` stated.
    pub sla_refund_share: Option<Decimal>,
    /// The slowest `response_hours` stated.
    pub response_hours: Option<Decimal>,
    /// The fewest `expert_hours_per_month` stated.
    pub expert_hours_per_month: Option<Decimal>,
    /// The share of the vendor's reserved quotes (its commitments) that state exit terms; 1 when
    /// it has none (nothing to exit).
    pub exit_terms_stated: Decimal,
}

/// The terms a vendor's quotes promise, taken at their weakest (an RFP is compared on what
/// every quote of the vendor guarantees): the lowest uptime, the lowest refund, the slowest
/// response, the fewest expert hours (each `None` where no quote states it), and the share of its
/// commitments whose exit terms are stated.
pub fn vendor_terms(vendor: &str, quotes: &[Quote]) -> VendorTerms {
    let of = || quotes.iter().filter(|q| q.vendor == vendor);
    let reserved = of().filter(|q| q.offer_kind == QuoteKind::Reserved).count();
    let stated = of()
        .filter(|q| q.offer_kind == QuoteKind::Reserved && q.states_exit_terms())
        .count();
    VendorTerms {
        sla: of().filter_map(|q| q.sla_uptime).min(),
        sla_refund_share: of().filter_map(|q| q.sla_refund_share).min(),
        response_hours: of().filter_map(|q| q.response_hours).max(),
        expert_hours_per_month: of().filter_map(|q| q.expert_hours_per_month).min(),
        exit_terms_stated: if reserved == 0 {
            Decimal::ONE
        } else {
            Decimal::from(stated) / Decimal::from(reserved)
        },
    }
}

/// `entry` with the terms of its vendor's quotes ([`vendor_terms`]) and `scenario` as its cost.
///
/// A term the quotes state replaces the entry's. A term none of them states keeps the figure the
/// buyer entered; with none entered, an SLA uptime, an SLA refund and expert hours that no quote
/// promises count as none promised (0), while a response time stays to be filled in (no figure
/// says "no commitment"). The exit-terms share always comes from the quotes.
pub fn entry_from_quotes(entry: Option<&VendorEntry>, vendor: &str, scenario: &str, quotes: &[Quote]) -> VendorEntry {
    let t = vendor_terms(vendor, quotes);
    let mut e = entry.cloned().unwrap_or_else(|| VendorEntry {
        name: vendor.to_owned(),
        ..VendorEntry::default()
    });
    e.scenario = Some(scenario.to_owned());
    e.sla = t.sla.or(e.sla).or(Some(Decimal::ZERO));
    e.sla_refund_share = t.sla_refund_share.or(e.sla_refund_share).or(Some(Decimal::ZERO));
    e.response_hours = t.response_hours.or(e.response_hours);
    e.expert_hours_per_month = t
        .expert_hours_per_month
        .or(e.expert_hours_per_month)
        .or(Some(Decimal::ZERO));
    e.exit_terms_stated = Some(t.exit_terms_stated);
    e
}

/// The egress price per TB of a vendor's quotes in the workspace's currency: the highest any of
/// them states (the weakest for the buyer), with the quote that states it; `None` when none does.
fn vendor_egress<'q>(
    vendor: &str,
    quotes: &'q [Quote],
    settings: &WorkspaceSettings,
) -> Result<Option<(Decimal, &'q Quote)>, PlannerError> {
    let mut best: Option<(Decimal, &Quote)> = None;
    for q in quotes.iter().filter(|q| q.vendor == vendor) {
        if let Some(e) = q.egress_per_tb {
            let price = e * q.rate(settings)?;
            if best.is_none_or(|(b, _)| price > b) {
                best = Some((price, q));
            }
        }
    }
    Ok(best)
}

/// The scenario of one vendor: `base` (its workloads' facility, network, staff and other costs)
/// with the vendor's quotes as its only supply layers, in the workspace's currency, under the id
/// `id`. When the vendor's quotes state an egress price, the highest of them replaces the base's
/// `egress_per_tb` (the volume, `egress_tb_per_month`, stays the base's) and the description says
/// which quote it comes from. Fails when a quote cannot become a layer (see
/// [`Quote::to_layer_spec`]).
pub fn vendor_scenario(
    base: &ScenarioSpec,
    id: &str,
    vendor: &str,
    quotes: &[Quote],
    settings: &WorkspaceSettings,
) -> Result<ScenarioSpec, PlannerError> {
    let mut s = base.clone();
    s.id = id.to_owned();
    s.name = format!("{} — {vendor}", base.name);
    let mut description = format!(
        "RFP quotes of {vendor}, on the footing of scenario {} ({}).",
        base.name, base.id
    );
    if let Some((price, q)) = vendor_egress(vendor, quotes, settings)? {
        s.egress_per_tb = price;
        description.push_str(&format!(
            " Egress at {} {} per TB, from quote {}.",
            price.normalize(),
            settings.currency,
            q.quote_id
        ));
    }
    s.description = Some(description);
    s.layers = Vec::new();
    for q in quotes.iter().filter(|q| q.vendor == vendor) {
        let stem = q.layer_id();
        let stem = if stem.is_empty() { "quote".to_owned() } else { stem };
        let mut layer_id = stem.clone();
        let mut n = 2;
        while s.layers.iter().any(|l| l.id == layer_id) {
            layer_id = format!("{stem}-{n}");
            n += 1;
        }
        s.layers.push(q.to_layer_spec(&layer_id, settings)?);
    }
    Ok(s)
}
