// Issue 16, the risk analysis on the compare screen, on the engine's recorded answers for the
// enterprise-hybrid sample: the draws and seed sent, each scenario's spread and chance of being
// cheaper shown as the engine computed them, the break-even and the tornado, the analysis kept in
// the workspace (reopening the screen shows it) and marked stale when the view changes.

import { describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import type { Backend } from "../src/lib/backend";
import { formatCurrency, formatShare } from "../src/lib/money";
import { enterpriseSession } from "./support/sessions";

async function openCompare(backend: Backend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "3", ctrlKey: true });
  await screen.findByTestId("compare-table");
  return screen.findByTestId("risk");
}

const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

describe("risk analysis", () => {
  it("runs the engine's analysis of the compared scenarios and shows its spread, odds, break-even and tornado", async () => {
    const { backend, host } = await enterpriseSession();
    const panel = await openCompare(backend);
    await within(panel).findByTestId("risk-none");

    await fireEvent.input(input("risk-draws"), { target: { value: "0" } });
    expect(screen.getByTestId("risk-input-problem").textContent).toBe("Draws: a whole number from 1 to 100,000.");
    expect((screen.getByTestId("risk-run") as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.input(input("risk-draws"), { target: { value: "200" } });
    await fireEvent.input(input("risk-correlation"), { target: { value: "1.5" } });
    expect(screen.getByTestId("risk-input-problem").textContent).toBe("Correlation: a number from 0 to 1, e.g. 0.8.");
    await fireEvent.input(input("risk-correlation"), { target: { value: "0.8" } });
    await fireEvent.input(input("risk-seed"), { target: { value: "7" } });
    await fireEvent.click(screen.getByTestId("risk-run"));
    const table = await within(panel).findByTestId("risk-table");
    expect(host.sent("run_risk")).toEqual([
      { request: { draws: 200, seed: 7, shape: "triangular", correlation: "0.8", uncertain: [] }, theme: "light" },
    ]);

    // The figures on screen are the engine's (read back from the workspace it kept them in).
    const kept = (await backend.risk("light"))!;
    expect(screen.queryByTestId("risk-stale")).toBeNull();
    const [hybrid, cloud] = kept.outcome.scenarios;
    for (const s of [hybrid!, cloud!]) {
      expect(within(table).getByTestId(`risk-p10-${s.id}`).textContent).toBe(formatCurrency(s.total.p10, "USD", "en-US"));
      expect(within(table).getByTestId(`risk-p90-${s.id}`).textContent).toBe(formatCurrency(s.total.p90, "USD", "en-US"));
    }
    expect(screen.getByTestId("risk-run-info").textContent).toContain("200 draws, seed 7, triangular, rates correlated 0.8, against Two DGX H100 for the base");
    // The owned scenario moves with the drawn figures; the all-cloud one uses none of them and is
    // dearer in every draw.
    expect(Number(hybrid!.total.p90) - Number(hybrid!.total.p10)).toBeGreaterThan(0);
    expect(cloud!.total.p10).toBe(cloud!.total.p90);
    expect(within(table).getByTestId("risk-cheaper-hybrid").textContent).toBe("baseline");
    expect(within(table).getByTestId("risk-cheaper-all-cloud").textContent).toBe(`${formatShare(cloud!.cheaper_than_baseline, "en-US", 1)} of draws`);
    expect(cloud!.cheaper_than_baseline).toBe("0");
    expect(screen.getByTestId("risk-break-even-all-cloud").textContent).toMatch(/cross in 100 % of the draws, after \d+\.\d \/ 18\.6 \/ \d+\.\d months/);

    // The fan chart and the tornado, drawn by the back end: one bar per tornado bar, the
    // largest swing on top, each labelled with its figure and swing.
    expect(within(screen.getByTestId("risk-fan")).getByRole("img").querySelector("svg")).not.toBeNull();
    const tornado = kept.outcome.tornados[0]!;
    const svg = within(screen.getByTestId("risk-tornado-all-cloud")).getByRole("img").querySelector("svg")!;
    const texts = Array.from(svg.querySelectorAll("text")).map((t) => (t.textContent ?? "").trim());
    const swings = texts.filter((t) => t.startsWith("swing "));
    expect(swings).toHaveLength(tornado.bars.length);
    expect(swings[0]).toBe(`swing ${Math.round(Number(tornado.bars[0]!.swing)).toLocaleString("en-US")}`);
    const first = kept.outcome.figures[tornado.bars[0]!.figure]!;
    expect(texts.some((t) => t.startsWith(`${first.entry}:`))).toBe(true);
  });

  it("keeps the analysis in the workspace and says it is stale once the compared horizon changes", async () => {
    const { backend } = await enterpriseSession();
    await backend.runRisk({ draws: 100, seed: 3, shape: "pert", correlation: "0.5", uncertain: [] }, "light");
    const panel = await openCompare(backend);
    // Reopened: the kept analysis, current.
    await within(panel).findByTestId("risk-table");
    expect(screen.getByTestId("risk-run-info").textContent).toContain("100 draws, seed 3, pert (beta), rates correlated 0.5");
    // The inputs take the kept analysis's settings, so a rerun reproduces it.
    expect((screen.getByTestId("risk-shape") as HTMLSelectElement).value).toBe("pert");
    expect(input("risk-correlation").value).toBe("0.5");
    expect(input("risk-draws").value).toBe("100");
    expect(screen.queryByTestId("risk-stale")).toBeNull();

    await fireEvent.click(screen.getByTestId("horizon-24"));
    await waitFor(() => expect(screen.getByTestId("risk-stale").textContent).toContain("changed since this analysis ran"));
  });

  it("marks a figure of the plan uncertain over a range that holds its value, and draws it", async () => {
    const { backend, host } = await enterpriseSession();
    await openCompare(backend);
    const pick = (await screen.findByTestId("risk-uncertain-pick")) as HTMLSelectElement;
    await waitFor(() => expect(pick.options.length).toBeGreaterThan(0));
    const path = "workloads/quarterly-training/gpu_hours_per_day";
    await fireEvent.change(pick, { target: { value: path } });
    expect(input("risk-uncertain-low").value).toBe("120");
    await fireEvent.input(input("risk-uncertain-low"), { target: { value: "130" } });
    await fireEvent.input(input("risk-uncertain-high"), { target: { value: "200" } });
    await fireEvent.click(screen.getByTestId("risk-uncertain-add"));
    expect(screen.getByTestId("risk-uncertain-problem").textContent).toBe("The range must hold the value the plan uses, 120.");
    await fireEvent.input(input("risk-uncertain-low"), { target: { value: "80" } });
    await fireEvent.click(screen.getByTestId("risk-uncertain-add"));
    expect(screen.getByTestId(`risk-uncertain-${path}`).textContent).toContain("Quarterly domain fine-tuning: demand, GPU-hours a day");

    await fireEvent.input(input("risk-draws"), { target: { value: "50" } });
    await fireEvent.click(screen.getByTestId("risk-run"));
    await screen.findByTestId("risk-table");
    const sent = host.sent("run_risk") as { request: { uncertain: unknown[] } }[];
    expect(sent[0]!.request.uncertain).toEqual([{ path, low: "80", high: "200" }]);
    const kept = (await backend.risk("light"))!;
    expect(kept.outcome.figures.some((f) => f.entry === path)).toBe(true);
    expect(screen.getByTestId("risk-method").textContent).toContain("Every one of the 50 draws");
  });
});
