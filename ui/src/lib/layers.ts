// Supply layers: which fields apply to which kind (as the engine's validation and
// catalogs/samples/README.md say), empty specs, and switching a layer's kind without leaving
// fields behind that the engine would refuse.

import type { Catalog } from "./catalog-types";
import type { LayerKind, LayerSpec, ScenarioSpec } from "./workspace-types";

export const LAYER_KINDS: readonly LayerKind[] = ["owned", "reserved", "spot", "on-demand", "pooled", "token-metered"];

export const LAYER_KIND_LABELS: Record<LayerKind, string> = {
  owned: "Owned",
  reserved: "Reserved",
  spot: "Spot",
  "on-demand": "On-demand",
  pooled: "Pooled",
  "token-metered": "Token-metered",
};

export const LAYER_KIND_HINTS: Record<LayerKind, string> = {
  owned: "Hardware you hold: bought for cash, on a loan, or leased",
  reserved: "Cloud capacity committed for 1 or 3 years, paid whether used or not",
  spot: "Interruptible cloud capacity; serves interruptible, non-steady workloads only",
  "on-demand": "Pay-as-you-go cloud capacity",
  pooled: "A shared cluster billed per GPU-hour used (price required)",
  "token-metered": "An API billed per million tokens; serves inference workloads that name a model",
};

/** The cloud kinds: they buy from a catalog offer. */
export const CLOUD_KINDS: readonly LayerKind[] = ["reserved", "spot", "on-demand"];

export function isCloud(kind: LayerKind): boolean {
  return CLOUD_KINDS.includes(kind);
}

const ALL = LAYER_KINDS;
const OWNED: readonly LayerKind[] = ["owned"];

/** The layer fields the editor shows, and the kinds each applies to. */
export const FIELD_KINDS: Record<Exclude<keyof LayerSpec, "id" | "kind">, readonly LayerKind[]> = {
  accelerator: ["owned", "pooled", "token-metered", "reserved", "spot", "on-demand"],
  offer: CLOUD_KINDS,
  system: OWNED,
  gpus: ALL,
  gpus_per_server: OWNED,
  price_per_gpu: OWNED,
  platform_cost_per_gpu: OWNED,
  installation: OWNED,
  price_per_gpu_hour: ["reserved", "spot", "on-demand", "pooled"],
  price_per_million_tokens: ["token-metered"],
  term: ["reserved"],
  peak_tflops: ALL,
  mfu: ALL,
  availability: ALL,
  start_month: ALL,
  lead_time_months: OWNED,
  financing: OWNED,
  payment_milestones: OWNED,
  depreciation_life_months: OWNED,
  salvage_share: OWNED,
  residual_share: OWNED,
  residual_reason: OWNED,
  support_rate_per_year: OWNED,
  non_server_maintenance_rate_per_year: OWNED,
  running_cost_per_gpu_hour: OWNED,
  power_kw_per_gpu: OWNED,
  idle_power_share: OWNED,
  interruptions_per_hour: ["spot"],
  checkpoint_write_minutes: ["spot"],
  restart_minutes: ["spot"],
  serves: ALL,
  exit: ALL,
  // Only a layer with a commitment schedule: reserved, or owned on a lease (the engine refuses
  // a clause on owned hardware bought for cash or on a loan).
  exit_clause: ["reserved", "owned"],
};

/** Whether `field` applies to a layer of `kind`. */
export function applies(field: keyof typeof FIELD_KINDS, kind: LayerKind): boolean {
  return FIELD_KINDS[field].includes(kind);
}

/** A layer of `kind` with every optional field empty and every default as the engine's. */
export function emptyLayer(id: string, kind: LayerKind): LayerSpec {
  return {
    id,
    kind,
    accelerator: null,
    offer: null,
    system: null,
    gpus: null,
    gpus_per_server: null,
    price_per_gpu: null,
    platform_cost_per_gpu: "0",
    installation: "0",
    price_per_gpu_hour: null,
    price_per_million_tokens: null,
    term: kind === "reserved" ? "1y" : null,
    peak_tflops: null,
    mfu: null,
    availability: null,
    start_month: 0,
    lead_time_months: 0,
    financing: null,
    payment_milestones: [],
    depreciation_life_months: null,
    salvage_share: "0",
    residual_share: null,
    residual_reason: null,
    support_rate_per_year: "0",
    non_server_maintenance_rate_per_year: null,
    running_cost_per_gpu_hour: null,
    power_kw_per_gpu: null,
    idle_power_share: null,
    interruptions_per_hour: null,
    checkpoint_write_minutes: null,
    restart_minutes: null,
    serves: null,
    exit: null,
    exit_clause: null,
  };
}

/** A scenario with no layers and every amount zero. */
export function emptyScenario(id: string, name: string): ScenarioSpec {
  return {
    id,
    name,
    description: null,
    price_point: null,
    layers: [],
    facility: null,
    network: null,
    staff_fte: "0",
    staff_cost_per_fte_year: "0",
    engineer_month_cost: "0",
    software_per_month: "0",
    storage_per_month: "0",
    egress_tb_per_month: "0",
    egress_per_tb: "0",
    egress_share_of_cloud_spend: null,
  };
}

/**
 * The layer as a layer of `kind`: the fields that do not apply are reset to empty (the engine
 * refuses them), the accelerator is kept (taken from the offer or system when only they named
 * it), and a reserved layer gets a 1-year term.
 */
export function changeLayerKind(layer: LayerSpec, kind: LayerKind, catalog: Catalog | null): LayerSpec {
  if (layer.kind === kind) return layer;
  const accelerator = layerAccelerator(layer, catalog);
  const base = emptyLayer(layer.id, kind);
  const keep: LayerSpec = {
    ...base,
    gpus: layer.gpus,
    peak_tflops: layer.peak_tflops,
    mfu: layer.mfu,
    availability: layer.availability,
    start_month: layer.start_month,
    serves: layer.serves,
    exit: layer.exit,
  };
  if (isCloud(kind)) {
    // A cloud layer keeps its offer if it had one; otherwise it names the accelerator.
    if (layer.offer !== null && layer.offer !== undefined) keep.offer = layer.offer;
    else keep.accelerator = accelerator;
    if (isCloud(layer.kind) || layer.kind === "pooled") keep.price_per_gpu_hour = layer.price_per_gpu_hour;
    if (kind === "reserved") keep.term = layer.term ?? "1y";
  } else {
    keep.accelerator = accelerator;
    if (kind === "pooled" && isCloud(layer.kind)) keep.price_per_gpu_hour = layer.price_per_gpu_hour;
  }
  return keep;
}

/** The accelerator a layer runs on: named, or through its system or offer. */
export function layerAccelerator(layer: LayerSpec, catalog: Catalog | null): string | null {
  if (layer.accelerator) return layer.accelerator;
  if (layer.system && catalog) {
    const s = catalog.facility.systems.find((x) => x.id === layer.system);
    if (s) return s.accelerator;
  }
  if (layer.offer && catalog) {
    const o = catalog.offers.find((x) => x.id === layer.offer);
    if (o) return o.accelerator;
  }
  return null;
}
