//! The after-tax view: the ledger's third view beside cash and book, with a tax profile only
//! (ENGINE_RULES.md, "The after-tax view").
//!
//! The company is assumed to have other taxable profit, so every deduction saves `rate ×` its
//! amount in the month it is taken, as a negative cost. Running costs are deducted as paid, lease
//! payments and loan interest likewise; loan principal, capital spending and unserved work (a
//! shadow price, not a payment) are not. Owned capital is depreciated for tax by the profile's
//! schedule from the month it is placed in service, each tax year's share in that tax year's last
//! month; at a sale the basis not yet deducted less the proceeds is deducted (a loss) or taxed (a
//! gain, depreciation recaptured at the same rate), so over an asset's life its deductions add up
//! to what was paid for it less what it sold for.

use rust_decimal::Decimal;
use serde::Serialize;

use crate::calendar::YearMonth;
use crate::engine::blocks::finance::{npv, to_ledger};
use crate::engine::model::ledger::{Amounts, Category, Ledger, TaxLines};
use crate::engine::model::scenario::{Financing, Owned};
use crate::engine::model::tax_profile::TaxProfile;

/// A scenario's after-tax figures over the horizon, beside its before-tax totals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AfterTax {
    /// The tax rate the savings are at.
    pub rate: Decimal,
    /// Total cash over the horizon less the tax saved within it.
    pub total_cash: Decimal,
    /// The decision total after tax: `total_cash` plus the commitments after the horizon, each
    /// less the tax its deduction saves when it falls due.
    pub decision_total: Decimal,
    /// NPV of the after-tax cash on the decision basis (the same discounting as `npv`).
    pub npv: Decimal,
    /// Every tax saving: the parts below added up.
    pub saving: Decimal,
    /// The saving on running costs, on tax depreciation, on loan interest, on lease payments and
    /// on disposals (negative: tax on a gain), within the horizon.
    pub saving_running_costs: Decimal,
    pub saving_depreciation: Decimal,
    pub saving_interest: Decimal,
    pub saving_lease: Decimal,
    pub saving_disposal: Decimal,
    /// The saving on commitments that fall due after the horizon.
    pub saving_after_horizon: Decimal,
}

/// One owned layer's tax state over the months.
#[derive(Debug, Clone, Default)]
struct LayerTax {
    /// Capital paid so far (hardware milestones, the other capital, loan principal and payoff).
    paid: Decimal,
    /// The share of the basis still held (1 until GPUs are retired early).
    held: Decimal,
    /// Deductions taken on the basis still held.
    deducted: Decimal,
    /// Tax years deducted so far.
    years: usize,
    /// The calendar month (1 to 12) the layer was placed in service in, once it is.
    in_service: Option<u32>,
    /// Disposed of whole: nothing more to deduct.
    done: bool,
}

/// What an owned layer's month gives the tax view.
pub(crate) struct OwnedMonth<'a> {
    pub layer: usize,
    pub owned: &'a Owned,
    /// The depreciable basis: hardware (not when leased) and the other capital.
    pub basis: Decimal,
    /// The share of the basis the GPUs retired early carry.
    pub retired_share: Decimal,
    /// The month's index and calendar month, and the horizon.
    pub m: u32,
    pub ym: YearMonth,
    pub horizon: u32,
    pub cash: &'a Amounts,
    pub book: &'a Amounts,
}

/// The tax view of one scenario, month by month.
#[derive(Debug, Clone)]
pub(crate) struct TaxRun {
    profile: TaxProfile,
    layers: Vec<LayerTax>,
    month: TaxLines,
}

impl TaxRun {
    pub(crate) fn new(profile: &TaxProfile, layers: usize) -> TaxRun {
        let fresh = LayerTax {
            held: Decimal::ONE,
            ..LayerTax::default()
        };
        TaxRun {
            profile: profile.clone(),
            layers: vec![fresh; layers],
            month: TaxLines::default(),
        }
    }

