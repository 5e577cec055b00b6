// The Vendors tab: the vendor side of an RFP. Import the vendors' quotes (pick a file, see every
// quote on the workspace's footing or every problem with its row and column, then import: one
// scenario per vendor, one undo step), and the scorecard (the buyer's weights, each vendor's
// figures saved as typed, and the back end's scorecard view, asked for again after every change
// and every saved compare view, since the compare screen's horizon is the scorecard's).

import { untrack } from "svelte";
import type { Backend } from "../backend";
import { errorText } from "../errors";
import { LatestOnly, type Outcome } from "../queue";
import type { WorkspaceStore } from "../workspace.svelte";
import type { QuotePreview, QuoteTemplate, ScorecardDraft, ScorecardView, VendorEntry } from "../workspace-types";
import { AXES, emptyVendor, freeVendorName, importProblems, type LocatedProblem } from "./vendors";

export class VendorsManager {
  // ---- The scorecard ----
  draft = $state<ScorecardDraft | null>(null);
  loadError: unknown = $state.raw(null);
  view = $state.raw<ScorecardView | null>(null);
  viewError: unknown = $state.raw(null);
  computing = $state(false);

  // ---- RFP quotes ----
  template = $state.raw<QuoteTemplate | null>(null);
  /** The scenario the quotes are priced on. */
  base: string | null = $state(null);
  quotePath: string | null = $state(null);
  preview = $state.raw<QuotePreview | null>(null);
  problems = $state.raw<LocatedProblem[]>([]);
  refusal: string | null = $state(null);
  quoteBusy: "read" | "import" | null = $state(null);

  private readonly store: WorkspaceStore;
  private readonly backend: Backend;
  private readonly runner: LatestOnly<ScorecardView>;
  /** Our own edits not answered yet: their answers must not replace what is being typed. */
  private inFlight = 0;

  constructor(store: WorkspaceStore) {
    this.store = store;
    this.backend = store.backend;
    this.runner = new LatestOnly<ScorecardView>(
      (o: Outcome<ScorecardView>) => {
        if (o.ok) {
          this.view = o.value;
          this.viewError = null;
        } else {
          this.viewError = o.error;
        }
      },
      (busy) => (this.computing = busy),
    );
  }

  /** Asks for the scorecard view (newest answer wins). */
  refresh(): void {
    this.runner.request(() => this.backend.scorecardView());
  }

  /** Loads the draft, the quote template and the view, and follows every change; returns the way to stop. */
  attach(): () => void {
    this.backend.scorecardDraft().then(
      (d) => {
        if (this.draft === null) this.draft = d;
      },
      (e: unknown) => (this.loadError = e),
    );
    this.backend.quoteTemplate().then(
      (t) => (this.template = t),
      () => (this.template = null),
    );
    this.refresh();
    const stop = this.store.onChange((changed, origin) => {
      for (const c of changed) {
        if (c.kind !== "scorecard") continue;
        if (origin === "edit" && this.inFlight > 0) continue;
        this.draft = structuredClone(c.scorecard);
      }
      // Any change can move a score: a scenario's cost, the settings, the catalog.
      this.refresh();
    });
    return () => {
      stop();
      this.runner.cancel();
    };
  }

  /** The compare screen's horizon is the scorecard's: a saved view is a new cost (reads the count). */
  followViewSaves(): void {
    void this.store.viewSaves;
    untrack(() => this.refresh());
  }

  /** The base defaults to the compare screen's baseline, else the first scenario (reads the list). */
  followScenarios(): void {
    const ids = this.store.info.scenarios.map((s) => s.id);
    untrack(() => {
      if (this.base === null || !ids.includes(this.base)) this.base = this.store.info.view.baseline ?? ids[0] ?? null;
    });
  }

  get scenarioOptions(): { value: string; label: string }[] {
    return this.store.info.scenarios.map((s) => ({ value: s.id, label: s.name }));
  }

  get currency(): string {
    return this.store.info.settings.currency;
  }

  /** The horizon the costs are over: the view's, else the compare screen's, else the workspace's. */
  get horizon(): number {
    return this.view?.horizon_months ?? this.store.info.view.horizon_months ?? this.store.info.settings.horizon_months;
  }

  get card(): ScorecardView["scorecard"] | null {
    return this.view?.scorecard ?? null;
  }

  statusOf(i: number): ScorecardView["vendors"][number] | null {
    return this.view?.vendors[i] ?? null;
  }

  /** The demand a vendor's scenario leaves unserved, when it leaves any. */
  unmetOf(name: string): string | null {
    const u = this.view?.vendors.find((v) => v.name === name)?.unmet_pflop_h ?? null;
    return u !== null && u !== "0" && !/^0(\.0*)?$/.test(u) ? u : null;
  }

  /** The weights' sum, shown only: the back end divides the weights by their sum in decimals. */
  get weightSum(): number {
    const d = this.draft;
    return d ? Math.round(AXES.reduce((sum, a) => sum + (Number(d.weights[a.id]) || 0), 0) * 1e4) / 1e4 : 0;
  }

  /** Applies `mutate` to the draft and saves the scorecard (coalesced per field). */
  change(field: string, mutate: (d: ScorecardDraft) => void): void {
    if (!this.draft) return;
    mutate(this.draft);
    const scorecard = $state.snapshot(this.draft) as ScorecardDraft;
    this.inFlight += 1;
    void this.store
      .edit({ edit: { kind: "scorecard", scorecard }, label: `Edit scorecard: ${field}`, coalesce: `scorecard:${field}` })
      .finally(() => (this.inFlight -= 1));
  }

  setVendor<K extends keyof VendorEntry>(i: number, key: K, value: VendorEntry[K]): void {
    this.change(`vendors[${i}].${String(key)}`, (d) => {
      const v = d.vendors[i];
      if (v) v[key] = value;
    });
  }

  addVendor(): void {
    this.change("vendors", (d) => d.vendors.push(emptyVendor(freeVendorName(d.vendors))));
  }

  removeVendor(i: number): void {
    this.change("vendors", (d) => d.vendors.splice(i, 1));
  }

  // ---- RFP quotes ----

  /** Asks for a quote file and shows its quotes, or every problem with its row and column. */
  async chooseQuotes(): Promise<void> {
    if (this.quoteBusy) return;
    this.quoteBusy = "read";
    try {
      const path = await this.backend.chooseFile("import-quotes");
      if (path === null) return;
      this.quotePath = path;
      this.preview = null;
      this.problems = [];
      this.refusal = null;
      try {
        this.preview = await this.backend.previewQuotes(path);
      } catch (e) {
        this.problems = importProblems(e);
        this.refusal = errorText(e);
      }
    } finally {
      this.quoteBusy = null;
    }
  }

  /** Imports the previewed quotes priced on `base`. */
  async importQuotes(): Promise<void> {
    if (this.quoteBusy || !this.quotePath || !this.preview || !this.base) return;
    this.quoteBusy = "import";
    try {
      await this.store.flush();
      await this.store.importQuotes(this.quotePath, this.base);
      this.preview = null;
      this.quotePath = null;
    } catch (e) {
      this.problems = importProblems(e);
      this.refusal = errorText(e);
      this.preview = null;
    } finally {
      this.quoteBusy = null;
    }
  }

  /** Drops the previewed quotes. */
  cancelQuotes(): void {
    this.preview = null;
    this.quotePath = null;
  }
}
