//! One row per field of a supply layer, the table every other place reads a layer field from:
//! the kinds of layer it applies to (the editor's form of each kind, and what switching a layer's
//! kind keeps), whether the resolver refuses it on other kinds, and, for a field no hand-made
//! widget shows, how the editor shows it. The row also drives the field's bound (the limit that
//! `limits` checks each of its numbers against), whether it is money (and so whether its override
//! may carry a currency: `fx::is_money_override`), and the column of the RFP quote template that
//! feeds it, if any (what `rfp::quote::Quote::to_layer_spec` copies into it, on the kinds the field
//! applies to). Adding a field to a layer is a field of [`LayerSpec`] and a row here; the editor's
//! form, the refusal of a field on a kind it does not apply to, the editor's widget, the field's
//! bound and whether its override takes a currency follow from the row, and tests hold the quote
//! import to the row's column. (Modules above this one are named here without links: a link is an
//! import, and they import this table.)

use rust_decimal::Decimal;
use rust_decimal::dec;
use serde::Serialize;

use crate::engine::input::bounds::{
    AMOUNT, Bound, GPUS, MIN_MFU, MIN_PEAK_TFLOPS, MONTHS, PRICE_PER_UNIT, SHARE, bound, floor,
};
use crate::engine::input::scenario_file::{LayerKind, LayerSpec};

/// Every kind of layer, in the order the editor offers them.
pub const LAYER_KINDS: [LayerKind; 6] = [
    LayerKind::Owned,
    LayerKind::Reserved,
    LayerKind::Spot,
    LayerKind::OnDemand,
    LayerKind::Pooled,
    LayerKind::TokenMetered,
];

const ALL: &[LayerKind] = &LAYER_KINDS;
const OWNED: &[LayerKind] = &[LayerKind::Owned];
/// The kinds that buy from a catalog offer.
pub const CLOUD: &[LayerKind] = &[LayerKind::Reserved, LayerKind::Spot, LayerKind::OnDemand];
const RESERVED: &[LayerKind] = &[LayerKind::Reserved];
const SPOT: &[LayerKind] = &[LayerKind::Spot];
const TOKEN: &[LayerKind] = &[LayerKind::TokenMetered];
/// The kinds priced per GPU-hour.
const HOURLY: &[LayerKind] = &[
    LayerKind::Reserved,
    LayerKind::Spot,
    LayerKind::OnDemand,
    LayerKind::Pooled,
];
/// The rented kinds.
const RENTED: &[LayerKind] = &[
    LayerKind::Reserved,
    LayerKind::Spot,
    LayerKind::OnDemand,
    LayerKind::Pooled,
    LayerKind::TokenMetered,
];
/// The kinds counted in GPU-hours.
const GPU_HOURS: &[LayerKind] = &[
    LayerKind::Owned,
    LayerKind::Reserved,
    LayerKind::Spot,
    LayerKind::OnDemand,
    LayerKind::Pooled,
];
/// The kinds with a commitment schedule an exit clause can end: reserved, and owned on a lease
/// (the resolver refuses a clause on owned hardware bought for cash or on a loan).
const COMMITTED: &[LayerKind] = &[LayerKind::Reserved, LayerKind::Owned];

/// Minutes of a spot layer's checkpoint or restart.
const MINUTES: Bound = bound(dec!(100000), "minutes");

/// One field of a supply layer.
#[derive(Debug, Clone, Copy)]
pub struct LayerField {
    /// Its name in the scenario file.
    pub name: &'static str,
    /// The kinds of layer it applies to, as the editor offers it.
    pub kinds: &'static [LayerKind],
    /// The bound `limits` checks each number of the field against (the same bound for the field's
    /// name wherever else in a file it appears). A text or structured field keeps the money
    /// ceiling, as any field without a bound of its own, which its text or inner keys make moot.
    pub(crate) bound: Bound,
    /// Whether the field is an amount of money, and whether its override may carry a currency.
    pub money: Money,
    /// The column of the RFP quote template that feeds the field, if one does (a quote fills
    /// the field on the kinds of layer it applies to). A layer's exit clause is made from several
    /// columns (the exit terms) and names none.
    pub quote: Option<&'static str>,
    /// Whether a layer states the field, for the resolver's refusal of it on a kind it does not
    /// apply to ("`x` does not apply to a layer of kind `y`"). `None` when the field applies to
    /// every kind, or when a rule of its own judges it on other kinds (installation on a rented
    /// layer, an exit clause on hardware bought for cash, the idle power a rented layer's energy
    /// estimate uses, spot timings, which other kinds ignore).
    pub stated: Option<fn(&LayerSpec) -> bool>,
    /// How the editor shows the field, for a field no hand-made widget shows; `None` when one does.
    pub form: Option<FieldForm>,
}

