// The workspace window around the tabs: the tab on screen and its manager (made afresh each time
// the tab is chosen, as its screen is), the dialogs (settings, new workspace, keyboard help),
// the workspace menu's file actions, undo and redo, the catalog update, and the notice bar.

import type { Backend } from "../backend";
import { CatalogManager } from "../catalog/catalog-manager.svelte";
import { PackManager } from "../catalog/pack-manager.svelte";
import { WhatIfManager } from "../compare/what-if-manager.svelte";
import { CompareManager } from "../compare/compare-manager.svelte";
import { ComplianceManager } from "../compliance/compliance-manager.svelte";
import { errorText } from "../errors";
import type { TabId } from "../tabs";
import { VendorsManager } from "../vendors/vendors-manager.svelte";
import { WorkloadsManager } from "../workloads/workloads-manager.svelte";
import type { Notice, WorkspaceStore } from "../workspace.svelte";
import type { WorkspaceInfo } from "../workspace-types";
import { MemoManager } from "../memo/memo-manager.svelte";
import { ScenariosManager } from "../scenarios/scenarios-manager.svelte";
import { SettingsManager } from "../settings/settings-manager.svelte";
import { NewWorkspaceManager } from "./new-workspace-manager.svelte";

/** The screen of one tab, with its manager. */
export type TabScreen =
  | { tab: "workloads"; manager: WorkloadsManager }
  | { tab: "scenarios"; manager: ScenariosManager }
  | { tab: "compare"; manager: CompareManager }
  | { tab: "catalog"; manager: CatalogManager }
  | { tab: "memo"; manager: MemoManager }
  | { tab: "compliance"; manager: ComplianceManager }
  | { tab: "vendors"; manager: VendorsManager };

/** What the window asks of the session: show another workspace, or the start screen after a close. */
export type SessionHooks = {
  enter: (info: WorkspaceInfo) => void;
  closed: () => void;
};

export class WorkspaceFrameManager {
  private readonly store: WorkspaceStore;
  screen: TabScreen;
  /** The new-workspace dialog while it is shown. */
  newWorkspace: NewWorkspaceManager | null = $state.raw(null);
  /** The settings panel while it is shown. */
  settings: SettingsManager | null = $state.raw(null);
  showHelp = $state(false);
  /** The catalog pack dialog while it is shown. */
  pack: PackManager | null = $state.raw(null);
  /** A file action (open, save as, import, export, close) is under way. */
  busy = $state(false);
  /** The presenting view is shown (F5; Esc leaves). */
  presenting = $state(false);
  /** The workshop what-if: kept across tab switches, shown on Compare and when presenting. */
  readonly whatIf: WhatIfManager;

  private readonly backend: Backend;
  private readonly hooks: SessionHooks;

  constructor(store: WorkspaceStore, hooks: SessionHooks, initialTab: TabId = "scenarios") {
    this.store = store;
    this.backend = store.backend;
    this.hooks = hooks;
    this.whatIf = new WhatIfManager(store);
    this.screen = $state.raw(this.open(initialTab));
  }

  get tab(): TabId {
    return this.screen.tab;
  }

  /** Shows tab `id`; its screen starts afresh unless it is on screen already. */
  selectTab(id: TabId): void {
    if (id !== this.screen.tab) this.screen = this.open(id);
  }

  private open(tab: TabId): TabScreen {
    switch (tab) {
      case "workloads":
        return { tab, manager: new WorkloadsManager(this.store) };
      case "scenarios":
        return { tab, manager: new ScenariosManager(this.store) };
      case "compare":
        return { tab, manager: new CompareManager(this.store, this.whatIf) };
      case "memo":
        return { tab, manager: new MemoManager(this.store) };
      case "compliance":
        return { tab, manager: new ComplianceManager(this.store) };
      case "vendors":
        return { tab, manager: new VendorsManager(this.store) };
      case "catalog":
        return { tab, manager: new CatalogManager(this.backend, this.store) };
    }
  }

  /** Presents the comparison (switching to the Compare tab). */
  present(): void {
    this.selectTab("compare");
    this.presenting = true;
  }

  stopPresenting(): void {
    this.presenting = false;
  }

