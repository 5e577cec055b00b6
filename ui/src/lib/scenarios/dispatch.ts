// The plan's own view (dispatch, bridge, spot, needs) as the scenario detail draws it: pure
// functions of the engine's `Operations`, so the chart's bars and the table's cells are tested
// on their own. Figures arrive as decimal strings; the chart turns them into numbers only to
// draw (the table shows the engine's decimals, formatted).

import type { Operations } from "../workspace-types";

/** One bar segment: a layer's useful PFLOP-hours in a month, or the month's unmet demand. */
export interface Segment {
  /** The layer's index, or -1 for unmet demand. */
  layer: number;
  value: number;
  /** Where the segment starts (the sum of the segments below it). */
  from: number;
}

export interface Bar {
  month: string;
  segments: Segment[];
  total: number;
}

/** Per month, useful PFLOP-hours by layer (in layer order) with unmet demand on top. */
export function dispatchBars(ops: Operations): Bar[] {
  return ops.months.map((m) => {
    const byLayer = new Array<number>(ops.layers.length).fill(0);
    for (const c of m.served) byLayer[c.layer] = (byLayer[c.layer] ?? 0) + Number(c.useful_pflop_h);
    const unmet = m.unmet_pflop_h.reduce((s, v) => s + Number(v), 0);
    const segments: Segment[] = [];
    let from = 0;
    byLayer.forEach((value, layer) => {
      if (value > 0) {
        segments.push({ layer, value, from });
        from += value;
      }
    });
    if (unmet > 0) {
      segments.push({ layer: -1, value: unmet, from });
      from += unmet;
    }
    return { month: m.month, segments, total: from };
  });
}

/** A round upper bound for the chart's axis, and its ticks (1, 2 or 5 × a power of ten). */
export function axis(max: number, ticks = 4): { top: number; step: number } {
  if (!(max > 0)) return { top: 1, step: 0.25 };
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * power).find((s) => s >= raw) ?? 10 * power;
  return { top: Math.ceil(max / step) * step, step };
}

/** One row of the dispatch table: a workload in a month. */
export interface DispatchRow {
  month: string;
  /** True for the month's first row (the month cell spans its workloads). */
  first: boolean;
  span: number;
  workload: number;
  demand: string;
  unmet: string;
  /** Per layer: [units, useful PFLOP-hours], or null when it gave this workload nothing. */
  cells: ([string, string] | null)[];
  /** The month's idle owned GPU-hours (summed over owned layers), on its first row. */
  idle: string | null;
}

function sum(values: string[]): string {
  // Display only: the engine's own figures, added for the month's idle hours.
  const total = values.reduce((s, v) => s + Number(v), 0);
  return String(total);
}

/** The table's rows: each month, each workload that asked for something or was served. */
export function dispatchRows(ops: Operations): DispatchRow[] {
  const rows: DispatchRow[] = [];
  for (const m of ops.months) {
    const workloads = ops.workloads
      .map((_, w) => w)
      .filter((w) => Number(m.demand_pflop_h[w] ?? "0") > 0 || m.served.some((c) => c.workload === w));
    workloads.forEach((w, i) => {
      const cells: ([string, string] | null)[] = ops.layers.map(() => null);
      for (const c of m.served) {
        if (c.workload === w) cells[c.layer] = [c.units, c.useful_pflop_h];
      }
      rows.push({
        month: m.month,
        first: i === 0,
        span: workloads.length,
        workload: w,
        demand: m.demand_pflop_h[w] ?? "0",
        unmet: m.unmet_pflop_h[w] ?? "0",
        cells,
        idle: i === 0 ? sum(m.idle_gpu_h) : null,
      });
    });
  }
  return rows;
}

/** Hours as the reader thinks of them: hours below two days, days below ~two months, else months. */
export function duration(hours: string): { value: number; unit: "hours" | "days" | "months" } {
  const h = Number(hours);
  if (h < 48) return { value: h, unit: "hours" };
  if (h < 24 * 61) return { value: h / 24, unit: "days" };
  return { value: h / 730.5, unit: "months" };
}
