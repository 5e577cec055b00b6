// Exit clauses in the scenario editor (issue #6): the clause fields of a reserved layer, their
// problems, and the "Cost of leaving" section over real engine output (fixtures/exit-costs.ts).

import { describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import type { FakeBackend } from "../src/lib/ipc/fake-backend";
import { formatCurrency } from "../src/lib/money";
import type { EditRequest, ScenarioDetail, ScenarioSpec } from "../src/lib/workspace-types";
import { EH_SCENARIOS } from "./fixtures/enterprise-hybrid";
import { ALL_CLOUD_CLAUSE, EXIT_ALL_CLOUD, EXIT_VARIANT } from "./fixtures/exit-costs";
import { ehWorkspace, workspaceBackend } from "./support/workspace";

const edits = (b: FakeBackend) => b.callsTo("applyEdit").map((a) => a[0] as EditRequest);
const lastScenario = (b: FakeBackend) => (edits(b).at(-1)!.edit as { scenario: ScenarioSpec }).scenario;
const money = (v: string) => formatCurrency(v, "USD", "en-US");
const signed = (v: string) => formatCurrency(v, "USD", "en-US", { signed: true });

/** A decimal string as an integer count of 1e-10 (the ledger's scale), for exact sums here. */
function units(v: string): bigint {
  const neg = v.startsWith("-");
  const [int, frac = ""] = v.replace("-", "").split(".");
  const n = BigInt(int!) * 10n ** 10n + BigInt((frac + "0000000000").slice(0, 10));
  return neg ? -n : n;
}

/** The enterprise-hybrid workspace with the sample's exit clause on all-cloud's reserved layer. */
function withClause() {
  const scenarios = structuredClone(EH_SCENARIOS);
  const cloud = scenarios.find((s) => s.id === "all-cloud")!;
  cloud.layers![0] = { ...cloud.layers![0]!, exit_clause: structuredClone(ALL_CLOUD_CLAUSE) };
  return scenarios;
}

async function openAllCloud(backend: FakeBackend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.click(await screen.findByTestId("scenario-row-all-cloud"));
  await waitFor(() => expect(screen.getByTestId("scenario-id").textContent).toBe("all-cloud"));
}

describe("exit clause fields", () => {
  it("adds a clause to a reserved layer only, and edits notice, fee kind and value as undo steps", async () => {
    const backend = workspaceBackend();
    await openAllCloud(backend);
    // The reserved layer may carry a clause; the on-demand layer, paid as used, may not.
    const box = (await screen.findByTestId("layer-0-exit-clause")) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(screen.queryByTestId("layer-1-exit-clause")).toBeNull();

    await fireEvent.click(box);
    await waitFor(() => expect(edits(backend)).toHaveLength(1));
    expect(edits(backend)[0]).toMatchObject({ label: "Edit Reserved H100 for the base, on-demand for bursts: exit clause", coalesce: "all-cloud.layers[0].exit_clause" });
    expect(lastScenario(backend).layers[0]!.exit_clause).toEqual({
      notice_months: 3,
      fee: { kind: "share-of-remaining", value: "0.25" },
      egress_per_tb: "0",
      data_tb: "0",
      offboarding: "0",
    });
    // The share is shown as a percentage and sent as a fraction.
    const share = (await screen.findByTestId("layer-0-exit-fee-value")) as HTMLInputElement;
    expect(share.value).toBe("25");
    await fireEvent.input(share, { target: { value: "30" } });
    await waitFor(() => expect(edits(backend)).toHaveLength(2));
    expect(lastScenario(backend).layers[0]!.exit_clause!.fee).toEqual({ kind: "share-of-remaining", value: "0.3" });

    await fireEvent.input(screen.getByTestId("layer-0-exit-notice"), { target: { value: "6" } });
    await waitFor(() => expect(edits(backend)).toHaveLength(3));
    expect(edits(backend)[2]!.coalesce).toBe("all-cloud.layers[0].exit_clause.notice_months");
    expect(lastScenario(backend).layers[0]!.exit_clause!.notice_months).toBe(6);

    await fireEvent.change(screen.getByTestId("layer-0-exit-fee-kind"), { target: { value: "fixed" } });
    await waitFor(() => expect(edits(backend)).toHaveLength(4));
    expect(lastScenario(backend).layers[0]!.exit_clause!.fee).toEqual({ kind: "fixed", value: "0" });
    await fireEvent.input(screen.getByTestId("layer-0-exit-fee-value"), { target: { value: "50000" } });
    await waitFor(() => expect(edits(backend)).toHaveLength(5));
    expect(lastScenario(backend).layers[0]!.exit_clause!.fee).toEqual({ kind: "fixed", value: "50000" });

    // Unticking removes the clause.
    await fireEvent.click(screen.getByTestId("layer-0-exit-clause"));
    await waitFor(() => expect(edits(backend)).toHaveLength(6));
    expect(lastScenario(backend).layers[0]!.exit_clause).toBeNull();
    expect(screen.queryByTestId("layer-0-exit-notice")).toBeNull();
  });

  it("shows the engine's problem next to the clause field it names", async () => {
    const problem = (s: ScenarioSpec): ScenarioDetail => ({
      figures: null,
      layer_plans: [],
      sizing: [],
      assumptions: [],
      problems: s.layers[0]?.exit_clause
        ? [{ subject: { kind: "scenario", id: s.id }, field: "layers[0].exit_clause.fee.value", message: "1.5 is more than the whole remaining commitment; give a share from 0 to 1 (e.g. 0.25 for 25%)" }]
        : [],
    });
    const backend = workspaceBackend({ workspace: ehWorkspace({ scenarios: withClause() }), detail: problem });
    await openAllCloud(backend);
    const share = await screen.findByTestId("layer-0-exit-fee-value");
    await waitFor(() => expect(share.closest(".f-control")!.textContent).toContain("more than the whole remaining commitment"));
  });
});

describe("cost of leaving", () => {
  it("shows the engine's curve at every month and prices an exit against staying", async () => {
    const backend = workspaceBackend({
      workspace: ehWorkspace({ scenarios: withClause() }),
      exits: (s) => (s.id === "all-cloud" ? EXIT_ALL_CLOUD : { layers: [], problems: [] }),
      exitVariant: (_s, layer, month) => (layer === "reserved" ? (EXIT_VARIANT[month] ?? null) : null),
    });
    await openAllCloud(backend);
    const section = await screen.findByTestId("exit-costs");
    const layer = EXIT_ALL_CLOUD.layers[0]!;
    expect(within(section).getByTestId("exit-clause-reserved").textContent).toBe(
      "3 months notice, 25 % of the remaining commitment, 200 TB out at $90.00 per TB, $40,000.00 offboarding",
    );
    // One row per month of the horizon, each the engine's figures.
    const rows = within(within(section).getByTestId("exit-curve-reserved")).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(36);
    for (const m of [0, 12, 18, 24, 35]) {
      const c = layer.curve[m]!;
      const cells = rows[m]!.querySelectorAll("td");
      expect(cells[0]!.textContent).toContain(String(m));
      expect(cells[1]!.textContent).toBe(money(c.exit_charges));
      expect(cells[2]!.textContent).toBe(money(c.due_during_notice));
      expect(cells[3]!.textContent).toBe(money(c.avoided));
      expect(cells[4]!.textContent).toBe(signed(c.net_saving));
      // The fixture is consistent with the clause: saving = avoided − charges, exactly.
      expect(units(c.net_saving)).toBe(units(c.avoided) - units(c.exit_charges));
    }

    // Price notice in month 18.
    const month = within(section).getByTestId("exit-month-reserved") as HTMLInputElement;
    await fireEvent.change(month, { target: { value: "18" } });
    await waitFor(() => expect(backend.callsTo("exitVariant").length).toBeGreaterThan(0));
    const [sent, layerId, m] = backend.callsTo("exitVariant").at(-1)! as [ScenarioSpec, string, number];
    expect([sent.id, layerId, m]).toEqual(["all-cloud", "reserved", 18]);
    const v = EXIT_VARIANT[18]!.price!;
    const table = await within(section).findByTestId("exit-variant-reserved");
    expect(within(table).getByTestId("exit-base-total").textContent).toBe(money(v.base_total));
    expect(within(table).getByTestId("exit-variant-total").textContent).toBe(money(v.variant_total));
    expect(within(table).getByTestId("exit-difference").textContent).toBe(signed(v.difference));
    expect(units(v.difference)).toBe(units(v.variant_total) - units(v.base_total));
    expect(v.cost).toEqual(layer.curve[18]);

    // Editing the clause asks for the curves again and prices the month on show again.
    const before = backend.callsTo("exitVariant").length;
    await fireEvent.input(screen.getByTestId("layer-0-exit-notice"), { target: { value: "6" } });
    await waitFor(() => expect(backend.callsTo("exitVariant").length).toBeGreaterThan(before));
    const [again, , m2] = backend.callsTo("exitVariant").at(-1)! as [ScenarioSpec, string, number];
    expect(m2).toBe(18);
    expect(again.layers[0]!.exit_clause!.notice_months).toBe(6);
  });

  it("says why a layer without a clause cannot be priced, as the engine does", async () => {
    const backend = workspaceBackend();
    const cloud = structuredClone(EH_SCENARIOS.find((s) => s.id === "all-cloud")!) as ScenarioSpec;
    const answer = await backend.exitVariant({ ...cloud, layers: cloud.layers.map((l) => ({ ...l, exit_clause: null })) }, "reserved", 18);
    expect(answer.price).toBeNull();
    expect(answer.problems[0]!.message).toContain("has no exit clause");
  });
});
