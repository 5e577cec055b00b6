//! What the memo says, in reading order, as layout [`Block`]s: no PDF here, so the content can be
//! tested on its own.
//!
//! 1. Decision (the author's words) and the memo's facts (client, author, date, horizon, catalog:
//!    its version, publisher and whether its pack signature verified).
//! 2. Rationale (the author's words).
//! 3. Comparison: the decision figures side by side (the same rows as the XLSX export) and the
//!    cumulative cost chart with its break-even points; then the workloads as declared (kind,
//!    class, model size, demand, growth, MFU, active months).
//! 4. Vendor scorecard, when the workspace keeps one with vendors ([`scorecard`]): the buyer's
//!    weights, the ranking (rank, vendor, the scenario it is priced on, five axis scores, the
//!    weighted total), the stability sentence as the engine words it, the vendors not ranked
//!    (with what each lacks) or not reviewed, and each vendor's exit terms as quoted.
//! 5. Risk: the spread of each scenario's decision total over the draws of the kept analysis,
//!    the chance the recommended scenario is cheaper than each alternative, the tornado of the
//!    closest alternative, the fan chart, and the seed and draws to rerun it (or one sentence
//!    saying no analysis was run).
//! 6. One section per scenario: key figures, the monthly cost chart, sizing, rack and network
//!    plan, each owned layer's delivery and bridge, spot checkpoint arithmetic, what the work
//!    needs (GPUs, time to train), exit terms and warnings.
//! 7. Assumption ledger: where the catalog came from (one sentence: version, publisher, whether
//!    its signature verified), then every catalog figure and every override each scenario used,
//!    with its range, sources, as-of date and confidence; a catalog figure older than its
//!    threshold on the memo's date is marked stale with its age; the workloads' declared demand
//!    is listed first, as the planner's own figures.
//! 8. Appendix: the monthly cash ledger of each scenario, then its month-by-month dispatch
//!    (what each layer gave, owned idle hours, unmet demand).
//!
//! Figures are the decision view's presented values (money rounded half-even to cents once, in
//! the core), printed with thousands separators; nothing is recomputed here.

use planner_core::catalog::provenance::AsOf;
use planner_core::engine::blocks::sizing::Parallelism;
use planner_core::engine::costing::evaluate::ScenarioResult;
use planner_core::engine::decide::decision::{DecisionView, ScenarioFigures};
use planner_core::engine::editing::pack_effect::stale_age;
use planner_core::engine::input::scenario_file::PricePoint;
use planner_core::engine::model::assumption::Origin;
use planner_core::engine::model::commitment::{CommitmentKind, LayerExitCosts};
use planner_core::engine::model::ledger::Category;
use planner_core::engine::risk::run::RiskOutcome;
use planner_core::exit_clause::TerminationFee;
use planner_report::category_label;
use planner_report::charts::{
    ChartSize, RiskLabels, Theme, cumulative_svg, monthly_svg, risk_fan_svg, risk_tornado_svg, tornado_height,
};
use planner_report::export::{FIGURES, FigureKind};
use rust_decimal::Decimal;

use crate::blocks::{Block, Column, Row, Style, Table};
use crate::{MemoError, MemoInput, MemoLock};

/// Charts are drawn at the width of the compare screen's column and scaled to the content width
/// of an A4 page (Letter is a little wider), so their labels come out at about 8 points.
const CHART_WIDTH: u32 = 760;
const CUMULATIVE_HEIGHT: u32 = 400;
const MONTHLY_HEIGHT: u32 = 340;
/// The width charts take on the page, in points.
const CHART_ON_PAGE: f32 = 495.0;
/// Scenario columns per comparison table before it continues in a second table.
const SCENARIOS_PER_TABLE: usize = 4;
/// Ledger categories per appendix table before it continues in a second table.
const CATEGORIES_PER_TABLE: usize = 7;

pub use planner_report::grouped;

pub mod operations;
pub mod scorecard;
pub mod ways_out;

/// Money as printed in the memo: to the cent, with thousands separators.
pub fn money(d: Decimal) -> String {
    grouped(d, 2)
}

fn figure_cell(kind: FigureKind, v: Option<Decimal>) -> String {
    let Some(v) = v else {
        return "–".to_owned();
    };
    match kind {
        FigureKind::Money => money(v),
        FigureKind::Fraction => format!("{}%", grouped(v * Decimal::ONE_HUNDRED, 1)),
        FigureKind::Whole => grouped(v, 0),
        FigureKind::Tenths => grouped(v, 1),
        FigureKind::Month => v.normalize().to_string(),
    }
}

fn point_label(p: PricePoint) -> &'static str {
    match p {
        PricePoint::Low => "low",
        PricePoint::Mid => "mid",
        PricePoint::High => "high",
    }
}

fn parallelism_label(p: Parallelism) -> &'static str {
    match p {
        Parallelism::DataParallel => "fits one GPU (data parallel)",
        Parallelism::TensorWithinServer => "tensor parallel within a server",
        Parallelism::TensorAndPipelineAcrossServers => "tensor + pipeline across servers",
    }
}

