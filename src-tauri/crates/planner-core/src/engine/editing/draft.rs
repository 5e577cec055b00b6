//! Drafts: what a new scenario or workload starts as. The templates Buy (one owned layer, delivered
//! after the catalog's GPU lead time, and an on-demand layer that bridges the months until then), Rent (one
//! on-demand layer) and Hybrid (owned plus on-demand), a copy of a scenario, and a facility for
//! owned hardware. Pure functions of the catalog: every default is a catalog entry (an
//! accelerator with a purchase price, an offer that rents it, a cooling technology that carries
//! its servers, a region with a tariff, a fabric for training), and each choice a draft could not
//! make is said in its notes, never filled with a made-up value; the scenario then shows the
//! engine's own problem for it.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::catalog::{Accelerator, Catalog, Cooling, Family, Offer, Pool, Region, ServerSystem};
use crate::engine::blocks::rack::SERVER_OVERHEAD_FACTOR;
use crate::engine::editing::layer_form::{empty_scenario, layer_accelerator};
use crate::engine::input::ids::unique_id;
use crate::engine::input::scenario_file::empty_layer;
use crate::engine::input::scenario_file::{
    FacilitySpec, LayerKind, LayerSpec, NetworkSpec, ScenarioSpec, WorkloadSpec,
};
use crate::workload_kind::{DataClassification, Precision, TuningMethod, WorkloadClass, WorkloadKind};

/// GPUs per server when the catalog has no server system for the accelerator (the engine's
/// default for `gpus_per_server`).
pub const DEFAULT_GPUS_PER_SERVER: u32 = 8;

/// The template a new scenario starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum TemplateKind {
    /// One owned layer in your own room.
    Buy,
    /// One on-demand cloud layer.
    Rent,
    /// Owned base load plus on-demand cloud for peaks.
    Hybrid,
}

/// A new scenario and what its draft could not choose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Draft {
    pub scenario: ScenarioSpec,
    /// Each choice left to the user, in a sentence (empty when the draft is complete).
    pub notes: Vec<String>,
}

fn family_rank(family: Family) -> u8 {
    match family {
        Family::Training => 0,
        Family::Inference => 1,
        Family::Edge => 2,
        Family::Domestic => 3,
        Family::Consumer => 4,
        Family::CloudOnly => 5,
    }
}

/// The on-demand offers for an accelerator, those priced in `currency` first (catalog order
/// otherwise).
pub fn on_demand_offers<'c>(catalog: &'c Catalog, accelerator: &str, currency: &str) -> Vec<&'c Offer> {
    let offers = catalog
        .offers
        .iter()
        .filter(|o| o.accelerator == accelerator && o.on_demand_per_gpu_hour.is_some());
    let (mut same, other): (Vec<&Offer>, Vec<&Offer>) = offers.partition(|o| o.currency == currency);
    same.extend(other);
    same
}

/// The catalog server system for an accelerator, one with a price first.
pub fn system_for<'c>(catalog: &'c Catalog, accelerator: &str) -> Option<&'c ServerSystem> {
    let mut systems = catalog.facility.systems.iter().filter(|s| s.accelerator == accelerator);
    let first = systems.clone().next();
    systems.find(|s| s.price_usd.is_some()).or(first)
}

/// The accelerator a template starts from: by family (training first, catalog order within a
/// family), one that can be bought (it has a purchase price) when `buy`, and rented on demand
/// when `rent`.
fn template_accelerator<'c>(catalog: &'c Catalog, buy: bool, rent: bool, currency: &str) -> Option<&'c Accelerator> {
    let mut ranked: Vec<&Accelerator> = catalog.accelerators.iter().collect();
    ranked.sort_by_key(|a| family_rank(a.family));
    ranked
        .into_iter()
        .find(|a| (!buy || a.price_usd.is_some()) && (!rent || !on_demand_offers(catalog, &a.id, currency).is_empty()))
}

/// The draw of one server in kW, for choosing its cooling: the system's maximum power, else its
/// GPUs' TDP times the engine's server overhead. A heuristic for a default, never shown as a result.
pub fn server_kw(accelerator: &Accelerator, system: Option<&ServerSystem>) -> Option<Decimal> {
    if let Some(s) = system {
        return Some(s.max_power_kw.high);
    }
    let tdp = accelerator.tdp_w.as_ref()?.high;
    Some(tdp * Decimal::from(DEFAULT_GPUS_PER_SERVER) * SERVER_OVERHEAD_FACTOR / Decimal::ONE_THOUSAND)
}

/// The cooling that carries a rack of at least one server of `kw`: air first (catalog order),
/// then liquid.
pub fn cooling_for(catalog: &Catalog, kw: Option<Decimal>) -> Option<&Cooling> {
    let carries = |c: &&Cooling| kw.is_none_or(|kw| c.kw_per_rack.high >= kw);
    let list = &catalog.facility.cooling;
    list.iter()
        .filter(|c| !c.liquid)
        .find(carries)
        .or_else(|| list.iter().find(carries))
}