  // ---- What the header shows ----

  get info(): WorkspaceInfo {
    return this.store.info;
  }

  get pending(): number {
    return this.store.pending;
  }

  get failed(): { label: string; error: unknown } | null {
    return this.store.failed;
  }

  get savedText(): string {
    const info = this.store.info;
    if (info.read_only) return "Read-only";
    return this.store.pending > 0 ? "Saving…" : this.store.failed ? `Not saved: ${this.store.failed.label}` : "All changes saved";
  }

  /** Scenarios cleared by their D-1 checklist. */
  get clearedCount(): number {
    return (this.store.clearance ?? []).filter((c) => c.subject.kind === "scenario" && c.cleared).length;
  }

  /** The note above the embedded catalog browser: the workspace computes with its own snapshot. */
  get catalogNote(): string {
    const c = this.store.info.catalog;
    return `This workspace computes with its own snapshot, catalog ${c.version} (taken ${c.taken} UTC).`;
  }

  // ---- The notice bar ----

  get notice(): Notice | null {
    return this.store.notice;
  }

  /** The failure under the notice, with every located detail; empty when there is none. */
  get noticeDetail(): string {
    const error = this.store.notice?.error;
    return error === undefined ? "" : errorText(error, { details: "located" });
  }

  dismissNotice(): void {
    this.store.notice = null;
  }

  // ---- History and catalog ----

  undo(): void {
    if (this.store.info.history.can_undo) void this.store.undo();
  }

  redo(): void {
    if (this.store.info.history.can_redo) void this.store.redo();
  }

  updateCatalog(): void {
    void this.store.updateCatalog();
  }

  /** Opens the dialog that updates the catalog from a signed pack. */
  openPack(): void {
    if (!this.pack && !this.store.info.read_only) this.pack = new PackManager(this.store, () => this.closePack());
  }

  closePack(): void {
    this.pack = null;
  }

  // ---- Dialogs ----

  openSettings(): void {
    if (!this.settings) this.settings = new SettingsManager(this.store);
  }

  closeSettings(): void {
    this.settings = null;
  }

  openNewWorkspace(): void {
    this.newWorkspace = new NewWorkspaceManager(this.backend, (created) => {
      this.newWorkspace = null;
      this.hooks.enter(created);
    });
  }

  closeNewWorkspace(): void {
    this.newWorkspace = null;
  }

  // ---- The workspace menu's file actions ----

  /** Runs a file action after every edit so far is saved (an open or close must not overtake them). */
  private async fileAction(what: () => Promise<void>, failure: string): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.store.flush();
      await what();
    } catch (error) {
      this.store.notice = { kind: "error", text: failure, error };
    } finally {
      this.busy = false;
    }
  }

  openFile(): Promise<void> {
    return this.fileAction(async () => {
      const path = await this.backend.chooseFile("open-workspace");
      const opened = path === null ? null : await this.backend.openWorkspace(path);
      if (opened) this.hooks.enter(opened);
    }, "The workspace could not be opened.");
  }

  saveAs(): Promise<void> {
    return this.fileAction(async () => {
      const path = await this.backend.chooseFile("save-workspace-as");
      const copy = path === null ? null : await this.backend.saveWorkspaceAs(path);
      if (copy) this.hooks.enter(copy);
    }, "The workspace could not be saved under a new name.");
  }

  importFile(): Promise<void> {
    return this.fileAction(async () => {
      const path = await this.backend.chooseFile("import-scenarios");
      if (path) await this.store.importScenarios(path);
    }, "The scenario file could not be imported.");
  }

  exportFile(): Promise<void> {
    return this.fileAction(async () => {
      const path = await this.backend.chooseFile("export-scenarios");
      if (!path) return;
      await this.backend.exportScenarios(path, null);
      this.store.notice = { kind: "info", text: `Exported every workload and scenario to ${path}.` };
    }, "The scenarios could not be exported.");
  }

  close(): Promise<void> {
    return this.fileAction(async () => {
      await this.backend.closeWorkspace();
      this.hooks.closed();
    }, "The workspace could not be closed.");
  }

  dispose(): void {
    this.store.dispose();
  }
}
