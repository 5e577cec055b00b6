// Keyboard movement in a tab list (WAI-ARIA tabs, automatic activation): ←/→ step with
// wrap-around, Home and End go to the first and last tab.

/** The index of the tab `key` moves to from tab `index` of `count`; null for any other key. */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  const last = count - 1;
  return key === "ArrowRight" ? (index === last ? 0 : index + 1)
    : key === "ArrowLeft" ? (index === 0 ? last : index - 1)
    : key === "Home" ? 0
    : key === "End" ? last
    : null;
}
