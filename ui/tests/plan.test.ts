// The plan's own view in the scenario detail (issue #20), over recorded answers of the real back
// end on the bundled enterprise-hybrid sample: its hybrid scenario orders 16 DGX H100 GPUs with a
// three-month lead time, bridged by on-demand H100s, with a spot layer on AWS (two minutes'
// notice against the default three-minute checkpoint write).

import { describe, expect, it } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import { formatCurrency } from "../src/lib/money";
import { axis, dispatchBars, dispatchRows, duration } from "../src/lib/scenarios/dispatch";
import type { ScenarioDetail, ScenarioSpec } from "../src/lib/workspace-types";
import { enterpriseSession } from "./support/sessions";

describe("the plan, month by month", () => {
  it("draws dispatch as stacked bars, states delivery and the bridge with its cost, and warns of a short spot notice", async () => {
    const { backend, host } = await enterpriseSession();
    render(App, { props: { backend, locale: "en-US" } });
    await screen.findByTestId("ws-title");
    const view = await screen.findByTestId("plan-view", {}, { timeout: 10000 });
    await waitFor(() => expect(host.sent("scenario_detail").length).toBeGreaterThan(0));
    const spec = host.sent("scenario_detail").at(-1)!.scenario as ScenarioSpec;
    expect(spec.id).toBe("hybrid");
    const detail = (await host.call("scenario_detail", { scenario: spec })) as ScenarioDetail;
    const ops = detail.operations!;

    // One bar per month; each bar's height is what was served plus what was left unmet, which
    // is the month's demand.
    const bars = dispatchBars(ops);
    expect(bars).toHaveLength(36);
    bars.forEach((b, i) => {
      const demand = ops.months[i]!.demand_pflop_h.reduce((s, v) => s + Number(v), 0);
      expect(Math.abs(b.total - demand)).toBeLessThan(1e-6 * Math.max(1, demand));
    });
    const chart = within(view).getByTestId("dispatch-chart");
    const rects = chart.querySelectorAll("rect");
    expect(rects.length).toBe(bars.reduce((n, b) => n + b.segments.length, 0));
    // The months before delivery are served by the bridge, not by the DGX.
    const first = [...rects].filter((r) => r.querySelector("title")?.textContent?.startsWith(`${ops.months[0]!.month}:`));
    expect(first.length).toBeGreaterThan(0);
    expect(first.map((r) => r.getAttribute("data-layer"))).not.toContain("dgx");
    expect(first.map((r) => r.getAttribute("data-layer"))).toContain("on-demand");

    // Delivery and the bridge line, with the cost the engine computed.
    const bridge = ops.bridges.find((b) => b.layer === "dgx")!;
    expect(bridge.lead_time_months).toBe(3);
    const line = within(view).getByTestId("bridge-line-dgx");
    const onDemand = bridge.lines.find((l) => l.layer === "on-demand")!;
    expect(line.textContent).toContain(`${onDemand.months} months`);
    expect(line.textContent).toContain(formatCurrency(onDemand.cost, "USD", "en-US"));
    expect(within(view).getByTestId("bridge-dgx").textContent).toContain(`delivered ${bridge.delivery_month}`);

    // Spot: the overhead and the notice warning (AWS gives 120 s; a checkpoint takes 3 min).
    const spot = within(view).getByTestId("spot-spot");
    expect(spot.textContent).toContain("Young/Daly");
    expect(within(view).getByTestId("spot-notice-spot").textContent).toContain("120 s");

    // The needs table names every workload the scenario serves.
    const needs = within(view).getByTestId("needs-table");
    for (const n of ops.needs.filter((n) => n.on.length > 0)) expect(needs.textContent).toContain(String(n.on[0]!.gpus_for_peak_month));

    // The table: one row per workload and month that asked for something.
    const rows = dispatchRows(ops);
    const table = within(view).getByTestId("dispatch-table");
    expect(table.querySelectorAll("tbody tr").length).toBe(rows.length);
  });
});

describe("dispatch helpers", () => {
  it("rounds the axis up to 1, 2 or 5 times a power of ten", () => {
    expect(axis(0)).toEqual({ top: 1, step: 0.25 });
    expect(axis(9)).toEqual({ top: 10, step: 5 });
    expect(axis(1234)).toEqual({ top: 1500, step: 500 });
    expect(axis(38000)).toEqual({ top: 40000, step: 10000 });
  });

  it("says durations in hours, days or months", () => {
    expect(duration("12")).toEqual({ value: 12, unit: "hours" });
    expect(duration("138.24").unit).toBe("days");
    expect(duration("138.24").value).toBeCloseTo(5.76, 10);
    expect(duration("2922").unit).toBe("months");
  });
});
