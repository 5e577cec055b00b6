// The Compare tab's risk analysis: the draws and seed typed, a run of the engine's analysis of the
// compare selection (kept in the workspace by the back end, so reopening shows it), and whether
// it is current: its digest against the digest of the plan the comparison last showed.

import type { WorkspaceStore } from "../workspace.svelte";
import { BackendError } from "../backend";
import { compareDecimal, parseDecimalInput } from "../decimal";
import type { Candidate, DrawnFigure, RiskProgress, RiskRequest, RiskView, Shape, Theme, TornadoBar, Uncertain } from "../workspace-types";

/** The draws a run makes unless the user types another count. */
export const DEFAULT_DRAWS = "1000";

/** The correlation of one provider's cloud rates unless the user types another. */
export const DEFAULT_CORRELATION = "0.8";

/** The shapes a figure may be drawn from, as the picker names them. */
export const SHAPES: readonly { value: Shape; label: string }[] = [
  { value: "triangular", label: "Triangular" },
  { value: "pert", label: "PERT (beta)" },
  { value: "uniform", label: "Uniform (no mode)" },
];

/** The most draws a run makes (the back end's limit). */
export const MAX_DRAWS = 100_000;

/** How often a running analysis is asked how far it has come, in milliseconds. */
const PROGRESS_EVERY_MS = 200;

export class RiskManager {
  private readonly store: WorkspaceStore;
  /** Counts the questions asked, so that only the newest answer is shown. */
  private asked = 0;

  /** As typed: a whole number of draws (1 to 100,000) and a seed (0 to 4,294,967,295). */
  draws = $state(DEFAULT_DRAWS);
  seed = $state("1");
  /** The distribution of each ranged figure (mode at the price point). */
  shape: Shape = $state("triangular");
  /** How strongly one provider's cloud rates move together, 0 to 1, as typed. */
  correlation = $state(DEFAULT_CORRELATION);
  /** The figures of the compared scenarios that may be marked uncertain (from the comparison). */
  candidates: Candidate[] = $state.raw([]);
  /** The figures marked uncertain, with their ranges: drawn in the next run. */
  uncertain: Uncertain[] = $state.raw([]);
  /** The figure being marked, and its range as typed. */
  pick = $state("");
  pickLow = $state("");
  pickHigh = $state("");
  /** Why the figure being marked cannot be added (null when it can, or nothing is typed). */
  pickProblem: string | null = $state(null);
  /** The last analysis kept in the workspace; null before the first. */
  view: RiskView | null = $state.raw(null);
  running = $state(false);
  /** How far the running analysis has come (null before its first report). */
  progress: RiskProgress | null = $state.raw(null);
  /** Set when the user cancelled the last run, until the next. */
  cancelled = $state(false);
  /** Why the last run or load failed, until the next succeeds. */
  error: unknown = $state.raw(null);
  /** The theme the analysis's charts are drawn for (the screen's). */
  private theme: Theme = "light";
  /** Whether the kept analysis has been read once (its draws and seed fill the inputs then). */
  private loaded = false;
  /** What is wrong with the draws or seed typed (null when both read). */
  readonly inputProblem: string | null;

  constructor(store: WorkspaceStore) {
    this.store = store;
    this.inputProblem = $derived(problemOf(this.draws, this.seed, this.correlation));
  }

  /** Loads the analysis kept in the workspace with its charts drawn for `theme` (as the screen
   *  opens, and again when the theme changes). */
  async load(theme: Theme): Promise<void> {
    const asked = ++this.asked;
    this.theme = theme;
    try {
      const view = await this.store.backend.risk(theme);
      // A newer question, or a run, has answered since: this answer is older.
      if (asked !== this.asked) return;
      this.view = view;
      const first = !this.loaded;
      this.loaded = true;
      if (view && !this.running && first) {
        this.draws = String(view.outcome.draws);
        this.seed = view.outcome.seed;
        this.shape = view.outcome.shape;
        this.correlation = view.outcome.group_correlation;
        this.uncertain = view.outcome.uncertain;
      }
    } catch (error) {
      this.error = error;
    }
  }

