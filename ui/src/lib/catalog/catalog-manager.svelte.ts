// The Catalog tab (and the start screen's "Browse the catalog"): the catalog the app ships,
// asked for afresh each time the browser is shown, and why it cannot be had when it cannot.

import type { Backend } from "../backend";
import type { Catalog } from "../catalog-types";

export type CatalogLoad = { kind: "loading" } | { kind: "ready"; catalog: Catalog } | { kind: "error"; error: unknown };

export class CatalogManager {
  load: CatalogLoad = $state({ kind: "loading" });
  private readonly backend: Backend;

  constructor(backend: Backend) {
    this.backend = backend;
  }

  /** Loads (again) the shipped catalog. */
  async fetch(): Promise<void> {
    this.load = { kind: "loading" };
    try {
      this.load = { kind: "ready", catalog: await this.backend.getCatalog() };
    } catch (error) {
      this.load = { kind: "error", error };
    }
  }
}
