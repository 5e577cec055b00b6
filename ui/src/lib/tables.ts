// The columns of every catalog table: what each cell shows and what it sorts by, plus the
// searchable text of each kind of entry. Pure data and functions; the components render it.

import type {
  Accelerator,
  Catalog,
  Colocation,
  Cooling,
  Fabric,
  Figure,
  LeadTime,
  Offer,
  Provenance,
  PueBenchmark,
  Region,
  ServerSystem,
  Upgrade,
} from "./catalog-types";
import { familyLabel } from "./families";
import { searchText } from "./filter";
import { figureKey, numberKey, textKey, type SortKey } from "./sort";

/** One table cell. */
export type Cell =
  | {
      kind: "text";
      text: string;
      title?: string;
      mono?: boolean;
      /** Long text: at most two lines, the rest in the tooltip. */
      clamp?: boolean;
      /** Descriptive text: one line cut with an ellipsis, the whole in the tooltip, so rows stay one line high. */
      clip?: boolean;
      /** The entry's notes, marked after the text (hover shows them; the panel lists them). */
      note?: string | null;
    }
  | {
      kind: "figure";
      figure: Figure | null;
      /** The Rust field name, for test ids and the provenance panel. */
      field: string;
      /** Shown after the number, outside the button ("GB HBM3"). */
      suffix?: string;
      /** Unit of the value in the provenance panel ("GB", "TB/s", "%"). */
      unit?: string;
      /** ISO 4217 code for money figures. */
      currency?: string;
    }
  | { kind: "int"; value: number | null; grouped?: boolean }
  | { kind: "bool"; value: boolean }
  | { kind: "sources"; provenance: Provenance; notes: string | null };

export type Column<T> = {
  id: string;
  label: string;
  /** Unit shown under the label ("TB/s", "per GPU-hour"). */
  unit?: string;
  /** Header tooltip: what the column means. */
  title?: string;
  align: "start" | "end";
  /** Keep the cell on one line (names, codes). */
  nowrap?: boolean;
  /** Whether the column sorts (the sources column does not). */
  sortable?: boolean;
  cell: (row: T) => Cell;
};

/** What a cell sorts by. */
export function sortKeyOfCell(cell: Cell): SortKey {
  switch (cell.kind) {
    case "text":
      return textKey(cell.text);
    case "figure":
      return figureKey(cell.figure);
    case "int":
      return numberKey(cell.value);
    case "bool":
      return numberKey(cell.value ? 1 : 0);
    case "sources":
      // Sorting the sources column puts the best-sourced entries first.
      return numberKey(CONFIDENCE_RANK[cell.provenance.confidence] ?? 3);
  }
}

const CONFIDENCE_RANK: Record<string, number> = { primary: 0, secondary: 1, estimate: 2 };

const text = (value: string | null | undefined, extra: Omit<Extract<Cell, { kind: "text" }>, "kind" | "text"> = {}): Cell => ({
  kind: "text",
  text: value ?? "",
  ...extra,
});

const notesColumn = <T extends { notes: string | null }>(): Column<T> => ({
  id: "notes",
  label: "Notes",
  align: "start",
  cell: (r) => text(r.notes, { title: r.notes ?? "", clamp: true }),
});

/** The accelerator's display name for an id; the id itself, marked, when the catalog lacks it. */
export function acceleratorName(catalog: Catalog, id: string): string {
  return catalog.accelerators.find((a) => a.id === id)?.name ?? `${id} (not in catalog)`;
}

const PROVIDER_KINDS: Record<string, string> = {
  hyperscaler: "Hyperscaler",
  neocloud: "Neocloud",
  marketplace: "Marketplace",
};
const TECHNOLOGIES: Record<string, string> = { infiniband: "InfiniBand", roce: "RoCE", ethernet: "Ethernet" };
const UPGRADE_KINDS: Record<string, string> = { "power-distribution": "Power distribution", cooling: "Cooling" };
const label = (map: Record<string, string>, value: string): string => map[value] ?? value;

