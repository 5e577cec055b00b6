// The open workspace as the screens share it: what the back end listed (settings, workloads,
// scenario summaries, view, history, catalog status), the workspace's catalog snapshot, and
// the one way to change any of it.
//
// Every change goes through the SerialQueue (one call in flight, in order; typing in one field
// merges into the newest waiting edit), and every answer (`Applied.changed`) is folded into the
// lists here and then told to the listeners, so an editor showing an item that an undo changed
// can reload it. Nothing is saved by a separate step: each applied edit is on disk.

import type { Backend } from "./backend";
import type { Catalog } from "./catalog-types";
import { LatestOnly, SerialQueue, type Outcome } from "./queue";
import type {
  Applied,
  Changed,
  CompareScreen,
  EditRequest,
  Imported,
  KeptWhatIf,
  WhatIf,
  BaselineLock,
  LayerForm,
  PlacedProblem,
  QuotesImported,
  ScenarioSummary,
  SubjectStatus,
  Theme,
  ViewState,
  WorkloadSpec,
  WorkspaceInfo,
} from "./workspace-types";

export type ChangeOrigin = "edit" | "undo" | "redo" | "import" | "catalog";
export type ChangeListener = (changed: readonly Changed[], origin: ChangeOrigin) => void;

/** Something to tell the user, shown in the workspace frame's notice bar. */
export type Notice = { kind: "error" | "info"; text: string; error?: unknown };

export class WorkspaceStore {
  readonly backend: Backend;
  /** Replaced as a whole on every change (raw state: 10,000 summaries are not proxied). */
  info: WorkspaceInfo;
  /** The catalog snapshot the workspace computes with; null until loaded. */
  catalog: Catalog | null = $state.raw(null);
  catalogError: unknown = $state.raw(null);
  /** What the editor shows for each kind of supply layer, as the engine publishes it; null until loaded. */
  layerForms: LayerForm[] | null = $state.raw(null);
  /** Edits, undos and view saves waiting or in flight. */
  pending = $state(0);
  /** The last change that failed, until the next one succeeds. */
  failed: { label: string; error: unknown } | null = $state.raw(null);
  notice: Notice | null = $state.raw(null);
  /** Problems the engine last found in the settings or workloads (from any evaluation). */
  workspaceProblems: PlacedProblem[] = $state.raw([]);
  /** Rises each time a saved view comes back (the comparison follows it). */
  viewSaves = $state(0);

  /** The last comparison (kept while a newer one is computed) and its state. */
  compared: CompareScreen | null = $state.raw(null);
  compareError: unknown = $state.raw(null);
  comparing = $state(false);

  private readonly queue: SerialQueue;
  private readonly compareRunner: LatestOnly<CompareScreen>;
  private readonly listeners = new Set<ChangeListener>();
  /** Where removed items stood, so an undo puts them back in place. */
  private readonly removedAt = new Map<string, number>();

  constructor(backend: Backend, info: WorkspaceInfo) {
    this.info = $state.raw(info);
    this.backend = backend;
    this.queue = new SerialQueue((n) => (this.pending = n));
    this.compareRunner = new LatestOnly<CompareScreen>(
      (o) => this.deliverCompare(o),
      (busy) => (this.comparing = busy),
    );
  }

  /**
   * The D-1 checklist status of every scenario and of every vendor with a record; null until
   * loaded. A scenario without a status is shown as not cleared.
   */
  clearance: SubjectStatus[] | null = $state.raw(null);
  clearanceError: unknown = $state.raw(null);
  private readonly clearanceRunner = new LatestOnly<SubjectStatus[]>((o) => {
    if (o.ok) {
      this.clearance = o.value;
      this.clearanceError = null;
    } else {
      this.clearanceError = o.error;
    }
  });

  /** Loads (again) the checklist statuses; the newest answer wins. */
  loadClearance(): void {
    this.clearanceRunner.request(() => this.backend.checklistStatuses());
  }

  /** Takes statuses the back end just answered (after a checklist change). */
  setClearance(statuses: SubjectStatus[]): void {
    this.clearance = statuses;
    this.clearanceError = null;
  }

  /** The status of scenario `id`; null while unknown (shown as not cleared). */
  scenarioClearance(id: string): SubjectStatus | null {
    return this.clearance?.find((c) => c.subject.kind === "scenario" && c.subject.id === id) ?? null;
  }

