//! New scenarios and layers as the editor starts them, on the catalog the app ships: every
//! default is a catalog entry that fits, what cannot be chosen is said rather than invented, and
//! whatever the editor makes of a layer the engine accepts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::catalog::Catalog;
use planner_core::engine::editing::draft::{self, TemplateKind};
use planner_core::engine::editing::layer_form;
use planner_core::engine::input::layer_fields::LAYER_KINDS;
use planner_core::engine::input::scenario_file::{
    CommitTerm, FinancingMethod, FinancingSpec, LayerKind, Override, parse,
};
use planner_core::engine::resolve::validate::validate;
use planner_core::workload_kind::{TuningMethod, WorkloadClass, WorkloadKind};
use rust_decimal::{Decimal, dec};

fn shipped() -> Catalog {
    common::shipped_catalog()
}

#[test]
fn buy_takes_a_priced_training_accelerator_in_its_catalog_system_and_cooling_that_carries_it() {
    let catalog = shipped();
    let d = draft::from_template(TemplateKind::Buy, &catalog, "USD", &[]);
    assert_eq!(d.notes, Vec::<String>::new());
    assert_eq!(d.scenario.name, "Buy 8 × NVIDIA H100 SXM5");
    assert_eq!(d.scenario.id, "buy-8-nvidia-h100-sxm5");
    let [owned, bridge] = d.scenario.layers.as_slice() else {
        panic!("an owned layer and its bridge: {:?}", d.scenario.layers)
    };
    assert_eq!((owned.id.as_str(), owned.kind), ("owned", LayerKind::Owned));
    // Delivery follows the catalog's data-centre GPU lead time (26 weeks: 6 months, rounded
    // up), and an on-demand layer for the same card bridges those months and stops at delivery.
    assert_eq!(owned.lead_time_source.as_deref(), Some("datacenter-gpus"));
    assert_eq!((owned.lead_time_months, owned.lead_time_reason.as_deref()), (0, None));
    assert_eq!((bridge.id.as_str(), bridge.kind), ("bridge", LayerKind::OnDemand));
    let bridge_offer = bridge.offer.as_deref().and_then(|o| catalog.offer(o)).unwrap();
    assert_eq!(bridge_offer.accelerator, "nvidia-h100-sxm");
    assert_eq!(bridge.exit.as_ref().map(|e| (e.month, e.fee)), Some((6, Decimal::ZERO)));
    assert_eq!(owned.accelerator.as_deref(), Some("nvidia-h100-sxm"));
    assert_eq!(owned.system.as_deref(), Some("dgx-h100"));
    assert_eq!(
        (owned.gpus, owned.gpus_per_server, owned.offer.as_deref()),
        (Some(8), None, None)
    );
    // A DGX H100 draws 10.2 kW: perimeter air (8–10 kW a rack) cannot carry it, contained air
    // (20–30) can, at its typical 20 kW.
    let dgx = catalog
        .facility
        .systems
        .iter()
        .find(|s| s.id == "dgx-h100")
        .map(|s| s.max_power_kw.high);
    assert_eq!(dgx, Some(dec!(10.2)));
    let rack = |id: &str| {
        catalog
            .facility
            .cooling
            .iter()
            .find(|c| c.id == id)
            .map(|c| (c.kw_per_rack.low, c.kw_per_rack.high))
    };
    assert_eq!(rack("perimeter-air"), Some((dec!(8), dec!(10))));
    assert_eq!(rack("contained-air"), Some((dec!(20), dec!(30))));
    let facility = d.scenario.facility.as_ref().map(|f| {
        (
            f.region.as_str(),
            f.cooling.as_str(),
            f.kw_per_rack_limit,
            f.colocation.clone(),
        )
    });
    assert_eq!(facility, Some(("us", "contained-air", dec!(20), None)));
    let network = d
        .scenario
        .network
        .as_ref()
        .map(|n| (n.fabric.as_str(), n.per_port_cost.clone()));
    assert_eq!(network, Some(("ib-ndr-400", None)));
}