export const ACCELERATOR_COLUMNS: Column<Accelerator>[] = [
  { id: "name", label: "Name", align: "start", nowrap: true, cell: (a) => text(a.name, { title: a.id }) },
  { id: "vendor", label: "Vendor", align: "start", cell: (a) => text(a.vendor) },
  {
    id: "memory_gb",
    label: "Memory",
    unit: "GB",
    align: "end",
    cell: (a) => ({ kind: "figure", figure: a.memory_gb, field: "memory_gb", unit: "GB", suffix: a.memory_type }),
  },
  {
    id: "bandwidth_tbps",
    label: "Bandwidth",
    unit: "TB/s",
    title: "Memory bandwidth, TB/s",
    align: "end",
    cell: (a) => ({ kind: "figure", figure: a.bandwidth_tbps, field: "bandwidth_tbps", unit: "TB/s" }),
  },
  {
    id: "bf16_tflops",
    label: "BF16",
    unit: "TFLOPS",
    title: "Dense (not 2:4-sparse) BF16 tensor TFLOPS; FP16 for parts without BF16",
    align: "end",
    cell: (a) => ({ kind: "figure", figure: a.bf16_tflops, field: "bf16_tflops", unit: "TFLOPS" }),
  },
  {
    id: "fp8_tflops",
    label: "FP8",
    unit: "TFLOPS",
    title: "Dense FP8 tensor TFLOPS; — when the part has no FP8",
    align: "end",
    cell: (a) => ({ kind: "figure", figure: a.fp8_tflops, field: "fp8_tflops", unit: "TFLOPS" }),
  },
  {
    id: "tdp_w",
    label: "TDP",
    unit: "W",
    align: "end",
    cell: (a) => ({ kind: "figure", figure: a.tdp_w, field: "tdp_w", unit: "W" }),
  },
  {
    id: "price_usd",
    label: "Price",
    unit: "USD",
    title: "Purchase price per accelerator, US dollars; — for rent-only parts",
    align: "end",
    cell: (a) => ({ kind: "figure", figure: a.price_usd, field: "price_usd", currency: "USD" }),
  },
  { id: "launch_year", label: "Launch", align: "end", cell: (a) => ({ kind: "int", value: a.launch_year }) },
  {
    id: "adaptation_months",
    label: "Adapt.",
    unit: "months",
    title: "Engineering months to adapt the software stack (domestic alternatives)",
    align: "end",
    cell: (a) => ({ kind: "figure", figure: a.adaptation_months, field: "adaptation_months", unit: "months" }),
  },
  { id: "scale_up", label: "Scale-up", title: "Scale-up interconnect", align: "start", cell: (a) => text(a.scale_up, { title: a.scale_up, clip: true }) },
  { id: "form_factor", label: "Form factor", align: "start", cell: (a) => text(a.form_factor, { title: a.form_factor, clip: true }) },
  {
    id: "sources",
    label: "Specs",
    title: "Sources of the descriptive fields (memory type, interconnect, form factor, launch year); sorts by their confidence",
    align: "start",
    cell: (a) => ({ kind: "sources", provenance: a.spec_provenance, notes: a.notes }),
  },
];

export function acceleratorSearchText(a: Accelerator): string {
  return searchText(a.id, a.name, a.vendor, a.family, familyLabel(a.family), a.memory_type, a.scale_up, a.form_factor);
}

const perGpuHour = (o: Offer, field: keyof Offer & `${string}_per_gpu_hour`): Cell => ({
  kind: "figure",
  figure: o[field],
  field,
  currency: o.currency,
});

