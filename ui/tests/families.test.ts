import { describe, expect, it } from "vitest";
import { FAMILY_ORDER, familyCounts, familyLabel, groupByFamily } from "../src/lib/families";
import type { Accelerator } from "../src/lib/catalog-types";
import { FIXTURE_CATALOG } from "./fixtures/catalog";

describe("grouping accelerators by family", () => {
  it("returns every family in the fixed order with its label", () => {
    const groups = groupByFamily(FIXTURE_CATALOG.accelerators);
    expect(groups.map((g) => g.family)).toEqual([...FAMILY_ORDER]);
    expect(groups.map((g) => g.label)).toEqual([
      "Large-scale training",
      "High-throughput inference",
      "Edge and device",
      "Domestic alternatives",
      "Consumer cards",
      "Cloud-only (TPU)",
    ]);
  });

  it("puts each accelerator in its family, keeping the catalog order", () => {
    const groups = groupByFamily(FIXTURE_CATALOG.accelerators);
    const byFamily = Object.fromEntries(groups.map((g) => [g.family, g.rows.map((a) => a.id)]));
    expect(byFamily).toEqual({
      training: ["nvidia-h100-sxm", "amd-mi300x"],
      inference: [],
      edge: [],
      domestic: ["huawei-ascend-910b"],
      consumer: [],
      "cloud-only": ["google-tpu-v5p"],
    });
  });

  it("counts accelerators per family", () => {
    const counts = familyCounts(FIXTURE_CATALOG.accelerators);
    expect(counts.get("training")).toBe(2);
    expect(counts.get("domestic")).toBe(1);
    expect(counts.get("edge")).toBeUndefined();
  });

  it("keeps an accelerator of a family this build does not know, in a group at the end", () => {
    const odd = { ...FIXTURE_CATALOG.accelerators[0]!, id: "x", family: "quantum" } as unknown as Accelerator;
    const groups = groupByFamily([...FIXTURE_CATALOG.accelerators, odd]);
    expect(groups.at(-1)?.family).toBe("quantum");
    expect(groups.at(-1)?.rows.map((a) => a.id)).toEqual(["x"]);
    expect(familyLabel("quantum")).toBe("quantum");
  });
});
