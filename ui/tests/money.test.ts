// Results as shown: money in the workspace currency and the user's locale, exactly as the
// engine rounded it; shares, tonnes; the decision table's wording.

import { describe, expect, it } from "vitest";
import { DECISION_ROWS, breakEvenText, type RowContext } from "../src/lib/compare-view";
import { addMonths, formatCurrency, formatShare, formatTonnes } from "../src/lib/money";
import { workloadCheckScenario } from "../src/lib/workloads/workloads";
import { enterpriseSession } from "./support/sessions";

/** The enterprise-hybrid sample's comparison as the engine made it (this test's recorded session). */
async function decisionTable() {
  const { backend } = await enterpriseSession();
  const view = (await backend.compare("light")).comparison.view;
  if (!view) throw new Error("the sample's comparison has no view");
  const ctx: RowContext = { view, locale: "en-US", name: (id) => view.scenarios.find((s) => s.id === id)?.name ?? id };
  const [hybrid, cloud] = view.scenarios;
  return { view, ctx, hybrid: hybrid!, cloud: cloud! };
}

describe("formatCurrency", () => {
  it("formats the engine's decimal strings exactly in the currency and locale", () => {
    expect(formatCurrency("2043891.89", "USD", "en-US")).toBe("$2,043,891.89");
    expect(formatCurrency("2043891.89", "EUR", "de-DE")).toBe("2.043.891,89\u00a0€");
    expect(formatCurrency("-621937.87", "USD", "en-US")).toBe("-$621,937.87");
    expect(formatCurrency("621937.87", "USD", "en-US", { signed: true })).toBe("+$621,937.87");
    expect(formatCurrency("0", "USD", "en-US", { signed: true })).toBe("$0.00");
    // Beyond a double's 15–17 significant digits, still exact.
    expect(formatCurrency("98765432109876543.21", "USD", "en-US")).toBe("$98,765,432,109,876,543.21");
    expect(formatCurrency("0.3512", "USD", "en-US", { unit: true })).toBe("$0.3512");
    expect(formatCurrency("4.08", "USD", "en-US", { unit: true })).toBe("$4.08");
    expect(formatCurrency(null, "USD", "en-US")).toBe("—");
  });

  it("shares, tonnes and months", () => {
    expect(formatShare("0.8653", "en-US")).toBe("86.53 %");
    // A weight's share of the total (12 of 23 points), rounded for the screen only.
    expect(formatShare("0.5217391304347826086956521739", "en-US", 1)).toBe("52.2 %");
    expect(formatShare("0.5217391304347826086956521739", "de-DE", 1)).toBe("52,2 %");
    expect(formatShare("0.6", "en-US", 1)).toBe("60 %");
    expect(formatShare("0.00049", "en-US", 1)).toBe("0 %");
    expect(formatTonnes("209129", "en-US")).toBe("209.129 t");
    expect(formatTonnes("209129", "de-DE")).toBe("209,129 t");
    expect(addMonths("2027-01", 18)).toBe("2028-07");
    expect(addMonths("2027-12", 1)).toBe("2028-01");
  });
});

describe("decision table", () => {
  it("says the break-even as month N with the crossing in average months, and the calendar month", async () => {
    const { view, ctx, hybrid, cloud } = await decisionTable();
    expect(view.start).toBe("2027-01");
    expect([hybrid.id, cloud.id]).toEqual(["hybrid", "all-cloud"]);
    expect(cloud.difference?.break_even).toEqual({ month: 19, cheaper_after: "hybrid", at_month: "18.6" });
    expect(breakEvenText(hybrid, ctx)).toBe("reference");
    expect(breakEvenText(cloud, ctx)).toBe("month 19 (≈ 18.6 months) in 2028-07, Two DGX H100 for the base, AWS spot and on-demand for bursts cheaper after");
    // The engine gives two decimals; one is shown.
    const early = { ...cloud, difference: { ...cloud.difference!, break_even: { month: 6, cheaper_after: "hybrid", at_month: "5.57" } } };
    expect(breakEvenText(early, ctx)).toBe("month 6 (≈ 5.6 months) in 2027-06, Two DGX H100 for the base, AWS spot and on-demand for bursts cheaper after");
  });

  it("colours a difference by its sign: dearer is bad", async () => {
    const { ctx, hybrid, cloud } = await decisionTable();
    const row = DECISION_ROWS.find((r) => r.key === "difference_total")!;
    // All cloud costs 592,237.87 more than the hybrid over the 36 months (the engine's figure).
    expect(cloud.difference?.total).toBe("592237.87");
    expect(row.cell(cloud, ctx)).toEqual({ text: "+$592,237.87", tone: "bad" });
    expect(row.cell(hybrid, ctx).text).toBe("reference");
    const cheaper = { ...cloud, difference: { ...cloud.difference!, total: "-5.00" } };
    expect(row.cell(cheaper, ctx)).toEqual({ text: "-$5.00", tone: "good" });
  });

  it("has the figures a buyer compares, in order", () => {
    expect(DECISION_ROWS.map((r) => r.key)).toEqual([
      "rank",
      "decision_total",
      "total_cash",
      "unserved_cost",
      "npv",
      "cost_per_gpu_hour",
      "cost_per_useful_pflop_hour",
      "cost_per_million_tokens",
      "owned_utilisation",
      "idle_cost",
      "energy_kwh",
      "emissions_kg",
      "unmet_pflop_h",
      "residual_value",
      "commitments_after_horizon",
      "difference_total",
      "resale_note",
      "difference_npv",
      "break_even",
      "buy_vs_rent_hours_per_day",
    ]);
  });
});

describe("specs as the back end sends them (the wire is total, issue #15)", () => {
  it("have every key, null for an absent option, and keep every value", async () => {
    const { backend } = await enterpriseSession();
    const s = await backend.getScenario("hybrid");
    expect(Object.keys(s).sort()).toEqual(Object.keys(workloadCheckScenario()).sort());
    const forms = await backend.layerForms();
    for (const l of s.layers) expect(Object.keys(l).sort()).toEqual(Object.keys(forms.find((f) => f.kind === l.kind)!.empty).sort());
    // Every field of a layer (the engine's table lists 39) plus its id and kind.
    expect(Object.keys(s.layers[1]!).length).toBe(41);
    expect(s.layers[1]!.exit_clause).toBeNull();
    expect(s.layers[0]).toMatchObject({ system: "dgx-h100", accelerator: null, gpus: 16, payment_milestones: [], term: null, serves: ["batch-inference"] });
    expect(s.layers[0]!.financing).toEqual({ method: "loan", annual_rate: "0.07", term_months: 36, down_payment: "0.2" });
    expect(s.description).toBeNull();
    expect(s.facility).toMatchObject({ colocation: "north-america-2024h2", pue: null, power_distribution_upgrade: null });
    const workloads = (await backend.session()).workspace?.workloads ?? [];
    expect(workloads.map((w) => w.id)).toEqual(["batch-inference", "quarterly-training"]);
    const w = workloads[1]!;
    expect(w.model).toEqual({ parameters_billion: "70", layers: null, kv_heads: null, head_dim: null, context_tokens: null, batch: null });
    expect(w.tokens_per_month).toBeNull();
    expect(w.region).toBeNull();
  });
});
