// Issue 13, decision-grade numbers, as the compare screen and the editors show them: the rank,
// the decision total, unserved work at its shadow price, break-even in average months, the
// buy-versus-rent sentence (also when there are no hours), the resale note under the difference,
// energy of rented capacity marked as an estimate; the new owned-layer fields and the scenario's
// egress share in the editors.
//
// The variants of the fixture below are TEST VARIANTS, not engine output: each changes the
// real-engine fixture only where the test says, keeping the engine's rules (decision total =
// total cash + commitments after the horizon, unserved work inside the total cash, scenarios that
// serve all the work ranked first).

import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import {
  BUY_VS_RENT_NOT_PRICED,
  DECISION_ROWS,
  buyVsRentCell,
  decisionRows,
  rankCell,
  resaleCell,
  wordPieces,
  type RowContext,
} from "../src/lib/compare-view";
import type { FakeBackend } from "../src/lib/ipc/fake-backend";
import { themeState } from "../src/lib/theme-state.svelte";
import type { Comparison, EditRequest, ScenarioFigures, ScenarioSpec } from "../src/lib/workspace-types";
import { EH_COMPARISON } from "./fixtures/enterprise-hybrid";
import { workspaceBackend } from "./support/workspace";

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

const VIEW = EH_COMPARISON.view!;
const HYBRID = VIEW.scenarios[0]!;
const CLOUD = VIEW.scenarios[1]!;
const NAMES: Record<string, string> = { hybrid: "Hybrid", "all-cloud": "All cloud" };
const ctxFor = (view = VIEW): RowContext => ({ view, locale: "en-US", name: (id) => NAMES[id] ?? id });
const row = (key: string) => DECISION_ROWS.find((r) => r.key === key)!;

/** The comparison with all-cloud's difference changed (a test variant). */
function withCloudDifference(change: Partial<NonNullable<ScenarioFigures["difference"]>>): Comparison {
  const view = structuredClone(VIEW);
  const cloud = view.scenarios[1]!;
  cloud.difference = { ...cloud.difference!, ...change };
  return { ...EH_COMPARISON, view };
}

/**
 * A test variant where hybrid leaves work undone: 1,200.5 PFLOP-h priced at 30,000.00 (inside
 * its total cash), so it ranks after all-cloud although its decision total is lower.
 */
function withUnservedHybrid(): Comparison {
  const view = structuredClone(VIEW);
  const hybrid = view.scenarios[0]!;
  const cloud = view.scenarios[1]!;
  hybrid.unmet_pflop_h = "1200.5";
  hybrid.unserved_cost = "30000.00";
  hybrid.rank = 2;
  hybrid.warnings = [...hybrid.warnings, "1200.5 PFLOP-h of demand could not be served (priced at its shadow price)"];
  cloud.rank = 1;
  return { ...EH_COMPARISON, view };
}

