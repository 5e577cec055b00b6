// Sorting of table rows by a column. Numbers sort by the figure's low end, then its high end
// (so a range sorts where it starts, and among equal starts the narrower range comes first);
// text sorts by the locale's collation with numeric segments ("H20" before "H100"); missing
// values always come last, in both directions.

import type { Figure } from "./catalog-types";

export type SortDir = "asc" | "desc";

/** The sort state of one table: which column and which way; null keeps the catalog's order. */
export type SortState = { column: string; dir: SortDir } | null;

/** What a cell sorts by; null for a missing value. */
export type SortKey = { kind: "num"; low: number; high: number } | { kind: "text"; text: string } | null;

/** The sort key of a figure: its low and high ends as numbers; null when missing. */
export function figureKey(figure: Figure | null | undefined): SortKey {
  if (!figure) return null;
  const low = Number(figure.low);
  const high = Number(figure.high);
  if (!Number.isFinite(low)) return null;
  return { kind: "num", low, high: Number.isFinite(high) ? high : low };
}

export function numberKey(value: number | null | undefined): SortKey {
  return value === null || value === undefined || !Number.isFinite(value)
    ? null
    : { kind: "num", low: value, high: value };
}

export function textKey(value: string | null | undefined): SortKey {
  return value === null || value === undefined || value.trim() === "" ? null : { kind: "text", text: value };
}

const collators = new Map<string, Intl.Collator>();

function collator(locale: string): Intl.Collator {
  let c = collators.get(locale);
  if (!c) {
    c = new Intl.Collator(locale, { numeric: true, sensitivity: "base" });
    collators.set(locale, c);
  }
  return c;
}

/** Compares two present keys ascending. Numbers come before text if a column mixes them. */
function compareAsc(a: NonNullable<SortKey>, b: NonNullable<SortKey>, locale: string): number {
  if (a.kind === "num" && b.kind === "num") return a.low - b.low || a.high - b.high;
  if (a.kind === "text" && b.kind === "text") return collator(locale).compare(a.text, b.text);
  return a.kind === "num" ? -1 : 1;
}

/** Compares two keys in the given direction, missing values last either way. */
export function compareKeys(a: SortKey, b: SortKey, dir: SortDir, locale = "en-US"): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const c = compareAsc(a, b, locale);
  return dir === "asc" ? c : -c;
}

/** A sorted copy of `rows` (stable: equal keys keep the catalog's order). */
export function sortRows<T>(rows: readonly T[], key: (row: T) => SortKey, dir: SortDir, locale = "en-US"): T[] {
  return rows
    .map((row, index) => ({ row, index, key: key(row) }))
    .sort((a, b) => compareKeys(a.key, b.key, dir, locale) || a.index - b.index)
    .map((e) => e.row);
}

/** The state after activating a column's header: a new column sorts ascending, the same one flips. */
export function nextSort(current: SortState, column: string): SortState {
  if (current?.column === column) return { column, dir: current.dir === "asc" ? "desc" : "asc" };
  return { column, dir: "asc" };
}

/** The aria-sort value of a column header. */
export function ariaSort(state: SortState, column: string): "ascending" | "descending" | "none" {
  if (state?.column !== column) return "none";
  return state.dir === "asc" ? "ascending" : "descending";
}
