// The Compliance tab: the D-1 checklists, one per scenario and per vendor where it applies. A
// reviewer answers items (open / pass / fail / not applicable) with a note and evidence files kept
// inside the workspace, then signs off. Every answer and sign-off goes into the workspace's
// hash-chained log (a record, not an undo step); after each the clearance statuses are reloaded.
// The reviewer's name is remembered on this computer.

import type { Backend } from "../backend";
import type { WorkspaceStore } from "../workspace.svelte";
import type {
  ChecklistSubject,
  ChecklistView,
  IdentitySummary,
  ItemStatus,
  ItemView,
  LogCheck,
  ScenarioSummary,
  SubjectStatus,
} from "../workspace-types";

const REVIEWER_KEY = "compute-planner.reviewer";

function readReviewer(): string {
  try {
    return localStorage.getItem(REVIEWER_KEY) ?? "";
  } catch {
    return "";
  }
}

function saveReviewer(name: string): void {
  try {
    localStorage.setItem(REVIEWER_KEY, name);
  } catch {
    // Private mode or no storage: the name is asked again next time.
  }
}

/** Whether `a` is the subject `b`. */
export function sameSubject(a: ChecklistSubject | null, b: ChecklistSubject): boolean {
  return !!a && a.kind === b.kind && a.id === b.id;
}

/** The item being answered, with the form's state. */
export type AnswerForm = { item: string; status: ItemStatus; note: string; files: string[] };

export class ComplianceManager {
  subject = $state.raw<ChecklistSubject | null>(null);
  view = $state.raw<ChecklistView | null>(null);
  viewError = $state.raw<unknown>(null);
  vendorName = $state("");
  busy = $state(false);
  actionError = $state.raw<unknown>(null);
  check = $state.raw<LogCheck | null>(null);
  checkError = $state.raw<unknown>(null);
  form = $state<AnswerForm | null>(null);
  signNote = $state("");
  /** The signing identity a sign-off is signed with ("" for a sign-off by name only), and its passphrase. */
  signIdentity = $state("");
  signPassphrase = $state("");
  identities = $state.raw<IdentitySummary[]>([]);
  revokeReason = $state("");

  private readonly store: WorkspaceStore;
  private readonly backend: Backend;
  private reviewerName = $state(readReviewer());

  constructor(store: WorkspaceStore) {
    this.store = store;
    this.backend = store.backend;
  }

  /** The reviewer's name, as it goes into the log (remembered on this computer). */
  get reviewer(): string {
    return this.reviewerName;
  }

  set reviewer(name: string) {
    this.reviewerName = name;
    saveReviewer(name);
  }

  /** Lists the identities, opens the first scenario's checklist, and follows scenario edits. */
  attach(): () => void {
    saveReviewer(this.reviewerName);
    this.backend.listIdentities().then(
      (list) => (this.identities = list),
      () => (this.identities = []),
    );
    const first = this.store.info.scenarios[0];
    if (first) void this.open({ kind: "scenario", id: first.id });
    return this.store.onChange((changed) => {
      // A scenario edited elsewhere may change its hints, or be gone.
      const current = this.subject;
      if (current?.kind === "scenario" && changed.some((c) => c.kind === "scenario" && c.id === current.id)) {
        if (this.store.scenarioSummary(current.id)) void this.open(current);
        else {
          this.subject = null;
          this.view = null;
        }
      }
    });
  }

  // ---- The subjects ----

  get statuses(): SubjectStatus[] {
    return this.store.clearance ?? [];
  }

  get statusesError(): unknown {
    return this.store.clearanceError;
  }

  get scenarios(): ScenarioSummary[] {
    return this.store.info.scenarios;
  }

  /** The vendors with a checklist record. */
  get vendors(): SubjectStatus[] {
    return this.statuses.filter((s) => s.subject.kind === "vendor");
  }

  statusOf(s: ChecklistSubject): SubjectStatus | null {
    return this.statuses.find((x) => sameSubject(s, x.subject)) ?? null;
  }

  isOpen(s: ChecklistSubject): boolean {
    return sameSubject(this.subject, s);
  }

