// The Memo tab: the draft (saved as typed, one undo step per field, like every editor), making the
// PDF (plain or signed by its author), a reviewer's signature on an existing PDF, checking a PDF's
// signatures, the signing identities and the memos made so far. Passphrases are held only until
// the action that needs them is done, then cleared.

import { untrack } from "svelte";
import type { Backend } from "../backend";
import type { WorkspaceStore } from "../workspace.svelte";
import type { IdentitySummary, MemoDraft, MemoRecord, Published, ScenarioSummary, SignWith, SubjectStatus } from "../workspace-types";
import { IdentitiesManager } from "./identities-manager.svelte";
import { identityLabel, problemsByField } from "./memo";
import { VerifyPdfManager } from "./verify-pdf-manager.svelte";

/** A signing form: the identity, its passphrase (until sent), the reason, and what is wrong. */
export type SignForm = { identity: string | null; passphrase: string; reason: string; problems: Record<string, string[]> };

export class MemoManager {
  draft = $state<MemoDraft | null>(null);
  loadError: unknown = $state.raw(null);
  records: MemoRecord[] = $state.raw([]);
  identities: IdentitySummary[] = $state([]);
  /** The back end's problems with the draft, by field, from the last refused export. */
  fieldProblems: Record<string, string[]> = $state({});

  author: SignForm = $state({ identity: null, passphrase: "", reason: "Author", problems: {} });
  reviewer: SignForm = $state({ identity: null, passphrase: "", reason: "Reviewer: approved", problems: {} });

  busy: "export" | "review" | null = $state(null);
  exportError: unknown = $state.raw(null);
  published = $state.raw<Published | null>(null);
  reviewError: unknown = $state.raw(null);
  reviewed = $state.raw<MemoRecord | null>(null);
  /** What the identities panel last did, in words. */
  told: string | null = $state(null);
  /** The filter of the scenario checkboxes. */
  scenarioQuery = $state("");

  /** The scenarios the filter lets through. */
  readonly matching: ScenarioSummary[];

  /** "Verify a PDF…". */
  readonly verify: VerifyPdfManager;
  /** The signing identities panel. */
  readonly identitiesPanel: IdentitiesManager;

  private readonly store: WorkspaceStore;
  private readonly backend: Backend;
  /** Our own edits not answered yet: their answers must not replace what is being typed. */
  private inFlight = 0;

  constructor(store: WorkspaceStore) {
    this.store = store;
    this.backend = store.backend;
    this.matching = $derived.by(() => {
      const q = this.scenarioQuery.trim().toLowerCase();
      const all = store.info.scenarios;
      return q === "" ? all : all.filter((s) => s.name.toLowerCase().includes(q) || s.id.toLowerCase().includes(q));
    });
    this.verify = new VerifyPdfManager(this.backend);
    this.identitiesPanel = new IdentitiesManager(
      this.backend,
      { get: () => this.identities, set: (list) => (this.identities = list) },
      (text) => (this.told = text),
    );
  }

  /** Loads the draft, the memo history and the identities, and follows undo and redo of the draft. */
  attach(): () => void {
    this.backend.memoDraft().then(
      (d) => {
        // An undo that arrived meanwhile already set the draft.
        if (this.draft === null) this.draft = d;
      },
      (e: unknown) => (this.loadError = e),
    );
    void this.loadRecords();
    void this.loadIdentities();
    return this.store.onChange((changed, origin) => {
      for (const c of changed) {
        if (c.kind !== "memo") continue;
        if (origin === "edit" && this.inFlight > 0) continue;
        this.draft = structuredClone(c.memo);
      }
    });
  }

  private async loadRecords(): Promise<void> {
    try {
      this.records = await this.backend.memoRecords();
    } catch (e) {
      this.store.notice = { kind: "error", text: "The memo history could not be read.", error: e };
    }
  }

  private async loadIdentities(): Promise<void> {
    try {
      this.identities = await this.backend.listIdentities();
    } catch (e) {
      this.store.notice = { kind: "error", text: "The signing identities could not be listed.", error: e };
    }
  }

  /** An identity is preselected once there is one; a removed one is forgotten (reads the list). */
  preselectIdentity(): void {
    const ids = this.identities.map((i) => i.id);
    untrack(() => {
      for (const f of [this.author, this.reviewer]) if (f.identity === null || !ids.includes(f.identity)) f.identity = ids[0] ?? null;
    });
  }

  get identityOptions(): { value: string; label: string }[] {
    return this.identities.map((i) => ({ value: i.id, label: identityLabel(i) }));
  }

  get newestFirst(): MemoRecord[] {
    return [...this.records].reverse();
  }

