// The production Backend: calls the Rust commands through the generated bindings.
// This is the only module allowed to import runtime values from ./bindings.

import { commands, type ChecklistView_Serialize } from "./bindings";
import type { Catalog } from "../catalog-types";
import { BackendError, IpcError, describeUnknown, isPlannerError, type Backend } from "../backend";
import {
  normalizeApplied,
  normalizeImported,
  normalizeInfo,
  normalizeMemoDraft,
  normalizeQuotePreview,
  normalizeScenario,
  normalizeScorecard,
  normalizeScorecardView,
  normalizeSession,
  type Sparse,
} from "../normalize";
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

  async session(): Promise<Session> {
    return normalizeSession((await call("session", () => commands.session())) as Sparse<Session>);
  }

  async createWorkspace(path: string, title: string): Promise<WorkspaceInfo> {
    return normalizeInfo((await call("create_workspace", () => commands.createWorkspace(path, title))) as Sparse<WorkspaceInfo>);
  }

  async openWorkspace(path: string): Promise<WorkspaceInfo> {
    return normalizeInfo((await call("open_workspace", () => commands.openWorkspace(path))) as Sparse<WorkspaceInfo>);
  }

  async saveWorkspaceAs(path: string): Promise<WorkspaceInfo> {
    return normalizeInfo((await call("save_workspace_as", () => commands.saveWorkspaceAs(path))) as Sparse<WorkspaceInfo>);
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

  async getScenario(id: string): Promise<ScenarioSpec> {
    return normalizeScenario((await call("get_scenario", () => commands.getScenario(id))) as Sparse<ScenarioSpec>);
  }

  async applyEdit(request: EditRequest): Promise<Applied> {
    return normalizeApplied((await call("apply_edit", () => commands.applyEdit(request))) as Sparse<Applied>);
  }

  async undo(): Promise<Applied | null> {
    const a = await call("undo", () => commands.undo());
    return a ? normalizeApplied(a as Sparse<Applied>) : null;
  }

  async redo(): Promise<Applied | null> {
    const a = await call("redo", () => commands.redo());
    return a ? normalizeApplied(a as Sparse<Applied>) : null;
  }

  async setView(view: ViewState): Promise<ViewState> {
    const v = await call("set_view", () => commands.setView(view));
    return { selected: v.selected ?? [], baseline: v.baseline ?? null, horizon_months: v.horizon_months ?? null };
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

  async updateCatalog(): Promise<Applied> {
    return normalizeApplied((await call("update_catalog", () => commands.updateCatalog())) as Sparse<Applied>);
  }

  async importScenarios(path: string): Promise<Imported> {
    return normalizeImported((await call("import_scenarios", () => commands.importScenarios(path))) as Sparse<Imported>);
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

  async memoDraft(): Promise<MemoDraft> {
    return normalizeMemoDraft(await call("memo_draft", () => commands.memoDraft()));
  }

  async memoRecords(): Promise<MemoRecord[]> {
    return (await call("memo_records", () => commands.memoRecords())).map(normalizeRecord);
  }

  async exportMemo(path: string, sign: SignWith | null): Promise<Published> {
    const p = await call("export_memo", () => commands.exportMemo(path, sign));
    return { ...p, record: normalizeRecord(p.record) };
  }

  async signPdf(path: string, sign: SignWith): Promise<MemoRecord> {
    return normalizeRecord(await call("sign_pdf", () => commands.signPdf(path, sign)));
  }

  async verifyPdf(path: string): Promise<PdfCheck> {
    const c = await call("verify_pdf", () => commands.verifyPdf(path));
    return {
      ...c,
      unsigned_tail: c.unsigned_tail ?? null,
      verification: {
        file_len: c.verification.file_len ?? null,
        signatures: (c.verification.signatures ?? []).map((s) => ({
          ...s,
          signer_name: s.signer_name ?? null,
          reason: s.reason ?? null,
          location: s.location ?? null,
          signing_time: s.signing_time ?? null,
          certificate: s.certificate
            ? { ...s.certificate, common_name: s.certificate.common_name ?? null, organisation: s.certificate.organisation ?? null, email: s.certificate.email ?? null }
            : null,
          later_bytes: s.later_bytes ?? null,
          problems: s.problems ?? [],
        })),
      },
    };
  }

  async listIdentities(): Promise<IdentitySummary[]> {
    return (await call("list_identities", () => commands.listIdentities())).map(normalizeIdentity);
  }

  async createIdentity(name: string, organisation: string, email: string | null, passphrase: string): Promise<IdentitySummary> {
    return normalizeIdentity(await call("create_identity", () => commands.createIdentity(name, organisation, email, passphrase)));
  }

  async importIdentity(path: string, passphrase: string): Promise<IdentitySummary> {
    return normalizeIdentity(await call("import_identity", () => commands.importIdentity(path, passphrase)));
  }

  async exportCertificate(identity: string, passphrase: string, path: string): Promise<void> {
    await call("export_certificate", () => commands.exportCertificate(identity, passphrase, path));
  }

  async checklistStatuses(): Promise<SubjectStatus[]> {
    return call("checklist_statuses", () => commands.checklistStatuses());
  }

  async checklist(subject: ChecklistSubject): Promise<ChecklistView> {
    return normalizeChecklist(await call("checklist", () => commands.checklist(subject)));
  }

  async answerChecklistItem(subject: ChecklistSubject, answer: AnswerInput, evidence: string[]): Promise<ChecklistView> {
    return normalizeChecklist(await call("answer_checklist_item", () => commands.answerChecklistItem(subject, answer, evidence)));
  }

  async signOffChecklist(subject: ChecklistSubject, reviewer: string, note: string, sign: SignWith | null): Promise<ChecklistView> {
    return normalizeChecklist(await call("sign_off_checklist", () => commands.signOffChecklist(subject, reviewer, note, sign)));
  }

  async revokeSignOff(subject: ChecklistSubject, reviewer: string, reason: string): Promise<ChecklistView> {
    return normalizeChecklist(await call("revoke_sign_off", () => commands.revokeSignOff(subject, reviewer, reason)));
  }

  async verifyChecklistLog(): Promise<LogCheck> {
    return call("verify_checklist_log", () => commands.verifyChecklistLog());
  }

  async exportEvidence(sha256: string, path: string): Promise<void> {
    await call("export_evidence", () => commands.exportEvidence(sha256, path));
  }

  // ---- The vendor side (issue #6) ----

  async scorecardDraft(): Promise<ScorecardDraft> {
    return normalizeScorecard(await call("scorecard_draft", () => commands.scorecardDraft()));
  }

  async scorecardView(): Promise<ScorecardView> {
    return normalizeScorecardView(await call("scorecard_view", () => commands.scorecardView()));
  }

  async previewQuotes(path: string): Promise<QuotePreview> {
    return normalizeQuotePreview(await call("preview_quotes", () => commands.previewQuotes(path)));
  }

  async importQuotes(path: string, base: string): Promise<QuotesImported> {
    const done = await call("import_quotes", () => commands.importQuotes(path, base));
    return { ...done, applied: normalizeApplied(done.applied) };
  }

  async quoteTemplate(): Promise<QuoteTemplate> {
    return call("quote_template", () => commands.quoteTemplate());
  }
}

/** A record with its absent options filled in (the back end leaves out `None`). */
function normalizeRecord(r: MemoRecord): MemoRecord {
  return {
    ...r,
    scenarios: r.scenarios ?? [],
    signer: r.signer ?? null,
    certificate_sha256: r.certificate_sha256 ?? null,
    reason: r.reason ?? null,
    signatures: r.signatures ?? 0,
  };
}

function normalizeIdentity(i: IdentitySummary): IdentitySummary {
  return { ...i, common_name: i.common_name ?? null, organisation: i.organisation ?? null, email: i.email ?? null };
}

/** A checklist with the sign-off's absent signature as null (the back end leaves it out). */
function normalizeChecklist(v: ChecklistView_Serialize): ChecklistView {
  return { ...v, signoff: v.signoff ? { ...v.signoff, signature: v.signoff.signature ?? null } : null };
}
