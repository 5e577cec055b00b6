// The editor of one scenario. It edits a local copy; every change is sent at once as a
// put-scenario edit (typing in one field coalesces into one undo step), and the scenario's
// detail and exit costs are asked for again after each (newest answer wins). Undo and redo that
// touch this scenario reload it; changes to workloads, settings or the catalog re-evaluate it.

import type { Catalog, Colocation, Cooling, Fabric, Region } from "../catalog-types";
import { LAYER_KIND_LABELS, formOf } from "../layers";
import { LatestOnly } from "../queue";
import type { WorkspaceStore } from "../workspace.svelte";
import type {
  ExitVariantOutcome,
  FacilitySpec,
  LayerForm,
  LayerKind,
  LayerSpec,
  PlacedProblem,
  PricePoint,
  ScenarioDetail,
  ScenarioExits,
  Reshape,
  ScenarioSpec,
  WorkloadSpec,
  WorkspaceSettings,
} from "../workspace-types";
import { WaysOutManager } from "./ways-out-manager.svelte";
import { ExitPricingManager } from "./exit-pricing-manager.svelte";

const NO_DETAIL: ScenarioDetail = { figures: null, layer_plans: [], sizing: [], assumptions: [], operations: null, problems: [] };

export class ScenarioEditorManager {
  readonly id: string;
  spec = $state<ScenarioSpec | null>(null);
  loadError: unknown = $state.raw(null);
  /** The scenario was deleted (an undo brings it back; changes here are not saved). */
  deleted = $state(false);
  detail = $state.raw<ScenarioDetail | null>(null);
  detailError: unknown = $state.raw(null);
  detailBusy = $state(false);
  /** The cost of leaving the scenario's clause-carrying layers, asked for with each detail. */
  exits = $state.raw<ScenarioExits | null>(null);
  /** The kind of the next layer added. */
  newLayerKind: LayerKind = $state("on-demand");

  /** The problems of this scenario. */
  readonly mine: PlacedProblem[];

  private readonly store: WorkspaceStore;
  /** Our own edits not answered yet: their echoes must not reload the form. */
  private inFlight = 0;
  private readonly detailRunner: LatestOnly<ScenarioDetail>;
  private readonly exitsRunner: LatestOnly<ScenarioExits>;

  constructor(store: WorkspaceStore, id: string) {
    this.store = store;
    this.id = id;
    this.mine = $derived((this.detail?.problems ?? []).filter((p) => p.subject.kind === "scenario" && p.subject.id === id));
    this.detailRunner = new LatestOnly<ScenarioDetail>(
      (o) => {
        if (o.ok) {
          this.detail = o.value;
          this.detailError = null;
          store.notePlacedProblems(o.value.problems);
        } else {
          this.detailError = o.error;
        }
      },
      (busy) => (this.detailBusy = busy),
    );
    this.exitsRunner = new LatestOnly<ScenarioExits>((o) => (this.exits = o.ok ? o.value : null));
  }

  /** When this scenario is in the locked baseline: the lock's time (edits are refused). */
  get lockedAt(): string | null {
    const lock = this.store.info.lock;
    return lock && lock.scenarios.includes(this.id) ? lock.locked_at.replace("T", " ").slice(0, 16) : null;
  }

  /** Loads the scenario and follows changes made elsewhere; returns the way to stop. */
  attach(): () => void {
    void this.load();
    const off = this.store.onChange((changed, origin) => {
      let refresh = false;
      for (const c of changed) {
        if (c.kind === "scenario" && c.id === this.id) {
          if (origin === "edit" && this.inFlight > 0) continue;
          if (c.summary === null) this.deleted = true;
          else void this.load();
        } else if (c.kind !== "scenario") {
          // Workloads, settings and the catalog change what the scenario evaluates to.
          refresh = true;
        }
      }
      if (refresh && this.spec) this.requestDetail();
    });
    return () => {
      off();
      this.detailRunner.cancel();
      this.exitsRunner.cancel();
    };
  }

