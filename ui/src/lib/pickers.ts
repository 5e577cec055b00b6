// Choices the editors offer from the workspace catalog, and the catalog figure each override
// field would otherwise use (shown next to the field, so an override is never entered blind).

import type { Accelerator, Catalog, Figure, Offer } from "./catalog-types";
import { FAMILY_ORDER, familyLabel } from "./families";
import type { OptionGroup, Option } from "./fields";
import { formatFigure, formatMoney } from "./format";
import type { CommitTerm, LayerKind, PricePoint } from "./workspace-types";

/** Accelerators grouped by quadrant family (training, inference, edge, domestic, consumer, cloud-only). */
export function acceleratorGroups(catalog: Catalog, note?: (a: Accelerator) => string | null): OptionGroup[] {
  const groups = new Map<string, Option[]>();
  for (const f of FAMILY_ORDER) groups.set(f, []);
  for (const a of catalog.accelerators) {
    const extra = note?.(a);
    const list = groups.get(a.family) ?? [];
    list.push({ value: a.id, label: extra ? `${a.name} — ${extra}` : a.name });
    groups.set(a.family, list);
  }
  return [...groups.entries()].map(([family, options]) => ({ label: familyLabel(family), options }));
}

/** The catalog price an offer charges for a layer of `kind` (and reserved `term`). */
export function offerPrice(offer: Offer, kind: LayerKind, term: CommitTerm | null): { field: string; figure: Figure | null } {
  switch (kind) {
    case "reserved": {
      // 12 and 36 months take the catalog's 1- and 3-year prices; any other term has none (the
      // engine asks for the quoted price).
      const months = term === null || term === "1y" ? 12 : term === "3y" ? 36 : term.months;
      if (months === 36) return { field: "reserved_3y_per_gpu_hour", figure: offer.reserved_3y_per_gpu_hour };
      if (months === 12) return { field: "reserved_1y_per_gpu_hour", figure: offer.reserved_1y_per_gpu_hour };
      return { field: "price_per_gpu_hour", figure: null };
    }
    case "spot":
      return { field: "spot_per_gpu_hour", figure: offer.spot_per_gpu_hour };
    default:
      return { field: "on_demand_per_gpu_hour", figure: offer.on_demand_per_gpu_hour };
  }
}

/** The offers renting `accelerator`, labelled with the price a layer of `kind` would pay. */
export function offerOptions(catalog: Catalog, accelerator: string | null, kind: LayerKind, term: CommitTerm | null, locale: string): Option[] {
  return catalog.offers
    .filter((o) => accelerator === null || o.accelerator === accelerator)
    .map((o) => {
      const { figure } = offerPrice(o, kind, term);
      const price = figure ? `${formatMoney(figure, o.currency, locale)}/GPU-h` : "no catalog price for this kind";
      return { value: o.id, label: `${o.provider} ${o.sku} (${o.region}) — ${price}` };
    });
}

/**
 * "catalog: 25,000–40,000 USD per GPU (mid point used) · as of 2025-01" for a figure; the point
 * is the one the scenario uses.
 */
export function catalogHint(
  figure: Figure | null | undefined,
  locale: string,
  point: PricePoint,
  unit?: { currency?: string; unit?: string; per?: string },
): string {
  if (!figure) return "no catalog figure: a value is required";
  const text = unit?.currency ? formatMoney(figure, unit.currency, locale) : `${formatFigure(figure, locale)}${unit?.unit ? ` ${unit.unit}` : ""}`;
  const ranged = figure.low !== figure.high;
  return `catalog: ${text}${unit?.per ? ` ${unit.per}` : ""}${ranged ? ` (${point} point used)` : ""} · as of ${figure.provenance.as_of}`;
}
