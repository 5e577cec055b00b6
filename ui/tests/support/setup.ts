// Runs before every test file: the Tauri `invoke` the generated bindings call answers from the
// test's recorded session (tests/support/recorded.ts), which each test ends.

import { afterAll, afterEach, vi } from "vitest";
import { finishSession, stopHostServer } from "./transport";

vi.mock("@tauri-apps/api/core", async () => {
  const recorded = await import("./transport");
  return { invoke: recorded.invoke };
});

// jsdom has no matchMedia, which uPlot (the compare charts) reads when it loads: a screen that
// matches no media query (light theme, pixel ratio 1).
if (typeof window.matchMedia !== "function") {
  window.matchMedia = ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

afterEach(finishSession);
afterAll(stopHostServer);
