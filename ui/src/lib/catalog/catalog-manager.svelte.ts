// The catalog browser's data. On the start screen ("Browse the catalog"): the catalog the app
// ships. In a workspace's Catalog tab: the workspace's own snapshot (what its numbers come from),
// with where it came from (its pack signature checked again) and its stale figures, asked for
// again whenever the snapshot changes (a pack applied, an update, their undo).

import type { Backend } from "../backend";
import type { Catalog } from "../catalog-types";
import type { CatalogFreshness } from "../workspace-types";
import type { WorkspaceStore } from "../workspace.svelte";

export type CatalogLoad =
  | { kind: "loading" }
  | { kind: "ready"; catalog: Catalog; freshness: CatalogFreshness | null }
  | { kind: "error"; error: unknown };

export class CatalogManager {
  load: CatalogLoad = $state({ kind: "loading" });
  private readonly backend: Backend;
  private readonly store: WorkspaceStore | null;

  /** `store`: the workspace whose snapshot to show; absent: the shipped catalog. */
  constructor(backend: Backend, store: WorkspaceStore | null = null) {
    this.backend = backend;
    this.store = store;
  }

  /** Loads (again) the catalog. */
  async fetch(): Promise<void> {
    this.load = { kind: "loading" };
    try {
      if (this.store === null) {
        this.load = { kind: "ready", catalog: await this.backend.getCatalog(), freshness: null };
      } else {
        const catalog = await this.backend.workspaceCatalog();
        const freshness = await this.backend.catalogFreshness();
        this.load = { kind: "ready", catalog, freshness };
      }
    } catch (error) {
      this.load = { kind: "error", error };
    }
  }

  /** Follows changes of the workspace's catalog or thresholds; returns the way to stop. */
  attach(): () => void {
    if (this.store === null) return () => undefined;
    return this.store.onChange((changed) => {
      if (changed.some((c) => c.kind === "catalog" || c.kind === "settings")) void this.fetch();
    });
  }
}
