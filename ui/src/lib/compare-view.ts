// The compare screen's decision table, as data: which figures, in which order, and how each is
// shown. Values stay decimal strings; the only judgements made here are the sign of a difference
// (cheaper or dearer) and whether an amount is zero, read from their text. Every sentence about
// the decision (buy versus rent, resale, rank) is the engine's; the UI adds words only where the
// engine gives none, so that no cell is ever left without them.

import { formatCurrency, formatQuantity, formatShare, formatTonnes, addMonths } from "./money";
import { formatDecimal, MISSING, numberFormat } from "./format";
import { compareDecimal, isDecimal, signOf } from "./decimal";
import type { DecisionView, Difference, ScenarioFigures } from "./workspace-types";

/** The most scenarios compared side by side (planner-core `MAX_COMPARED`). */
export const MAX_COMPARED = 8;
/** The horizons the compare screen offers, in months (planner-core `HORIZON_CHOICES`). */
export const HORIZONS = [12, 24, 36, 60] as const;

export type Tone = "good" | "bad" | null;
/** A cell: its main text, and optionally a sentence shown under it (smaller, wrapping). */
export type Cell = { text: string; tone: Tone; title?: string; note?: string };

export type Row = {
  /** Used in test ids: `figure-<scenario>-<key>`. */
  key: string;
  label: string;
  /** Shown under the label, always visible (what the figure includes). */
  sublabel?: string;
  hint?: string;
  /** Text that wraps (sentences) rather than a single figure. */
  wrap?: boolean;
  /** Whether the row is shown for this comparison (default: always). */
  shown?: (view: DecisionView) => boolean;
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

/** Whether a scenario leaves work undone (priced at its shadow price). */
export function leavesWorkUndone(f: ScenarioFigures): boolean {
  return signOf(f.unserved_cost) !== 0;
}

/** A number of average months to one decimal, "18.6" (rounded from the engine's two). */
function months1(text: string, locale: string): string {
  if (!isDecimal(text)) return text;
  const nf = numberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (nf.format as unknown as (v: string) => string)(text);
}

/**
 * The break-even of a scenario against the reference, in words: "month 19 (≈ 18.6 months) in
 * 2028-07, Hybrid cheaper after", or why there is none. Month N is the month by whose end the
 * curves have crossed; the average months place the crossing inside it.
 */
export function breakEvenText(f: ScenarioFigures, ctx: RowContext): string {
  const d = f.difference;
  if (!d) return "reference";
  if (d.break_even_note) return d.break_even_note;
  if (d.break_even) {
    const m = d.break_even.month;
    return `month ${m} (≈ ${months1(d.break_even.at_month, ctx.locale)} months) in ${addMonths(ctx.view.start, m - 1)}, ${ctx.name(d.break_even.cheaper_after)} cheaper after`;
  }
  const s = signOf(d.total);
  if (s < 0) return "cheaper throughout";
  if (s > 0) return "dearer throughout";
  return "equal at the horizon";
}

/** The NPV difference, with the engine's sentence when NPV and the decision total disagree. */
function npvDifferenceCell(d: Difference, ctx: RowContext): Cell {
  const cell = difference(d.npv, ctx);
  return d.npv_note ? { ...cell, note: d.npv_note } : cell;
}

/** Why there is no buy-versus-rent answer when the engine gives neither hours nor words. */
export const BUY_VS_RENT_NOT_PRICED =
  "Not priced: buy versus rent needs one of the two scenarios to own hardware that serves a workload and the other to rent only.";

/**
 * Buy versus rent against the reference: the hours with the engine's sentence under them, or,
 * without hours, the engine's sentence saying why (owning never pays off, nothing to rent it
 * on), or why the question does not arise. Never an empty cell.
 */
export function buyVsRentCell(f: ScenarioFigures, ctx: RowContext): Cell {
  const d = f.difference;
  if (!d) return plain("reference");
  const h = d.buy_vs_rent_hours_per_day ?? null;
  const words = d.buy_vs_rent_words ?? null;
  if (h !== null) return { text: `${formatDecimal(h, ctx.locale)} h/day`, tone: null, ...(words ? { note: words } : {}) };
  return plain(words ?? BUY_VS_RENT_NOT_PRICED);
}

/** How much of the difference rests on resale assumed at the horizon, in the engine's words. */
export function resaleCell(f: ScenarioFigures, ctx: RowContext): Cell {
  const d = f.difference;
  if (!d) return plain("reference");
  if (d.resale_note) return { text: d.resale_note, tone: null, title: `Resale at the horizon, this scenario minus the reference: ${money(d.residual, ctx, { signed: true })}` };
  if (signOf(d.residual) === 0) return plain("None: the two assume the same resale at the horizon (or none).");
  return plain("The two cost the same: no difference rests on resale.");
}

/** The rank in words: "1 of 2", and for a scenario that leaves work undone, why it ranks low. */
export function rankCell(f: ScenarioFigures, ctx: RowContext): Cell {
  const of = `${f.rank} of ${ctx.view.scenarios.length}`;
  if (leavesWorkUndone(f)) return { text: `${of}: leaves work undone`, tone: "bad", title: "Ranked after every scenario that serves all the work, whatever its total" };
  return { text: of, tone: f.rank === 1 ? "good" : null };
}

const ESTIMATE_TITLE =
  "Rented capacity is estimated from the catalog's power per accelerator, the provider's published PUE (else an industry average) and the grid of the offer's region (else the world average); see the scenario's assumptions";

/**
 * Energy or emissions with the part for rented capacity marked as an estimate (the engine's
 * split): "of which 254,406 kWh rented: estimate", or "estimate" when it is all rented.
 */
function energyCell(total: string, estimated: string, show: (v: string) => string): Cell {
  if (signOf(estimated) === 0) return plain(show(total));
  const note = compareDecimal(estimated, total) === 0 ? "estimate (rented capacity)" : `of which ${show(estimated)} rented: estimate`;
  return { text: show(total), tone: null, note, title: ESTIMATE_TITLE };
}

export const DECISION_ROWS: readonly Row[] = [
  {
    key: "rank",
    label: "Rank",
    hint: "1 = best: scenarios that serve all the work first, then the lower decision total",
    cell: rankCell,
  },
  {
    key: "decision_total",
    label: "Decision total",
    sublabel: "total cash incl. unserved work + commitments after horizon",
    hint: "What scenarios are ranked and compared on: the total cash over the horizon (unserved work at its shadow price included) plus the commitments that fall due after it",
    cell: (f, c) => plain(money(f.decision_total, c)),
  },
  { key: "total_cash", label: "Total cash", sublabel: "within the horizon only", hint: "Everything paid over the horizon, unserved work at its shadow price included; not what scenarios are compared on (commitments after the horizon are left out)", cell: (f, c) => plain(money(f.total_cash, c)) },
  {
    key: "unserved_cost",
    label: "Unserved work",
    sublabel: "shadow price, in the totals",
    hint: "Work left undone, priced at the on-demand price of the cheapest catalog offer that could serve it: not a payment, but a cost the decision carries so that doing less never looks cheaper",
    shown: (v) => v.scenarios.some(leavesWorkUndone),
    cell: (f, c) => (leavesWorkUndone(f) ? { text: money(f.unserved_cost, c), tone: "bad" } : plain("none")),
  },
  {
    key: "npv",
    label: "NPV",
    sublabel: "decision basis",
    hint: "Net present value at the workspace discount rate of each month's cash and of the commitments after the horizon, each discounted from the month it falls due",
    cell: (f, c) => plain(money(f.npv, c)),
  },
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
  {
    key: "energy_kwh",
    label: "Energy",
    hint: "Owned hardware: metered at the facility; rented capacity: an estimate",
    cell: (f, c) => energyCell(f.energy_kwh, f.cloud_energy_kwh, (v) => formatQuantity(v, c.locale, "kWh")),
  },
  {
    key: "emissions_kg",
    label: "Emissions",
    hint: "Owned hardware: at the facility's grid; rented capacity: an estimate",
    cell: (f, c) => energyCell(f.emissions_kg, f.cloud_emissions_kg, (v) => `${formatTonnes(v, c.locale)} CO₂e`),
  },
  {
    key: "unmet_pflop_h",
    label: "Unmet demand",
    hint: "Demand no layer could serve",
    cell: (f, c) => ({ text: formatQuantity(f.unmet_pflop_h, c.locale, "PFLOP-h"), tone: signOf(f.unmet_pflop_h) > 0 ? "bad" : null }),
  },
  { key: "residual_value", label: "Residual value", hint: "What owned hardware is assumed to sell for at the horizon (in the totals, as a negative cost)", cell: (f, c) => plain(money(f.residual_value, c)) },
  {
    key: "commitments_after_horizon",
    label: "Commitments after horizon",
    hint: "Committed payments that fall due after the horizon: not in the total cash, in the decision total",
    cell: (f, c) => ({ text: money(f.commitments_after_horizon, c), tone: signOf(f.commitments_after_horizon) > 0 ? "bad" : null }),
  },
  {
    key: "difference_total",
    label: "Decision total vs reference",
    hint: "This scenario's decision total minus the reference's (unserved work and commitments after the horizon included); green: cheaper",
    cell: (f, c) => (f.difference ? difference(f.difference.total, c) : plain("reference")),
  },
  {
    key: "resale_note",
    label: "Of which resale",
    sublabel: "resale assumed at the horizon",
    hint: "How much of the difference rests on resale assumed in the horizon's last month",
    wrap: true,
    cell: resaleCell,
  },
  {
    key: "difference_npv",
    label: "NPV vs reference",
    hint: "This scenario's NPV minus the reference's, on the decision basis; when it names a different winner from the decision total, the note says why",
    cell: (f, c) => (f.difference ? npvDifferenceCell(f.difference, c) : plain("reference")),
  },
  {
    key: "break_even",
    label: "Break-even vs reference",
    hint: "When the cumulative cash of the two last crosses, the scenario cheaper on the decision total being the cheaper after it: the month by whose end, and the crossing in average months from the start; or why there is none within the horizon",
    wrap: true,
    cell: (f, c) => plain(breakEvenText(f, c)),
  },
  {
    key: "buy_vs_rent_hours_per_day",
    label: "Buy beats rent above",
    hint: "Hours of use per owned GPU per day above which owning is cheaper than renting the same work",
    wrap: true,
    cell: buyVsRentCell,
  },
];

/** The rows shown for a comparison. */
export function decisionRows(view: DecisionView): Row[] {
  return DECISION_ROWS.filter((r) => r.shown?.(view) ?? true);
}

/**
 * The engine's words split at its code quotes (scenario and layer ids in backticks): the odd
 * pieces are ids, shown as code.
 */
export function wordPieces(text: string): { text: string; code: boolean }[] {
  return text.split("`").map((t, i) => ({ text: t, code: i % 2 === 1 })).filter((p) => p.text !== "");
}

/** The engine's words with its code quotes dropped, as one plain text: what the presenting
 *  view shows (no code face on a projector), written as one text node per cell. */
export function plainWords(text: string): string {
  return text.split("`").join("");
}
