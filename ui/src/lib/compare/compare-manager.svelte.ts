// The Compare tab: pick 2 to 8 scenarios (in the order picked), pin a baseline, choose the
// horizon; the comparison (kept by the workspace store, so it stays while a newer one is
// computed and across tab switches) and its exports. The choice is saved in the workspace (not an
// undo step) and the comparison is asked for again after every applied edit, saved view or theme
// change (the charts are drawn for the theme).

import { untrack } from "svelte";
import { MAX_COMPARED, decisionRows, leavesWorkUndone, type Row } from "../compare-view";
import { cachedHaystack, matchRows } from "../filter";
import type { WorkspaceStore } from "../workspace.svelte";
import { RiskManager } from "./risk-manager.svelte";
import { WhatIfManager } from "./what-if-manager.svelte";
import type {
  BaselineLock,
  CompareScreen,
  DecisionView,
  PlacedProblem,
  ScenarioFigures,
  MonthlyChart,
  ScenarioSummary,
  SubjectStatus,
  Theme,
  ViewState,
} from "../workspace-types";

type ExportPurpose = "export-xlsx" | "export-csv";

export class CompareManager {
  private readonly store: WorkspaceStore;

  query = $state("");
  /** The scenario whose monthly chart is shown (the first one until one is picked); changed with
   *  `pickMonthly`. */
  monthlyPick: string | null = $state(null);
  exporting = $state(false);
  /** The risk analysis of the selection. */
  readonly risk: RiskManager;
  /** The workshop what-if drivers. */
  readonly whatIf: WhatIfManager;
  locking = $state(false);

  readonly scenarios: ScenarioSummary[];
  readonly byId: Map<string, ScenarioSummary>;
  readonly shown: ScenarioSummary[];
  /** The decision table's rows. */
  readonly rows: Row[];

  constructor(store: WorkspaceStore, whatIf: WhatIfManager = new WhatIfManager(store)) {
    this.store = store;
    this.risk = new RiskManager(store);
    this.whatIf = whatIf;
    const haystack = cachedHaystack((s: ScenarioSummary) => `${s.name} ${s.id} ${s.supplies.join(" ")}`);
    this.scenarios = $derived(store.info.scenarios);
    this.byId = $derived(new Map(this.scenarios.map((s) => [s.id, s])));
    this.shown = $derived(matchRows(this.scenarios, this.query, haystack));
    this.rows = $derived(this.decision ? decisionRows(this.decision) : []);
  }

  get view(): ViewState {
    return this.store.info.view;
  }

  /** The comparison shown: the what-if's while drivers are moved, else the last saved one (kept
   *  while a newer one is computed). */
  get result(): CompareScreen | null {
    return this.whatIf.screen ?? this.store.compared;
  }

  /** The comparison of the saved figures, whatever the what-if shows. */
  get saved(): CompareScreen | null {
    return this.store.compared;
  }

  /** The baseline lock, when the compared set is locked. */
  get lock(): BaselineLock | null {
    return this.store.info.lock ?? null;
  }

  /** Whether scenario `id` is in the locked baseline. */
  isLocked(id: string): boolean {
    return this.lock?.scenarios.includes(id) ?? false;
  }

  /** Locks the compared set (its baseline: the pinned one, else the first). */
  async lockBaseline(): Promise<void> {
    if (this.locking) return;
    this.locking = true;
    try {
      await this.store.flush();
      const lock = await this.store.backend.lockBaseline();
      this.store.setLock(lock);
      this.store.notice = { kind: "info", text: `Baseline locked: ${lock.scenarios.length} scenarios refuse edits until you unlock them here; differences are taken against “${this.name(lock.baseline)}”.` };
    } catch (error) {
      this.store.notice = { kind: "error", text: "The baseline could not be locked.", error };
    } finally {
      this.locking = false;
    }
  }

  async unlockBaseline(): Promise<void> {
    if (this.locking) return;
    this.locking = true;
    try {
      await this.store.backend.unlockBaseline();
      this.store.setLock(null);
      this.store.notice = { kind: "info", text: "Baseline unlocked: its scenarios can be edited again." };
    } catch (error) {
      this.store.notice = { kind: "error", text: "The baseline could not be unlocked.", error };
    } finally {
      this.locking = false;
    }
  }

  get error(): unknown {
    return this.store.compareError;
  }

  get comparing(): boolean {
    return this.store.comparing;
  }

  get decision(): DecisionView | null {
    return this.result?.comparison.view ?? null;
  }

  /** The horizon shown: the view's, else the workspace's. */
  get horizon(): number {
    return this.view.horizon_months ?? this.store.info.settings.horizon_months;
  }

