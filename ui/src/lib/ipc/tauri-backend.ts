// The production Backend: calls the Rust commands through the generated bindings.
// This is the only module allowed to import runtime values from ./bindings.

import { commands } from "./bindings";
import type { Catalog } from "../catalog-types";
import { BackendError, IpcError, describeUnknown, isPlannerError, type Backend } from "../backend";
import type {
  AnswerInput,
  ChecklistSubject,
  ChecklistView,
  LogCheck,
  SubjectStatus,
  Applied,
  CompareScreen,
  EditRequest,
  ExitVariantOutcome,
  ExportFormat,
  FilePurpose,
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
} from "../workspace-types";

type Answer<T> = { status: "ok"; data: T } | { status: "error"; error: unknown };

/**
 * Runs one generated command. A PlannerError becomes a BackendError; anything else (the shell
 * not answering, an unknown command, a denied permission, usually a string) an IpcError naming
 * the command.
 */
async function call<T>(command: string, run: () => Promise<Answer<T>>): Promise<T> {
  let result: Answer<T>;
  try {
    result = await run();
  } catch (e) {
    throw new IpcError(`The desktop shell did not answer ${command}: ${describeUnknown(e)}`, e);
  }
  if (result.status === "ok") return result.data;
  // The generated wrapper types every rejection as PlannerError; a failure of the IPC layer
  // itself arrives here too.
  const error: unknown = result.error;
  if (isPlannerError(error)) throw new BackendError(error);
  throw new IpcError(`The desktop shell refused ${command}: ${describeUnknown(error)}`, error);
}

export class TauriBackend implements Backend {
  getCatalog(): Promise<Catalog> {
    return call("get_catalog", () => commands.getCatalog());
  }

  session(): Promise<Session> {
    return call("session", () => commands.session());
  }

  createWorkspace(path: string, title: string): Promise<WorkspaceInfo> {
    return call("create_workspace", () => commands.createWorkspace(path, title));
  }

  openWorkspace(path: string): Promise<WorkspaceInfo> {
    return call("open_workspace", () => commands.openWorkspace(path));
  }

  saveWorkspaceAs(path: string): Promise<WorkspaceInfo> {
    return call("save_workspace_as", () => commands.saveWorkspaceAs(path));
  }

  async closeWorkspace(): Promise<void> {
    await call("close_workspace", () => commands.closeWorkspace());
  }

  chooseFile(purpose: FilePurpose): Promise<string | null> {
    return call("choose_file", () => commands.chooseFile(purpose));
  }

  workspaceCatalog(): Promise<Catalog> {
    return call("workspace_catalog", () => commands.workspaceCatalog());
  }

  getScenario(id: string): Promise<ScenarioSpec> {
    return call("get_scenario", () => commands.getScenario(id));
  }

  applyEdit(request: EditRequest): Promise<Applied> {
    return call("apply_edit", () => commands.applyEdit(request));
  }

  undo(): Promise<Applied | null> {
    return call("undo", () => commands.undo());
  }

  redo(): Promise<Applied | null> {
    return call("redo", () => commands.redo());
  }

  setView(view: ViewState): Promise<ViewState> {
    return call("set_view", () => commands.setView(view));
  }

  compare(theme: Theme): Promise<CompareScreen> {
    return call("compare", () => commands.compare(theme));
  }

  scenarioDetail(scenario: ScenarioSpec): Promise<ScenarioDetail> {
    return call("scenario_detail", () => commands.scenarioDetail(scenario));
  }

  exitCosts(scenario: ScenarioSpec): Promise<ScenarioExits> {
    return call("exit_costs", () => commands.exitCosts(scenario));
  }

  exitVariant(scenario: ScenarioSpec, layer: string, month: number): Promise<ExitVariantOutcome> {
    return call("exit_variant", () => commands.exitVariant(scenario, layer, month));
  }

  sizeWorkload(workload: WorkloadSpec, accelerator: string, gpusPerServer: number): Promise<SizingPreview | null> {
    return call("size_workload", () => commands.sizeWorkload(workload, accelerator, gpusPerServer));
  }

