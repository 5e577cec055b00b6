// Scenario templates on the real workspace catalog (the enterprise-hybrid sample's, as the back end
// sends it in a recorded session): every default is a catalog entry that fits, and what cannot be
// chosen is said rather than invented.

import { describe, expect, it } from "vitest";
import type { Catalog } from "../src/lib/catalog-types";
import { FIELD_KINDS, changeLayerKind, emptyLayer, layerAccelerator } from "../src/lib/layers";
import { coolingFor, duplicateScenario, scenarioFromTemplate, serverKw } from "../src/lib/templates";
import { newWorkload, switchDemand } from "../src/lib/workloads/workloads";
import { enterpriseSession } from "./support/sessions";

/** The enterprise-hybrid sample's workspace catalog (this test's recorded session). */
async function workspaceCatalog(): Promise<Catalog> {
  const { backend } = await enterpriseSession();
  return backend.workspaceCatalog();
}

const ctx = { currency: "USD", takenIds: [] as string[] };

describe("scenario templates", () => {
  it("Buy: one owned layer of a priced training accelerator in its catalog system, cooling that carries it", async () => {
    const catalog = await workspaceCatalog();
    const { scenario, notes } = scenarioFromTemplate("buy", catalog, ctx);
    expect(notes).toEqual([]);
    expect(scenario.name).toBe("Buy 8 × NVIDIA H100 SXM5");
    expect(scenario.id).toBe("buy-8-nvidia-h100-sxm5");
    expect(scenario.layers).toHaveLength(1);
    const owned = scenario.layers[0]!;
    expect(owned).toMatchObject({ id: "owned", kind: "owned", accelerator: "nvidia-h100-sxm", system: "dgx-h100", gpus: 8, gpus_per_server: null });
    expect(owned.offer).toBeNull();
    // A DGX H100 draws 10.2 kW: perimeter air (8–10 kW) cannot carry it, contained air (20–30) can.
    expect(catalog.facility.systems.find((x) => x.id === "dgx-h100")?.max_power_kw).toMatchObject({ low: "10.2", high: "10.2" });
    expect(catalog.facility.cooling.find((c) => c.id === "perimeter-air")?.kw_per_rack).toMatchObject({ low: "8", high: "10" });
    expect(catalog.facility.cooling.find((c) => c.id === "contained-air")?.kw_per_rack).toMatchObject({ low: "20", high: "30" });
    expect(scenario.facility).toMatchObject({ region: "us", cooling: "contained-air", kw_per_rack_limit: "20", colocation: null });
    expect(scenario.network).toEqual({ fabric: "ib-ndr-400", per_port_cost: null });
  });

  it("Rent: one on-demand layer on an offer for the accelerator, no facility", async () => {
    const catalog = await workspaceCatalog();
    const { scenario, notes } = scenarioFromTemplate("rent", catalog, ctx);
    expect(notes).toEqual([]);
    expect(scenario.name).toBe("Rent NVIDIA H100 SXM5 on demand (AWS)");
    expect(scenario.layers).toEqual([expect.objectContaining({ id: "on-demand", kind: "on-demand", offer: "aws-p5-h100", accelerator: null })]);
    expect(scenario.facility).toBeNull();
    expect(scenario.network).toBeNull();
  });

  it("Hybrid: owned plus on-demand on the same accelerator", async () => {
    const catalog = await workspaceCatalog();
    const { scenario } = scenarioFromTemplate("hybrid", catalog, ctx);
    expect(scenario.layers.map((l) => [l.kind, layerAccelerator(l, catalog)])).toEqual([
      ["owned", "nvidia-h100-sxm"],
      ["on-demand", "nvidia-h100-sxm"],
    ]);
    expect(scenario.facility?.cooling).toBe("contained-air");
  });

  it("gives unique ids and says what it could not choose", async () => {
    const catalog = await workspaceCatalog();
    const taken = ["buy-8-nvidia-h100-sxm5"];
    expect(scenarioFromTemplate("buy", catalog, { currency: "USD", takenIds: taken }).scenario.id).toBe("buy-8-nvidia-h100-sxm5-2");

    const eur = scenarioFromTemplate("hybrid", catalog, { currency: "EUR", takenIds: [] });
    expect(eur.notes.join(" ")).toMatch(/AWS prices NVIDIA H100 SXM5 in USD; the workspace needs an exchange rate/);
    expect(eur.notes.join(" ")).toMatch(/purchase prices are in USD/);
    // A region with a tariff in EUR is preferred: the first in the catalog, the EU-27 average.
    expect(eur.scenario.facility?.region).toBe("eu27");
    expect(catalog.regions.find((r) => r.id === "eu27")?.currency).toBe("EUR");

    const unpriced: Catalog = { ...catalog, accelerators: catalog.accelerators.map((a) => ({ ...a, price_usd: null })) };
    const none = scenarioFromTemplate("buy", unpriced, ctx);
    expect(none.notes).toEqual(["The workspace catalog has no accelerator that fits this template: choose one in each layer."]);
    expect(none.scenario.layers).toEqual([emptyLayer("owned", "owned")]);
  });

  it("picks cooling by the server's draw", async () => {
    const catalog = await workspaceCatalog();
    const h100 = catalog.accelerators.find((a) => a.id === "nvidia-h100-sxm")!;
    expect(h100.tdp_w).toMatchObject({ low: "700", high: "700" });
    expect(serverKw(h100, null)).toBeCloseTo((700 * 8 * 1.8) / 1000, 6);
    expect(coolingFor(catalog, 9)?.id).toBe("perimeter-air");
    expect(coolingFor(catalog, 45)?.id).toBe("rear-door-hx");
    expect(coolingFor(catalog, 140)?.id).toBe("direct-to-chip");
  });

  it("duplicates under a new id", async () => {
    const catalog = await workspaceCatalog();
    const { scenario } = scenarioFromTemplate("rent", catalog, ctx);
    const copy = duplicateScenario(scenario, [scenario.id]);
    expect(copy.name).toBe(`${scenario.name} (copy)`);
    expect(copy.id).toBe(`${scenario.id}-copy`);
    expect(copy.layers).toEqual(scenario.layers);
    expect(copy.layers).not.toBe(scenario.layers);
  });
});

describe("layer kinds", () => {
  it("clears the fields a new kind does not take", async () => {
    const catalog = await workspaceCatalog();
    const owned = { ...emptyLayer("a", "owned"), system: "dgx-h100", gpus: 16, lead_time_months: 3, financing: { method: "loan" as const, annual_rate: "0.07", term_months: 36, down_payment: "0.2" }, installation: "15000" };
    const rented = changeLayerKind(owned, "on-demand", catalog);
    expect(rented).toMatchObject({ kind: "on-demand", system: null, financing: null, lead_time_months: 0, installation: "0", gpus: 16, offer: null, accelerator: "nvidia-h100-sxm" });
    const reserved = changeLayerKind({ ...emptyLayer("b", "spot"), offer: "aws-p5-h100", interruptions_per_hour: "0.1" }, "reserved", catalog);
    expect(reserved).toMatchObject({ kind: "reserved", offer: "aws-p5-h100", accelerator: null, term: "1y", interruptions_per_hour: null });
    const pooled = changeLayerKind({ ...emptyLayer("c", "on-demand"), offer: "aws-p5-h100", price_per_gpu_hour: { value: "2", currency: null, reason: "pool rate" } }, "pooled", catalog);
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
