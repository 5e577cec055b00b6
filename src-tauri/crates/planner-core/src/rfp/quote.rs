//! RFP quotes: a vendor's quoted price for one supply option, read from a spreadsheet row and
//! turned into a supply layer on the engine's footing.
//!
//! The store reads a CSV or XLSX file into a [`QuoteTable`] (cells as the file holds them: text,
//! numbers, dates); [`parse_quotes`] checks the header against the template documented in
//! `catalogs/templates/README.md`, reads every row into a [`Quote`], checks each quote
//! ([`Quote::problems`]) against the catalog and the workspace's currency, and refuses the whole
//! table if anything is wrong: every problem comes back located to the row and column a person
//! sees in the spreadsheet (header = row 1, column A = 1). [`Quote::to_layer_spec`] turns a quote
//! into a [`LayerSpec`] in the workspace's currency whose quoted prices are [`Override`]s with the
//! quote as their reason, so the assumption ledger shows where each price comes from.
//!
//! Shares (support per year, SLA uptime, SLA refund) are fractions as in the scenario file
//! (`0.15`); a spreadsheet may also write them as percentages with a `%` sign (`15%`), which is
//! what a percent-formatted XLSX cell holds anyway. A bare number above 1 is refused rather than
//! guessed at.
//!
//! A reserved quote commits for any whole number of months (`commitment_months`, 1 to 120): 12
//! and 36 become the scenario file's `"1y"` and `"3y"`, any other length `{"months": n}`, which
//! the engine prices only at the quoted price. Its exit terms (`exit_notice_months`, `exit_fee`,
//! `exit_egress_per_tb`, `exit_data_tb`, `exit_offboarding`) become the layer's `exit_clause`.
//! The termination fee is a fixed amount in the quote's currency, or a share of the commitment
//! still due once the notice has run: a percentage (`25%`), or a number between 0 and 1
//! exclusive, which is what a percent-formatted XLSX cell holds (a fee below one unit of
//! currency is no fee a contract states).

use std::collections::HashMap;

use rust_decimal::Decimal;
use rust_decimal::dec;
use serde::{Deserialize, Serialize};

use crate::catalog::Catalog;
use crate::catalog::provenance::AsOf;
use crate::engine::input::layer_fields;
use crate::engine::input::scenario_file::empty_layer;
use crate::engine::input::scenario_file::{CommitTerm, LayerKind, LayerSpec, Override};
use crate::engine::workspace::content::WorkspaceSettings;
use crate::error::{ErrorCode, ErrorDetail, PlannerError};
use crate::exit_clause::{ExitClause, TerminationFee};
use crate::problem::MAX_HORIZON_MONTHS;

/// The kind of supply a quote offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum QuoteKind {
    /// Hardware bought: a price per GPU, delivered after the lead time.
    Owned,
    /// Cloud capacity committed for a whole number of months (12, 36, or any other term).
    Reserved,
    /// Pay-as-you-go cloud capacity.
    OnDemand,
    /// Interruptible cloud capacity.
    Spot,
}

impl QuoteKind {
    pub const ALL: [QuoteKind; 4] = [
        QuoteKind::Owned,
        QuoteKind::Reserved,
        QuoteKind::OnDemand,
        QuoteKind::Spot,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            QuoteKind::Owned => "owned",
            QuoteKind::Reserved => "reserved",
            QuoteKind::OnDemand => "on-demand",
            QuoteKind::Spot => "spot",
        }
    }

    /// Whether the quote rents capacity by the GPU-hour.
    pub fn is_rental(self) -> bool {
        self != QuoteKind::Owned
    }

    fn layer_kind(self) -> LayerKind {
        match self {
            QuoteKind::Owned => LayerKind::Owned,
            QuoteKind::Reserved => LayerKind::Reserved,
            QuoteKind::OnDemand => LayerKind::OnDemand,
            QuoteKind::Spot => LayerKind::Spot,
        }
    }
}

/// Where a quote was read from: the file and the spreadsheet row (header = row 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct QuoteSource {
    pub file: String,
    pub row: u32,
}

/// One vendor quote, as quoted: amounts in the quote's own currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Quote {
    pub vendor: String,
    /// The vendor's reference for the quote; unique per vendor.
    pub quote_id: String,
    pub offer_kind: QuoteKind,
    /// Catalog accelerator id.
    pub accelerator: String,
    /// Owned: GPUs bought. Reserved: GPUs committed. On-demand and spot: the most GPUs offered
    /// (absent: as many as needed).
    pub gpus: Option<u32>,
    /// ISO 4217 code of every amount in the quote.
    pub currency: String,
    /// Rentals: price per GPU-hour.
    pub price_per_gpu_hour: Option<Decimal>,
    /// Owned: purchase price per GPU, server share included.
    pub hardware_price_per_gpu: Option<Decimal>,
    /// Owned: one-off installation and commissioning for the whole order.
    pub installation: Option<Decimal>,
    /// Owned: support contract per year as a share of the hardware price.
    pub support_rate_per_year: Option<Decimal>,
    /// Months from order until the capacity is available.
    pub lead_time_months: Option<u32>,
    /// Reserved: the commitment in whole months (1 to 120; 12 and 36 are the catalog's terms).
    pub commitment_months: Option<u32>,
    /// Spot: expected interruptions per hour.
    pub interruptions_per_hour: Option<Decimal>,
    /// Data egress per TB: the vendor scenario's egress price (and the exit clause's, when the
    /// quote states no `exit_egress_per_tb`).
    pub egress_per_tb: Option<Decimal>,
    /// Reserved, exit terms: months between notice and the exit taking effect.
    pub exit_notice_months: Option<u32>,
    /// Reserved, exit terms: the termination fee, fixed (in the quote's currency) or a share of
    /// the commitment still due once the notice has run.
    pub exit_fee: Option<TerminationFee>,
    /// Reserved, exit terms: egress price per TB when leaving (default: `egress_per_tb`).
    pub exit_egress_per_tb: Option<Decimal>,
    /// Reserved, exit terms: TB to move out when leaving.
    pub exit_data_tb: Option<Decimal>,
    /// Reserved, exit terms: one-off cost of offboarding (migration, decommissioning, legal).
    pub exit_offboarding: Option<Decimal>,
    /// Uptime the SLA promises, as a fraction (0.999).
    pub sla_uptime: Option<Decimal>,
    /// Share of the monthly bill refunded when the SLA is missed.
    pub sla_refund_share: Option<Decimal>,
    /// Support response time, in hours.
    pub response_hours: Option<Decimal>,
    /// Expert (solutions-engineer) hours included per month.
    pub expert_hours_per_month: Option<Decimal>,
    /// Last day the quoted prices hold.
    pub valid_until: AsOf,
    pub notes: Option<String>,
    pub source: QuoteSource,
}

/// One thing wrong with a quote: the template column at fault and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct QuoteProblem {
    /// The template column, e.g. `price_per_gpu_hour`.
    pub field: String,
    pub kind: String,
    pub message: String,
}

/// A cell as the file holds it. The reader converts spreadsheet floats to decimals through their
/// shortest round-trip text and date cells to dates; everything else is text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Text(String),
    Number(Decimal),
    Date(AsOf),
    /// A cell the reader could not take (an Excel error such as `#DIV/0!`), described.
    Invalid(String),
}

impl Cell {
    fn is_empty(&self) -> bool {
        match self {
            Cell::Empty => true,
            Cell::Text(t) => t.trim().is_empty(),
            _ => false,
        }
    }
}

/// One row of the table: its spreadsheet row number and its cells, the first in column 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    pub row: u32,
    pub cells: Vec<Cell>,
}

/// A table read from a quote file: every row with its row number, the header first. Rows whose
/// cells are all empty may be left out by the reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteTable {
    /// The file as the user named it, for messages.
    pub file: String,
    pub rows: Vec<TableRow>,
}

/// How a column's cells are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ColumnType {
    Text,
    Kind,
    Money,
    Count,
    Share,
    Number,
    /// A termination fee: a fixed amount, or a share (`25%`, or a number between 0 and 1).
    Fee,
    Date,
}

/// A column of the template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    /// Whether the header must have it (some optional columns are required by some kinds).
    pub required: bool,
    ty: ColumnType,
}

