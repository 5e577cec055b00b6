// The Workloads tab: the filtered list, the chosen workload, a new workload (name and kind first:
// its id is made from the name and never changes), delete, and the engine's check of the
// workloads (a scenario with no layers, evaluated after every change that is not a scenario's)
// whose problems go next to the fields they name.

import { matchRows, normalize } from "../filter";
import { LatestOnly } from "../queue";
import type { WorkspaceStore } from "../workspace.svelte";
import type { ScenarioDetail, WorkloadKind, WorkloadSpec } from "../workspace-types";
import { WorkloadEditorManager } from "./workload-editor-manager.svelte";
import { workloadCheckScenario } from "./workloads";

export class WorkloadsManager {
  private readonly store: WorkspaceStore;
  private readonly checker: LatestOnly<ScenarioDetail>;
  private readonly drafter: LatestOnly<WorkloadSpec>;
  private name = $state("");

  query = $state("");
  selectedId: string | null;
  /** The new-workload form is shown (instead of the editor). */
  adding = $state(false);
  newKind: WorkloadKind = $state("inference");
  /** The engine's draft of the workload being named (for its id), null until it answers. */
  draft: WorkloadSpec | null = $state.raw(null);

  readonly workloads: WorkloadSpec[];
  readonly shown: WorkloadSpec[];
  /** The workloads the engine found problems in. */
  readonly problemIds: Set<string>;

  constructor(store: WorkspaceStore) {
    this.store = store;
    this.selectedId = $state(store.info.workloads[0]?.id ?? null);
    this.workloads = $derived(store.info.workloads);
    this.shown = $derived(matchRows(this.workloads, this.query, (w) => normalize(`${w.name} ${w.id} ${w.kind} ${w.class}`)));
    this.problemIds = $derived(new Set(store.workspaceProblems.flatMap((p) => (p.subject.kind === "workload" ? [p.subject.id] : []))));
    this.checker = new LatestOnly<ScenarioDetail>((o) => {
      if (o.ok) store.notePlacedProblems(o.value.problems);
    });
    this.drafter = new LatestOnly<WorkloadSpec>((o) => (this.draft = o.ok ? o.value : null));
  }

  /** The name typed for the new workload; the engine drafts it (its id) as it changes. */
  get newName(): string {
    return this.name;
  }

  set newName(name: string) {
    this.name = name;
    if (name.trim() === "") {
      this.drafter.cancel();
      this.draft = null;
    } else {
      const kind = this.newKind;
      this.drafter.request(() => this.store.backend.draftWorkload(name, kind));
    }
  }

  /** Checks the workloads now and after every change that is not a scenario's; returns the way to stop. */
  attach(): () => void {
    this.check();
    const off = this.store.onChange((changed) => {
      if (changed.some((c) => c.kind !== "scenario")) this.check();
    });
    return () => {
      off();
      this.checker.cancel();
    };
  }

  /** Asks the engine what is wrong with the workloads (and settings), for the fields and list. */
  check(): void {
    this.checker.request(() => this.store.backend.scenarioDetail(workloadCheckScenario()));
  }

  /** The editor of workload `id`, for the editor pane as it opens. */
  openEditor(id: string): WorkloadEditorManager {
    return new WorkloadEditorManager(this.store, id, () => this.check());
  }

  get countText(): string {
    const n = this.workloads.length;
    return `${this.query.trim() ? `${this.shown.length} of ` : ""}${n} workload${n === 1 ? "" : "s"}`;
  }

  get canDelete(): boolean {
    return !!this.selectedId && this.workloads.some((w) => w.id === this.selectedId);
  }

  choose(id: string): void {
    this.adding = false;
    this.selectedId = id;
  }

  /** Keeps a workload chosen while there are any (not while a new one is being named). */
  followList(): void {
    if (this.selectedId === null && this.workloads.length > 0 && !this.adding) this.selectedId = this.workloads[0]!.id;
  }

  startAdding(): void {
    this.adding = true;
    this.newName = "";
  }

  cancelAdding(): void {
    this.adding = false;
  }

  /** The id the new workload will get (the engine's draft of the name typed), "…" until then. */
  get newId(): string {
    const d = this.draft;
    return d !== null && this.name.trim() !== "" && d.name === this.name.trim() ? d.id : "…";
  }

  /**
   * Adds the workload the engine drafts from the name and kind (its defaults, an id unique in the
   * workspace); its id when it was added (then it is the chosen one), else null.
   */
  async create(): Promise<string | null> {
    if (this.name.trim() === "") return null;
    let w: WorkloadSpec;
    try {
      w = await this.store.backend.draftWorkload(this.name, this.newKind);
    } catch (error) {
      this.store.notice = { kind: "error", text: "The workload could not be made.", error };
      return null;
    }
    const applied = await this.store.edit({ edit: { kind: "put-workload", workload: w }, label: `New workload ${w.name}`, coalesce: null });
    if (!applied) return null;
    this.adding = false;
    this.query = "";
    this.selectedId = w.id;
    return w.id;
  }

  /** Deletes the chosen workload; the next one in the list (or the one before) is chosen. */
  async remove(): Promise<void> {
    const w = this.workloads.find((x) => x.id === this.selectedId);
    if (!w) return;
    const index = this.shown.findIndex((x) => x.id === w.id);
    const applied = await this.store.edit({ edit: { kind: "delete-workload", id: w.id }, label: `Delete workload ${w.name}`, coalesce: null });
    if (applied) {
      this.store.notice = { kind: "info", text: `Deleted workload “${w.name}”. Undo (Ctrl+Z) brings it back.` };
      // The list as it is now, without the deleted workload.
      this.selectedId = (this.shown[index] ?? this.shown[index - 1])?.id ?? null;
    }
  }
}
