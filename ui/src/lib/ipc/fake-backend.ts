// An in-memory Backend for tests and the dev-only fixture preview (dev/). It holds whatever the
// caller gives it (a catalog, a workspace, canned engine answers); it has no data of its own and
// computes nothing: `compare`, `scenarioDetail` and `sizeWorkload` return the caller's canned
// answers. It does keep a workspace the way the store does: edits with coalescing, an undo/redo
// stack, view cleaning, import with renamed ids, the memo draft (an undoable item) and its
// records, signing identities. It writes no PDF and checks no signature: `exportMemo` and `signPdf`
// check their inputs as the back end does and record a plausible result, `verifyPdf` returns the
// caller's canned check for the path. The vendor scorecard is an undoable item like the memo
// draft; `scorecardView` returns the caller's canned answer for the draft (default: the vendors
// listed, nothing scored), `previewQuotes` the caller's canned preview or refusal for the path,
// and `importQuotes` makes a scenario per vendor from the base and the preview's rows, as the
// store does (one undo step). Production code must not import it
// (tests/architecture.test.ts enforces this).

import type { Catalog, PlannerError } from "../catalog-types";
import { BackendError, type Backend } from "../backend";
import { compareDecimal } from "../decimal";
import { emptyLayer } from "../layers";
import type {
  AnswerInput,
  ChecklistAnswer,
  ChecklistSubject,
  ChecklistView,
  FamilyView,
  ItemView,
  LogCheck,
  LogProblem,
  SignOff,
  SubjectStatus,
  Applied,
  CatalogStatus,
  Changed,
  CompareScreen,
  Comparison,
  EditRequest,
  ExitVariantOutcome,
  ExportFormat,
  FilePurpose,
  History,
  IdentitySummary,
  Imported,
  MemoDraft,
  MemoRecord,
  PdfCheck,
  Published,
  QuotePreview,
  QuotesImported,
  QuoteTemplate,
  ScorecardDraft,
  ScorecardView,
  LayerSpec,
  RecentFile,
  ScenarioDetail,
  ScenarioExits,
  ScenarioSpec,
  ScenarioSummary,
  Session,
  SignWith,
  SizingPreview,
  Theme,
  ViewState,
  WorkloadSpec,
  WorkspaceInfo,
  WorkspaceSettings,
} from "../workspace-types";

export type FakeAnswer = { catalog: Catalog } | { error: PlannerError } | { throws: unknown };

/** A workspace the fake starts with, or opens at `path`. Specs are total, as the back end sends them. */
export type FakeWorkspaceInit = {
  path: string;
  settings: WorkspaceSettings;
  workloads?: WorkloadSpec[];
  scenarios?: ScenarioSpec[];
  view?: ViewState;
  catalog: Catalog;
  catalogStatus?: CatalogStatus;
  /** The memo draft (absent fields empty) and the memos already written from the workspace. */
  memo?: Partial<MemoDraft>;
  memoRecords?: MemoRecord[];
  /** The vendor scorecard (absent: equal weights, no vendors). */
  scorecard?: Partial<ScorecardDraft>;
};

/** A signing identity the fake keeps, with the passphrase that opens it. */
export type FakeIdentity = { summary: IdentitySummary; passphrase: string };

export type FakeOptions = {
  delayMs?: number;
  /** Extra delay per method, e.g. `{ compare: 300 }`. */
  delays?: Partial<Record<keyof Backend, number>>;
  /** The workspace open at start. */
  workspace?: FakeWorkspaceInit | null;
  /** Workspaces `openWorkspace` can open, by path. */
  files?: Record<string, FakeWorkspaceInit>;
  recent?: RecentFile[];
  launchError?: PlannerError | null;
  /** What the file dialog answers, per purpose (absent: the user cancels). */
  dialog?: Partial<Record<FilePurpose, string | null>>;
  /** The catalog a new workspace gets (defaults to the shipped catalog of the answer). */
  newWorkspaceCatalog?: Catalog;
  /** Canned engine answers. */
  comparison?: Comparison;
  charts?: { cumulative_svg: string | null; monthly_svgs: { scenario: string; svg: string }[]; chart_errors?: string[] };
  detail?: (scenario: ScenarioSpec) => ScenarioDetail;
  sizing?: (workload: WorkloadSpec, accelerator: string, gpusPerServer: number) => SizingPreview | null;
  /** The engine's cost of leaving a scenario's clause layers, and its exit variants (by layer and month). */
  exits?: (scenario: ScenarioSpec) => ScenarioExits;
  exitVariant?: (scenario: ScenarioSpec, layer: string, month: number) => ExitVariantOutcome | null;
  /** Scenario files `importScenarios` can read, by path. */
  scenarioFiles?: Record<string, { currency: string; workloads: WorkloadSpec[]; scenarios: ScenarioSpec[] }>;
  /** Signing identities kept at start. */
  identities?: FakeIdentity[];
  /** PKCS#12 files `importIdentity` can read, by path. */
  identityFiles?: Record<string, FakeIdentity>;
  /** What `verifyPdf` answers, by path (absent: the file cannot be read). */
  pdfChecks?: Record<string, PdfCheck>;
  /** Pages, charts and size of every memo `exportMemo` "writes". */
  memoOutput?: { pages: number; charts: number; size: number };
  /** The engine's scorecard for a draft (canned; absent: the vendors listed, nothing scored). */
  scorecardView?: (draft: ScorecardDraft) => ScorecardView;
  /** What `previewQuotes` reads at each path: a preview, or the refusal with its located problems. */
  quoteFiles?: Record<string, { preview: QuotePreview } | { error: PlannerError }>;
  /** Where the quote template is (absent: the repository layout). */
  quoteTemplate?: QuoteTemplate;
  /** Milliseconds of the edit clock (coalescing merges edits less than 2 s apart). */
  now?: () => number;
  /** The checklist template the fake judges answers by (absent: no checklist commands work). */
  checklist?: FakeChecklistTemplate;
  /** Files `answerChecklistItem` can attach, by path (absent: the file cannot be read). */
  evidenceFiles?: Record<string, { size: number; sha256: string }>;
  /** A broken log the fake reports (verify names it; nothing is cleared; nothing is recorded). */
  logProblem?: LogProblem | null;
  /** Why the open workspace is read-only (as the store finds it); every change is then refused. */
  readOnly?: string | null;
};

/** A checklist template for the fake: the families and the items with the rule's fields. */
export type FakeChecklistTemplate = {
  title: string;
  version: string;
  families: FamilyView[];
  items: (Omit<ItemView, "answer" | "history" | "hints"> & { applies_to: "scenario" | "vendor" | "both" })[];
};

