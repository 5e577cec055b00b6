// TauriBackend over a mocked Tauri `invoke`: answers become data, PlannerErrors become
// BackendError, anything else becomes IpcError.

import { describe, expect, it, vi } from "vitest";

const invoke = vi.fn();
vi.mock("@tauri-apps/api/core", () => ({ invoke: (...args: unknown[]) => invoke(...args) }));

const { TauriBackend } = await import("../src/lib/ipc/tauri-backend");
const { BackendError, IpcError, isPlannerError } = await import("../src/lib/backend");
const { FakeBackend } = await import("../src/lib/ipc/fake-backend");
const { FIXTURE_CATALOG, FIXTURE_CATALOG_INVALID } = await import("./fixtures/catalog");

/** The shell rejecting the call with `value` (as Tauri does with a command's Err). */
const rejectWith = (value: unknown) =>
  invoke.mockImplementation(async () => {
    throw value;
  });

describe("TauriBackend", () => {
  it("calls get_catalog and returns the catalog", async () => {
    invoke.mockResolvedValue(FIXTURE_CATALOG);
    await expect(new TauriBackend().getCatalog()).resolves.toBe(FIXTURE_CATALOG);
    expect(invoke).toHaveBeenCalledWith("get_catalog");
  });

  it("throws a BackendError carrying the PlannerError", async () => {
    rejectWith(FIXTURE_CATALOG_INVALID);
    const err = await new TauriBackend().getCatalog().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as InstanceType<typeof BackendError>).error).toEqual(FIXTURE_CATALOG_INVALID);
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
    expect(isPlannerError(FIXTURE_CATALOG_INVALID)).toBe(true);
    expect(isPlannerError({ code: "io", message: "x", details: [] })).toBe(true);
    expect(isPlannerError({ code: "weird", message: "x", details: [] })).toBe(false);
    expect(isPlannerError({ code: "io", message: "x" })).toBe(false);
    expect(isPlannerError("io")).toBe(false);
    expect(isPlannerError(null)).toBe(false);
  });
});

describe("FakeBackend", () => {
  it("returns a copy of its catalog so tests cannot change each other's data", async () => {
    const backend = new FakeBackend({ catalog: FIXTURE_CATALOG });
    const a = await backend.getCatalog();
    a.accelerators.pop();
    const b = await backend.getCatalog();
    expect(b.accelerators).toHaveLength(FIXTURE_CATALOG.accelerators.length);
    expect(backend.calls).toBe(2);
  });

  it("throws its error as a BackendError", async () => {
    const err = await new FakeBackend({ error: FIXTURE_CATALOG_INVALID }).getCatalog().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
  });
});