#[test]
fn rent_takes_an_on_demand_offer_for_the_accelerator_and_no_facility() {
    let d = draft::from_template(TemplateKind::Rent, &shipped(), "USD", &[]);
    assert_eq!(d.notes, Vec::<String>::new());
    assert_eq!(d.scenario.name, "Rent NVIDIA H100 SXM5 on demand (AWS)");
    let layers: Vec<_> = d
        .scenario
        .layers
        .iter()
        .map(|l| (l.id.as_str(), l.kind, l.offer.as_deref(), l.accelerator.as_deref()))
        .collect();
    assert_eq!(layers, [("on-demand", LayerKind::OnDemand, Some("aws-p5-h100"), None)]);
    assert_eq!((d.scenario.facility, d.scenario.network), (None, None));
}

#[test]
fn hybrid_owns_and_rents_the_same_accelerator() {
    let catalog = shipped();
    let d = draft::from_template(TemplateKind::Hybrid, &catalog, "USD", &[]);
    let layers: Vec<_> = d
        .scenario
        .layers
        .iter()
        .map(|l| (l.kind, layer_form::layer_accelerator(l, &catalog)))
        .collect();
    let h100 = Some("nvidia-h100-sxm".to_owned());
    assert_eq!(layers, [(LayerKind::Owned, h100.clone()), (LayerKind::OnDemand, h100)]);
    assert_eq!(d.scenario.facility.map(|f| f.cooling), Some("contained-air".to_owned()));
}

#[test]
fn ids_are_unique_and_what_could_not_be_chosen_is_said() {
    let catalog = shipped();
    let taken = ["buy-8-nvidia-h100-sxm5".to_owned()];
    assert_eq!(
        draft::from_template(TemplateKind::Buy, &catalog, "USD", &taken)
            .scenario
            .id,
        "buy-8-nvidia-h100-sxm5-2"
    );

    let eur = draft::from_template(TemplateKind::Hybrid, &catalog, "EUR", &[]);
    assert_eq!(
        eur.notes,
        [
            "AWS prices NVIDIA H100 SXM5 in USD; the workspace needs an exchange rate for it in the settings.",
            "Catalog purchase prices are in USD; the workspace needs a USD exchange rate in the settings.",
        ]
    );
    // A region with a tariff in EUR is preferred: the first in the catalog, the EU-27 average.
    assert_eq!(eur.scenario.facility.map(|f| f.region), Some("eu27".to_owned()));

    let mut unpriced = catalog.clone();
    for a in &mut unpriced.accelerators {
        a.price_usd = None;
    }
    let none = draft::from_template(TemplateKind::Buy, &unpriced, "USD", &[]);
    assert_eq!(
        none.notes,
        ["The workspace catalog has no accelerator that fits this template: choose one in each layer."]
    );
    assert_eq!(
        none.scenario.layers,
        [planner_core::engine::input::scenario_file::empty_layer(
            "owned",
            LayerKind::Owned
        )]
    );
    assert_eq!(none.scenario.id, "buy-choose-an-accelerator");
}

#[test]
fn cooling_is_chosen_by_the_draw_of_a_server() {
    let catalog = shipped();
    let h100 = catalog
        .accelerators
        .iter()
        .find(|a| a.id == "nvidia-h100-sxm")
        .expect("H100 in the shipped catalog");
    assert_eq!(h100.tdp_w.as_ref().map(|t| t.high), Some(dec!(700)));
    // 700 W × 8 GPUs × the engine's server overhead of 1.8 = 10.08 kW.
    assert_eq!(draft::server_kw(h100, None), Some(dec!(10.08)));
    let cooling = |kw| draft::cooling_for(&catalog, Some(kw)).map(|c| c.id.as_str());
    assert_eq!(cooling(dec!(9)), Some("perimeter-air"));
    assert_eq!(cooling(dec!(45)), Some("rear-door-hx"));
    assert_eq!(cooling(dec!(140)), Some("direct-to-chip"));
}

