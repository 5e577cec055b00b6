// The one interface the UI uses to reach the back end. The tab managers (lib/<tab>/) hold a
// `Backend`; components never do, and nothing but lib/ipc/ imports the IPC bindings' runtime.
// Production and the tests both use TauriBackend (ipc/tauri-backend.ts); the tests answer Tauri's
// `invoke` with recorded answers of the real use cases (tests/support/transport.ts).
//
// The contract is written once, in Rust: tauri-specta generates `commands` (ipc/bindings.ts) from
// the commands, their arguments, their answers and their doc comments (which editors show on each
// `Backend` member, as the mapped type keeps them). `Backend` is that object's type, with each
// command answering its data or throwing, instead of answering `{ status, data | error }`.

import type { PlannerError } from "./catalog-types";
import type { commands } from "./ipc/bindings";

type Commands = typeof commands;

/** The data of a generated command's answer `{ status: "ok", data } | { status: "error", error }`. */
type Data<Answer> = Extract<Awaited<Answer>, { status: "ok" }> extends { data: infer T } ? T : never;

/**
 * Every back-end command, with the arguments of the generated one, answering its data. Each:
 * @throws BackendError when the back end refuses (its PlannerError is carried along);
 * @throws IpcError when the back end could not be reached or answered something unexpected.
 */
export type Backend = {
  [K in keyof Commands]: (...args: Parameters<Commands[K]>) => Promise<Data<ReturnType<Commands[K]>>>;
};

/** A failure the back end reported, with its `{ code, message, details }`. */
export class BackendError extends Error {
  readonly error: PlannerError;

  constructor(error: PlannerError) {
    super(error.message);
    this.name = "BackendError";
    this.error = error;
  }

  get code(): PlannerError["code"] {
    return this.error.code;
  }
}

/** A failure of the channel to the back end itself (not an answer from it). */
export class IpcError extends Error {
  readonly raw: unknown;

  constructor(message: string, raw: unknown) {
    super(message);
    this.name = "IpcError";
    this.raw = raw;
  }
}

const ERROR_CODES: readonly string[] = [
  "catalog-invalid",
  "io",
  "invalid-input",
  "not-found",
  "workspace-invalid",
  "workspace-newer",
  "workspace-busy",
  "workspace-read-only",
  "no-workspace",
  "cancelled",
  "pack-refused",
  "locked",
];

/** True when `value` has the shape of a PlannerError (as it arrives over IPC). */
export function isPlannerError(value: unknown): value is PlannerError {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.code === "string" &&
    ERROR_CODES.includes(v.code) &&
    typeof v.message === "string" &&
    Array.isArray(v.details) &&
    v.details.every(
      (d) => typeof d === "object" && d !== null && typeof (d as Record<string, unknown>).message === "string",
    )
  );
}

/** Text for an unknown thrown value, for messages. */
export function describeUnknown(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
