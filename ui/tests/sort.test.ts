import { describe, expect, it } from "vitest";
import { ariaSort, compareKeys, figureKey, nextSort, numberKey, sortRows, textKey, type SortKey } from "../src/lib/sort";
import type { Figure } from "../src/lib/catalog-types";

const f = (low: string, high = low): Figure => ({
  low,
  high,
  provenance: { sources: [], as_of: "2026-11", confidence: "primary", note: null },
});

type Row = { name: string; price: Figure | null };
const rows: Row[] = [
  { name: "H100", price: f("25000", "40000") },
  { name: "TPU v5p", price: null },
  { name: "MI300X", price: f("10000", "15000") },
  { name: "A100", price: f("9000") },
  { name: "H20", price: f("25000", "30000") },
  { name: "Ascend 910B", price: null },
];
const byPrice = (r: Row): SortKey => figureKey(r.price);
const names = (rs: Row[]) => rs.map((r) => r.name);

describe("numeric sorting", () => {
  it("sorts by the low end, numerically not lexically", () => {
    expect(names(sortRows(rows, byPrice, "asc"))).toEqual(["A100", "MI300X", "H20", "H100", "TPU v5p", "Ascend 910B"]);
  });

  it("puts missing values last in both directions, keeping their order", () => {
    expect(names(sortRows(rows, byPrice, "desc"))).toEqual(["H100", "H20", "MI300X", "A100", "TPU v5p", "Ascend 910B"]);
  });

  it("orders ranges with the same start by their end", () => {
    const sorted = sortRows(rows, byPrice, "asc").map((r) => r.price?.high ?? null);
    expect(sorted.slice(2, 4)).toEqual(["30000", "40000"]);
  });

  it("compares decimals as numbers", () => {
    expect(compareKeys(figureKey(f("9.5")), figureKey(f("10")), "asc")).toBeLessThan(0);
    expect(compareKeys(figureKey(f("0.1346")), figureKey(f("0.09")), "asc")).toBeGreaterThan(0);
    expect(compareKeys(numberKey(2022), numberKey(2023), "desc")).toBeGreaterThan(0);
  });
});

describe("text sorting", () => {
  it("sorts text with the locale's collation and numeric segments", () => {
    const sorted = sortRows(rows, (r) => textKey(r.name), "asc");
    expect(names(sorted)).toEqual(["A100", "Ascend 910B", "H20", "H100", "MI300X", "TPU v5p"]);
  });

  it("is case-insensitive and puts empty text last", () => {
    const items = ["beta", "", "Alpha", "gamma"];
    expect(sortRows(items, textKey, "asc")).toEqual(["Alpha", "beta", "gamma", ""]);
    expect(sortRows(items, textKey, "desc")).toEqual(["gamma", "beta", "Alpha", ""]);
  });

  it("is stable for equal keys", () => {
    const items = [
      { k: "b", i: 1 },
      { k: "a", i: 2 },
      { k: "b", i: 3 },
      { k: "a", i: 4 },
    ];
    expect(sortRows(items, (x) => textKey(x.k), "asc").map((x) => x.i)).toEqual([2, 4, 1, 3]);
  });
});

describe("sort state", () => {
  it("sorts a new column ascending and flips the same column", () => {
    const a = nextSort(null, "price");
    expect(a).toEqual({ column: "price", dir: "asc" });
    const b = nextSort(a, "price");
    expect(b).toEqual({ column: "price", dir: "desc" });
    expect(nextSort(b, "price")).toEqual({ column: "price", dir: "asc" });
    expect(nextSort(b, "name")).toEqual({ column: "name", dir: "asc" });
  });

  it("reports aria-sort for each column", () => {
    expect(ariaSort(null, "price")).toBe("none");
    expect(ariaSort({ column: "price", dir: "asc" }, "price")).toBe("ascending");
    expect(ariaSort({ column: "price", dir: "desc" }, "price")).toBe("descending");
    expect(ariaSort({ column: "price", dir: "desc" }, "name")).toBe("none");
  });
});