/// A region with an electricity tariff, one in `currency` first.
pub fn region_for<'c>(catalog: &'c Catalog, currency: &str) -> Option<&'c Region> {
    let mut priced = catalog.regions.iter().filter(|r| r.tariff_per_kwh.is_some());
    let first = priced.clone().next();
    priced.find(|r| r.currency == currency).or(first)
}

/// A training fabric (its pools include training), else the catalog's first fabric.
pub fn fabric_for(catalog: &Catalog) -> Option<&str> {
    catalog
        .fabrics
        .iter()
        .find(|f| f.pools.contains(&Pool::Training))
        .or(catalog.fabrics.first())
        .map(|f| f.id.as_str())
}

/// A facility for owned `accelerator` servers (in `system`, if given): the cooling that carries
/// them, a region with a tariff (in `currency` if one is), your own room (no colocation). The
/// rack limit is the cooling's typical density when one server fits under it, else its maximum.
/// `None`, with a note, when the catalog has no cooling or no region with a tariff.
pub fn facility_for(
    catalog: &Catalog,
    accelerator: &Accelerator,
    system: Option<&ServerSystem>,
    currency: &str,
    notes: &mut Vec<String>,
) -> Option<FacilitySpec> {
    let kw = server_kw(accelerator, system);
    let (Some(cooling), Some(region)) = (cooling_for(catalog, kw), region_for(catalog, currency)) else {
        notes.push(
            "The catalog has no cooling technology or no region with a tariff: choose the facility by hand.".to_owned(),
        );
        return None;
    };
    let typical = cooling.kw_per_rack.low;
    let limit = match kw {
        Some(kw) if typical < kw => cooling.kw_per_rack.high,
        _ => typical,
    };
    if region.currency != currency {
        notes.push(format!(
            "No region has a tariff in {currency}; {} ({}) needs an exchange rate in the settings.",
            region.name, region.currency
        ));
    }
    Some(FacilitySpec {
        region: region.id.clone(),
        tariff_per_kwh: None,
        grid_gco2_per_kwh: None,
        cooling: cooling.id.clone(),
        pue: None,
        kw_per_rack_limit: limit,
        colocation: None,
        colocation_per_kw_month: None,
        power_distribution_upgrade: None,
        cooling_upgrade: None,
    })
}

/// A facility for `scenario` with the catalog's defaults for the accelerator of its owned layer
/// (the catalog's first accelerator when it has none); `None` when the catalog cannot give one.
pub fn facility_for_scenario(scenario: &ScenarioSpec, catalog: &Catalog, currency: &str) -> Option<FacilitySpec> {
    let owned = scenario.layers.iter().find(|l| l.kind == LayerKind::Owned);
    let named = owned.and_then(|l| layer_accelerator(l, catalog));
    let accelerator = catalog
        .accelerators
        .iter()
        .find(|a| Some(&a.id) == named.as_ref())
        .or(catalog.accelerators.first())?;
    let system = owned
        .and_then(|l| l.system.as_ref())
        .and_then(|id| catalog.facility.systems.iter().find(|s| &s.id == id));
    facility_for(catalog, accelerator, system, currency, &mut Vec::new())
}

fn owned_layer(accelerator: &Accelerator, system: Option<&ServerSystem>) -> LayerSpec {
    let mut layer = empty_layer("owned", LayerKind::Owned);
    layer.accelerator = Some(accelerator.id.clone());
    match system {
        Some(s) => {
            layer.system = Some(s.id.clone());
            layer.gpus = Some(u32::from(s.gpus));
        }
        None => {
            layer.gpus = Some(DEFAULT_GPUS_PER_SERVER);
            layer.gpus_per_server = Some(DEFAULT_GPUS_PER_SERVER);
        }
    }
    layer
}

fn label(kind: TemplateKind) -> &'static str {
    match kind {
        TemplateKind::Buy => "Buy",
        TemplateKind::Rent => "Rent",
        TemplateKind::Hybrid => "Hybrid",
    }
}

