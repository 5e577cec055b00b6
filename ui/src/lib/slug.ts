// Ids for new workloads, scenarios and layers: slugs of their names, unique in their list.
// The back end accepts letters, digits, `-`, `_` and `.`, 1 to 80 characters.

const MAX = 60;

/** "Buy 8 × NVIDIA H100 (SXM5)" → "buy-8-nvidia-h100-sxm5"; "" when nothing usable is left. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX)
    .replace(/-+$/g, "");
}

/**
 * A slug of `name` not in `taken`: the slug itself, else with "-2", "-3", ... appended.
 * `fallback` stands in for a name without letters or digits.
 */
export function uniqueId(name: string, taken: Iterable<string>, fallback: string): string {
  const used = taken instanceof Set ? (taken as Set<string>) : new Set(taken);
  const base = slugify(name) || fallback;
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