/// Whether a layer field is money.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Money {
    /// Not an amount of money: a count, a share, a throughput or a power (an override of one
    /// refuses a currency), text, or a structure whose inner keys are judged by their own rules.
    No,
    /// An amount in the file's currency, written as a plain number (a one-off or running cost).
    Amount,
    /// An amount in place of a catalog price: an [`crate::engine::input::scenario_file::Override`],
    /// which may carry a currency of its own that the file's `fx` converts.
    Override,
}

/// How the editor shows a field: the same widget for every field of its input kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FieldForm {
    /// The field's name in the scenario file.
    pub name: &'static str,
    pub label: &'static str,
    pub input: FieldInput,
    /// The unit after the value; `{currency}` stands for the file's currency.
    pub unit: &'static str,
    /// What the field means and how it is booked, shown beside it.
    pub hint: &'static str,
    /// The last part of the widget's test id (`layer-<index>-<testid>`).
    pub testid: &'static str,
    /// How the undo history names a change of it.
    pub change: &'static str,
    /// The kinds whose editor shows this widget (the others of the row's kinds, if any, show a
    /// hand-made one).
    #[serde(skip)]
    pub kinds: &'static [LayerKind],
}

/// What a field holds, as the editor reads what is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum FieldInput {
    /// A decimal, or empty for none (the engine's default).
    OptionalDecimal,
}

