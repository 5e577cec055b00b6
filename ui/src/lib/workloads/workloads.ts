// Workloads: the demand switch (tokens per month, or GPU-hours per day on an accelerator) and the
// scenario that checks the workloads alone. (A new workload is the engine's draft: `draftWorkload`.)

import type { Catalog } from "../catalog-types";
import type { ScenarioSpec, WorkloadSpec } from "../workspace-types";

export type DemandMode = "tokens" | "gpu-hours";

/** How the workload states its demand (GPU-hours as soon as either GPU-hour field is set). */
export function demandMode(w: WorkloadSpec): DemandMode {
  return w.gpu_hours_per_day !== null || w.gpu_hours_on !== null ? "gpu-hours" : "tokens";
}

/** The workload with its demand switched to `mode`; the other mode's fields are cleared. */
export function switchDemand(w: WorkloadSpec, mode: DemandMode, defaultAccelerator: string | null): WorkloadSpec {
  if (mode === demandMode(w)) return w;
  return mode === "tokens"
    ? { ...w, gpu_hours_per_day: null, gpu_hours_on: null }
    : { ...w, tokens_per_month: null, gpu_hours_on: defaultAccelerator };
}

/** The accelerator sizing starts on: the first of the training family, else the first. */
export function defaultSizingAccelerator(catalog: Catalog): string | null {
  return (catalog.accelerators.find((a) => a.family === "training") ?? catalog.accelerators[0])?.id ?? null;
}

/** The id of the scenario used to check workloads; never saved. */
export const WORKLOAD_CHECK_ID = "workload-check";

/**
 * A scenario with no layers, for asking the engine about the workloads alone: evaluating it
 * validates every workload and the settings (their problems are placed on them); its own
 * problems are ignored.
 */
export function workloadCheckScenario(): ScenarioSpec {
  return {
    id: WORKLOAD_CHECK_ID,
    name: "Workload check",
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
    demand_scale: null,
    monthly_growth: null,
    discount_rate: null,
  };
}
