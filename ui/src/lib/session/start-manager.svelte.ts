// The start screen, when no workspace is open: create one, open one, pick a recent one, browse
// the shipped catalog or verify a PDF. Why the workspace named at launch did not open comes
// first, and whether the shipped catalog (which a new workspace copies) can be loaded at all.

import { BackendError, type Backend } from "../backend";
import type { PlannerError } from "../catalog-types";
import { VerifyPdfManager } from "../memo/verify-pdf-manager.svelte";
import type { RecentFile, SampleInfo, Session, WorkspaceInfo } from "../workspace-types";
import { NewWorkspaceManager } from "./new-workspace-manager.svelte";

export class StartManager {
  readonly recent: RecentFile[];
  /** The shipped catalog's failure to load; null while it loads or once it did. */
  catalogError: unknown = $state.raw(null);
  /** The new-workspace form while it is shown. */
  newWorkspace: NewWorkspaceManager | null = $state.raw(null);
  /** "Verify a PDF…". */
  verify: VerifyPdfManager;
  busy = $state(false);
  /** Why the last open failed, until dismissed or tried again. */
  error: unknown = $state.raw(null);
  /** The sample workspaces shipped with the app; null until listed. */
  samples: SampleInfo[] | null = $state.raw(null);
  /** Why the samples could not be listed. */
  samplesError: unknown = $state.raw(null);

  private readonly backend: Backend;
  private readonly launchError: PlannerError | null;
  private readonly onopen: (info: WorkspaceInfo) => void;
  private showLaunchError = $state(true);

  constructor(backend: Backend, session: Session, onopen: (info: WorkspaceInfo) => void) {
    this.backend = backend;
    this.recent = session.recent;
    this.launchError = session.launch_error;
    this.onopen = onopen;
    this.verify = $state.raw(new VerifyPdfManager(backend));
  }

  /** Why the workspace named at launch did not open, until dismissed. */
  get launch(): BackendError | null {
    return this.launchError && this.showLaunchError ? new BackendError(this.launchError) : null;
  }

  dismissLaunch(): void {
    this.showLaunchError = false;
  }

  /** A new workspace takes a snapshot of the shipped catalog: finds out whether it loads. */
  checkCatalog(): void {
    this.backend.getCatalog().then(
      () => (this.catalogError = null),
      (e: unknown) => (this.catalogError = e),
    );
  }

  get creating(): boolean {
    return this.newWorkspace !== null;
  }

  startCreating(): void {
    if (this.newWorkspace) return;
    this.newWorkspace = new NewWorkspaceManager(this.backend, this.onopen);
  }

  cancelCreating(): void {
    this.newWorkspace = null;
    // The verify button comes back as new, as it was when the form replaced it.
    this.verify = new VerifyPdfManager(this.backend);
  }

  /** Opens a workspace chosen with the system dialog. */
  open(): Promise<void> {
    return this.run(async () => {
      const path = await this.backend.chooseFile("open-workspace");
      return path === null ? null : this.backend.openWorkspace(path);
    });
  }

  /** Lists the sample workspaces shipped with the app. */
  loadSamples(): void {
    this.backend.listSamples().then(
      (list) => {
        this.samples = list;
        this.samplesError = null;
      },
      (e: unknown) => (this.samplesError = e),
    );
  }

  /** Opens a copy of sample `id` in the documents folder (the shipped file stays untouched). */
  openSample(id: string): Promise<void> {
    return this.run(() => this.backend.openSample(id));
  }

  openRecent(r: RecentFile): Promise<void> {
    return this.run(() => this.backend.openWorkspace(r.path));
  }

  dismissError(): void {
    this.error = null;
  }

  private async run(what: () => Promise<WorkspaceInfo | null>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    try {
      const info = await what();
      if (info) this.onopen(info);
    } catch (e) {
      this.error = e;
    } finally {
      this.busy = false;
    }
  }
}
