// The editor of one workload: a local copy, each change sent at once as a put-workload edit
// (typing in a field is one undo step). Answers that are not our own edits (undo, redo, import)
// replace the copy; after each of our edits that is applied the workloads are checked again.

import type { Catalog } from "../catalog-types";
import type { WorkspaceStore } from "../workspace.svelte";
import type { ModelSpec, PlacedProblem, WorkloadSpec } from "../workspace-types";
import { SizingManager } from "./sizing-manager.svelte";
import { defaultSizingAccelerator, demandMode, switchDemand, type DemandMode } from "./workloads";

export class WorkloadEditorManager {
  readonly id: string;
  /** The local copy; null once the workload is deleted (an undo brings it back). */
  w: WorkloadSpec | null;

  private readonly store: WorkspaceStore;
  private readonly onchecked: () => void;
  /** Our own edits not answered yet: their echoes must not replace the copy. */
  private inFlight = 0;

  /** The engine's problems with this workload. */
  readonly mine: PlacedProblem[];

  constructor(store: WorkspaceStore, id: string, onchecked: () => void) {
    this.store = store;
    this.id = id;
    this.onchecked = onchecked;
    this.w = $state(structuredClone(store.workload(id) ?? null));
    this.mine = $derived(store.workspaceProblems.filter((p) => p.subject.kind === "workload" && p.subject.id === id));
  }

  /** Follows changes of this workload made elsewhere; returns the way to stop. */
  attach(): () => void {
    return this.store.onChange((changed, origin) => {
      for (const c of changed) {
        if (c.kind !== "workload" || c.id !== this.id) continue;
        if (origin === "edit" && this.inFlight > 0) continue;
        this.w = c.workload ? structuredClone(c.workload) : null;
      }
    });
  }

  get catalog(): Catalog | null {
    return this.store.catalog;
  }

  get mode(): DemandMode {
    return this.w ? demandMode(this.w) : "tokens";
  }

  problemsAt(path: string): string[] {
    return this.mine.filter((p) => p.field === path).map((p) => p.message);
  }

  /** The memory sizing beside the editor, as it opens. */
  openSizing(): SizingManager {
    return new SizingManager(this.store.backend);
  }

  /** Applies `mutate` to the local copy and saves the whole workload (coalesced per field). */
  change(path: string, label: string, mutate: (x: WorkloadSpec) => void): void {
    if (!this.w) return;
    mutate(this.w);
    const workload = $state.snapshot(this.w) as WorkloadSpec;
    this.inFlight += 1;
    void this.store
      .edit({ edit: { kind: "put-workload", workload }, label: `Edit ${workload.name}: ${label}`, coalesce: `workload:${this.id}.${path}` })
      .then((applied) => applied && this.onchecked())
      .finally(() => (this.inFlight -= 1));
  }

  /** Gives the demand as tokens per month, or as GPU-hours per day on an accelerator. */
  setDemandMode(mode: DemandMode): void {
    const catalog = this.store.catalog;
    this.change("demand", "demand", (x) => Object.assign(x, switchDemand(x, mode, mode === "gpu-hours" && catalog ? defaultSizingAccelerator(catalog) : null)));
  }

  setModel(key: keyof ModelSpec, label: string, value: number | null): void {
    this.change(`model.${key}`, label, (x) => {
      if (x.model) (x.model as Record<string, unknown>)[key] = value;
    });
  }

  setParameters(v: string | null): void {
    this.change("model.parameters_billion", "model parameters", (x) => {
      if (v === null) x.model = null;
      else if (x.model) x.model.parameters_billion = v;
      else x.model = { parameters_billion: v, layers: null, kv_heads: null, head_dim: null, context_tokens: null, batch: null };
    });
  }
}
