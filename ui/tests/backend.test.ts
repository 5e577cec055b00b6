// TauriBackend's error mapping over a mocked Tauri `invoke`: answers become data, PlannerErrors
// become BackendError, anything else becomes IpcError naming the command; and every generated
// command is a method of it, under the name the bindings invoke. (What the commands answer, and
// that the arguments go by the names Rust reads, is checked on recorded answers: tests/ipc.test.ts
// here, and the Rust test `recorded_answers`, which replays every recorded call through the real
// use cases.)

import { describe, expect, expectTypeOf, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Backend } from "../src/lib/backend";
import type { Catalog } from "../src/lib/catalog-types";
import type { Applied } from "../src/lib/workspace-types";

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

  it("has every generated command, and a refusal names the command the bindings invoke", async () => {
    // The bindings' text: `  name: (args) => typedError<...>(__TAURI_INVOKE("snake_name", ...)),`.
    const bindings = readFileSync(resolve(process.cwd(), "src/lib/ipc/bindings.ts"), "utf8");
    const block = bindings.slice(bindings.indexOf("export const commands = {"), bindings.indexOf("\n};\n"));
    const invoked = [...block.matchAll(/^\t(\w+): \(.*?__TAURI_INVOKE\("(\w+)"/gm)].map((m) => [m[1]!, m[2]!] as const);
    expect(invoked.length).toBeGreaterThanOrEqual(63);
    expect(invoked.length).toBe(block.match(/__TAURI_INVOKE\(/g)!.length);

    const backend = new TauriBackend();
    const methods = Object.getOwnPropertyNames(TauriBackend.prototype).filter((k) => k !== "constructor");
    expect(methods.sort()).toEqual(invoked.map(([key]) => key).sort());

    for (const [key, name] of invoked) {
      invoke.mockClear();
      rejectWith("denied");
      const run = backend[key as keyof Backend] as () => Promise<unknown>;
      const err = await run.call(backend).catch((e: unknown) => e);
      expect(invoke.mock.calls[0]?.[0], key).toBe(name);
      expect(err, key).toBeInstanceOf(IpcError);
      expect((err as Error).message, key).toBe(`The desktop shell refused ${name}: denied`);

      invoke.mockImplementation(() => {
        throw new TypeError("gone");
      });
      const err2 = await run.call(backend).catch((e: unknown) => e);
      expect(err2, key).toBeInstanceOf(IpcError);
      expect((err2 as Error).message, key).toBe(`The desktop shell did not answer ${name}: gone`);
    }
  });

  it("passes the arguments to the generated command as given", async () => {
    invoke.mockResolvedValue(null);
    const backend = new TauriBackend();
    await expect(backend.createIdentity("Ada", "Analytical", null, "secret-phrase")).resolves.toBeNull();
    expect(invoke).toHaveBeenLastCalledWith("create_identity", { name: "Ada", organisation: "Analytical", email: null, passphrase: "secret-phrase" });
    await backend.exportScenarios("/tmp/out.json", ["a", "b"]);
    expect(invoke).toHaveBeenLastCalledWith("export_scenarios", { path: "/tmp/out.json", ids: ["a", "b"] });
  });

  it("is typed as the generated commands answering their data", () => {
    expectTypeOf<InstanceType<typeof TauriBackend>>().toExtend<Backend>();
    expectTypeOf<Backend["getCatalog"]>().returns.resolves.toEqualTypeOf<Catalog>();
    expectTypeOf<Backend["undo"]>().returns.resolves.toEqualTypeOf<Applied | null>();
    expectTypeOf<Backend["closeWorkspace"]>().returns.resolves.toEqualTypeOf<null>();
    expectTypeOf<Backend["exportScenarios"]>().parameters.toEqualTypeOf<[path: string, ids: string[] | null]>();
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