  /** Whether an edit of this editor, or a detail or exit costs asked for, is not answered yet. */
  get busy(): boolean {
    return this.inFlight > 0 || this.detailRunner.busy || this.exitsRunner.busy;
  }

  async load(): Promise<void> {
    try {
      this.spec = await this.store.backend.getScenario(this.id);
      this.loadError = null;
      this.deleted = false;
      this.requestDetail();
    } catch (e) {
      this.loadError = e;
    }
  }

  /** Asks for the scenario's detail and exit costs, as edited. */
  requestDetail(): void {
    this.detailRunner.request(() => {
      const current = $state.snapshot(this.spec) as ScenarioSpec | null;
      if (!current) return Promise.resolve(NO_DETAIL);
      return this.store.backend.scenarioDetail(current);
    });
    this.exitsRunner.request(() => {
      const current = $state.snapshot(this.spec) as ScenarioSpec | null;
      if (!current || !current.layers.some((l) => l.exit_clause)) return Promise.resolve({ layers: [], problems: [] });
      return this.store.backend.exitCosts(current);
    });
  }

  /** The month-of-notice picker of the exit costs, as it opens. */
  openExitPricing(): ExitPricingManager {
    return new ExitPricingManager((layer, month) => this.priceExit(layer, month));
  }

  /** The "ways out" form of the scenario detail, as it opens. */
  openWaysOut(): WaysOutManager {
    return new WaysOutManager((request) => this.store.backend.exitRequest($state.snapshot(this.spec) as ScenarioSpec, request));
  }

  /** Prices notice to leave `layer` in `month` against staying, for the scenario as edited. */
  private priceExit(layer: string, month: number): Promise<ExitVariantOutcome> {
    return this.store.backend.exitVariant($state.snapshot(this.spec) as ScenarioSpec, layer, month);
  }

  // ---- What the form shows ----

  get catalog(): Catalog | null {
    return this.store.catalog;
  }

  /** Why the workspace's catalog could not be loaded; null when it was, or still is loading. */
  get catalogError(): unknown {
    return this.store.catalogError;
  }

  /** Whether the form can be shown: the scenario is loaded, and so is the catalog its layers
   *  name (or it failed, which the form says). Shown before the catalog, every accelerator,
   *  system and offer would read "not in the catalog", and every catalog price "required". */
  get ready(): boolean {
    return this.spec !== null && (this.store.catalog !== null || this.store.catalogError !== null);
  }

  get settings(): WorkspaceSettings {
    return this.store.info.settings;
  }

  /** The price point in effect: the scenario's, else the workspace's. */
  get point(): PricePoint {
    return this.spec?.price_point ?? this.settings.price_point;
  }

  get problems(): PlacedProblem[] {
    return this.detail?.problems ?? [];
  }


  /** The problems of the settings or workloads (they stop every scenario). */
  get others(): PlacedProblem[] {
    return this.problems.filter((p) => p.subject.kind !== "scenario");
  }

  problemsAt(path: string): string[] {
    return this.mine.filter((p) => p.field === path).map((p) => p.message);
  }

  get hasOwned(): boolean {
    return this.spec?.layers.some((l) => l.kind === "owned") ?? false;
  }

  get facility(): FacilitySpec | null {
    return this.spec?.facility ?? null;
  }

  get region(): Region | null {
    const f = this.facility;
    const c = this.catalog;
    return f && c ? (c.regions.find((r) => r.id === f.region) ?? null) : null;
  }

  get cooling(): Cooling | null {
    const f = this.facility;
    const c = this.catalog;
    return f && c ? (c.facility.cooling.find((x) => x.id === f.cooling) ?? null) : null;
  }

  get colocation(): Colocation | null {
    const f = this.facility;
    const c = this.catalog;
    return f?.colocation && c ? (c.facility.colocation.find((x) => x.id === f.colocation) ?? null) : null;
  }

