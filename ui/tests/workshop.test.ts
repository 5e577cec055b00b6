// Issue 17, workshop mode on the engine's recorded answers for the enterprise-hybrid sample: the
// what-if drivers (what each replaces, the table following a slider, the saved figure shown as
// "was", keep as scenario in one undo step, reset), the baseline lock (the banner, a locked
// scenario's edit refused with how to unlock) and the presenting view (full window, large type,
// the what-if marked, the views stepped with the arrow keys, Esc leaving).

import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import type { Backend } from "../src/lib/backend";
import { driverValue, DRIVERS, horizonAt, outOfRange } from "../src/lib/compare/what-if-manager.svelte";
import { formatCurrency } from "../src/lib/money";
import { enterpriseSession } from "./support/sessions";

async function openCompare(backend: Backend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "3", ctrlKey: true });
  await screen.findByTestId("compare-table");
}

const slider = (kind: string) => screen.getByTestId(`what-if-slider-${kind}`);

/** Drags driver `kind`'s slider to `value` as a pointer would: down on the track where `value`
 *  lies (the track laid out as one pixel per unit, since jsdom lays nothing out), then up. */
async function slideTo(kind: string, value: number): Promise<void> {
  const thumb = slider(kind);
  const track = thumb;
  const min = Number(thumb.getAttribute("aria-valuemin"));
  const max = Number(thumb.getAttribute("aria-valuemax"));
  track.getBoundingClientRect = () => ({ left: 0, top: 0, right: max - min, bottom: 22, width: max - min, height: 22, x: 0, y: 0, toJSON: () => ({}) });
  await fireEvent.pointerDown(track, { button: 0, pointerId: 1, clientX: value - min });
  await fireEvent.pointerUp(track, { button: 0, pointerId: 1, clientX: value - min });
}
const total = (id: string) => screen.getByTestId(`figure-${id}-decision_total`).textContent ?? "";

/** An IntersectionObserver the test drives (the test DOM has none): it keeps what it observes,
 *  and `report` tells the page that a target came into or went out of sight. */
