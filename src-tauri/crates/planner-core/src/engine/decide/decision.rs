//! The decision view: what a person compares on screen, in an export and in the memo.
//!
//! One evaluation of 2 to 8 scenarios becomes one [`DecisionView`]: the decision figures per
//! scenario, rounded once for presentation (money to cents, half-even, by `finance::present`),
//! the cumulative and monthly cash series the charts draw, and each scenario's difference to a
//! reference. The reference is the pinned baseline when there is one, else the first scenario;
//! `baseline_pinned` tells which, so a reader never mistakes list order for a choice.
//!
//! The screen, the XLSX/CSV export and the memo all read this one structure, so the figures they
//! show cannot drift apart.

use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

use crate::calendar::YearMonth;
use crate::engine::blocks::finance::present;
use crate::engine::costing::evaluate::{Evaluation, ScenarioResult};
use crate::engine::decide::compare::{BreakEven, compare};
use crate::engine::input::tax_spec::TaxBasis;
use crate::engine::model::assumption::Origin;
use crate::engine::model::ledger::Category;

/// The most scenarios compared side by side.
pub const MAX_COMPARED: usize = 8;

/// Horizons offered by the compare screen's control, in months.
pub const HORIZON_CHOICES: [u32; 4] = [12, 24, 36, 60];

/// Rounds a quantity that is not money (kWh, PFLOP-h, shares) for display, half-even.
fn quantity(x: Decimal, dp: u32) -> Decimal {
    x.round_dp_with_strategy(dp, RoundingStrategy::MidpointNearestEven)
        .normalize()
}

/// A scenario's cash in one cost category, month by month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CategorySeries {
    pub category: Category,
    /// Presented (cents), one value per month of the horizon.
    pub values: Vec<Decimal>,
    /// The category's total over the horizon, presented.
    pub total: Decimal,
}

/// A user's value that replaced a catalog figure in this scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct OverrideUsed {
    /// The scenario-file field, e.g. `layers[0].price_per_gpu_hour`.
    pub path: String,
    pub value: Decimal,
    pub reason: String,
}

/// A scenario against the reference scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Difference {
    /// The reference scenario's id.
    pub against: String,
    /// This scenario's decision total minus the reference's (negative: this one is cheaper);
    /// unserved work at its shadow price and commitments after the horizon included.
    pub total: Decimal,
    /// This scenario's resale at the horizon minus the reference's: the part of `total` that
    /// rests on resale assumed in the last month.
    pub residual: Decimal,
    /// That part in words ([`crate::engine::decide::compare::resale_share_of_difference`]); none without resale.
    pub resale_note: Option<String>,
    /// This scenario's NPV minus the reference's, on the decision basis.
    pub npv: Decimal,
    /// Why NPV and the decision total name different scenarios as the cheaper, when they do.
    pub npv_note: Option<String>,
    /// When the cumulative cash of the two cross for the last time, the scenario cheaper on the
    /// decision total being the cheaper after it.
    pub break_even: Option<BreakEven>,
    /// Why there is no break-even within the horizon when what falls due after it decides.
    pub break_even_note: Option<String>,
    /// Owning against renting: hours of use per day per owned GPU above which owning is cheaper.
    pub buy_vs_rent_hours_per_day: Option<Decimal>,
    /// Owning against renting in words, including when owning never pays off.
    pub buy_vs_rent_words: Option<String>,
    /// With a tax profile: the differences of the after-tax decision totals and NPVs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_tax: Option<AfterTaxDifference>,
}

/// A scenario against the reference after tax, presented.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AfterTaxDifference {
    /// This scenario's after-tax decision total minus the reference's.
    pub total: Decimal,
    /// This scenario's after-tax NPV minus the reference's.
    pub npv: Decimal,
}

/// A scenario's after-tax figures, presented (ENGINE_RULES.md, "The after-tax view").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AfterTaxFigures {
    /// The tax rate the savings are at.
    pub rate: Decimal,
    /// Total cash over the horizon less the tax saved within it.
    pub total_cash: Decimal,
    /// The decision total after tax (commitments after the horizon less the tax they save).
    pub decision_total: Decimal,
    pub npv: Decimal,
    /// Every tax the deductions save, within the horizon and after it.
    pub saving: Decimal,
}

