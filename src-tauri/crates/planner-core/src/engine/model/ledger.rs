//! The ledger: month × category, in two views.
//!
//! The **cash** view is what leaves (or enters) the bank each month: hardware by payment
//! milestone, loan and lease payments, electricity, cloud bills, and the resale of the hardware in
//! the last month (negative: money in). The **book** view replaces capital spending with
//! straight-line depreciation, keeps only the interest of a loan, and in the last month books the
//! difference between the assets' remaining book value and their resale price. Over a horizon at
//! whose end the hardware is sold, both views add up to the same total; they differ in timing.
//!
//! Every cell is stored at [`LEDGER_SCALE`](crate::engine::blocks::finance::LEDGER_SCALE) decimal places, so the
//! months add up exactly to the totals in any order; rounding to cents happens only when shown.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

use crate::calendar::YearMonth;

/// A ledger row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Hardware,
    Installation,
    Network,
    PowerDistribution,
    Cooling,
    Electricity,
    Colocation,
    Staff,
    Support,
    /// Running costs per hour of use that are not energy (an OEM's per-server-hour figure, or
    /// maintenance of the room and network as a share of their capital).
    Operations,
    Software,
    CloudCompute,
    Commitments,
    StorageEgress,
    Financing,
    TerminationFees,
    Adaptation,
    /// Work the scenario leaves undone, priced at its shadow price (see `evaluate`): not a
    /// payment, but a cost the decision must carry so that doing less never looks cheaper.
    UnservedWork,
    Depreciation,
    Residual,
}

/// The number of categories.
pub const CATEGORIES: usize = 20;

impl Category {
    pub const ALL: [Category; CATEGORIES] = [
        Category::Hardware,
        Category::Installation,
        Category::Network,
        Category::PowerDistribution,
        Category::Cooling,
        Category::Electricity,
        Category::Colocation,
        Category::Staff,
        Category::Support,
        Category::Operations,
        Category::Software,
        Category::CloudCompute,
        Category::Commitments,
        Category::StorageEgress,
        Category::Financing,
        Category::TerminationFees,
        Category::Adaptation,
        Category::UnservedWork,
        Category::Depreciation,
        Category::Residual,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Category::Hardware => "hardware",
            Category::Installation => "installation",
            Category::Network => "network",
            Category::PowerDistribution => "power_distribution",
            Category::Cooling => "cooling",
            Category::Electricity => "electricity",
            Category::Colocation => "colocation",
            Category::Staff => "staff",
            Category::Support => "support",
            Category::Operations => "operations",
            Category::Software => "software",
            Category::CloudCompute => "cloud_compute",
            Category::Commitments => "commitments",
            Category::StorageEgress => "storage_egress",
            Category::Financing => "financing",
            Category::TerminationFees => "termination_fees",
            Category::Adaptation => "adaptation",
            Category::UnservedWork => "unserved_work",
            Category::Depreciation => "depreciation",
            Category::Residual => "residual",
        }
    }

    /// A running cost, deducted as paid in the after-tax view: every category of the book view
    /// but capital (not in it), depreciation and disposal (the book's own), financing (interest
    /// and lease, taken apart) and unserved work (a shadow price, never paid).
    pub fn is_running_cost(self) -> bool {
        !self.is_capital()
            && !matches!(
                self,
                Category::Financing | Category::UnservedWork | Category::Depreciation | Category::Residual
            )
    }

    /// Capital spending: in the cash view, replaced by depreciation in the book view.
    pub fn is_capital(self) -> bool {
        matches!(
            self,
            Category::Hardware
                | Category::Installation
                | Category::Network
                | Category::PowerDistribution
                | Category::Cooling
        )
    }
}

/// Amounts by category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Amounts(pub [Decimal; CATEGORIES]);

impl Amounts {
    pub fn get(&self, c: Category) -> Decimal {
        self.0[c.index()]
    }

    pub fn add(&mut self, c: Category, amount: Decimal) {
        // Most cells of most months are zero, and a decimal addition costs a rescale even then:
        // skipping zeros is the largest saving in evaluation time (values are unchanged).
        if !amount.is_zero() {
            self.0[c.index()] += amount;
        }
    }

    /// Adds every cell of `other`.
    pub fn add_all(&mut self, other: &Amounts) {
        for c in Category::ALL {
            self.add(c, other.get(c));
        }
    }

    pub fn total(&self) -> Decimal {
        self.0.iter().filter(|v| !v.is_zero()).sum()
    }

    /// Brings every cell to the ledger's fixed scale.
    pub fn settle(&mut self) {
        for v in &mut self.0 {
            // Most cells are zero or already short; rounding only the long ones keeps this cheap.
            if v.scale() > crate::engine::blocks::finance::LEDGER_SCALE {
                *v = crate::engine::blocks::finance::to_ledger(*v);
            }
        }
    }
}

