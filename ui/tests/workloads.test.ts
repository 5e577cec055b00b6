// The demand switch of a workload. (A new workload, scenario or layer is the engine's draft:
// planner-core's tests/drafts.rs checks them, and the managers' tests use them on recorded answers.)

import { describe, expect, it } from "vitest";
import type { WorkloadSpec } from "../src/lib/workspace-types";
import { switchDemand } from "../src/lib/workloads/workloads";

/** A workload as the engine drafts one, with a demand in tokens. */
const TOKENS: WorkloadSpec = {
  id: "x",
  name: "x",
  kind: "inference",
  method: null,
  class: "steady",
  precision: "bf16",
  model: null,
  tokens_per_month: "1000",
  gpu_hours_per_day: null,
  gpu_hours_on: null,
  mfu: "0.4",
  monthly_growth: "0",
  active_from_month: 0,
  active_months: null,
  interruptible: false,
  data_classification: "internal",
  region: null,
  token_mix: null,
};

describe("workloads", () => {
  it("switching the demand clears the other form", () => {
    const g = switchDemand(TOKENS, "gpu-hours", "nvidia-h100-sxm");
    expect(g).toMatchObject({ tokens_per_month: null, gpu_hours_on: "nvidia-h100-sxm", gpu_hours_per_day: null });
    expect(switchDemand({ ...g, gpu_hours_per_day: "120" }, "tokens", null)).toMatchObject({ gpu_hours_per_day: null, gpu_hours_on: null });
    expect(switchDemand(TOKENS, "tokens", null)).toBe(TOKENS);
  });
});
