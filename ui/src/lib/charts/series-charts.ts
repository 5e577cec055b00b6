// The compare screen's charts on a canvas (uPlot), plotted from the points the back end sends
// (`CumulativeSeries`, `MonthlySeries`): the same structure the memo's plotters charts draw, so
// the screen and the memo show the same points. Why a canvas and not the back end's SVG: a
// slider drag repaints the charts on every move, and WebKit spent ~45 ms laying out ~200 KB of
// SVG text per repaint; a canvas is redrawn in a few milliseconds (ARCHITECTURE.md, The UI).

import type uPlot from "uplot";
import type { CumulativeSeries, MonthlySeries } from "../workspace-types";

/** The chart colours of a theme (the same as the memo's plotters charts). */
export interface ChartColours {
  text: string;
  axis: string;
  grid: string;
  background: string;
}

export function chartColours(theme: "light" | "dark"): ChartColours {
  return theme === "dark"
    ? { text: "#E6E7EA", axis: "#A0A4AD", grid: "#363840", background: "#1E1F24" }
    : { text: "#1F2328", axis: "#57606A", grid: "#E3E5E8", background: "#FFFFFF" };
}

/** Compact money for an axis: 250k, 1.25M, 3B. */
export function compactMoney(v: number): string {
  const a = Math.abs(v);
  const fmt = (x: number, unit: string) => `${Number(x.toFixed(2)).toString()}${unit}`;
  if (a >= 1e9) return fmt(v / 1e9, "B");
  if (a >= 1e6) return fmt(v / 1e6, "M");
  if (a >= 1e3) return fmt(v / 1e3, "k");
  return fmt(v, "");
}

/** The x positions: one per month, 0 = the first month. */
export function monthIndex(n: number): number[] {
  return Array.from({ length: n }, (_, k) => k);
}

/** The data uPlot plots for the cumulative chart: the months, then each line's values as sent. */
export function cumulativeData(series: CumulativeSeries): uPlot.AlignedData {
  return [monthIndex(series.months.length), ...series.lines.map((l) => l.values)];
}

/** What decides the cumulative chart's options (not its values): a change rebuilds the chart,
 *  any other change only sets new data. The months are not in it: the axis and the hover read
 *  them from the series shown, so a new horizon is new data, not a new chart. */
export function cumulativeShape(series: CumulativeSeries): string {
  return JSON.stringify(series.lines.map((l) => [l.label, l.colour, l.width]));
}

export function monthlyShape(series: MonthlySeries): string {
  return JSON.stringify(series.scenario);
}

/** Each month's net cash (costs less income): the monthly chart's hover value. */
export function monthlyNet(series: MonthlySeries): number[] {
  const net = new Array<number>(series.months.length).fill(0);
  for (const s of series.segments) net[s.month] = (net[s.month] ?? 0) + ((s.to ?? 0) - (s.from ?? 0));
  return net;
}

export function monthlyData(series: MonthlySeries): uPlot.AlignedData {
  return [monthIndex(series.months.length), monthlyNet(series)];
}

/** The value range the bars need, zero included. */
export function monthlyRange(series: MonthlySeries): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const s of series.segments) {
    lo = Math.min(lo, s.from ?? 0, s.to ?? 0);
    hi = Math.max(hi, s.from ?? 0, s.to ?? 0);
  }
  if (hi === lo) hi = lo + 1;
  const pad = (hi - lo) * 0.05;
  return [lo < 0 ? lo - pad : 0, hi + pad];
}

/** Month ticks: a label every `step` months so that at most ~`fit` labels show. */
export function monthSplits(n: number, width: number): number[] {
  const fit = Math.max(2, Math.floor(width / 80));
  const steps = [1, 2, 3, 6, 12, 24, 60, 120];
  const step = steps.find((s) => Math.ceil(n / s) <= fit) ?? 120;
  const out: number[] = [];
  for (let k = 0; k < n; k += step) out.push(k);
  return out;
}

/** The axes; `months` gives the months of the series shown (read at each draw). */
function axes(colours: ChartColours, months: () => string[], currency: string, what: string, fontPx: number): uPlot.Axis[] {
  const font = `${fontPx}px "Planner Sans", sans-serif`;
  return [
    {
      stroke: colours.axis,
      grid: { stroke: colours.grid, width: 1 },
      ticks: { stroke: colours.grid, width: 1 },
      font,
      splits: (u) => monthSplits(months().length, u.bbox.width / (devicePixelRatio || 1) / (fontPx / 12)),
      values: (_u, splits) => splits.map((k) => months()[k] ?? ""),
    },
    {
      stroke: colours.axis,
      grid: { stroke: colours.grid, width: 1 },
      ticks: { stroke: colours.grid, width: 1 },
      font,
      size: Math.round(fontPx * 5.4),
      label: `${what} (${currency})`,
      labelFont: font,
      values: (_u, splits) => splits.map(compactMoney),
    },
  ];
}

/** A label's background box on the canvas, in device pixels. */
export interface LabelBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

function overlaps(a: LabelBox, b: LabelBox): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** Where label `box` goes so it covers none of the labels `placed`: where it is, else moved a
 *  label's height (and a gap) at a time, up first, then down, within `top`..`bottom` when it
 *  can be; where it is when nothing is free. Break-even markers of close scenarios sit close
 *  together, and their labels would otherwise print over each other. */
