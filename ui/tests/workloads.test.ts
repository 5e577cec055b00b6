// Workloads as the editor starts them: a slug id, the engine's defaults, no invented demand; and
// the demand switch. (New scenarios and layers are the engine's drafts: planner-core's
// tests/drafts.rs checks them, and the managers' tests use them on recorded answers.)

import { describe, expect, it } from "vitest";
import { newWorkload, switchDemand } from "../src/lib/workloads/workloads";

describe("workloads", () => {
  it("a new workload gets a slug id and no invented demand", () => {
    const w = newWorkload("Nightly batch inference", "inference", ["nightly-batch-inference"]);
    expect(w.id).toBe("nightly-batch-inference-2");
    expect(w).toMatchObject({ kind: "inference", class: "steady", model: null, tokens_per_month: null, gpu_hours_per_day: null, mfu: "0.4", method: null });
    expect(newWorkload("Tune", "fine-tuning", []).method).toBe("lora");
  });

  it("switching the demand clears the other form", () => {
    const w = { ...newWorkload("x", "inference", []), tokens_per_month: "1000" };
    const g = switchDemand(w, "gpu-hours", "nvidia-h100-sxm");
    expect(g).toMatchObject({ tokens_per_month: null, gpu_hours_on: "nvidia-h100-sxm", gpu_hours_per_day: null });
    expect(switchDemand({ ...g, gpu_hours_per_day: "120" }, "tokens", null)).toMatchObject({ gpu_hours_per_day: null, gpu_hours_on: null });
  });
});
