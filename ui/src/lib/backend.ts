// The one interface the UI uses to reach the back end. Components receive a `Backend`;
// they never import the IPC bindings. Production uses TauriBackend (ipc/tauri-backend.ts),
// tests use FakeBackend (ipc/fake-backend.ts).

import type { Catalog, PlannerError } from "./catalog-types";

export interface Backend {
  /**
   * The catalog, freshly read and checked by the back end.
   * @throws BackendError when the back end refuses (its PlannerError is carried along);
   * @throws IpcError when the back end could not be reached or answered something unexpected.
   */
  getCatalog(): Promise<Catalog>;
}

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

const ERROR_CODES: readonly string[] = ["catalog-invalid", "io", "invalid-input", "not-found"];

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
