// "New workspace…" (the start screen and the workspace menu): the title first, then where to save
// it (the system dialog), then the workspace is created and opened.

import type { Backend } from "../backend";
import type { WorkspaceInfo } from "../workspace-types";

export class NewWorkspaceManager {
  title = $state("");
  busy = $state(false);
  error: unknown = $state.raw(null);
  private readonly backend: Backend;
  private readonly oncreated: (info: WorkspaceInfo) => void;

  constructor(backend: Backend, oncreated: (info: WorkspaceInfo) => void) {
    this.backend = backend;
    this.oncreated = oncreated;
  }

  get canCreate(): boolean {
    return this.title.trim() !== "" && !this.busy;
  }

  /** Asks where to save the workspace, creates it and hands it on; a cancelled dialog does nothing. */
  async create(): Promise<void> {
    if (!this.canCreate) return;
    this.busy = true;
    this.error = null;
    try {
      const path = await this.backend.chooseFile("new-workspace");
      const info = path === null ? null : await this.backend.createWorkspace(path, this.title.trim());
      if (info) this.oncreated(info);
    } catch (err) {
      this.error = err;
    } finally {
      this.busy = false;
    }
  }

  dismissError(): void {
    this.error = null;
  }
}