impl Serialize for Amounts {
    /// As a map from category name to amount, leaving out categories that are zero.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map: BTreeMap<&str, Decimal> = Category::ALL
            .iter()
            .filter(|c| !self.get(**c).is_zero())
            .map(|c| (c.name(), self.get(*c).normalize()))
            .collect();
        map.serialize(s)
    }
}

/// Quantities of one month, beside its money.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Usage {
    /// Useful PFLOP-hours asked for and served.
    pub demand_pflop_h: Decimal,
    pub served_pflop_h: Decimal,
    /// GPU-hours delivered to workloads (owned busy hours plus rented hours).
    pub delivered_gpu_h: Decimal,
    /// Tokens served or trained, where the model is known.
    pub tokens: Decimal,
    /// Owned GPU-hours available (after delivery, times availability) and used.
    pub owned_available_gpu_h: Decimal,
    pub owned_busy_gpu_h: Decimal,
    /// The share of owned layers' fixed costs that paid for idle hours: each layer's fixed costs
    /// of the month × (available − busy) ÷ available GPU-hours (ENGINE_RULES.md, "Decision
    /// figures").
    pub idle_cost: Decimal,
    /// All energy and emissions: owned (metered) plus rented (estimated).
    pub energy_kwh: Decimal,
    pub emissions_kg: Decimal,
    /// The estimated part: rented layers' energy and emissions.
    pub cloud_energy_kwh: Decimal,
    pub cloud_emissions_kg: Decimal,
}

/// One month of the ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LedgerMonth {
    pub month: YearMonth,
    pub cash: Amounts,
    pub book: Amounts,
    pub cumulative_cash: Decimal,
    pub usage: Usage,
    /// The month's tax lines, with a tax profile only (absent without one, so a plan without a
    /// profile serialises as before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tax: Option<TaxLines>,
}

/// One month's tax view (ENGINE_RULES.md, "The after-tax view"): what is deducted, by kind, and
/// the tax that saves. Every line is at the ledger's scale; a negative disposal line is a gain on
/// a sale, taxed (depreciation recaptured).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct TaxLines {
    /// Running costs deducted as paid: every running cost of the book view (energy, room, staff,
    /// support, operations, software, cloud, commitments, storage and egress, termination fees,
    /// adaptation); never unserved work.
    pub running_costs: Decimal,
    /// Tax depreciation of owned capital: each tax year's share, booked in its last month.
    pub depreciation: Decimal,
    /// Loan interest (never principal).
    pub interest: Decimal,
    /// Lease payments of leased hardware.
    pub lease: Decimal,
    /// At a sale: the basis not yet deducted less the proceeds (negative: a gain, taxed).
    pub disposal: Decimal,
    /// The sum of the lines above.
    pub deductions: Decimal,
    /// The tax the deductions save (negative: tax owed on a gain): the sum of each line × rate.
    pub saving: Decimal,
    /// The month's cash less the saving.
    pub after_tax_cash: Decimal,
}

/// A scenario's ledger over the horizon.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Ledger {
    pub months: Vec<LedgerMonth>,
}

impl Ledger {
    pub fn cash_totals(&self) -> Amounts {
        let mut t = Amounts::default();
        for m in &self.months {
            t.add_all(&m.cash);
        }
        t
    }

    pub fn book_totals(&self) -> Amounts {
        let mut t = Amounts::default();
        for m in &self.months {
            t.add_all(&m.book);
        }
        t
    }

    /// Cash per month, for NPV and break-even.
    pub fn cash_flows(&self) -> Vec<Decimal> {
        self.months.iter().map(|m| m.cash.total()).collect()
    }

    /// Renders the ledger as a fixed-width text table rounded to cents (half-even), one row per
    /// month and one column per category that is not zero throughout: for review and snapshots.
    pub fn table(&self, book: bool) -> String {
        let used: Vec<Category> = Category::ALL
            .iter()
            .copied()
            .filter(|c| {
                self.months
                    .iter()
                    .any(|m| !(if book { m.book } else { m.cash }).get(*c).is_zero())
            })
            .collect();
        let mut out = String::from("month  ");
        for c in &used {
            out.push_str(&format!(" {:>14}", c.name()));
        }
        out.push_str(&format!(" {:>14}\n", "total"));
        for m in &self.months {
            let a = if book { m.book } else { m.cash };
            out.push_str(&format!("{}", m.month));
            for c in &used {
                out.push_str(&format!(" {:>14}", crate::engine::blocks::finance::present(a.get(*c))));
            }
            out.push_str(&format!(
                " {:>14}\n",
                crate::engine::blocks::finance::present(a.total())
            ));
        }
        let t = if book { self.book_totals() } else { self.cash_totals() };
        out.push_str("total  ");
        for c in &used {
            out.push_str(&format!(" {:>14}", crate::engine::blocks::finance::present(t.get(*c))));
        }
        out.push_str(&format!(
            " {:>14}\n",
            crate::engine::blocks::finance::present(t.total())
        ));
        out
    }
}
