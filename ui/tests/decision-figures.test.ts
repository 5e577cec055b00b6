// Issue 13, decision-grade numbers, as the compare screen and the editors show them: the rank,
// the decision total, unserved work at its shadow price, break-even in average months, the
// buy-versus-rent sentence (also when there are no hours), the resale note under the difference,
// energy of rented capacity marked as an estimate; the new owned-layer fields and the scenario's
// egress share in the editors.
//
// Every comparison here is the real engine's, recorded: the bundled samples
// (catalogs/samples/*.json) each show one of the cases a committee meets:
// - enterprise-hybrid: owning pays off above some hours a day, the difference rests partly on
//   resale, the owner's energy is partly rented capacity and the renter's all of it;
// - university-lab-pool: owning never pays off within the hours an owned GPU is up;
// - startup-inference-saas: neither scenario owns hardware, so buy versus rent is not priced,
//   and neither resells anything;
// - embodied-ai-team: one scenario leaves work undone, so it ranks after the other although
//   its decision total is lower;
// - student-lora-rtx4090: the owner's energy is all its own (nothing rented).

import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import {
  BUY_VS_RENT_NOT_PRICED,
  DECISION_ROWS,
  buyVsRentCell,
  decisionRows,
  plainWords,
  rankCell,
  resaleCell,
  wordPieces,
  type RowContext,
} from "../src/lib/compare-view";
import type { Backend } from "../src/lib/backend";
import { themeState } from "../src/lib/theme-state.svelte";
import type { Comparison, EditRequest, ScenarioSpec } from "../src/lib/workspace-types";
import { recorded, type RecordedSession } from "./support/recorded";

type ComparisonView = NonNullable<Comparison["view"]>;
import { enterpriseSession } from "./support/sessions";

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

type Sample = "enterprise-hybrid" | "university-lab-pool" | "startup-inference-saas" | "embodied-ai-team" | "student-lora-rtx4090";

/** A session with the bundled sample `name` made into a workspace and opened at launch. */
async function sampleSession(name: Sample) {
  const session = recorded();
  await session.host.workspace(`@repo/catalogs/samples/${name}.json`, `@tmp/${name}.cpw`);
  await session.host.launch(`@tmp/${name}.cpw`);
  return session;
}

/** The engine's comparison of the sample's scenarios, as the compare screen gets it. */
async function comparisonOf(name: Sample): Promise<ComparisonView> {
  const { backend } = await sampleSession(name);
  const view = (await backend.compare("light")).comparison.view;
  if (!view) throw new Error(`the ${name} sample compared nothing`);
  return view;
}

const ctxFor = (view: ComparisonView): RowContext => ({
  view,
  locale: "en-US",
  name: (id) => view.scenarios.find((s) => s.id === id)?.name ?? id,
});
const row = (key: string) => DECISION_ROWS.find((r) => r.key === key)!;
const scenario = (view: ComparisonView, id: string) => {
  const s = view.scenarios.find((x) => x.id === id);
  if (!s) throw new Error(`no scenario ${id} in the comparison`);
  return s;
};

