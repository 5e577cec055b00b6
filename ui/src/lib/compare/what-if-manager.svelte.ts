// Workshop what-if (issue #17): drivers moved on sliders re-run the comparison of the compared
// scenarios (or one of them) without changing the workspace; "Keep as scenario" writes the
// current what-if into a new scenario as overrides, in one undo step; Reset returns to the saved
// figures. At most one comparison is in flight: a move made meanwhile waits, and only the newest
// waiting move is sent when the answer arrives. Every answer is shown (they arrive in order), so
// the screen follows a drag instead of waiting for the drag to end.

import { untrack } from "svelte";
import { HORIZONS } from "../compare-view";
import { numberFormat } from "../format";
import type { WorkspaceStore } from "../workspace.svelte";
import type { CompareScreen, Driver, DriverBase, DriverKind, Theme, WhatIfScreen } from "../workspace-types";

/** How a driver is shown: its slider's range and step in the unit shown, and how the shown value
 *  becomes the driver's value (a multiplier or a fraction is shown as a percentage). */
export interface DriverDef {
  kind: DriverKind;
  label: string;
  /** The unit shown beside the number. */
  unit: string;
  min: number;
  max: number;
  step: number;
  /** Shown value ÷ `scale` = the driver's value (100 for percentages). */
  scale: number;
  /** Describes the plan (demand, money's time value, horizon) rather than a supplier's offer. */
  world: boolean;
  hint: string;
}

export const DRIVERS: readonly DriverDef[] = [
  { kind: "demand", label: "Demand", unit: "% of stated", min: 10, max: 300, step: 5, scale: 100, world: true, hint: "Every workload's stated demand (GPU-hours a day or tokens a month), as a share of what the workloads say." },
  { kind: "growth", label: "Demand growth", unit: "% a month", min: -10, max: 20, step: 0.5, scale: 100, world: true, hint: "Replaces every workload's monthly growth." },
  { kind: "gpu-price", label: "GPU purchase price", unit: "% of plan", min: 30, max: 200, step: 5, scale: 100, world: false, hint: "The price per GPU of every owned layer, as a share of the price the plan uses (catalog or quote)." },
  { kind: "on-demand-rate", label: "On-demand rates", unit: "% of plan", min: 30, max: 200, step: 5, scale: 100, world: false, hint: "The hourly price of on-demand (and pay-as-used) layers, as a share of the plan's." },
  { kind: "reserved-rate", label: "Reserved rates", unit: "% of plan", min: 30, max: 200, step: 5, scale: 100, world: false, hint: "The hourly price of reserved layers, as a share of the plan's." },
  { kind: "spot-rate", label: "Spot rates", unit: "% of plan", min: 30, max: 200, step: 5, scale: 100, world: false, hint: "The hourly price of spot layers, as a share of the plan's." },
  { kind: "tariff", label: "Electricity tariff", unit: "per kWh", min: 0, max: 0.6, step: 0.005, scale: 1, world: false, hint: "The facility's electricity price per kWh, in the workspace's currency." },
  { kind: "pue", label: "PUE", unit: "", min: 1, max: 2.5, step: 0.05, scale: 1, world: false, hint: "Power usage effectiveness of the facility: total power ÷ IT power." },
  { kind: "discount-rate", label: "Discount rate", unit: "% a year", min: 0, max: 25, step: 0.5, scale: 100, world: true, hint: "The annual rate the present values are discounted at." },
  { kind: "residual", label: "Residual value", unit: "% at horizon", min: 0, max: 80, step: 1, scale: 100, world: false, hint: "What owned hardware is worth at the end of the horizon, as a share of its price." },
  { kind: "lead-time", label: "Lead time", unit: "months", min: 0, max: 24, step: 1, scale: 1, world: false, hint: "Months from order to delivery of owned hardware; other layers bridge the wait." },
  { kind: "horizon", label: "Horizon", unit: "months", min: 0, max: HORIZONS.length - 1, step: 1, scale: 1, world: true, hint: "How many months the comparison covers." },
];

/** The horizon slider moves through the horizon choices; its position is an index. */
export function horizonAt(position: number): number {
  return HORIZONS[Math.max(0, Math.min(HORIZONS.length - 1, Math.round(position)))] ?? 36;
}

export function horizonPosition(months: number): number {
  const i = (HORIZONS as readonly number[]).indexOf(months);
  return i < 0 ? 2 : i;
}

/** The driver's value as sent (a decimal string) for the number shown. */
export function driverValue(def: DriverDef, shown: number): string {
  if (def.kind === "horizon") return String(horizonAt(shown));
  const v = shown / def.scale;
  // Enough places for the step, no float noise ("0.35", not "0.35000000000000003").
  const places = Math.min(10, (String(def.step).split(".")[1]?.length ?? 0) + Math.round(Math.log10(def.scale)));
  return Number(v.toFixed(places)).toString();
}

/** The number shown for a driver's value. */
export function shownValue(def: DriverDef, value: string): number {
  const v = Number(value);
  if (def.kind === "horizon") return horizonPosition(v);
  return Number((v * def.scale).toFixed(6));
}