fn paragraph(text: impl Into<String>) -> Block {
    Block::Paragraph {
        text: text.into(),
        style: Style::BODY,
    }
}

fn small(text: impl Into<String>) -> Block {
    Block::Paragraph {
        text: text.into(),
        style: Style::SMALL,
    }
}

fn heading(text: &str, new_page: bool) -> Block {
    Block::Heading {
        text: text.to_owned(),
        new_page,
    }
}

fn size(width: u32, height: u32) -> ChartSize {
    ChartSize { width, height }
}

/// Every block of the memo, in order.
pub fn blocks(input: &MemoInput<'_>) -> Result<Vec<Block>, MemoError> {
    let view = input.view;
    let mut out = Vec::new();
    out.push(Block::Title {
        title: view.title.clone(),
        subtitle: format!(
            "{}Prepared by {} · {} · {} scenario{} over {} months from {}",
            if input.draft.client.trim().is_empty() {
                String::new()
            } else {
                format!("For {} · ", input.draft.client.trim())
            },
            input.draft.author.trim(),
            input.date,
            view.scenarios.len(),
            if view.scenarios.len() == 1 { "" } else { "s" },
            view.horizon_months,
            view.start
        ),
    });
    decision(input, &mut out);
    comparison(input, &mut out)?;
    operations::workloads_section(input, &mut out);
    scorecard::scorecard_section(input, &mut out);
    risk(input, &mut out)?;
    compliance(input, &mut out);
    for (s, r) in view.scenarios.iter().zip(&input.evaluation.scenarios) {
        scenario_section(input, s, r, &mut out)?;
    }
    let today = input
        .date
        .parse::<AsOf>()
        .ok()
        .filter(|d| d.day().is_some())
        .ok_or_else(|| MemoError::Day(input.date.to_owned()))?;
    assumptions(input, today, &mut out);
    appendix(input, &mut out);
    operations::dispatch_appendix(input, &mut out);
    Ok(out)
}

fn name_of<'a>(view: &'a DecisionView, id: &str) -> Option<&'a str> {
    view.scenarios.iter().find(|s| s.id == id).map(|s| s.name.as_str())
}

fn decision(input: &MemoInput<'_>, out: &mut Vec<Block>) {
    let view = input.view;
    out.push(heading("Decision", false));
    out.push(Block::Paragraph {
        text: input.draft.decision.trim().to_owned(),
        style: Style::STRONG,
    });
    let mut facts = Vec::new();
    if let Some(name) = input.draft.recommended.as_deref().and_then(|id| name_of(view, id)) {
        facts.push(("Recommended scenario".to_owned(), name.to_owned()));
    }
    if !input.draft.client.trim().is_empty() {
        facts.push(("Client".to_owned(), input.draft.client.trim().to_owned()));
    }
    facts.extend([
        ("Author".to_owned(), input.draft.author.trim().to_owned()),
        ("Date".to_owned(), input.date.to_owned()),
        ("Workspace".to_owned(), input.workspace.to_owned()),
        (
            "Horizon".to_owned(),
            format!(
                "{} months, {} to {}",
                view.horizon_months,
                view.start,
                view.months
                    .last()
                    .map_or_else(|| view.start.to_string(), ToString::to_string)
            ),
        ),
        (
            "Currency".to_owned(),
            format!("{}; money rounded half-even to the cent", view.currency),
        ),
        (
            "Discount rate".to_owned(),
            format!(
                "{}% a year (NPV at the monthly equivalent)",
                grouped(input.evaluation.discount_rate * Decimal::ONE_HUNDRED, 2)
            ),
        ),
        (
            "Catalog".to_owned(),
            format!(
                "data version {}{}",
                input.catalog_version,
                input.catalog_source.describe()
            ),
        ),
    ]);
    let reference = view
        .reference
        .as_deref()
        .and_then(|id| name_of(view, id))
        .unwrap_or("—");
    facts.push(("Differences taken against".to_owned(), reference.to_owned()));
    out.push(Block::Facts(facts));
    // A decision that adopts a scenario the reviewers have not cleared says so where it is made.
    if let (Some(c), Some(id)) = (input.compliance, input.draft.recommended.as_deref())
        && let Some((_, false, status)) = c.scenarios.iter().find(|(s, _, _)| s == id)
    {
        out.push(Block::Paragraph {
            text: format!("The recommended scenario is not cleared by its D-1 compliance checklist: {status}."),
            style: Style::STRONG,
        });
    }
    out.push(heading("Rationale", false));
    let rationale = input.draft.rationale.trim();
    out.push(paragraph(if rationale.is_empty() {
        "The author gave no rationale beyond the decision above."
    } else {
        rationale
    }));
}