type Item = { kind: "memo"; value: MemoDraft } | { kind: "scorecard"; value: ScorecardDraft } | { kind: "settings"; value: WorkspaceSettings } | { kind: "workload"; id: string; value: WorkloadSpec | null; position: number } | { kind: "scenario"; id: string; value: ScenarioSpec | null; position: number } | { kind: "catalog"; value: { catalog: Catalog; status: CatalogStatus } };
type Change = { before: Item; after: Item };
type Step = { label: string; coalesce: string | null; at: number; changes: Change[] };

type State = {
  path: string;
  settings: WorkspaceSettings;
  workloads: WorkloadSpec[];
  scenarios: ScenarioSpec[];
  view: ViewState;
  catalog: Catalog;
  catalogStatus: CatalogStatus;
  memo: MemoDraft;
  records: MemoRecord[];
  /** The checklist log, oldest first: answers, sign-offs, revocations by subject key. */
  checklistLog: { subject: string; answer?: ChecklistAnswer; signoff?: SignOff; revoke?: string }[];
  scorecard: ScorecardDraft;
  undo: Step[];
  redo: Step[];
  revision: number;
};

const COALESCE_MS = 2000;
const HORIZONS = [12, 24, 36, 60];
const EMPTY_DETAIL: ScenarioDetail = { figures: null, layer_plans: [], sizing: [], assumptions: [], problems: [] };

/** A scenario id made from a base id and a vendor name, as the store makes it. */
function slug(text: string): string {
  let id = "";
  for (const c of text) {
    if (/[A-Za-z0-9_.]/.test(c)) id += c.toLowerCase();
    else if (id !== "" && !id.endsWith("-")) id += "-";
  }
  return id.replace(/-+$/, "").slice(0, 72).replace(/-+$/, "");
}

function refuse(code: PlannerError["code"], message: string, field?: string): BackendError {
  return new BackendError({
    code,
    message,
    details: field ? [{ file: null, line: null, column: null, field, kind: code, message }] : [],
  });
}

function countOverrides(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countOverrides(x), 0);
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const own = Object.keys(o).length === 2 && "value" in o && "reason" in o ? 1 : 0;
    return own + Object.values(o).reduce((n: number, x) => n + countOverrides(x), 0);
  }
  return 0;
}

/** A scenario as the list shows it (as the store's ScenarioSummary::of). */
export function summaryOf(s: ScenarioSpec): ScenarioSummary {
  return {
    id: s.id,
    name: s.name,
    layers: s.layers.map((l) => l.kind),
    supplies: s.layers.map((l) => l.accelerator ?? l.offer).filter((x): x is string => !!x),
    overrides: countOverrides(s),
  };
}

export class FakeBackend implements Backend {
  /** How many times getCatalog was called. */
  calls = 0;
  /** Every call after getCatalog's, in order, with its arguments. */
  readonly log: { method: string; args: unknown[] }[] = [];
  private readonly answer: FakeAnswer;
  private readonly options: FakeOptions;
  private ws: State | null;
  private readonly files: Record<string, FakeWorkspaceInit>;
  private recent: RecentFile[];

  private readonly identities: FakeIdentity[];

  constructor(answer: FakeAnswer, options: FakeOptions = {}) {
    this.identities = structuredClone(options.identities ?? []);
    this.answer = answer;
    this.options = options;
    this.files = { ...(options.files ?? {}) };
    this.recent = structuredClone(options.recent ?? []);
    this.ws = null;
    // As the shell does for a workspace opened at launch: it is open and first in the recent list.
    if (options.workspace) this.install(this.load(options.workspace));
  }

  /** The calls to `method`, with their arguments. */
  callsTo(method: keyof Backend): unknown[][] {
    return this.log.filter((c) => c.method === method).map((c) => c.args);
  }

  /** The fake's current workspace state (for assertions). */
  get state(): Readonly<State> | null {
    return this.ws;
  }

  private load(init: FakeWorkspaceInit): State {
    const catalogStatus = init.catalogStatus ?? {
      version: init.catalog.files[0]?.version ?? "",
      taken: "2026-11-21 10:00",
      shipped_version: init.catalog.files[0]?.version ?? null,
      newer_available: false,
    };
    return {
      path: init.path,
      settings: structuredClone(init.settings),
      workloads: structuredClone(init.workloads ?? []),
      scenarios: structuredClone(init.scenarios ?? []),
      view: structuredClone(init.view ?? { selected: [], baseline: null, horizon_months: null }),
      catalog: structuredClone(init.catalog),
      catalogStatus: { ...catalogStatus },
      memo: memoDraft(init.memo),
      records: structuredClone(init.memoRecords ?? []),
      checklistLog: [],
      scorecard: scorecardDraft(init.scorecard),
      undo: [],
      redo: [],
      revision: 0,
    };
  }