/// Every field of a supply layer, in the editor's order (`id` and `kind` belong to every layer
/// and are not listed).
pub const LAYER_FIELDS: [LayerField; 39] = [
    LayerField {
        name: "accelerator",
        kinds: ALL,
        bound: AMOUNT,
        money: Money::No,
        quote: Some("accelerator"),
        stated: None,
        form: None,
    },
    LayerField {
        name: "offer",
        kinds: CLOUD,
        bound: AMOUNT,
        money: Money::No,
        quote: None,
        stated: Some(|l| l.offer.is_some()),
        form: None,
    },
    LayerField {
        name: "system",
        kinds: OWNED,
        bound: AMOUNT,
        money: Money::No,
        quote: None,
        stated: Some(|l| l.system.is_some()),
        form: None,
    },
    LayerField {
        name: "gpus",
        kinds: ALL,
        bound: GPUS,
        money: Money::No,
        quote: Some("gpus"),
        stated: None,
        form: None,
    },
    LayerField {
        name: "gpus_per_server",
        kinds: OWNED,
        bound: bound(dec!(1024), "GPUs per server"),
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "price_per_gpu",
        kinds: OWNED,
        bound: AMOUNT,
        money: Money::Override,
        quote: Some("hardware_price_per_gpu"),
        stated: Some(|l| l.price_per_gpu.is_some()),
        form: None,
    },
    LayerField {
        name: "platform_cost_per_gpu",
        kinds: OWNED,
        bound: AMOUNT,
        money: Money::Amount,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "installation",
        kinds: OWNED,
        bound: AMOUNT,
        money: Money::Amount,
        quote: Some("installation"),
        stated: None,
        form: None,
    },
    LayerField {
        name: "price_per_gpu_hour",
        kinds: HOURLY,
        bound: PRICE_PER_UNIT,
        money: Money::Override,
        quote: Some("price_per_gpu_hour"),
        stated: Some(|l| l.price_per_gpu_hour.is_some()),
        form: None,
    },
    LayerField {
        name: "price_per_million_tokens",
        kinds: TOKEN,
        bound: PRICE_PER_UNIT,
        money: Money::Override,
        quote: None,
        stated: Some(|l| l.price_per_million_tokens.is_some()),
        form: None,
    },
    LayerField {
        name: "price_per_million_input_tokens",
        kinds: TOKEN,
        bound: PRICE_PER_UNIT,
        money: Money::Override,
        quote: None,
        stated: Some(|l| l.price_per_million_input_tokens.is_some()),
        form: None,
    },
    LayerField {
        name: "price_per_million_output_tokens",
        kinds: TOKEN,
        bound: PRICE_PER_UNIT,
        money: Money::Override,
        quote: None,
        stated: Some(|l| l.price_per_million_output_tokens.is_some()),
        form: None,
    },
    LayerField {
        name: "price_per_million_cached_tokens",
        kinds: TOKEN,
        bound: PRICE_PER_UNIT,
        money: Money::Override,
        quote: None,
        stated: Some(|l| l.price_per_million_cached_tokens.is_some()),
        form: None,
    },
    LayerField {
        name: "term",
        kinds: RESERVED,
        bound: AMOUNT,
        money: Money::No,
        quote: Some("commitment_months"),
        stated: Some(|l| l.term.is_some()),
        form: None,
    },
    LayerField {
        name: "peak_tflops",
        kinds: ALL,
        bound: floor(dec!(10000000), MIN_PEAK_TFLOPS, "TFLOPS"),
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "mfu",
        kinds: ALL,
        bound: floor(Decimal::ONE, MIN_MFU, "MFU"),
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "availability",
        kinds: ALL,
        bound: SHARE,
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "start_month",
        kinds: ALL,
        bound: MONTHS,
        money: Money::No,
        // A rented layer starts after the quoted lead time (owned hardware starts at once and is
        // delivered after its lead time).
        quote: Some("lead_time_months"),
        stated: None,
        form: None,
    },
    LayerField {
        name: "lead_time_months",
        kinds: OWNED,
        bound: MONTHS,
        money: Money::No,
        quote: Some("lead_time_months"),
        stated: Some(|l| l.lead_time_months > 0),
        form: None,
    },
    LayerField {
        name: "lead_time_reason",
        kinds: OWNED,
        bound: AMOUNT,
        money: Money::No,
        quote: None,
        stated: Some(|l| l.lead_time_reason.is_some()),
        form: None,
    },
    LayerField {
        name: "lead_time_source",
        kinds: OWNED,
        bound: AMOUNT,
        money: Money::No,
        quote: None,
        stated: Some(|l| l.lead_time_source.is_some()),
        form: None,
    },
    LayerField {
        name: "financing",
        kinds: OWNED,
        bound: AMOUNT,
        money: Money::No,
        quote: None,
        stated: Some(|l| l.financing.is_some()),
        form: None,
    },
    LayerField {
        name: "payment_milestones",
        kinds: OWNED,
        bound: AMOUNT,
        money: Money::No,
        quote: None,
        stated: Some(|l| !l.payment_milestones.is_empty()),
        form: None,
    },
    LayerField {
        name: "depreciation_life_months",
        kinds: OWNED,
        bound: MONTHS,
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "salvage_share",
        kinds: OWNED,
        bound: SHARE,
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "residual_share",
        kinds: OWNED,
        bound: SHARE,
        money: Money::No,
        quote: None,
        stated: Some(|l| l.residual_share.is_some()),
        form: None,
    },
    LayerField {
        name: "residual_reason",
        kinds: OWNED,
        bound: AMOUNT,
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "support_rate_per_year",
        kinds: OWNED,
        bound: SHARE,
        money: Money::No,
        quote: Some("support_rate_per_year"),
        stated: None,
        form: None,
    },
    LayerField {
        name: "non_server_maintenance_rate_per_year",
        kinds: OWNED,
        bound: SHARE,
        money: Money::No,
        quote: None,
        stated: Some(|l| l.non_server_maintenance_rate_per_year.is_some()),
        form: None,
    },
    LayerField {
        name: "running_cost_per_gpu_hour",
        kinds: GPU_HOURS,
        bound: PRICE_PER_UNIT,
        money: Money::Amount,
        quote: None,
        stated: Some(|l| l.running_cost_per_gpu_hour.is_some()),
        // Owned hardware shows it among its running costs; a rented layer here.
        form: Some(FieldForm {
            name: "running_cost_per_gpu_hour",
            label: "Running cost",
            input: FieldInput::OptionalDecimal,
            unit: "{currency} per GPU-hour of use",
            hint: "Charges per GPU-hour of use beyond the hourly price (support billed on usage, a managed-service uplift); booked as operations",
            testid: "running-cost",
            change: "running cost per GPU-hour",
            kinds: HOURLY,
        }),
    },
    LayerField {
        name: "running_cost_per_month",
        kinds: RENTED,
        bound: AMOUNT,
        money: Money::Amount,
        quote: None,
        stated: Some(|l| l.running_cost_per_month.is_some()),
        form: Some(FieldForm {
            name: "running_cost_per_month",
            label: "Running cost a month",
            input: FieldInput::OptionalDecimal,
            unit: "{currency} a month",
            hint: "A fixed charge each month the layer is in service (a support plan, a platform or managed-service fee); booked as support",
            testid: "running-cost-month",
            change: "running cost a month",
            kinds: RENTED,
        }),
    },
    LayerField {
        name: "power_kw_per_gpu",
        kinds: OWNED,
        bound: floor(dec!(1000), dec!(0.001), "kW per GPU"),
        money: Money::No,
        quote: None,
        stated: Some(|l| l.power_kw_per_gpu.is_some()),
        form: None,
    },
    LayerField {
        name: "idle_power_share",
        kinds: OWNED,
        bound: SHARE,
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "interruptions_per_hour",
        kinds: SPOT,
        bound: floor(dec!(1000), dec!(0.000001), "interruptions per hour"),
        money: Money::No,
        quote: Some("interruptions_per_hour"),
        stated: Some(|l| l.interruptions_per_hour.is_some()),
        form: None,
    },
    LayerField {
        name: "checkpoint_write_minutes",
        kinds: SPOT,
        bound: MINUTES,
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "restart_minutes",
        kinds: SPOT,
        bound: MINUTES,
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "serves",
        kinds: ALL,
        bound: AMOUNT,
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "exit",
        kinds: ALL,
        bound: AMOUNT,
        money: Money::No,
        quote: None,
        stated: None,
        form: None,
    },
    LayerField {
        name: "exit_clause",
        kinds: COMMITTED,
        bound: AMOUNT,
        money: Money::No,
        // A reservation's clause is made from the quote's exit columns (`Quote::exit_clause`).
        quote: None,
        stated: None,
        form: None,
    },
];