  /** Loads (again) the workspace's catalog snapshot, and the layer forms the first time. */
  async loadCatalog(): Promise<void> {
    try {
      // Both asked at once: the scenario editor waits for the catalog before it shows its form.
      const [forms, catalog] = await Promise.all([this.layerForms ?? this.backend.layerForms(), this.backend.workspaceCatalog()]);
      this.layerForms = forms;
      this.catalog = catalog;
      this.catalogError = null;
    } catch (e) {
      this.catalogError = e;
    }
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get saving(): boolean {
    return this.pending > 0;
  }

  /**
   * Sends one edit (after those before it). Resolves with the answer, or null when the back end
   * refused it; the refusal is kept in `failed` and shown, and the next successful edit (which
   * carries the whole item again) clears it.
   */
  async edit(request: EditRequest): Promise<Applied | null> {
    const key = request.coalesce === null ? null : `edit:${request.coalesce}`;
    try {
      const applied = await this.queue.submit(key, () => this.backend.applyEdit(request));
      this.failed = null;
      this.absorb(applied, "edit");
      return applied;
    } catch (error) {
      this.failed = { label: request.label, error };
      this.notice = { kind: "error", text: `Not saved: ${request.label}.`, error };
      return null;
    }
  }

  /** Resolves once every change submitted so far has been answered. */
  async flush(): Promise<void> {
    await this.queue.submit(null, async () => undefined);
  }

  async undo(): Promise<Applied | null> {
    return this.step("undo");
  }

  async redo(): Promise<Applied | null> {
    return this.step("redo");
  }

  private async step(which: "undo" | "redo"): Promise<Applied | null> {
    try {
      const applied = await this.queue.submit(null, () => (which === "undo" ? this.backend.undo() : this.backend.redo()));
      if (applied) this.absorb(applied, which);
      return applied;
    } catch (error) {
      this.notice = { kind: "error", text: which === "undo" ? "Undo failed." : "Redo failed.", error };
      return null;
    }
  }

  /** Replaces the catalog snapshot with the shipped catalog (an undo step). */
  async updateCatalog(): Promise<Applied | null> {
    try {
      const applied = await this.queue.submit(null, () => this.backend.updateCatalog());
      this.absorb(applied, "catalog");
      this.notice = { kind: "info", text: `${applied.label}. Undo takes it back.` };
      return applied;
    } catch (error) {
      this.notice = { kind: "error", text: "The catalog could not be updated.", error };
      return null;
    }
  }

  /**
   * Applies the catalog pack the back end holds after its preview (an undo step). A refusal is
   * thrown for the pack dialog to show; nothing changed then.
   */
  async applyPack(): Promise<Applied> {
    const applied = await this.queue.submit(null, () => this.backend.applyPack());
    this.absorb(applied, "catalog");
    this.notice = { kind: "info", text: `${applied.label}. Undo takes it back.` };
    return applied;
  }

  /** The current what-if written into a new scenario copied from `source` (one undo step); the
   *  back end appends it to the comparison when there is room. Throws when refused. */
  async keepWhatIf(whatIf: WhatIf, source: string): Promise<KeptWhatIf> {
    const kept = await this.queue.submit(null, () => this.backend.keepWhatIf(whatIf, source));
    this.absorb(kept.applied, "edit");
    if (kept.view) this.info = { ...this.info, view: kept.view };
    this.viewSaves += 1;
    return kept;
  }

  /** The baseline lock as the back end now keeps it. */
  setLock(lock: BaselineLock | null): void {
    this.info = { ...this.info, lock };
    this.viewSaves += 1;
  }

  async importScenarios(path: string): Promise<Imported | null> {
    try {
      const imported = await this.queue.submit(null, () => this.backend.importScenarios(path));
      this.absorb(imported.applied, "import");
      const renamed = imported.renamed.length > 0 ? ` Renamed because the id was taken: ${imported.renamed.join(", ")}.` : "";
      this.notice = {
        kind: "info",
        text: `Imported ${imported.workloads} workload${imported.workloads === 1 ? "" : "s"} and ${imported.scenarios} scenario${imported.scenarios === 1 ? "" : "s"}.${renamed} Undo takes the import back.`,
      };
      return imported;
    } catch (error) {
      this.notice = { kind: "error", text: "The scenario file could not be imported.", error };
      return null;
    }
  }

  /**
   * Imports an RFP quote file priced on the scenario `base`: a scenario per vendor and the
   * vendors on the scorecard, one undo step. A file with any problem imports nothing; the
   * refusal is thrown for the caller to list (row and column of each problem).
   */
  async importQuotes(path: string, base: string): Promise<QuotesImported> {
    const done = await this.queue.submit(null, () => this.backend.importQuotes(path, base));
    this.absorb(done.applied, "import");
    const n = done.vendors.length;
    this.notice = {
      kind: "info",
      text: `Imported ${done.quotes} quote${done.quotes === 1 ? "" : "s"} from ${n} vendor${n === 1 ? "" : "s"} (${done.vendors.join(", ")}): one scenario each, and the vendors on the scorecard. Undo takes the import back.`,
    };
    return done;
  }

  /**
   * Saves the compare view (not an undo step). The lists show it at once; the answer (the view
   * as the back end kept it) replaces it.
   */
  async setView(view: ViewState): Promise<void> {
    this.info = { ...this.info, view };
    try {
      const saved = await this.queue.submit("view", () => this.backend.setView(view));
      // A newer view may have been set meanwhile; only the newest answer is shown.
      if (this.queue.pending === 0 || sameView(this.info.view, view)) this.info = { ...this.info, view: saved };
      this.viewSaves += 1;
    } catch (error) {
      this.notice = { kind: "error", text: "The comparison settings could not be saved.", error };
    }
  }

  /** Asks for the comparison (the newest request wins; the last result stays until then). */
  refreshCompare(theme: Theme): void {
    this.compareRunner.request(() => this.backend.compare(theme));
  }

  private deliverCompare(o: Outcome<CompareScreen>): void {
    if (o.ok) {
      this.compared = o.value;
      this.compareError = null;
      this.notePlacedProblems(o.value.comparison.problems);
    } else {
      this.compareError = o.error;
    }
  }

  /** Keeps the settings and workload problems an evaluation found (they concern every screen). */
  notePlacedProblems(problems: readonly PlacedProblem[]): void {
    this.workspaceProblems = problems.filter((p) => p.subject.kind !== "scenario");
  }

  /** Folds an answer into the lists and tells the listeners. */
  absorb(applied: Applied, origin: ChangeOrigin): void {
    let info: WorkspaceInfo = { ...this.info, history: applied.history };
    for (const c of applied.changed) info = this.fold(info, c);
    // The compare view loses scenarios that no longer exist, as the back end's does.
    const ids = new Set(info.scenarios.map((s) => s.id));
    if (info.view.selected.some((id) => !ids.has(id))) {
      const selected = info.view.selected.filter((id) => ids.has(id));
      info = { ...info, view: { ...info.view, selected, baseline: info.view.baseline && ids.has(info.view.baseline) ? info.view.baseline : null } };
    }
    this.info = info;
    for (const c of applied.changed) if (c.kind === "catalog") void this.loadCatalog();
    // A scenario added, changed (its hints) or removed changes the list of statuses.
    if (applied.changed.some((c) => c.kind === "scenario")) this.loadClearance();
    for (const l of this.listeners) l(applied.changed, origin);
  }

  private fold(info: WorkspaceInfo, c: Changed): WorkspaceInfo {
    switch (c.kind) {
      case "settings":
        return { ...info, settings: c.settings };
      case "workload":
        return { ...info, workloads: this.put(info.workloads, `w:${c.id}`, c.id, c.workload) };
      case "scenario":
        return { ...info, scenarios: this.put(info.scenarios, `s:${c.id}`, c.id, c.summary) };
      case "catalog":
        // The back end weighs the snapshot against the shipped catalog in every answer.
        return { ...info, catalog: c.status };
      case "memo":
        // The memo draft is not part of WorkspaceInfo: the memo screen hears it as a change.
        return info;
      case "scorecard":
        // Nor is the vendor scorecard: the vendors screen hears it as a change.
        return info;
    }
  }

  private put<T extends { id: string }>(list: readonly T[], key: string, id: string, item: T | null): T[] {
    const i = list.findIndex((x) => x.id === id);
    const out = [...list];
    if (item === null) {
      if (i >= 0) {
        out.splice(i, 1);
        this.removedAt.set(key, i);
      }
    } else if (i >= 0) {
      out[i] = item;
    } else {
      const at = this.removedAt.get(key);
      this.removedAt.delete(key);
      out.splice(at === undefined ? out.length : Math.min(at, out.length), 0, item);
    }
    return out;
  }

  scenarioSummary(id: string): ScenarioSummary | undefined {
    return this.info.scenarios.find((s) => s.id === id);
  }

  workload(id: string): WorkloadSpec | undefined {
    return this.info.workloads.find((w) => w.id === id);
  }

  dispose(): void {
    this.compareRunner.cancel();
    this.clearanceRunner.cancel();
    this.listeners.clear();
  }
}

function sameView(a: ViewState, b: ViewState): boolean {
  return a.baseline === b.baseline && a.horizon_months === b.horizon_months && a.selected.join("\u0000") === b.selected.join("\u0000");
}
