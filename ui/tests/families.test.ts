// Accelerators grouped by family, on the real shipped catalog (recorded from the back end).

import { describe, expect, it } from "vitest";
import { FAMILY_ORDER, familyCounts, familyLabel, groupByFamily } from "../src/lib/families";
import type { Accelerator } from "../src/lib/catalog-types";
import { recorded } from "./support/recorded";

/** The shipped catalog's accelerators, as the back end sends them (this test's recorded session). */
async function shippedAccelerators(): Promise<Accelerator[]> {
  const { backend } = recorded();
  return (await backend.getCatalog()).accelerators;
}

const ids = (rows: readonly Accelerator[]) => rows.map((a) => a.id);

describe("grouping accelerators by family", () => {
  it("returns every family in the fixed order with its label", async () => {
    const groups = groupByFamily(await shippedAccelerators());
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

  it("puts each accelerator in its family, keeping the catalog order", async () => {
    const accs = await shippedAccelerators();
    const groups = groupByFamily(accs);
    const byFamily = Object.fromEntries(groups.map((g) => [g.family, ids(g.rows)]));
    expect(byFamily).toEqual({
      training: [
        "nvidia-h100-sxm",
        "nvidia-h100-pcie",
        "nvidia-h200-sxm",
        "nvidia-h800-sxm",
        "nvidia-b200",
        "nvidia-gb200",
        "nvidia-b300",
        "nvidia-a100-40gb-sxm",
        "nvidia-a100-80gb-sxm",
        "amd-mi300x",
        "amd-mi325x",
        "amd-mi355x",
        "intel-gaudi-3",
      ],
      inference: ["nvidia-h100-nvl", "nvidia-h20", "nvidia-l40s", "nvidia-l4", "nvidia-t4"],
      edge: ["nvidia-jetson-agx-orin-64gb", "huawei-atlas-300i-duo"],
      domestic: ["huawei-ascend-910b", "huawei-ascend-910c"],
      consumer: ["nvidia-rtx-4090", "nvidia-rtx-5090"],
      "cloud-only": ["google-tpu-v5e", "google-tpu-v5p", "google-tpu-v6e"],
    });
    // Nothing is lost or repeated: the shipped catalog lists its accelerators family by family.
    expect(groups.flatMap((g) => ids(g.rows))).toEqual(ids(accs));

    // A family with no accelerator is still a group, empty (here: Huawei's accelerators only).
    const huawei = groupByFamily(accs.filter((a) => a.vendor === "Huawei"));
    expect(huawei.map((g) => [g.family, ids(g.rows)])).toEqual([
      ["training", []],
      ["inference", []],
      ["edge", ["huawei-atlas-300i-duo"]],
      ["domestic", ["huawei-ascend-910b", "huawei-ascend-910c"]],
      ["consumer", []],
      ["cloud-only", []],
    ]);
  });

  it("counts accelerators per family", async () => {
    const accs = await shippedAccelerators();
    const counts = familyCounts(accs);
    expect([...counts]).toEqual([
      ["training", 13],
      ["inference", 5],
      ["edge", 2],
      ["domestic", 2],
      ["consumer", 2],
      ["cloud-only", 3],
    ]);
    // A family with none is not counted (AMD makes only training accelerators).
    const amd = familyCounts(accs.filter((a) => a.vendor === "AMD"));
    expect(amd.get("training")).toBe(3);
    expect(amd.get("edge")).toBeUndefined();
  });

  it("keeps an accelerator of a family this build does not know, in a group at the end", async () => {
    const accs = await shippedAccelerators();
    const odd = { ...accs[0]!, id: "x", family: "quantum" } as unknown as Accelerator;
    const groups = groupByFamily([...accs, odd]);
    expect(groups.map((g) => g.family)).toEqual([...FAMILY_ORDER, "quantum"]);
    expect(groups.at(-1)?.rows.map((a) => a.id)).toEqual(["x"]);
    expect(familyLabel("quantum")).toBe("quantum");
  });
});