/// The row of the field `name`, if it is a layer field.
pub fn field(name: &str) -> Option<&'static LayerField> {
    LAYER_FIELDS.iter().find(|f| f.name == name)
}

/// Whether the layer field `name` applies to `kind`.
pub fn applies(name: &str, kind: LayerKind) -> bool {
    field(name).is_some_and(|f| f.kinds.contains(&kind))
}

/// Whether `kind` buys from a catalog offer (reserved, spot, on-demand).
pub fn is_cloud(kind: LayerKind) -> bool {
    CLOUD.contains(&kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_of_a_layer_has_one_row() {
        let empty = crate::engine::input::scenario_file::empty_layer("x", LayerKind::Owned);
        let json = serde_json::to_value(&empty).expect("a layer serializes");
        let mut names: Vec<&str> = json
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .filter(|k| !matches!(*k, "id" | "kind"))
            .collect();
        names.sort_unstable();
        let mut rows: Vec<&str> = LAYER_FIELDS.iter().map(|f| f.name).collect();
        rows.sort_unstable();
        assert_eq!(
            rows, names,
            "a field of LayerSpec without a row, or a row without a field"
        );
    }

    #[test]
    fn a_form_names_its_own_field_on_kinds_of_its_row() {
        for f in &LAYER_FIELDS {
            if let Some(form) = f.form {
                assert_eq!(form.name, f.name);
                assert!(form.kinds.iter().all(|k| f.kinds.contains(k)), "{}", f.name);
            }
        }
    }
}
