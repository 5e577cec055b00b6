import { describe, expect, it } from "vitest";
import { cachedHaystack, filterRows, matchRows, matchesTerms, queryTerms, searchText } from "../src/lib/filter";
import { FIXTURE_CATALOG } from "./fixtures/catalog";
import { acceleratorSearchText, offerSearchText, regionSearchText } from "../src/lib/tables";

const accs = FIXTURE_CATALOG.accelerators;
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("filtering", () => {
  it("matches every word of the query, in any order, ignoring case", () => {
    expect(queryTerms("  H100   sxm ")).toEqual(["h100", "sxm"]);
    expect(matchesTerms("NVIDIA H100 SXM5", ["sxm", "nvidia"])).toBe(true);
    expect(matchesTerms("NVIDIA H100 SXM5", ["sxm", "amd"])).toBe(false);
    expect(matchesTerms("Zürich", ["zurich"])).toBe(true);
  });

  it("keeps every row, in order, for a blank query", () => {
    expect(ids(filterRows(accs, "   ", acceleratorSearchText))).toEqual(ids(accs));
  });

  it("matches accelerators by name, vendor, id and family", () => {
    expect(ids(filterRows(accs, "h100", acceleratorSearchText))).toEqual(["nvidia-h100-sxm"]);
    expect(ids(filterRows(accs, "amd", acceleratorSearchText))).toEqual(["amd-mi300x"]);
    expect(ids(filterRows(accs, "huawei-ascend", acceleratorSearchText))).toEqual(["huawei-ascend-910b"]);
    expect(ids(filterRows(accs, "domestic", acceleratorSearchText))).toEqual(["huawei-ascend-910b"]);
    expect(ids(filterRows(accs, "cloud-only", acceleratorSearchText))).toEqual(["google-tpu-v5p"]);
    expect(ids(filterRows(accs, "Large-scale training", acceleratorSearchText))).toEqual(["nvidia-h100-sxm", "amd-mi300x"]);
    expect(filterRows(accs, "no such thing", acceleratorSearchText)).toEqual([]);
  });

  it("matches offers by provider, region and the accelerator's name", () => {
    const offers = FIXTURE_CATALOG.offers;
    const text = (o: (typeof offers)[number]) => offerSearchText(FIXTURE_CATALOG, o);
    expect(ids(filterRows(offers, "aws", text))).toEqual(["aws-p5-h100-us-east-1"]);
    expect(ids(filterRows(offers, "us-east5", text))).toEqual(["gcp-tpu-v5p-us-east5"]);
    expect(ids(filterRows(offers, "H100 SXM5", text))).toEqual(["aws-p5-h100-us-east-1", "neocloud-h100-us-tx"]);
    expect(ids(filterRows(offers, "neocloud", text))).toEqual(["neocloud-h100-us-tx"]);
  });

  it("matches regions by name, id and currency", () => {
    const regions = FIXTURE_CATALOG.regions;
    expect(ids(filterRows(regions, "germany", regionSearchText))).toEqual(["de"]);
    expect(ids(filterRows(regions, "eur", regionSearchText))).toEqual(["de"]);
  });

  it("does not match across the boundary of two fields", () => {
    expect(matchesTerms(searchText("NVIDIA", "H100"), ["nvidiah100"])).toBe(false);
    expect(searchText("a", null, undefined, "", ["b", "c"], 3)).toBe("a \u241f b \u241f c \u241f 3");
  });
});

describe("matchRows and cachedHaystack", () => {
  it("keeps the rows holding every word, in order, and returns the rows themselves for a blank query", () => {
    const rows = [{ n: "Éclair GPU" }, { n: "TPU pod" }, { n: "gpu farm" }];
    const calls: string[] = [];
    const haystack = cachedHaystack((r: { n: string }) => (calls.push(r.n), r.n));
    expect(matchRows(rows, "  ", haystack)).toBe(rows);
    expect(matchRows(rows, "gpu", haystack)).toEqual([rows[0], rows[2]]);
    expect(matchRows(rows, "ECLAIR gpu", haystack)).toEqual([rows[0]]);
    expect(calls).toEqual(["Éclair GPU", "TPU pod", "gpu farm"]);
  });
});