describe("decision rows", () => {
  it("ranks with the count", async () => {
    const eh = await comparisonOf("enterprise-hybrid");
    expect(rankCell(scenario(eh, "hybrid"), ctxFor(eh))).toEqual({ text: "1 of 2", tone: "good" });
    expect(rankCell(scenario(eh, "all-cloud"), ctxFor(eh))).toEqual({ text: "2 of 2", tone: null });
  });

  it("ranks a scenario that leaves work undone after one that serves it all, whatever its total", async () => {
    const v = await comparisonOf("embodied-ai-team");
    const short = scenario(v, "edge-domestic");
    const full = scenario(v, "all-cloud");
    // The engine's figures: work left undone, priced inside a total that is still the lower one.
    expect(short.unmet_pflop_h).toBe("1754.3");
    expect(short.decision_total).toBe("2153744.90");
    expect(full.decision_total).toBe("3347463.43");
    expect(rankCell(short, ctxFor(v))).toMatchObject({ text: "2 of 2: leaves work undone", tone: "bad" });
    expect(rankCell(full, ctxFor(v))).toEqual({ text: "1 of 2", tone: "good" });
  });

  it("shows the decision total, and the unserved-work line only when some scenario leaves work undone", async () => {
    const eh = await comparisonOf("enterprise-hybrid");
    expect(row("decision_total").cell(scenario(eh, "all-cloud"), ctxFor(eh)).text).toBe("$2,665,829.76");
    expect(row("decision_total").sublabel).toContain("commitments after horizon");
    expect(row("decision_total").sublabel).toContain("unserved work");
    expect(decisionRows(eh).map((r) => r.key)).not.toContain("unserved_cost");
  });

  it("shows the unserved-work line with its price when a scenario leaves work undone", async () => {
    const v = await comparisonOf("embodied-ai-team");
    expect(decisionRows(v).map((r) => r.key)).toContain("unserved_cost");
    expect(row("unserved_cost").cell(scenario(v, "edge-domestic"), ctxFor(v))).toEqual({ text: "$6,372.77", tone: "bad" });
    expect(row("unserved_cost").cell(scenario(v, "all-cloud"), ctxFor(v)).text).toBe("none");
  });

  it("gives the buy-versus-rent hours with the engine's sentence under them", async () => {
    const eh = await comparisonOf("enterprise-hybrid");
    expect(buyVsRentCell(scenario(eh, "all-cloud"), ctxFor(eh))).toEqual({
      text: "10.96 h/day",
      tone: null,
      note: "Owning pays off above 10.96 hours of use per owned GPU per day (of at most 23.28): owning costs USD 81,509.29 per GPU over 36 months whatever the use, plus USD 0.09 per hour of use; renting the same work on `on-demand` costs USD 6.88 per owned-GPU-hour.",
    });
    expect(buyVsRentCell(scenario(eh, "hybrid"), ctxFor(eh)).text).toBe("reference");
  });

  it("shows the engine's sentence when there are no hours", async () => {
    const v = await comparisonOf("university-lab-pool");
    const centre = scenario(v, "centre");
    expect(centre.difference!.buy_vs_rent_hours_per_day).toBeNull();
    expect(buyVsRentCell(centre, ctxFor(v))).toEqual({
      text: "Owning never pays off: it would take 23.59 hours of use per GPU per day, and an owned GPU is up at most 22.8 (95% availability); owning costs USD 62,132.07 per GPU over 48 months whatever the use, plus USD 0.10 per hour of use; renting the same work on `centre` costs USD 1.90 per owned-GPU-hour.",
      tone: null,
    });
  });

  it("says why when there is no buy-versus-rent sentence either", async () => {
    const v = await comparisonOf("startup-inference-saas");
    const fleet = scenario(v, "fleet");
    expect(fleet.difference).toMatchObject({ against: "api", buy_vs_rent_hours_per_day: null, buy_vs_rent_words: null });
    const cell = buyVsRentCell(fleet, ctxFor(v));
    expect(cell.text).toBe(BUY_VS_RENT_NOT_PRICED);
    expect(cell.text.trim()).not.toBe("");
  });

  it("says how much of the difference rests on resale, in the engine's words, with the amount in the tooltip", async () => {
    const eh = await comparisonOf("enterprise-hybrid");
    const cell = resaleCell(scenario(eh, "all-cloud"), ctxFor(eh));
    expect(cell.text).toBe("`hybrid` is cheaper than `all-cloud` by 592,237.87; 213,300.00 of that is resale assumed in month 36");
    expect(cell.title).toContain("-$213,300.00");
    expect(resaleCell(scenario(eh, "hybrid"), ctxFor(eh)).text).toBe("reference");
    expect(wordPieces(cell.text).filter((p) => p.code).map((p) => p.text)).toEqual(["hybrid", "all-cloud"]);
    // The presenting view shows the same words without the code quotes, as one text.
    expect(plainWords(cell.text)).toBe("hybrid is cheaper than all-cloud by 592,237.87; 213,300.00 of that is resale assumed in month 36");
    expect(plainWords(cell.text)).toBe(wordPieces(cell.text).map((p) => p.text).join(""));
  });

  it("says when no part of the difference rests on resale", async () => {
    const v = await comparisonOf("startup-inference-saas");
    const fleet = scenario(v, "fleet");
    expect(fleet.difference).toMatchObject({ residual: "0", resale_note: null });
    expect(resaleCell(fleet, ctxFor(v)).text).toBe("None: the two assume the same resale at the horizon (or none).");
  });

  it("marks the energy and emissions of rented capacity as an estimate", async () => {
    const eh = await comparisonOf("enterprise-hybrid");
    const hybrid = scenario(eh, "hybrid");
    expect(row("energy_kwh").cell(hybrid, ctxFor(eh))).toMatchObject({ text: "822,693 kWh", note: "of which 254,406 kWh rented: estimate" });
    expect(row("emissions_kg").cell(hybrid, ctxFor(eh))).toMatchObject({ text: "302.751 t CO₂e", note: "of which 93.621 t CO₂e rented: estimate" });
    expect(row("energy_kwh").cell(scenario(eh, "all-cloud"), ctxFor(eh))).toMatchObject({ text: "729,110 kWh", note: "estimate (rented capacity)" });
  });

  it("marks nothing when no energy is rented", async () => {
    const v = await comparisonOf("student-lora-rtx4090");
    const buy = scenario(v, "buy");
    expect(buy.cloud_energy_kwh).toBe("0");
    expect(row("energy_kwh").cell(buy, ctxFor(v))).toEqual({ text: "2,010 kWh", tone: null });
  });
});

