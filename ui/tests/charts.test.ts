// Issue 17: the compare screen's canvas charts plot exactly the points the back end sends (the
// structure the memo's plotters charts are drawn from; planner-report's `charts` test checks the
// SVG side). The canvas is a recording stand-in: every path the chart strokes is read back and
// mapped to data coordinates.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { render, waitFor } from "@testing-library/svelte";
import SeriesChart from "../src/lib/components/SeriesChart.svelte";
import { chartColours, compactMoney, cumulativeData, monthSplits, monthlyNet, monthlyRange, placeLabel } from "../src/lib/charts/series-charts";
import type { CumulativeSeries, MonthlySeries } from "../src/lib/workspace-types";

type Op = [string, ...number[]];

/** A Path2D that records its segments. */
class RecordingPath {
  ops: Op[] = [];
  moveTo(x: number, y: number) {
    this.ops.push(["M", x, y]);
  }
  lineTo(x: number, y: number) {
    this.ops.push(["L", x, y]);
  }
  rect(x: number, y: number, w: number, h: number) {
    this.ops.push(["R", x, y, w, h]);
  }
  arc() {}
  closePath() {}
  bezierCurveTo() {}
  quadraticCurveTo() {}
  addPath() {}
}

interface Recorded {
  strokes: { colour: string; width: number; ops: Op[] }[];
  fills: { colour: string; x: number; y: number; w: number; h: number }[];
  texts: string[];
}

function recordingContext(rec: Recorded): CanvasRenderingContext2D {
  const state: Record<string, unknown> = { strokeStyle: "#000", fillStyle: "#000", lineWidth: 1, font: "", textAlign: "", textBaseline: "", globalAlpha: 1 };
  const target = {
    ...state,
    canvas: null,
    save() {},
    restore() {},
    scale() {},
    translate() {},
    rotate() {},
    setLineDash() {},
    beginPath() {},
    moveTo() {},
    lineTo() {},
    arc() {},
    closePath() {},
    rect() {},
    clip() {},
    fill() {},
    fillText(t: string) {
      rec.texts.push(t);
    },
    strokeText() {},
    clearRect() {},
    measureText: (t: string) => ({ width: t.length * 7 }),
    stroke(this: Record<string, unknown>, path?: RecordingPath) {
      if (path instanceof RecordingPath) rec.strokes.push({ colour: String(this.strokeStyle), width: Number(this.lineWidth), ops: path.ops });
    },
    fillRect(this: Record<string, unknown>, x: number, y: number, w: number, h: number) {
      rec.fills.push({ colour: String(this.fillStyle), x, y, w, h });
    },
  };
  return target as unknown as CanvasRenderingContext2D;
}

const cumulative: CumulativeSeries = {
  months: ["2027-01", "2027-02", "2027-03", "2027-04", "2027-05", "2027-06"],
  lines: [
    { scenario: "buy", label: "Buy (baseline)", colour: "#0072B2", width: 4, values: [900000, 950000, 1000000, 1050000, 1100000, 1150000] },
    { scenario: "rent", label: "Rent", colour: "#E69F00", width: 2, values: [200000, 420000, 640000, 860000, 1080000, 1300000] },
  ],
  break_evens: [{ line: 0, month: 5, count: 1, x: 4, y: 1100000 }],
};

const monthly: MonthlySeries = {
  scenario: "buy",
  months: ["2027-01", "2027-02", "2027-03"],
  categories: [
    { label: "Hardware", colour: "#0072B2" },
    { label: "Electricity", colour: "#F0E442" },
    { label: "Residual value", colour: "#7570B3" },
  ],
  segments: [
    { category: 0, month: 0, from: 0, to: 800000 },
    { category: 1, month: 0, from: 800000, to: 812000 },
    { category: 1, month: 1, from: 0, to: 12000 },
    { category: 1, month: 2, from: 0, to: 12000 },
    { category: 2, month: 2, from: 0, to: -300000 },
  ],
};

/** The largest distance, in pixels, of any (value, pixel) pair from the line through the two
 *  extreme pairs: 0 when the pixels are one linear map of the values. */