/** The drivers that multiply the plan's figure (100% = as planned). */
export const MULTIPLIERS: readonly DriverKind[] = ["demand", "gpu-price", "on-demand-rate", "reserved-rate", "spot-rate"];

/** What a driver replaces, in words: "price per GPU 24,000 to 30,000 USD". */
export function describeBase(def: DriverDef, base: DriverBase, locale = "en-US"): string {
  if (base.applies_to === 0) return "nothing in these scenarios uses it";
  const percent = !MULTIPLIERS.includes(def.kind) && def.scale === 100;
  const nf = numberFormat(locale, { maximumFractionDigits: percent ? 2 : 4 });
  const show = (x: string) => `${nf.format(Number(x) * (percent ? 100 : 1))}${percent ? "%" : ""}`;
  const lo = show(base.low);
  const hi = show(base.high);
  const value = lo === hi ? lo : `${lo} to ${hi}`;
  return `replaces ${base.label}: ${value}${base.unit && !percent ? ` ${base.unit}` : ""}`;
}

/** Where a typed number stands against a driver's range: null when it can be used. */
export function outOfRange(def: DriverDef, shown: number): string | null {
  if (!Number.isFinite(shown)) return `${def.label}: type a number.`;
  if (shown < def.min || shown > def.max) return `${def.label}: from ${def.min} to ${def.max}${def.unit ? ` ${def.unit}` : ""}.`;
  return null;
}

function mark(name: string): void {
  if (typeof performance !== "undefined" && typeof performance.mark === "function") performance.mark(name);
}

/** The measure `name` from move `seq`'s input mark to now (nothing when the mark was cleared). */
function measure(name: string, seq: number): void {
  if (typeof performance === "undefined" || typeof performance.measure !== "function") return;
  try {
    performance.measure(name, `what-if:input:${seq}`);
  } catch {
    // The input mark was cleared meanwhile: nothing to measure.
  }
}

export class WhatIfManager {
  private readonly store: WorkspaceStore;

  /** The panel is open. */
  open = $state(false);
  /** The drivers moved, by kind: the shown number. It follows the answers: the panel (thumbs,
   *  readouts, marks) always shows the drivers of the figures on screen, and a move is painted
   *  in the same frame as the figures it moved. So the page paints nothing between a move and
   *  its answer and takes the answer as soon as it arrives: 15-16 -> 8-9 ms from input to
   *  answer at the median, 8 scenarios, release build. */
  shown: Partial<Record<DriverKind, number>> = $state.raw({});
  /** The drivers asked for: `shown` and the moves made since, sent with the next request. */
  private asked: Partial<Record<DriverKind, number>> = {};
  /** The scenario the drivers apply to; null: every compared scenario. */
  scenario: string | null = $state(null);
  /** The newest comparison with the drivers applied, and what each driver replaces. */
  result: WhatIfScreen | null = $state.raw(null);
  error: unknown = $state.raw(null);
  busy = $state(false);
  keeping = $state(false);
  /** Problems with typed numbers, by kind. */
  problems: Partial<Record<DriverKind, string>> = $state({});
  /** The scenario whose monthly chart the answers carry (one, not all: the screen shows one at a
   *  time); null: the first compared scenario's. */
  monthly: string | null = null;
  /** The sequence number of the move the screen shows (for measurements: the pinned panel's `data-what-if-seq`). */
  shownSeq = $state(0);

  private seq = 0;
  private inFlight = false;
  private waiting = false;
  private theme: Theme = "light";

  constructor(store: WorkspaceStore) {
    this.store = store;
  }

  /** Drivers are moved: the screen shows the what-if, not the saved figures. Derived, so what
   *  reads it is updated only when it turns on or off, not on every move. */
  readonly active: boolean = $derived(Object.keys(this.shown).length > 0);

  /** The drivers asked for, as sent. */
  get drivers(): Driver[] {
    const out: Driver[] = [];
    for (const def of DRIVERS) {
      const v = this.asked[def.kind];
      if (v !== undefined) out.push({ kind: def.kind, value: driverValue(def, v) });
    }
    return out;
  }

  /** The comparison to show while active. */
  readonly screen: CompareScreen | null = $derived(this.active ? (this.result?.screen ?? null) : null);

  base(kind: DriverKind): DriverBase | null {
    return this.result?.bases.find((b) => b.kind === kind) ?? null;
  }

  /** The shown number that changes nothing: 100% for a multiplier, the plan's value otherwise
   *  (the lowest, when the scenarios differ). */
  neutral(def: DriverDef): number {
    if (MULTIPLIERS.includes(def.kind)) return 100;
    if (def.kind === "horizon") return horizonPosition(this.store.info.view.horizon_months ?? this.store.info.settings.horizon_months);
    const b = this.base(def.kind);
    return b && b.applies_to > 0 ? Number((Number(b.low) * def.scale).toFixed(6)) : def.min;
  }