class SightObserver {
  static made: SightObserver[] = [];
  readonly targets = new Set<Element>();
  private readonly callback: IntersectionObserverCallback;
  constructor(callback: IntersectionObserverCallback) {
    this.callback = callback;
    SightObserver.made.push(this);
  }
  observe(target: Element): void {
    this.targets.add(target);
  }
  unobserve(target: Element): void {
    this.targets.delete(target);
  }
  disconnect(): void {
    this.targets.clear();
  }
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }
  report(target: Element, seen: boolean): void {
    this.callback([{ target, isIntersecting: seen } as unknown as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }
}

/** Reports every figure row of the decision table in sight (`seen`) or out of it. */
function reportRows(seen: boolean, only?: Element): void {
  for (const o of SightObserver.made) for (const t of o.targets) if (t.tagName === "TR" && (!only || t === only)) o.report(t, seen);
}

describe("what-if drivers", () => {
  it("shows a dragged driver's value as text while the drag lasts, and the typed field again after", async () => {
    const { backend, host } = await enterpriseSession();
    await openCompare(backend);
    await fireEvent.click(screen.getByTestId("what-if-open"));
    await waitFor(() => expect(screen.getByTestId("what-if-replaces-demand").textContent).toContain("replaces"));
    const track = slider("demand");
    track.getBoundingClientRect = () => ({ left: 0, top: 0, right: 290, bottom: 22, width: 290, height: 22, x: 0, y: 0, toJSON: () => ({}) });
    await fireEvent.pointerDown(track, { button: 0, pointerId: 1, clientX: 40 });
    expect(screen.queryByTestId("what-if-input-demand")).toBeNull();
    // A move is shown with the figures it moved: once its answer is in.
    await waitFor(() => expect(screen.getByTestId("what-if-readout-demand").textContent).toBe("50"));
    await fireEvent.pointerMove(track, { pointerId: 1, clientX: 50 });
    await waitFor(() => expect(screen.getByTestId("what-if-readout-demand").textContent).toBe("60"));
    expect(track.getAttribute("aria-valuenow")).toBe("60");
    await fireEvent.pointerUp(track, { pointerId: 1, clientX: 50 });
    expect(screen.queryByTestId("what-if-readout-demand")).toBeNull();
    expect((screen.getByTestId("what-if-input-demand") as HTMLInputElement).value).toBe("60");
    await screen.findByTestId("what-if-active");
    // The newest move's comparison is the last asked for, and it has been answered.
    await waitFor(() => {
      const sent = host.sent("compare_what_if") as { whatIf: { drivers: { value: string }[] } }[];
      expect(sent.at(-1)?.whatIf.drivers[0]?.value).toBe("0.6");
      expect(track.getAttribute("aria-valuenow")).toBe("60");
    });
  });

  it("writes the table rows out of sight when they come into sight or the drag rests", async () => {
    SightObserver.made = [];
    vi.stubGlobal("IntersectionObserver", SightObserver);
    try {
      const { backend } = await enterpriseSession();
      await openCompare(backend);
      const saved = total("hybrid");
      const savedNpv = screen.getByTestId("figure-hybrid-npv").textContent;
      await fireEvent.click(screen.getByTestId("what-if-open"));
      await waitFor(() => expect(screen.getByTestId("what-if-replaces-demand").textContent).toContain("replaces"));
      // The charts are watched: every row of the table is scrolled away under the panel.
      reportRows(false);
      const track = slider("demand");
      track.getBoundingClientRect = () => ({ left: 0, top: 0, right: 290, bottom: 22, width: 290, height: 22, x: 0, y: 0, toJSON: () => ({}) });
      await fireEvent.pointerDown(track, { button: 0, pointerId: 1, clientX: 40 });
      await waitFor(() => expect(screen.getByTestId("what-if-readout-demand").textContent).toBe("50"));
      // The move's answer is on screen (the panel shows it) but the rows out of sight wait.
      expect(screen.getByTestId("what-if-active").textContent).toContain("demand");
      expect(total("hybrid")).toBe(saved);
      // The total's row comes into sight: it is written, the others still wait.
      const totalRow = screen.getByTestId("figure-hybrid-decision_total").closest("tr")!;
      reportRows(true, totalRow);
      expect(total("hybrid")).not.toBe(saved);
      expect(screen.getByTestId("was-hybrid-decision_total").textContent).toBe(`was ${saved}`);
      expect(screen.getByTestId("figure-hybrid-npv").textContent).toBe(savedNpv);
      // The drag rests: within a fifth of a second every waiting row is written.
      await fireEvent.pointerMove(track, { pointerId: 1, clientX: 50 });
      await fireEvent.pointerUp(track, { pointerId: 1, clientX: 50 });
      await waitFor(() => expect(screen.getByTestId("figure-hybrid-npv").textContent).not.toBe(savedNpv), { timeout: 1000 });
      expect(screen.getByTestId("was-hybrid-npv").textContent).toBe(`was ${savedNpv}`);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("shows what each driver replaces, follows a slider, keeps the what-if as a scenario and undoes it", async () => {
    const { backend, host } = await enterpriseSession();
    await openCompare(backend);
    const saved = total("hybrid");
    await fireEvent.click(screen.getByTestId("what-if-open"));
    await waitFor(() => expect(screen.getByTestId("what-if-replaces-gpu-price").textContent).toContain("replaces"));
    // The GPU price the plan uses, from the engine's bases.
    const bases = (await backend.compareWhatIf({ drivers: [], scenario: null }, "light", null)).bases;
    const gpu = bases.find((b) => b.kind === "gpu-price")!;
    expect(Number(gpu.low)).toBeGreaterThan(0);
    expect(screen.getByTestId("what-if-replaces-gpu-price").textContent).toContain(Number(gpu.low).toLocaleString("en-US"));

    // Half the demand: the table shows the engine's what-if figures, the saved ones as "was".
    await slideTo("demand", 50);
    await waitFor(() => expect(total("hybrid")).not.toBe(saved));
    const sent = host.sent("compare_what_if") as { whatIf: { drivers: { kind: string; value: string }[] } }[];
    expect(sent.at(-1)!.whatIf.drivers).toEqual([{ kind: "demand", value: "0.5" }]);
    const expected = await backend.compareWhatIf({ drivers: [{ kind: "demand", value: "0.5" }], scenario: null }, "light", null);
    const hybrid = expected.screen.comparison.view!.scenarios.find((s) => s.id === "hybrid")!;
    expect(total("hybrid")).toContain(formatCurrency(hybrid.decision_total, "USD", "en-US"));
    expect(screen.getByTestId("was-hybrid-decision_total").textContent).toBe(`was ${saved}`);
    expect(screen.getByTestId("what-if-active").textContent).toContain("demand");
    expect(screen.getByTestId("what-if-mark-demand").textContent).toBe("what-if");

    // An answer carries one monthly chart, the one shown (the first scenario's until another is
    // picked); picking another asks again for it.
    expect(expected.screen.monthly.map((m) => m.scenario)).toEqual([expected.screen.comparison.view!.scenarios[0]!.id]);
    await fireEvent.click(screen.getByTestId("monthly-pick-all-cloud"));
    await waitFor(() => expect(screen.getByTestId("chart-monthly").textContent).toContain("Reserved H100 for the base, on-demand for bursts: cash per month"));
    const asked = host.sent("compare_what_if") as { monthly: string | null }[];
    expect(asked.at(-1)!.monthly).toBe("all-cloud");
    expect(screen.getByTestId("monthly-pick-all-cloud").getAttribute("aria-pressed")).toBe("true");

    // Keep it: a new scenario with the workshop's reason, compared; undo takes it away.
    const before = (await backend.session()).workspace!.scenarios.length;
    await fireEvent.click(screen.getByTestId("what-if-keep"));
    await waitFor(() => expect(screen.getByTestId("notice").textContent).toContain("Kept the what-if as"));
    const after = (await backend.session()).workspace!;
    expect(after.scenarios).toHaveLength(before + 1);
    const kept = after.scenarios.at(-1)!;
    expect(after.view.selected).toContain(kept.id);
    const spec = await backend.getScenario(kept.id);
    expect(spec.demand_scale?.value).toBe("0.5");
    expect(spec.demand_scale?.reason).toMatch(/^workshop what-if, \d{4}-\d{2}-\d{2}$/);
    // The drivers were cleared: the saved figures are back.
    await waitFor(() => expect(screen.queryByTestId("what-if-active")).toBeNull());
    await fireEvent.click(screen.getByTestId("undo"));
    await waitFor(async () => expect((await backend.session()).workspace!.scenarios).toHaveLength(before));
  });

  it("refuses a typed value outside a driver's range and resets to the saved figures", async () => {
    const { backend } = await enterpriseSession();
    await openCompare(backend);
    const saved = total("all-cloud");
    await fireEvent.click(screen.getByTestId("what-if-open"));
    await screen.findByTestId("what-if");
    await fireEvent.change(screen.getByTestId("what-if-input-on-demand-rate"), { target: { value: "900" } });
    expect(screen.getByRole("alert").textContent).toBe("On-demand rates: from 30 to 200 % of plan.");
    await fireEvent.change(screen.getByTestId("what-if-input-reserved-rate"), { target: { value: "70" } });
    await waitFor(() => expect(total("all-cloud")).not.toBe(saved));
    await fireEvent.click(screen.getByTestId("what-if-reset"));
    await waitFor(() => expect(total("all-cloud")).toBe(saved));
  });
});

describe("driver values", () => {
  it("sends percentages as multipliers and fractions, and the horizon as a choice", () => {
    const def = (k: string) => DRIVERS.find((d) => d.kind === k)!;
    expect(driverValue(def("demand"), 50)).toBe("0.5");
    expect(driverValue(def("growth"), 2.5)).toBe("0.025");
    expect(driverValue(def("tariff"), 0.185)).toBe("0.185");
    expect(driverValue(def("pue"), 1.35)).toBe("1.35");
    expect(driverValue(def("discount-rate"), 7)).toBe("0.07");
    expect(driverValue(def("horizon"), 3)).toBe("60");
    expect(horizonAt(0)).toBe(12);
    expect(outOfRange(def("pue"), 0.9)).toBe("PUE: from 1 to 2.5.");
    expect(outOfRange(def("lead-time"), 6)).toBeNull();
  });
});

describe("baseline lock", () => {
  it("locks the compared set, says so, and refuses an edit of a locked scenario with how to unlock", async () => {
    const { backend } = await enterpriseSession();
    await openCompare(backend);
    await fireEvent.click(screen.getByTestId("lock-baseline"));
    const banner = await screen.findByTestId("lock-banner");
    expect(banner.textContent).toContain("Baseline locked");
    expect(banner.textContent).toContain("Two DGX H100");
    expect(screen.getByTestId("locked-hybrid").textContent).toContain("locked");
    const lock = (await backend.session()).workspace!.lock!;
    expect(lock.scenarios).toEqual(["hybrid", "all-cloud"]);

    await fireEvent.keyDown(document.body, { key: "2", ctrlKey: true });
    await fireEvent.click(await screen.findByTestId("scenario-row-hybrid"));
    expect((await screen.findByTestId("scenario-locked")).textContent).toContain("Unlock it on the Compare tab");
    const name = (await screen.findByTestId("scenario-name")) as HTMLInputElement;
    await fireEvent.input(name, { target: { value: "Renamed in the workshop" } });
    await fireEvent.change(name, { target: { value: "Renamed in the workshop" } });
    const notice = await screen.findByTestId("notice", {}, { timeout: 5000 });
    await waitFor(() => expect(notice.textContent).toMatch(/locked/));
    expect(notice.textContent).toMatch(/[Uu]nlock/);
    expect((await backend.getScenario("hybrid")).name).not.toBe("Renamed in the workshop");

    // Unlocked, the same edit is saved.
    await fireEvent.keyDown(document.body, { key: "3", ctrlKey: true });
    await fireEvent.click(await screen.findByTestId("unlock-baseline"));
    await waitFor(() => expect(screen.queryByTestId("lock-banner")).toBeNull());
    expect((await backend.session()).workspace!.lock).toBeNull();
  });
});

describe("presenting", () => {
  it("covers the window in large type, marks a what-if, steps the views with the arrow keys and leaves on Esc", async () => {
    const { backend, host } = await enterpriseSession();
    await openCompare(backend);
    await fireEvent.click(screen.getByTestId("what-if-open"));
    await screen.findByTestId("what-if");
    await slideTo("demand", 80);
    await screen.findByTestId("what-if-active");
    // The move's comparison has been asked for and answered.
    await waitFor(() => {
      const sent = host.sent("compare_what_if") as { whatIf: { drivers: { value: string }[] } }[];
      expect(sent.at(-1)?.whatIf.drivers[0]?.value).toBe("0.8");
      expect(screen.queryByText("computing…")).toBeNull();
    });
    (document.activeElement as HTMLElement | null)?.blur();
    await fireEvent.keyDown(window, { key: "F5" });
    const view = await screen.findByTestId("presenting");
    expect(view.dataset.view).toBe("0");
    expect(within(view).getByTestId("presenting-what-if").textContent).toContain("demand 80%");
    await waitFor(() => expect(within(view).getByTestId("presenting-table").textContent).toContain("Decision total"));
    for (const step of ["1", "2", "3", "0"]) {
      await fireEvent.keyDown(window, { key: "ArrowRight" });
      expect(screen.getByTestId("presenting").dataset.view).toBe(step);
    }
    await fireEvent.keyDown(window, { key: "ArrowLeft" });
    expect(screen.getByTestId("presenting").dataset.view).toBe("3");
    expect(screen.getByTestId("presenting-detail").textContent).toContain("Decision total");
    // ↓ picks the next scenario: the what-if is asked again for its monthly chart.
    await fireEvent.keyDown(window, { key: "ArrowDown" });
    await waitFor(() => expect((host.sent("compare_what_if") as { monthly: string | null }[]).at(-1)!.monthly).toBe("all-cloud"));
    await waitFor(() => expect(screen.getByTestId("presenting-monthly-summary").textContent).not.toBe(""));
    await fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("presenting")).toBeNull());
  });
});