function worstMiss(pairs: [number, number][]): number {
  const lo = pairs.reduce((m, p) => (p[0] < m[0] ? p : m));
  const hi = pairs.reduce((m, p) => (p[0] > m[0] ? p : m));
  const b = (hi[1] - lo[1]) / (hi[0] - lo[0]);
  return Math.max(...pairs.map(([v, px]) => Math.abs(px - (lo[1] + b * (v - lo[0])))));
}

let rec: Recorded;
const realGetContext = HTMLCanvasElement.prototype.getContext;

beforeEach(async () => {
  rec = { strokes: [], fills: [], texts: [] };
  // The app loads uPlot's own script; here the module stands in for it.
  (globalThis as unknown as { uPlot: unknown }).uPlot = (await import("uplot")).default;
  (globalThis as unknown as { Path2D: unknown }).Path2D = RecordingPath;
  HTMLCanvasElement.prototype.getContext = function () {
    return recordingContext(rec);
  } as unknown as typeof HTMLCanvasElement.prototype.getContext;
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 800 });
});

afterEach(() => {
  HTMLCanvasElement.prototype.getContext = realGetContext;
  delete (HTMLElement.prototype as unknown as Record<string, unknown>).clientWidth;
});

describe("canvas charts", () => {
  it("strokes each scenario's line through exactly the values sent, in its colour and width", async () => {
    render(SeriesChart, { props: { chart: { kind: "cumulative", series: cumulative }, currency: "USD", theme: "light", title: "Cumulative cash, USD", testid: "chart-cumulative" } });
    await waitFor(() => expect(rec.strokes.length).toBeGreaterThan(0));
    const ys: [number, number][] = [];
    const xs: [number, number][] = [];
    for (const line of cumulative.lines) {
      const stroke = rec.strokes.find((s) => s.colour.toUpperCase() === line.colour && s.ops.length >= line.values.length);
      expect(stroke, `a stroke in ${line.colour}`).toBeDefined();
      expect(stroke!.width).toBeCloseTo(line.width * (globalThis.devicePixelRatio || 1));
      const pts = stroke!.ops.filter((o) => o[0] === "M" || o[0] === "L");
      expect(pts).toHaveLength(line.values.length);
      pts.forEach((o, k) => {
        xs.push([k, o[1]!]);
        ys.push([line.values[k]!, o[2]!]);
      });
    }
    expect(worstMiss(ys)).toBeLessThan(0.51);
    expect(worstMiss(xs)).toBeLessThan(0.51);
    // Higher values are higher on screen.
    const top = ys.find(([v]) => v === 1300000)![1];
    const bottom = ys.find(([v]) => v === 200000)![1];
    expect(top).toBeLessThan(bottom);
  });

  it("follows a longer horizon with new data on the same canvas, the new months on its axis", async () => {
    const props = { currency: "USD", theme: "light" as const, title: "Cumulative cash, USD", testid: "chart-cumulative" };
    const { container, rerender } = render(SeriesChart, { props: { ...props, chart: { kind: "cumulative", series: cumulative } } });
    await waitFor(() => expect(rec.strokes.length).toBeGreaterThan(0));
    const canvas = container.querySelector("canvas");
    expect(canvas).not.toBeNull();
    expect(rec.texts).toContain("2027-06");
    expect(rec.texts).not.toContain("2027-09");
    // The horizon grows from 6 to 9 months: three more values per line.
    const longer: CumulativeSeries = {
      months: [...cumulative.months, "2027-07", "2027-08", "2027-09"],
      lines: cumulative.lines.map((l) => ({ ...l, values: [...l.values, 1200000, 1250000, 1300000] })),
      break_evens: [],
    };
    rec.strokes = [];
    rec.texts = [];
    await rerender({ ...props, chart: { kind: "cumulative", series: longer } });
    await waitFor(() => expect(rec.strokes.some((s) => s.ops.filter((o) => o[0] === "M" || o[0] === "L").length === 9)).toBe(true));
    // A data update, not a new chart: the same canvas, redrawn.
    expect(container.querySelector("canvas")).toBe(canvas);
    expect(container.querySelectorAll("canvas")).toHaveLength(1);
    // The month axis reads the months of the series shown, not those the chart was made with.
    expect(rec.texts).toContain("2027-09");
  });

  it("keeps the labels of close break-even points apart", async () => {
    // Three scenarios crossing the reference in consecutive months at nearly the same cash.
    const crowded: CumulativeSeries = {
      ...cumulative,
      lines: [...cumulative.lines, { ...cumulative.lines[1]!, scenario: "hybrid", label: "Hybrid", colour: "#009E73" }, { ...cumulative.lines[1]!, scenario: "cloud", label: "Cloud", colour: "#CC79A7" }],
      break_evens: [
        { line: 1, month: 4, count: 1, x: 3, y: 1050000 },
        { line: 2, month: 5, count: 1, x: 4, y: 1060000 },
        { line: 3, month: 5, count: 1, x: 4, y: 1070000 },
      ],
    };
    render(SeriesChart, { props: { chart: { kind: "cumulative", series: crowded }, currency: "USD", theme: "light", title: "Cumulative cash, USD", testid: "chart-cumulative" } });
    await waitFor(() => expect(rec.fills.filter((f) => f.colour === chartColours("light").background)).toHaveLength(3));
    const boxes = rec.fills.filter((f) => f.colour === chartColours("light").background);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
        expect(apart, `labels ${i} and ${j} do not overlap`).toBe(true);
      }
  });

  it("fills one bar per segment, in its category's colour, from its start to its end", async () => {
    render(SeriesChart, { props: { chart: { kind: "monthly", series: monthly }, currency: "USD", theme: "dark", title: "Monthly", testid: "chart-monthly" } });
    await waitFor(() => expect(rec.fills.length).toBeGreaterThan(0));
    const bars = rec.fills.filter((f) => monthly.categories.some((c) => c.colour === f.colour));
    expect(bars).toHaveLength(monthly.segments.length);
    // Each bar's edges map linearly to its segment's from and to.
    const ys: [number, number][] = [];
    monthly.segments.forEach((s, i) => {
      const b = bars[i]!;
      expect(b.colour).toBe(monthly.categories[s.category]!.colour);
      const [v0, v1] = [Math.min(s.from!, s.to!), Math.max(s.from!, s.to!)];
      ys.push([v1, b.y], [v0, b.y + b.h]);
    });
    expect(worstMiss(ys)).toBeLessThan(0.51);
    // Bars of one month share their x; months are spaced evenly.
    expect(bars[0]!.x).toBeCloseTo(bars[1]!.x);
    expect(bars[2]!.x - bars[0]!.x).toBeCloseTo(bars[3]!.x - bars[2]!.x);
  });
});

