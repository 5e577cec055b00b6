// "Verify a PDF…" (the start screen and the Memo tab): the system dialog, the back end's check of
// every signature, and the report or the failure until it is closed. No workspace needed.

import type { Backend } from "../backend";
import type { PdfCheck } from "../workspace-types";

export class VerifyPdfManager {
  check = $state.raw<PdfCheck | null>(null);
  error: unknown = $state.raw(null);
  busy = $state(false);
  private readonly backend: Backend;

  constructor(backend: Backend) {
    this.backend = backend;
  }

  /** Asks for a PDF and checks its signatures; a cancelled dialog changes nothing. */
  async verify(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    try {
      const path = await this.backend.chooseFile("open-pdf");
      const got = path === null ? null : await this.backend.verifyPdf(path);
      if (got) this.check = got;
    } catch (e) {
      this.error = e;
    } finally {
      this.busy = false;
    }
  }

  closeReport(): void {
    this.check = null;
  }

  closeError(): void {
    this.error = null;
  }
}
