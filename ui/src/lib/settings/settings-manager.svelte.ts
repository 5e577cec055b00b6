// The workspace settings panel: a local copy of the settings, each change saved at once as a
// "settings" edit (typing in one field is one undo step), and the engine's problems per field.
// An undo or redo that changes the settings replaces the copy unless our own edits are pending.

import { TrustedKeysManager } from "../catalog/trusted-keys-manager.svelte";
import type { WorkspaceStore } from "../workspace.svelte";
import type { FxRate, WorkspaceSettings } from "../workspace-types";

export type FxField = "base" | "quote" | "rate" | "source";

/**
 * A rate in the market form (1 base = rate quote). An older entry `{currency, rate}` (1 currency =
 * rate units of the workspace's currency) is the same rate with base = currency and quote = the
 * workspace's currency.
 */
export function marketForm(r: FxRate, currency: string): FxRate {
  if (r.currency === null) return r;
  return { base: r.currency, quote: currency, currency: null, rate: r.rate, source: r.source };
}

export class SettingsManager {
  local: WorkspaceSettings;
  private readonly store: WorkspaceStore;
  /** The catalog publishers this computer trusts (kept outside the workspace). */
  readonly keys: TrustedKeysManager;
  /** Our own edits not answered yet. */
  private inFlight = 0;

  constructor(store: WorkspaceStore) {
    this.store = store;
    this.local = $state(structuredClone(store.info.settings));
    this.keys = new TrustedKeysManager(store.backend);
  }

  /** Follows changes of the settings made elsewhere (undo, redo); returns the way to stop. */
  attach(): () => void {
    return this.store.onChange((changed) => {
      for (const c of changed) {
        if (c.kind === "settings" && this.inFlight === 0) this.local = structuredClone(c.settings);
      }
    });
  }

  /** The engine's problems with settings field `field`. */
  problems(field: string): string[] {
    return this.store.workspaceProblems.filter((p) => p.subject.kind === "settings" && p.field === field).map((p) => p.message);
  }

  /** Applies `apply` to the local copy and saves the whole settings (coalesced per field). */
  change(field: string, label: string, apply: (s: WorkspaceSettings) => void): void {
    apply(this.local);
    this.inFlight += 1;
    void this.store
      .edit({
        edit: { kind: "settings", settings: $state.snapshot(this.local) as WorkspaceSettings },
        label: `Edit settings: ${label}`,
        coalesce: `settings.${field}`,
      })
      .finally(() => (this.inFlight -= 1));
  }

  // A rate is written as the market quotes it, 1 base = rate quote, one side being the
  // workspace's currency. Catalog prices are USD, so a new rate prices the dollar.
  addFx(): void {
    this.change("fx", "exchange rates", (s) =>
      s.fx.push(
        s.currency === "USD"
          ? { base: "EUR", quote: "USD", currency: null, rate: "1", source: "" }
          : { base: s.currency, quote: "USD", currency: null, rate: "1", source: "" },
      ),
    );
  }

  removeFx(i: number): void {
    this.change("fx", "exchange rates", (s) => s.fx.splice(i, 1));
  }

  setFx(i: number, key: FxField, value: string): void {
    this.change(`fx[${i}].${key}`, `exchange rate ${key}`, (s) => {
      const r = s.fx[i];
      if (!r) return;
      const m = marketForm(r, s.currency);
      m[key] = value;
      s.fx[i] = m;
    });
  }
}