/// A new scenario of the template `kind` on `catalog` for a workspace in `currency`, with an id
/// not in `taken`. What the template could not choose is left empty and said in the notes.
pub fn from_template(kind: TemplateKind, catalog: &Catalog, currency: &str, taken: &[String]) -> Draft {
    let buy = kind != TemplateKind::Rent;
    let rent = kind != TemplateKind::Buy;
    let mut notes = Vec::new();
    let chosen = template_accelerator(catalog, buy, rent, currency)
        .or_else(|| template_accelerator(catalog, buy, false, currency));
    let Some(accelerator) = chosen else {
        let name = format!("{} (choose an accelerator)", label(kind));
        let mut scenario = empty_scenario(&unique_id(&name, taken, "scenario"), &name);
        if buy {
            scenario.layers.push(empty_layer("owned", LayerKind::Owned));
        }
        if rent {
            scenario.layers.push(empty_layer("on-demand", LayerKind::OnDemand));
        }
        notes.push(
            "The workspace catalog has no accelerator that fits this template: choose one in each layer.".to_owned(),
        );
        return Draft { scenario, notes };
    };
    let acc = &accelerator.name;
    let system = if buy {
        system_for(catalog, &accelerator.id)
    } else {
        None
    };
    // Buy looks for an offer too: it bridges the months before the hardware arrives.
    let offer = on_demand_offers(catalog, &accelerator.id, currency).first().copied();
    let offer = if rent || kind == TemplateKind::Buy { offer } else { None };
    if rent && offer.is_none() {
        notes.push(format!(
            "The catalog has no on-demand offer for {acc}: choose an offer or give a quoted price."
        ));
    }
    if let Some(o) = offer.filter(|o| o.currency != currency) {
        notes.push(format!(
            "{} prices {acc} in {}; the workspace needs an exchange rate for it in the settings.",
            o.provider, o.currency
        ));
    }
    if buy && currency != "USD" {
        notes.push(
            "Catalog purchase prices are in USD; the workspace needs a USD exchange rate in the settings.".to_owned(),
        );
    }

    let mut layers = Vec::new();
    if buy {
        let mut owned = owned_layer(accelerator, system);
        let lead = gpu_lead_time(catalog);
        if let Some((entry, _)) = lead {
            owned.lead_time_source = Some(entry.id.clone());
        }
        layers.push(owned);
        if kind == TemplateKind::Buy
            && let (Some((_, months)), Some(o)) = (lead, offer)
            && months > 0
        {
            let mut bridge = empty_layer("bridge", LayerKind::OnDemand);
            bridge.offer = Some(o.id.clone());
            bridge.exit = Some(crate::engine::input::scenario_file::ExitSpec {
                month: months,
                fee: Decimal::ZERO,
            });
            layers.push(bridge);
        }
    }
    if rent {
        let mut layer = empty_layer("on-demand", LayerKind::OnDemand);
        match offer {
            Some(o) => layer.offer = Some(o.id.clone()),
            None => layer.accelerator = Some(accelerator.id.clone()),
        }
        layers.push(layer);
    }
    let gpus = layers.first().and_then(|l| l.gpus).unwrap_or(DEFAULT_GPUS_PER_SERVER);
    let by = offer.map(|o| format!(" ({})", o.provider)).unwrap_or_default();
    let name = match kind {
        TemplateKind::Buy => format!("Buy {gpus} × {acc}"),
        TemplateKind::Rent => format!("Rent {acc} on demand{by}"),
        TemplateKind::Hybrid => format!("Hybrid: {gpus} × {acc} owned + on demand{by}"),
    };
    let mut scenario = empty_scenario(&unique_id(&name, taken, "scenario"), &name);
    scenario.layers = layers;
    if buy {
        scenario.facility = facility_for(catalog, accelerator, system, currency, &mut notes);
        scenario.network = fabric_for(catalog).map(|fabric| NetworkSpec {
            fabric: fabric.to_owned(),
            per_port_cost: None,
        });
    }
    Draft { scenario, notes }
}

/// The catalog's lead time for data-centre GPUs (the entry whose item names GPUs), and its
/// weeks at the middle of the range in whole months, rounded up as `validate` rounds them.
fn gpu_lead_time(catalog: &Catalog) -> Option<(&crate::catalog::LeadTime, u32)> {
    let entry = catalog
        .facility
        .lead_times
        .iter()
        .find(|e| e.item.to_lowercase().contains("gpu"))?;
    let months = crate::engine::blocks::sizing::lead_time_months(entry.weeks.mid());
    Some((entry, months))
}

/// A copy of `scenario` named "<name> (copy)", with an id not in `taken`.
pub fn copy_of(scenario: &ScenarioSpec, taken: &[String]) -> ScenarioSpec {
    let name = format!("{} (copy)", scenario.name);
    ScenarioSpec {
        id: unique_id(&name, taken, "scenario"),
        name,
        ..scenario.clone()
    }
}

/// A new workload named `name` (trimmed) of `kind`, with an id not in `taken` and the engine's
/// defaults: BF16, MFU 0.4, no growth, active over the whole horizon, internal data; inference is
/// steady, experimentation exploratory, the rest variable; fine-tuning uses LoRA. It names no
/// model and no demand: the engine lists those as problems until the user gives them.
pub fn new_workload(name: &str, kind: WorkloadKind, taken: &[String]) -> WorkloadSpec {
    WorkloadSpec {
        id: unique_id(name, taken, "workload"),
        name: name.trim().to_owned(),
        kind,
        method: (kind == WorkloadKind::FineTuning).then_some(TuningMethod::Lora),
        class: match kind {
            WorkloadKind::Inference => WorkloadClass::Steady,
            WorkloadKind::Experimentation => WorkloadClass::Exploratory,
            WorkloadKind::PreTraining | WorkloadKind::FineTuning => WorkloadClass::Variable,
        },
        precision: Precision::Bf16,
        model: None,
        tokens_per_month: None,
        token_mix: None,
        gpu_hours_per_day: None,
        gpu_hours_on: None,
        mfu: Decimal::new(4, 1),
        monthly_growth: Decimal::ZERO,
        active_from_month: 0,
        active_months: None,
        interruptible: false,
        data_classification: DataClassification::Internal,
        region: None,
    }
}