  /** The number a driver shows: its moved value, else its neutral one. */
  value(def: DriverDef): number {
    return this.shown[def.kind] ?? this.neutral(def);
  }

  /** Opens the panel and asks what the drivers would replace. */
  show(theme: Theme): void {
    this.open = true;
    this.theme = theme;
    this.send();
  }

  hide(): void {
    this.open = false;
  }

  /** Follows applied edits and the theme while open or active: the what-if is asked again. */
  follow(theme: Theme): void {
    void this.store.info.history.revision;
    void this.store.viewSaves;
    untrack(() => {
      this.theme = theme;
      if (this.open || this.active) this.send();
    });
  }

  /** A slider or a typed number moved driver `kind` to `shown`. */
  set(kind: DriverKind, shown: number): void {
    const def = DRIVERS.find((d) => d.kind === kind);
    if (!def) return;
    const problem = outOfRange(def, shown);
    const problems = { ...this.problems };
    if (problem) {
      problems[kind] = problem;
      this.problems = problems;
      return;
    }
    delete problems[kind];
    this.problems = problems;
    this.asked = { ...this.asked, [kind]: shown };
    this.send();
  }

  /** Takes driver `kind` back to the plan's value. */
  clear(kind: DriverKind): void {
    const next = { ...this.asked };
    delete next[kind];
    this.asked = next;
    const problems = { ...this.problems };
    delete problems[kind];
    this.problems = problems;
    this.send();
  }

  /** The monthly chart shown is now scenario `id`'s: while a what-if is shown it is asked again
   *  (unless the answer on screen carries that chart), since its answers carry only the chart
   *  shown. */
  showMonthly(id: string | null): void {
    if (id === this.monthly) return;
    this.monthly = id;
    const carried = this.result?.screen.monthly.some((m) => m.scenario === id) ?? false;
    if (this.active && !carried) this.send();
  }

  setScenario(id: string | null): void {
    this.scenario = id;
    this.send();
  }

  /** Back to the saved figures: every driver cleared. */
  reset(): void {
    this.asked = {};
    this.problems = {};
    this.send();
  }

  private send(): void {
    this.seq += 1;
    mark(`what-if:input:${this.seq}`);
    if (this.inFlight) {
      this.waiting = true;
      return;
    }
    void this.run();
  }

  private async run(): Promise<void> {
    this.inFlight = true;
    this.busy = true;
    try {
      do {
        this.waiting = false;
        const seq = this.seq;
        const asked = this.asked;
        const request = { drivers: this.drivers, scenario: this.scenario };
        try {
          const answer = await this.store.backend.compareWhatIf(request, this.theme, this.monthly);
          measure(`what-if-answer:${seq}`, seq);
          this.result = answer;
          this.error = null;
        } catch (error) {
          this.error = error;
        }
        // The moves this answer (or error) is for are shown with it.
        if (untrack(() => this.shown) !== asked) this.shown = asked;
        this.shownSeq = seq;
      } while (this.waiting);
    } finally {
      this.inFlight = false;
      this.busy = false;
    }
  }

  /** Called from the effect that follows `shownSeq`, once the answer to move `seq` is given to
   *  the screen. Records the performance measures `what-if-answer:<seq>` (move to the answer
   *  received, set in `run`), `what-if-dom:<seq>` (move to the screen updated: the table's cells
   *  written, both canvas charts drawn and the page laid out again; taken after the other effects
   *  of the same update have run) and, at the next animation frame, `what-if:<seq>` (move to the
   *  start of the frame that shows it, which also waits for the display's next refresh). The
   *  end-to-end measurement reads all three. */
  painted(seq: number): void {
    if (seq <= 0 || typeof requestAnimationFrame !== "function") return;
    queueMicrotask(() => {
      // Reading a size makes the browser lay the page out now, so the measure includes it.
      void document.body.getBoundingClientRect();
      measure(`what-if-dom:${seq}`, seq);
    });
    requestAnimationFrame(() => measure(`what-if:${seq}`, seq));
  }

  /** The scenario a kept what-if copies: the chosen one, else the baseline, else the first. */
  keepSource(): string | null {
    const view = this.store.info.view;
    return this.scenario ?? view.baseline ?? view.selected[0] ?? null;
  }

  /** Writes the current what-if into a new scenario (one undo step) and returns to the saved
   *  figures, the new scenario compared. */
  async keep(): Promise<void> {
    const source = this.keepSource();
    if (!source || !this.active || this.keeping) return;
    this.keeping = true;
    try {
      await this.store.flush();
      const kept = await this.store.keepWhatIf({ drivers: this.drivers, scenario: this.scenario }, source);
      this.store.notice = { kind: "info", text: `Kept the what-if as “${kept.name}” (its drivers are overrides with the reason “workshop what-if”); Undo removes it.` };
      this.asked = {};
      this.problems = {};
      this.send();
    } catch (error) {
      this.store.notice = { kind: "error", text: "The what-if could not be kept as a scenario.", error };
    } finally {
      this.keeping = false;
    }
  }
}