const fn col(name: &'static str, required: bool, ty: ColumnType) -> Column {
    Column { name, required, ty }
}

/// The template's columns, in the template's order (see `catalogs/templates/README.md`).
pub const COLUMNS: [Column; 25] = [
    col("vendor", true, ColumnType::Text),
    col("quote_id", true, ColumnType::Text),
    col("offer_kind", true, ColumnType::Kind),
    col("accelerator", true, ColumnType::Text),
    col("gpus", false, ColumnType::Count),
    col("currency", true, ColumnType::Text),
    col("price_per_gpu_hour", false, ColumnType::Money),
    col("hardware_price_per_gpu", false, ColumnType::Money),
    col("installation", false, ColumnType::Money),
    col("support_rate_per_year", false, ColumnType::Share),
    col("lead_time_months", false, ColumnType::Count),
    col("commitment_months", false, ColumnType::Count),
    col("interruptions_per_hour", false, ColumnType::Number),
    col("egress_per_tb", false, ColumnType::Money),
    col("exit_notice_months", false, ColumnType::Count),
    col("exit_fee", false, ColumnType::Fee),
    col("exit_egress_per_tb", false, ColumnType::Money),
    col("exit_data_tb", false, ColumnType::Number),
    col("exit_offboarding", false, ColumnType::Money),
    col("sla_uptime", false, ColumnType::Share),
    col("sla_refund_share", false, ColumnType::Share),
    col("response_hours", false, ColumnType::Number),
    col("expert_hours_per_month", false, ColumnType::Number),
    col("valid_until", true, ColumnType::Date),
    col("notes", false, ColumnType::Text),
];

/// The exit-term columns: stating any of them gives a reserved quote an exit clause.
pub const EXIT_COLUMNS: [&str; 5] = [
    "exit_notice_months",
    "exit_fee",
    "exit_egress_per_tb",
    "exit_data_tb",
    "exit_offboarding",
];

/// The longest commitment a quote may state, in months (the longest plan).
pub const MAX_COMMITMENT_MONTHS: u32 = MAX_HORIZON_MONTHS;

/// A header as written, normalised for matching: trimmed, lower case, spaces and dashes as `_`.
pub fn normalise_header(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .map(|c| if c == ' ' || c == '-' { '_' } else { c })
        .collect()
}

/// The longest cell text a message quotes, in characters; longer text is cut with `…`.
pub const QUOTED_CHARS: usize = 200;