/// The decision figures of one scenario, presented.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioFigures {
    pub id: String,
    pub name: String,
    pub total_cash: Decimal,
    pub total_book: Decimal,
    pub npv: Decimal,
    pub cost_per_gpu_hour: Option<Decimal>,
    pub cost_per_useful_pflop_hour: Option<Decimal>,
    pub cost_per_million_tokens: Option<Decimal>,
    /// Busy over available owned GPU-hours, as a fraction (4 decimals); none without owned GPUs.
    pub owned_utilisation: Option<Decimal>,
    pub idle_cost: Decimal,
    pub energy_kwh: Decimal,
    pub emissions_kg: Decimal,
    /// The part of energy and emissions that is an estimate for rented capacity.
    pub cloud_energy_kwh: Decimal,
    pub cloud_emissions_kg: Decimal,
    pub demand_pflop_h: Decimal,
    pub unmet_pflop_h: Decimal,
    pub residual_value: Decimal,
    pub commitments_after_horizon: Decimal,
    /// Work left undone at its shadow price (in `total_cash`, on its own line).
    pub unserved_cost: Decimal,
    /// What scenarios are ranked and compared on: `total_cash` plus the commitments after the
    /// horizon.
    pub decision_total: Decimal,
    /// 1 for the best: scenarios that serve all the work first, then by decision total (after
    /// tax when the view's `ranked_on` says so).
    pub rank: u32,
    pub warnings: Vec<String>,
    pub overrides: Vec<OverrideUsed>,
    /// Against the reference; `None` for the reference itself.
    pub difference: Option<Difference>,
    /// Cumulative cash at the end of each month, presented.
    pub cumulative: Vec<Decimal>,
    /// Cash per month, presented.
    pub monthly_total: Vec<Decimal>,
    /// Cash per month by category, for the categories that are not zero throughout.
    pub monthly: Vec<CategorySeries>,
    /// With a tax profile: the after-tax figures beside the ones above.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_tax: Option<AfterTaxFigures>,
}

/// 2 to 8 scenarios side by side over one horizon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DecisionView {
    pub title: String,
    pub currency: String,
    pub start: YearMonth,
    pub horizon_months: u32,
    /// The month of each column, from `start`.
    pub months: Vec<YearMonth>,
    /// The scenario the differences are taken against.
    pub reference: Option<String>,
    /// Whether the reference was pinned by the user (else it is the first scenario).
    pub baseline_pinned: bool,
    pub scenarios: Vec<ScenarioFigures>,
    /// With a tax profile: the basis `rank` orders the scenarios on (after or before tax). Absent
    /// without one, when the ranking is before tax as always.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranked_on: Option<TaxBasis>,
}

/// Whether a scenario serves all the work asked of it (unmet demand below rounding dust).
pub fn serves_all_work(r: &ScenarioResult) -> bool {
    r.totals.unserved_cost.is_zero() && r.totals.unmet_pflop_h <= rust_decimal::dec!(0.001)
}

/// The basis the scenarios are ranked on: after tax when the evaluation has a tax profile that
/// ranks after tax, else before tax (always so without a profile).
pub fn ranking_basis(eval: &Evaluation) -> TaxBasis {
    eval.ranked_on.unwrap_or(TaxBasis::BeforeTax)
}

/// The total a scenario is ranked on, on [`ranking_basis`]: its after-tax decision total, or its
/// decision total.
pub fn ranking_total(eval: &Evaluation, r: &ScenarioResult) -> Decimal {
    match (ranking_basis(eval), &r.totals.after_tax) {
        (TaxBasis::AfterTax, Some(t)) => t.decision_total,
        _ => r.totals.decision_total,
    }
}

/// The scenarios in decision order: every scenario that serves all the work ranks ahead of any
/// that leaves work undone, whatever the totals (a shadow price can be lower than what serving
/// the work really costs); within each group, the lower total on the ranking basis first (the
/// decision total, or after tax when the tax profile says so), ties in file order.
pub fn ranking(eval: &Evaluation) -> Vec<&ScenarioResult> {
    let mut order: Vec<&ScenarioResult> = eval.scenarios.iter().collect();
    order.sort_by(|a, b| {
        (!serves_all_work(a), ranking_total(eval, a)).cmp(&(!serves_all_work(b), ranking_total(eval, b)))
    });
    order
}