  /** The scenarios that leave work undone. */
  get undone(): ScenarioFigures[] {
    return this.decision?.scenarios.filter(leavesWorkUndone) ?? [];
  }

  get monthly(): MonthlyChart[] {
    return this.result?.monthly ?? [];
  }

  /** Shows scenario `id`'s monthly chart (a what-if on screen is asked again for it). */
  pickMonthly(id: string): void {
    this.monthlyPick = id;
    this.whatIf.showMonthly(id);
  }

  get monthlyShown(): MonthlyChart | null {
    return this.monthly.find((m) => m.scenario === this.monthlyPick) ?? this.monthly[0] ?? null;
  }

  /** The problems that kept scenarios out of the comparison. */
  get keptOut(): PlacedProblem[] {
    return this.result?.comparison.problems ?? [];
  }

  name(id: string): string {
    return this.byId.get(id)?.name ?? this.decision?.scenarios.find((s) => s.id === id)?.name ?? id;
  }

  /** Who a problem that kept a scenario out is about. */
  subjectName(p: PlacedProblem): string {
    const subject = p.subject;
    if (subject.kind === "scenario") return this.name(subject.id);
    if (subject.kind === "workload") return `workload ${this.store.info.workloads.find((w) => w.id === subject.id)?.name ?? subject.id}`;
    return "settings";
  }

  clearance(id: string): SubjectStatus | null {
    return this.store.scenarioClearance(id);
  }

  /**
   * Asks for the comparison again when what it depends on changed: an applied edit (the
   * revision), a saved view, or `theme`. Reads all three, so an effect calling it follows them.
   */
  follow(theme: Theme): void {
    void this.store.info.history.revision;
    void this.store.viewSaves;
    untrack(() => {
      if (this.store.info.view.selected.length > 0) this.store.refreshCompare(theme);
    });
  }

  retry(theme: Theme): void {
    this.store.refreshCompare(theme);
  }

  // ---- The view ----

  private save(next: ViewState): void {
    void this.store.setView(next);
  }

  /** Adds scenario `id` to the comparison, or takes it out. */
  toggle(id: string): void {
    const view = this.view;
    if (this.isLocked(id)) {
      this.store.notice = { kind: "info", text: `“${this.name(id)}” is in the locked baseline and stays compared: unlock the baseline (above the table) to remove it.` };
      return;
    }
    const selected = view.selected.includes(id) ? view.selected.filter((x) => x !== id) : [...view.selected, id];
    if (selected.length > MAX_COMPARED) {
      this.store.notice = { kind: "info", text: `At most ${MAX_COMPARED} scenarios are compared side by side; remove one first.` };
      return;
    }
    this.save({ ...view, selected, baseline: view.baseline && selected.includes(view.baseline) ? view.baseline : null });
  }

  /** Pins `id` as the baseline, or unpins it. */
  pin(id: string): void {
    const view = this.view;
    if (this.lock) {
      this.store.notice = { kind: "info", text: `The baseline is locked on “${this.name(this.lock.baseline)}”: unlock it (Unlock baseline, above the table) to pin another.` };
      return;
    }
    this.save({ ...view, baseline: view.baseline === id ? null : id });
  }

  /** Moves column `id` by `by` places. */
  move(id: string, by: number): void {
    const view = this.view;
    const i = view.selected.indexOf(id);
    const j = i + by;
    if (i < 0 || j < 0 || j >= view.selected.length) return;
    const selected = [...view.selected];
    [selected[i], selected[j]] = [selected[j]!, selected[i]!];
    this.save({ ...view, selected });
  }

  setHorizon(n: number): void {
    this.save({ ...this.view, horizon_months: n });
  }

  // ---- Exports ----

  private async exportTo(purpose: ExportPurpose, run: (path: string) => Promise<unknown>, what: string): Promise<void> {
    if (this.exporting) return;
    this.exporting = true;
    try {
      await this.store.flush();
      const path = await this.store.backend.chooseFile(purpose);
      if (path) {
        await run(path);
        this.store.notice = { kind: "info", text: `Exported ${what} to ${path}.` };
      }
    } catch (error) {
      this.store.notice = { kind: "error", text: `The ${what} could not be exported.`, error };
    } finally {
      this.exporting = false;
    }
  }

  exportXlsx(): Promise<void> {
    return this.exportTo("export-xlsx", (p) => this.store.backend.exportComparison(p, "xlsx"), "comparison workbook");
  }

  exportCsv(): Promise<void> {
    return this.exportTo("export-csv", (p) => this.store.backend.exportComparison(p, "csv"), "comparison table");
  }

  exportLedger(id: string): Promise<void> {
    return this.exportTo("export-csv", (p) => this.store.backend.exportLedger(p, id), `monthly ledger of “${this.name(id)}”`);
  }
}