/// The sentence stating the locked baseline (issue #17): when, against which scenario the
/// figures are compared, and which scenarios are locked.
pub fn lock_sentence(lock: &MemoLock, reference: Option<&str>) -> String {
    let locked = lock.scenarios.join(", ");
    match reference {
        Some(r) if r != lock.baseline => format!(
            "Baseline locked on {}: the locked baseline “{}” is not among this memo's scenarios, so the figures below are compared with “{r}”; locked scenarios: {locked}.",
            lock.locked_at, lock.baseline
        ),
        _ => format!(
            "Baseline locked on {}: the figures below are compared with “{}”; locked scenarios: {locked}.",
            lock.locked_at, lock.baseline
        ),
    }
}

fn comparison(input: &MemoInput<'_>, out: &mut Vec<Block>) -> Result<(), MemoError> {
    let view = input.view;
    out.push(heading("Comparison", false));
    let reference = view.reference.as_deref().and_then(|id| name_of(view, id));
    out.push(small(format!(
        "The decision figures of each scenario over {} months, in {}. Differences and break-even are against {}.",
        view.horizon_months,
        view.currency,
        reference.unwrap_or("the first scenario")
    )));
    if let Some(lock) = input.lock {
        out.push(Block::Paragraph {
            text: lock_sentence(lock, reference),
            style: Style::STRONG,
        });
    }
    for chunk in view.scenarios.chunks(SCENARIOS_PER_TABLE) {
        let mut columns = vec![Column::left("Figure", 2.4)];
        columns.extend(chunk.iter().map(|s| Column::right(s.name.clone(), 1.3)));
        let mut rows: Vec<Row> = FIGURES
            .iter()
            .map(|f| {
                let mut cells = vec![f.header(&view.currency)];
                cells.extend(chunk.iter().map(|s| figure_cell(f.kind, (f.value)(s))));
                if f.label.starts_with("Decision total") {
                    Row::strong(cells)
                } else {
                    Row::new(cells)
                }
            })
            .collect();
        let mut cells = vec!["Buy vs rent: owning pays above (hours/day)".to_owned()];
        cells.extend(chunk.iter().map(|s| {
            figure_cell(
                FigureKind::Tenths,
                s.difference.as_ref().and_then(|d| d.buy_vs_rent_hours_per_day),
            )
        }));
        rows.push(Row::new(cells));
        out.push(Block::Table(Table {
            columns,
            rows,
            size: 7.6,
        }));
    }
    // What the hours per day and the difference rest on, in words: the buy-versus-rent answer
    // (also when owning never pays off, where the table has no hours) and the share of each
    // difference that is resale assumed at the horizon.
    for s in &view.scenarios {
        let Some(d) = &s.difference else { continue };
        for sentence in [d.buy_vs_rent_words.as_ref(), d.resale_note.as_ref()]
            .into_iter()
            .flatten()
        {
            out.push(small(format!("{}: {sentence}", s.name)));
        }
    }
    out.push(small(
        "Ranking and differences use the decision total: the cash over the horizon, with work a scenario leaves undone priced at its shadow price (the on-demand price of the cheapest catalog offer that could do it) on its own line, plus commitments that fall due after the horizon. A scenario that leaves work undone ranks after every scenario that serves all of it.",
    ));
    let svg = cumulative_svg(view, Theme::Light, size(CHART_WIDTH, CUMULATIVE_HEIGHT))
        .map_err(|e| MemoError::Chart(format!("cumulative cost chart: {e}")))?;
    out.push(Block::Chart {
        svg,
        width: CHART_ON_PAGE,
        height: CHART_ON_PAGE * CUMULATIVE_HEIGHT as f32 / CHART_WIDTH as f32,
        caption: "Cumulative cash cost of each scenario; a marker shows where one scenario becomes cheaper than the reference for good (break-even).".to_owned(),
    });
    Ok(())
}

/// A share as a percentage to one decimal: `73.5%`.
fn percent(share: Decimal) -> String {
    format!("{}%", grouped(share * Decimal::ONE_HUNDRED, 1))
}

