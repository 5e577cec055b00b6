// The catalog browser's data. On the start screen ("Browse the catalog"): the catalog the app
// ships. In a workspace's Catalog tab: the workspace's own snapshot (what its numbers come from),
// as the workspace store keeps it, with where it came from (its pack signature checked again) and
// its stale figures, asked for again whenever the snapshot or the thresholds change (a pack
// applied, an update, their undo, the Settings).

import type { Backend } from "../backend";
import type { Catalog } from "../catalog-types";
import type { CatalogFreshness } from "../workspace-types";
import type { WorkspaceStore } from "../workspace.svelte";

export type CatalogLoad =
  | { kind: "loading" }
  | { kind: "ready"; catalog: Catalog; freshness: CatalogFreshness | null }
  | { kind: "error"; error: unknown };

export class CatalogManager {
  private shipped: CatalogLoad = $state.raw({ kind: "loading" });
  private freshness: CatalogFreshness | null = $state.raw(null);
  private freshnessError: unknown = $state.raw(null);
  private readonly backend: Backend;
  private readonly store: WorkspaceStore | null;

  /** `store`: the workspace whose snapshot to show; absent: the shipped catalog. */
  constructor(backend: Backend, store: WorkspaceStore | null = null) {
    this.backend = backend;
    this.store = store;
  }

  get load(): CatalogLoad {
    if (this.store === null) return this.shipped;
    const error = this.store.catalogError ?? this.freshnessError;
    if (error !== null) return { kind: "error", error };
    const catalog = this.store.catalog;
    if (catalog === null || this.freshness === null) return { kind: "loading" };
    return { kind: "ready", catalog, freshness: this.freshness };
  }

  /** Loads (again) the catalog: the shipped one, or the workspace snapshot's origin and stale figures. */
  async fetch(): Promise<void> {
    if (this.store === null) {
      this.shipped = { kind: "loading" };
      try {
        this.shipped = { kind: "ready", catalog: await this.backend.getCatalog(), freshness: null };
      } catch (error) {
        this.shipped = { kind: "error", error };
      }
      return;
    }
    try {
      if (this.store.catalog === null) await this.store.loadCatalog();
      this.freshness = await this.backend.catalogFreshness();
      this.freshnessError = null;
    } catch (error) {
      this.freshnessError = error;
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