  get fabric(): Fabric | null {
    const n = this.spec?.network;
    const c = this.catalog;
    return n && c ? (c.fabrics.find((f) => f.id === n.fabric) ?? null) : null;
  }

  get workloads(): WorkloadSpec[] {
    return this.store.info.workloads;
  }

  layerName(layerId: string): string {
    return this.spec?.layers.find((l) => l.id === layerId) ? `layer ${layerId}` : layerId;
  }

  workloadName(wid: string): string {
    return this.store.info.workloads.find((w) => w.id === wid)?.name ?? wid;
  }

  // ---- Changes ----

  /** Applies `mutate` to the local copy and saves the whole scenario (coalesced per field). */
  change(path: string, label: string, mutate: (s: ScenarioSpec) => void): void {
    if (!this.spec) return;
    mutate(this.spec);
    const scenario = $state.snapshot(this.spec) as ScenarioSpec;
    this.inFlight += 1;
    void this.store
      .edit({ edit: { kind: "put-scenario", scenario }, label: `Edit ${scenario.name}: ${label}`, coalesce: `${this.id}.${path}` })
      .finally(() => {
        this.inFlight -= 1;
        this.requestDetail();
      });
  }

  /** `change` for the layer at `index`. */
  changeLayer(index: number): (path: string, label: string, mutate: (l: LayerSpec) => void) => void {
    return (path, label, mutate) =>
      this.change(path, label, (s) => {
        const l = s.layers[index];
        if (l) mutate(l);
      });
  }

  /** What the editor shows for each kind of layer, as the engine publishes it; null until loaded. */
  get forms(): LayerForm[] | null {
    return this.store.layerForms;
  }

  /** The form of a layer of `kind`. */
  form(kind: LayerKind): LayerForm | null {
    return formOf(this.forms, kind);
  }

  /**
   * Asks the engine for the scenario with `change` made by its rules, then saves the part it
   * changed (`take` copies it into the local copy, so edits typed meanwhile are kept).
   */
  private async reshape(path: string, label: string, change: Reshape, take: (from: ScenarioSpec, into: ScenarioSpec) => void): Promise<void> {
    if (!this.spec) return;
    const scenario = $state.snapshot(this.spec) as ScenarioSpec;
    let next: ScenarioSpec;
    try {
      next = await this.store.backend.reshapeScenario(scenario, change);
    } catch (error) {
      this.store.notice = { kind: "error", text: `The scenario could not be changed (${label}).`, error };
      return;
    }
    this.change(path, label, (s) => take(next, s));
  }

  /** Adds a layer of `newLayerKind` on the accelerator the scenario already uses. */
  addLayer(): Promise<void> {
    const kind = this.newLayerKind;
    return this.reshape("layers", `add ${LAYER_KIND_LABELS[kind]} layer`, { kind: "add-layer", layer_kind: kind }, (from, into) => {
      const added = from.layers[from.layers.length - 1];
      if (added) into.layers.push(added);
    });
  }

  /** Switches the layer at `index` to `kind`; the fields that kind does not take are emptied. */
  changeLayerKind(index: number, kind: LayerKind): Promise<void> {
    return this.reshape(`layers[${index}].kind`, "kind", { kind: "layer-kind", index, layer_kind: kind }, (from, into) => {
      const changed = from.layers[index];
      if (changed && into.layers[index]) into.layers[index] = changed;
    });
  }

  removeLayer(index: number): void {
    const l = this.spec?.layers[index];
    if (!l) return;
    this.change("layers", `remove layer ${l.id}`, (s) => {
      s.layers.splice(index, 1);
    });
  }

  /** Adds a facility with the catalog's defaults for the owned layer's accelerator. */
  addFacility(): Promise<void> {
    return this.reshape("facility", "facility", { kind: "add-facility" }, (from, into) => (into.facility = from.facility));
  }
}