/// The Risk section: the analysis of the memo's own scenarios against the recommended one (see
/// the module list), or the sentence that none was run.
fn risk(input: &MemoInput<'_>, out: &mut Vec<Block>) -> Result<(), MemoError> {
    out.push(heading("Risk", false));
    let Some(r) = input.risk else {
        out.push(small(
            "No risk analysis was run on this plan, so the memo states no spread of outcomes: run one on the Compare screen (or with planner risk) and make the memo again.",
        ));
        return Ok(());
    };
    let view = input.view;
    let c = &view.currency;
    let name = |id: &str| name_of(view, id).unwrap_or(id).to_owned();
    let base = name(&r.baseline);
    let shape = match r.shape {
        planner_core::engine::risk::sampling::Shape::Uniform => "uniform over its range".to_owned(),
        s => format!("{} over its range with the mode at the price point", s.label()),
    };
    let marked = if r.uncertain.is_empty() {
        String::new()
    } else {
        let each: Vec<String> = r
            .uncertain
            .iter()
            .map(|u| format!("{} from {} to {}", u.path, u.low, u.high))
            .collect();
        format!(", and the figures of the plan marked uncertain ({})", each.join("; "))
    };
    out.push(small(format!(
        "{} draws of every ranged catalog figure the scenarios use{marked} ({shape}, Latin hypercube, the cloud rates of one provider moving together); one draw of a figure is shared by every scenario, so the chance that {base} is cheaper is counted on paired draws (ties count half). Decision totals in {c}.",
        r.draws
    )));
    let rows = r
        .scenarios
        .iter()
        .map(|s| {
            let odds = s
                .cheaper_than_baseline
                .map_or_else(|| "recommended".to_owned(), |p| percent(Decimal::ONE - p));
            Row::new(vec![
                s.name.clone(),
                money(s.point_total),
                money(s.total.p10),
                money(s.total.p50),
                money(s.total.p90),
                money(s.total.mean),
                odds,
            ])
        })
        .collect();
    out.push(Block::Table(Table {
        columns: vec![
            Column::left("Scenario", 2.2),
            Column::right("At the price point", 1.3),
            Column::right("P10", 1.2),
            Column::right("P50", 1.2),
            Column::right("P90", 1.2),
            Column::right("Mean", 1.2),
            Column::right("P(recommended cheaper)", 1.3),
        ],
        rows,
        size: 7.6,
    }));
    for s in r.scenarios.iter().filter(|s| s.id != r.baseline) {
        if let Some(p) = s.cheaper_than_baseline {
            out.push(small(format!(
                "P({base} cheaper than {}) = {} of the draws.",
                s.name,
                percent(Decimal::ONE - p)
            )));
        }
    }
    let labels = RiskLabels {
        currency: c.clone(),
        start: view.start,
    };
    risk_tornado(r, &labels, &base, out)?;
    let svg = risk_fan_svg(r, &labels, Theme::Light, size(CHART_WIDTH, CUMULATIVE_HEIGHT))
        .map_err(|e| MemoError::Chart(format!("risk fan chart: {e}")))?;
    out.push(Block::Chart {
        svg,
        width: CHART_ON_PAGE,
        height: CHART_ON_PAGE * CUMULATIVE_HEIGHT as f32 / CHART_WIDTH as f32,
        caption: format!(
            "Cumulative cash of each scenario over the draws: the band from P10 to P90, the line the P50, in {c}."
        ),
    });
    out.push(Block::Paragraph {
        text: format!(
            "Reproduce: seed {}, {} draws, {} distributions, correlation {} between the figures of one group. planner risk FILE --draws {} --seed {} --shape {} --correlation {} --baseline {} (FILE: this memo's scenarios as a scenario file, on catalog data version {}).",
            r.seed,
            r.draws,
            r.shape.label(),
            r.group_correlation,
            r.draws,
            r.seed,
            r.shape.name(),
            r.group_correlation,
            r.baseline,
            input.catalog_version
        ),
        style: Style::BODY,
    });
    Ok(())
}

/// The tornado of the alternative closest to the baseline at the price point: the table of its
/// bars and the chart.
fn risk_tornado(r: &RiskOutcome, labels: &RiskLabels, base: &str, out: &mut Vec<Block>) -> Result<(), MemoError> {
    let Some(t) = r
        .tornados
        .iter()
        .filter(|t| !t.bars.is_empty())
        .min_by_key(|t| t.at_point.abs())
    else {
        out.push(small(
            "No drawn figure moves the difference between the scenarios: there is no tornado to show.",
        ));
        return Ok(());
    };
    let alt = r
        .scenarios
        .iter()
        .find(|s| s.id == t.scenario)
        .map_or(t.scenario.as_str(), |s| s.name.as_str());
    let c = &labels.currency;
    out.push(Block::Subheading(format!("What drives {alt} against {base}")));
    out.push(small(format!(
        "The difference {alt} − {base} ({} {c} with every figure at its point) with one figure at a time at its P10 and at its P90, the others at their points; the largest swing first.",
        money(t.at_point)
    )));
    let rows = t
        .bars
        .iter()
        .map(|b| {
            let f = usize::try_from(b.figure).ok().and_then(|k| r.figures.get(k));
            Row::new(vec![
                f.map_or_else(
                    || format!("figure {}", b.figure),
                    |f| format!("{}.{}", f.entry, f.field),
                ),
                f.map_or_else(String::new, |f| {
                    format!("{} to {}", f.low.normalize(), f.high.normalize())
                }),
                money(b.at_p10),
                money(b.at_p90),
                money(b.swing),
            ])
        })
        .collect();
    out.push(Block::Table(Table {
        columns: vec![
            Column::left("Figure", 2.6),
            Column::right("Range", 1.3),
            Column::right(format!("At its P10 ({c})"), 1.3),
            Column::right(format!("At its P90 ({c})"), 1.3),
            Column::right("Swing", 1.2),
        ],
        rows,
        size: 7.6,
    }));
    if let Some(note) = &t.interaction_note {
        out.push(small(note.clone()));
    }
    let height = tornado_height(t.bars.len(), t.interaction_note.is_some());
    let svg = risk_tornado_svg(r, labels, &t.scenario, Theme::Light, size(CHART_WIDTH, height))
        .map_err(|e| MemoError::Chart(format!("tornado of {alt}: {e}")))?;
    out.push(Block::Chart {
        svg,
        width: CHART_ON_PAGE,
        height: CHART_ON_PAGE * height as f32 / CHART_WIDTH as f32,
        caption: format!(
            "Tornado of {alt} − {base}: each bar from the figure at its P10 to its P90; the line is every figure at its point."
        ),
    });
    Ok(())
}

