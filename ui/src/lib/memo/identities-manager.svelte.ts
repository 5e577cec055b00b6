// The signing identities the app keeps (on the Memo tab): a new identity (a key with a self-signed
// certificate, encrypted with a passphrase checked before it is sent), an imported PKCS#12, and a
// certificate to hand to validators. Passphrases live only in the dialog that asks for them and
// are cleared when it closes or the action is done.

import type { Backend } from "../backend";
import type { IdentitySummary } from "../workspace-types";
import { identityLabel, newIdentityProblems, problemsByField, type NewIdentity } from "./memo";

export type IdentityDialog = { kind: "new" } | { kind: "import"; path: string } | { kind: "export"; identity: IdentitySummary } | null;

/** The list of identities, kept by whoever shows it (the memo screen signs with them). */
export type IdentityList = { get(): IdentitySummary[]; set(list: IdentitySummary[]): void };

const EMPTY: NewIdentity = { name: "", organisation: "", email: "", passphrase: "", confirm: "" };

export class IdentitiesManager {
  dialog: IdentityDialog = $state(null);
  busy = $state(false);
  error: unknown = $state(null);
  /** The new-identity form. */
  draft: NewIdentity = $state({ ...EMPTY });
  /** The new-identity form's problems per field, as shown. */
  shown: Partial<Record<keyof NewIdentity, string>> = $state({});
  /** The passphrase of an import or a certificate export. */
  passphrase = $state("");

  private readonly backend: Backend;
  private readonly list: IdentityList;
  private readonly onnotice: (text: string) => void;

  /** `onnotice` hears what was done ("Imported …"). */
  constructor(backend: Backend, list: IdentityList, onnotice: (text: string) => void) {
    this.backend = backend;
    this.list = list;
    this.onnotice = onnotice;
  }

  get identities(): IdentitySummary[] {
    return this.list.get();
  }

  open(d: IdentityDialog): void {
    this.error = null;
    this.shown = {};
    this.passphrase = "";
    this.draft = { ...EMPTY };
    this.dialog = d;
  }

  close(): void {
    this.dialog = null;
    this.passphrase = "";
    this.draft = { ...EMPTY };
    this.shown = {};
  }

  dismissError(): void {
    this.error = null;
  }

  /** Makes the identity of the new-identity form, once it has nothing wrong. */
  async create(): Promise<void> {
    if (this.busy) return;
    const draft = this.draft;
    this.shown = newIdentityProblems(draft);
    if (Object.keys(this.shown).length > 0) return;
    this.busy = true;
    this.error = null;
    try {
      const email = draft.email.trim() === "" ? null : draft.email.trim();
      const made = await this.backend.createIdentity(draft.name.trim(), draft.organisation.trim(), email, draft.passphrase);
      this.list.set([...this.list.get(), made]);
      this.onnotice(`Made the identity ${identityLabel(made)}. Export its certificate for whoever checks your signatures.`);
      this.close();
    } catch (err) {
      const { fields } = problemsByField(err, "");
      this.shown = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.join("; ")]));
      if (Object.keys(this.shown).length === 0) this.error = err;
      this.draft.passphrase = "";
      this.draft.confirm = "";
    } finally {
      this.busy = false;
    }
  }

  /** Asks for a PKCS#12 file, then for its passphrase (the import dialog). */
  async startImport(): Promise<void> {
    this.error = null;
    try {
      const path = await this.backend.chooseFile("import-identity");
      if (path) this.open({ kind: "import", path });
    } catch (err) {
      this.error = err;
    }
  }

  async finishImport(): Promise<void> {
    const dialog = this.dialog;
    if (this.busy || dialog?.kind !== "import") return;
    this.busy = true;
    this.error = null;
    try {
      const got = await this.backend.importIdentity(dialog.path, this.passphrase);
      this.list.set([...this.list.get().filter((i) => i.id !== got.id), got]);
      this.onnotice(`Imported the identity ${identityLabel(got)}.`);
      this.close();
    } catch (err) {
      this.error = err;
    } finally {
      this.passphrase = "";
      this.busy = false;
    }
  }

  /** Asks where to write the certificate of the export dialog's identity, and writes it. */
  async finishExport(): Promise<void> {
    const dialog = this.dialog;
    if (this.busy || dialog?.kind !== "export") return;
    const identity = dialog.identity;
    this.busy = true;
    this.error = null;
    try {
      const path = await this.backend.chooseFile("export-certificate");
      if (path) {
        await this.backend.exportCertificate(identity.id, this.passphrase, path);
        this.onnotice(`Wrote the certificate of ${identityLabel(identity)} to ${path}.`);
        this.close();
      }
    } catch (err) {
      this.error = err;
    } finally {
      this.passphrase = "";
      this.busy = false;
    }
  }
}
