// The one interface the UI uses to reach the back end. The tab managers (lib/<tab>/) hold a
// `Backend`; components never do, and nothing but lib/ipc/ imports the IPC bindings.
// Production and the tests both use TauriBackend (ipc/tauri-backend.ts); the tests answer Tauri's
// `invoke` with recorded answers of the real use cases (tests/support/transport.ts).

import type { Catalog, PlannerError } from "./catalog-types";
import type {
  AnswerInput,
  ChecklistSubject,
  ChecklistView,
  LogCheck,
  SubjectStatus,
  Applied,
  CompareScreen,
  EditRequest,
  ExportFormat,
  FilePurpose,
  IdentitySummary,
  Imported,
  MemoDraft,
  MemoRecord,
  PdfCheck,
  Published,
  ExitVariantOutcome,
  QuotePreview,
  QuotesImported,
  QuoteTemplate,
  ScorecardDraft,
  ScorecardView,
  ScenarioDetail,
  ScenarioExits,
  ScenarioSpec,
  Session,
  SignWith,
  SizingPreview,
  Theme,
  ViewState,
  WorkloadSpec,
  WorkspaceInfo,
} from "./workspace-types";

/**
 * One method per back-end command. Every method:
 * @throws BackendError when the back end refuses (its PlannerError is carried along);
 * @throws IpcError when the back end could not be reached or answered something unexpected.
 */
export interface Backend {
  /** The catalog the app ships, freshly read and checked by the back end. */
  getCatalog(): Promise<Catalog>;
  /** The open workspace (if any), why the launch workspace failed (if it did), the recent list. */
  session(): Promise<Session>;
  /** Creates a workspace file at `path` titled `title` and opens it. */
  createWorkspace(path: string, title: string): Promise<WorkspaceInfo>;
  /** Opens the workspace at `path`, closing the one open. */
  openWorkspace(path: string): Promise<WorkspaceInfo>;
  /** Copies the open workspace to `path` and continues in the copy. */
  saveWorkspaceAs(path: string): Promise<WorkspaceInfo>;
  /** Closes the open workspace (every edit is already saved). */
  closeWorkspace(): Promise<void>;
  /** The system file dialog for `purpose`; null when the user cancels. */
  chooseFile(purpose: FilePurpose): Promise<string | null>;
  /** The catalog snapshot the open workspace computes with. */
  workspaceCatalog(): Promise<Catalog>;
  /** One scenario, whole, for the editor. */
  getScenario(id: string): Promise<ScenarioSpec>;
  /** Applies and saves one edit (an undo step, or merged into the last one by `coalesce`). */
  applyEdit(request: EditRequest): Promise<Applied>;
  /** Takes back the last edit; null when there is nothing to undo. */
  undo(): Promise<Applied | null>;
  /** Applies the last undone edit again; null when there is nothing to redo. */
  redo(): Promise<Applied | null>;
  /** Saves what the compare screen shows (not an undo step); returns the view as kept. */
  setView(view: ViewState): Promise<ViewState>;
  /** The comparison of the view's scenarios, with charts drawn for `theme`. */
  compare(theme: Theme): Promise<CompareScreen>;
  /** One scenario evaluated on its own (it need not be saved). */
  scenarioDetail(scenario: ScenarioSpec): Promise<ScenarioDetail>;
  /** The cost of leaving each layer of the scenario that has an exit clause, at every month of the horizon. */
  exitCosts(scenario: ScenarioSpec): Promise<ScenarioExits>;
  /** Notice to leave `layer` given in `month`, priced as a variant of the scenario against staying. */
  exitVariant(scenario: ScenarioSpec, layer: string, month: number): Promise<ExitVariantOutcome>;
  /** A workload's memory fit on an accelerator; null when it names no model or the accelerator is unknown. */
  sizeWorkload(workload: WorkloadSpec, accelerator: string, gpusPerServer: number): Promise<SizingPreview | null>;
  /** Replaces the workspace's catalog snapshot with the shipped catalog (an undo step). */
  updateCatalog(): Promise<Applied>;
  /** Adds the workloads and scenarios of a scenario JSON file (one undo step). */
  importScenarios(path: string): Promise<Imported>;
  /** Writes the workspace (or the scenarios `ids`) as a scenario JSON file. */
  exportScenarios(path: string, ids: string[] | null): Promise<void>;
  /** Exports the comparison (XLSX with every ledger, or CSV). */
  exportComparison(path: string, format: ExportFormat): Promise<void>;
  /** Exports one scenario's monthly ledger as CSV. */
  exportLedger(path: string, scenario: string): Promise<void>;

  // The decision memo (issue #5).