  /** Applies `mutate` to the draft and saves it (coalesced per field); the field's refusal goes. */
  change(field: keyof MemoDraft, label: string, mutate: (m: MemoDraft) => void): void {
    if (!this.draft) return;
    mutate(this.draft);
    if (this.fieldProblems[field]) this.fieldProblems = Object.fromEntries(Object.entries(this.fieldProblems).filter(([k]) => k !== field));
    const memo = $state.snapshot(this.draft) as MemoDraft;
    this.inFlight += 1;
    void this.store.edit({ edit: { kind: "memo", memo }, label: `Edit memo: ${label}`, coalesce: `memo:${field}` }).finally(() => (this.inFlight -= 1));
  }

  // ---- Scenarios ----

  get scenarios(): ScenarioSummary[] {
    return this.store.info.scenarios;
  }

  /** The compare screen's scenarios. */
  get compared(): string[] {
    return this.store.info.view.selected;
  }

  /** The scenarios the memo will compare: the chosen ones, or the compare screen's. */
  get effective(): string[] {
    return this.draft && this.draft.scenarios.length > 0 ? this.draft.scenarios : this.compared;
  }

  nameOf(id: string): string {
    return this.store.scenarioSummary(id)?.name ?? id;
  }

  clearance(id: string): SubjectStatus | null {
    return this.store.scenarioClearance(id);
  }


  /** Chooses scenario `id` for the memo, or not; the choice keeps the list's order. */
  toggleScenario(id: string, on: boolean): void {
    const scenarios = this.scenarios;
    const compared = this.compared;
    this.change("scenarios", "scenarios", (m) => {
      const set = new Set(m.scenarios);
      if (on) set.add(id);
      else set.delete(id);
      const order = scenarios.map((s) => s.id);
      m.scenarios = [...order.filter((x) => set.has(x)), ...[...set].filter((x) => !order.includes(x))];
      const eff = m.scenarios.length > 0 ? m.scenarios : compared;
      if (m.recommended !== null && !eff.includes(m.recommended)) m.recommended = null;
    });
  }

  // ---- Making and signing ----

  /** Checks a signing form before anything is asked; true when it may go. */
  private ready(f: SignForm): boolean {
    const p: Record<string, string[]> = {};
    if (f.identity === null) p.identity = ["choose the identity to sign with (make or import one below)"];
    if (f.passphrase === "") p.passphrase = ["the identity's passphrase"];
    f.problems = p;
    return Object.keys(p).length === 0;
  }

  private signWith(f: SignForm, fallback: string): SignWith {
    return { identity: f.identity ?? "", passphrase: f.passphrase, reason: f.reason.trim() || fallback };
  }

  /** Puts a signing refusal's field problems (passphrase, identity) on the signing form. */
  private signProblems(f: SignForm, e: unknown): void {
    const { fields } = problemsByField(e, "");
    f.problems = Object.fromEntries(Object.entries(fields).filter(([k]) => k === "passphrase" || k === "identity"));
  }

  /** Writes the memo of the saved draft where the user says, signed by its author when `sign`. */
  async exportMemo(sign: boolean): Promise<void> {
    if (this.busy || !this.draft) return;
    const author = this.author;
    if (sign && !this.ready(author)) return;
    this.busy = "export";
    this.exportError = null;
    this.published = null;
    this.fieldProblems = {};
    author.problems = {};
    try {
      // Every edit of the draft is saved before the memo is made from it.
      await this.store.flush();
      const path = await this.backend.chooseFile("save-memo");
      if (path === null) return;
      const withSign = sign ? this.signWith(author, "Author") : null;
      // Used once: the passphrase leaves the form as it is sent.
      if (sign) author.passphrase = "";
      this.published = await this.backend.exportMemo(path, withSign);
      await this.loadRecords();
    } catch (e) {
      this.exportError = e;
      this.fieldProblems = problemsByField(e, "memo.").fields;
      if (sign) this.signProblems(author, e);
    } finally {
      if (sign) author.passphrase = "";
      this.busy = null;
    }
  }

  /** Adds the reviewer's signature to a PDF the user chooses. */
  async signExisting(): Promise<void> {
    const reviewer = this.reviewer;
    if (this.busy || !this.ready(reviewer)) return;
    this.busy = "review";
    this.reviewError = null;
    this.reviewed = null;
    try {
      const path = await this.backend.chooseFile("open-pdf");
      if (path === null) return;
      const withSign = this.signWith(reviewer, "Reviewer: approved");
      reviewer.passphrase = "";
      this.reviewed = await this.backend.signPdf(path, withSign);
      await this.loadRecords();
    } catch (e) {
      this.reviewError = e;
      this.signProblems(reviewer, e);
    } finally {
      reviewer.passphrase = "";
      this.busy = null;
    }
  }
}
