//! The bounds on every number a scenario file can carry (issue #14).
//!
//! The engine computes in `rust_decimal` (28 significant digits, at most about 7.9 × 10^28) and
//! cannot fail once a plan is validated, so validation must keep every product the engine forms
//! far from that limit. Each number is checked against the bound of its field, named by the last
//! key of its JSON path (an override's `value` by its field): a ceiling, and for figures the
//! engine divides by, a floor below which a positive value is refused (zero keeps its meaning).
//! A layer field's bound is in its row of [`layer_fields::LAYER_FIELDS`] (the same bound for its
//! name wherever else it appears); every other field's is named here. A field neither names is
//! held to the money ceiling, so a field added later is bounded too. The limits themselves and
//! the bounds several fields share are in [`crate::engine::input::bounds`].
//!
//! The worst products, with every bound at its end (documented in README.md, "Limits"):
//! - a month of rented compute: 10^7 GPUs × 744 h × 10^6 per GPU-hour ≈ 7.4 × 10^15, and
//!   unbounded rented layers are sized from demand: at most 10^12 useful PFLOP-hours a month
//!   (see [`MAX_MONTHLY_DEMAND_PFLOP_H`]) over at least 10^-5 useful PFLOP-hours per GPU-hour
//!   (1 TFLOPS at 1% MFU) = 10^17 GPU-hours × 10^6 = 10^23 a month, 1.2 × 10^25 over 120 months;
//! - owned hardware: 10^7 GPUs × 10^12 per GPU = 10^19; energy 10^7 GPUs × 10^3 kW × 744 h ×
//!   PUE 10 × 10^6 per kWh ≈ 7.4 × 10^19 a month;
//! - tokens: 10^12 PFLOP-hours × 3.6 × 10^18 FLOP ÷ 2 × 10^6 FLOP per token (a 10^6-parameter
//!   model, the smallest accepted) = 1.8 × 10^24 tokens × 10^6 per million = 1.8 × 10^24 a month
//!   (a price by kind of token is Σ share × price with shares of at most 1 summing to 1, so it too
//!   is at most 10^6);
//! - demand: 10^18 tokens ÷ 3.6 × 10^18 × 6 × 10^15 FLOP per token (divided first) ≈ 1.7 × 10^15
//!   PFLOP-hours, which the demand check refuses above 10^12 a month, growth included;
//! - loans: (1 + 100%)^(30 years) = 10^9.
//!
//! All stay below 10^27, two digits of headroom under the limit.

use rust_decimal::Decimal;
use rust_decimal::dec;
use std::borrow::Cow;

use serde::Serialize;

use crate::engine::input::bounds::{
    AMOUNT, Bound, MAX_GPU_HOURS_PER_DAY, MAX_LOAN_MONTHS, MAX_PARAMETERS_BILLION, MAX_TOKENS_PER_MONTH,
    MIN_PARAMETERS_BILLION, MONTHS, PRICE_PER_UNIT, SHARE, bound, floor,
};
use crate::engine::input::layer_fields;
use crate::engine::input::scenario_file::ScenarioFile;
use crate::problem::Problem;

/// Fields that hold text (ids, names, codes, reasons): a text that reads as a number is not one.
const TEXT_KEYS: [&str; 33] = [
    "id",
    "name",
    "title",
    "description",
    "reason",
    "source",
    "currency",
    "base",
    "quote",
    "start",
    "accelerator",
    "offer",
    "system",
    "region",
    "cooling",
    "colocation",
    "fabric",
    "power_distribution_upgrade",
    "cooling_upgrade",
    "gpu_hours_on",
    "residual_reason",
    "lead_time_reason",
    "lead_time_source",
    "serves",
    "kind",
    "method",
    "class",
    "precision",
    "price_point",
    "data_classification",
    // The tax profile's preset id and its words (issue #44).
    "preset",
    "convention",
    "rank",
];

/// The bound of the field named `key` (the last key of its path): a layer field's is in its row
/// of the table of layer fields, any other's in [`other_bound`].
fn bound_of(key: &str) -> Bound {
    match layer_fields::field(key) {
        Some(f) => f.bound,
        None => other_bound(key),
    }
}

