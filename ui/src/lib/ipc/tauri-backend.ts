// The production Backend: calls the Rust commands through the generated bindings.
// This is the only module allowed to import runtime values from ./bindings.

import { commands } from "./bindings";
import type { Catalog } from "../catalog-types";
import { BackendError, IpcError, describeUnknown, isPlannerError, type Backend } from "../backend";

export class TauriBackend implements Backend {
  async getCatalog(): Promise<Catalog> {
    let result: Awaited<ReturnType<typeof commands.getCatalog>>;
    try {
      result = await commands.getCatalog();
    } catch (e) {
      throw new IpcError(`The desktop shell did not answer get_catalog: ${describeUnknown(e)}`, e);
    }
    if (result.status === "ok") return result.data;
    // The generated wrapper types every rejection as PlannerError; a failure of the IPC layer
    // itself (unknown command, denied permission) arrives here too, usually as a string.
    const error: unknown = result.error;
    if (isPlannerError(error)) throw new BackendError(error);
    throw new IpcError(`The desktop shell refused get_catalog: ${describeUnknown(error)}`, error);
  }
}
