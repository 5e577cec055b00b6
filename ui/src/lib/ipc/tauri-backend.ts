// The production Backend: every generated command of ./bindings through one wrapper, `call`.
// This is the only module allowed to import runtime values from ./bindings.

import { commands } from "./bindings";
import { BackendError, IpcError, describeUnknown, isPlannerError, type Backend } from "../backend";

type Answer<T> = { status: "ok"; data: T } | { status: "error"; error: unknown };

/**
 * Runs one generated command. A PlannerError becomes a BackendError; anything else (the shell
 * not answering, an unknown command, a denied permission, usually a string) an IpcError naming
 * the command.
 */
async function call<T>(command: string, run: () => Promise<Answer<T>>): Promise<T> {
  let result: Answer<T>;
  try {
    result = await run();
  } catch (e) {
    throw new IpcError(`The desktop shell did not answer ${command}: ${describeUnknown(e)}`, e);
  }
  if (result.status === "ok") return result.data;
  // The generated wrapper types every rejection as PlannerError; a failure of the IPC layer
  // itself arrives here too.
  const error: unknown = result.error;
  if (isPlannerError(error)) throw new BackendError(error);
  throw new IpcError(`The desktop shell refused ${command}: ${describeUnknown(error)}`, error);
}

/**
 * The Rust name of a generated command, which the bindings pass to `invoke`: tauri-specta names
 * each function after its command in camelCase (`getCatalog` for `get_catalog`).
 * tests/backend.test.ts checks it for every command against the bindings' text.
 */
function commandName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

// The class has every Backend member (set on its prototype below, so a subclass can override one
// and call `super`).
export interface TauriBackend extends Backend {}

/** The Backend over Tauri: each method runs the generated command of its name through `call`. */
export class TauriBackend {}

for (const key of Object.keys(commands) as (keyof typeof commands)[]) {
  // The generated function itself, called with the arguments as given, so `invoke` receives
  // exactly what the bindings send.
  const run = commands[key] as (...args: unknown[]) => Promise<Answer<unknown>>;
  const command = commandName(key);
  Object.defineProperty(TauriBackend.prototype, key, {
    value: function (...args: unknown[]): Promise<unknown> {
      return call(command, () => run(...args));
    },
    writable: true,
    configurable: true,
  });
}
