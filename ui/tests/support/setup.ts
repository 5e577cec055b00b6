// Runs before every test file: the Tauri `invoke` the generated bindings call answers from the
// test's recorded session (tests/support/recorded.ts), which each test ends.

import { afterAll, afterEach, vi } from "vitest";
import { finishSession, stopHostServer } from "./transport";

vi.mock("@tauri-apps/api/core", async () => {
  const recorded = await import("./transport");
  return { invoke: recorded.invoke };
});

afterEach(finishSession);
afterAll(stopHostServer);