describe("decision rows", () => {
  it("ranks with the count, and says why a scenario that leaves work undone ranks low", () => {
    expect(rankCell(HYBRID, ctxFor())).toEqual({ text: "1 of 2", tone: "good" });
    expect(rankCell(CLOUD, ctxFor())).toEqual({ text: "2 of 2", tone: null });
    const v = withUnservedHybrid().view!;
    expect(rankCell(v.scenarios[0]!, ctxFor(v))).toMatchObject({ text: "2 of 2: leaves work undone", tone: "bad" });
  });

  it("shows the decision total, and the unserved-work line only when some scenario leaves work undone", () => {
    expect(row("decision_total").cell(CLOUD, ctxFor()).text).toBe("$2,665,829.76");
    expect(row("decision_total").sublabel).toContain("commitments after horizon");
    expect(row("decision_total").sublabel).toContain("unserved work");
    expect(decisionRows(VIEW).map((r) => r.key)).not.toContain("unserved_cost");
    const v = withUnservedHybrid().view!;
    expect(decisionRows(v).map((r) => r.key)).toContain("unserved_cost");
    expect(row("unserved_cost").cell(v.scenarios[0]!, ctxFor(v))).toEqual({ text: "$30,000.00", tone: "bad" });
    expect(row("unserved_cost").cell(v.scenarios[1]!, ctxFor(v)).text).toBe("none");
  });

  it("gives the buy-versus-rent hours with the engine's sentence under them", () => {
    expect(buyVsRentCell(CLOUD, ctxFor())).toEqual({
      text: "17.53 h/day",
      tone: null,
      note: "Owning pays off above 17.53 hours of use per owned GPU per day (of at most 23.28).",
    });
    expect(buyVsRentCell(HYBRID, ctxFor()).text).toBe("reference");
  });

  it("shows the engine's sentence when there are no hours, and says why when there is no sentence either", () => {
    const never = "Owning never pays off: an hour of use costs the owner USD 3.90, as much as or more than renting the same work (USD 3.44).";
    const v = withCloudDifference({ buy_vs_rent_hours_per_day: null, buy_vs_rent_words: never }).view!;
    expect(buyVsRentCell(v.scenarios[1]!, ctxFor(v))).toEqual({ text: never, tone: null });
    const none = withCloudDifference({ buy_vs_rent_hours_per_day: null, buy_vs_rent_words: null }).view!;
    const cell = buyVsRentCell(none.scenarios[1]!, ctxFor(none));
    expect(cell.text).toBe(BUY_VS_RENT_NOT_PRICED);
    expect(cell.text.trim()).not.toBe("");
  });

  it("says how much of the difference rests on resale, in the engine's words, with the amount in the tooltip", () => {
    const cell = resaleCell(CLOUD, ctxFor());
    expect(cell.text).toBe("`hybrid` is cheaper than `all-cloud` by 621937.87; 243000 of that is resale assumed in month 36");
    expect(cell.title).toContain("-$243,000.00");
    expect(resaleCell(HYBRID, ctxFor()).text).toBe("reference");
    const v = withCloudDifference({ residual: "0", resale_note: null }).view!;
    expect(resaleCell(v.scenarios[1]!, ctxFor(v)).text).toBe("None: the two assume the same resale at the horizon (or none).");
    expect(wordPieces(cell.text).filter((p) => p.code).map((p) => p.text)).toEqual(["hybrid", "all-cloud"]);
  });

  it("marks the energy and emissions of rented capacity as an estimate", () => {
    // The fixture's engine estimated no rented energy: nothing is marked.
    expect(row("energy_kwh").cell(HYBRID, ctxFor())).toEqual({ text: "568,287 kWh", tone: null });
    const part = { ...HYBRID, energy_kwh: "822693", cloud_energy_kwh: "254406", emissions_kg: "300000", cloud_emissions_kg: "90871" };
    expect(row("energy_kwh").cell(part, ctxFor())).toMatchObject({ text: "822,693 kWh", note: "of which 254,406 kWh rented: estimate" });
    expect(row("emissions_kg").cell(part, ctxFor())).toMatchObject({ text: "300 t CO₂e", note: "of which 90.871 t CO₂e rented: estimate" });
    const all = { ...CLOUD, energy_kwh: "729110", cloud_energy_kwh: "729110" };
    expect(row("energy_kwh").cell(all, ctxFor())).toMatchObject({ text: "729,110 kWh", note: "estimate (rented capacity)" });
  });
});

async function openCompare(backend: FakeBackend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "3", ctrlKey: true });
  return screen.findByTestId("compare-table");
}

