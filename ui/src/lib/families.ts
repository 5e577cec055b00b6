// The accelerator families, in the order the catalog browser shows them.

import type { Accelerator, Family } from "./catalog-types";

export const FAMILY_ORDER: readonly Family[] = ["training", "inference", "edge", "domestic", "consumer", "cloud-only"];

export const FAMILY_LABELS: Record<Family, string> = {
  training: "Large-scale training",
  inference: "High-throughput inference",
  edge: "Edge and device",
  domestic: "Domestic alternatives",
  consumer: "Consumer cards",
  "cloud-only": "Cloud-only (TPU)",
};

/** The label of a family; the raw value for one this build does not know. */
export function familyLabel(family: string): string {
  return (FAMILY_LABELS as Record<string, string>)[family] ?? family;
}

export type FamilyGroup = { family: Family; label: string; rows: Accelerator[] };

/**
 * The accelerators by family, every family in FAMILY_ORDER (empty ones included), each keeping
 * the input order. A family this build does not know gets its own group at the end.
 */
export function groupByFamily(accelerators: readonly Accelerator[]): FamilyGroup[] {
  const groups = new Map<string, FamilyGroup>();
  for (const family of FAMILY_ORDER) groups.set(family, { family, label: FAMILY_LABELS[family], rows: [] });
  for (const a of accelerators) {
    let g = groups.get(a.family);
    if (!g) {
      g = { family: a.family, label: familyLabel(a.family), rows: [] };
      groups.set(a.family, g);
    }
    g.rows.push(a);
  }
  return [...groups.values()];
}

/** The number of accelerators per family. */
export function familyCounts(accelerators: readonly Accelerator[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of accelerators) counts.set(a.family, (counts.get(a.family) ?? 0) + 1);
  return counts;
}
