import { describe, expect, it } from "vitest";
import { cachedHaystack, filterRows, matchRows, matchesTerms, queryTerms, searchText } from "../src/lib/filter";
import type { Catalog } from "../src/lib/catalog-types";
import { acceleratorSearchText, offerSearchText, regionSearchText } from "../src/lib/tables";
import { recorded } from "./support/recorded";

/** The shipped catalog, as the back end sends it (this test's recorded session). */
async function shippedCatalog(): Promise<Catalog> {
  const { backend } = recorded();
  return backend.getCatalog();
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("filtering", () => {
  it("matches every word of the query, in any order, ignoring case", () => {
    expect(queryTerms("  H100   sxm ")).toEqual(["h100", "sxm"]);
    expect(matchesTerms("NVIDIA H100 SXM5", ["sxm", "nvidia"])).toBe(true);
    expect(matchesTerms("NVIDIA H100 SXM5", ["sxm", "amd"])).toBe(false);
    expect(matchesTerms("Zürich", ["zurich"])).toBe(true);
  });

  it("keeps every row, in order, for a blank query", async () => {
    const accs = (await shippedCatalog()).accelerators;
    expect(accs.length).toBe(27);
    expect(ids(filterRows(accs, "   ", acceleratorSearchText))).toEqual(ids(accs));
  });

  it("matches accelerators by name, vendor, id and family", async () => {
    const accs = (await shippedCatalog()).accelerators;
    const find = (q: string) => ids(filterRows(accs, q, acceleratorSearchText));
    // The H200's form factor says it fits HGX H100 boards.
    expect(find("h100")).toEqual(["nvidia-h100-sxm", "nvidia-h100-pcie", "nvidia-h200-sxm", "nvidia-h100-nvl"]);
    expect(find("tpu v5p")).toEqual(["google-tpu-v5p"]);
    expect(find("amd")).toEqual(["amd-mi300x", "amd-mi325x", "amd-mi355x"]);
    expect(find("huawei-ascend")).toEqual(["huawei-ascend-910b", "huawei-ascend-910c"]);
    expect(find("domestic")).toEqual(["huawei-ascend-910b", "huawei-ascend-910c"]);
    expect(find("cloud-only")).toEqual(["google-tpu-v5e", "google-tpu-v5p", "google-tpu-v6e"]);
    expect(find("Large-scale training")).toEqual(accs.filter((a) => a.family === "training").map((a) => a.id));
    expect(find("Large-scale training")).toHaveLength(13);
    expect(filterRows(accs, "no such thing", acceleratorSearchText)).toEqual([]);
  });

  it("matches offers by provider, region and the accelerator's name", async () => {
    const catalog = await shippedCatalog();
    const offers = catalog.offers;
    const find = (q: string) => ids(filterRows(offers, q, (o: (typeof offers)[number]) => offerSearchText(catalog, o)));
    expect(find("aws")).toEqual(["aws-p5-h100", "aws-p5en-h200", "aws-p4d-a100-40gb", "aws-p4de-a100-80gb", "aws-p6-b200", "aws-g6e-l40s"]);
    expect(find("us-central1")).toEqual(["gcp-a3-highgpu-h100"]);
    expect(find("varies by host")).toEqual(["vastai-h100", "vastai-h100-nvl", "vastai-b200", "vastai-a100-80gb", "marketplace-rtx-4090"]);
    expect(find("H100 SXM5")).toEqual([
      "aws-p5-h100",
      "azure-nd-h100-v5",
      "gcp-a3-highgpu-h100",
      "coreweave-hgx-h100",
      "lambda-h100-sxm-8x",
      "lambda-h100-sxm-1x",
      "runpod-h100-sxm-secure",
      "runpod-h100-sxm-community",
      "vastai-h100",
      "together-h100",
      "nebius-h100",
    ]);
    expect(find("Google TPU v5p")).toEqual(["gcp-tpu-v5p"]);
    expect(find("tensorwave")).toEqual(["tensorwave-mi300x"]);
    expect(find("lambda h100")).toEqual(["lambda-h100-sxm-8x", "lambda-h100-sxm-1x", "lambda-h100-pcie-1x"]);
    // The provider's kind: the neoclouds renting out the MI300X.
    expect(find("neocloud mi300x")).toEqual(["tensorwave-mi300x", "vultr-mi300x", "crusoe-mi300x"]);
  });

  it("matches regions by name, id and currency", async () => {
    const regions = (await shippedCatalog()).regions;
    const find = (q: string) => ids(filterRows(regions, q, regionSearchText));
    expect(find("germany")).toEqual(["de"]);
    expect(find("eur")).toEqual(["eu27", "eu27-band-ie", "de", "ie", "se", "fi", "fr"]);
    expect(find("nok")).toEqual(["no"]);
    expect(find("gbp")).toEqual(["uk"]);
    expect(find("united states")).toEqual(["us", "us-iowa", "us-west-north-central", "us-east-north-central", "us-middle-atlantic", "us-new-england"]);
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