  private async enter(method: keyof Backend, args: unknown[]): Promise<void> {
    this.log.push({ method, args: structuredClone(args) });
    const delay = (this.options.delayMs ?? 0) + (this.options.delays?.[method] ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
  }

  private open(): State {
    if (!this.ws) throw refuse("no-workspace", "No workspace is open: create one or open one from the start screen.");
    return this.ws;
  }

  private history(s: State): History {
    const u = s.undo[s.undo.length - 1];
    const r = s.redo[s.redo.length - 1];
    return {
      can_undo: !!u,
      can_redo: !!r,
      undo_label: u?.label ?? null,
      redo_label: r?.label ?? null,
      revision: s.revision,
    };
  }

  private info(s: State): WorkspaceInfo {
    return structuredClone({
      path: s.path,
      settings: s.settings,
      workloads: s.workloads,
      scenarios: s.scenarios.map(summaryOf),
      view: this.cleanView(s, s.view),
      history: this.history(s),
      catalog: s.catalogStatus,
      read_only: this.options.readOnly ?? null,
    });
  }

  private cleanView(s: State, v: ViewState): ViewState {
    const selected: string[] = [];
    for (const id of v.selected) {
      if (s.scenarios.some((x) => x.id === id) && !selected.includes(id) && selected.length < 8) selected.push(id);
    }
    return {
      selected,
      baseline: v.baseline !== null && selected.includes(v.baseline) ? v.baseline : null,
      horizon_months: v.horizon_months !== null && HORIZONS.includes(v.horizon_months) ? v.horizon_months : null,
    };
  }

  private install(s: State): WorkspaceInfo {
    this.ws = s;
    this.recent = [
      { path: s.path, title: s.settings.title, opened: "2026-11-21 10:00", exists: true },
      ...this.recent.filter((r) => r.path !== s.path),
    ].slice(0, 10);
    return this.info(s);
  }

  private current(s: State, like: Item): Item {
    switch (like.kind) {
      case "memo":
        return { kind: "memo", value: structuredClone(s.memo) };
      case "scorecard":
        return { kind: "scorecard", value: structuredClone(s.scorecard) };
      case "settings":
        return { kind: "settings", value: structuredClone(s.settings) };
      case "workload": {
        const i = s.workloads.findIndex((w) => w.id === like.id);
        return { kind: "workload", id: like.id, value: i < 0 ? null : structuredClone(s.workloads[i]!), position: i < 0 ? s.workloads.length : i };
      }
      case "scenario": {
        const i = s.scenarios.findIndex((w) => w.id === like.id);
        return { kind: "scenario", id: like.id, value: i < 0 ? null : structuredClone(s.scenarios[i]!), position: i < 0 ? s.scenarios.length : i };
      }
      case "catalog":
        return { kind: "catalog", value: structuredClone({ catalog: s.catalog, status: s.catalogStatus }) };
    }
  }

  private write(s: State, item: Item): Changed {
    switch (item.kind) {
      case "memo":
        s.memo = structuredClone(item.value);
        return { kind: "memo", memo: structuredClone(item.value) };
      case "scorecard":
        s.scorecard = structuredClone(item.value);
        return { kind: "scorecard", scorecard: structuredClone(item.value) };
      case "settings":
        s.settings = structuredClone(item.value);
        return { kind: "settings", settings: structuredClone(item.value) };
      case "workload": {
        const i = s.workloads.findIndex((w) => w.id === item.id);
        if (i >= 0) s.workloads.splice(i, 1);
        if (item.value) s.workloads.splice(Math.min(i >= 0 ? i : item.position, s.workloads.length), 0, structuredClone(item.value));
        return { kind: "workload", id: item.id, workload: structuredClone(item.value) };
      }
      case "scenario": {
        const i = s.scenarios.findIndex((w) => w.id === item.id);
        if (i >= 0) s.scenarios.splice(i, 1);
        if (item.value) s.scenarios.splice(Math.min(i >= 0 ? i : item.position, s.scenarios.length), 0, structuredClone(item.value));
        return { kind: "scenario", id: item.id, summary: item.value ? summaryOf(item.value) : null };
      }
      case "catalog":
        s.catalog = structuredClone(item.value.catalog);
        s.catalogStatus = { ...item.value.status };
        return { kind: "catalog", status: { ...item.value.status } };
    }
  }

  private commit(s: State, label: string, coalesce: string | null, afters: Item[]): Applied {
    const now = (this.options.now ?? Date.now)();
    const changes = afters.map((after) => ({ before: this.current(s, after), after }));
    const changed = changes.map((c) => this.write(s, c.after));
    const last = s.undo[s.undo.length - 1];
    if (coalesce !== null && last && last.coalesce === coalesce && s.redo.length === 0 && now - last.at < COALESCE_MS) {
      // Same field again within two seconds: one undo step, keeping the first "before".
      last.changes = last.changes.map((c, i) => ({ before: c.before, after: changes[i]?.after ?? c.after }));
      last.at = now;
      last.label = label;
    } else {
      s.undo.push({ label, coalesce, at: now, changes });
    }
    s.redo = [];
    s.revision += 1;
    return { history: this.history(s), label, changed };
  }

  async getCatalog(): Promise<Catalog> {
    this.calls += 1;
    const delay = this.options.delayMs ?? 0;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const a = this.answer;
    if ("catalog" in a) return structuredClone(a.catalog);
    if ("error" in a) throw new BackendError(structuredClone(a.error));
    throw a.throws;
  }

  async session(): Promise<Session> {
    await this.enter("session", []);
    return {
      workspace: this.ws ? this.info(this.ws) : null,
      launch_error: structuredClone(this.options.launchError ?? null),
      recent: structuredClone(this.recent),
    };
  }

  async createWorkspace(path: string, title: string): Promise<WorkspaceInfo> {
    await this.enter("createWorkspace", [path, title]);
    if (title.trim() === "") throw refuse("invalid-input", "settings.title: give the workspace a title", "settings.title");
    const catalog = this.options.newWorkspaceCatalog ?? ("catalog" in this.answer ? this.answer.catalog : null);
    if (!catalog) throw refuse("catalog-invalid", "The catalog could not be loaded.");
    const init: FakeWorkspaceInit = {
      path,
      settings: { title, description: null, currency: "USD", start: "2027-01", horizon_months: 36, discount_rate: "0.08", price_point: "mid", fx: [] },
      catalog,
    };
    this.files[path] = init;
    return this.install(this.load(init));
  }

  async openWorkspace(path: string): Promise<WorkspaceInfo> {
    await this.enter("openWorkspace", [path]);
    const init = this.files[path];
    if (!init) throw refuse("io", `${path}: cannot open the workspace: no such file.`);
    return this.install(this.load(init));
  }

  async saveWorkspaceAs(path: string): Promise<WorkspaceInfo> {
    await this.enter("saveWorkspaceAs", [path]);
    const s = this.open();
    s.path = path;
    return this.install(s);
  }

  async closeWorkspace(): Promise<void> {
    await this.enter("closeWorkspace", []);
    this.ws = null;
  }

  async chooseFile(purpose: FilePurpose): Promise<string | null> {
    await this.enter("chooseFile", [purpose]);
    return this.options.dialog?.[purpose] ?? null;
  }

  async workspaceCatalog(): Promise<Catalog> {
    await this.enter("workspaceCatalog", []);
    return structuredClone(this.open().catalog);
  }

  async getScenario(id: string): Promise<ScenarioSpec> {
    await this.enter("getScenario", [id]);
    const found = this.open().scenarios.find((s) => s.id === id);
    if (!found) throw refuse("not-found", `there is no scenario \`${id}\``);
    return structuredClone(found);
  }

  async applyEdit(request: EditRequest): Promise<Applied> {
    await this.enter("applyEdit", [request]);
    const s = this.open();
    this.writable(s, "change it");
    const e = request.edit;
    let after: Item;
    switch (e.kind) {
      case "settings":
        if (e.settings.title.trim() === "") throw refuse("invalid-input", "settings.title: give the workspace a title", "settings.title");
        if (!/^[A-Z]{3}$/.test(e.settings.currency)) {
          throw refuse("invalid-input", "settings.currency: write an ISO 4217 code of three capital letters, e.g. USD or EUR", "settings.currency");
        }
        after = { kind: "settings", value: structuredClone(e.settings) };
        break;
      case "put-workload":
        if (!/^[A-Za-z0-9._-]{1,80}$/.test(e.workload.id)) throw refuse("invalid-input", "workload.id: not a valid id", "workload.id");
        after = { kind: "workload", id: e.workload.id, value: structuredClone(e.workload), position: s.workloads.length };
        break;
      case "delete-workload":
        if (!s.workloads.some((w) => w.id === e.id)) throw refuse("not-found", `there is no workload \`${e.id}\``);
        after = { kind: "workload", id: e.id, value: null, position: 0 };
        break;
      case "put-scenario":
        if (!/^[A-Za-z0-9._-]{1,80}$/.test(e.scenario.id)) throw refuse("invalid-input", "scenario.id: not a valid id", "scenario.id");
        if (e.scenario.name.trim() === "") throw refuse("invalid-input", "scenario.name: give the scenario a name", "scenario.name");
        after = { kind: "scenario", id: e.scenario.id, value: structuredClone(e.scenario), position: s.scenarios.length };
        break;
      case "delete-scenario":
        if (!s.scenarios.some((x) => x.id === e.id)) throw refuse("not-found", `there is no scenario \`${e.id}\``);
        after = { kind: "scenario", id: e.id, value: null, position: 0 };
        break;
      case "memo":
        // The draft is saved as typed: an incomplete one is refused only when a memo is made.
        after = { kind: "memo", value: structuredClone(e.memo) };
        break;
      case "scorecard":
        // Saved as typed, like the memo draft: missing figures only keep a vendor unranked.
        after = { kind: "scorecard", value: structuredClone(e.scorecard) };
        break;
    }
    return structuredClone(this.commit(s, request.label, request.coalesce, [after]));
  }

  /** As the store refuses any change to a workspace open read-only. */
  private writable(s: State, action: string) {
    const why = this.options.readOnly;
    if (why) {
      throw refuse(
        "workspace-read-only",
        `${s.path} is open read-only (${why}), so Compute Planner cannot ${action}. Nothing was changed. Use Save As to keep an editable copy in a folder you can write to, or make the file and its folder writable and open it again.`,
      );
    }
  }

  private step(undo: boolean): Applied | null {
    const s = this.open();
    this.writable(s, undo ? "undo an edit" : "redo an edit");
    const from = undo ? s.undo : s.redo;
    const to = undo ? s.redo : s.undo;
    const step = from.pop();
    if (!step) return null;
    const changed = (undo ? [...step.changes].reverse() : step.changes).map((c) => this.write(s, undo ? c.before : c.after));
    to.push(step);
    s.revision += 1;
    return structuredClone({ history: this.history(s), label: step.label, changed });
  }

  async undo(): Promise<Applied | null> {
    await this.enter("undo", []);
    return this.step(true);
  }

  async redo(): Promise<Applied | null> {
    await this.enter("redo", []);
    return this.step(false);
  }

  async setView(view: ViewState): Promise<ViewState> {
    await this.enter("setView", [view]);
    const s = this.open();
    s.view = this.cleanView(s, view);
    return structuredClone(s.view);
  }

  async compare(theme: Theme): Promise<CompareScreen> {
    await this.enter("compare", [theme]);
    this.open();
    const comparison: Comparison = this.options.comparison ?? { view: null, problems: [] };
    return structuredClone({
      comparison,
      cumulative_svg: this.options.charts?.cumulative_svg ?? null,
      monthly_svgs: this.options.charts?.monthly_svgs ?? [],
      chart_errors: this.options.charts?.chart_errors ?? [],
      backend_ms: "1.0",
    });
  }

  async scenarioDetail(scenario: ScenarioSpec): Promise<ScenarioDetail> {
    await this.enter("scenarioDetail", [scenario]);
    this.open();
    return structuredClone(this.options.detail?.(scenario) ?? EMPTY_DETAIL);
  }

  async exitCosts(scenario: ScenarioSpec): Promise<ScenarioExits> {
    await this.enter("exitCosts", [scenario]);
    this.open();
    return structuredClone(this.options.exits?.(scenario) ?? { layers: [], problems: [] });
  }

  async exitVariant(scenario: ScenarioSpec, layer: string, month: number): Promise<ExitVariantOutcome> {
    await this.enter("exitVariant", [scenario, layer, month]);
    this.open();
    // As the engine: a layer without a clause cannot be priced.
    if (!scenario.layers.find((l) => l.id === layer)?.exit_clause) {
      const message = `layer \`${layer}\` has no exit clause; give it one in the scenario to price leaving it`;
      return { price: null, problems: [{ subject: { kind: "scenario", id: scenario.id }, field: "layer", message }] };
    }
    const answer = this.options.exitVariant?.(scenario, layer, month);
    if (!answer) throw refuse("invalid-input", `no canned exit variant for ${layer} at month ${month}`);
    return structuredClone(answer);
  }

  async sizeWorkload(workload: WorkloadSpec, accelerator: string, gpusPerServer: number): Promise<SizingPreview | null> {
    await this.enter("sizeWorkload", [workload, accelerator, gpusPerServer]);
    this.open();
    return structuredClone(this.options.sizing?.(workload, accelerator, gpusPerServer) ?? null);
  }

  async updateCatalog(): Promise<Applied> {
    await this.enter("updateCatalog", []);
    const s = this.open();
    const shipped = "catalog" in this.answer ? this.answer.catalog : null;
    if (!shipped) throw refuse("catalog-invalid", "The catalog could not be loaded.");
    const version = s.catalogStatus.shipped_version ?? s.catalogStatus.version;
    const status: CatalogStatus = { version, taken: "2026-11-21 10:05", shipped_version: null, newer_available: false };
    const label = `Update catalog ${s.catalogStatus.version} → ${version}`;
    return structuredClone(this.commit(s, label, null, [{ kind: "catalog", value: { catalog: shipped, status } }]));
  }

  async importScenarios(path: string): Promise<Imported> {
    await this.enter("importScenarios", [path]);
    const s = this.open();
    const file = this.options.scenarioFiles?.[path];
    if (!file) throw refuse("io", `Could not read the scenario file ${path}.`);
    if (file.currency !== s.settings.currency) {
      throw refuse("invalid-input", `currency: ${path} is in ${file.currency} but this workspace is in ${s.settings.currency}.`, "currency");
    }
    const renamed: string[] = [];
    const free = (id: string, taken: (x: string) => boolean) => {
      if (!taken(id)) return id;
      for (let n = 2; ; n += 1) if (!taken(`${id}-${n}`)) return `${id}-${n}`;
    };
    const items: Item[] = [];
    const wIds = s.workloads.map((w) => w.id);
    for (const w of structuredClone(file.workloads)) {
      const id = free(w.id, (x) => wIds.includes(x));
      if (id !== w.id) renamed.push(`workload ${w.id} → ${id}`);
      wIds.push(id);
      items.push({ kind: "workload", id, value: { ...w, id }, position: s.workloads.length });
    }
    const sIds = s.scenarios.map((x) => x.id);
    for (const x of structuredClone(file.scenarios)) {
      const id = free(x.id, (y) => sIds.includes(y));
      if (id !== x.id) renamed.push(`scenario ${x.id} → ${id}`);
      sIds.push(id);
      items.push({ kind: "scenario", id, value: { ...x, id }, position: s.scenarios.length });
    }
    const name = path.split(/[\\/]/).pop() ?? path;
    const applied = this.commit(s, `Import ${name}`, null, items);
    return structuredClone({ applied, workloads: file.workloads.length, scenarios: file.scenarios.length, renamed });
  }

  async exportScenarios(path: string, ids: string[] | null): Promise<void> {
    await this.enter("exportScenarios", [path, ids]);
    this.open();
  }

  async exportComparison(path: string, format: ExportFormat): Promise<void> {
    await this.enter("exportComparison", [path, format]);
    this.open();
  }

  async exportLedger(path: string, scenario: string): Promise<void> {
    await this.enter("exportLedger", [path, scenario]);
    this.open();
  }

  // ---- The decision memo ----

  private clock(): string {
    return new Date((this.options.now ?? Date.now)()).toISOString().slice(0, 19).replace("T", " ");
  }

  /** The identity `sign` names, opened with its passphrase, as the back end checks it. */
  private unlock(identity: string, passphrase: string): FakeIdentity {
    const found = this.identities.find((i) => i.summary.id === identity);
    if (!found) throw refuse("not-found", `there is no signing identity \`${identity}\``);
    if (found.passphrase !== passphrase) throw refuse("invalid-input", `the passphrase does not open the identity \`${identity}\``, "passphrase");
    return found;
  }

  private signedRecord(s: State | null, path: string, sign: SignWith, pages: number, scenarios: string[]): MemoRecord {
    const id = this.unlock(sign.identity, sign.passphrase).summary;
    const before = s ? s.records.filter((r) => r.file === path && r.event === "signed").length : 0;
    const signer = [id.common_name, id.organisation].filter((x): x is string => !!x).join(", ");
    return {
      event: "signed",
      at: this.clock(),
      file: path,
      sha256: fakeSha(`${path}#signed#${before + 1}`),
      pages,
      scenarios,
      signer,
      certificate_sha256: id.sha256,
      reason: sign.reason,
      signatures: before + 1,
    };
  }

  async memoDraft(): Promise<MemoDraft> {
    await this.enter("memoDraft", []);
    return structuredClone(this.open().memo);
  }

  async memoRecords(): Promise<MemoRecord[]> {
    await this.enter("memoRecords", []);
    return structuredClone(this.open().records);
  }

  async exportMemo(path: string, sign: SignWith | null): Promise<Published> {
    await this.enter("exportMemo", [path, sign]);
    const s = this.open();
    const m = s.memo;
    const ids = m.scenarios.length > 0 ? [...m.scenarios] : this.cleanView(s, s.view).selected;
    // The back end's check of the draft (planner-core MemoDraft::problems), field by field.
    const problems: [string, string][] = [];
    if (m.author.trim() === "") problems.push(["author", "the memo needs an author: write your name"]);
    if (m.decision.trim() === "") problems.push(["decision", "the memo needs the decision: write what was decided in a sentence or two"]);
    if (ids.length === 0) problems.push(["scenarios", "choose at least one scenario for the memo to compare"]);
    else if (ids.length > 8) problems.push(["scenarios", "a memo compares at most 8 scenarios: leave some out"]);
    if (m.recommended !== null && !ids.includes(m.recommended)) {
      problems.push(["recommended", "the recommended scenario is not among the memo's scenarios: add it, or choose another"]);
    }
    if (problems.length > 0) {
      throw new BackendError({
        code: "invalid-input",
        message: `The memo cannot be made yet: ${problems.map(([, msg]) => msg).join("; ")}.`,
        details: problems.map(([field, message]) => ({ file: null, line: null, column: null, field: `memo.${field}`, kind: null, message })),
      });
    }
    const out = this.options.memoOutput ?? { pages: 4, charts: 2, size: 182_344 };
    if (sign) this.unlock(sign.identity, sign.passphrase);
    // A new memo replaces any file at `path`: its earlier signatures are gone.
    s.records = s.records.filter((r) => r.file !== path || r.event === "generated");
    const generated: MemoRecord = {
      event: "generated",
      at: this.clock(),
      file: path,
      sha256: fakeSha(`${path}#generated#${s.records.length}`),
      pages: out.pages,
      scenarios: ids,
      signer: null,
      certificate_sha256: null,
      reason: null,
      signatures: 0,
    };
    s.records.push(generated);
    let record = generated;
    if (sign) {
      record = this.signedRecord(s, path, sign, out.pages, ids);
      s.records.push(record);
    }
    return structuredClone({ record, charts: out.charts, size: out.size + (sign ? 24_000 : 0) });
  }

  async signPdf(path: string, sign: SignWith): Promise<MemoRecord> {
    await this.enter("signPdf", [path, sign]);
    const s = this.ws;
    const known = s?.records.filter((r) => r.file === path).pop();
    if (!known && !this.options.pdfChecks?.[path]) throw refuse("io", `${path}: cannot read the PDF: no such file.`);
    const record = this.signedRecord(s, path, sign, known?.pages ?? 1, known?.scenarios ?? []);
    s?.records.push(record);
    return structuredClone(record);
  }

  async verifyPdf(path: string): Promise<PdfCheck> {
    await this.enter("verifyPdf", [path]);
    const check = this.options.pdfChecks?.[path];
    if (!check) throw refuse("io", `${path}: cannot read the PDF: no such file.`);
    return structuredClone(check);
  }

  async listIdentities(): Promise<IdentitySummary[]> {
    await this.enter("listIdentities", []);
    return structuredClone(this.identities.map((i) => i.summary));
  }

  async createIdentity(name: string, organisation: string, email: string | null, passphrase: string): Promise<IdentitySummary> {
    await this.enter("createIdentity", [name, organisation, email, passphrase]);
    if (name.trim() === "") throw refuse("invalid-input", "give the signer's name, as it should appear on signatures", "name");
    if (organisation.trim() === "") throw refuse("invalid-input", "give the signer's organisation", "organisation");
    if ([...passphrase].length < 8) {
      throw refuse("invalid-input", "the passphrase must have at least 8 characters; it encrypts the private key", "passphrase");
    }
    const base = name.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "identity";
    let id = base;
    for (let n = 2; this.identities.some((i) => i.summary.id === id); n += 1) id = `${base}-${n}`;
    const today = this.clock().slice(0, 10);
    const subject = `CN=${name.trim()}, O=${organisation.trim()}`;
    const summary: IdentitySummary = {
      id,
      common_name: name.trim(),
      organisation: organisation.trim(),
      email: email && email.trim() !== "" ? email.trim() : null,
      issuer: subject,
      not_before: `${today}T00:00:00Z`,
      not_after: `${Number(today.slice(0, 4)) + 3}${today.slice(4)}T00:00:00Z`,
      sha256: fakeSha(`identity#${id}`),
      self_signed: true,
      origin: "made here",
    };
    this.identities.push({ summary, passphrase });
    return structuredClone(summary);
  }

  async importIdentity(path: string, passphrase: string): Promise<IdentitySummary> {
    await this.enter("importIdentity", [path, passphrase]);
    const file = this.options.identityFiles?.[path];
    if (!file) throw refuse("io", `${path}: cannot read the PKCS#12 file: no such file.`);
    if (file.passphrase !== passphrase) throw refuse("invalid-input", `${path}: the passphrase does not open this PKCS#12 file`, "passphrase");
    const summary: IdentitySummary = { ...structuredClone(file.summary), origin: "imported" };
    this.identities.push({ summary, passphrase });
    return structuredClone(summary);
  }

  async exportCertificate(identity: string, passphrase: string, path: string): Promise<void> {
    await this.enter("exportCertificate", [identity, passphrase, path]);
    this.unlock(identity, passphrase);
  }

  // ---- The compliance checklists: the store's rule, replayed from an in-memory log ----

  private template(): FakeChecklistTemplate {
    const t = this.options.checklist;
    if (!t) throw refuse("io", "catalogs/checklists/d1-compliance.toml: cannot read the checklist template: no such file.");
    return t;
  }

  private subjectKey(subject: ChecklistSubject): string {
    return `${subject.kind}:${subject.id}`;
  }

  private checkSubject(s: State, subject: ChecklistSubject): string {
    if (subject.kind === "scenario") {
      const found = s.scenarios.find((x) => x.id === subject.id);
      if (!found) throw refuse("not-found", `there is no scenario \`${subject.id}\` in ${s.path}`);
      return found.name;
    }
    if (subject.id.trim() === "" || subject.id.length > 120) {
      throw refuse("invalid-input", "subject: a vendor needs a name of 1 to 120 characters", "subject");
    }
    return subject.id;
  }

  private replay(s: State, subject: ChecklistSubject): { answers: ChecklistAnswer[]; signoff: SignOff | null } {
    const key = this.subjectKey(subject);
    const answers: ChecklistAnswer[] = [];
    let signoff: SignOff | null = null;
    for (const e of s.checklistLog.filter((x) => x.subject === key)) {
      if (e.answer) answers.push(e.answer);
      if (e.signoff) signoff = e.signoff;
      if (e.revoke !== undefined) signoff = null;
    }
    return { answers, signoff };
  }

  private applicable(kind: ChecklistSubject["kind"]) {
    return this.template().items.filter((i) => i.applies_to === kind || i.applies_to === "both");
  }

  /** The answers in force as one text: what a sign-off covers (the store hashes it). */
  private digest(answers: ChecklistAnswer[]): string {
    const inForce = new Map(answers.map((a) => [a.item, a]));
    return fakeSha(JSON.stringify([...inForce.entries()].sort(([a], [b]) => (a < b ? -1 : 1))));
  }

  private clearanceOf(kind: ChecklistSubject["kind"], answers: ChecklistAnswer[], signoff: SignOff | null) {
    const inForce = new Map(answers.map((a) => [a.item, a]));
    const blocking_open: string[] = [];
    const blocking_failed: string[] = [];
    for (const item of this.applicable(kind).filter((i) => i.blocking)) {
      const status = inForce.get(item.id)?.status ?? "open";
      if (status === "fail") blocking_failed.push(item.id);
      else if (status === "open") blocking_open.push(item.id);
    }
    const signed_off = signoff !== null && signoff.reviewer.trim() !== "" && signoff.answers_sha256 === this.digest(answers);
    const trusted = !this.options.logProblem;
    return {
      cleared: trusted && blocking_open.length === 0 && blocking_failed.length === 0 && signed_off,
      blocking_open,
      blocking_failed,
      signed_off,
      unknown_items: [],
    };
  }

  private status(s: State, subject: ChecklistSubject): SubjectStatus {
    const { answers, signoff } = this.replay(s, subject);
    const c = this.clearanceOf(subject.kind, answers, signoff);
    const inForce = new Map(answers.map((a) => [a.item, a]));
    const items = this.applicable(subject.kind);
    return {
      subject,
      cleared: c.cleared,
      answered: items.filter((i) => (inForce.get(i.id)?.status ?? "open") !== "open").length,
      applicable: items.length,
      blocking_open: c.blocking_open.length,
      blocking_failed: c.blocking_failed.length,
      signed_off: c.signed_off,
      signed_by: c.signed_off ? (signoff?.reviewer ?? null) : null,
      signed_at: c.signed_off ? (signoff?.at ?? null) : null,
      summary: this.summary(items.length, inForce, c, signoff),
    };
  }

  /** The status in words, as the store writes it (`status_of`). */
  private summary(
    applicable: number,
    inForce: Map<string, ChecklistAnswer>,
    c: { cleared: boolean; blocking_open: string[]; blocking_failed: string[]; signed_off: boolean },
    signoff: SignOff | null,
  ): string {
    const answered = [...inForce.values()].filter((a) => a.status !== "open").length;
    const counted = `${answered} of ${applicable} items answered`;
    if (c.cleared && signoff) return `signed off by ${signoff.reviewer} at ${signoff.at}; ${counted}`;
    const why: string[] = [];
    if (c.blocking_failed.length > 0) why.push(`${c.blocking_failed.length} blocking item(s) failed`);
    if (c.blocking_open.length > 0) why.push(`${c.blocking_open.length} blocking item(s) open`);
    if (!c.signed_off) why.push("no sign-off covering the answers");
    if (this.options.logProblem) why.push("the checklist log is broken");
    return `${why.join(", ")}; ${counted}`;
  }

  private view(s: State, subject: ChecklistSubject): ChecklistView {
    const name = this.checkSubject(s, subject);
    const t = this.template();
    const { answers, signoff } = this.replay(s, subject);
    const clearance = this.clearanceOf(subject.kind, answers, signoff);
    return {
      subject,
      name,
      template_title: t.title,
      template_version: t.version,
      families: structuredClone(t.families),
      items: this.applicable(subject.kind).map((i) => {
        const mine = answers.filter((a) => a.item === i.id);
        return {
          id: i.id,
          family: i.family,
          title: i.title,
          guidance: i.guidance,
          blocking: i.blocking,
          sources: [...i.sources],
          answer: mine.at(-1) ?? null,
          history: mine.slice(0, -1),
          hints: [],
        };
      }),
      signoff,
      signoff_void: signoff !== null && !clearance.signed_off,
      clearance,
      hints_note: null,
      log_problem: this.options.logProblem ?? null,
    };
  }

  private refuseOnBrokenLog(): void {
    const p = this.options.logProblem;
    if (p) throw refuse("workspace-invalid", `${p.message} Nothing was recorded.`);
  }

  private logTime(): string {
    return `${new Date((this.options.now ?? Date.now)()).toISOString().slice(0, 19)}Z`;
  }

  async checklistStatuses(): Promise<SubjectStatus[]> {
    await this.enter("checklistStatuses", []);
    const s = this.open();
    this.template();
    const vendors = [...new Set(s.checklistLog.filter((e) => e.subject.startsWith("vendor:")).map((e) => e.subject.slice(7)))].sort();
    return [
      ...s.scenarios.map((x) => this.status(s, { kind: "scenario", id: x.id })),
      ...vendors.map((v) => this.status(s, { kind: "vendor", id: v })),
    ];
  }

  async checklist(subject: ChecklistSubject): Promise<ChecklistView> {
    await this.enter("checklist", [subject]);
    return this.view(this.open(), subject);
  }

  async answerChecklistItem(subject: ChecklistSubject, answer: AnswerInput, evidence: string[]): Promise<ChecklistView> {
    await this.enter("answerChecklistItem", [subject, answer, evidence]);
    const s = this.open();
    const files = evidence.map((path) => {
      const f = this.options.evidenceFiles?.[path];
      if (!f) throw refuse("not-found", `${path}: cannot read the evidence file: No such file or directory (os error 2)`);
      return { name: path.split(/[\\/]/).at(-1) ?? path, sha256: f.sha256, size: f.size };
    });
    this.checkSubject(s, subject);
    const reviewer = answer.reviewer.trim();
    if (reviewer === "") throw refuse("invalid-input", "reviewer: name the reviewer: every answer in the log is attributed to a person", "reviewer");
    const item = this.applicable(subject.kind).find((i) => i.id === answer.item);
    if (!item) throw refuse("invalid-input", `item: \`${answer.item}\` is not an item of this checklist`, "item");
    if (answer.status !== "open" && answer.note.trim() === "" && files.length === 0) {
      throw refuse("invalid-input", "note: say why: give a note or attach a file as evidence for any status but open", "note");
    }
    this.refuseOnBrokenLog();
    s.checklistLog.push({
      subject: this.subjectKey(subject),
      answer: { item: item.id, status: answer.status, note: answer.note.trim(), evidence: files, reviewer, at: this.logTime() },
    });
    return this.view(s, subject);
  }

  async signOffChecklist(subject: ChecklistSubject, reviewer: string, note: string, sign: SignWith | null): Promise<ChecklistView> {
    await this.enter("signOffChecklist", [subject, reviewer, note, sign]);
    const s = this.open();
    // The identity is opened first, as the shell does; the fake "signature" stands for a CMS it
    // does not make (the back end's is checked by planner-publish's tests).
    const signer = sign ? this.unlock(sign.identity, sign.passphrase) : null;
    this.checkSubject(s, subject);
    if (reviewer.trim() === "") throw refuse("invalid-input", "reviewer: name the reviewer who signs off: a sign-off is attributed to a person", "reviewer");
    this.refuseOnBrokenLog();
    const { answers, signoff } = this.replay(s, subject);
    const open = this.clearanceOf(subject.kind, answers, signoff).blocking_open;
    if (open.length > 0) {
      throw refuse(
        "invalid-input",
        `signoff: blocking items are still open: ${open.join(", ")}. Answer each (pass, fail or not applicable, with a note or evidence) before signing off.`,
        "signoff",
      );
    }
    s.checklistLog.push({
      subject: this.subjectKey(subject),
      signoff: {
        reviewer: reviewer.trim(),
        at: this.logTime(),
        note: note.trim(),
        answers_sha256: this.digest(answers),
        signature: signer
          ? {
              cms_hex: fakeSha(`${signer.summary.id}:${this.digest(answers)}`),
              signer: [signer.summary.common_name, signer.summary.organisation].filter((x) => x).join(", "),
              certificate_sha256: signer.summary.sha256,
            }
          : null,
      },
    });
    return this.view(s, subject);
  }

  async revokeSignOff(subject: ChecklistSubject, reviewer: string, reason: string): Promise<ChecklistView> {
    await this.enter("revokeSignOff", [subject, reviewer, reason]);
    const s = this.open();
    this.checkSubject(s, subject);
    if (reviewer.trim() === "" || reason.trim() === "") {
      throw refuse("invalid-input", "reason: name the reviewer and give the reason the sign-off is withdrawn", "reason");
    }
    this.refuseOnBrokenLog();
    s.checklistLog.push({ subject: this.subjectKey(subject), revoke: reason.trim() });
    return this.view(s, subject);
  }

  async verifyChecklistLog(): Promise<LogCheck> {
    await this.enter("verifyChecklistLog", []);
    const s = this.open();
    const files = new Set(s.checklistLog.flatMap((e) => e.answer?.evidence.map((f) => f.sha256) ?? []));
    return {
      entries: s.checklistLog.length,
      head: s.checklistLog.length === 0 ? "0".repeat(64) : fakeSha(JSON.stringify(s.checklistLog)),
      evidence_files: files.size,
      signed_signoffs: s.checklistLog.filter((e) => e.signoff?.signature).length,
      problem: this.options.logProblem ?? null,
    };
  }

  async exportEvidence(sha256: string, path: string): Promise<void> {
    await this.enter("exportEvidence", [sha256, path]);
    const s = this.open();
    const known = s.checklistLog.some((e) => e.answer?.evidence.some((f) => f.sha256 === sha256));
    if (!known) throw refuse("not-found", `${s.path}: no evidence file with SHA-256 ${sha256} is stored`);
  }

  // ---- The vendor side (issue #6) ----

  async scorecardDraft(): Promise<ScorecardDraft> {
    await this.enter("scorecardDraft", []);
    return structuredClone(this.open().scorecard);
  }

  async scorecardView(): Promise<ScorecardView> {
    await this.enter("scorecardView", []);
    const s = this.open();
    if (this.options.scorecardView) return structuredClone(this.options.scorecardView(structuredClone(s.scorecard)));
    const horizon = this.cleanView(s, s.view).horizon_months ?? s.settings.horizon_months;
    return {
      currency: s.settings.currency,
      horizon_months: horizon,
      vendors: s.scorecard.vendors.map((v) => ({
        name: v.name,
        scenario: v.scenario,
        scenario_name: s.scenarios.find((x) => x.id === v.scenario)?.name ?? null,
        tco: null,
        unmet_pflop_h: null,
        compliance: null,
        problems: [],
      })),
      scorecard: null,
      stability: null,
      problems: [],
    };
  }

  async previewQuotes(path: string): Promise<QuotePreview> {
    await this.enter("previewQuotes", [path]);
    this.open();
    const file = this.options.quoteFiles?.[path];
    if (!file) throw refuse("io", `${path}: the file cannot be read. Nothing was imported.`);
    if ("error" in file) throw new BackendError(structuredClone(file.error));
    return structuredClone(file.preview);
  }

  async importQuotes(path: string, base: string): Promise<QuotesImported> {
    await this.enter("importQuotes", [path, base]);
    const s = this.open();
    const file = this.options.quoteFiles?.[path];
    if (!file) throw refuse("io", `${path}: the file cannot be read. Nothing was imported.`);
    if ("error" in file) throw new BackendError(structuredClone(file.error));
    const from = s.scenarios.find((x) => x.id === base);
    if (!from) throw refuse("not-found", `there is no scenario \`${base}\` in ${s.path}`);
    const p = file.preview;
    const taken = s.scenarios.map((x) => x.id);
    const items: Item[] = [];
    const ids: string[] = [];
    const card = structuredClone(s.scorecard);
    for (const vendor of p.vendors) {
      const stem = slug(`${base} ${vendor}`);
      let id = stem;
      for (let n = 2; taken.includes(id); n += 1) id = `${stem}-${n}`;
      taken.push(id);
      ids.push(id);
      const rows = p.quotes.filter((q) => q.vendor === vendor);
      const layers: LayerSpec[] = rows.map((q) => {
        const l = emptyLayer(q.layer, q.kind);
        const reason = `RFP quote ${q.vendor} ${q.quote_id} (valid until ${q.valid_until})`;
        l.accelerator = q.accelerator;
        l.gpus = q.gpus;
        l.price_per_gpu_hour = q.price_per_gpu_hour === null ? null : { value: q.price_per_gpu_hour, currency: null, reason };
        l.price_per_gpu = q.price_per_gpu === null ? null : { value: q.price_per_gpu, currency: null, reason };
        return l;
      });
      const scenario = { ...structuredClone(from), id, name: `${from.name} — ${vendor}`, layers };
      items.push({ kind: "scenario", id, value: scenario, position: s.scenarios.length + ids.length - 1 });
      // The weakest terms of the vendor's quotes, as the store takes them.
      const pick = (xs: (string | null)[], most: boolean) => {
        const vs = xs.filter((x): x is string => x !== null);
        if (vs.length === 0) return null;
        return vs.reduce((a, b) => ((compareDecimal(a, b) < 0) === most ? b : a));
      };
      const sla = pick(rows.map((q) => q.sla_uptime), false);
      const refund = pick(rows.map((q) => q.sla_refund_share), false);
      const response = pick(rows.map((q) => q.response_hours), true);
      const at = card.vendors.findIndex((v) => v.name === vendor);
      const entry = at >= 0 ? card.vendors[at]! : { name: vendor, scenario: null, mfu: null, annual_failure_rate: null, sla: null, sla_refund_share: null, response_hours: null, expert_hours_per_month: null };
      entry.scenario = id;
      entry.sla = sla ?? entry.sla;
      entry.sla_refund_share = refund ?? entry.sla_refund_share;
      entry.response_hours = response ?? entry.response_hours;
      if (at < 0) card.vendors.push(entry);
    }
    items.push({ kind: "scorecard", value: card });
    const name = path.split(/[\\/]/).pop() ?? path;
    const n = p.vendors.length;
    const label = `Import quotes ${name} (${p.quotes.length} quote${p.quotes.length === 1 ? "" : "s"}, ${n} vendor${n === 1 ? "" : "s"})`;
    const applied = this.commit(s, label, null, items);
    return structuredClone({ applied, quotes: p.quotes.length, vendors: [...p.vendors], scenarios: ids });
  }

  async quoteTemplate(): Promise<QuoteTemplate> {
    await this.enter("quoteTemplate", []);
    return structuredClone(
      this.options.quoteTemplate ?? {
        csv: "catalogs/templates/rfp-quotes.csv",
        readme: "catalogs/templates/README.md",
        header: "vendor,quote_id,offer_kind,accelerator,gpus,currency,price_per_gpu_hour,hardware_price_per_gpu,installation,support_rate_per_year,lead_time_months,commitment_months,interruptions_per_hour,egress_per_tb,sla_uptime,sla_refund_share,response_hours,valid_until,notes",
      },
    );
  }

}

/** 64 hex digits that stand for a SHA-256 in the fake (not a hash of anything real). */
function fakeSha(text: string): string {
  let out = "";
  let h = 2166136261;
  for (let round = 0; out.length < 64; round += 1) {
    for (const ch of `${round}:${text}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    out += h.toString(16).padStart(8, "0");
  }
  return out.slice(0, 64);
}

/** A memo draft from a test's partial one: absent fields empty, as the back end's empty draft. */
function memoDraft(m: Partial<MemoDraft> | undefined): MemoDraft {
  return {
    author: m?.author ?? "",
    client: m?.client ?? "",
    decision: m?.decision ?? "",
    rationale: m?.rationale ?? "",
    recommended: m?.recommended ?? null,
    scenarios: [...(m?.scenarios ?? [])],
    paper: m?.paper ?? "a4",
  };
}

/** A scorecard from a test's partial one: absent weights 20 points each and no vendors, as the
 *  back end's default scorecard. */
function scorecardDraft(s: Partial<ScorecardDraft> | undefined): ScorecardDraft {
  return {
    weights: structuredClone(s?.weights ?? { performance: "20", reliability: "20", cost: "20", service: "20", compliance: "20" }),
    vendors: structuredClone(s?.vendors ?? []),
  };
}
