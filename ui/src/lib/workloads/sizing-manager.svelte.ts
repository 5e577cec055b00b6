// The memory fit of a workload on one accelerator, beside the workload editor: what it needs
// (weights, training state, KV cache), how many GPUs that takes and how to split the model.
// Asked again whenever the workload, the accelerator or the server size changes (newest wins).

import { untrack } from "svelte";
import type { Backend } from "../backend";
import type { Catalog } from "../catalog-types";
import { LatestOnly } from "../queue";
import type { SizingPreview, WorkloadSpec } from "../workspace-types";
import { defaultSizingAccelerator } from "./workloads";

export class SizingManager {
  accelerator: string | null = $state(null);
  gpusPerServer = $state(8);
  preview: SizingPreview | null = $state.raw(null);
  /** An answer came (a null preview then says why there is none). */
  answered = $state(false);
  error: unknown = $state.raw(null);
  busy = $state(false);

  private readonly backend: Backend;
  private readonly runner: LatestOnly<SizingPreview | null>;

  constructor(backend: Backend) {
    this.backend = backend;
    this.runner = new LatestOnly<SizingPreview | null>(
      (o) => {
        this.answered = true;
        if (o.ok) {
          this.preview = o.value;
          this.error = null;
        } else this.error = o.error;
      },
      (b) => (this.busy = b),
    );
  }

  /** Picks the catalog's default accelerator while none is chosen. */
  defaultAccelerator(catalog: Catalog | null): void {
    if (this.accelerator === null && catalog) this.accelerator = defaultSizingAccelerator(catalog);
  }

  setGpusPerServer(n: number): void {
    this.gpusPerServer = Math.max(1, n);
  }

  /** Asks for the fit of `workload` on the chosen accelerator and server size (reads both). */
  size(workload: WorkloadSpec): void {
    const acc = this.accelerator;
    const gps = this.gpusPerServer;
    if (acc === null) return;
    untrack(() => this.runner.request(() => this.backend.sizeWorkload(workload, acc, gps)));
  }

  dispose(): void {
    this.runner.cancel();
  }
}