  updateCatalog(): Promise<Applied> {
    return call("update_catalog", () => commands.updateCatalog());
  }

  importScenarios(path: string): Promise<Imported> {
    return call("import_scenarios", () => commands.importScenarios(path));
  }

  async exportScenarios(path: string, ids: string[] | null): Promise<void> {
    await call("export_scenarios", () => commands.exportScenarios(path, ids));
  }

  async exportComparison(path: string, format: ExportFormat): Promise<void> {
    await call("export_comparison", () => commands.exportComparison(path, format));
  }

  async exportLedger(path: string, scenario: string): Promise<void> {
    await call("export_ledger", () => commands.exportLedger(path, scenario));
  }

  memoDraft(): Promise<MemoDraft> {
    return call("memo_draft", () => commands.memoDraft());
  }

  memoRecords(): Promise<MemoRecord[]> {
    return call("memo_records", () => commands.memoRecords());
  }

  exportMemo(path: string, sign: SignWith | null): Promise<Published> {
    return call("export_memo", () => commands.exportMemo(path, sign));
  }

  signPdf(path: string, sign: SignWith): Promise<MemoRecord> {
    return call("sign_pdf", () => commands.signPdf(path, sign));
  }

  verifyPdf(path: string): Promise<PdfCheck> {
    return call("verify_pdf", () => commands.verifyPdf(path));
  }

  listIdentities(): Promise<IdentitySummary[]> {
    return call("list_identities", () => commands.listIdentities());
  }

  createIdentity(name: string, organisation: string, email: string | null, passphrase: string): Promise<IdentitySummary> {
    return call("create_identity", () => commands.createIdentity(name, organisation, email, passphrase));
  }

  importIdentity(path: string, passphrase: string): Promise<IdentitySummary> {
    return call("import_identity", () => commands.importIdentity(path, passphrase));
  }

  async exportCertificate(identity: string, passphrase: string, path: string): Promise<void> {
    await call("export_certificate", () => commands.exportCertificate(identity, passphrase, path));
  }

  async checklistStatuses(): Promise<SubjectStatus[]> {
    return call("checklist_statuses", () => commands.checklistStatuses());
  }

  checklist(subject: ChecklistSubject): Promise<ChecklistView> {
    return call("checklist", () => commands.checklist(subject));
  }

  answerChecklistItem(subject: ChecklistSubject, answer: AnswerInput, evidence: string[]): Promise<ChecklistView> {
    return call("answer_checklist_item", () => commands.answerChecklistItem(subject, answer, evidence));
  }

  signOffChecklist(subject: ChecklistSubject, reviewer: string, note: string, sign: SignWith | null): Promise<ChecklistView> {
    return call("sign_off_checklist", () => commands.signOffChecklist(subject, reviewer, note, sign));
  }

  revokeSignOff(subject: ChecklistSubject, reviewer: string, reason: string): Promise<ChecklistView> {
    return call("revoke_sign_off", () => commands.revokeSignOff(subject, reviewer, reason));
  }

  async verifyChecklistLog(): Promise<LogCheck> {
    return call("verify_checklist_log", () => commands.verifyChecklistLog());
  }

  async exportEvidence(sha256: string, path: string): Promise<void> {
    await call("export_evidence", () => commands.exportEvidence(sha256, path));
  }

  // ---- The vendor side (issue #6) ----

  scorecardDraft(): Promise<ScorecardDraft> {
    return call("scorecard_draft", () => commands.scorecardDraft());
  }

  scorecardView(): Promise<ScorecardView> {
    return call("scorecard_view", () => commands.scorecardView());
  }

  previewQuotes(path: string): Promise<QuotePreview> {
    return call("preview_quotes", () => commands.previewQuotes(path));
  }

  importQuotes(path: string, base: string): Promise<QuotesImported> {
    return call("import_quotes", () => commands.importQuotes(path, base));
  }

  async quoteTemplate(): Promise<QuoteTemplate> {
    return call("quote_template", () => commands.quoteTemplate());
  }
}
