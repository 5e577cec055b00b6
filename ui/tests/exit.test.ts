// Exit clauses in the scenario editor (issue #6): the clause fields of a reserved layer, their
// problems, and the "Cost of leaving" section, over recorded answers of the real back end. The
// bundled enterprise-hybrid sample gives all-cloud's reserved H100 layer an exit clause (3 months
// notice, 25 % of the remaining commitment, 200 TB out at 90 per TB, 40,000 offboarding).

import { describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import type { Backend } from "../src/lib/backend";
import { formatCurrency } from "../src/lib/money";
import type { EditRequest, ExitRequestOutcome, ExitVariantOutcome, ScenarioSpec } from "../src/lib/workspace-types";
import type { RecordedSession } from "./support/recorded";
import { enterpriseSession } from "./support/sessions";

const edits = (host: RecordedSession) => host.sent("apply_edit").map((a) => a.request as EditRequest);
const lastScenario = (host: RecordedSession) => (edits(host).at(-1)!.edit as { scenario: ScenarioSpec }).scenario;
const money = (v: string) => formatCurrency(v, "USD", "en-US");
const signed = (v: string) => formatCurrency(v, "USD", "en-US", { signed: true });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Waits until the scenario's detail (and, with a clause, its exit costs) has been asked for as
 * last edited, so that each edit leads to the same calls when recording and when replaying.
 */
async function settled(host: RecordedSession) {
  await waitFor(() => {
    const spec = lastScenario(host);
    expect(same(host.sent("scenario_detail").at(-1)?.scenario, spec)).toBe(true);
    if (spec.layers.some((l) => l.exit_clause)) expect(same(host.sent("exit_costs").at(-1)?.scenario, spec)).toBe(true);
  });
}

/** A decimal string as an integer count of 1e-10 (the ledger's scale), for exact sums here. */
function units(v: string): bigint {
  const neg = v.startsWith("-");
  const [int, frac = ""] = v.replace("-", "").split(".");
  const n = BigInt(int!) * 10n ** 10n + BigInt((frac + "0000000000").slice(0, 10));
  return neg ? -n : n;
}

async function openAllCloud(backend: Backend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  // The first scenario's editor has read its scenario before another is chosen.
  await screen.findByTestId("scenario-name");
  await fireEvent.click(await screen.findByTestId("scenario-row-all-cloud"));
  await waitFor(() => expect(screen.getByTestId("scenario-id").textContent).toBe("all-cloud"));
}

describe("exit clause fields", () => {
  it("adds a clause to a reserved layer only, and edits notice, fee kind and value as undo steps", async () => {
    const { backend, host } = await enterpriseSession();
    await openAllCloud(backend);
    // The reserved layer may carry a clause (the sample gives it one); the on-demand layer, paid
    // as used, may not.
    const box = (await screen.findByTestId("layer-0-exit-clause")) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(screen.queryByTestId("layer-1-exit-clause")).toBeNull();

    // Unticking removes the clause.
    await fireEvent.click(box);
    await waitFor(() => expect(edits(host)).toHaveLength(1));
    expect(edits(host)[0]).toMatchObject({ label: "Edit Reserved H100 for the base, on-demand for bursts: exit clause", coalesce: "all-cloud.layers[0].exit_clause" });
    expect(lastScenario(host).layers[0]!.exit_clause).toBeNull();
    await waitFor(() => expect(screen.queryByTestId("layer-0-exit-notice")).toBeNull());
    await settled(host);

    // Ticking adds the default clause.
    await fireEvent.click(screen.getByTestId("layer-0-exit-clause"));
    await waitFor(() => expect(edits(host)).toHaveLength(2));
    expect(edits(host)[1]!.coalesce).toBe("all-cloud.layers[0].exit_clause");
    expect(lastScenario(host).layers[0]!.exit_clause).toEqual({
      notice_months: 3,
      fee: { kind: "share-of-remaining", value: "0.25" },
      egress_per_tb: "0",
      data_tb: "0",
      offboarding: "0",
    });
    await settled(host);
    // The share is shown as a percentage and sent as a fraction.
    const share = (await screen.findByTestId("layer-0-exit-fee-value")) as HTMLInputElement;
    expect(share.value).toBe("25");
    await fireEvent.input(share, { target: { value: "30" } });
    await waitFor(() => expect(edits(host)).toHaveLength(3));
    expect(lastScenario(host).layers[0]!.exit_clause!.fee).toEqual({ kind: "share-of-remaining", value: "0.3" });
    await settled(host);

    await fireEvent.input(screen.getByTestId("layer-0-exit-notice"), { target: { value: "6" } });
    await waitFor(() => expect(edits(host)).toHaveLength(4));
    expect(edits(host)[3]!.coalesce).toBe("all-cloud.layers[0].exit_clause.notice_months");
    expect(lastScenario(host).layers[0]!.exit_clause!.notice_months).toBe(6);
    await settled(host);

    await fireEvent.change(screen.getByTestId("layer-0-exit-fee-kind"), { target: { value: "fixed" } });
    await waitFor(() => expect(edits(host)).toHaveLength(5));
    expect(lastScenario(host).layers[0]!.exit_clause!.fee).toEqual({ kind: "fixed", value: "0" });
    await settled(host);
    await fireEvent.input(screen.getByTestId("layer-0-exit-fee-value"), { target: { value: "50000" } });
    await waitFor(() => expect(edits(host)).toHaveLength(6));
    expect(lastScenario(host).layers[0]!.exit_clause!.fee).toEqual({ kind: "fixed", value: "50000" });
    await settled(host);
    // The section shows the clause as edited, from the engine's answer.
    await waitFor(() => expect(screen.getByTestId("exit-clause-reserved").textContent).toBe("6 months notice, a fixed fee of $50,000.00"));
  });

  it("shows the engine's problem next to the clause field it names", async () => {
    const { backend, host } = await enterpriseSession();
    await openAllCloud(backend);
    const share = (await screen.findByTestId("layer-0-exit-fee-value")) as HTMLInputElement;
    // 150 % of what remains: a share above the whole commitment, which the engine refuses.
    await fireEvent.input(share, { target: { value: "150" } });
    await waitFor(() => expect(lastScenario(host).layers[0]!.exit_clause!.fee).toEqual({ kind: "share-of-remaining", value: "1.5" }));
    await settled(host);
    await waitFor(() =>
      expect(share.closest(".f-control")!.textContent).toContain(
        "1.5 is more than the whole remaining commitment; give a share from 0 to 1 (e.g. 0.25 for 25%)",
      ),
    );
  });
});

describe("cost of leaving", () => {
  it("shows the engine's curve at every month and prices an exit against staying", async () => {
    const { backend, host } = await enterpriseSession();
    await openAllCloud(backend);
    const section = await screen.findByTestId("exit-costs");
    // The engine's answer for the scenario as saved, asked for as the editor asks for it.
    const cloud = await backend.getScenario("all-cloud");
    const exits = await backend.exitCosts(cloud);
    expect(exits.problems).toEqual([]);
    expect(exits.layers.map((l) => l.layer)).toEqual(["reserved"]);
    const layer = exits.layers[0]!;
    expect(within(section).getByTestId("exit-clause-reserved").textContent).toBe(
      "3 months notice, 25 % of the remaining commitment, 200 TB out at $90.00 per TB, $40,000.00 offboarding",
    );
    // One row per month of the horizon, each the engine's figures.
    expect(layer.curve).toHaveLength(36);
    const rows = within(within(section).getByTestId("exit-curve-reserved")).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(36);
    for (const m of [0, 12, 18, 24, 35]) {
      const c = layer.curve[m]!;
      expect(c.notice_month).toBe(m);
      const cells = rows[m]!.querySelectorAll("td");
      expect(cells[0]!.textContent).toContain(String(m));
      expect(cells[1]!.textContent).toBe(money(c.exit_charges));
      expect(cells[2]!.textContent).toBe(money(c.due_during_notice));
      expect(cells[3]!.textContent).toBe(money(c.avoided));
      expect(cells[4]!.textContent).toBe(signed(c.net_saving));
      // The engine's figures agree with the clause: saving = avoided − charges, exactly, and
      // the charges are the fee, 200 TB at 90 and the offboarding.
      expect(units(c.net_saving)).toBe(units(c.avoided) - units(c.exit_charges));
      expect(units(c.exit_charges)).toBe(units(c.termination_fee) + units("18000") + units("40000"));
    }
    // Notice in the first month, read from the engine's answer: leaving then saves the most.
    expect(rows[0]!.querySelectorAll("td")[1]!.textContent).toBe("$390,221.44");

    // Price notice in month 18.
    const month = within(section).getByTestId("exit-month-reserved") as HTMLInputElement;
    await fireEvent.change(month, { target: { value: "18" } });
    await waitFor(() => expect(host.sent("exit_variant").length).toBeGreaterThan(0));
    const first = host.sent("exit_variant").at(-1)!;
    expect([(first.scenario as ScenarioSpec).id, first.layer, first.month]).toEqual(["all-cloud", "reserved", 18]);
    const table = await within(section).findByTestId("exit-variant-reserved");
    // The same question asked here gets the engine's answer the screen shows.
    const answer: ExitVariantOutcome = await backend.exitVariant(cloud, "reserved", 18);
    const v = answer.price!;
    expect(answer.problems).toEqual([]);
    expect(within(table).getByTestId("exit-base-total").textContent).toBe(money(v.base_total));
    expect(within(table).getByTestId("exit-variant-total").textContent).toBe(money(v.variant_total));
    expect(within(table).getByTestId("exit-difference").textContent).toBe(signed(v.difference));
    expect(units(v.difference)).toBe(units(v.variant_total) - units(v.base_total));
    expect(v.cost).toEqual(layer.curve[18]);

    // Editing the clause asks for the curves again and prices the month on show again.
    const before = host.sent("exit_variant").length;
    await fireEvent.input(screen.getByTestId("layer-0-exit-notice"), { target: { value: "6" } });
    await waitFor(() => expect(host.sent("exit_variant").length).toBeGreaterThan(before));
    await settled(host);
    const again = host.sent("exit_variant").at(-1)!;
    expect(again.month).toBe(18);
    expect((again.scenario as ScenarioSpec).layers[0]!.exit_clause!.notice_months).toBe(6);
    await waitFor(() => expect(within(section).getByTestId("exit-clause-reserved").textContent).toMatch(/^6 months notice/));
  });

  it("says why a layer without a clause cannot be priced, as the engine does", async () => {
    const { backend } = await enterpriseSession();
    const cloud = await backend.getScenario("all-cloud");
    const answer = await backend.exitVariant({ ...cloud, layers: cloud.layers.map((l) => ({ ...l, exit_clause: null })) }, "reserved", 18);
    expect(answer.price).toBeNull();
    expect(answer.problems[0]!.message).toBe("layer `reserved` has no exit clause; give it one in the scenario to price leaving it");
  });
});

describe("ways out", () => {
  it("prices a scale-down of the reserved layer against staying, as the engine does", async () => {
    const { backend, host } = await enterpriseSession();
    await openAllCloud(backend);
    const ways = await screen.findByTestId("ways-out");
    // The reserved layer offers leaving, scaling down and downgrading.
    const layer = within(ways).getByTestId("ways-layer") as HTMLSelectElement;
    expect(layer.value).toBe("reserved");
    const kinds = [...(within(ways).getByTestId("ways-kind") as HTMLSelectElement).options].map((o) => o.value);
    expect(kinds).toEqual(["leave-reservation", "scale-down", "downgrade"]);
    await fireEvent.change(within(ways).getByTestId("ways-kind"), { target: { value: "scale-down" } });
    await fireEvent.change(await within(ways).findByTestId("ways-gpus"), { target: { value: "8" } });
    await fireEvent.change(within(ways).getByTestId("ways-month"), { target: { value: "6" } });
    await fireEvent.click(within(ways).getByTestId("ways-price"));
    const diff = await within(ways).findByTestId("ways-difference", {}, { timeout: 5000 });
    const sent = host.sent("exit_request").at(-1)!;
    expect(sent.request).toEqual({ kind: "scale-down", layer: "reserved", month: 6, gpus: 8 });
    const answer = (await host.call("exit_request", sent)) as ExitRequestOutcome;
    expect(diff.textContent).toBe(signed(answer.price!.difference));
    expect(answer.price!.booking.gpus_after).toBe(8);
    expect(within(ways).getByTestId("ways-result").textContent).toContain("16 → 8");
  });
});