/// The bound of a field that is not a layer field (workloads, settings, facilities, catalog
/// figures, loans, exchange rates), named by its key.
fn other_bound(key: &str) -> Bound {
    match key {
        "tariff_per_kwh" | "colocation_per_kw_month" => PRICE_PER_UNIT,
        "demand_scale" => bound(dec!(100), "a scale of demand"),
        "parameters_billion" => floor(MAX_PARAMETERS_BILLION, MIN_PARAMETERS_BILLION, "billion parameters"),
        "tokens_per_month" => bound(MAX_TOKENS_PER_MONTH, "tokens a month"),
        "gpu_hours_per_day" => bound(MAX_GPU_HOURS_PER_DAY, "GPU-hours a day"),
        "layers" | "kv_heads" => bound(dec!(100000), "a model dimension"),
        "head_dim" => bound(dec!(100000), "a head dimension"),
        "context_tokens" => bound(dec!(100000000), "tokens of context"),
        "batch" => bound(dec!(1000000), "sequences in a batch"),
        "staff_fte" => bound(dec!(1000000), "full-time equivalents"),
        "egress_tb_per_month" | "data_tb" => bound(dec!(1000000000), "terabytes"),
        "kw_per_rack_limit" => floor(dec!(100000), dec!(0.1), "kW per rack"),
        "pue" => bound(dec!(10), "PUE"),
        "grid_gco2_per_kwh" => bound(dec!(100000), "gCO2 per kWh"),
        "rate" => floor(dec!(1000000), dec!(0.000001), "an exchange rate"),
        "term_months" => bound(Decimal::from(MAX_LOAN_MONTHS), "months"),
        "format_version" => bound(dec!(1000000), "a format version"),
        "horizon_months" | "active_from_month" | "active_months" | "month" | "notice_months" => MONTHS,
        "monthly_growth"
        | "discount_rate"
        | "annual_rate"
        | "down_payment"
        | "share"
        | "egress_share_of_cloud_spend"
        // A token mix's shares (`token_mix.input`, `.output`, `.cached`).
        | "input"
        | "output"
        | "cached" => SHARE,
        // Money: prices, fees and costs, and any field not named above.
        _ => AMOUNT,
    }
}

/// The bound of the field named `key` (the last key of its JSON path; an override's by its field):
/// the most it may be, and the least a positive value may be, when there is such a floor.
pub fn range_of(key: &str) -> (Decimal, Option<Decimal>) {
    let b = bound_of(key);
    (b.max, b.min_positive)
}

/// Every number of `file` outside its bound, at its JSON path, with the bound in the message.
///
/// The file is walked as serde serializes it, exactly as its JSON would read (objects, arrays,
/// numbers, and decimals as text), without building that JSON: a move of a what-if slider
/// validates the whole compared file, and a tree of JSON values cost a third of the move. The
/// problems come in the order of a walk of the JSON with each object's keys sorted (the order
/// `serde_json::Value` keeps), so messages list them as before.
pub fn check(file: &ScenarioFile) -> Vec<Problem> {
    let mut walk = Walk::default();
    match file.serialize(&mut walk) {
        Ok(()) => {
            let mut found = walk.found;
            // A stable sort on the paths' steps: keys by their text, indices by number.
            found.sort_by(|a, b| a.0.cmp(&b.0));
            found.into_iter().map(|(_, p)| p).collect()
        }
        Err(e) => vec![Problem {
            path: String::new(),
            message: format!("the file cannot be checked ({e})"),
        }],
    }
}

/// The names of the fields whose text is never a number (ids, names, codes, reasons).
pub fn is_text_field(key: &str) -> bool {
    TEXT_KEYS.contains(&key)
}

/// One step of a JSON path: a key, or an index into an array.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Key(Cow<'static, str>),
    Index(usize),
}

