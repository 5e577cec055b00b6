// Scenario templates on the real (trimmed) workspace catalog: every default is a catalog entry
// that fits, and what cannot be chosen is said rather than invented.

import { describe, expect, it } from "vitest";
import type { Catalog } from "../src/lib/catalog-types";
import { FIELD_KINDS, changeLayerKind, emptyLayer, layerAccelerator } from "../src/lib/layers";
import { coolingFor, duplicateScenario, scenarioFromTemplate, serverKw } from "../src/lib/templates";
import { newWorkload, switchDemand } from "../src/lib/workloads/workloads";
import { WORKSPACE_CATALOG } from "./fixtures/enterprise-hybrid";

const ctx = { currency: "USD", takenIds: [] as string[] };

describe("scenario templates", () => {
  it("Buy: one owned layer of a priced training accelerator in its catalog system, cooling that carries it", () => {
    const { scenario, notes } = scenarioFromTemplate("buy", WORKSPACE_CATALOG, ctx);
    expect(notes).toEqual([]);
    expect(scenario.name).toBe("Buy 8 × NVIDIA H100 SXM5");
    expect(scenario.id).toBe("buy-8-nvidia-h100-sxm5");
    expect(scenario.layers).toHaveLength(1);
    const owned = scenario.layers[0]!;
    expect(owned).toMatchObject({ id: "owned", kind: "owned", accelerator: "nvidia-h100-sxm", system: "dgx-h100", gpus: 8, gpus_per_server: null });
    expect(owned.offer).toBeNull();
    // A DGX H100 draws 10.2 kW: perimeter air (8–10 kW) cannot carry it, contained air (20–30) can.
    expect(scenario.facility).toMatchObject({ region: "us", cooling: "contained-air", kw_per_rack_limit: "20", colocation: null });
    expect(scenario.network).toEqual({ fabric: "ib-ndr-400", per_port_cost: null });
  });

  it("Rent: one on-demand layer on an offer for the accelerator, no facility", () => {
    const { scenario, notes } = scenarioFromTemplate("rent", WORKSPACE_CATALOG, ctx);
    expect(notes).toEqual([]);
    expect(scenario.name).toBe("Rent NVIDIA H100 SXM5 on demand (AWS)");
    expect(scenario.layers).toEqual([expect.objectContaining({ id: "on-demand", kind: "on-demand", offer: "aws-p5-h100", accelerator: null })]);
    expect(scenario.facility).toBeNull();
    expect(scenario.network).toBeNull();
  });

  it("Hybrid: owned plus on-demand on the same accelerator", () => {
    const { scenario } = scenarioFromTemplate("hybrid", WORKSPACE_CATALOG, ctx);
    expect(scenario.layers.map((l) => [l.kind, layerAccelerator(l, WORKSPACE_CATALOG)])).toEqual([
      ["owned", "nvidia-h100-sxm"],
      ["on-demand", "nvidia-h100-sxm"],
    ]);
    expect(scenario.facility?.cooling).toBe("contained-air");
  });

  it("gives unique ids and says what it could not choose", () => {
    const taken = ["buy-8-nvidia-h100-sxm5"];
    expect(scenarioFromTemplate("buy", WORKSPACE_CATALOG, { currency: "USD", takenIds: taken }).scenario.id).toBe("buy-8-nvidia-h100-sxm5-2");

    const eur = scenarioFromTemplate("hybrid", WORKSPACE_CATALOG, { currency: "EUR", takenIds: [] });
    expect(eur.notes.join(" ")).toMatch(/AWS prices NVIDIA H100 SXM5 in USD; the workspace needs an exchange rate/);
    expect(eur.notes.join(" ")).toMatch(/purchase prices are in USD/);
    // A region with a tariff in EUR is preferred.
    expect(eur.scenario.facility?.region).toBe("de");

    const unpriced: Catalog = { ...WORKSPACE_CATALOG, accelerators: WORKSPACE_CATALOG.accelerators.map((a) => ({ ...a, price_usd: null })) };
    const none = scenarioFromTemplate("buy", unpriced, ctx);
    expect(none.notes).toEqual(["The workspace catalog has no accelerator that fits this template: choose one in each layer."]);
    expect(none.scenario.layers).toEqual([emptyLayer("owned", "owned")]);
  });

  it("picks cooling by the server's draw", () => {
    const h100 = WORKSPACE_CATALOG.accelerators.find((a) => a.id === "nvidia-h100-sxm")!;
    expect(serverKw(h100, null)).toBeCloseTo((700 * 8 * 1.8) / 1000, 6);
    expect(coolingFor(WORKSPACE_CATALOG, 9)?.id).toBe("perimeter-air");
    expect(coolingFor(WORKSPACE_CATALOG, 45)?.id).toBe("rear-door-hx");
    expect(coolingFor(WORKSPACE_CATALOG, 140)?.id).toBe("direct-to-chip");
  });

  it("duplicates under a new id", () => {
    const { scenario } = scenarioFromTemplate("rent", WORKSPACE_CATALOG, ctx);
    const copy = duplicateScenario(scenario, [scenario.id]);
    expect(copy.name).toBe(`${scenario.name} (copy)`);
    expect(copy.id).toBe(`${scenario.id}-copy`);
    expect(copy.layers).toEqual(scenario.layers);
    expect(copy.layers).not.toBe(scenario.layers);
  });
});

describe("layer kinds", () => {
  it("clears the fields a new kind does not take", () => {
    const owned = { ...emptyLayer("a", "owned"), system: "dgx-h100", gpus: 16, lead_time_months: 3, financing: { method: "loan" as const, annual_rate: "0.07", term_months: 36, down_payment: "0.2" }, installation: "15000" };
    const rented = changeLayerKind(owned, "on-demand", WORKSPACE_CATALOG);
    expect(rented).toMatchObject({ kind: "on-demand", system: null, financing: null, lead_time_months: 0, installation: "0", gpus: 16, offer: null, accelerator: "nvidia-h100-sxm" });
    const reserved = changeLayerKind({ ...emptyLayer("b", "spot"), offer: "aws-p5-h100", interruptions_per_hour: "0.1" }, "reserved", WORKSPACE_CATALOG);
    expect(reserved).toMatchObject({ kind: "reserved", offer: "aws-p5-h100", accelerator: null, term: "1y", interruptions_per_hour: null });
    const pooled = changeLayerKind({ ...emptyLayer("c", "on-demand"), offer: "aws-p5-h100", price_per_gpu_hour: { value: "2", currency: null, reason: "pool rate" } }, "pooled", WORKSPACE_CATALOG);
    expect(pooled).toMatchObject({ kind: "pooled", offer: null, accelerator: "nvidia-h100-sxm", price_per_gpu_hour: { value: "2", reason: "pool rate" } });
  });

  it("lists a field for the kinds the engine accepts it on", () => {
    expect(FIELD_KINDS.offer).toEqual(["reserved", "spot", "on-demand"]);
    expect(FIELD_KINDS.term).toEqual(["reserved"]);
    expect(FIELD_KINDS.price_per_gpu_hour).toEqual(["reserved", "spot", "on-demand", "pooled"]);
    expect(FIELD_KINDS.interruptions_per_hour).toEqual(["spot"]);
    expect(FIELD_KINDS.financing).toEqual(["owned"]);
  });
});

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
