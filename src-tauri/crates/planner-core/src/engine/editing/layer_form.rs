//! The form of a supply layer: which fields each kind of layer takes, an empty layer of a kind,
//! a layer switched to another kind without the fields the new kind refuses, and a new layer
//! added to a scenario. The editor shows exactly these fields and starts from these layers, so
//! what it offers is what [`crate::engine::resolve::validate`] accepts (a test checks it on every kind).

use rust_decimal::Decimal;
use serde::Serialize;

use crate::catalog::Catalog;
use crate::engine::input::layer_fields::{FieldForm, LAYER_FIELDS, LAYER_KINDS, is_cloud};
use crate::engine::input::scenario_file::{CommitTerm, LayerKind, LayerSpec, ScenarioSpec, empty_layer, kind_id};

/// What the editor shows for one kind of layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LayerForm {
    pub kind: LayerKind,
    /// A cloud kind (reserved, spot, on-demand): it buys from a catalog offer.
    pub cloud: bool,
    /// The fields a layer of this kind takes, by their name in the scenario file, in the
    /// editor's order (`id` and `kind` not listed).
    pub fields: Vec<String>,
    /// A new layer of this kind: every optional field empty, every default the engine's.
    pub empty: LayerSpec,
    /// The fields of this kind no hand-made widget shows, as the editor shows them (from the
    /// table of layer fields); absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub generic: Vec<FieldForm>,
}

/// The form of every kind, in [`LAYER_KINDS`] order (the table of layer fields gives each its fields).
pub fn forms() -> Vec<LayerForm> {
    LAYER_KINDS
        .iter()
        .map(|&kind| LayerForm {
            kind,
            cloud: is_cloud(kind),
            fields: LAYER_FIELDS
                .iter()
                .filter(|f| f.kinds.contains(&kind))
                .map(|f| f.name.to_owned())
                .collect(),
            empty: empty_layer(kind_id(kind), kind),
            generic: LAYER_FIELDS
                .iter()
                .filter_map(|f| f.form)
                .filter(|form| form.kinds.contains(&kind))
                .collect(),
        })
        .collect()
}

/// A scenario with no layers, no facility and every amount zero.
pub fn empty_scenario(id: &str, name: &str) -> ScenarioSpec {
    ScenarioSpec {
        id: id.to_owned(),
        name: name.to_owned(),
        description: None,
        price_point: None,
        layers: Vec::new(),
        facility: None,
        network: None,
        staff_fte: Decimal::ZERO,
        staff_cost_per_fte_year: Decimal::ZERO,
        engineer_month_cost: Decimal::ZERO,
        software_per_month: Decimal::ZERO,
        storage_per_month: Decimal::ZERO,
        egress_tb_per_month: Decimal::ZERO,
        egress_per_tb: Decimal::ZERO,
        egress_share_of_cloud_spend: None,
        demand_scale: None,
        monthly_growth: None,
        discount_rate: None,
        market: None,
    }
}

/// The accelerator a layer runs on: named, else through its server system or its offer in
/// `catalog`.
pub fn layer_accelerator(layer: &LayerSpec, catalog: &Catalog) -> Option<String> {
    if let Some(a) = &layer.accelerator {
        return Some(a.clone());
    }
    let system = layer
        .system
        .as_ref()
        .and_then(|id| catalog.facility.systems.iter().find(|s| &s.id == id));
    if let Some(s) = system {
        return Some(s.accelerator.clone());
    }
    let offer = layer
        .offer
        .as_ref()
        .and_then(|id| catalog.offers.iter().find(|o| &o.id == id));
    offer.map(|o| o.accelerator.clone())
}

/// The layer as a layer of `kind`: the fields the new kind does not take are emptied (the engine
/// would refuse them); the count of GPUs, throughput, availability, start, the workloads served
/// and a fixed exit are kept. A cloud layer keeps its offer, else names the accelerator; a rented
/// price is kept between cloud and pooled kinds; a reserved layer keeps its term (one year when
/// it had none).
pub fn change_kind(layer: &LayerSpec, kind: LayerKind, catalog: &Catalog) -> LayerSpec {
    if layer.kind == kind {
        return layer.clone();
    }
    let accelerator = layer_accelerator(layer, catalog);
    let mut keep = LayerSpec {
        gpus: layer.gpus,
        peak_tflops: layer.peak_tflops.clone(),
        mfu: layer.mfu,
        availability: layer.availability,
        start_month: layer.start_month,
        serves: layer.serves.clone(),
        exit: layer.exit.clone(),
        ..empty_layer(&layer.id, kind)
    };
    let rented_before = is_cloud(layer.kind) || layer.kind == LayerKind::Pooled;
    if is_cloud(kind) {
        match &layer.offer {
            Some(offer) => keep.offer = Some(offer.clone()),
            None => keep.accelerator = accelerator,
        }
        if rented_before {
            keep.price_per_gpu_hour = layer.price_per_gpu_hour.clone();
        }
        if kind == LayerKind::Reserved {
            keep.term = Some(layer.term.unwrap_or(CommitTerm::OneYear));
        }
    } else {
        keep.accelerator = accelerator;
        if kind == LayerKind::Pooled && is_cloud(layer.kind) {
            keep.price_per_gpu_hour = layer.price_per_gpu_hour.clone();
        }
    }
    keep
}

/// A new layer of `kind` for `scenario`, with an id unique among its layers, on the accelerator
/// the scenario already uses: a cloud layer takes the first catalog offer for it (naming the
/// accelerator when there is none), any other kind names it.
pub fn new_layer(scenario: &ScenarioSpec, kind: LayerKind, catalog: &Catalog) -> LayerSpec {
    let taken: Vec<String> = scenario.layers.iter().map(|l| l.id.clone()).collect();
    let id = crate::engine::input::ids::unique_id(kind_id(kind), &taken, "layer");
    let mut layer = empty_layer(&id, kind);
    let accelerator = scenario.layers.iter().find_map(|l| layer_accelerator(l, catalog));
    if is_cloud(kind) {
        let offer = accelerator
            .as_ref()
            .and_then(|a| catalog.offers.iter().find(|o| &o.accelerator == a));
        match offer {
            Some(o) => layer.offer = Some(o.id.clone()),
            None => layer.accelerator = accelerator,
        }
    } else {
        layer.accelerator = accelerator;
    }
    layer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::input::layer_fields::applies;

    #[test]
    fn a_field_applies_to_the_kinds_the_engine_accepts_it_on() {
        let kinds = |field: &str| -> Vec<&str> {
            LAYER_KINDS
                .iter()
                .filter(|&&k| applies(field, k))
                .map(|&k| kind_id(k))
                .collect()
        };
        assert_eq!(kinds("offer"), ["reserved", "spot", "on-demand"]);
        assert_eq!(kinds("term"), ["reserved"]);
        assert_eq!(kinds("price_per_gpu_hour"), ["reserved", "spot", "on-demand", "pooled"]);
        assert_eq!(kinds("interruptions_per_hour"), ["spot"]);
        for field in [
            "price_per_million_tokens",
            "price_per_million_input_tokens",
            "price_per_million_output_tokens",
            "price_per_million_cached_tokens",
        ] {
            assert_eq!(kinds(field), ["token-metered"], "{field}");
        }
        assert_eq!(kinds("financing"), ["owned"]);
        assert_eq!(kinds("no_such_field"), Vec::<&str>::new());
        let forms = forms();
        assert_eq!(forms.len(), 6);
        assert_eq!(forms[1].empty.term, Some(CommitTerm::OneYear));
        assert_eq!(forms.iter().filter(|f| f.cloud).count(), 3);
    }
}
