// TauriBackend's error mapping over a mocked Tauri `invoke`: answers become data, PlannerErrors
// become BackendError, anything else becomes IpcError. (What the commands answer, and that the
// arguments go by the names Rust reads, is checked on recorded answers: tests/ipc.test.ts here,
// and the Rust test `recorded_answers`, which replays every recorded call through the real use
// cases.)

import { describe, expect, it, vi } from "vitest";

const invoke = vi.fn();
vi.mock("@tauri-apps/api/core", () => ({ invoke: (...args: unknown[]) => invoke(...args) }));

const { TauriBackend } = await import("../src/lib/ipc/tauri-backend");
const { BackendError, IpcError, isPlannerError } = await import("../src/lib/backend");

/** A refusal shaped as the back end sends one (its content does not matter here). */
const REFUSAL = {
  code: "catalog-invalid",
  message: "The catalog has 1 error; nothing from the affected files was loaded.",
  details: [{ file: "accelerators.toml", line: 42, column: 13, field: "accelerator[3].price_usd.low", kind: "malformed-number", message: "`25,000` is not a number" }],
};

/** The shell rejecting the call with `value` (as Tauri does with a command's Err). */
const rejectWith = (value: unknown) =>
  invoke.mockImplementation(async () => {
    throw value;
  });

describe("TauriBackend", () => {
  it("calls the command by its name and returns its answer as sent", async () => {
    const answer = { workspace: null, launch_error: null, recent: [] };
    invoke.mockResolvedValue(answer);
    await expect(new TauriBackend().session()).resolves.toBe(answer);
    expect(invoke).toHaveBeenLastCalledWith("session");
  });

  it("throws a BackendError carrying the PlannerError", async () => {
    rejectWith(REFUSAL);
    const err = await new TauriBackend().getCatalog().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as InstanceType<typeof BackendError>).error).toEqual(REFUSAL);
    expect((err as InstanceType<typeof BackendError>).code).toBe("catalog-invalid");
  });

  it("throws an IpcError for a rejection that is not a PlannerError", async () => {
    rejectWith("command get_catalog not found");
    const err = await new TauriBackend().getCatalog().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpcError);
    expect((err as Error).message).toContain("command get_catalog not found");

    rejectWith(new TypeError("window.__TAURI_INTERNALS__ is undefined"));
    const err2 = await new TauriBackend().getCatalog().catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(IpcError);
    expect((err2 as Error).message).toContain("__TAURI_INTERNALS__");
  });
});

describe("PlannerError shape check", () => {
  it("accepts the back end's error and refuses other values", () => {
    expect(isPlannerError(REFUSAL)).toBe(true);
    expect(isPlannerError({ code: "io", message: "x", details: [] })).toBe(true);
    expect(isPlannerError({ code: "workspace-busy", message: "x", details: [] })).toBe(true);
    expect(isPlannerError({ code: "weird", message: "x", details: [] })).toBe(false);
    expect(isPlannerError({ code: "io", message: "x" })).toBe(false);
    expect(isPlannerError("io")).toBe(false);
    expect(isPlannerError(null)).toBe(false);
  });
});