/// Cell text as a message may quote it: control characters (NUL included) dropped, line breaks
/// and tabs as spaces, cut to [`QUOTED_CHARS`] characters with `…`.
pub fn quoted(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text
        .chars()
        .filter_map(|c| match c {
            '\t' | '\n' | '\r' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .enumerate()
    {
        if n == QUOTED_CHARS {
            out.push('…');
            break;
        }
        out.push(c);
    }
    out
}

/// The date an Excel serial day number stands for (1900 date system; serial 61 is 1900-03-01).
/// A fraction (a time of day) is ignored. `None` outside 1900-03-01 to 2200-12-31.
pub fn excel_serial_date(serial: Decimal) -> Option<AsOf> {
    let days = i64::try_from(serial.trunc()).ok()?;
    if !(61..=110_937).contains(&days) {
        return None;
    }
    // Days since 1899-12-30; serial 25569 is 1970-01-01.
    let (year, month, day) = crate::calendar::civil_from_days(days - 25_569);
    AsOf::ymd(u16::try_from(year).ok()?, month, day)
}

fn is_currency_code(c: &str) -> bool {
    c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase())
}

/// The workspace's rate for `currency` (1 for its own currency), if it has one that the engine
/// accepts (well formed, inside the plausibility band of [`crate::engine::input::fx`]): a quote converts with
/// exactly the rates a scenario's figures do.
fn rate_for(settings: &WorkspaceSettings, currency: &str) -> Option<Decimal> {
    if currency == settings.currency {
        return Some(Decimal::ONE);
    }
    crate::engine::input::fx::check(&settings.fx, &settings.currency)
        .rates
        .get(currency)
        .map(|c| c.per_unit)
}

/// The problems of one quote, in the order they are found.
#[derive(Default)]
struct Problems(Vec<QuoteProblem>);

impl Problems {
    fn push(&mut self, field: &str, kind: &str, message: String) {
        self.0.push(QuoteProblem {
            field: field.to_owned(),
            kind: kind.to_owned(),
            message,
        });
    }

    /// A figure a quote of kind `kind` needs (`what`, in words), missing unless `present`.
    fn needs(&mut self, kind: &str, present: bool, field: &str, what: &str) {
        if !present {
            self.push(field, "missing-value", format!("a `{kind}` quote needs {what}"));
        }
    }

    /// A figure a quote of kind `kind` does not take, given when `present`.
    fn refuses(&mut self, kind: &str, present: bool, field: &str) {
        if present {
            self.push(
                field,
                "not-applicable",
                format!("`{field}` does not apply to a `{kind}` quote; leave the cell empty"),
            );
        }
    }
}

impl Quote {
    /// The reason every figure of this quote carries in the assumption ledger.
    pub fn reason(&self) -> String {
        format!(
            "RFP quote {} {} (valid until {})",
            self.vendor, self.quote_id, self.valid_until
        )
    }

    /// A layer id made from the vendor and quote id: lower case, letters, digits and dashes.
    pub fn layer_id(&self) -> String {
        let mut id = String::new();
        for c in format!("{} {}", self.vendor, self.quote_id).chars() {
            if c.is_alphanumeric() {
                id.extend(c.to_lowercase());
            } else if !id.ends_with('-') && !id.is_empty() {
                id.push('-');
            }
        }
        id.trim_end_matches('-').to_owned()
    }

    /// Everything wrong with the quote by itself, against the catalog and the workspace's
    /// currency; empty when the quote can become a layer.
    pub fn problems(&self, catalog: &Catalog, settings: &WorkspaceSettings) -> Vec<QuoteProblem> {
        let mut out = Problems::default();
        self.reference_problems(catalog, settings, &mut out);
        self.range_problems(&mut out);
        self.kind_problems(&mut out);
        out.0
    }

    /// The columns required on every row, the accelerator's catalog id, and the currency (an
    /// ISO code the workspace has a rate for).
    fn reference_problems(&self, catalog: &Catalog, settings: &WorkspaceSettings, out: &mut Problems) {
        for (field, value) in [
            ("vendor", &self.vendor),
            ("quote_id", &self.quote_id),
            ("accelerator", &self.accelerator),
            ("currency", &self.currency),
        ] {
            if value.trim().is_empty() {
                out.push(
                    field,
                    "missing-value",
                    format!("give the {field}; this column is required on every row"),
                );
            }
        }
        if !self.accelerator.trim().is_empty() && catalog.accelerator(&self.accelerator).is_none() {
            out.push(
                "accelerator",
                "unknown-reference",
                format!(
                    "no accelerator has id `{}` in the catalog; use a catalog id such as `nvidia-h100-sxm` (see `planner catalog list --kind accelerators`)",
                    quoted(&self.accelerator)
                ),
            );
        }
        if !self.currency.trim().is_empty() {
            if !is_currency_code(&self.currency) {
                out.push(
                    "currency",
                    "unknown-value",
                    format!(
                        "`{}` is not an ISO 4217 code; write three capital letters, e.g. USD or EUR",
                        quoted(&self.currency)
                    ),
                );
            } else if rate_for(settings, &self.currency).is_none() {
                out.push(
                    "currency",
                    "no-exchange-rate",
                    format!(
                        "the quote is in {} and the workspace in {}, which has no usable rate for {}; add the rate to the workspace settings (exchange rates), or correct it there, or ask the vendor for a quote in {}",
                        self.currency, settings.currency, self.currency, settings.currency
                    ),
                );
            }
        }
    }

    /// Numbers out of their range: zero GPUs, negative amounts, shares outside 0..1.
    fn range_problems(&self, out: &mut Problems) {
        if self.gpus == Some(0) {
            out.push(
                "gpus",
                "out-of-range",
                "zero GPUs supply nothing; give the number of GPUs quoted".to_owned(),
            );
        }
        for (field, value) in [
            ("price_per_gpu_hour", self.price_per_gpu_hour),
            ("hardware_price_per_gpu", self.hardware_price_per_gpu),
            ("installation", self.installation),
            ("egress_per_tb", self.egress_per_tb),
            ("interruptions_per_hour", self.interruptions_per_hour),
            ("exit_egress_per_tb", self.exit_egress_per_tb),
            ("exit_data_tb", self.exit_data_tb),
            ("exit_offboarding", self.exit_offboarding),
            ("response_hours", self.response_hours),
            ("expert_hours_per_month", self.expert_hours_per_month),
            (
                "exit_fee",
                match self.exit_fee {
                    Some(TerminationFee::Fixed(v) | TerminationFee::ShareOfRemaining(v)) => Some(v),
                    None => None,
                },
            ),
        ] {
            if let Some(v) = value
                && v < Decimal::ZERO
            {
                out.push(field, "negative-value", format!("{v} is negative; give zero or more"));
            }
        }
        for (field, value) in [
            ("support_rate_per_year", self.support_rate_per_year),
            ("sla_uptime", self.sla_uptime),
            ("sla_refund_share", self.sla_refund_share),
        ] {
            match value {
                Some(v) if v > Decimal::ONE => out.push(
                    field,
                    "out-of-range",
                    format!(
                        "{v} is above 1; a share is a fraction or a percentage with its sign: write {} or {v}%",
                        (v / dec!(100)).normalize()
                    ),
                ),
                Some(v) if v < Decimal::ZERO => out.push(
                    field,
                    "out-of-range",
                    format!("{v} is negative; a share lies between 0 and 1 (0% and 100%)"),
                ),
                _ => {}
            }
        }
        if let Some(TerminationFee::ShareOfRemaining(v)) = self.exit_fee
            && v > Decimal::ONE
        {
            out.push(
                "exit_fee",
                "out-of-range",
                format!(
                    "a fee of {}% is more than the whole remaining commitment; give a share up to 100%, or a fixed amount without a % sign",
                    (v * dec!(100)).normalize()
                ),
            );
        }
        if let Some(m) = self.exit_notice_months
            && m > MAX_HORIZON_MONTHS
        {
            out.push(
                "exit_notice_months",
                "out-of-range",
                format!("{m} months of notice is longer than any plan ({MAX_HORIZON_MONTHS} months at most)"),
            );
        }
    }

    /// The figures the offer kind needs, and those it refuses: owned hardware is bought (GPUs
    /// and a price per GPU), rentals are priced per GPU-hour; a reservation commits GPUs for a
    /// whole number of months and may state exit terms; spot capacity states its interruptions.
    fn kind_problems(&self, out: &mut Problems) {
        let kind = self.offer_kind.as_str();
        match self.offer_kind {
            QuoteKind::Owned => {
                out.needs(kind, self.gpus.is_some(), "gpus", "the number of GPUs bought");
                out.needs(
                    kind,
                    self.hardware_price_per_gpu.is_some(),
                    "hardware_price_per_gpu",
                    "the purchase price per GPU (`hardware_price_per_gpu`)",
                );
                out.refuses(kind, self.price_per_gpu_hour.is_some(), "price_per_gpu_hour");
            }
            QuoteKind::Reserved | QuoteKind::OnDemand | QuoteKind::Spot => {
                out.needs(
                    kind,
                    self.price_per_gpu_hour.is_some(),
                    "price_per_gpu_hour",
                    "its price per GPU-hour (`price_per_gpu_hour`; divide an instance price by its GPUs)",
                );
                out.refuses(kind, self.hardware_price_per_gpu.is_some(), "hardware_price_per_gpu");
                out.refuses(kind, self.installation.is_some(), "installation");
                if self.support_rate_per_year.is_some() {
                    out.push(
                        "support_rate_per_year",
                        "not-applicable",
                        format!(
                            "`support_rate_per_year` is a share of a hardware price and does not apply to a `{kind}` quote (a rented layer has no support figure): include a support plan in `price_per_gpu_hour` and say so in `notes`, and leave this cell empty"
                        ),
                    );
                }
            }
        }
        if self.offer_kind == QuoteKind::Reserved {
            out.needs(kind, self.gpus.is_some(), "gpus", "the number of GPUs committed");
            match self.commitment_months {
                None => out.needs(
                    kind,
                    false,
                    "commitment_months",
                    "its commitment in whole months (`commitment_months`, e.g. 1, 6, 12 or 36)",
                ),
                Some(m) if m == 0 || m > MAX_COMMITMENT_MONTHS => out.push(
                    "commitment_months",
                    "out-of-range",
                    format!(
                        "a commitment of {m} months is outside 1 to {MAX_COMMITMENT_MONTHS} months; give the term in whole months"
                    ),
                ),
                Some(_) => {}
            }
            self.exit_problems(out);
        } else {
            out.refuses(kind, self.commitment_months.is_some(), "commitment_months");
            for field in EXIT_COLUMNS {
                if self.states(field) {
                    out.push(
                        field,
                        "not-applicable",
                        format!(
                            "exit terms price ending a reservation early; a `{kind}` quote commits to no term a clause could end: leave `{field}` empty (a data egress price goes in `egress_per_tb`)"
                        ),
                    );
                }
            }
        }
        if self.offer_kind == QuoteKind::Spot {
            out.needs(
                kind,
                self.interruptions_per_hour.is_some(),
                "interruptions_per_hour",
                "the expected interruptions per hour (`interruptions_per_hour`, e.g. 0.25 for one per 4 hours)",
            );
        } else {
            out.refuses(kind, self.interruptions_per_hour.is_some(), "interruptions_per_hour");
        }
    }

    /// Whether the quote states the exit-term column `field`.
    fn states(&self, field: &str) -> bool {
        match field {
            "exit_notice_months" => self.exit_notice_months.is_some(),
            "exit_fee" => self.exit_fee.is_some(),
            "exit_egress_per_tb" => self.exit_egress_per_tb.is_some(),
            "exit_data_tb" => self.exit_data_tb.is_some(),
            "exit_offboarding" => self.exit_offboarding.is_some(),
            _ => false,
        }
    }

    /// Whether the quote states exit terms (any exit column).
    pub fn states_exit_terms(&self) -> bool {
        EXIT_COLUMNS.iter().any(|f| self.states(f))
    }

    /// A reservation's exit terms: once any is stated, the notice and the fee make the clause
    /// (write 0 for none), and TB to move out need an egress price.
    fn exit_problems(&self, out: &mut Problems) {
        if !self.states_exit_terms() {
            return;
        }
        for (field, present, what) in [
            (
                "exit_notice_months",
                self.exit_notice_months.is_some(),
                "the months of notice (`exit_notice_months`; 0 for none)",
            ),
            (
                "exit_fee",
                self.exit_fee.is_some(),
                "the termination fee (`exit_fee`: an amount, or a share of the remaining commitment such as 25%; 0 for none)",
            ),
        ] {
            if !present {
                out.push(
                    field,
                    "missing-value",
                    format!("this row states exit terms but not {what}: a clause cannot be priced without it"),
                );
            }
        }
        if self.exit_data_tb.is_some_and(|tb| tb > Decimal::ZERO)
            && self.exit_egress_per_tb.is_none()
            && self.egress_per_tb.is_none()
        {
            out.push(
                "exit_data_tb",
                "missing-value",
                "moving data out needs an egress price: give `exit_egress_per_tb` (or the quote's `egress_per_tb`)"
                    .to_owned(),
            );
        }
    }

    /// The quote as a supply layer with id `id`, in the workspace's currency. Quoted prices
    /// become [`Override`]s whose reason names the quote (and the exchange rate when converted);
    /// the lead time delays owned hardware's delivery and a rental's start. A reservation
    /// commits for `commitment_months` from its start (`"1y"`, `"3y"` or `{"months": n}`) and
    /// carries its exit terms as the layer's `exit_clause` ([`Quote::exit_clause`]).
    ///
    /// Fails when the quote is in a currency the workspace has no rate for, quotes no price for
    /// its kind, or states exit terms without their notice or fee (all of which [`parse_quotes`]
    /// refuses already): a layer without the quoted price would silently fall back to the
    /// catalog's list price, and a clause without its fee would price leaving as free.
    pub fn to_layer_spec(&self, id: &str, settings: &WorkspaceSettings) -> Result<LayerSpec, PlannerError> {
        let kind = self.offer_kind.layer_kind();
        // A quoted figure fills its layer field on the kinds of layer that field applies to (its
        // row of the table of layer fields, whose `quote` names the column that feeds it).
        let fills = |field: &str| layer_fields::applies(field, kind);
        let (priced, price) = if fills("price_per_gpu") {
            ("price_per_gpu", self.hardware_price_per_gpu)
        } else {
            ("price_per_gpu_hour", self.price_per_gpu_hour)
        };
        let price_field = layer_fields::field(priced).and_then(|f| f.quote).unwrap_or(priced);
        if price.is_none() {
            return Err(PlannerError::invalid(
                price_field,
                format!(
                    "quote {} {} ({}) gives no `{price_field}`; check quotes with `Quote::problems` before making layers",
                    self.vendor,
                    self.quote_id,
                    self.offer_kind.as_str()
                ),
            ));
        }
        let rate = self.rate(settings)?;
        let reason = |quoted: Decimal| -> String {
            if rate == Decimal::ONE && self.currency == settings.currency {
                self.reason()
            } else {
                // Worded as the engine words a converted override: the amount as quoted, then
                // the rate as the workspace writes it ("EUR 1.80 at 1 EUR = 1.08 USD").
                let (shown, source) = settings
                    .fx
                    .iter()
                    .find(|f| f.against(&settings.currency).is_some_and(|(c, _)| c == self.currency))
                    .map(|f| (f.shown(&settings.currency), f.source.as_str()))
                    .unwrap_or_default();
                format!("{}: {} {quoted} at {shown} ({source})", self.reason(), self.currency)
            }
        };
        let quoted = |v: Option<Decimal>| {
            v.map(|v| Override {
                value: v * rate,
                currency: None,
                reason: reason(v),
            })
        };
        let lead = self.lead_time_months.unwrap_or(0);
        // An exit clause only for a reservation: of the other kinds a clause applies to, owned
        // hardware states no exit terms (`Quote::problems` refuses them).
        let exit_clause = if self.offer_kind == QuoteKind::Reserved {
            self.exit_clause(rate)?
        } else {
            None
        };
        // Every field a quote does not state is the empty layer's (see `scenario_file::empty_layer`).
        Ok(LayerSpec {
            accelerator: Some(self.accelerator.clone()),
            gpus: self.gpus,
            price_per_gpu: if fills("price_per_gpu") {
                quoted(self.hardware_price_per_gpu)
            } else {
                None
            },
            installation: if fills("installation") {
                self.installation.unwrap_or_default() * rate
            } else {
                Decimal::ZERO
            },
            price_per_gpu_hour: if fills("price_per_gpu_hour") {
                quoted(self.price_per_gpu_hour)
            } else {
                None
            },
            term: if fills("term") {
                self.commitment_months.map(CommitTerm::of_months)
            } else {
                None
            },
            // The lead time delays owned hardware's delivery, and a rental's start (every kind
            // has a start month: owned hardware starts at once and is delivered late).
            start_month: if fills("lead_time_months") { 0 } else { lead },
            lead_time_months: if fills("lead_time_months") { lead } else { 0 },
            support_rate_per_year: if fills("support_rate_per_year") {
                self.support_rate_per_year.unwrap_or_default()
            } else {
                Decimal::ZERO
            },
            interruptions_per_hour: if fills("interruptions_per_hour") {
                self.interruptions_per_hour
            } else {
                None
            },
            exit_clause,
            ..empty_layer(id, kind)
        })
    }

    /// The quote's exit terms as an exit clause with amounts converted at `rate` (units of the
    /// workspace's currency per unit of the quote's): the notice, the fee (a fixed amount
    /// converted, a share as it is), the egress price per TB (`exit_egress_per_tb`, else
    /// `egress_per_tb`, else 0), the TB to move out and the offboarding cost (0 when not stated).
    /// `None` when the quote states no exit terms; an error when it states some without the
    /// notice or the fee.
    pub fn exit_clause(&self, rate: Decimal) -> Result<Option<ExitClause>, PlannerError> {
        if !self.states_exit_terms() {
            return Ok(None);
        }
        let (Some(notice_months), Some(fee)) = (self.exit_notice_months, self.exit_fee) else {
            let field = if self.exit_notice_months.is_none() {
                "exit_notice_months"
            } else {
                "exit_fee"
            };
            return Err(PlannerError::invalid(
                field,
                format!(
                    "quote {} {} states exit terms without `{field}`; check quotes with `Quote::problems` before making layers",
                    self.vendor, self.quote_id
                ),
            ));
        };
        Ok(Some(ExitClause {
            notice_months,
            fee: match fee {
                TerminationFee::Fixed(v) => TerminationFee::Fixed(v * rate),
                share @ TerminationFee::ShareOfRemaining(_) => share,
            },
            egress_per_tb: self.exit_egress_per_tb.or(self.egress_per_tb).unwrap_or_default() * rate,
            data_tb: self.exit_data_tb.unwrap_or_default(),
            offboarding: self.exit_offboarding.unwrap_or_default() * rate,
        }))
    }

    /// The workspace's rate for the quote's currency (1 for its own), or the error a layer of
    /// the quote would fail with.
    pub fn rate(&self, settings: &WorkspaceSettings) -> Result<Decimal, PlannerError> {
        rate_for(settings, &self.currency).ok_or_else(|| {
            PlannerError::invalid(
                "currency",
                format!(
                    "quote {} {} is in {} and the workspace in {}, which has no rate for it; add one to the workspace's exchange rates",
                    self.vendor, self.quote_id, self.currency, settings.currency
                ),
            )
        })
    }
}

/// A located problem in a quote table.
fn detail(file: &str, row: Option<u32>, column: Option<u32>, field: &str, kind: &str, message: String) -> ErrorDetail {
    ErrorDetail {
        file: Some(file.to_owned()),
        line: row,
        column,
        field: (!field.is_empty()).then(|| field.to_owned()),
        kind: Some(kind.to_owned()),
        message,
    }
}

/// The error for a table with problems: nothing is imported.
pub fn import_error(file: &str, details: Vec<ErrorDetail>) -> PlannerError {
    let n = details.len();
    PlannerError {
        code: ErrorCode::InvalidInput,
        message: format!(
            "{file}: {n} problem{} in the quotes; nothing was imported. Fix each cell listed and import the file again.",
            if n == 1 { "" } else { "s" }
        ),
        details,
    }
}

fn column_number(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// A cell's value, read for its column's type.
enum Value {
    None,
    Text(String),
    Kind(QuoteKind),
    Decimal(Decimal),
    Count(u32),
    Fee(TerminationFee),
    Date(AsOf),
}

fn cell_text(cell: &Cell) -> Option<String> {
    match cell {
        Cell::Text(t) => Some(t.trim().to_owned()),
        Cell::Number(n) => Some(n.normalize().to_string()),
        Cell::Date(d) => Some(d.to_string()),
        Cell::Empty | Cell::Invalid(_) => None,
    }
}

/// Reads a decimal written as text: plain digits with a `.` point, an optional sign.
fn text_decimal(text: &str) -> Option<Decimal> {
    let ok = !text.is_empty()
        && text
            .bytes()
            .enumerate()
            .all(|(i, b)| b.is_ascii_digit() || b == b'.' || (i == 0 && (b == b'-' || b == b'+')));
    if !ok {
        return None;
    }
    text.parse::<Decimal>().ok()
}

fn read_cell(column: &Column, cell: &Cell) -> Result<Value, (&'static str, String)> {
    if cell.is_empty() {
        return Ok(Value::None);
    }
    if let Cell::Invalid(what) = cell {
        return Err((
            "wrong-type",
            format!("the cell holds {what}, not a value; type the value itself"),
        ));
    }
    let number_hint =
        "write a plain number with a `.` point, e.g. 2.85: no currency symbols, units or thousands separators";
    match column.ty {
        ColumnType::Text => cell_text(cell)
            .map(Value::Text)
            .ok_or(("wrong-type", "unreadable text".to_owned())),
        ColumnType::Kind => {
            let text = cell_text(cell).unwrap_or_default();
            let norm = text.to_lowercase().replace(['_', ' '], "-");
            QuoteKind::ALL
                .into_iter()
                .find(|k| k.as_str() == norm)
                .map(Value::Kind)
                .ok_or((
                    "unknown-value",
                    format!(
                        "`{}` is not an offer kind; write one of owned, reserved, on-demand, spot",
                        quoted(&text)
                    ),
                ))
        }
        ColumnType::Money | ColumnType::Number => match cell {
            Cell::Number(n) => Ok(Value::Decimal(*n)),
            Cell::Text(t) => text_decimal(t.trim()).map(Value::Decimal).ok_or((
                "wrong-type",
                format!("`{}` is not a number; {number_hint}", quoted(t.trim())),
            )),
            Cell::Date(d) => Err((
                "wrong-type",
                format!("a date ({d}) where a number belongs; {number_hint}"),
            )),
            Cell::Empty | Cell::Invalid(_) => Ok(Value::None),
        },
        ColumnType::Share => match cell {
            Cell::Number(n) => Ok(Value::Decimal(*n)),
            Cell::Text(t) => {
                let t = t.trim();
                match t.strip_suffix('%') {
                    Some(p) => text_decimal(p.trim()).map(|v| Value::Decimal(v / dec!(100))),
                    None => text_decimal(t).map(Value::Decimal),
                }
                .ok_or((
                    "wrong-type",
                    format!(
                        "`{}` is not a share; write a fraction such as 0.15 or a percentage such as 15%",
                        quoted(t)
                    ),
                ))
            }
            Cell::Date(d) => Err((
                "wrong-type",
                format!("a date ({d}) where a share belongs; write 0.15 or 15%"),
            )),
            Cell::Empty | Cell::Invalid(_) => Ok(Value::None),
        },
        ColumnType::Fee => read_fee(cell).map(Value::Fee),
        ColumnType::Count => {
            let n = match cell {
                Cell::Number(n) => Some(*n),
                Cell::Text(t) => text_decimal(t.trim()),
                Cell::Date(_) | Cell::Empty | Cell::Invalid(_) => None,
            };
            let shown = quoted(&cell_text(cell).unwrap_or_default());
            match n {
                Some(n) if n.fract().is_zero() && n >= Decimal::ZERO => u32::try_from(n)
                    .map(Value::Count)
                    .map_err(|_| ("out-of-range", format!("{n} is too large"))),
                Some(n) if n < Decimal::ZERO => Err((
                    "negative-value",
                    format!("{n} is negative; give a whole number, zero or more"),
                )),
                _ => Err((
                    "wrong-type",
                    format!("`{shown}` is not a whole number; write digits only, e.g. 16"),
                )),
            }
        }
        ColumnType::Date => {
            let hint = "write the date as YYYY-MM-DD, e.g. 2027-03-31, or use a date cell";
            match cell {
                Cell::Date(d) => Ok(Value::Date(*d)),
                Cell::Number(n) => excel_serial_date(*n)
                    .map(Value::Date)
                    .ok_or(("invalid-date", format!("{n} is not a date; {hint}"))),
                Cell::Text(t) => {
                    let t = t.trim();
                    match t.parse::<AsOf>() {
                        Ok(d) if d.day().is_some() => Ok(Value::Date(d)),
                        _ => Err(("invalid-date", format!("`{}` is not a date; {hint}", quoted(t)))),
                    }
                }
                Cell::Empty | Cell::Invalid(_) => Ok(Value::None),
            }
        }
    }
}

/// A termination fee as a cell holds it: a percentage (`25%`) is a share of the remaining
/// commitment; a plain number is a fixed amount, except one strictly between 0 and 1, which is a
/// share (what a percent-formatted XLSX cell holds: a fee below one unit of currency is no fee).
fn read_fee(cell: &Cell) -> Result<TerminationFee, (&'static str, String)> {
    let hint = "write a fixed amount such as 50000, or a share of the remaining commitment such as 25%";
    let (value, percent) = match cell {
        Cell::Number(n) => (Some(*n), false),
        Cell::Text(t) => {
            let t = t.trim();
            match t.strip_suffix('%') {
                Some(p) => (text_decimal(p.trim()).map(|v| v / dec!(100)), true),
                None => (text_decimal(t), false),
            }
        }
        Cell::Date(d) => return Err(("wrong-type", format!("a date ({d}) where a fee belongs; {hint}"))),
        Cell::Empty | Cell::Invalid(_) => (None, false),
    };
    let shown = quoted(&cell_text(cell).unwrap_or_default());
    match value {
        None => Err(("wrong-type", format!("`{shown}` is not a fee; {hint}"))),
        Some(v) if v < Decimal::ZERO => Err((
            "negative-value",
            format!("`{shown}` is negative; give zero or more ({hint})"),
        )),
        Some(v) if percent || (v > Decimal::ZERO && v < Decimal::ONE) => Ok(TerminationFee::ShareOfRemaining(v)),
        Some(v) => Ok(TerminationFee::Fixed(v)),
    }
}

/// Reads a quote table into quotes, or refuses it whole with every problem located to its row
/// and column. `catalog` resolves accelerator ids; `settings` gives the workspace's currency and
/// exchange rates.
pub fn parse_quotes(
    table: &QuoteTable,
    catalog: &Catalog,
    settings: &WorkspaceSettings,
) -> Result<Vec<Quote>, PlannerError> {
    let file = table.file.as_str();
    let mut rows = table.rows.iter().filter(|r| !r.cells.iter().all(Cell::is_empty));
    let Some(header) = rows.next() else {
        return Err(import_error(
            file,
            vec![detail(
                file,
                None,
                None,
                "",
                "empty-file",
                "the file is empty; start from the template catalogs/templates/rfp-quotes.csv: a header row, then one row per quote".to_owned(),
            )],
        ));
    };
    let data: Vec<&TableRow> = rows.collect();
    let mut reader = QuoteReader::new(file, header);
    if data.is_empty() {
        reader.details.push(detail(
            file,
            None,
            None,
            "",
            "empty-file",
            "the file has a header but no quotes; add one row per quote below the header".to_owned(),
        ));
    }
    let mut quotes = Vec::new();
    for row in data {
        let (mut values, bad) = reader.read_cells(row);
        let Some((quote, kind, valid_until)) = quote_of(file, row, &mut values) else {
            continue;
        };
        let before = reader.details.len();
        reader.missing_values(row, kind, valid_until, &bad);
        reader.quote_problems(row, &quote, kind, &bad, catalog, settings);
        reader.duplicate(row, &quote);
        if reader.details.len() == before && bad.is_empty() {
            quotes.push(quote);
        }
    }
    if reader.details.is_empty() {
        Ok(quotes)
    } else {
        Err(import_error(file, reader.details))
    }
}

/// A quote table being read: the header's columns and every problem found so far.
struct QuoteReader<'t> {
    file: &'t str,
    header: &'t TableRow,
    /// Each template column's index in the header.
    columns: HashMap<&'static str, usize>,
    /// Each header cell's column: none for an empty, unknown or repeated header cell.
    by_index: Vec<Option<&'static Column>>,
    details: Vec<ErrorDetail>,
    /// (vendor, quote id) in lower case → the row that gave it first.
    seen: HashMap<(String, String), u32>,
}

impl<'t> QuoteReader<'t> {
    /// Reads the header: every column known, none twice, every required one present.
    fn new(file: &'t str, header: &'t TableRow) -> QuoteReader<'t> {
        let mut reader = QuoteReader {
            file,
            header,
            columns: HashMap::new(),
            by_index: Vec::new(),
            details: Vec::new(),
            seen: HashMap::new(),
        };
        for (i, cell) in header.cells.iter().enumerate() {
            let column = reader.header_cell(i, cell);
            reader.by_index.push(column);
        }
        for c in COLUMNS
            .iter()
            .filter(|c| c.required && !reader.columns.contains_key(c.name))
        {
            reader.details.push(detail(
                file,
                Some(header.row),
                None,
                c.name,
                "missing-column",
                format!("the header has no `{}` column; add it (it is required)", c.name),
            ));
        }
        reader
    }

    /// The column of the header cell at index `i`, when it names a template column not named
    /// before.
    fn header_cell(&mut self, i: usize, cell: &Cell) -> Option<&'static Column> {
        let (file, header) = (self.file, self.header);
        let at = Some(column_number(i));
        let text = cell_text(cell).unwrap_or_default();
        if text.is_empty() {
            return None;
        }
        let name = normalise_header(&text);
        match COLUMNS.iter().find(|c| c.name == name) {
            Some(c) => {
                if let Some(first) = self.columns.insert(c.name, i) {
                    self.details.push(detail(
                        file,
                        Some(header.row),
                        at,
                        c.name,
                        "duplicate-column",
                        format!(
                            "column `{}` appears twice (also column {}); keep one",
                            c.name,
                            column_number(first)
                        ),
                    ));
                    self.columns.insert(c.name, first);
                    None
                } else {
                    Some(c)
                }
            }
            None => {
                let text = quoted(&text);
                self.details.push(detail(
                    file,
                    Some(header.row),
                    at,
                    &text,
                    "unknown-column",
                    format!(
                        "`{text}` is not a column of the quote template; fix the spelling or remove the column (the columns are: {})",
                        COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
                    ),
                ));
                None
            }
        }
    }

    /// Every cell of a row read for its column's type: the values by column, and the columns
    /// whose cell was refused. A cell outside every column is reported too.
    fn read_cells(&mut self, row: &TableRow) -> (HashMap<&'static str, Value>, Vec<&'static str>) {
        let mut values: HashMap<&'static str, Value> = HashMap::new();
        let mut bad: Vec<&'static str> = Vec::new();
        for (i, cell) in row.cells.iter().enumerate() {
            match self.by_index.get(i).copied().flatten() {
                Some(c) => match read_cell(c, cell) {
                    Ok(v) => {
                        values.insert(c.name, v);
                    }
                    Err((kind, message)) => {
                        self.details.push(detail(
                            self.file,
                            Some(row.row),
                            Some(column_number(i)),
                            c.name,
                            kind,
                            message,
                        ));
                        bad.push(c.name);
                    }
                },
                None if i >= self.header.cells.len() && !cell.is_empty() => self.details.push(detail(
                    self.file,
                    Some(row.row),
                    Some(column_number(i)),
                    "",
                    "no-column",
                    "this cell is outside every column of the header; move it into a column or delete it".to_owned(),
                )),
                None => {}
            }
        }
        (values, bad)
    }

    /// The column number of the template column `name`, when the header has it.
    fn at(&self, name: &str) -> Option<u32> {
        self.columns.get(name).map(|&i| column_number(i))
    }

    /// The offer kind and the validity date are required on every row: each missing one is
    /// reported, unless its cell was refused already or its whole column is missing.
    fn missing_values(
        &mut self,
        row: &TableRow,
        kind: Option<QuoteKind>,
        valid_until: Option<AsOf>,
        bad: &[&'static str],
    ) {
        for (name, missing) in [("offer_kind", kind.is_none()), ("valid_until", valid_until.is_none())] {
            if missing && !bad.contains(&name) && self.columns.contains_key(name) {
                let what = if name == "offer_kind" {
                    "the offer kind: owned, reserved, on-demand or spot"
                } else {
                    "the last day the prices hold (YYYY-MM-DD)"
                };
                self.details.push(detail(
                    self.file,
                    Some(row.row),
                    self.at(name),
                    name,
                    "missing-value",
                    format!("give {what}; this column is required on every row"),
                ));
            }
        }
    }

    /// The quote's own problems ([`Quote::problems`]) at their row and column, each reported
    /// once: not for a cell already refused or a required column missing, and no rule of the
    /// offer kind when the kind itself is unreadable.
    fn quote_problems(
        &mut self,
        row: &TableRow,
        quote: &Quote,
        kind: Option<QuoteKind>,
        bad: &[&'static str],
        catalog: &Catalog,
        settings: &WorkspaceSettings,
    ) {
        for p in quote.problems(catalog, settings) {
            // A cell already refused, or a whole column missing, is reported once, not again.
            let column_missing = COLUMNS.iter().any(|c| c.required && c.name == p.field) && self.at(&p.field).is_none();
            // Kind rules say nothing useful when the kind itself is unreadable.
            let kind_rule = matches!(p.kind.as_str(), "missing-value" | "not-applicable")
                && !matches!(p.field.as_str(), "vendor" | "quote_id" | "accelerator" | "currency");
            if bad.contains(&p.field.as_str()) || column_missing || (kind.is_none() && kind_rule) {
                continue;
            }
            let message = if self.at(&p.field).is_none() && p.kind == "missing-value" {
                format!("{}; add a `{}` column", p.message, p.field)
            } else {
                p.message
            };
            self.details.push(detail(
                self.file,
                Some(row.row),
                self.at(&p.field),
                &p.field,
                &p.kind,
                message,
            ));
        }
    }

    /// Reports a (vendor, quote id) pair given on an earlier row, case ignored.
    fn duplicate(&mut self, row: &TableRow, quote: &Quote) {
        if quote.vendor.is_empty() || quote.quote_id.is_empty() {
            return;
        }
        let key = (quote.vendor.to_lowercase(), quote.quote_id.to_lowercase());
        if let Some(first) = self.seen.get(&key) {
            self.details.push(detail(
                self.file,
                Some(row.row),
                self.at("quote_id"),
                "quote_id",
                "duplicate-quote",
                format!(
                    "vendor `{}` has quote `{}` on row {first} and again on row {}; give each quote its own quote_id or delete the repeated row",
                    quoted(&quote.vendor),
                    quoted(&quote.quote_id),
                    row.row
                ),
            ));
        } else {
            self.seen.insert(key, row.row);
        }
    }
}

/// The quote a row's values make, with its offer kind and validity date as read (`None` when
/// unreadable: the quote then holds a placeholder, and the row is reported).
fn quote_of(
    file: &str,
    row: &TableRow,
    values: &mut HashMap<&'static str, Value>,
) -> Option<(Quote, Option<QuoteKind>, Option<AsOf>)> {
    let mut take = |name: &str| values.remove(name).unwrap_or(Value::None);
    let text = |v: Value| match v {
        Value::Text(t) => Some(t),
        _ => None,
    };
    let decimal = |v: Value| match v {
        Value::Decimal(d) => Some(d),
        _ => None,
    };
    let count = |v: Value| match v {
        Value::Count(n) => Some(n),
        _ => None,
    };
    let fee = |v: Value| match v {
        Value::Fee(f) => Some(f),
        _ => None,
    };
    let kind = match take("offer_kind") {
        Value::Kind(k) => Some(k),
        _ => None,
    };
    let valid_until = match take("valid_until") {
        Value::Date(d) => Some(d),
        _ => None,
    };
    // Without a readable date the row is reported; the placeholder never leaves the reader.
    let date = valid_until.or_else(|| AsOf::ymd(1900, 1, 1))?;
    let quote = Quote {
        vendor: text(take("vendor")).unwrap_or_default(),
        quote_id: text(take("quote_id")).unwrap_or_default(),
        offer_kind: kind.unwrap_or(QuoteKind::OnDemand),
        accelerator: text(take("accelerator")).unwrap_or_default(),
        gpus: count(take("gpus")),
        currency: text(take("currency")).unwrap_or_default(),
        price_per_gpu_hour: decimal(take("price_per_gpu_hour")),
        hardware_price_per_gpu: decimal(take("hardware_price_per_gpu")),
        installation: decimal(take("installation")),
        support_rate_per_year: decimal(take("support_rate_per_year")),
        lead_time_months: count(take("lead_time_months")),
        commitment_months: count(take("commitment_months")),
        interruptions_per_hour: decimal(take("interruptions_per_hour")),
        egress_per_tb: decimal(take("egress_per_tb")),
        exit_notice_months: count(take("exit_notice_months")),
        exit_fee: fee(take("exit_fee")),
        exit_egress_per_tb: decimal(take("exit_egress_per_tb")),
        exit_data_tb: decimal(take("exit_data_tb")),
        exit_offboarding: decimal(take("exit_offboarding")),
        sla_uptime: decimal(take("sla_uptime")),
        sla_refund_share: decimal(take("sla_refund_share")),
        response_hours: decimal(take("response_hours")),
        expert_hours_per_month: decimal(take("expert_hours_per_month")),
        valid_until: date,
        notes: text(take("notes")).filter(|t| !t.is_empty()),
        source: QuoteSource {
            file: file.to_owned(),
            row: row.row,
        },
    };
    Some((quote, kind, valid_until))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::YearMonth;
    use crate::engine::input::bounds::{GPUS, MONTHS, SHARE};
    use crate::engine::input::layer_fields::{LAYER_FIELDS, LayerField, Money};

    fn settings() -> WorkspaceSettings {
        WorkspaceSettings::new("RFP", YearMonth::new(2027, 1).unwrap_or_else(|| unreachable!()))
    }

    fn table(rows: &[&[&str]]) -> QuoteTable {
        QuoteTable {
            file: "q.csv".into(),
            rows: rows
                .iter()
                .enumerate()
                .map(|(i, r)| TableRow {
                    row: u32::try_from(i + 1).unwrap_or_default(),
                    cells: r
                        .iter()
                        .map(|t| {
                            if t.is_empty() {
                                Cell::Empty
                            } else {
                                Cell::Text((*t).to_owned())
                            }
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn excel_serial_days_are_1900_system_dates() {
        let d = |n: i64| excel_serial_date(Decimal::from(n)).map(|d| d.to_string());
        assert_eq!(d(61).as_deref(), Some("1900-03-01"));
        assert_eq!(d(45943).as_deref(), Some("2025-10-13"));
        assert_eq!(d(46402).as_deref(), Some("2027-01-15"));
        assert_eq!(d(46812).as_deref(), Some("2028-02-29"));
        assert_eq!(
            excel_serial_date(Decimal::new(464025, 1))
                .map(|d| d.to_string())
                .as_deref(),
            Some("2027-01-15")
        );
        assert_eq!(d(60), None, "Excel's 1900-02-29 does not exist");
        assert_eq!(d(-1), None);
    }

    #[test]
    fn headers_match_ignoring_case_spaces_and_dashes() {
        assert_eq!(normalise_header("  Quote ID "), "quote_id");
        assert_eq!(normalise_header("Offer-Kind"), "offer_kind");
        assert_eq!(normalise_header("PRICE_PER_GPU_HOUR"), "price_per_gpu_hour");
    }

    #[test]
    fn numbers_in_text_are_plain_decimals_only() {
        assert_eq!(text_decimal("2.85"), Some(Decimal::new(285, 2)));
        assert_eq!(text_decimal("-3"), Some(Decimal::from(-3)));
        for bad in ["1,000", "$4", "1e5", "12k", "", "4.1 USD", "--1"] {
            assert_eq!(text_decimal(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_table_that_reads_and_the_layer_it_becomes() {
        let t = table(&[
            &[
                "vendor",
                "quote_id",
                "offer_kind",
                "accelerator",
                "gpus",
                "currency",
                "price_per_gpu_hour",
                "commitment_months",
                "valid_until",
            ],
            &[
                "Acme",
                "Q 1",
                "Reserved",
                "h100",
                "8",
                "USD",
                "3.10",
                "12",
                "2027-06-30",
            ],
        ]);
        let mut catalog = Catalog::default();
        // The accelerator check needs the id in the catalog: with none, the row is refused.
        let e = parse_quotes(&t, &catalog, &settings())
            .err()
            .map(|e| e.details)
            .unwrap_or_default();
        assert_eq!(e.len(), 1);
        assert_eq!(
            (e[0].line, e[0].column, e[0].field.as_deref()),
            (Some(2), Some(4), Some("accelerator"))
        );
        catalog.accelerators.push(crate::catalog::Accelerator {
            id: "h100".into(),
            name: "H100".into(),
            vendor: "NVIDIA".into(),
            family: crate::catalog::Family::Training,
            launch_year: 2022,
            memory_type: String::new(),
            scale_up: String::new(),
            form_factor: String::new(),
            spec_provenance: crate::catalog::provenance::Provenance {
                sources: Vec::new(),
                as_of: "2026".parse().unwrap_or_else(|_| unreachable!()),
                confidence: crate::catalog::provenance::Confidence::Estimate,
                note: None,
            },
            memory_gb: crate::catalog::provenance::Figure {
                low: Decimal::from(80),
                high: Decimal::from(80),
                provenance: crate::catalog::provenance::Provenance {
                    sources: Vec::new(),
                    as_of: "2026".parse().unwrap_or_else(|_| unreachable!()),
                    confidence: crate::catalog::provenance::Confidence::Estimate,
                    note: None,
                },
            },
            bandwidth_tbps: None,
            bf16_tflops: None,
            fp8_tflops: None,
            tdp_w: None,
            price_usd: None,
            adaptation_months: None,
            notes: None,
        });
        let quotes = parse_quotes(&t, &catalog, &settings()).unwrap_or_default();
        assert_eq!(quotes.len(), 1);
        let q = &quotes[0];
        assert_eq!(q.offer_kind, QuoteKind::Reserved);
        assert_eq!(q.layer_id(), "acme-q-1");
        let layer = q
            .to_layer_spec("l", &settings())
            .unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(layer.kind, LayerKind::Reserved);
        assert_eq!(layer.term, Some(CommitTerm::OneYear));
        assert_eq!(layer.gpus, Some(8));
        assert_eq!(
            layer.price_per_gpu_hour,
            Some(Override {
                value: Decimal::new(310, 2),
                currency: None,
                reason: "RFP quote Acme Q 1 (valid until 2027-06-30)".into()
            })
        );
        let unpriced = Quote {
            price_per_gpu_hour: None,
            ..q.clone()
        };
        assert!(unpriced.to_layer_spec("l", &settings()).is_err());
        let mut eur = settings();
        eur.currency = "EUR".into();
        let e = q.to_layer_spec("l", &eur).err().map(|e| e.message).unwrap_or_default();
        assert!(e.contains("no rate"), "{e}");
    }

    #[test]
    fn quoted_cell_text_has_no_control_characters_and_is_cut() {
        assert_eq!(quoted("a\0b\u{1b}[31mc\td\r\n"), "ab[31mc d  ");
        let long = "x".repeat(QUOTED_CHARS + 50);
        let q = quoted(&long);
        assert_eq!(q.chars().count(), QUOTED_CHARS + 1);
        assert!(q.ends_with('…'));
        assert_eq!(quoted(&"é".repeat(QUOTED_CHARS)), "é".repeat(QUOTED_CHARS));
    }

    #[test]
    fn messages_quote_header_and_cell_text_without_nul_bytes_and_cut() {
        // The shape of a UTF-16 file read as UTF-8: NUL between every character.
        let long = format!("v\0e\0n\0{}", "d".repeat(1000));
        let t = table(&[&[&long, "quote_id"], &["x", "y"]]);
        let catalog = Catalog::default();
        let e = parse_quotes(&t, &catalog, &settings())
            .err()
            .unwrap_or_else(|| unreachable!());
        for d in &e.details {
            assert!(!d.message.contains('\0'), "{d:?}");
            assert!(!d.field.as_deref().unwrap_or_default().contains('\0'), "{d:?}");
            assert!(d.message.chars().count() < 2 * QUOTED_CHARS + 400, "{d:?}");
        }
        assert!(
            e.details
                .iter()
                .any(|d| d.message.contains("`vend…") || d.message.contains('…')),
            "{e:?}"
        );
    }

    /// The type of column that can feed the layer field `f`: money from a money column, text
    /// from text, a share from a share; a count of GPUs or months, or a commitment (whose
    /// length a quote gives in months), from a whole number; any other number from a number.
    fn column_type_for(f: &LayerField) -> ColumnType {
        if f.money != Money::No {
            ColumnType::Money
        } else if crate::engine::input::limits::is_text_field(f.name) {
            ColumnType::Text
        } else if f.bound == SHARE {
            ColumnType::Share
        } else if f.bound == GPUS || f.bound == MONTHS || f.name == "term" {
            ColumnType::Count
        } else {
            ColumnType::Number
        }
    }

    /// What is wrong with the quote columns `rows` name: a column the template does not have, or
    /// one whose type cannot feed the field. Empty when every named column is right.
    fn quote_column_problems(rows: &[LayerField]) -> Vec<String> {
        let mut out = Vec::new();
        for f in rows {
            let Some(name) = f.quote else { continue };
            match COLUMNS.iter().find(|c| c.name == name) {
                None => out.push(format!(
                    "`{}` is fed by the quote column `{name}`, which the template does not have",
                    f.name
                )),
                Some(c) if c.ty != column_type_for(f) => out.push(format!(
                    "`{}` is fed by the quote column `{name}` of type {:?}, where a column of type {:?} belongs",
                    f.name,
                    c.ty,
                    column_type_for(f)
                )),
                Some(_) => {}
            }
        }
        out
    }

    #[test]
    fn every_quote_column_of_the_table_is_a_template_column_of_its_type() {
        let problems = quote_column_problems(&LAYER_FIELDS);
        assert!(problems.is_empty(), "{problems:#?}");
        let named = LAYER_FIELDS.iter().filter(|f| f.quote.is_some()).count();
        assert_eq!(named, 10);
    }

    #[test]
    fn a_wrong_quote_column_is_caught() {
        let mut rows = LAYER_FIELDS;
        for row in &mut rows {
            match row.name {
                // A column the template does not have.
                "price_per_gpu" => row.quote = Some("hardware_price"),
                // A money column feeding a count.
                "gpus" => row.quote = Some("installation"),
                // A plain number feeding a share.
                "support_rate_per_year" => row.quote = Some("interruptions_per_hour"),
                _ => {}
            }
        }
        assert_eq!(
            quote_column_problems(&rows),
            [
                "`gpus` is fed by the quote column `installation` of type Money, where a column of type Count belongs",
                "`price_per_gpu` is fed by the quote column `hardware_price`, which the template does not have",
                "`support_rate_per_year` is fed by the quote column `interruptions_per_hour` of type Number, where a column of type Share belongs",
            ]
        );
    }

    /// A quote of kind `kind` with every column stated (the exit egress left to `egress_per_tb`).
    fn full_quote(kind: QuoteKind) -> Quote {
        Quote {
            vendor: "Acme".into(),
            quote_id: "Q1".into(),
            offer_kind: kind,
            accelerator: "h100".into(),
            gpus: Some(8),
            currency: "USD".into(),
            price_per_gpu_hour: Some(dec!(3.10)),
            hardware_price_per_gpu: Some(dec!(30000)),
            installation: Some(dec!(5000)),
            support_rate_per_year: Some(dec!(0.1)),
            lead_time_months: Some(2),
            commitment_months: Some(12),
            interruptions_per_hour: Some(dec!(0.2)),
            egress_per_tb: Some(dec!(50)),
            exit_notice_months: Some(3),
            exit_fee: Some(TerminationFee::Fixed(dec!(1000))),
            exit_egress_per_tb: None,
            exit_data_tb: Some(dec!(10)),
            exit_offboarding: Some(dec!(500)),
            sla_uptime: Some(dec!(0.999)),
            sla_refund_share: Some(dec!(0.1)),
            response_hours: Some(dec!(4)),
            expert_hours_per_month: Some(dec!(8)),
            valid_until: AsOf::ymd(2027, 6, 30).unwrap_or_else(|| unreachable!()),
            notes: Some("n".into()),
            source: QuoteSource {
                file: "q.csv".into(),
                row: 2,
            },
        }
    }

    /// Changes the quote's value in `column`; false for a column whose value the layer does not
    /// take (the vendor, quote id and validity name the quote in every price's reason, the
    /// currency converts, the kind chooses the layer's kind, the notes stay with the quote).
    fn change(q: &mut Quote, column: &str) -> bool {
        match column {
            "accelerator" => q.accelerator = "b200".into(),
            "gpus" => q.gpus = Some(9),
            "price_per_gpu_hour" => q.price_per_gpu_hour = Some(dec!(4.20)),
            "hardware_price_per_gpu" => q.hardware_price_per_gpu = Some(dec!(31000)),
            "installation" => q.installation = Some(dec!(6000)),
            "support_rate_per_year" => q.support_rate_per_year = Some(dec!(0.2)),
            "lead_time_months" => q.lead_time_months = Some(5),
            "commitment_months" => q.commitment_months = Some(36),
            "interruptions_per_hour" => q.interruptions_per_hour = Some(dec!(0.3)),
            "egress_per_tb" => q.egress_per_tb = Some(dec!(60)),
            "exit_notice_months" => q.exit_notice_months = Some(4),
            "exit_fee" => q.exit_fee = Some(TerminationFee::Fixed(dec!(2000))),
            "exit_egress_per_tb" => q.exit_egress_per_tb = Some(dec!(70)),
            "exit_data_tb" => q.exit_data_tb = Some(dec!(20)),
            "exit_offboarding" => q.exit_offboarding = Some(dec!(600)),
            "sla_uptime" => q.sla_uptime = Some(dec!(0.99)),
            "sla_refund_share" => q.sla_refund_share = Some(dec!(0.2)),
            "response_hours" => q.response_hours = Some(dec!(8)),
            "expert_hours_per_month" => q.expert_hours_per_month = Some(dec!(16)),
            "vendor" | "quote_id" | "offer_kind" | "currency" | "valid_until" | "notes" => return false,
            other => unreachable!("column `{other}` has no change in this test: give it one"),
        }
        true
    }

    /// A quote without the price of its kind makes no layer, and the error names the column the
    /// price comes from (the priced field's row names it).
    #[test]
    fn an_unpriced_quote_names_its_price_column() {
        for (kind, column) in [
            (QuoteKind::Owned, "hardware_price_per_gpu"),
            (QuoteKind::Reserved, "price_per_gpu_hour"),
            (QuoteKind::OnDemand, "price_per_gpu_hour"),
            (QuoteKind::Spot, "price_per_gpu_hour"),
        ] {
            let q = Quote {
                hardware_price_per_gpu: None,
                price_per_gpu_hour: None,
                ..full_quote(kind)
            };
            let e = q
                .to_layer_spec("l", &settings())
                .err()
                .unwrap_or_else(|| unreachable!());
            assert!(
                e.message.starts_with(&format!("{column}: quote Acme Q1 ")),
                "{}",
                e.message
            );
            assert!(e.message.contains(&format!("gives no `{column}`")), "{}", e.message);
        }
    }

    /// Every column whose value `to_layer_spec` copies into a layer field is the one that field's
    /// row names as its `quote` (the exit clause, made from the exit terms, aside), and every
    /// column a row names feeds that field for some kind of quote.
    #[test]
    fn every_column_a_quote_copies_into_a_layer_field_is_named_by_its_row() {
        let layer = |q: &Quote| {
            let l = q
                .to_layer_spec("l", &settings())
                .unwrap_or_else(|e| unreachable!("{e}"));
            serde_json::to_value(l).unwrap_or_else(|e| unreachable!("{e}"))
        };
        let mut fed = std::collections::BTreeSet::new();
        for kind in QuoteKind::ALL {
            let base = full_quote(kind);
            let before = layer(&base);
            for c in &COLUMNS {
                let mut q = base.clone();
                if !change(&mut q, c.name) {
                    continue;
                }
                let after = layer(&q);
                let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
                    unreachable!("a layer is an object")
                };
                for (key, value) in a {
                    if b.get(key) == Some(value) {
                        continue;
                    }
                    if key == "exit_clause" {
                        assert!(
                            EXIT_COLUMNS.contains(&c.name) || c.name == "egress_per_tb",
                            "{} changes the exit clause of a {} quote",
                            c.name,
                            kind.as_str()
                        );
                    } else {
                        let row = layer_fields::field(key).unwrap_or_else(|| unreachable!("{key}"));
                        assert_eq!(
                            row.quote,
                            Some(c.name),
                            "`{key}` of a {} quote is fed by the column `{}`, which its row does not name",
                            kind.as_str(),
                            c.name
                        );
                    }
                    fed.insert((key.clone(), c.name));
                }
            }
        }
        for f in &LAYER_FIELDS {
            if let Some(c) = f.quote {
                assert!(
                    fed.contains(&(f.name.to_owned(), c)),
                    "`{}` names the quote column `{c}`, which feeds it for no kind of quote",
                    f.name
                );
            }
        }
        // The exit clause is fed too, by its own columns.
        assert!(fed.iter().any(|(k, _)| k == "exit_clause"), "{fed:?}");
    }
}