export function placeLabel(box: LabelBox, placed: readonly LabelBox[], top: number, bottom: number): LabelBox {
  const step = box.h * 1.125;
  for (let k = 0; k <= 2 * placed.length; k++) {
    const shift = k === 0 ? 0 : (k % 2 === 1 ? -1 : 1) * Math.ceil(k / 2) * step;
    const tried = { ...box, y: box.y + shift };
    if (tried.y < top || tried.y + tried.h > bottom) continue;
    if (!placed.some((p) => overlaps(tried, p))) return tried;
  }
  return box;
}

/** The cumulative chart's options: one line per scenario (the reference thicker), break-even
 *  markers drawn on top with their labels. */
export function cumulativeOptions(
  ref: { current: CumulativeSeries },
  currency: string,
  colours: ChartColours,
  size: { width: number; height: number },
  fontPx = 12,
): uPlot.Options {
  const series = ref.current;
  return {
    ...size,
    scales: { x: { time: false } },
    legend: { show: true, live: true },
    cursor: { points: { size: 7 } },
    axes: axes(colours, () => ref.current.months, currency, "Cumulative cash", fontPx),
    series: [
      { label: "Month", value: (_u, k) => (k == null ? "" : (ref.current.months[k] ?? "")) },
      ...series.lines.map((l) => ({
        label: l.label,
        stroke: l.colour,
        width: l.width,
        points: { show: false },
        value: (_u: uPlot, v: number | null) => (v == null ? "" : compactMoney(v)),
      })),
    ],
    hooks: {
      draw: [
        (u: uPlot) => {
          const ctx = u.ctx;
          const ratio = devicePixelRatio || 1;
          ctx.save();
          ctx.font = `${fontPx * ratio}px "Planner Sans", sans-serif`;
          const placed: LabelBox[] = [];
          for (const m of ref.current.break_evens) {
            const line = ref.current.lines[m.line];
            if (!line) continue;
            if (m.x == null || m.y == null) continue;
            const x = u.valToPos(m.x, "x", true);
            const y = u.valToPos(m.y, "y", true);
            ctx.beginPath();
            ctx.arc(x, y, 6 * ratio, 0, 2 * Math.PI);
            ctx.fillStyle = line.colour;
            ctx.fill();
            ctx.lineWidth = 2 * ratio;
            ctx.strokeStyle = colours.text;
            ctx.stroke();
            const text = m.count === 1 ? `break-even m${m.month}` : `break-even m${m.month} (${m.count} scenarios)`;
            const w = ctx.measureText(text).width;
            const left = x + 10 * ratio + w > u.bbox.left + u.bbox.width ? x - 10 * ratio - w : x + 10 * ratio;
            // Above the marker, moved up or down past the labels already drawn.
            const box = placeLabel({ x: left - 2 * ratio, y: y - 24 * ratio, w: w + 4 * ratio, h: 16 * ratio }, placed, u.bbox.top, u.bbox.top + u.bbox.height);
            placed.push(box);
            ctx.fillStyle = colours.background;
            ctx.fillRect(box.x, box.y, box.w, box.h);
            ctx.fillStyle = colours.text;
            ctx.fillText(text, left, box.y + 13 * ratio);
          }
          ctx.restore();
        },
      ],
    },
  };
}

/** The monthly chart's options: stacked bars per category drawn from the segments as sent;
 *  the hover value is the month's net cash. */
export function monthlyOptions(
  ref: { current: MonthlySeries },
  currency: string,
  colours: ChartColours,
  size: { width: number; height: number },
  fontPx = 12,
): uPlot.Options {
  const series = ref.current;
  return {
    ...size,
    scales: {
      x: { time: false, range: () => [-0.5, ref.current.months.length - 0.5] },
      y: { range: () => monthlyRange(ref.current) },
    },
    legend: { show: true, live: true },
    axes: axes(colours, () => ref.current.months, currency, "Cash per month", fontPx),
    series: [
      { label: "Month", value: (_u, k) => (k == null ? "" : (ref.current.months[k] ?? "")) },
      {
        label: "Net cash that month",
        stroke: "rgba(0,0,0,0)",
        width: 0,
        points: { show: false },
        value: (_u: uPlot, v: number | null) => (v == null ? "" : compactMoney(v)),
      },
    ],
    hooks: {
      drawSeries: [
        (u: uPlot, i: number) => {
          if (i !== 1) return;
          const ctx = u.ctx;
          const series = ref.current;
          const [lo] = monthlyRange(series);
          ctx.save();
          for (const s of series.segments) {
            if (s.from == null || s.to == null) continue;
            const x0 = u.valToPos(s.month - 0.4, "x", true);
            const x1 = u.valToPos(s.month + 0.4, "x", true);
            const y0 = u.valToPos(s.from, "y", true);
            const y1 = u.valToPos(s.to, "y", true);
            ctx.fillStyle = series.categories[s.category]?.colour ?? colours.axis;
            ctx.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.max(1, Math.abs(y1 - y0)));
          }
          if (lo < 0) {
            const y = u.valToPos(0, "y", true);
            ctx.strokeStyle = colours.axis;
            ctx.lineWidth = 1;
            ctx.beginPath();
            ctx.moveTo(u.bbox.left, y);
            ctx.lineTo(u.bbox.left + u.bbox.width, y);
            ctx.stroke();
          }
          ctx.restore();
        },
      ],
    },
  };
}
