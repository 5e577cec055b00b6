// The what-if slider (issue #17): its arithmetic (snapping, the value under a pointer, the keys)
// and the component's pointer and keyboard handling.

import { describe, expect, it } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import Slider from "../src/lib/components/Slider.svelte";
import { fractionOf, snap, valueAt, valueForKey } from "../src/lib/slider";

describe("slider arithmetic", () => {
  it("snaps to the step from the minimum, within the range, without float noise", () => {
    expect(snap(52.4, 10, 300, 5)).toBe(50);
    expect(snap(52.6, 10, 300, 5)).toBe(55);
    expect(snap(-3, 10, 300, 5)).toBe(10);
    expect(snap(999, 10, 300, 5)).toBe(300);
    // 0.1 + 0.2 style noise: 0.035 is three steps of 0.005 plus float error.
    expect(snap(0.035000000000000003, 0, 0.6, 0.005)).toBe(0.035);
    expect(snap(1.2300001, 1, 2.5, 0.05)).toBe(1.25);
    expect(snap(-2.26, -10, 20, 0.5)).toBe(-2.5);
    // A range that is not a whole number of steps never snaps past its end.
    expect(snap(10, 0, 9.9, 2)).toBe(8);
    expect(snap(Number.NaN, 10, 300, 5)).toBe(10);
  });

  it("places a value on the track and reads the value under a pointer", () => {
    expect(fractionOf(155, 10, 300)).toBe(0.5);
    expect(fractionOf(5, 10, 300)).toBe(0);
    expect(fractionOf(400, 10, 300)).toBe(1);
    // A 290-pixel track from x = 100: one pixel per unit.
    expect(valueAt(140, 100, 290, 10, 300, 5)).toBe(50);
    expect(valueAt(142, 100, 290, 10, 300, 5)).toBe(50);
    expect(valueAt(50, 100, 290, 10, 300, 5)).toBe(10);
    expect(valueAt(1000, 100, 290, 10, 300, 5)).toBe(300);
    // A track not laid out gives the minimum, not NaN.
    expect(valueAt(140, 0, 0, 10, 300, 5)).toBe(10);
  });

  it("moves by a step on the arrows, a tenth of the range on Page Up/Down, to the ends on Home/End", () => {
    expect(valueForKey("ArrowRight", 100, 10, 300, 5)).toBe(105);
    expect(valueForKey("ArrowUp", 100, 10, 300, 5)).toBe(105);
    expect(valueForKey("ArrowLeft", 100, 10, 300, 5)).toBe(95);
    expect(valueForKey("ArrowDown", 10, 10, 300, 5)).toBe(10);
    expect(valueForKey("PageUp", 100, 10, 300, 5)).toBe(130);
    expect(valueForKey("PageDown", 100, 10, 300, 5)).toBe(70);
    expect(valueForKey("Home", 100, 10, 300, 5)).toBe(10);
    expect(valueForKey("End", 100, 10, 300, 5)).toBe(300);
    // A range of 24 steps of 1: Page moves 2.
    expect(valueForKey("PageUp", 3, 0, 24, 1)).toBe(5);
    expect(valueForKey("Enter", 100, 10, 300, 5)).toBeNull();
  });
});

describe("the slider component", () => {
  function setup(value = 100) {
    const changes: number[] = [];
    const drags: boolean[] = [];
    const { rerender } = render(Slider, {
      props: {
        id: "s",
        min: 10,
        max: 300,
        step: 5,
        value,
        valuetext: `${value} %`,
        labelledby: "l",
        testid: "s",
        onchange: (v: number) => changes.push(v),
        ondrag: (on: boolean) => drags.push(on),
      },
    });
    const thumb = screen.getByTestId("s");
    const track = thumb;
    track.getBoundingClientRect = () => ({ left: 100, top: 0, right: 390, bottom: 22, width: 290, height: 22, x: 100, y: 0, toJSON: () => ({}) });
    return { thumb, track, changes, drags, rerender };
  }

  it("is a labelled, focusable ARIA slider carrying its range and value", () => {
    const { thumb } = setup();
    expect(thumb.getAttribute("role")).toBe("slider");
    expect(thumb.getAttribute("tabindex")).toBe("0");
    expect(thumb.getAttribute("aria-valuemin")).toBe("10");
    expect(thumb.getAttribute("aria-valuemax")).toBe("300");
    expect(thumb.getAttribute("aria-valuenow")).toBe("100");
    expect(thumb.getAttribute("aria-valuetext")).toBe("100 %");
    expect(thumb.getAttribute("aria-labelledby")).toBe("l");
    // 100 is (100 − 10) / 290 of the way along.
    expect((thumb.querySelector(".thumb") as HTMLElement).style.left).toBe(`${(90 / 290) * 100}%`);
  });

  it("follows a drag: down on the track, moves, up; each new value once, the drag's start and end told", async () => {
    const { track, changes, drags } = setup();
    await fireEvent.pointerDown(track, { button: 0, pointerId: 1, clientX: 140 });
    await fireEvent.pointerMove(track, { pointerId: 1, clientX: 141 });
    await fireEvent.pointerMove(track, { pointerId: 1, clientX: 160 });
    await fireEvent.pointerUp(track, { pointerId: 1, clientX: 160 });
    // A move after the drag ended changes nothing.
    await fireEvent.pointerMove(track, { pointerId: 1, clientX: 300 });
    // 140 → 50, 141 → 50 again (not told: 50 is asked already, though this parent never shows
    // it), 160 → 70.
    expect(changes).toEqual([50, 70]);
    expect(drags).toEqual([true, false]);
  });

  it("ignores a secondary button and moves with the keys when focused", async () => {
    const { thumb, track, changes } = setup();
    await fireEvent.pointerDown(track, { button: 2, pointerId: 1, clientX: 140 });
    expect(changes).toEqual([]);
    await fireEvent.keyDown(thumb, { key: "ArrowRight" });
    await fireEvent.keyDown(thumb, { key: "PageDown" });
    await fireEvent.keyDown(thumb, { key: "End" });
    await fireEvent.keyDown(thumb, { key: "a" });
    // Each key steps from the value asked before it, not yet shown: 100 → 105, 105 − 29 → 75
    // (snapped), then the end.
    expect(changes).toEqual([105, 75, 300]);
  });

  it("steps from the shown value once the parent shows what was asked, or focus left", async () => {
    const { thumb, changes, rerender } = setup();
    await fireEvent.keyDown(thumb, { key: "ArrowRight" });
    await rerender({ value: 105, valuetext: "105 %" });
    expect(thumb.getAttribute("aria-valuenow")).toBe("105");
    await fireEvent.keyDown(thumb, { key: "ArrowRight" });
    expect(changes).toEqual([105, 110]);
    // 110 is asked and not shown; the parent goes back to 100 (a reset) and focus left.
    await rerender({ value: 100, valuetext: "100 %" });
    await fireEvent.focusOut(thumb);
    await fireEvent.keyDown(thumb, { key: "ArrowRight" });
    expect(changes).toEqual([105, 110, 105]);
  });
});