  /** The open workspace's memo draft (change it with `applyEdit` and `Edit { kind: "memo" }`). */
  memoDraft(): Promise<MemoDraft>;
  /** Every memo written or signed from the open workspace, oldest first. */
  memoRecords(): Promise<MemoRecord[]>;
  /**
   * Writes the memo of the saved draft to `path`, signed with `sign` when given, and records it.
   * Refuses an incomplete draft with a detail per field (`memo.author`, `memo.decision`,
   * `memo.scenarios`, `memo.recommended`).
   */
  exportMemo(path: string, sign: SignWith | null): Promise<Published>;
  /** Adds a signature (a reviewer's) to the PDF at `path`; recorded in the open workspace, if any. */
  signPdf(path: string, sign: SignWith): Promise<MemoRecord>;
  /** Every signature of the PDF at `path` and whether the document is intact since (no workspace needed). */
  verifyPdf(path: string): Promise<PdfCheck>;
  /** The signing identities the app keeps. */
  listIdentities(): Promise<IdentitySummary[]>;
  /** Makes a key with a self-signed certificate, kept encrypted with `passphrase` (at least 8 characters). */
  createIdentity(name: string, organisation: string, email: string | null, passphrase: string): Promise<IdentitySummary>;
  /** Imports an organisation's PKCS#12 identity, checked with its passphrase. */
  importIdentity(path: string, passphrase: string): Promise<IdentitySummary>;
  /** Writes an identity's certificate (PEM) to `path`, for validators to trust. */
  exportCertificate(identity: string, passphrase: string, path: string): Promise<void>;

  // The D-1 compliance checklists (issue #6). Answers and sign-offs are facts kept in the
  // workspace's hash-chained log, not undo steps.

  /** The clearance of every scenario (list order) and of every vendor with a record. */
  checklistStatuses(): Promise<SubjectStatus[]>;
  /** One subject's checklist: items with answers, history and hints; sign-off; clearance. */
  checklist(subject: ChecklistSubject): Promise<ChecklistView>;
  /** Records an answer with the files at `evidence` (paths) attached, stored in the workspace. */
  answerChecklistItem(subject: ChecklistSubject, answer: AnswerInput, evidence: string[]): Promise<ChecklistView>;
  /**
   * Signs off the subject's checklist as its answers stand (refused while a blocking item is open),
   * signed with the reviewer's identity when `sign` names one (its `reason` is not used).
   */
  signOffChecklist(subject: ChecklistSubject, reviewer: string, note: string, sign: SignWith | null): Promise<ChecklistView>;
  /** Withdraws the subject's sign-off, with the reason. */
  revokeSignOff(subject: ChecklistSubject, reviewer: string, reason: string): Promise<ChecklistView>;
  /** Verifies the checklist log; `problem` names the first broken entry. */
  verifyChecklistLog(): Promise<LogCheck>;
  /** Writes a stored evidence file, checked against its SHA-256, to `path`. */
  exportEvidence(sha256: string, path: string): Promise<void>;
  // The vendor side: scorecard and RFP quotes (issue #6).

  /** The open workspace's vendor scorecard as entered (change it with `applyEdit` and `Edit { kind: "scorecard" }`). */
  scorecardDraft(): Promise<ScorecardDraft>;
  /** The scorecard screen: each vendor's cost from the engine, compliance from the checklist, the ranking and its stability. */
  scorecardView(): Promise<ScorecardView>;
  /**
   * Reads an RFP quote file (CSV or XLSX) and shows each quote on the workspace's footing;
   * nothing is written. A file with any problem is refused with a detail per problem (file,
   * `line` = spreadsheet row, `column`, `field` = template column).
   */
  previewQuotes(path: string): Promise<QuotePreview>;
  /** Imports the quotes of `path` priced on scenario `base`: one scenario per vendor and the vendors on the scorecard, one undo step. */
  importQuotes(path: string, base: string): Promise<QuotesImported>;
  /** Where the RFP quote template shipped with the app and its documentation are. */
  quoteTemplate(): Promise<QuoteTemplate>;
}

/** A failure the back end reported, with its `{ code, message, details }`. */
export class BackendError extends Error {
  readonly error: PlannerError;

  constructor(error: PlannerError) {
    super(error.message);
    this.name = "BackendError";
    this.error = error;
  }

  get code(): PlannerError["code"] {
    return this.error.code;
  }
}

/** A failure of the channel to the back end itself (not an answer from it). */
export class IpcError extends Error {
  readonly raw: unknown;

  constructor(message: string, raw: unknown) {
    super(message);
    this.name = "IpcError";
    this.raw = raw;
  }
}

const ERROR_CODES: readonly string[] = [
  "catalog-invalid",
  "io",
  "invalid-input",
  "not-found",
  "workspace-invalid",
  "workspace-newer",
  "workspace-busy",
  "workspace-read-only",
  "no-workspace",
];

/** True when `value` has the shape of a PlannerError (as it arrives over IPC). */
export function isPlannerError(value: unknown): value is PlannerError {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.code === "string" &&
    ERROR_CODES.includes(v.code) &&
    typeof v.message === "string" &&
    Array.isArray(v.details) &&
    v.details.every(
      (d) => typeof d === "object" && d !== null && typeof (d as Record<string, unknown>).message === "string",
    )
  );
}

/** Text for an unknown thrown value, for messages. */
export function describeUnknown(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
