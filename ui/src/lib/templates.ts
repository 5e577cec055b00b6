// New scenarios from templates: Buy (one owned layer), Rent (one on-demand layer), Hybrid (owned
// plus on-demand). Pure functions of the workspace catalog: every default is a catalog entry
// (an accelerator with a purchase price, an offer that rents it, a cooling technology that
// carries its servers, a region with a tariff, a fabric for training), and each choice the
// template could not make is said in `notes` rather than filled with a made-up value.

import type { Accelerator, Catalog, Cooling, Offer, Region, ServerSystem } from "./catalog-types";
import { FAMILY_ORDER } from "./families";
import { emptyLayer, emptyScenario } from "./layers";
import { uniqueId } from "./slug";
import type { FacilitySpec, LayerSpec, ScenarioSpec } from "./workspace-types";

export type TemplateKind = "buy" | "rent" | "hybrid";

export const TEMPLATE_LABELS: Record<TemplateKind, string> = {
  buy: "Buy",
  rent: "Rent",
  hybrid: "Hybrid",
};

export const TEMPLATE_HINTS: Record<TemplateKind, string> = {
  buy: "One owned layer in your own room",
  rent: "One on-demand cloud layer",
  hybrid: "Owned base load plus on-demand cloud for peaks",
};

export type Template = { scenario: ScenarioSpec; notes: string[] };

export type TemplateContext = {
  /** The workspace currency: offers and regions priced in it are preferred. */
  currency: string;
  /** Scenario ids already in the workspace. */
  takenIds: Iterable<string>;
};

/** GPUs per server when the catalog has no server system for the accelerator. */
const DEFAULT_GPUS_PER_SERVER = 8;
/** Server draw per unit of GPU TDP when no system gives it (the engine's SERVER_OVERHEAD_FACTOR). */
const SERVER_OVERHEAD = 1.8;

function familyRank(a: Accelerator): number {
  const i = FAMILY_ORDER.indexOf(a.family);
  return i < 0 ? FAMILY_ORDER.length : i;
}

function byFamily(catalog: Catalog): Accelerator[] {
  return catalog.accelerators
    .map((a, i) => ({ a, i }))
    .sort((x, y) => familyRank(x.a) - familyRank(y.a) || x.i - y.i)
    .map((x) => x.a);
}

/** The on-demand offers for an accelerator, those in `currency` first (catalog order otherwise). */
export function onDemandOffers(catalog: Catalog, accelerator: string, currency: string): Offer[] {
  const offers = catalog.offers.filter((o) => o.accelerator === accelerator && o.on_demand_per_gpu_hour !== null);
  return [...offers.filter((o) => o.currency === currency), ...offers.filter((o) => o.currency !== currency)];
}

/** The catalog server system for an accelerator, one with a price first. */
export function systemFor(catalog: Catalog, accelerator: string): ServerSystem | null {
  const systems = catalog.facility.systems.filter((s) => s.accelerator === accelerator);
  return systems.find((s) => s.price_usd !== null) ?? systems[0] ?? null;
}

/**
 * The accelerator a template starts from: by family (training first), one that can be bought
 * (it has a purchase price) when `buy`, and rented on demand when `rent`.
 */
export function templateAccelerator(catalog: Catalog, needs: { buy: boolean; rent: boolean }, currency: string): Accelerator | null {
  return (
    byFamily(catalog).find(
      (a) => (!needs.buy || a.price_usd !== null) && (!needs.rent || onDemandOffers(catalog, a.id, currency).length > 0),
    ) ?? null
  );
}

/**
 * The draw of one server in kW, for choosing cooling: the system's maximum power, else its GPUs'
 * TDP times the engine's overhead factor. A heuristic for a default, not a figure shown as a result.
 */
export function serverKw(acc: Accelerator, system: ServerSystem | null): number | null {
  if (system) return Number(system.max_power_kw.high);
  if (!acc.tdp_w) return null;
  return (Number(acc.tdp_w.high) * DEFAULT_GPUS_PER_SERVER * SERVER_OVERHEAD) / 1000;
}

/** The cooling that carries a rack of at least one server: air first (catalog order), then liquid. */
export function coolingFor(catalog: Catalog, kw: number | null): Cooling | null {
  const carries = (c: Cooling) => kw === null || Number(c.kw_per_rack.high) >= kw;
  const list = catalog.facility.cooling;
  return list.find((c) => !c.liquid && carries(c)) ?? list.find((c) => carries(c)) ?? null;
}

/** A region with an electricity tariff, one in `currency` first. */
export function regionFor(catalog: Catalog, currency: string): Region | null {
  const priced = catalog.regions.filter((r) => r.tariff_per_kwh !== null);
  return priced.find((r) => r.currency === currency) ?? priced[0] ?? null;
}

/**
 * A facility for owned `acc` servers (in `system`, if given): the cooling that carries them, a
 * region with a tariff, your own room (no colocation). Null, with a note, when the catalog lacks one.
 */