fn figures(eval: &Evaluation, r: &ScenarioResult, reference: Option<&ScenarioResult>) -> ScenarioFigures {
    let t = &r.totals;
    let months = r.ledger.months.len();
    let monthly = Category::ALL
        .iter()
        .filter_map(|&c| {
            let values: Vec<Decimal> = r.ledger.months.iter().map(|m| present(m.cash.get(c))).collect();
            let total = present(t.cash.get(c));
            (values.iter().any(|v| !v.is_zero()) || !total.is_zero()).then_some(CategorySeries {
                category: c,
                values,
                total,
            })
        })
        .collect();
    let difference = reference.filter(|b| b.id != r.id).map(|b| {
        let c = compare(eval, r, b);
        Difference {
            against: b.id.clone(),
            total: present(c.total_difference),
            residual: present(c.residual_difference),
            resale_note: crate::engine::decide::compare::resale_share_of_difference(&c, eval.horizon_months),
            npv: present(c.npv_difference),
            npv_note: c.npv_note.clone(),
            break_even_note: c.break_even_note.clone(),
            buy_vs_rent_hours_per_day: c.buy_vs_rent_hours_per_day.map(|h| quantity(h, 2)),
            buy_vs_rent_words: c.buy_vs_rent.as_ref().map(|x| x.words.clone()),
            break_even: c.break_even.map(|b| BreakEven {
                at_month: quantity(b.at_month, 2),
                ..b
            }),
            after_tax: c.after_tax_difference.map(|(total, npv)| AfterTaxDifference {
                total: present(total),
                npv: present(npv),
            }),
        }
    });
    let overrides = r
        .assumptions
        .iter()
        .filter_map(|a| match &a.origin {
            Origin::Override { reason } => Some(OverrideUsed {
                path: a.path.clone(),
                value: a.value.normalize(),
                reason: reason.clone(),
            }),
            Origin::Catalog { .. } | Origin::Derived { .. } => None,
        })
        .collect();
    let mut cumulative = Vec::with_capacity(months);
    let mut monthly_total = Vec::with_capacity(months);
    for m in &r.ledger.months {
        cumulative.push(present(m.cumulative_cash));
        monthly_total.push(present(m.cash.total()));
    }
    ScenarioFigures {
        id: r.id.clone(),
        name: r.name.clone(),
        total_cash: present(t.total_cash),
        total_book: present(t.total_book),
        npv: present(t.npv),
        cost_per_gpu_hour: t.cost_per_gpu_hour.map(present),
        cost_per_useful_pflop_hour: t.cost_per_useful_pflop_hour.map(present),
        cost_per_million_tokens: t.cost_per_million_tokens.map(present),
        owned_utilisation: t.owned_utilisation.map(|u| quantity(u, 4)),
        idle_cost: present(t.idle_cost),
        energy_kwh: quantity(t.energy_kwh, 0),
        emissions_kg: quantity(t.emissions_kg, 0),
        cloud_energy_kwh: quantity(t.cloud_energy_kwh, 0),
        cloud_emissions_kg: quantity(t.cloud_emissions_kg, 0),
        demand_pflop_h: quantity(t.demand_pflop_h, 1),
        unmet_pflop_h: quantity(t.unmet_pflop_h, 1),
        residual_value: present(t.residual_value),
        commitments_after_horizon: present(t.commitments_after_horizon),
        unserved_cost: present(t.unserved_cost),
        decision_total: present(t.decision_total),
        rank: ranking(eval)
            .iter()
            .position(|x| x.id == r.id)
            .map_or(0, |p| u32::try_from(p + 1).unwrap_or(u32::MAX)),
        warnings: r.warnings.clone(),
        overrides,
        difference,
        cumulative,
        monthly_total,
        monthly,
        after_tax: t.after_tax.as_ref().map(|a| AfterTaxFigures {
            rate: a.rate.normalize(),
            total_cash: present(a.total_cash),
            decision_total: present(a.decision_total),
            npv: present(a.npv),
            saving: present(a.saving),
        }),
    }
}

/// The decision view of an evaluation. `baseline` pins the reference scenario by id; when it is
/// absent or names no evaluated scenario, the first scenario is the reference.
pub fn decision_view(eval: &Evaluation, baseline: Option<&str>) -> DecisionView {
    let pinned = baseline.and_then(|id| eval.scenarios.iter().find(|s| s.id == id));
    let reference = pinned.or(eval.scenarios.first());
    DecisionView {
        title: eval.title.clone(),
        currency: eval.currency.clone(),
        start: eval.start,
        horizon_months: eval.horizon_months,
        months: (0..eval.horizon_months).map(|m| eval.start.plus(m)).collect(),
        reference: reference.map(|r| r.id.clone()),
        baseline_pinned: pinned.is_some(),
        scenarios: eval.scenarios.iter().map(|s| figures(eval, s, reference)).collect(),
        ranked_on: eval.ranked_on,
    }
}