/// The D-1 checklist status of each scenario and the log the statuses were read from.
fn compliance(input: &MemoInput<'_>, out: &mut Vec<Block>) {
    out.push(heading("Compliance (D-1 checklists)", false));
    let Some(c) = input.compliance else {
        out.push(small(
            "This memo was made from a scenario file, which holds no checklist record: no scenario is cleared.",
        ));
        return;
    };
    let facts = c
        .scenarios
        .iter()
        .map(|(id, cleared, status)| {
            let name = name_of(input.view, id).unwrap_or(id);
            let verdict = if *cleared { "Cleared" } else { "Not cleared" };
            (name.to_owned(), format!("{verdict}: {status}"))
        })
        .collect();
    out.push(Block::Facts(facts));
    let template = c.template.as_deref().map_or_else(
        || "No checklist answer is recorded in this workspace.".to_owned(),
        |t| format!("Answered against {t}."),
    );
    out.push(small(format!(
        "{template} A scenario is cleared when every blocking item that applies is passed or not applicable and a reviewer's sign-off covers the answers in force. Checklist log: {}{}",
        c.log,
        if c.broken {
            "."
        } else {
            "; the head hash printed here lets a later reader check that the log was not rewritten since this memo (planner audit verify)."
        }
    )));
}

fn key_facts(view: &DecisionView, s: &ScenarioFigures) -> Vec<(String, String)> {
    let c = &view.currency;
    let mut facts = vec![
        (
            format!("Decision total ({c})"),
            format!(
                "{} (rank {} of {})",
                money(s.decision_total),
                s.rank,
                view.scenarios.len()
            ),
        ),
        (
            format!("Total cash, within the horizon only ({c})"),
            money(s.total_cash),
        ),
        (format!("NPV, decision basis ({c})"), money(s.npv)),
        (
            format!("Cost per GPU-hour ({c})"),
            figure_cell(FigureKind::Money, s.cost_per_gpu_hour),
        ),
        (
            "Owned utilisation".to_owned(),
            figure_cell(FigureKind::Fraction, s.owned_utilisation),
        ),
        (
            "Energy / emissions".to_owned(),
            format!(
                "{} kWh / {} kg CO2e",
                grouped(s.energy_kwh, 0),
                grouped(s.emissions_kg, 0)
            ),
        ),
    ];
    if !s.unserved_cost.is_zero() {
        facts.push((
            format!("Unserved work ({c})"),
            format!(
                "{} PFLOP-h of demand left undone, priced at its shadow price: {}",
                grouped(s.unmet_pflop_h, 1),
                money(s.unserved_cost)
            ),
        ));
    }
    if !s.commitments_after_horizon.is_zero() {
        facts.push((
            format!("Commitments after the horizon ({c})"),
            money(s.commitments_after_horizon),
        ));
    }
    if !s.cloud_energy_kwh.is_zero() {
        facts.push((
            "Of which rented capacity (estimate)".to_owned(),
            format!(
                "{} kWh / {} kg CO2e, from accelerator power, the provider's PUE and the region's grid",
                grouped(s.cloud_energy_kwh, 0),
                grouped(s.cloud_emissions_kg, 0)
            ),
        ));
    }
    if let Some(d) = &s.difference {
        let against = name_of(view, &d.against).unwrap_or(&d.against);
        facts.push((
            format!("Against {against} ({c})"),
            format!(
                "{} decision total, {} NPV (decision basis){}{}",
                money(d.total),
                money(d.npv),
                d.break_even.as_ref().map_or_else(String::new, |b| format!(
                    "; {} is cheaper from month {} on (after {} months)",
                    name_of(view, &b.cheaper_after).unwrap_or(&b.cheaper_after),
                    b.month,
                    grouped(b.at_month, 1)
                )),
                [&d.break_even_note, &d.npv_note]
                    .into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(i, n)| if i == 0 { format!(". {n}") } else { format!(" {n}") })
                    .collect::<String>()
            ),
        ));
    }
    facts
}

/// The months of notice the memo prices a clause at: the start, one, one and a half and two
/// years in (plan months 0, 12, 18, 24), those inside the horizon.
pub const EXIT_MONTHS: [u32; 4] = [0, 12, 18, 24];