describe("chart data", () => {
  it("hands uPlot the months and each line's values unchanged", () => {
    const data = cumulativeData(cumulative);
    expect(data[0]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(data[1]).toEqual(cumulative.lines[0]!.values);
    expect(data[2]).toEqual(cumulative.lines[1]!.values);
  });

  it("nets each month and ranges the bars with zero and room", () => {
    expect(monthlyNet(monthly)).toEqual([812000, 12000, -288000]);
    const [lo, hi] = monthlyRange(monthly);
    expect(lo).toBeCloseTo(-300000 - 1112000 * 0.05);
    expect(hi).toBeCloseTo(812000 + 1112000 * 0.05);
  });

  it("places a label where it is when free, else a step up, else a step down, inside the plot", () => {
    const box = { x: 100, y: 100, w: 80, h: 16 };
    expect(placeLabel(box, [], 0, 400)).toEqual(box);
    // Taken: one step (the height and an eighth) up.
    expect(placeLabel(box, [box], 0, 400)).toEqual({ ...box, y: 82 });
    // Up taken too: one step down.
    expect(placeLabel(box, [box, { ...box, y: 82 }], 0, 400)).toEqual({ ...box, y: 118 });
    // No room above the plot's top: down.
    expect(placeLabel(box, [box], 90, 400)).toEqual({ ...box, y: 118 });
    // A label beside it, not over it, leaves it where it is.
    expect(placeLabel(box, [{ ...box, x: 180 }], 0, 400)).toEqual(box);
  });

  it("labels money compactly and thins month labels to fit", () => {
    expect(compactMoney(1250000)).toBe("1.25M");
    expect(compactMoney(-500000)).toBe("-500k");
    expect(compactMoney(3e9)).toBe("3B");
    expect(compactMoney(400)).toBe("400");
    expect(monthSplits(36, 800)).toEqual([0, 6, 12, 18, 24, 30]);
    expect(monthSplits(12, 1200)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});
