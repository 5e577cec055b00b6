// The compare screen's decision table, as data: which figures, in which order, and how each is
// shown. Values stay decimal strings; the only judgement made here is the sign of a difference
// (cheaper or dearer), read from its text.

import { formatCurrency, formatQuantity, formatShare, formatTonnes, addMonths } from "./money";
import { formatDecimal, MISSING } from "./format";
import { signOf } from "./decimal";
import type { DecisionView, ScenarioFigures } from "./workspace-types";

/** The most scenarios compared side by side (planner-core `MAX_COMPARED`). */
export const MAX_COMPARED = 8;
/** The horizons the compare screen offers, in months (planner-core `HORIZON_CHOICES`). */
export const HORIZONS = [12, 24, 36, 60] as const;

export type Tone = "good" | "bad" | null;
export type Cell = { text: string; tone: Tone; title?: string };

export type Row = {
  /** Used in test ids: `figure-<scenario>-<key>`. */
  key: string;
  label: string;
  hint?: string;
  cell: (f: ScenarioFigures, ctx: RowContext) => Cell;
};

export type RowContext = { view: DecisionView; locale: string; name: (id: string) => string };

const plain = (text: string): Cell => ({ text, tone: null });

function money(v: string | null, ctx: RowContext, opts: { unit?: boolean; signed?: boolean } = {}): string {
  return formatCurrency(v, ctx.view.currency, ctx.locale, opts);
}

/** A difference to the reference: negative (cheaper) is good. */
function difference(v: string | null | undefined, ctx: RowContext): Cell {
  if (v === null || v === undefined) return plain(MISSING);
  const s = signOf(v);
  return { text: money(v, ctx, { signed: true }), tone: s < 0 ? "good" : s > 0 ? "bad" : null };
}

/**
 * The break-even of a scenario against the reference, in words: "month 19 (2028-07), Hybrid
 * cheaper after", or why there is none.
 */
export function breakEvenText(f: ScenarioFigures, ctx: RowContext): string {
  const d = f.difference;
  if (!d) return "reference";
  if (d.break_even) {
    const m = d.break_even.month;
    return `month ${m} (${addMonths(ctx.view.start, m - 1)}), ${ctx.name(d.break_even.cheaper_after)} cheaper after`;
  }
  const s = signOf(d.total);
  if (s < 0) return "cheaper throughout";
  if (s > 0) return "dearer throughout";
  return "equal at the horizon";
}

export const DECISION_ROWS: readonly Row[] = [
  { key: "total_cash", label: "Total cash", hint: "Everything paid over the horizon", cell: (f, c) => plain(money(f.total_cash, c)) },
  { key: "npv", label: "NPV", hint: "Net present value of the cash at the workspace discount rate", cell: (f, c) => plain(money(f.npv, c)) },
  { key: "cost_per_gpu_hour", label: "Per GPU-hour", cell: (f, c) => plain(money(f.cost_per_gpu_hour, c, { unit: true })) },
  {
    key: "cost_per_useful_pflop_hour",
    label: "Per useful PFLOP-hour",
    hint: "Cost per PFLOP-hour of model work actually done (MFU applied)",
    cell: (f, c) => plain(money(f.cost_per_useful_pflop_hour, c, { unit: true })),
  },
  { key: "cost_per_million_tokens", label: "Per million tokens", cell: (f, c) => plain(money(f.cost_per_million_tokens, c, { unit: true })) },
  { key: "owned_utilisation", label: "Owned utilisation", hint: "Busy over available owned GPU-hours", cell: (f, c) => plain(formatShare(f.owned_utilisation, c.locale)) },
  { key: "idle_cost", label: "Idle cost", hint: "What owned GPUs cost while idle", cell: (f, c) => plain(money(f.idle_cost, c)) },
  { key: "energy_kwh", label: "Energy", cell: (f, c) => plain(formatQuantity(f.energy_kwh, c.locale, "kWh")) },
  { key: "emissions_kg", label: "Emissions", cell: (f, c) => plain(`${formatTonnes(f.emissions_kg, c.locale)} CO₂e`) },
  {
    key: "unmet_pflop_h",
    label: "Unmet demand",
    hint: "Demand no layer could serve",
    cell: (f, c) => ({ text: formatQuantity(f.unmet_pflop_h, c.locale, "PFLOP-h"), tone: signOf(f.unmet_pflop_h) > 0 ? "bad" : null }),
  },
  { key: "residual_value", label: "Residual value", hint: "What owned hardware is worth at the horizon", cell: (f, c) => plain(money(f.residual_value, c)) },
  {
    key: "commitments_after_horizon",
    label: "Commitments after horizon",
    hint: "Committed payments that fall after the horizon (not in the total)",
    cell: (f, c) => ({ text: money(f.commitments_after_horizon, c), tone: signOf(f.commitments_after_horizon) > 0 ? "bad" : null }),
  },
  {
    key: "difference_total",
    label: "Total vs reference",
    hint: "This scenario's total cash minus the reference's; green: cheaper",
    cell: (f, c) => (f.difference ? difference(f.difference.total, c) : plain("reference")),
  },
  {
    key: "difference_npv",
    label: "NPV vs reference",
    cell: (f, c) => (f.difference ? difference(f.difference.npv, c) : plain("reference")),
  },
  {
    key: "break_even",
    label: "Break-even vs reference",
    hint: "When the cumulative cash of the two last crosses",
    cell: (f, c) => plain(breakEvenText(f, c)),
  },
  {
    key: "buy_vs_rent_hours_per_day",
    label: "Buy beats rent above",
    hint: "Hours of use per owned GPU per day above which owning is cheaper",
    cell: (f, c) => {
      const h = f.difference?.buy_vs_rent_hours_per_day;
      return plain(h === null || h === undefined ? MISSING : `${formatDecimal(h, c.locale)} h/day`);
    },
  },
];