#[test]
fn a_copy_gets_a_new_id_and_name() {
    let d = draft::from_template(TemplateKind::Rent, &shipped(), "USD", &[]);
    let copy = draft::copy_of(&d.scenario, std::slice::from_ref(&d.scenario.id));
    assert_eq!(copy.name, format!("{} (copy)", d.scenario.name));
    assert_eq!(copy.id, format!("{}-copy", d.scenario.id));
    assert_eq!(copy.layers, d.scenario.layers);
}

#[test]
fn a_new_kind_clears_the_fields_it_does_not_take() {
    let catalog = shipped();
    let mut owned = planner_core::engine::input::scenario_file::empty_layer("a", LayerKind::Owned);
    owned.system = Some("dgx-h100".into());
    owned.gpus = Some(16);
    owned.lead_time_months = 3;
    owned.installation = dec!(15000);
    owned.financing = Some(FinancingSpec {
        method: FinancingMethod::Loan,
        annual_rate: dec!(0.07),
        term_months: 36,
        down_payment: dec!(0.2),
    });
    let rented = layer_form::change_kind(&owned, LayerKind::OnDemand, &catalog);
    assert_eq!(
        (rented.kind, rented.system.as_deref(), rented.financing.as_ref()),
        (LayerKind::OnDemand, None, None)
    );
    assert_eq!(
        (rented.lead_time_months, rented.installation, rented.gpus),
        (0, dec!(0), Some(16))
    );
    assert_eq!(
        (rented.offer.as_deref(), rented.accelerator.as_deref()),
        (None, Some("nvidia-h100-sxm"))
    );

    let mut spot = planner_core::engine::input::scenario_file::empty_layer("b", LayerKind::Spot);
    spot.offer = Some("aws-p5-h100".into());
    spot.interruptions_per_hour = Some(dec!(0.1));
    let reserved = layer_form::change_kind(&spot, LayerKind::Reserved, &catalog);
    assert_eq!(
        (reserved.offer.as_deref(), reserved.accelerator.as_deref()),
        (Some("aws-p5-h100"), None)
    );
    assert_eq!(
        (reserved.term, reserved.interruptions_per_hour),
        (Some(CommitTerm::OneYear), None)
    );

    let mut on_demand = planner_core::engine::input::scenario_file::empty_layer("c", LayerKind::OnDemand);
    on_demand.offer = Some("aws-p5-h100".into());
    let rate = Override {
        value: dec!(2),
        currency: None,
        reason: "pool rate".into(),
    };
    on_demand.price_per_gpu_hour = Some(rate.clone());
    let pooled = layer_form::change_kind(&on_demand, LayerKind::Pooled, &catalog);
    assert_eq!(
        (pooled.offer.as_deref(), pooled.accelerator.as_deref()),
        (None, Some("nvidia-h100-sxm"))
    );
    assert_eq!(pooled.price_per_gpu_hour, Some(rate));
}

/// A scenario file of one inference workload and the scenario `scenario` (JSON).
fn file_with(scenario: &serde_json::Value) -> String {
    serde_json::json!({
        "format_version": 1, "title": "drafts", "currency": "USD", "start": "2027-01", "discount_rate": "0.08",
        "workloads": [{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
            "gpu_hours_per_day": "24", "gpu_hours_on": "nvidia-h100-sxm" }],
        "scenarios": [scenario],
    })
    .to_string()
}