export function offerColumns(catalog: Catalog): Column<Offer>[] {
  return [
    { id: "provider", label: "Provider", align: "start", nowrap: true, cell: (o) => text(o.provider, { title: o.id, note: o.notes }) },
    { id: "provider_kind", label: "Kind", align: "start", cell: (o) => text(label(PROVIDER_KINDS, o.provider_kind)) },
    {
      id: "accelerator",
      label: "Accelerator",
      align: "start",
      cell: (o) => text(acceleratorName(catalog, o.accelerator), { title: o.accelerator }),
    },
    { id: "sku", label: "SKU", align: "start", nowrap: true, cell: (o) => text(o.sku, { mono: true }) },
    { id: "gpus_per_instance", label: "GPUs", unit: "/instance", align: "end", cell: (o) => ({ kind: "int", value: o.gpus_per_instance }) },
    { id: "region", label: "Region", align: "start", nowrap: true, cell: (o) => text(o.region, { mono: true }) },
    { id: "on_demand", label: "On demand", unit: "per GPU-h", align: "end", cell: (o) => perGpuHour(o, "on_demand_per_gpu_hour") },
    { id: "reserved_1y", label: "Reserved 1y", unit: "per GPU-h", align: "end", cell: (o) => perGpuHour(o, "reserved_1y_per_gpu_hour") },
    { id: "reserved_3y", label: "Reserved 3y", unit: "per GPU-h", align: "end", cell: (o) => perGpuHour(o, "reserved_3y_per_gpu_hour") },
    {
      id: "commit_discount_pct",
      label: "Max commit",
      unit: "discount %",
      title: "The largest discount the provider advertises for a commitment, percent",
      align: "end",
      cell: (o) => ({ kind: "figure", figure: o.commit_discount_pct, field: "commit_discount_pct", unit: "%" }),
    },
    { id: "spot", label: "Spot", unit: "per GPU-h", align: "end", cell: (o) => perGpuHour(o, "spot_per_gpu_hour") },
    {
      id: "spot_notice_s",
      label: "Spot notice",
      unit: "s",
      title: "Notice before a spot instance is reclaimed, seconds",
      align: "end",
      cell: (o) => ({ kind: "figure", figure: o.spot_notice_s, field: "spot_notice_s", unit: "s" }),
    },
  ];
}

export function offerSearchText(catalog: Catalog, o: Offer): string {
  return searchText(
    o.id,
    o.provider,
    o.provider_kind,
    o.accelerator,
    acceleratorName(catalog, o.accelerator),
    o.sku,
    o.region,
    o.currency,
  );
}

export const COOLING_COLUMNS: Column<Cooling>[] = [
  { id: "name", label: "Cooling", align: "start", cell: (c) => text(c.name, { title: c.id }) },
  { id: "liquid", label: "Liquid", align: "start", cell: (c) => ({ kind: "bool", value: c.liquid }) },
  {
    id: "kw_per_rack",
    label: "Rack density",
    unit: "kW/rack",
    align: "end",
    cell: (c) => ({ kind: "figure", figure: c.kw_per_rack, field: "kw_per_rack", unit: "kW/rack" }),
  },
  { id: "pue", label: "PUE", align: "end", cell: (c) => ({ kind: "figure", figure: c.pue, field: "pue" }) },
  notesColumn<Cooling>(),
];

export function systemColumns(catalog: Catalog): Column<ServerSystem>[] {
  return [
    { id: "name", label: "System", align: "start", cell: (s) => text(s.name, { title: s.id }) },
    {
      id: "accelerator",
      label: "Accelerator",
      align: "start",
      cell: (s) => text(acceleratorName(catalog, s.accelerator), { title: s.accelerator }),
    },
    { id: "gpus", label: "GPUs", align: "end", cell: (s) => ({ kind: "int", value: s.gpus }) },
    { id: "liquid_cooled", label: "Liquid-cooled", align: "start", cell: (s) => ({ kind: "bool", value: s.liquid_cooled }) },
    {
      id: "max_power_kw",
      label: "Max power",
      unit: "kW",
      align: "end",
      cell: (s) => ({ kind: "figure", figure: s.max_power_kw, field: "max_power_kw", unit: "kW" }),
    },
    {
      id: "price_usd",
      label: "Price",
      unit: "USD",
      align: "end",
      cell: (s) => ({ kind: "figure", figure: s.price_usd, field: "price_usd", currency: "USD" }),
    },
    notesColumn<ServerSystem>(),
  ];
}

export const UPGRADE_COLUMNS: Column<Upgrade>[] = [
  { id: "name", label: "Upgrade", align: "start", cell: (u) => text(u.name, { title: u.id }) },
  { id: "kind", label: "Kind", align: "start", cell: (u) => text(label(UPGRADE_KINDS, u.kind)) },
  { id: "cost", label: "Cost", align: "end", cell: (u) => ({ kind: "figure", figure: u.cost, field: "cost", currency: u.currency }) },
  notesColumn<Upgrade>(),
];

export const COLOCATION_COLUMNS: Column<Colocation>[] = [
  { id: "market", label: "Market", align: "start", cell: (c) => text(c.market, { title: c.id }) },
  {
    id: "per_kw_month",
    label: "Price",
    unit: "per kW·month",
    title: "Colocation price per kW of IT load per month",
    align: "end",
    cell: (c) => ({ kind: "figure", figure: c.per_kw_month, field: "per_kw_month", currency: c.currency }),
  },
  notesColumn<Colocation>(),
];

