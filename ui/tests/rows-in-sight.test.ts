// Issue 17: the decision table's rows out of sight are written when they come into sight or the
// drag rests, and rows written above what is watched keep it in place (WebKit has no scroll
// anchoring).

import { afterEach, describe, expect, it, vi } from "vitest";
import { RowsInSight } from "../src/lib/compare/rows-in-sight";

/** The IntersectionObserver the rows are followed with, driven by the test. */
class SightObserver {
  static last: SightObserver | null = null;
  readonly targets = new Set<Element>();
  readonly margin: string;
  private readonly callback: IntersectionObserverCallback;
  constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
    this.callback = callback;
    this.margin = options?.rootMargin ?? "";
    SightObserver.last = this;
  }
  observe(t: Element): void {
    this.targets.add(t);
  }
  unobserve(t: Element): void {
    this.targets.delete(t);
  }
  disconnect(): void {
    this.targets.clear();
  }
  report(t: Element, seen: boolean): void {
    this.callback([{ target: t, isIntersecting: seen } as unknown as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }
}

/** A row whose box is `top`..`top + height()` in the window. */
function row(top: number, height: () => number): HTMLTableRowElement {
  const tr = document.createElement("tr");
  tr.getBoundingClientRect = () => ({ top, bottom: top + height(), height: height(), left: 0, right: 100, width: 100, x: 0, y: top, toJSON: () => ({}) });
  return tr;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("rows in sight", () => {
  it("writes a row out of sight when it comes into sight, and every waiting row when the drag rests", () => {
    vi.useFakeTimers();
    vi.stubGlobal("IntersectionObserver", SightObserver);
    const sight = new RowsInSight(200);
    const root = document.createElement("div");
    root.getBoundingClientRect = () => ({ top: 100, bottom: 700, height: 600, left: 0, right: 100, width: 100, x: 0, y: 100, toJSON: () => ({}) });
    const a = row(800, () => 20);
    const b = row(900, () => 20);
    const stop = [sight.watch(a), sight.watch(b)];
    sight.observe(root, 300);
    const observer = SightObserver.last!;
    // The panel's 300 px are taken off the top of the scroll area.
    expect(observer.margin).toBe("-300px 0px 0px 0px");
    expect([...observer.targets]).toEqual([a, b]);
    const log: string[] = [];
    // Written once while in sight (a first writing is never held back).
    sight.write(a, () => log.push("a1"), true);
    sight.write(b, () => log.push("b1"), true);
    observer.report(a, false);
    observer.report(b, false);
    // Out of sight during a what-if: the newest writing waits.
    sight.write(a, () => log.push("a2"), true);
    sight.write(b, () => log.push("b2"), true);
    sight.write(b, () => log.push("b3"), true);
    expect(log).toEqual(["a1", "b1"]);
    // Outside a what-if nothing waits.
    sight.write(a, () => log.push("a-saved"), false);
    expect(log).toEqual(["a1", "b1", "a-saved"]);
    sight.write(a, () => log.push("a4"), true);
    // Row b comes into sight: its newest writing runs, a's still waits.
    observer.report(b, true);
    expect(log).toEqual(["a1", "b1", "a-saved", "b3"]);
    vi.advanceTimersByTime(199);
    expect(log).toEqual(["a1", "b1", "a-saved", "b3"]);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(["a1", "b1", "a-saved", "b3", "a4"]);
    for (const s of stop) s();
    expect(observer.targets.size).toBe(0);
  });

  it("moves the scroll by what the rows written above what is watched grew", () => {
    vi.useFakeTimers();
    vi.stubGlobal("IntersectionObserver", SightObserver);
    const sight = new RowsInSight(200);
    const root = document.createElement("div");
    root.getBoundingClientRect = () => ({ top: 100, bottom: 700, height: 600, left: 0, right: 100, width: 100, x: 0, y: 100, toJSON: () => ({}) });
    Object.defineProperty(root, "scrollTop", { value: 1000, writable: true });
    // The panel covers 100..400; row "up" ends at 380 (under it), row "down" starts at 750.
    let upHeight = 40;
    let downHeight = 40;
    const up = row(340, () => upHeight);
    const down = row(750, () => downHeight);
    sight.watch(up);
    sight.watch(down);
    sight.observe(root, 300);
    sight.write(up, () => {}, true);
    sight.write(down, () => {}, true);
    SightObserver.last!.report(up, false);
    SightObserver.last!.report(down, false);
    sight.write(up, () => (upHeight = 64), true);
    sight.write(down, () => (downHeight = 90), true);
    vi.advanceTimersByTime(200);
    // Only the row above moved what is watched: 24 px further down the page.
    expect(root.scrollTop).toBe(1024);
  });

  it("writes every row at once without an IntersectionObserver", () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    const sight = new RowsInSight(200);
    const tr = document.createElement("tr");
    const stop = sight.observe(document.createElement("div"), 300);
    const log: string[] = [];
    sight.write(tr, () => log.push("1"), true);
    sight.write(tr, () => log.push("2"), true);
    expect(log).toEqual(["1", "2"]);
    stop();
  });
});