async function openCompare(backend: Backend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "3", ctrlKey: true });
  return screen.findByTestId("compare-table");
}

describe("compare screen: decision figures", () => {
  it("shows the rank in the table and the column heads, the decision total labelled with what it includes, and the resale note under the difference", async () => {
    const { backend } = await enterpriseSession();
    const table = await openCompare(backend);
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
    expect(note.textContent).toBe("hybrid is cheaper than all-cloud by 592,237.87; 213,300.00 of that is resale assumed in month 36");
    expect([...note.querySelectorAll("code")].map((c) => c.textContent)).toEqual(["hybrid", "all-cloud"]);
    expect(within(table).getByTestId("figure-hybrid-resale_note").textContent).toBe("reference");
  });

  it("shows the buy-versus-rent sentence when the hours are null, never an empty cell", async () => {
    const { backend } = await sampleSession("university-lab-pool");
    const table = await openCompare(backend);
    expect(within(table).getByTestId("figure-centre-buy_vs_rent_hours_per_day").textContent).toBe(
      "Owning never pays off: it would take 23.59 hours of use per GPU per day, and an owned GPU is up at most 22.8 (95% availability); owning costs USD 62,132.07 per GPU over 48 months whatever the use, plus USD 0.10 per hour of use; renting the same work on centre costs USD 1.90 per owned-GPU-hour.",
    );
    expect(within(table).getByTestId("figure-own-pool-buy_vs_rent_hours_per_day").textContent).toBe("reference");
  });

  it("explains a missing buy-versus-rent answer in words", async () => {
    const { backend } = await sampleSession("startup-inference-saas");
    const table = await openCompare(backend);
    expect(within(table).getByTestId("figure-fleet-buy_vs_rent_hours_per_day").textContent).toBe(BUY_VS_RENT_NOT_PRICED);
  });

  it("marks rented energy as an estimate", async () => {
    const { backend } = await enterpriseSession();
    const table = await openCompare(backend);
    expect(within(table).getByTestId("figure-all-cloud-energy_kwh").textContent).toBe("729,110 kWhestimate (rented capacity)");
    expect(within(table).getByTestId("figure-hybrid-energy_kwh").textContent).toBe("822,693 kWhof which 254,406 kWh rented: estimate");
  });

  it("shows the unserved-work line and its warning when a scenario leaves work undone, and ranks it last", async () => {
    const { backend } = await sampleSession("embodied-ai-team");
    const table = await openCompare(backend);
    const cell = within(table).getByTestId("figure-edge-domestic-unserved_cost");
    expect(cell.textContent).toBe("$6,372.77");
    expect(cell.classList.contains("bad")).toBe(true);
    expect(within(table).getByTestId("figure-all-cloud-unserved_cost").textContent).toBe("none");
    expect(within(table).getByTestId("figure-edge-domestic-rank").textContent).toBe("2 of 2: leaves work undone");
    const box = screen.getByTestId("compare-unserved");
    expect(box.getAttribute("role")).toBe("note");
    expect(box.textContent).toContain("Cloud spot training; Jetson at the edge and Ascend 910B at sites leaves work undone, priced at $6,372.77");
    expect(box.textContent).toContain("not a payment");
    // The engine's warning stays in the warnings row.
    expect(within(table).getByTestId("warnings-edge-domestic").textContent).toContain(
      "1754.3 useful PFLOP-hours of demand are not served: no layer had capacity left for them",
    );
  });
});