export const PUE_COLUMNS: Column<PueBenchmark>[] = [
  { id: "name", label: "Benchmark", align: "start", cell: (p) => text(p.name, { title: p.id }) },
  { id: "pue", label: "PUE", align: "end", cell: (p) => ({ kind: "figure", figure: p.pue, field: "pue" }) },
  notesColumn<PueBenchmark>(),
];

export const LEAD_TIME_COLUMNS: Column<LeadTime>[] = [
  { id: "item", label: "Item", align: "start", cell: (l) => text(l.item, { title: l.id }) },
  { id: "weeks", label: "Lead time", unit: "weeks", align: "end", cell: (l) => ({ kind: "figure", figure: l.weeks, field: "weeks", unit: "weeks" }) },
  notesColumn<LeadTime>(),
];

export const FABRIC_COLUMNS: Column<Fabric>[] = [
  { id: "name", label: "Fabric", align: "start", cell: (f) => text(f.name, { title: f.id }) },
  { id: "technology", label: "Technology", align: "start", cell: (f) => text(label(TECHNOLOGIES, f.technology)) },
  { id: "port_gbps", label: "Port", unit: "Gbps", align: "end", cell: (f) => ({ kind: "int", value: f.port_gbps, grouped: true }) },
  { id: "pools", label: "Pools", align: "start", cell: (f) => text(f.pools.join(", ")) },
  {
    id: "per_port_cost",
    label: "Per port",
    title: "All-in cost per GPU-facing port: its share of leaf and spine switches, optics and cables",
    align: "end",
    cell: (f) => ({ kind: "figure", figure: f.per_port_cost, field: "per_port_cost", currency: f.currency }),
  },
  { id: "switch_radix", label: "Switch radix", unit: "ports", align: "end", cell: (f) => ({ kind: "int", value: f.switch_radix }) },
  {
    id: "switch_cost",
    label: "Switch cost",
    align: "end",
    cell: (f) => ({ kind: "figure", figure: f.switch_cost, field: "switch_cost", currency: f.currency }),
  },
  {
    id: "optic_cost",
    label: "Optic cost",
    align: "end",
    cell: (f) => ({ kind: "figure", figure: f.optic_cost, field: "optic_cost", currency: f.currency }),
  },
  notesColumn<Fabric>(),
];

export const REGION_COLUMNS: Column<Region>[] = [
  { id: "name", label: "Region", align: "start", cell: (r) => text(r.name) },
  { id: "id", label: "Id", align: "start", nowrap: true, cell: (r) => text(r.id, { mono: true }) },
  {
    id: "tariff_per_kwh",
    label: "Tariff",
    unit: "per kWh",
    title: "Electricity tariff per kWh",
    align: "end",
    cell: (r) => ({ kind: "figure", figure: r.tariff_per_kwh, field: "tariff_per_kwh", currency: r.currency }),
  },
  {
    id: "grid_gco2_per_kwh",
    label: "Grid intensity",
    unit: "gCO₂/kWh",
    title: "Grid carbon intensity, grams of CO₂ per kWh",
    align: "end",
    cell: (r) => ({ kind: "figure", figure: r.grid_gco2_per_kwh, field: "grid_gco2_per_kwh", unit: "gCO₂/kWh" }),
  },
  notesColumn<Region>(),
];

export const coolingSearchText = (c: Cooling) => searchText(c.id, c.name, c.liquid ? "liquid" : "air");
export const systemSearchText = (catalog: Catalog, s: ServerSystem) =>
  searchText(s.id, s.name, s.accelerator, acceleratorName(catalog, s.accelerator), s.liquid_cooled ? "liquid" : "air");
export const upgradeSearchText = (u: Upgrade) => searchText(u.id, u.name, u.kind, label(UPGRADE_KINDS, u.kind), u.currency);
export const colocationSearchText = (c: Colocation) => searchText(c.id, c.market, c.currency);
export const pueSearchText = (p: PueBenchmark) => searchText(p.id, p.name);
export const leadTimeSearchText = (l: LeadTime) => searchText(l.id, l.item);
export const fabricSearchText = (f: Fabric) =>
  searchText(f.id, f.name, f.technology, label(TECHNOLOGIES, f.technology), f.pools, f.currency);
export const regionSearchText = (r: Region) => searchText(r.id, r.name, r.currency);