  /** Shows the checklist of `s`. */
  async open(s: ChecklistSubject): Promise<void> {
    this.subject = s;
    this.form = null;
    this.actionError = null;
    try {
      this.view = await this.backend.checklist(s);
      this.viewError = null;
    } catch (e) {
      this.view = null;
      this.viewError = e;
    }
  }

  /** Opens the checklist of the vendor named in the form. */
  addVendor(): void {
    const name = this.vendorName.trim();
    if (!name) return;
    this.vendorName = "";
    void this.open({ kind: "vendor", id: name });
  }

  /** The checklist's families with their items (a family with no item and no gap is left out). */
  get families(): (ChecklistView["families"][number] & { items: ItemView[] })[] {
    const view = this.view;
    return view ? view.families.map((f) => ({ ...f, items: view.items.filter((i) => i.family === f.id) })).filter((f) => f.items.length > 0 || f.gap !== null) : [];
  }

  titleOf(id: string): string {
    return this.view?.items.find((i) => i.id === id)?.title ?? id;
  }

  // ---- Answers and sign-offs ----

  /** Runs a checklist action; the answer replaces the view, and the statuses are reloaded. */
  private async act(run: () => Promise<ChecklistView>, after?: () => void): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.actionError = null;
    try {
      this.view = await run();
      after?.();
      this.store.setClearance(await this.backend.checklistStatuses());
      this.check = null;
    } catch (e) {
      this.actionError = e;
    } finally {
      this.busy = false;
    }
  }

  startAnswer(item: ItemView, status?: ItemStatus): void {
    this.form = { item: item.id, status: status ?? item.answer?.status ?? "pass", note: item.answer?.note ?? "", files: [] };
    this.actionError = null;
  }

  cancelAnswer(): void {
    this.form = null;
  }

  /** Adds a file chosen with the system dialog to the answer's evidence. */
  async attachEvidence(): Promise<void> {
    if (!this.form) return;
    try {
      const path = await this.backend.chooseFile("attach-evidence");
      const form = this.form;
      if (path && form && !form.files.includes(path)) form.files = [...form.files, path];
    } catch (e) {
      this.actionError = e;
    }
  }

  record(): void {
    const f = this.form;
    const s = this.subject;
    if (!f || !s) return;
    void this.act(
      () => this.backend.answerChecklistItem(s, { item: f.item, status: f.status, note: f.note, reviewer: this.reviewer }, [...f.files]),
      () => (this.form = null),
    );
  }

  get canSignOff(): boolean {
    return !this.busy && this.reviewer.trim() !== "" && !(this.signIdentity !== "" && this.signPassphrase === "");
  }

  signOff(): void {
    const s = this.subject;
    if (!s) return;
    const sign = this.signIdentity ? { identity: this.signIdentity, passphrase: this.signPassphrase, reason: "D-1 sign-off" } : null;
    void this.act(
      () => this.backend.signOffChecklist(s, this.reviewer, this.signNote, sign),
      () => {
        this.signNote = "";
        this.signPassphrase = "";
      },
    );
    // The passphrase is not kept, whether the sign-off went through or not.
    this.signPassphrase = "";
  }

  revoke(): void {
    const s = this.subject;
    if (!s) return;
    void this.act(() => this.backend.revokeSignOff(s, this.reviewer, this.revokeReason), () => (this.revokeReason = ""));
  }

  // ---- The log and evidence ----

  async verify(): Promise<void> {
    try {
      this.check = await this.backend.verifyChecklistLog();
      this.checkError = null;
    } catch (e) {
      this.check = null;
      this.checkError = e;
    }
  }

  /** Saves a copy of a stored evidence file where the user says. */
  async saveEvidence(sha256: string): Promise<void> {
    try {
      const path = await this.backend.chooseFile("save-evidence");
      if (!path) return;
      await this.backend.exportEvidence(sha256, path);
      this.store.notice = { kind: "info", text: `Saved the evidence file to ${path}.` };
    } catch (e) {
      this.store.notice = { kind: "error", text: "The evidence file could not be saved.", error: e };
    }
  }
}