/// The path `steps` spell, as `validate` names fields: `scenarios[0].layers[1].gpus`.
fn path_of(steps: &[Step]) -> String {
    let mut path = String::new();
    for step in steps {
        match step {
            Step::Key(k) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Step::Index(i) => {
                path.push('[');
                path.push_str(&i.to_string());
                path.push(']');
            }
        }
    }
    path
}

/// Why a file could not be walked (a map key that is not text, a number JSON cannot hold).
#[derive(Debug)]
struct Unwalkable(String);

impl std::fmt::Display for Unwalkable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unwalkable {}

impl serde::ser::Error for Unwalkable {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Unwalkable(msg.to_string())
    }
}

/// The walk: the path to the value being serialized, the field its bound is named by (the last
/// key; an override's `value` by the field it belongs to), and the numbers found out of bounds
/// with their paths. The path is spelled only for a number out of bounds: a file within them
/// (every file the engine evaluates, each what-if move included) costs no text.
#[derive(Default)]
struct Walk {
    steps: Vec<Step>,
    key: Cow<'static, str>,
    found: Vec<(Vec<Step>, Problem)>,
}

impl Walk {
    /// Enters the child at key `k` (its bound named by `k`, or by the parent's key for `value`),
    /// returning the parent's key to restore on leaving.
    fn enter(&mut self, k: Cow<'static, str>) -> Cow<'static, str> {
        let named = if k == "value" { self.key.clone() } else { k.clone() };
        self.steps.push(Step::Key(k));
        std::mem::replace(&mut self.key, named)
    }

    fn leave(&mut self, parent: Cow<'static, str>) {
        self.steps.pop();
        self.key = parent;
    }

    fn decimal(&mut self, d: Decimal) {
        let mut out = Vec::new();
        number(d, &self.steps, &self.key, &mut out);
        self.found.extend(out.into_iter().map(|p| (self.steps.clone(), p)));
    }

    fn text(&mut self, s: &str) {
        if is_text_field(&self.key) {
            return;
        }
        if let Ok(d) = s.parse::<Decimal>() {
            self.decimal(d);
        }
    }
}

/// An array being walked (a sequence, tuple or bytes), or an enum's tuple variant (one key, then
/// the array).
struct Items<'a> {
    walk: &'a mut Walk,
    next: usize,
    /// The parent's key, when a variant's key was entered for this array.
    variant: Option<Cow<'static, str>>,
}

impl Items<'_> {
    fn item<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unwalkable> {
        self.walk.steps.push(Step::Index(self.next));
        self.next += 1;
        let r = value.serialize(&mut *self.walk);
        self.walk.steps.pop();
        r
    }

    fn done(self) {
        if let Some(parent) = self.variant {
            self.walk.leave(parent);
        }
    }
}

/// An object being walked (a struct or map), or an enum's struct variant (one key, then the
/// object).
struct Fields<'a> {
    walk: &'a mut Walk,
    /// A map's key, given before its value.
    pending: Option<String>,
    variant: Option<Cow<'static, str>>,
}

impl Fields<'_> {
    fn field<T: ?Sized + Serialize>(&mut self, key: Cow<'static, str>, value: &T) -> Result<(), Unwalkable> {
        let parent = self.walk.enter(key);
        let r = value.serialize(&mut *self.walk);
        self.walk.leave(parent);
        r
    }

    fn done(self) {
        if let Some(parent) = self.variant {
            self.walk.leave(parent);
        }
    }
}

macro_rules! items {
    ($trait:ident, $method:ident) => {
        impl serde::ser::$trait for Items<'_> {
            type Ok = ();
            type Error = Unwalkable;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unwalkable> {
                self.item(value)
            }
            fn end(self) -> Result<(), Unwalkable> {
                self.done();
                Ok(())
            }
        }
    };
}

items!(SerializeSeq, serialize_element);
items!(SerializeTuple, serialize_element);
items!(SerializeTupleStruct, serialize_field);
items!(SerializeTupleVariant, serialize_field);

macro_rules! fields {
    ($trait:ident) => {
        impl serde::ser::$trait for Fields<'_> {
            type Ok = ();
            type Error = Unwalkable;
            fn serialize_field<T: ?Sized + Serialize>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Unwalkable> {
                self.field(Cow::Borrowed(key), value)
            }
            fn end(self) -> Result<(), Unwalkable> {
                self.done();
                Ok(())
            }
        }
    };
}

