// The back end leaves absent options out of workload, scenario and settings specs
// (`skip_serializing_if = "Option::is_none"`): `{"model": {"parameters_billion": "70"}}`. The UI
// works on total objects (every key present, `null` when absent), so the Backend implementations
// pass every spec they receive through these functions. Sending a total object back is fine:
// serde reads `null` as an absent option.

import type {
  FacilitySpec,
  FxRate,
  Override,
  LayerSpec,
  ModelSpec,
  NetworkSpec,
  ScenarioSpec,
  WorkloadSpec,
  WorkspaceInfo,
  WorkspaceSettings,
  Changed,
  Applied,
  Imported,
  Session,
  MemoDraft,
  QuotePreview,
  ScorecardDraft,
  ScorecardView,
  VendorEntry,
} from "./workspace-types";
import { emptyLayer } from "./layers";

/** Keys serde may leave out: options (`None`) and lists (`skip_serializing_if = "Vec::is_empty"`). */
type Skippable<V> = null extends V ? true : V extends unknown[] ? true : false;

/** `T` as it may arrive: options and lists may be missing, at any depth. */
export type Sparse<T> = T extends (infer U)[]
  ? Sparse<U>[]
  : T extends object
    ? { [K in keyof T as Skippable<T[K]> extends true ? K : never]?: Sparse<T[K]> } & {
        [K in keyof T as Skippable<T[K]> extends true ? never : K]: Sparse<T[K]>;
      }
    : T;

const n = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

/** An override with its currency present (null: the workspace's currency). */
export function normalizeOverride(o: Sparse<Override> | null | undefined): Override | null {
  return o ? { value: o.value, currency: n(o.currency), reason: o.reason } : null;
}

/** An exchange rate with both forms' keys present (null where the entry uses the other form). */
export function normalizeFxRate(r: Sparse<FxRate>): FxRate {
  return { base: n(r.base), quote: n(r.quote), currency: n(r.currency), rate: r.rate, source: r.source };
}

export function normalizeModel(m: Sparse<ModelSpec>): ModelSpec {
  return {
    parameters_billion: m.parameters_billion,
    layers: n(m.layers),
    kv_heads: n(m.kv_heads),
    head_dim: n(m.head_dim),
    context_tokens: n(m.context_tokens),
    batch: n(m.batch),
  };
}

export function normalizeWorkload(w: Sparse<WorkloadSpec>): WorkloadSpec {
  return {
    id: w.id,
    name: w.name,
    kind: w.kind,
    method: n(w.method),
    class: w.class,
    precision: w.precision ?? "bf16",
    model: w.model ? normalizeModel(w.model) : null,
    tokens_per_month: n(w.tokens_per_month),
    gpu_hours_per_day: n(w.gpu_hours_per_day),
    gpu_hours_on: n(w.gpu_hours_on),
    mfu: w.mfu ?? "0.4",
    monthly_growth: w.monthly_growth ?? "0",
    active_from_month: w.active_from_month ?? 0,
    active_months: n(w.active_months),
    interruptible: w.interruptible ?? false,
    data_classification: w.data_classification ?? "internal",
    region: n(w.region),
  };
}

const OVERRIDE_KEYS = ["price_per_gpu", "price_per_gpu_hour", "price_per_million_tokens", "peak_tflops", "power_kw_per_gpu"] as const;

export function normalizeLayer(l: Sparse<LayerSpec>): LayerSpec {
  const base = emptyLayer(l.id, l.kind);
  const out: LayerSpec = { ...base };
  for (const key of Object.keys(base) as (keyof LayerSpec)[]) {
    const v = (l as Record<string, unknown>)[key];
    if (v !== undefined) (out as Record<string, unknown>)[key] = v;
  }
  // emptyLayer gives a reserved layer a default term; an absent term stays absent.
  out.term = n(l.term);
  out.payment_milestones = l.payment_milestones ?? [];
  for (const key of OVERRIDE_KEYS) out[key] = normalizeOverride(l[key]);
  return out;
}

function normalizeFacility(f: Sparse<FacilitySpec>): FacilitySpec {
  return {
    region: f.region,
    tariff_per_kwh: normalizeOverride(f.tariff_per_kwh),
    grid_gco2_per_kwh: normalizeOverride(f.grid_gco2_per_kwh),
    cooling: f.cooling,
    pue: normalizeOverride(f.pue),
    kw_per_rack_limit: f.kw_per_rack_limit,
    colocation: n(f.colocation),
    colocation_per_kw_month: normalizeOverride(f.colocation_per_kw_month),
    power_distribution_upgrade: n(f.power_distribution_upgrade),
    cooling_upgrade: n(f.cooling_upgrade),
  };
}

function normalizeNetwork(x: Sparse<NetworkSpec>): NetworkSpec {
  return { fabric: x.fabric, per_port_cost: normalizeOverride(x.per_port_cost) };
}

export function normalizeScenario(s: Sparse<ScenarioSpec>): ScenarioSpec {
  return {
    id: s.id,
    name: s.name,
    description: n(s.description),
    price_point: n(s.price_point),
    layers: (s.layers ?? []).map(normalizeLayer),
    facility: s.facility ? normalizeFacility(s.facility) : null,
    network: s.network ? normalizeNetwork(s.network) : null,
    staff_fte: s.staff_fte ?? "0",
    staff_cost_per_fte_year: s.staff_cost_per_fte_year ?? "0",
    engineer_month_cost: s.engineer_month_cost ?? "0",
    software_per_month: s.software_per_month ?? "0",
    storage_per_month: s.storage_per_month ?? "0",
    egress_tb_per_month: s.egress_tb_per_month ?? "0",
    egress_per_tb: s.egress_per_tb ?? "0",
    egress_share_of_cloud_spend: n(s.egress_share_of_cloud_spend),
  };
}