describe("editors: the new owned-layer fields and the egress share", () => {
  const edits = (host: RecordedSession) => host.sent("apply_edit").map((a) => a.request as EditRequest);
  const sent = (host: RecordedSession) => (edits(host).at(-1)!.edit as { scenario: ScenarioSpec }).scenario;
  /** Waits until the scenario's detail has been asked for as last edited (so each edit leads to the same calls). */
  const settled = (host: RecordedSession) =>
    waitFor(() => expect(JSON.stringify(host.sent("scenario_detail").at(-1)?.scenario)).toBe(JSON.stringify(sent(host))));

  it("edits non-server maintenance as a percentage a year, running cost per GPU-hour, and the egress share as a percentage", async () => {
    const { backend, host } = await enterpriseSession();
    render(App, { props: { backend, locale: "en-US" } });
    await screen.findByTestId("scenario-name");
    const maintenance = screen.getByTestId("layer-0-maintenance") as HTMLInputElement;
    expect(maintenance.value).toBe("");
    await fireEvent.input(maintenance, { target: { value: "10" } });
    await waitFor(() => expect(sent(host).layers[0]!.non_server_maintenance_rate_per_year).toBe("0.1"));
    expect(edits(host).at(-1)!.coalesce).toBe("hybrid.layers[0].non_server_maintenance_rate_per_year");
    await settled(host);

    await fireEvent.input(screen.getByTestId("layer-0-running-cost"), { target: { value: "0.12" } });
    await waitFor(() => expect(sent(host).layers[0]!.running_cost_per_gpu_hour).toBe("0.12"));
    await settled(host);

    await fireEvent.input(screen.getByTestId("scenario-egress-share"), { target: { value: "7.5" } });
    await waitFor(() => expect(sent(host).egress_share_of_cloud_spend).toBe("0.075"));
    expect(edits(host).at(-1)!.label).toContain("egress share of cloud spend");
    await settled(host);
    // Not shown for rented layers.
    expect(screen.queryByTestId("layer-1-maintenance")).toBeNull();
  });

  it("asks where a resale share comes from once one is given", async () => {
    const { backend, host } = await enterpriseSession();
    render(App, { props: { backend, locale: "en-US" } });
    await screen.findByTestId("scenario-name");
    expect(screen.queryByTestId("layer-0-residual-reason")).toBeNull();
    await fireEvent.input(screen.getByTestId("layer-0-residual"), { target: { value: "35" } });
    await waitFor(() => expect(sent(host).layers[0]!.residual_share).toBe("0.35"));
    await settled(host);
    const reason = (await screen.findByTestId("layer-0-residual-reason")) as HTMLInputElement;
    await fireEvent.input(reason, { target: { value: "Buy-back quote Q-118" } });
    await waitFor(() => expect(sent(host).layers[0]!.residual_reason).toBe("Buy-back quote Q-118"));
    await settled(host);
  });

  it("sets the scenario's own demand scale with its reason, which the engine then applies and lists", async () => {
    const { backend, host } = await enterpriseSession();
    render(App, { props: { backend, locale: "en-US" } });
    await screen.findByTestId("scenario-name");
    // What applies without a value of the scenario's own: the workspace's rate.
    expect(screen.getByText(/the shared figure: the workspace's 8 % a year/)).toBeTruthy();
    await fireEvent.input(screen.getByTestId("scenario-demand-scale-value"), { target: { value: "0.5" } });
    // A value without its reason is not sent.
    expect(await screen.findByText(/give the reason for this value/)).toBeTruthy();
    await fireEvent.input(screen.getByTestId("scenario-demand-scale-reason"), { target: { value: "Half the stated demand: the pilot's load" } });
    await waitFor(() => expect(sent(host).demand_scale).toEqual({ value: "0.5", currency: null, reason: "Half the stated demand: the pilot's load" }));
    expect(edits(host).at(-1)!.label).toContain("demand scale");
    await settled(host);
    // The engine takes it as an override of this scenario: listed with its reason in the
    // scenario's assumptions.
    const detail = await backend.scenarioDetail(sent(host));
    const listed = detail.assumptions.find((a) => a.path.endsWith("demand_scale"));
    expect(listed?.value).toBe("0.5");
    expect(await screen.findByTestId("scenario-demand-scale-badge")).toBeTruthy();
  });
});