fields!(SerializeStruct);
fields!(SerializeStructVariant);

impl serde::ser::SerializeMap for Fields<'_> {
    type Ok = ();
    type Error = Unwalkable;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Unwalkable> {
        self.pending = Some(key.serialize(KeyText)?);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unwalkable> {
        let key = self
            .pending
            .take()
            .ok_or_else(|| Unwalkable("a map value came without its key".to_owned()))?;
        self.field(Cow::Owned(key), value)
    }
    fn end(self) -> Result<(), Unwalkable> {
        self.done();
        Ok(())
    }
}

impl<'a> serde::Serializer for &'a mut Walk {
    type Ok = ();
    type Error = Unwalkable;
    type SerializeSeq = Items<'a>;
    type SerializeTuple = Items<'a>;
    type SerializeTupleStruct = Items<'a>;
    type SerializeTupleVariant = Items<'a>;
    type SerializeMap = Fields<'a>;
    type SerializeStruct = Fields<'a>;
    type SerializeStructVariant = Fields<'a>;

    fn serialize_bool(self, _: bool) -> Result<(), Unwalkable> {
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Unwalkable> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Unwalkable> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Unwalkable> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Unwalkable> {
        self.decimal(Decimal::from(v));
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Unwalkable> {
        // As JSON holds it: a whole number within 64 bits, or none.
        match i64::try_from(v) {
            Ok(v) => self.serialize_i64(v),
            Err(_) => match u64::try_from(v) {
                Ok(v) => self.serialize_u64(v),
                Err(_) => Err(Unwalkable("number out of range".to_owned())),
            },
        }
    }
    fn serialize_u8(self, v: u8) -> Result<(), Unwalkable> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Unwalkable> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Unwalkable> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unwalkable> {
        self.decimal(Decimal::from(v));
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Unwalkable> {
        match u64::try_from(v) {
            Ok(v) => self.serialize_u64(v),
            Err(_) => Err(Unwalkable("number out of range".to_owned())),
        }
    }
    fn serialize_f32(self, v: f32) -> Result<(), Unwalkable> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unwalkable> {
        // No field of a file is a binary fraction: one that is there is refused as beyond every
        // bound (a non-finite one is JSON's `null`, no number at all).
        if v.is_finite() {
            self.decimal(Decimal::MAX);
        }
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unwalkable> {
        self.text(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Unwalkable> {
        self.text(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unwalkable> {
        // JSON writes bytes as an array of numbers.
        let mut items = Items {
            walk: self,
            next: 0,
            variant: None,
        };
        for b in v {
            items.item(b)?;
        }
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Unwalkable> {
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Unwalkable> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unwalkable> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unwalkable> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Unwalkable> {
        self.text(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<(), Unwalkable> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unwalkable> {
        let parent = self.enter(Cow::Borrowed(variant));
        let r = value.serialize(&mut *self);
        self.leave(parent);
        r
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Items<'a>, Unwalkable> {
        Ok(Items {
            walk: self,
            next: 0,
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Items<'a>, Unwalkable> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Items<'a>, Unwalkable> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Items<'a>, Unwalkable> {
        let parent = self.enter(Cow::Borrowed(variant));
        Ok(Items {
            walk: self,
            next: 0,
            variant: Some(parent),
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Fields<'a>, Unwalkable> {
        Ok(Fields {
            walk: self,
            pending: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'a>, Unwalkable> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Fields<'a>, Unwalkable> {
        let parent = self.enter(Cow::Borrowed(variant));
        Ok(Fields {
            walk: self,
            pending: None,
            variant: Some(parent),
        })
    }
}

/// A map's key as JSON writes it: text, or a whole number or a unit variant written as text.
struct KeyText;

impl serde::Serializer for KeyText {
    type Ok = String;
    type Error = Unwalkable;
    type SerializeSeq = serde::ser::Impossible<String, Unwalkable>;
    type SerializeTuple = serde::ser::Impossible<String, Unwalkable>;
    type SerializeTupleStruct = serde::ser::Impossible<String, Unwalkable>;
    type SerializeTupleVariant = serde::ser::Impossible<String, Unwalkable>;
    type SerializeMap = serde::ser::Impossible<String, Unwalkable>;
    type SerializeStruct = serde::ser::Impossible<String, Unwalkable>;
    type SerializeStructVariant = serde::ser::Impossible<String, Unwalkable>;

    fn serialize_bool(self, _: bool) -> Result<String, Unwalkable> {
        Err(not_text())
    }
    fn serialize_i8(self, v: i8) -> Result<String, Unwalkable> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, Unwalkable> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, Unwalkable> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, Unwalkable> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, Unwalkable> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, Unwalkable> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, Unwalkable> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, Unwalkable> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, _: f32) -> Result<String, Unwalkable> {
        Err(not_text())
    }
    fn serialize_f64(self, _: f64) -> Result<String, Unwalkable> {
        Err(not_text())
    }
    fn serialize_char(self, v: char) -> Result<String, Unwalkable> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String, Unwalkable> {
        Ok(v.to_owned())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, Unwalkable> {
        Err(not_text())
    }
    fn serialize_none(self) -> Result<String, Unwalkable> {
        Err(not_text())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<String, Unwalkable> {
        Err(not_text())
    }
    fn serialize_unit(self) -> Result<String, Unwalkable> {
        Err(not_text())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Unwalkable> {
        Err(not_text())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<String, Unwalkable> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<String, Unwalkable> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Unwalkable> {
        Err(not_text())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unwalkable> {
        Err(not_text())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unwalkable> {
        Err(not_text())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Unwalkable> {
        Err(not_text())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unwalkable> {
        Err(not_text())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unwalkable> {
        Err(not_text())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Unwalkable> {
        Err(not_text())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unwalkable> {
        Err(not_text())
    }
}

fn not_text() -> Unwalkable {
    Unwalkable("key must be a string".to_owned())
}

fn number(d: Decimal, steps: &[Step], key: &str, out: &mut Vec<Problem>) {
    let b = bound_of(key);
    if d.abs() > b.max {
        out.push(Problem {
            path: path_of(steps),
            message: format!(
                "{} is beyond what the planner evaluates here ({} at most, {}); see Limits in the README",
                crate::problem::clip(&d.normalize().to_string()),
                b.max.normalize(),
                b.what
            ),
        });
    } else if let Some(min) = b.min_positive
        && d > Decimal::ZERO
        && d < min
    {
        out.push(Problem {
            path: path_of(steps),
            message: format!(
                "{} is too small to evaluate ({} at least, {}); see Limits in the README",
                d.normalize(),
                min.normalize(),
                b.what
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::engine::input::bounds::{MAX_GPUS, MAX_MONEY, MAX_MONTHS, MAX_RATE_PRICE, MIN_MFU, MIN_PEAK_TFLOPS};
    use crate::engine::input::layer_fields::{LAYER_FIELDS, LayerField};

    /// `bound_of` as it was before the table of layer fields held their bounds (issue #43), word
    /// for word: (the most, the least positive, what it is).
    fn bound_before(key: &str) -> (Decimal, Option<Decimal>, &'static str) {
        let bound = |max, what| (max, None, what);
        let floor = |max, min, what| (max, Some(min), what);
        match key {
            "price_per_gpu_hour"
            | "running_cost_per_gpu_hour"
            | "price_per_million_tokens"
            | "price_per_million_input_tokens"
            | "price_per_million_output_tokens"
            | "price_per_million_cached_tokens"
            | "tariff_per_kwh"
            | "colocation_per_kw_month" => bound(MAX_RATE_PRICE, "a price per unit"),
            "gpus" => bound(MAX_GPUS, "GPUs"),
            "demand_scale" => bound(dec!(100), "a scale of demand"),
            "gpus_per_server" => bound(dec!(1024), "GPUs per server"),
            "parameters_billion" => floor(MAX_PARAMETERS_BILLION, MIN_PARAMETERS_BILLION, "billion parameters"),
            "tokens_per_month" => bound(MAX_TOKENS_PER_MONTH, "tokens a month"),
            "gpu_hours_per_day" => bound(MAX_GPU_HOURS_PER_DAY, "GPU-hours a day"),
            "layers" | "kv_heads" => bound(dec!(100000), "a model dimension"),
            "head_dim" => bound(dec!(100000), "a head dimension"),
            "context_tokens" => bound(dec!(100000000), "tokens of context"),
            "batch" => bound(dec!(1000000), "sequences in a batch"),
            "staff_fte" => bound(dec!(1000000), "full-time equivalents"),
            "egress_tb_per_month" | "data_tb" => bound(dec!(1000000000), "terabytes"),
            "mfu" => floor(Decimal::ONE, MIN_MFU, "MFU"),
            "peak_tflops" => floor(dec!(10000000), MIN_PEAK_TFLOPS, "TFLOPS"),
            "power_kw_per_gpu" => floor(dec!(1000), dec!(0.001), "kW per GPU"),
            "kw_per_rack_limit" => floor(dec!(100000), dec!(0.1), "kW per rack"),
            "pue" => bound(dec!(10), "PUE"),
            "grid_gco2_per_kwh" => bound(dec!(100000), "gCO2 per kWh"),
            "interruptions_per_hour" => floor(dec!(1000), dec!(0.000001), "interruptions per hour"),
            "checkpoint_write_minutes" | "restart_minutes" => bound(dec!(100000), "minutes"),
            "rate" => floor(dec!(1000000), dec!(0.000001), "an exchange rate"),
            "term_months" => bound(Decimal::from(MAX_LOAN_MONTHS), "months"),
            "format_version" => bound(dec!(1000000), "a format version"),
            "horizon_months"
            | "start_month"
            | "lead_time_months"
            | "active_from_month"
            | "active_months"
            | "depreciation_life_months"
            | "month"
            | "notice_months" => bound(Decimal::from(MAX_MONTHS), "months"),
            "availability"
            | "monthly_growth"
            | "discount_rate"
            | "annual_rate"
            | "down_payment"
            | "share"
            | "salvage_share"
            | "residual_share"
            | "support_rate_per_year"
            | "non_server_maintenance_rate_per_year"
            | "idle_power_share"
            | "egress_share_of_cloud_spend"
            | "input"
            | "output"
            | "cached" => bound(dec!(1000), "a share"),
            _ => bound(MAX_MONEY, "an amount"),
        }
    }

    /// Every key the match of before named, whether a layer field's or another's.
    const KEYS_BEFORE: [&str; 63] = [
        "price_per_gpu_hour",
        "running_cost_per_gpu_hour",
        "price_per_million_tokens",
        "price_per_million_input_tokens",
        "price_per_million_output_tokens",
        "price_per_million_cached_tokens",
        "tariff_per_kwh",
        "colocation_per_kw_month",
        "gpus",
        "demand_scale",
        "gpus_per_server",
        "parameters_billion",
        "tokens_per_month",
        "gpu_hours_per_day",
        "layers",
        "kv_heads",
        "head_dim",
        "context_tokens",
        "batch",
        "staff_fte",
        "egress_tb_per_month",
        "data_tb",
        "mfu",
        "peak_tflops",
        "power_kw_per_gpu",
        "kw_per_rack_limit",
        "pue",
        "grid_gco2_per_kwh",
        "interruptions_per_hour",
        "checkpoint_write_minutes",
        "restart_minutes",
        "rate",
        "term_months",
        "format_version",
        "horizon_months",
        "start_month",
        "lead_time_months",
        "active_from_month",
        "active_months",
        "depreciation_life_months",
        "month",
        "notice_months",
        "availability",
        "monthly_growth",
        "discount_rate",
        "annual_rate",
        "down_payment",
        "share",
        "salvage_share",
        "residual_share",
        "support_rate_per_year",
        "non_server_maintenance_rate_per_year",
        "idle_power_share",
        "egress_share_of_cloud_spend",
        "input",
        "output",
        "cached",
        // Keys the match left to its default (money), among them layer fields.
        "price_per_gpu",
        "installation",
        "running_cost_per_month",
        "value",
        "no_such_field",
        "",
    ];

    /// Every property name the scenario file's schema has, at any depth.
    fn schema_keys() -> Vec<String> {
        fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(map) => {
                    if let Some(serde_json::Value::Object(props)) = map.get("properties") {
                        out.extend(props.keys().cloned());
                    }
                    map.values().for_each(|c| walk(c, out));
                }
                serde_json::Value::Array(items) => items.iter().for_each(|c| walk(c, out)),
                _ => {}
            }
        }
        let schema: serde_json::Value =
            serde_json::from_str(&crate::engine::input::scenario_file::schema_json()).expect("the schema is JSON");
        let mut out = Vec::new();
        walk(&schema, &mut out);
        out.sort();
        out.dedup();
        out
    }

    /// How each of `rows` differs from the bound its field had before: empty when none does.
    fn changed_rows(rows: &[LayerField]) -> Vec<String> {
        rows.iter()
            .filter_map(|f| {
                let (max, min, what) = bound_before(f.name);
                let b = f.bound;
                (b.max != max || b.min_positive != min || b.what != what)
                    .then(|| format!("`{}`: {b:?}, before ({max}, {min:?}, {what})", f.name))
            })
            .collect()
    }

    #[test]
    fn every_layer_field_is_bounded_by_its_row() {
        for f in &LAYER_FIELDS {
            assert_eq!(bound_of(f.name), f.bound, "{}", f.name);
            // No arm of the other fields' list names a layer field: the row alone decides.
            assert_eq!(other_bound(f.name), AMOUNT, "{} has an arm in other_bound", f.name);
        }
    }

    #[test]
    fn every_key_has_the_bound_it_had_before() {
        let schema = schema_keys();
        assert!(schema.len() > 100, "{schema:?}");
        let keys = KEYS_BEFORE
            .iter()
            .copied()
            .chain(LAYER_FIELDS.iter().map(|f| f.name))
            .chain(schema.iter().map(String::as_str));
        for key in keys {
            let b = bound_of(key);
            assert_eq!((b.max, b.min_positive, b.what), bound_before(key), "{key}");
            assert_eq!(range_of(key), (b.max, b.min_positive), "{key}");
        }
        assert!(
            changed_rows(&LAYER_FIELDS).is_empty(),
            "{:#?}",
            changed_rows(&LAYER_FIELDS)
        );
    }

    #[test]
    fn a_row_with_another_bound_is_caught() {
        let mut rows = LAYER_FIELDS;
        for row in &mut rows {
            match row.name {
                // The right ceiling, with a floor it never had.
                "gpus" => row.bound = floor(MAX_GPUS, Decimal::ONE, "GPUs"),
                // Another name for the same ceiling.
                "availability" => row.bound = bound(dec!(1000), "an availability"),
                // The money ceiling in place of a price's.
                "price_per_gpu_hour" => row.bound = AMOUNT,
                _ => {}
            }
        }
        let changed = changed_rows(&rows);
        assert_eq!(changed.len(), 3, "{changed:#?}");
        for (c, name) in changed.iter().zip(["gpus", "price_per_gpu_hour", "availability"]) {
            assert!(c.starts_with(&format!("`{name}`")), "{changed:#?}");
        }
    }

    #[test]
    fn a_number_past_a_layer_fields_bound_reads_as_before() {
        let mut out = Vec::new();
        let steps = [Step::Key("gpus".into())];
        number(dec!(10000001), &steps, "gpus", &mut out);
        number(dec!(0.005), &steps, "mfu", &mut out);
        number(dec!(5), &steps, "start_month", &mut out);
        let messages: Vec<&str> = out.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "10000001 is beyond what the planner evaluates here (10000000 at most, GPUs); see Limits in the README",
                "0.005 is too small to evaluate (0.01 at least, MFU); see Limits in the README",
            ]
        );
    }
}