  /** Runs the analysis with the draws and seed typed (saving pending edits first). */
  async run(): Promise<void> {
    if (this.inputProblem !== null || this.running) return;
    this.running = true;
    this.cancelled = false;
    this.progress = null;
    this.error = null;
    const poll = setInterval(() => void this.poll(), PROGRESS_EVERY_MS);
    try {
      await this.store.flush();
      const request: RiskRequest = {
        draws: Number(this.draws),
        seed: Number(this.seed),
        shape: this.shape,
        correlation: this.correlation.trim(),
        uncertain: this.uncertain,
      };
      const view = await this.store.backend.runRisk(request, this.theme);
      this.asked += 1;
      this.view = view;
    } catch (error) {
      if (error instanceof BackendError && error.error.code === "cancelled") this.cancelled = true;
      else this.error = error;
    } finally {
      clearInterval(poll);
      this.running = false;
      this.progress = null;
    }
  }

  /** Takes the figures the compared plan can vary (they come with each comparison). */
  setCandidates(candidates: Candidate[]): void {
    this.candidates = candidates;
    if (!candidates.some((c) => c.path === this.pick) && candidates[0]) this.choose(candidates[0].path);
  }

  /** Chooses the figure to mark; its range starts at the value it holds. */
  choose(path: string): void {
    this.pick = path;
    const c = this.candidates.find((x) => x.path === path);
    this.pickLow = c?.value ?? "";
    this.pickHigh = c?.value ?? "";
    this.pickProblem = null;
  }

  /** Marks the chosen figure uncertain over the range typed (its value must lie in it). */
  mark(): void {
    const c = this.candidates.find((x) => x.path === this.pick);
    const low = parseDecimalInput(this.pickLow);
    const high = parseDecimalInput(this.pickHigh);
    if (!c) this.pickProblem = "Choose a figure to mark.";
    else if (low === null || high === null) this.pickProblem = "Low and high: numbers, please.";
    else if (compareDecimal(low, c.value) > 0 || compareDecimal(c.value, high) > 0)
      this.pickProblem = `The range must hold the value the plan uses, ${c.value}.`;
    else if (c.whole && (!/^\d+$/.test(low) || !/^\d+$/.test(high))) this.pickProblem = "Whole months, please.";
    else {
      this.uncertain = [...this.uncertain.filter((u) => u.path !== c.path), { path: c.path, low, high }];
      this.pickProblem = null;
    }
  }

  /** Stops drawing the figure at `path`. */
  unmark(path: string): void {
    this.uncertain = this.uncertain.filter((u) => u.path !== path);
  }

  /** What a marked figure is, in words. */
  labelOf(path: string): string {
    return this.candidates.find((c) => c.path === path)?.label ?? path;
  }

  /** Asks how far the running analysis has come. */
  private async poll(): Promise<void> {
    try {
      const progress = await this.store.backend.riskProgress();
      if (this.running && progress) this.progress = progress;
    } catch {
      // A progress report that does not arrive changes nothing: the run's own answer decides.
    }
  }

  /** Stops the running analysis; the analysis kept before it stays. */
  async cancel(): Promise<void> {
    if (!this.running) return;
    try {
      await this.store.backend.cancelRisk();
    } catch (error) {
      this.error = error;
    }
  }

  /** The share of the running analysis done, 0 to 1. */
  get done(): number {
    const p = this.progress;
    return p && p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  }

  /** Whether the analysis ran on another plan than `planDigest` (the comparison's). */
  staleAgainst(planDigest: string | null): boolean {
    return this.view !== null && planDigest !== null && this.view.digest !== planDigest;
  }

  /** The drawn figure a tornado bar is about. */
  figureOf(bar: TornadoBar): DrawnFigure | null {
    return this.view?.outcome.figures[bar.figure] ?? null;
  }
}

/** What is wrong with `draws`, `seed` and `correlation` as typed, or null. */
function problemOf(draws: string, seed: string, correlation: string): string | null {
  const whole = (text: string) => /^\d+$/.test(text.trim());
  if (!whole(draws) || Number(draws) < 1 || Number(draws) > MAX_DRAWS) return "Draws: a whole number from 1 to 100,000.";
  if (!whole(seed) || Number(seed) > 4_294_967_295) return "Seed: a whole number from 0 to 4,294,967,295.";
  const c = correlation.trim();
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(c)) return "Correlation: a number from 0 to 1, e.g. 0.8.";
  return null;
}