#[test]
fn the_engine_accepts_every_template_and_every_kind_a_layer_is_switched_to() {
    let catalog = shipped();
    for kind in [TemplateKind::Buy, TemplateKind::Rent, TemplateKind::Hybrid] {
        let d = draft::from_template(kind, &catalog, "USD", &[]);
        let file = parse(&file_with(&serde_json::to_value(&d.scenario).unwrap_or_default()))
            .unwrap_or_else(|p| panic!("{kind:?}: {p:?}"));
        if let Err(problems) = validate(&catalog, &file, None) {
            panic!("{kind:?} template refused: {problems:#?}");
        }
    }
    let start = draft::from_template(TemplateKind::Buy, &catalog, "USD", &[]).scenario;
    for from in LAYER_KINDS {
        for to in LAYER_KINDS {
            let mut scenario = start.clone();
            let first = layer_form::change_kind(&scenario.layers[0], from, &catalog);
            scenario.layers[0] = layer_form::change_kind(&first, to, &catalog);
            if to == LayerKind::TokenMetered {
                scenario.layers[0].price_per_million_tokens = Some(Override {
                    value: dec!(2),
                    currency: None,
                    reason: "list price".into(),
                });
            }
            if to == LayerKind::Pooled {
                scenario.layers[0].price_per_gpu_hour = Some(Override {
                    value: dec!(2),
                    currency: None,
                    reason: "pool rate".into(),
                });
            }
            let file = parse(&file_with(&serde_json::to_value(&scenario).unwrap_or_default()))
                .unwrap_or_else(|p| panic!("{p:?}"));
            let refused: Vec<_> = validate(&catalog, &file, None)
                .err()
                .unwrap_or_default()
                .into_iter()
                .filter(|p| p.message.contains("does not apply"))
                .collect();
            assert!(
                refused.is_empty(),
                "{from:?} → {to:?} leaves fields the engine refuses: {refused:#?}"
            );
        }
    }
}

#[test]
fn a_new_layer_runs_on_the_accelerator_the_scenario_uses() {
    let catalog = shipped();
    let buy = draft::from_template(TemplateKind::Buy, &catalog, "USD", &[]).scenario;
    let spot = layer_form::new_layer(&buy, LayerKind::Spot, &catalog);
    assert_eq!(spot.id, "spot");
    let offer = catalog
        .offers
        .iter()
        .find(|o| o.accelerator == "nvidia-h100-sxm")
        .map(|o| o.id.clone());
    assert_eq!((spot.offer, spot.accelerator), (offer, None));
    let owned = layer_form::new_layer(&buy, LayerKind::Owned, &catalog);
    assert_eq!(
        (owned.id.as_str(), owned.accelerator.as_deref()),
        ("owned-2", Some("nvidia-h100-sxm"))
    );
    let facility = draft::facility_for_scenario(&buy, &catalog, "USD");
    assert_eq!(facility, buy.facility);
}

#[test]
fn a_new_workload_gets_a_slug_id_and_no_invented_demand() {
    let taken = ["nightly-batch-inference".to_owned()];
    let w = draft::new_workload(" Nightly batch inference ", WorkloadKind::Inference, &taken);
    assert_eq!(
        (w.id.as_str(), w.name.as_str()),
        ("nightly-batch-inference-2", "Nightly batch inference")
    );
    assert_eq!((w.class, w.method, w.mfu), (WorkloadClass::Steady, None, dec!(0.4)));
    assert_eq!((w.model, w.tokens_per_month, w.gpu_hours_per_day), (None, None, None));
    let tune = draft::new_workload("Tune", WorkloadKind::FineTuning, &[]);
    assert_eq!(
        (tune.method, tune.class),
        (Some(TuningMethod::Lora), WorkloadClass::Variable)
    );
    assert_eq!(
        draft::new_workload("Try", WorkloadKind::Experimentation, &[]).class,
        WorkloadClass::Exploratory
    );
    // A workload the file format reads back as it was made: the defaults are the format's own.
    let text = serde_json::json!({ "id": "x", "name": "x", "kind": "inference", "class": "steady" }).to_string();
    let read: planner_core::engine::input::scenario_file::WorkloadSpec = serde_json::from_str(&text).unwrap();
    let made = draft::new_workload("x", WorkloadKind::Inference, &[]);
    assert_eq!(read, made);
}