export function facilityFor(catalog: Catalog, acc: Accelerator, system: ServerSystem | null, currency: string, notes: string[]): FacilitySpec | null {
  const kw = serverKw(acc, system);
  const cooling = coolingFor(catalog, kw);
  const region = regionFor(catalog, currency);
  if (!cooling || !region) {
    notes.push("The catalog has no cooling technology or no region with a tariff: choose the facility by hand.");
    return null;
  }
  // The room's rack limit: the cooling's typical density when one server fits under it, else its maximum.
  const typical = cooling.kw_per_rack.low;
  const limit = kw !== null && Number(typical) < kw ? cooling.kw_per_rack.high : typical;
  if (region.currency !== currency) {
    notes.push(`No region has a tariff in ${currency}; ${region.name} (${region.currency}) needs an exchange rate in the settings.`);
  }
  return {
    region: region.id,
    tariff_per_kwh: null,
    grid_gco2_per_kwh: null,
    cooling: cooling.id,
    pue: null,
    kw_per_rack_limit: limit,
    colocation: null,
    colocation_per_kw_month: null,
    power_distribution_upgrade: null,
    cooling_upgrade: null,
  };
}

function ownedLayer(acc: Accelerator, system: ServerSystem | null): LayerSpec {
  const layer = emptyLayer("owned", "owned");
  layer.accelerator = acc.id;
  if (system) {
    layer.system = system.id;
    layer.gpus = system.gpus;
  } else {
    layer.gpus = DEFAULT_GPUS_PER_SERVER;
    layer.gpus_per_server = DEFAULT_GPUS_PER_SERVER;
  }
  return layer;
}

function onDemandLayer(offer: Offer): LayerSpec {
  const layer = emptyLayer("on-demand", "on-demand");
  layer.offer = offer.id;
  return layer;
}

/** A training fabric (its pools include training), else the first fabric. */
export function fabricFor(catalog: Catalog): string | null {
  return (catalog.fabrics.find((f) => f.pools.includes("training")) ?? catalog.fabrics[0])?.id ?? null;
}

/**
 * A new scenario of the template `kind`, with a unique id and defaults from `catalog`.
 * What the template could not choose is left empty and explained in `notes`; the scenario
 * detail then shows the engine's own problem for it.
 */
export function scenarioFromTemplate(kind: TemplateKind, catalog: Catalog, ctx: TemplateContext): Template {
  const notes: string[] = [];
  const needs = { buy: kind !== "rent", rent: kind !== "buy" };
  const acc = templateAccelerator(catalog, needs, ctx.currency) ?? templateAccelerator(catalog, { buy: needs.buy, rent: false }, ctx.currency);
  const taken = new Set(ctx.takenIds);
  if (!acc) {
    const name = `${TEMPLATE_LABELS[kind]} (choose an accelerator)`;
    const s = emptyScenario(uniqueId(name, taken, "scenario"), name);
    if (kind !== "rent") s.layers.push(emptyLayer("owned", "owned"));
    if (kind !== "buy") s.layers.push(emptyLayer("on-demand", "on-demand"));
    notes.push("The workspace catalog has no accelerator that fits this template: choose one in each layer.");
    return { scenario: s, notes };
  }
  const system = needs.buy ? systemFor(catalog, acc.id) : null;
  const offer = needs.rent ? (onDemandOffers(catalog, acc.id, ctx.currency)[0] ?? null) : null;
  if (needs.rent && !offer) notes.push(`The catalog has no on-demand offer for ${acc.name}: choose an offer or give a quoted price.`);
  if (offer && offer.currency !== ctx.currency) {
    notes.push(`${offer.provider} prices ${acc.name} in ${offer.currency}; the workspace needs an exchange rate for it in the settings.`);
  }
  if (needs.buy && ctx.currency !== "USD") {
    notes.push(`Catalog purchase prices are in USD; the workspace needs a USD exchange rate in the settings.`);
  }

  const layers: LayerSpec[] = [];
  if (needs.buy) layers.push(ownedLayer(acc, system));
  if (needs.rent) {
    const l = offer ? onDemandLayer(offer) : emptyLayer("on-demand", "on-demand");
    if (!offer) l.accelerator = acc.id;
    layers.push(l);
  }
  const gpus = layers[0]?.gpus ?? null;
  const name =
    kind === "buy"
      ? `Buy ${gpus ?? DEFAULT_GPUS_PER_SERVER} × ${acc.name}`
      : kind === "rent"
        ? `Rent ${acc.name} on demand${offer ? ` (${offer.provider})` : ""}`
        : `Hybrid: ${gpus ?? DEFAULT_GPUS_PER_SERVER} × ${acc.name} owned + on demand${offer ? ` (${offer.provider})` : ""}`;
  const scenario = emptyScenario(uniqueId(name, taken, "scenario"), name);
  scenario.layers = layers;
  if (needs.buy) {
    scenario.facility = facilityFor(catalog, acc, system, ctx.currency, notes);
    const fabric = fabricFor(catalog);
    scenario.network = fabric ? { fabric, per_port_cost: null } : null;
  }
  return { scenario, notes };
}

/** A copy of `scenario` under a new unique id and "(copy)" name. */
export function duplicateScenario(scenario: ScenarioSpec, takenIds: Iterable<string>): ScenarioSpec {
  const name = `${scenario.name} (copy)`;
  const copy = structuredClone(scenario) as ScenarioSpec;
  copy.id = uniqueId(name, takenIds, "scenario");
  copy.name = name;
  return copy;
}

