// Workloads: a new one from a name and kind, and the demand switch (tokens per month, or
// GPU-hours per day on an accelerator).

import type { Catalog } from "../catalog-types";
import { uniqueId } from "../slug";
import type { ScenarioSpec, WorkloadKind, WorkloadSpec } from "../workspace-types";

/**
 * A workload named `name` with a unique id (a slug of the name) and the engine's defaults. It has
 * no model and no demand yet: the engine lists those as problems until the user gives them.
 */
export function newWorkload(name: string, kind: WorkloadKind, takenIds: Iterable<string>): WorkloadSpec {
  return {
    id: uniqueId(name, takenIds, "workload"),
    name: name.trim(),
    kind,
    method: kind === "fine-tuning" ? "lora" : null,
    class: kind === "inference" ? "steady" : kind === "experimentation" ? "exploratory" : "variable",
    precision: "bf16",
    model: null,
    tokens_per_month: null,
    gpu_hours_per_day: null,
    gpu_hours_on: null,
    mfu: "0.4",
    monthly_growth: "0",
    active_from_month: 0,
    active_months: null,
    interruptible: false,
    data_classification: "internal",
    region: null,
  };
}

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
  };
}
