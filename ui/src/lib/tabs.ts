// The workspace window's tabs, in order (Ctrl+1..7 follow it), and keyboard movement in the tab
// list (WAI-ARIA tabs, automatic activation): ←/→ step with wrap-around, Home and End go to the
// first and last tab. Each tab's screen state lives in its manager, `lib/<tab>/`.

export const TABS = [
  { id: "workloads", label: "Workloads" },
  { id: "scenarios", label: "Scenarios" },
  { id: "compare", label: "Compare" },
  { id: "catalog", label: "Catalog" },
  { id: "memo", label: "Memo" },
  { id: "compliance", label: "Compliance" },
  { id: "vendors", label: "Vendors" },
] as const;

export type TabId = (typeof TABS)[number]["id"];

/** The index of the tab `key` moves to from tab `index` of `count`; null for any other key. */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  const last = count - 1;
  return key === "ArrowRight" ? (index === last ? 0 : index + 1)
    : key === "ArrowLeft" ? (index === 0 ? last : index - 1)
    : key === "Home" ? 0
    : key === "End" ? last
    : null;
}