    /// An owned layer's month: interest or lease as paid, capital paid, the tax year's
    /// depreciation when the month ends one, and the disposal at an early sale or at the horizon.
    pub(crate) fn book_owned(&mut self, x: &OwnedMonth<'_>) {
        let Some(t) = self.layers.get_mut(x.layer) else { return };
        let financing = x.book.get(Category::Financing);
        match x.owned.financing {
            Financing::Loan { .. } => self.month.interest += financing,
            Financing::Lease { .. } => self.month.lease += financing,
            Financing::Cash => {}
        }
        let capital: Decimal = Category::ALL
            .iter()
            .filter(|c| c.is_capital())
            .map(|c| x.cash.get(*c))
            .sum();
        t.paid += capital + x.cash.get(Category::Financing) - financing;
        let proceeds = -x.cash.get(Category::Residual);
        let delivered = x.m >= x.owned.delivery_month;
        if x.m == x.owned.delivery_month {
            t.in_service = Some(u32::from(x.ym.month));
        }
        let mut disposed = Decimal::ZERO;
        let mut sale = false;
        if let Some(r) = x.owned.retired.filter(|r| r.month == x.m && delivered && !t.done) {
            sale = true;
            if r.gpus >= x.owned.gpus {
                disposed += t.paid - x.basis + x.basis * t.held - t.deducted;
                t.done = true;
            } else {
                disposed += x.retired_share * (x.basis * t.held - t.deducted);
                t.deducted *= Decimal::ONE - x.retired_share;
                t.held *= Decimal::ONE - x.retired_share;
            }
        }
        if let Some(placed) = t.in_service
            && !t.done
            && self.profile.ends_tax_year(u32::from(x.ym.month))
        {
            let share = self.profile.schedule_for(placed).get(t.years).copied();
            if let Some(share) = share {
                let dep = to_ledger(x.basis * t.held * share);
                self.month.depreciation += dep;
                t.deducted += dep;
                t.years += 1;
            }
        }
        if x.m + 1 == x.horizon && !t.done {
            sale = true;
            disposed += t.paid - x.basis + x.basis * t.held - t.deducted;
            t.done = true;
        }
        if sale || !proceeds.is_zero() {
            self.month.disposal += disposed - proceeds;
        }
    }

    /// Closes the month: the running costs of its book view, every line at the ledger's scale,
    /// the saving and the after-tax cash. `cash` and `book` are the month's settled views.
    pub(crate) fn close(&mut self, cash: &Amounts, book: &Amounts) -> TaxLines {
        let mut lines = std::mem::take(&mut self.month);
        lines.running_costs = Category::ALL
            .iter()
            .filter(|c| c.is_running_cost())
            .map(|c| book.get(*c))
            .sum();
        for v in [
            &mut lines.running_costs,
            &mut lines.depreciation,
            &mut lines.interest,
            &mut lines.lease,
            &mut lines.disposal,
        ] {
            *v = to_ledger(*v);
        }
        lines.deductions = lines.running_costs + lines.depreciation + lines.interest + lines.lease + lines.disposal;
        lines.saving = parts(&lines, self.profile.rate).iter().sum();
        lines.after_tax_cash = cash.total() - lines.saving;
        lines
    }
}

/// The saving on each line of a month, in the order running costs, depreciation, interest,
/// lease, disposal: `rate ×` the line, at the ledger's scale.
fn parts(lines: &TaxLines, rate: Decimal) -> [Decimal; 5] {
    [
        lines.running_costs,
        lines.depreciation,
        lines.interest,
        lines.lease,
        lines.disposal,
    ]
    .map(|d| to_ledger(rate * d))
}

/// The after-tax totals of a ledger whose months carry tax lines: `after` is what falls due after
/// the horizon (deductible when it falls due), `monthly` the discount rate a month.
pub fn after_tax(ledger: &Ledger, monthly: Decimal, after: &[Decimal], rate: Decimal) -> AfterTax {
    let mut sums = [Decimal::ZERO; 5];
    let mut flows = Vec::with_capacity(ledger.months.len() + after.len());
    let mut total_cash = Decimal::ZERO;
    for m in &ledger.months {
        let lines = m.tax.unwrap_or_default();
        for (sum, part) in sums.iter_mut().zip(parts(&lines, rate)) {
            *sum += part;
        }
        let after_tax = m.cash.total() - lines.saving;
        total_cash += after_tax;
        flows.push(after_tax);
    }
    let mut saving_after = Decimal::ZERO;
    let mut tail = Decimal::ZERO;
    for a in after {
        let saved = to_ledger(rate * *a);
        saving_after += saved;
        tail += *a - saved;
        flows.push(*a - saved);
    }
    let [running, depreciation, interest, lease, disposal] = sums;
    AfterTax {
        rate,
        total_cash,
        decision_total: total_cash + tail,
        npv: npv(monthly, &flows),
        saving: sums.iter().copied().sum::<Decimal>() + saving_after,
        saving_running_costs: running,
        saving_depreciation: depreciation,
        saving_interest: interest,
        saving_lease: lease,
        saving_disposal: disposal,
        saving_after_horizon: saving_after,
    }
}