/// A layer's exit clause in words, and what leaving costs at [`EXIT_MONTHS`] (the engine's
/// figures, as `evaluate` reports them).
fn exit_clause_blocks(view: &DecisionView, l: &LayerExitCosts, out: &mut Vec<Block>) {
    let c = &l.clause;
    let fee = match c.fee {
        TerminationFee::Fixed(v) => format!("a fixed termination fee of {} {}", view.currency, money(v)),
        TerminationFee::ShareOfRemaining(share) => format!(
            "a termination fee of {}% of the commitment remaining after the notice",
            grouped(share * Decimal::ONE_HUNDRED, 2)
        ),
    };
    let kind = match l.kind {
        CommitmentKind::Reserved => "reserved capacity",
        CommitmentKind::Lease => "lease",
    };
    out.push(Block::Facts(vec![(
        format!("Layer {} exit clause", l.layer),
        format!(
            "{kind}, months {} to {} ({} to {}): {} month{} notice (still paid), {fee}, egress {} TB at {} {} per TB, offboarding {} {}",
            l.start_month + 1,
            l.end_month,
            view.start.plus(l.start_month),
            view.start.plus(l.end_month.saturating_sub(1)),
            c.notice_months,
            if c.notice_months == 1 { "" } else { "s" },
            grouped(c.data_tb, 2),
            view.currency,
            money(c.egress_per_tb),
            view.currency,
            money(c.offboarding),
        ),
    )]));
    let rows: Vec<Row> = EXIT_MONTHS
        .iter()
        .filter_map(|m| l.curve.get(*m as usize))
        .map(|x| {
            Row::new(vec![
                format!("{} ({})", x.notice_month + 1, view.start.plus(x.notice_month)),
                money(x.exit_charges),
                money(x.due_during_notice),
                money(x.avoided),
                money(x.net_saving),
            ])
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    out.push(Block::Table(Table {
        columns: vec![
            Column::left("Notice in month", 1.4),
            Column::right(format!("Exit charges ({})", view.currency), 1.3),
            Column::right("Due during notice", 1.3),
            Column::right("Avoided", 1.3),
            Column::right("Net saving", 1.3),
        ],
        rows,
        size: 7.6,
    }));
    out.push(small(format!(
        "Cost of leaving layer {} by the month notice is given: exit charges are the termination fee, egress and offboarding; avoided is what staying would still pay after the exit takes effect; net saving = avoided − exit charges (negative: leaving costs more than staying to the end of the term).",
        l.layer
    )));
}

fn scenario_section(
    input: &MemoInput<'_>,
    s: &ScenarioFigures,
    r: &ScenarioResult,
    out: &mut Vec<Block>,
) -> Result<(), MemoError> {
    let view = input.view;
    let recommended = input.draft.recommended.as_deref() == Some(s.id.as_str());
    out.push(heading(
        &format!(
            "Scenario: {}{}",
            s.name,
            if recommended { " (recommended)" } else { "" }
        ),
        true,
    ));
    out.push(Block::Facts(key_facts(view, s)));
    let svg = monthly_svg(view, &s.id, Theme::Light, size(CHART_WIDTH, MONTHLY_HEIGHT))
        .map_err(|e| MemoError::Chart(format!("monthly cost chart of {}: {e}", s.name)))?;
    out.push(Block::Chart {
        svg,
        width: CHART_ON_PAGE,
        height: CHART_ON_PAGE * MONTHLY_HEIGHT as f32 / CHART_WIDTH as f32,
        caption: format!(
            "{}: cash cost per month by category, in {} (income such as resale is drawn below zero).",
            s.name, view.currency
        ),
    });
    if !r.sizing.is_empty() {
        out.push(Block::Subheading("Sizing".to_owned()));
        out.push(sizing_table(r));
    }
    if !r.layer_plans.is_empty() {
        out.push(Block::Subheading("Rack, power and network plan".to_owned()));
        out.push(rack_plan_table(view.currency.as_str(), r));
    }
    operations::scenario_operations(input, r, out);
    exit_terms(input, s, r, out);
    out.push(Block::Subheading("Warnings".to_owned()));
    if s.warnings.is_empty() {
        out.push(small("The engine raised no warning for this scenario."));
    } else {
        for w in &s.warnings {
            out.push(Block::Paragraph {
                text: format!("• {w}"),
                style: Style::WARNING,
            });
        }
    }
    Ok(())
}

/// The memory sizing of each workload on each layer serving it.
fn sizing_table(r: &ScenarioResult) -> Block {
    Block::Table(Table {
        columns: vec![
            Column::left("Workload", 1.6),
            Column::left("Layer", 1.2),
            Column::right("Memory (GB)", 1.0),
            Column::right("GPUs for memory", 1.0),
            Column::left("Parallelism", 2.0),
        ],
        rows: r
            .sizing
            .iter()
            .map(|n| {
                Row::new(vec![
                    n.workload.clone(),
                    n.layer.clone(),
                    grouped(n.memory_gb, 1),
                    n.gpus_for_memory.to_string(),
                    parallelism_label(n.parallelism).to_owned(),
                ])
            })
            .collect(),
        size: 7.6,
    })
}

/// Each owned layer's racks, power, cooling and network, the fabric's cost in `currency`.
fn rack_plan_table(currency: &str, r: &ScenarioResult) -> Block {
    Block::Table(Table {
        columns: vec![
            Column::left("Layer", 1.2),
            Column::right("Servers", 0.8),
            Column::right("Per rack", 0.7),
            Column::right("Racks", 0.6),
            Column::right("kW/rack", 0.8),
            Column::right("IT kW", 0.8),
            Column::left("Cooling", 0.9),
            Column::right("Ports", 0.7),
            Column::right("Leaf/spine", 0.9),
            Column::right(format!("Fabric ({currency})"), 1.3),
        ],
        rows: r
            .layer_plans
            .iter()
            .map(|p| {
                Row::new(vec![
                    p.layer.clone(),
                    p.racks.servers.to_string(),
                    p.racks.servers_per_rack.to_string(),
                    p.racks.racks.to_string(),
                    grouped(p.racks.rack_kw, 1),
                    grouped(p.racks.it_kw, 1),
                    if p.racks.cooling_carries {
                        "carries it".to_owned()
                    } else {
                        "over its limit".to_owned()
                    },
                    p.network.ports.to_string(),
                    format!("{}/{}", p.network.leaf_switches, p.network.spine_switches),
                    money(p.network.cost),
                ])
            })
            .collect(),
        size: 7.6,
    })
}

/// The exit terms: each layer's fixed-month exit and fee, and each exit clause's cost of leaving;
/// or that every commitment runs its full term.
fn exit_terms(input: &MemoInput<'_>, s: &ScenarioFigures, r: &ScenarioResult, out: &mut Vec<Block>) {
    let view = input.view;
    let exits: Vec<(String, String)> = input
        .scenarios
        .iter()
        .find(|spec| spec.id == s.id)
        .map(|spec| {
            spec.layers
                .iter()
                .filter_map(|l| {
                    l.exit.as_ref().map(|e| {
                        (
                            format!("Layer {}", l.id),
                            format!(
                                "leaves at month {} ({}) for a fee of {} {}",
                                e.month + 1,
                                view.start.plus(e.month),
                                view.currency,
                                money(e.fee)
                            ),
                        )
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    out.push(Block::Subheading("Exit terms".to_owned()));
    if exits.is_empty() && r.exit_costs.is_empty() {
        out.push(small(
            "No layer of this scenario states an exit or an exit clause: every commitment runs its full term.",
        ));
    } else if !exits.is_empty() {
        out.push(Block::Facts(exits));
    }
    for l in &r.exit_costs {
        exit_clause_blocks(view, l, out);
    }
    ways_out::ways_out_blocks(view, input.ways_out, &s.id, out);
}

/// The ledger's opening: what it lists, where the catalog came from, and which figures it marks
/// stale (the thresholds, the day they are judged on, and how many).
fn ledger_intro(input: &MemoInput<'_>, stale: usize, figures: usize) -> String {
    let months = |n: u32| format!("{n} month{}", if n == 1 { "" } else { "s" });
    let f = input.freshness;
    let count = match stale {
        0 => format!("none of the {figures} catalog figures below is"),
        1 => format!("1 of the {figures} catalog figures below is"),
        n => format!("{n} of the {figures} catalog figures below are"),
    };
    format!(
        "Every figure each scenario relies on: taken from the catalog at the chosen point of its range (with its sources, as-of date and confidence: primary, secondary or estimate), or set by the planner with a reason. {} Figures older than {} (cloud prices) or {} (everything else) on the memo's date, {}, are marked stale: {count}. Overrides are the planner's own figures and are never marked stale.",
        input.catalog_statement.trim(),
        months(f.cloud_months),
        months(f.other_months),
        input.date
    )
}

/// Every catalog figure and override each scenario used, with its range, sources, date and
/// confidence; a catalog figure older than its threshold on `today` has its date marked stale.
fn assumptions(input: &MemoInput<'_>, today: AsOf, out: &mut Vec<Block>) {
    out.push(heading("Assumption ledger", true));
    let mut tables = Vec::new();
    let (mut stale, mut figures) = (0, 0);
    for r in &input.evaluation.scenarios {
        let rows = r
            .assumptions
            .iter()
            .map(|a| match &a.origin {
                Origin::Catalog {
                    entry,
                    field,
                    point,
                    low,
                    high,
                    currency,
                    as_of,
                    confidence,
                    sources,
                } => {
                    figures += 1;
                    let range = if low == high {
                        low.normalize().to_string()
                    } else {
                        format!("{}–{} ({})", low.normalize(), high.normalize(), point_label(*point))
                    };
                    let range = match currency {
                        Some(c) => format!("{range} {c}"),
                        None => range,
                    };
                    let age = stale_age(a, input.catalog, &input.freshness, today);
                    let row = Row::new(vec![
                        a.path.clone(),
                        a.value.normalize().to_string(),
                        format!("catalog {entry}.{field}: {range}"),
                        match age {
                            Some((age, limit)) => {
                                format!("{as_of}\nSTALE: {age} months old (threshold {limit})")
                            }
                            None => as_of.clone(),
                        },
                        format!("{confidence:?}").to_lowercase(),
                        sources.join("; "),
                    ]);
                    if age.is_some() {
                        stale += 1;
                        row.marked(3)
                    } else {
                        row
                    }
                }
                Origin::Override { reason } => Row::strong(vec![
                    a.path.clone(),
                    a.value.normalize().to_string(),
                    format!("override: {reason}"),
                    "–".to_owned(),
                    "planner".to_owned(),
                    "set by the planner".to_owned(),
                ]),
                Origin::Derived { rule } => Row::new(vec![
                    a.path.clone(),
                    a.value.normalize().to_string(),
                    format!("derived: {rule}"),
                    "–".to_owned(),
                    "derived".to_owned(),
                    "computed by the stated rule".to_owned(),
                ]),
            })
            .collect();
        tables.push((r.name.clone(), rows));
    }
    out.push(small(ledger_intro(input, stale, figures)));
    let demand = operations::demand_ledger_rows(input.workloads);
    if !demand.is_empty() {
        tables.insert(0, ("Workloads: declared demand".to_owned(), demand));
    }
    for (name, rows) in tables {
        out.push(Block::Subheading(name));
        out.push(Block::Table(Table {
            columns: vec![
                Column::left("Field", 1.7),
                Column::right("Value", 0.9),
                Column::left("Origin", 1.9),
                Column::left("As of", 1.0),
                Column::left("Confidence", 0.8),
                Column::left("Sources", 2.0),
            ],
            rows,
            size: 6.6,
        }));
    }
}

fn appendix(input: &MemoInput<'_>, out: &mut Vec<Block>) {
    let c = &input.view.currency;
    out.push(heading("Appendix: monthly ledger", true));
    out.push(small(format!(
        "Cash per month and category, in {c}, as the engine booked it (cells kept to 10 decimals, shown to the cent). Categories that stay zero throughout are left out."
    )));
    for r in &input.evaluation.scenarios {
        let used: Vec<Category> = Category::ALL
            .iter()
            .copied()
            .filter(|&cat| r.ledger.months.iter().any(|m| !m.cash.get(cat).is_zero()))
            .collect();
        let chunks: Vec<&[Category]> = if used.is_empty() {
            vec![&[][..]]
        } else {
            used.chunks(CATEGORIES_PER_TABLE).collect()
        };
        let last_chunk = chunks.len() - 1;
        for (i, cats) in chunks.into_iter().enumerate() {
            out.push(Block::Subheading(if last_chunk == 0 {
                r.name.clone()
            } else {
                format!("{} ({} of {})", r.name, i + 1, last_chunk + 1)
            }));
            let with_totals = i == last_chunk;
            let mut columns = vec![Column::left("Month", 0.9)];
            columns.extend(cats.iter().map(|&cat| Column::right(category_label(cat), 1.0)));
            if with_totals {
                columns.push(Column::right("Total", 1.1));
                columns.push(Column::right("Cumulative", 1.2));
            }
            let mut rows: Vec<Row> = r
                .ledger
                .months
                .iter()
                .map(|m| {
                    let mut cells = vec![m.month.to_string()];
                    cells.extend(
                        cats.iter()
                            .map(|&cat| money(planner_core::engine::blocks::finance::present(m.cash.get(cat)))),
                    );
                    if with_totals {
                        cells.push(money(planner_core::engine::blocks::finance::present(m.cash.total())));
                        cells.push(money(planner_core::engine::blocks::finance::present(m.cumulative_cash)));
                    }
                    Row::new(cells)
                })
                .collect();
            let mut total = vec!["Total".to_owned()];
            total.extend(
                cats.iter()
                    .map(|&cat| money(planner_core::engine::blocks::finance::present(r.totals.cash.get(cat)))),
            );
            if with_totals {
                total.push(money(planner_core::engine::blocks::finance::present(
                    r.totals.total_cash,
                )));
                total.push(String::new());
            }
            rows.push(Row::strong(total));
            out.push(Block::Table(Table {
                columns,
                rows,
                size: 6.6,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn money_is_grouped_by_thousands_to_the_cent() {
        assert_eq!(money(dec!(1234567.891)), "1,234,567.89");
        assert_eq!(money(dec!(-1234.5)), "-1,234.50");
        assert_eq!(money(dec!(999.995)), "1,000.00");
        assert_eq!(money(dec!(0)), "0.00");
        assert_eq!(money(dec!(-0.001)), "0.00");
        assert_eq!(grouped(dec!(123456), 0), "123,456");
        assert_eq!(grouped(dec!(12.25), 1), "12.2");
    }
}
