import { describe, expect, it } from "vitest";
import { tabKeyTarget } from "../src/lib/tabs";

describe("tab keys", () => {
  it("steps with wrap-around, jumps with Home and End, and ignores other keys", () => {
    expect(tabKeyTarget("ArrowRight", 1, 4)).toBe(2);
    expect(tabKeyTarget("ArrowRight", 3, 4)).toBe(0);
    expect(tabKeyTarget("ArrowLeft", 0, 4)).toBe(3);
    expect(tabKeyTarget("ArrowLeft", 2, 4)).toBe(1);
    expect(tabKeyTarget("Home", 2, 4)).toBe(0);
    expect(tabKeyTarget("End", 0, 4)).toBe(3);
    expect(tabKeyTarget("Enter", 0, 4)).toBeNull();
  });
});