export function normalizeSettings(s: Sparse<WorkspaceSettings>): WorkspaceSettings {
  return {
    title: s.title,
    description: n(s.description),
    currency: s.currency,
    start: s.start,
    horizon_months: s.horizon_months,
    discount_rate: s.discount_rate,
    price_point: s.price_point ?? "mid",
    fx: (s.fx ?? []).map(normalizeFxRate),
  };
}

export function normalizeInfo(info: Sparse<WorkspaceInfo>): WorkspaceInfo {
  return {
    path: info.path,
    settings: normalizeSettings(info.settings),
    workloads: (info.workloads ?? []).map(normalizeWorkload),
    scenarios: (info.scenarios ?? []) as WorkspaceInfo["scenarios"],
    view: {
      selected: info.view.selected ?? [],
      baseline: n(info.view.baseline),
      horizon_months: n(info.view.horizon_months),
    },
    history: {
      ...info.history,
      undo_label: n(info.history.undo_label),
      redo_label: n(info.history.redo_label),
    },
    catalog: { ...info.catalog, shipped_version: n(info.catalog.shipped_version) },
    read_only: n(info.read_only),
  };
}

export function normalizeChanged(c: Sparse<Changed>): Changed {
  switch (c.kind) {
    case "settings":
      return { kind: "settings", settings: normalizeSettings(c.settings) };
    case "workload":
      return { kind: "workload", id: c.id, workload: c.workload ? normalizeWorkload(c.workload) : null };
    case "scenario":
      return { kind: "scenario", id: c.id, summary: n(c.summary) as Extract<Changed, { kind: "scenario" }>["summary"] };
    case "catalog":
      return { kind: "catalog", status: { ...c.status, shipped_version: n(c.status.shipped_version) } };
    case "memo":
      return { kind: "memo", memo: normalizeMemoDraft(c.memo) };
    case "scorecard":
      return { kind: "scorecard", scorecard: normalizeScorecard(c.scorecard) };
  }
}

/** A vendor row with every key present (absent figures are null: not entered yet). */
export function normalizeVendor(v: Partial<VendorEntry> | null | undefined): VendorEntry {
  return {
    name: v?.name ?? "",
    scenario: n(v?.scenario),
    mfu: n(v?.mfu),
    annual_failure_rate: n(v?.annual_failure_rate),
    sla: n(v?.sla),
    sla_refund_share: n(v?.sla_refund_share),
    response_hours: n(v?.response_hours),
    expert_hours_per_month: n(v?.expert_hours_per_month),
  };
}

/** A scorecard with every key present; absent weights are the back end's default, 20 points each. */
export function normalizeScorecard(s: Sparse<ScorecardDraft> | Partial<ScorecardDraft> | null | undefined): ScorecardDraft {
  const w = s?.weights;
  return {
    weights: {
      performance: w?.performance ?? "20",
      reliability: w?.reliability ?? "20",
      cost: w?.cost ?? "20",
      service: w?.service ?? "20",
      compliance: w?.compliance ?? "20",
    },
    vendors: (s?.vendors ?? []).map((v) => normalizeVendor(v as Partial<VendorEntry>)),
  };
}

/** The scorecard screen with absent options as null (Rust leaves out `None`). */
export function normalizeScorecardView(v: ScorecardView): ScorecardView {
  return {
    ...v,
    vendors: v.vendors.map((x) => ({
      ...x,
      scenario: n(x.scenario),
      scenario_name: n(x.scenario_name),
      tco: n(x.tco),
      unmet_pflop_h: n(x.unmet_pflop_h),
      compliance: n(x.compliance),
    })),
    scorecard: v.scorecard ? { ...v.scorecard, flip: n(v.scorecard.flip) } : null,
    stability: n(v.stability),
  };
}

/** A quote preview with absent options as null. */
export function normalizeQuotePreview(p: QuotePreview): QuotePreview {
  return {
    ...p,
    sheet: n(p.sheet),
    quotes: p.quotes.map((q) => ({
      ...q,
      gpus: n(q.gpus),
      price_per_gpu_hour: n(q.price_per_gpu_hour),
      price_per_gpu: n(q.price_per_gpu),
      sla_uptime: n(q.sla_uptime),
      sla_refund_share: n(q.sla_refund_share),
      response_hours: n(q.response_hours),
    })),
  };
}

/** A memo draft with every key present (the back end may leave out empty fields). */
export function normalizeMemoDraft(m: Partial<MemoDraft> | null | undefined): MemoDraft {
  return {
    author: m?.author ?? "",
    client: m?.client ?? "",
    decision: m?.decision ?? "",
    rationale: m?.rationale ?? "",
    recommended: n(m?.recommended),
    scenarios: [...(m?.scenarios ?? [])],
    paper: m?.paper ?? "a4",
  };
}

export function normalizeApplied(a: Sparse<Applied>): Applied {
  return {
    history: { ...a.history, undo_label: n(a.history.undo_label), redo_label: n(a.history.redo_label) },
    label: a.label,
    changed: (a.changed ?? []).map(normalizeChanged),
  };
}

export function normalizeImported(i: Sparse<Imported>): Imported {
  return { ...i, applied: normalizeApplied(i.applied), renamed: i.renamed ?? [] };
}

export function normalizeSession(s: Sparse<Session>): Session {
  return {
    workspace: s.workspace ? normalizeInfo(s.workspace) : null,
    launch_error: n(s.launch_error) as Session["launch_error"],
    recent: (s.recent ?? []) as Session["recent"],
  };
}
