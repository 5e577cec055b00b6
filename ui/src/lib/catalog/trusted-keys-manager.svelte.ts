// The catalog publishers this computer trusts (Settings): the publisher key shipped with the app,
// which cannot be removed, and the keys the user adds by pasting a publisher's public key. Kept
// in the app's configuration folder, not in the workspace: trust belongs to the computer.

import type { Backend } from "../backend";
import { errorText } from "../errors";
import type { TrustedKey } from "../workspace-types";

export class TrustedKeysManager {
  keys: TrustedKey[] | null = $state.raw(null);
  error: string | null = $state(null);
  publicKey = $state("");
  label = $state("");
  private readonly backend: Backend;

  constructor(backend: Backend) {
    this.backend = backend;
  }

  async load(): Promise<void> {
    await this.run(() => this.backend.packKeys());
  }

  async add(): Promise<void> {
    const done = await this.run(() => this.backend.addPackKey(this.publicKey, this.label));
    if (done) {
      this.publicKey = "";
      this.label = "";
    }
  }

  async remove(id: string): Promise<void> {
    await this.run(() => this.backend.removePackKey(id));
  }

  private async run(call: () => Promise<TrustedKey[]>): Promise<boolean> {
    try {
      this.keys = await call();
      this.error = null;
      return true;
    } catch (error) {
      this.error = errorText(error, { details: "none" });
      return false;
    }
  }
}
