// The window's session, the root of every manager: it asks the back end for the session, then
// shows the open workspace (a WorkspaceStore and the window's manager over it), or the start
// screen when none is open, or the shipped catalog on its own. The only place given the Backend.

import type { Backend } from "../backend";
import { CatalogManager } from "../catalog/catalog-manager.svelte";
import type { TabId } from "../tabs";
import { WorkspaceStore } from "../workspace.svelte";
import type { Session, WorkspaceInfo } from "../workspace-types";
import { WorkspaceFrameManager } from "./frame-manager.svelte";
import { StartManager } from "./start-manager.svelte";

export type Phase =
  | { kind: "loading" }
  | { kind: "start"; session: Session; start: StartManager }
  | { kind: "catalog"; session: Session; catalog: CatalogManager }
  | { kind: "workspace"; frame: WorkspaceFrameManager }
  | { kind: "error"; error: unknown };

export class AppSession {
  phase: Phase = $state.raw({ kind: "loading" });
  private readonly backend: Backend;
  private readonly initialTab: TabId | undefined;

  /** `initialTab`: the workspace tab shown first (default: Scenarios). */
  constructor(backend: Backend, initialTab?: TabId) {
    this.backend = backend;
    this.initialTab = initialTab;
  }

  /** Asks for the session: the open workspace, else the start screen. */
  async load(): Promise<void> {
    try {
      const session = await this.backend.session();
      if (session.workspace) this.enter(session.workspace);
      else this.showStart(session);
    } catch (error) {
      this.phase = { kind: "error", error };
    }
  }

  /** Shows the workspace `info` (just opened, created or saved as), leaving the one shown. */
  enter(info: WorkspaceInfo): void {
    if (this.phase.kind === "workspace") this.phase.frame.dispose();
    const store = new WorkspaceStore(this.backend, info);
    void store.loadCatalog();
    store.loadClearance();
    const frame = new WorkspaceFrameManager(store, { enter: (next) => this.enter(next), closed: () => void this.closed() }, this.initialTab);
    this.phase = { kind: "workspace", frame };
  }

  /** The workspace was closed: back to what the session says (the start screen). */
  async closed(): Promise<void> {
    if (this.phase.kind === "workspace") this.phase.frame.dispose();
    this.phase = { kind: "loading" };
    await this.load();
  }

  /** The start screen, afresh. */
  showStart(session: Session): void {
    this.phase = { kind: "start", session, start: new StartManager(this.backend, session, (info) => this.enter(info)) };
  }

  /** The catalog the app ships, with no workspace open. */
  showCatalog(session: Session): void {
    this.phase = { kind: "catalog", session, catalog: new CatalogManager(this.backend) };
  }
}
