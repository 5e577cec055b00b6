// The catalog pack dialog: a signed pack from a file or from an address the user types, checked
// whole by the back end, its preview (every figure old → new, each scenario's total and NPV old →
// new, what this workspace keeps), and Apply (one undo step). Nothing changes before Apply; a
// refused pack changes nothing at all.

import type { Backend } from "../backend";
import { errorText } from "../errors";
import type { DownloadProgress, PackPreview } from "../workspace-types";
import type { WorkspaceStore } from "../workspace.svelte";

export type PackStage =
  | { kind: "choose" }
  | { kind: "opening"; what: string }
  | { kind: "downloading"; url: string }
  | { kind: "preview"; preview: PackPreview }
  | { kind: "refused"; message: string };

/** How often the download's progress is asked for, in milliseconds. */
export const PROGRESS_POLL_MS = 200;

export class PackManager {
  stage: PackStage = $state.raw({ kind: "choose" });
  url = $state("");
  /** A pack file's path typed or pasted (beside the system dialog). */
  path = $state("");
  progress: DownloadProgress | null = $state.raw(null);
  applying = $state(false);
  private readonly store: WorkspaceStore;
  private readonly backend: Backend;
  private readonly onclose: () => void;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(store: WorkspaceStore, onclose: () => void) {
    this.store = store;
    this.backend = store.backend;
    this.onclose = onclose;
  }

  /** Asks for a pack file with the system dialog and opens it. */
  async chooseFile(): Promise<void> {
    const path = await this.backend.chooseFile("import-pack");
    if (path !== null) await this.openPath(path);
  }

  /** Opens and checks the pack at `path`. */
  async openPath(path: string): Promise<void> {
    this.stage = { kind: "opening", what: path };
    await this.show(() => this.backend.openPack(path));
  }

  /** Downloads the pack at the typed address, showing its progress until it arrives. */
  async download(): Promise<void> {
    const url = this.url.trim();
    if (url === "") return;
    this.stage = { kind: "downloading", url };
    this.progress = null;
    this.timer = setInterval(() => void this.poll(), PROGRESS_POLL_MS);
    try {
      await this.show(() => this.backend.downloadPack(url));
    } finally {
      this.stopPolling();
    }
  }

  private async poll(): Promise<void> {
    try {
      const p = await this.backend.downloadProgress();
      if (p !== null && this.stage.kind === "downloading") this.progress = p;
    } catch {
      // Progress is only a display; the download's own answer says how it ended.
    }
  }

  private stopPolling(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops the download; it answers as cancelled. */
  async cancelDownload(): Promise<void> {
    await this.backend.cancelDownload();
  }

  private async show(open: () => Promise<PackPreview>): Promise<void> {
    try {
      this.stage = { kind: "preview", preview: await open() };
    } catch (error) {
      this.stage = { kind: "refused", message: errorText(error, { details: "none" }) };
    }
  }

  /** Back to choosing a pack (the one previewed is dropped). */
  async again(): Promise<void> {
    if (this.stage.kind === "preview") await this.backend.discardPack();
    this.stage = { kind: "choose" };
  }

  /** Applies the previewed pack and closes; a refusal stays on screen. */
  async apply(): Promise<void> {
    if (this.stage.kind !== "preview" || this.applying) return;
    this.applying = true;
    try {
      await this.store.applyPack();
      this.onclose();
    } catch (error) {
      this.stage = { kind: "refused", message: errorText(error, { details: "none" }) };
    } finally {
      this.applying = false;
    }
  }

  /** Closes the dialog, dropping a pack that was not applied. */
  async close(): Promise<void> {
    this.stopPolling();
    if (this.stage.kind === "downloading") await this.backend.cancelDownload();
    if (this.stage.kind === "preview") await this.backend.discardPack();
    this.onclose();
  }
}