describe("compare screen: decision figures", () => {
  it("shows the rank in the table and the column heads, the decision total labelled with what it includes, and the resale note under the difference", async () => {
    const table = await openCompare(workspaceBackend());
    expect(within(table).getByTestId("figure-hybrid-rank").textContent).toBe("1 of 2");
    expect(within(table).getByTestId("figure-all-cloud-rank").textContent).toBe("2 of 2");
    expect(within(table).getByTestId("compare-col-hybrid").textContent).toContain("rank 1");
    const total = within(table).getByTestId("figure-all-cloud-decision_total");
    expect(total.textContent).toBe("$2,665,829.76");
    const head = total.closest("tr")!.querySelector("th")!;
    expect(head.textContent).toContain("Decision total");
    expect(head.textContent).toContain("commitments after horizon");
    expect(head.textContent).toContain("unserved work");
    // No work left undone: no unserved line, no warning box.
    expect(within(table).queryByTestId("figure-hybrid-unserved_cost")).toBeNull();
    expect(screen.queryByTestId("compare-unserved")).toBeNull();
    // The resale note is the row right under the difference, ids shown as code.
    const diffRow = within(table).getByTestId("figure-all-cloud-difference_total").closest("tr")!;
    const note = within(table).getByTestId("figure-all-cloud-resale_note");
    expect(diffRow.nextElementSibling).toBe(note.closest("tr"));
    expect(note.textContent).toBe("hybrid is cheaper than all-cloud by 621937.87; 243000 of that is resale assumed in month 36");
    expect([...note.querySelectorAll("code")].map((c) => c.textContent)).toEqual(["hybrid", "all-cloud"]);
    expect(within(table).getByTestId("figure-hybrid-resale_note").textContent).toBe("reference");
  });

  it("shows the buy-versus-rent sentence when the hours are null, never an empty cell", async () => {
    const never = "Owning never pays off: it would take 30.1 hours of use per GPU per day, and an owned GPU is up at most 23.28 (97% availability).";
    const table = await openCompare(workspaceBackend({ comparison: withCloudDifference({ buy_vs_rent_hours_per_day: null, buy_vs_rent_words: never }) }));
    expect(within(table).getByTestId("figure-all-cloud-buy_vs_rent_hours_per_day").textContent).toBe(never);
    expect(within(table).getByTestId("figure-hybrid-buy_vs_rent_hours_per_day").textContent).toBe("reference");
  });

  it("explains a missing buy-versus-rent answer in words", async () => {
    const table = await openCompare(workspaceBackend({ comparison: withCloudDifference({ buy_vs_rent_hours_per_day: null, buy_vs_rent_words: null }) }));
    expect(within(table).getByTestId("figure-all-cloud-buy_vs_rent_hours_per_day").textContent).toBe(BUY_VS_RENT_NOT_PRICED);
  });

  it("marks rented energy as an estimate", async () => {
    const comparison = structuredClone(EH_COMPARISON);
    const cloud = comparison.view!.scenarios[1]!;
    cloud.energy_kwh = "729110";
    cloud.cloud_energy_kwh = "729110";
    const table = await openCompare(workspaceBackend({ comparison }));
    expect(within(table).getByTestId("figure-all-cloud-energy_kwh").textContent).toBe("729,110 kWhestimate (rented capacity)");
    expect(within(table).getByTestId("figure-hybrid-energy_kwh").textContent).toBe("568,287 kWh");
  });

  it("shows the unserved-work line and its warning when a scenario leaves work undone, and ranks it last", async () => {
    const table = await openCompare(workspaceBackend({ comparison: withUnservedHybrid() }));
    const cell = within(table).getByTestId("figure-hybrid-unserved_cost");
    expect(cell.textContent).toBe("$30,000.00");
    expect(cell.classList.contains("bad")).toBe(true);
    expect(within(table).getByTestId("figure-all-cloud-unserved_cost").textContent).toBe("none");
    expect(within(table).getByTestId("figure-hybrid-rank").textContent).toBe("2 of 2: leaves work undone");
    const box = screen.getByTestId("compare-unserved");
    expect(box.getAttribute("role")).toBe("note");
    expect(box.textContent).toContain("Two DGX H100 for the base, AWS spot and on-demand for bursts leaves work undone, priced at $30,000.00");
    expect(box.textContent).toContain("not a payment");
    // The engine's warning stays in the warnings row.
    expect(within(table).getByTestId("warnings-hybrid").textContent).toContain("could not be served");
  });
});

describe("editors: the new owned-layer fields and the egress share", () => {
  const edits = (b: FakeBackend) => b.callsTo("applyEdit").map((a) => a[0] as EditRequest);
  const sent = (b: FakeBackend) => (edits(b).at(-1)!.edit as { scenario: ScenarioSpec }).scenario;

  it("edits non-server maintenance as a percentage a year, running cost per GPU-hour, and the egress share as a percentage", async () => {
    const backend = workspaceBackend();
    render(App, { props: { backend, locale: "en-US" } });
    await screen.findByTestId("scenario-name");
    const maintenance = screen.getByTestId("layer-0-maintenance") as HTMLInputElement;
    expect(maintenance.value).toBe("");
    await fireEvent.input(maintenance, { target: { value: "10" } });
    await waitFor(() => expect(sent(backend).layers[0]!.non_server_maintenance_rate_per_year).toBe("0.1"));
    expect(edits(backend).at(-1)!.coalesce).toBe("hybrid.layers[0].non_server_maintenance_rate_per_year");

    await fireEvent.input(screen.getByTestId("layer-0-running-cost"), { target: { value: "0.12" } });
    await waitFor(() => expect(sent(backend).layers[0]!.running_cost_per_gpu_hour).toBe("0.12"));

    await fireEvent.input(screen.getByTestId("scenario-egress-share"), { target: { value: "7.5" } });
    await waitFor(() => expect(sent(backend).egress_share_of_cloud_spend).toBe("0.075"));
    expect(edits(backend).at(-1)!.label).toContain("egress share of cloud spend");
    // Not shown for rented layers.
    expect(screen.queryByTestId("layer-1-maintenance")).toBeNull();
  });

  it("asks where a resale share comes from once one is given", async () => {
    const backend = workspaceBackend();
    render(App, { props: { backend, locale: "en-US" } });
    await screen.findByTestId("scenario-name");
    expect(screen.queryByTestId("layer-0-residual-reason")).toBeNull();
    await fireEvent.input(screen.getByTestId("layer-0-residual"), { target: { value: "35" } });
    await waitFor(() => expect(sent(backend).layers[0]!.residual_share).toBe("0.35"));
    const reason = (await screen.findByTestId("layer-0-residual-reason")) as HTMLInputElement;
    await fireEvent.input(reason, { target: { value: "Buy-back quote Q-118" } });
    await waitFor(() => expect(sent(backend).layers[0]!.residual_reason).toBe("Buy-back quote Q-118"));
  });
});
