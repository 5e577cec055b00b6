// Stale catalog figures as the catalog browser marks them: the back end weighs every figure's
// as-of date against the workspace's thresholds (cloud prices, everything else) and lists the
// stale ones; the tables ask by entry id and field.

import type { StaleFigure } from "../workspace-types";

/** The reason a figure is stale, or null; `field` as the table's cell names it. */
export type StaleOf = (entry: string, field: string) => string | null;

/** The Svelte context key under which CatalogView hands its tables a `StaleOf`. */
export const STALE_CONTEXT = "catalog-stale";

/** Looks up `stale` by entry and field (a list's first item for nested fields such as `points[0].share`). */
export function staleLookup(stale: readonly StaleFigure[]): StaleOf {
  const byKey = new Map<string, StaleFigure>();
  for (const s of stale) {
    byKey.set(`${s.entry}\u0000${s.field}`, s);
  }
  return (entry, field) => {
    const s = byKey.get(`${entry}\u0000${field}`);
    return s === undefined ? null : staleText(s);
  };
}

/** "Stale: as of 2026-03, 8 months old (cloud prices: 6 months)". */
export function staleText(s: StaleFigure): string {
  const what = s.kind === "offer" ? "cloud prices" : "hardware and other figures";
  return `Stale: as of ${s.as_of}, ${s.age_months} months old (threshold for ${what}: ${s.limit_months} months)`;
}
