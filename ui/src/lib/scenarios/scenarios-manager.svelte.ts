// The Scenarios tab: a filtered list (fast with 10,000), templates for new ones, duplicate,
// delete, add to the comparison, and which scenario the editor shows. The editor follows the
// chosen row at once, except while rows fly by under ↑/↓/PageDown: then it waits for 100 ms of
// quiet, so holding a key does not build an editor per row.

import { untrack } from "svelte";
import { MAX_COMPARED } from "../compare-view";
import { cachedHaystack, matchRows } from "../filter";
import type { WorkspaceStore } from "../workspace.svelte";
import type { Draft, DraftFrom, ScenarioSummary, SubjectStatus, TemplateKind } from "../workspace-types";
import { ScenarioEditorManager } from "./scenario-editor-manager.svelte";

/** The templates a new scenario starts from (the engine drafts them), as the New… menu names them. */
export const TEMPLATES: readonly { kind: TemplateKind; label: string; hint: string }[] = [
  { kind: "buy", label: "Buy", hint: "One owned layer in your own room" },
  { kind: "rent", label: "Rent", hint: "One on-demand cloud layer" },
  { kind: "hybrid", label: "Hybrid", hint: "Owned base load plus on-demand cloud for peaks" },
];

export class ScenariosManager {
  private readonly store: WorkspaceStore;
  private lastSwitch = -Infinity;

  query = $state("");
  selectedId: string | null;
  /** The scenario the editor shows (follows `selectedId`, see above). */
  editorId: string | null;
  /** What the template said about the scenario just made, until dismissed. */
  notes: string[] = $state([]);

  readonly scenarios: ScenarioSummary[];
  readonly shown: ScenarioSummary[];

  constructor(store: WorkspaceStore) {
    this.store = store;
    this.selectedId = $state(store.info.scenarios[0]?.id ?? null);
    this.editorId = $state(this.selectedId);
    // Each summary's searchable text, made once per summary (an edit replaces one summary, so
    // the other 9,999 keep theirs) for filtering 10,000 rows per keystroke.
    const haystack = cachedHaystack((s: ScenarioSummary) => `${s.name} ${s.id} ${s.supplies.join(" ")} ${s.layers.join(" ")}`);
    this.scenarios = $derived(store.info.scenarios);
    this.shown = $derived(matchRows(this.scenarios, this.query, haystack));
  }

  /** "1,234 scenarios", or "12 of 1,234 scenarios" while filtered. */
  countText(locale: string): string {
    const n = this.scenarios.length;
    return `${this.query.trim() !== "" ? `${this.shown.length.toLocaleString(locale)} of ` : ""}${n.toLocaleString(locale)} scenario${n === 1 ? "" : "s"}`;
  }

  get selected(): ScenarioSummary | null {
    const id = this.selectedId;
    return id ? (this.scenarios.find((s) => s.id === id) ?? null) : null;
  }

  /** The chosen scenario is in the comparison. */
  get compared(): boolean {
    return this.selectedId !== null && this.store.info.view.selected.includes(this.selectedId);
  }

  /** The chosen scenario may be added to the comparison (there is room) or removed from it. */
  get canToggleCompare(): boolean {
    return !!this.selected && (this.compared || this.store.info.view.selected.length < MAX_COMPARED);
  }

  get canCreate(): boolean {
    return this.store.catalog !== null;
  }

  isCompared(id: string): boolean {
    return this.store.info.view.selected.includes(id);
  }

  clearance(id: string): SubjectStatus | null {
    return this.store.scenarioClearance(id);
  }

  /** The editor of scenario `id`, for the editor pane as it opens. */
  openEditor(id: string): ScenarioEditorManager {
    return new ScenarioEditorManager(this.store, id);
  }

  select(id: string | null): void {
    this.selectedId = id;
  }

  /** Lets the editor follow the chosen scenario (reads it); returns the way to drop a waiting switch. */
  followSelection(): () => void {
    const id = this.selectedId;
    let timer: ReturnType<typeof setTimeout> | undefined;
    untrack(() => {
      if (id === this.editorId) return;
      const now = performance.now();
      if (now - this.lastSwitch > 150) this.editorId = id;
      else timer = setTimeout(() => (this.editorId = this.selectedId), 100);
      this.lastSwitch = now;
    });
    return () => clearTimeout(timer);
  }

  /**
   * After an undo or redo the chosen scenario may be gone (or back): keeps its id (the editor says
   * it was deleted and an undo brings it back), and chooses the first when none is chosen.
   */
  followList(): void {
    if (this.selectedId !== null && !this.scenarios.some((s) => s.id === this.selectedId)) {
      // Keep the id.
    } else if (this.selectedId === null && this.scenarios.length > 0) {
      this.selectedId = this.scenarios[0]!.id;
    }
  }

  /**
   * Adds the scenario the engine drafts `from` a template or a copy (as one edit) and chooses it;
   * its id when it was added, else null (the failure is in the store's notice).
   */
  private async add(from: DraftFrom, label: (name: string) => string, failure: string): Promise<string | null> {
    let draft: Draft;
    try {
      await this.store.flush();
      draft = await this.store.backend.draftScenario(from);
    } catch (error) {
      this.store.notice = { kind: "error", text: failure, error };
      return null;
    }
    const applied = await this.store.edit({ edit: { kind: "put-scenario", scenario: draft.scenario }, label: label(draft.scenario.name), coalesce: null });
    if (!applied) return null;
    this.notes = draft.notes;
    this.query = "";
    this.selectedId = draft.scenario.id;
    return draft.scenario.id;
  }

  /** Makes a scenario from template `kind`; its id when it was added (it is then chosen), else null. */
  create(kind: TemplateKind): Promise<string | null> {
    return this.add({ kind: "template", template: kind }, (name) => `New scenario ${name}`, "The scenario could not be made from the template.");
  }

  /** Copies the chosen scenario (as saved); the copy's id when it was added (then chosen), else null. */
  duplicate(): Promise<string | null> {
    const id = this.selectedId;
    if (!id) return Promise.resolve(null);
    const name = this.selected?.name ?? id;
    return this.add({ kind: "copy", scenario: id }, () => `Duplicate ${name}`, "The scenario could not be duplicated.");
  }

  /**
   * Deletes the chosen scenario and chooses the next one in the list (or the one before); the
   * newly chosen id (null when none), or undefined when nothing was deleted.
   */
  async remove(): Promise<string | null | undefined> {
    const selected = this.selected;
    if (!selected) return undefined;
    const index = this.shown.findIndex((s) => s.id === selected.id);
    const name = selected.name;
    const applied = await this.store.edit({ edit: { kind: "delete-scenario", id: selected.id }, label: `Delete scenario ${name}`, coalesce: null });
    if (!applied) return undefined;
    // The list as it is now, without the deleted scenario.
    const next = this.shown[index] ?? this.shown[index - 1] ?? null;
    this.store.notice = { kind: "info", text: `Deleted “${name}”. Undo (Ctrl+Z) brings it back.` };
    this.selectedId = next?.id ?? null;
    return this.selectedId;
  }

  /** Adds the chosen scenario to the comparison, or takes it out. */
  toggleCompare(): void {
    const id = this.selectedId;
    if (!id) return;
    const view = this.store.info.view;
    const selected = this.compared ? view.selected.filter((x) => x !== id) : [...view.selected, id].slice(0, MAX_COMPARED);
    void this.store.setView({ ...view, selected, baseline: view.baseline && selected.includes(view.baseline) ? view.baseline : null });
  }

  dismissNotes(): void {
    this.notes = [];
  }
}
