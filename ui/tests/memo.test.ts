// The Memo tab and the PDF check, in jsdom over the FakeBackend holding the enterprise-hybrid
// workspace; the signature checks are real `planner verify --json` output (fixtures/memo.ts).

import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import { FakeBackend, type FakeIdentity, type FakeOptions } from "../src/lib/ipc/fake-backend";
import { coverage, newIdentityProblems, verdict } from "../src/lib/memo/memo";
import { themeState } from "../src/lib/theme-state.svelte";
import type { EditRequest, MemoDraft, MemoRecord } from "../src/lib/workspace-types";
import { WORKSPACE_CATALOG } from "./fixtures/enterprise-hybrid";
import { PDF_CHECK_APPENDED, PDF_CHECK_INTACT, PDF_CHECK_TAMPERED } from "./fixtures/memo";
import { ehWorkspace, workspaceBackend } from "./support/workspace";

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

// The two identities of fixtures/memo.ts (their certificates' real fingerprints and validity).
const ADA: FakeIdentity = {
  summary: {
    id: "ada-lovelace",
    common_name: "Ada Lovelace",
    organisation: "Example Compute Ltd",
    email: "ada@example.com",
    issuer: "O=Example Compute Ltd,CN=Ada Lovelace",
    not_before: "2026-11-22T11:32:44Z",
    not_after: "2029-11-21T11:32:44Z",
    sha256: "fd7d10ae5d4fdf1cdedb7d0e89c022934bd920df7086107e51bb1cf05741c88b",
    self_signed: true,
    origin: "made here",
  },
  passphrase: "author-pass-2026",
};
const GRACE: FakeIdentity = {
  summary: {
    id: "grace-hopper",
    common_name: "Grace Hopper",
    organisation: "Example Compute Ltd",
    email: null,
    issuer: "O=Example Compute Ltd,CN=Grace Hopper",
    not_before: "2026-11-22T11:32:44Z",
    not_after: "2029-11-21T11:32:44Z",
    sha256: "a4240b550fe486db87e940e4c757e4facd83fd6c638fe6732c4883865239614b",
    self_signed: true,
    origin: "imported",
  },
  passphrase: "reviewer-pass-2026",
};

const EARLIER: MemoRecord = {
  event: "generated",
  at: "2026-11-20 09:15:02",
  file: "/home/ana/memos/draft-1.pdf",
  sha256: "1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a7988",
  pages: 9,
  scenarios: ["hybrid", "all-cloud"],
  signer: null,
  certificate_sha256: null,
  reason: null,
  signatures: 0,
};

function memoBackend(memo: Partial<MemoDraft>, options: FakeOptions = {}): FakeBackend {
  return workspaceBackend({
    workspace: ehWorkspace({ memo, memoRecords: [EARLIER] }),
    identities: [ADA, GRACE],
    dialog: { "save-memo": "/home/ana/memos/decision.pdf", "open-pdf": "/home/ana/memos/received.pdf" },
    now: () => Date.parse("2026-11-22T10:00:00Z"),
    ...options,
  });
}

async function openMemo(backend: FakeBackend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "5", ctrlKey: true });
  expect(screen.getByTestId("tab-memo").getAttribute("aria-selected")).toBe("true");
  await screen.findByTestId("memo-author");
  return backend;
}

const field = (id: string) => screen.getByTestId(id) as HTMLInputElement;
const memoEdits = (b: FakeBackend) =>
  b
    .callsTo("applyEdit")
    .map((a) => a[0] as EditRequest)
    .filter((r) => r.edit.kind === "memo");

async function type(el: HTMLInputElement, text: string) {
  el.focus();
  for (let i = 1; i <= text.length; i += 1) await fireEvent.input(el, { target: { value: text.slice(0, i) } });
}

/** The problems shown under the field whose input has `testid`. */
const problemsOf = (testid: string) =>
  [...(field(testid).closest(".f-control")?.querySelectorAll(".f-problem") ?? [])].map((e) => e.textContent);

describe("memo draft", () => {
  it("sends typing in the decision as memo edits coalesced into one undo step, and undo and redo put the draft back on screen", async () => {
    const backend = await openMemo(memoBackend({ author: "Ada Lovelace", decision: "Rent all capacity.", scenarios: ["hybrid"] }, { delays: { applyEdit: 20 } }));
    const decision = field("memo-decision");
    expect(decision.tagName).toBe("TEXTAREA");
    expect(decision.value).toBe("Rent all capacity.");

    await type(decision, "Buy two DGX H100.");
    await waitFor(() => expect(screen.getByTestId("saved-state").textContent).toBe("All changes saved"));
    const sent = memoEdits(backend);
    // Keystrokes made while an edit was in flight replaced the waiting one (the queue's coalescing).
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThan("Buy two DGX H100.".length);
    for (const r of sent) expect(r).toMatchObject({ label: "Edit memo: decision", coalesce: "memo:decision" });
    // The whole draft goes along, only the decision changed.
    expect(sent[sent.length - 1]!.edit).toEqual({
      kind: "memo",
      memo: { author: "Ada Lovelace", client: "", decision: "Buy two DGX H100.", rationale: "", recommended: null, scenarios: ["hybrid"], paper: "a4" },
    });
    expect(backend.state?.undo).toHaveLength(1);
    expect(backend.state?.memo.decision).toBe("Buy two DGX H100.");
    expect(screen.getByTestId("undo").getAttribute("title")).toBe("Undo: Edit memo: decision (Ctrl+Z)");

    decision.blur();
    await fireEvent.click(screen.getByTestId("undo"));
    await waitFor(() => expect(field("memo-decision").value).toBe("Rent all capacity."));
    expect(backend.state?.memo.decision).toBe("Rent all capacity.");
    await fireEvent.click(screen.getByTestId("redo"));
    await waitFor(() => expect(field("memo-decision").value).toBe("Buy two DGX H100."));
  });

  it("lists the workspace's scenarios in order, says an empty choice means the compare screen's, and recommends among the chosen", async () => {
    const backend = await openMemo(memoBackend({ author: "Ada Lovelace" }));
    const boxes = within(screen.getByTestId("memo-scenarios")).getAllByRole("checkbox") as HTMLInputElement[];
    expect(boxes.map((b) => b.dataset.testid)).toEqual(["memo-scenario-hybrid", "memo-scenario-all-cloud"]);
    expect(boxes.every((b) => !b.checked)).toBe(true);
    expect(screen.getByTestId("memo-scenarios-note").textContent).toContain("as on the compare screen");
    const recommended = screen.getByTestId("memo-recommended") as HTMLSelectElement;
    expect([...recommended.options].map((o) => o.value)).toEqual(["", "hybrid", "all-cloud"]);

    await fireEvent.click(field("memo-scenario-all-cloud"));
    await waitFor(() => expect(backend.state?.memo.scenarios).toEqual(["all-cloud"]));
    expect(memoEdits(backend)[0]).toMatchObject({ label: "Edit memo: scenarios", coalesce: "memo:scenarios" });
    expect([...recommended.options].map((o) => o.value)).toEqual(["", "all-cloud"]);
    expect(screen.getByTestId("memo-scenarios-note").textContent).toContain("compares this scenario");

    // Checked later but listed first: the memo keeps the workspace's order.
    await fireEvent.click(field("memo-scenario-hybrid"));
    await waitFor(() => expect(backend.state?.memo.scenarios).toEqual(["hybrid", "all-cloud"]));
    await fireEvent.change(recommended, { target: { value: "hybrid" } });
    await waitFor(() => expect(backend.state?.memo.recommended).toBe("hybrid"));
    // Leaving the recommended scenario out clears the recommendation in the same edit.
    await fireEvent.click(field("memo-scenario-hybrid"));
    await waitFor(() => expect(backend.state?.memo).toMatchObject({ scenarios: ["all-cloud"], recommended: null }));
  });
});

describe("making the memo", () => {
  it("shows the back end's problem with a missing author on the author field", async () => {
    const backend = await openMemo(memoBackend({ author: "", decision: "Buy two DGX H100." }));
    await fireEvent.click(screen.getByTestId("memo-export"));
    const error = await screen.findByTestId("memo-error");
    expect(error.textContent).toContain("The memo cannot be made yet: the memo needs an author: write your name.");
    expect(backend.callsTo("exportMemo")).toEqual([["/home/ana/memos/decision.pdf", null]]);
    expect(problemsOf("memo-author")).toEqual(["the memo needs an author: write your name"]);
    expect(field("memo-author").getAttribute("aria-invalid")).toBe("true");
    expect(problemsOf("memo-decision")).toEqual([]);
    expect(screen.queryByTestId("memo-result")).toBeNull();

    // Writing an author clears its problem; the next export goes through.
    await type(field("memo-author"), "Ada Lovelace");
    expect(problemsOf("memo-author")).toEqual([]);
    await fireEvent.click(screen.getByTestId("memo-export"));
    await screen.findByTestId("memo-result");
    expect(screen.getByTestId("memo-result-file").textContent).toBe("/home/ana/memos/decision.pdf");
    expect(screen.getByTestId("memo-result-signer").textContent).toContain("not signed");
    expect(screen.getByTestId("memo-result-size").textContent).toBe("182,344 bytes (178 KiB)");
  });

  it("exports and signs with the chosen identity, passphrase and reason, clears the passphrase, and lists the memo first in the history", async () => {
    const backend = await openMemo(memoBackend({ author: "Ada Lovelace", decision: "Buy two DGX H100.", scenarios: ["hybrid", "all-cloud"], recommended: "hybrid" }));
    const identity = (await screen.findByTestId("memo-sign-identity")) as HTMLSelectElement;
    await waitFor(() => expect([...identity.options].map((o) => o.value)).toEqual(["ada-lovelace", "grace-hopper"]));
    expect(field("memo-sign-reason").value).toBe("Author");

    // Without a passphrase nothing is asked.
    await fireEvent.click(screen.getByTestId("memo-export-signed"));
    expect(problemsOf("memo-sign-passphrase")).toEqual(["the identity's passphrase"]);
    expect(backend.callsTo("exportMemo")).toEqual([]);

    await fireEvent.change(identity, { target: { value: "ada-lovelace" } });
    await fireEvent.input(field("memo-sign-passphrase"), { target: { value: "author-pass-2026" } });
    await fireEvent.input(field("memo-sign-reason"), { target: { value: "Author: for the board" } });
    await fireEvent.click(screen.getByTestId("memo-export-signed"));
    await screen.findByTestId("memo-result");
    expect(backend.callsTo("exportMemo")).toEqual([
      ["/home/ana/memos/decision.pdf", { identity: "ada-lovelace", passphrase: "author-pass-2026", reason: "Author: for the board" }],
    ]);
    expect(field("memo-sign-passphrase").value).toBe("");
    expect(screen.getByTestId("memo-result-signer").textContent).toContain("Ada Lovelace, Example Compute Ltd");
    expect(screen.getByTestId("memo-result-signer").textContent).toContain("(Author: for the board)");
    expect(screen.getByTestId("memo-result-pages").textContent).toBe("4");
    expect(screen.getByTestId("memo-result-sha256").textContent).toMatch(/^[0-9a-f]{64}$/);

    const rows = within(screen.getByTestId("memo-history")).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain("2026-11-22 10:00:00");
    expect(rows[0]!.textContent).toContain("signed");
    expect(rows[0]!.textContent).toContain("Ada Lovelace, Example Compute Ltd");
    expect(rows[1]!.textContent).toContain("generated");
    expect(rows[2]!.textContent).toContain("draft-1.pdf");
    expect(rows[2]!.textContent).toContain(EARLIER.sha256);
  });

  it("signs an existing PDF as a reviewer, and puts a wrong passphrase on the passphrase field", async () => {
    const backend = await openMemo(memoBackend({}, { pdfChecks: { "/home/ana/memos/received.pdf": PDF_CHECK_INTACT } }));
    const identity = screen.getByTestId("review-identity") as HTMLSelectElement;
    await waitFor(() => expect(identity.options.length).toBe(2));
    await fireEvent.change(identity, { target: { value: "grace-hopper" } });
    expect(field("review-reason").value).toBe("Reviewer: approved");
    await fireEvent.input(field("review-passphrase"), { target: { value: "not-the-passphrase" } });
    await fireEvent.click(screen.getByTestId("review-sign"));
    await screen.findByTestId("review-error");
    expect(problemsOf("review-passphrase")).toEqual(["the passphrase does not open the identity `grace-hopper`"]);
    expect(field("review-passphrase").value).toBe("");

    await fireEvent.input(field("review-passphrase"), { target: { value: "reviewer-pass-2026" } });
    await fireEvent.click(screen.getByTestId("review-sign"));
    await screen.findByTestId("review-result");
    expect(backend.callsTo("signPdf")[1]).toEqual(["/home/ana/memos/received.pdf", { identity: "grace-hopper", passphrase: "reviewer-pass-2026", reason: "Reviewer: approved" }]);
    expect(screen.getByTestId("review-result-signer").textContent).toContain("Grace Hopper, Example Compute Ltd");
    expect(field("review-passphrase").value).toBe("");
  });
});

describe("verifying a PDF", () => {
  it("reports an intact two-signature memo from the start screen, no workspace needed", async () => {
    const backend = new FakeBackend(
      { catalog: WORKSPACE_CATALOG },
      { dialog: { "open-pdf": "/home/ana/memos/memo.pdf" }, pdfChecks: { "/home/ana/memos/memo.pdf": PDF_CHECK_INTACT } },
    );
    render(App, { props: { backend, locale: "en-US" } });
    await fireEvent.click(await screen.findByTestId("start-verify"));
    const dialog = await screen.findByTestId("verify-dialog");
    expect(backend.callsTo("verifyPdf")).toEqual([["/home/ana/memos/memo.pdf"]]);
    const v = within(dialog).getByTestId("pdf-check-verdict");
    expect(v.dataset.verdict).toBe("intact");
    expect(v.textContent).toContain("Every signature is intact (2)");
    expect(within(dialog).queryByTestId("pdf-check-tail")).toBeNull();

    expect(within(dialog).getByTestId("pdf-signature-0-signer").textContent).toBe("Ada Lovelace");
    expect(within(dialog).getByTestId("pdf-signature-0-reason").textContent).toBe("Author");
    expect(within(dialog).getByTestId("pdf-signature-0-time").textContent).toBe("2026-11-22 11:32:45 UTC");
    expect(within(dialog).getByTestId("pdf-signature-0-covers").textContent).toContain("covers its revision; 34,304 bytes were added later");
    expect(within(dialog).getByTestId("pdf-signature-1-signer").textContent).toBe("Grace Hopper");
    expect(within(dialog).getByTestId("pdf-signature-1-reason").textContent).toBe("Reviewer: approved");
    expect(within(dialog).getByTestId("pdf-signature-1-covers").textContent).toContain("covers the whole file");
    expect(within(dialog).getByTestId("pdf-signature-1-state").textContent).toBe("✓ Intact");

    const cert = within(dialog).getByTestId("pdf-signature-0-certificate").textContent ?? "";
    expect(cert).toContain("Example Compute Ltd");
    expect(cert).toContain("6e0df3e176b2f731de844d0adcd448be");
    expect(cert).toContain("2026-11-22 to 2029-11-21");
    expect(cert).toContain("EC P-256");
    expect(within(dialog).getByTestId("pdf-signature-0-fingerprint").textContent).toBe("fd7d10ae5d4fdf1cdedb7d0e89c022934bd920df7086107e51bb1cf05741c88b");
    expect(within(dialog).getByTestId("pdf-signature-0-self-signed").textContent).toBe("self-signed");
    expect(within(dialog).getByTestId("pdf-signature-0-digest").textContent).toContain("✓");
  });

  it("reports a tampered memo as NOT intact with the digest mismatch and its problem, and warns of bytes added after the last signature", async () => {
    const backend = await openMemo(
      memoBackend({}, { pdfChecks: { "/home/ana/memos/received.pdf": PDF_CHECK_TAMPERED }, dialog: { "open-pdf": "/home/ana/memos/received.pdf" } }),
    );
    await fireEvent.click(screen.getByTestId("verify-open"));
    const dialog = await screen.findByTestId("verify-dialog");
    const v = within(dialog).getByTestId("pdf-check-verdict");
    expect(v.dataset.verdict).toBe("broken");
    expect(v.textContent).toContain("NOT intact: 2 of 2 signatures fail");
    expect(within(dialog).getByTestId("pdf-signature-0-state").textContent).toBe("✗ NOT intact");
    expect(within(dialog).getByTestId("pdf-signature-0-digest").textContent).toContain("✗ digest mismatch: the signed bytes were changed");
    expect(within(dialog).getByTestId("pdf-signature-0-signature").textContent).toContain("✓ verifies with the certificate's key");
    expect(within(dialog).getByTestId("pdf-signature-0-problems").textContent).toContain(
      "the document digest does not match the signed message digest: the signed bytes were changed",
    );
    await fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByTestId("verify-dialog")).toBeNull();
    expect(backend.callsTo("verifyPdf")).toHaveLength(1);
  });

  it("words the verdict, coverage and unsigned tail of real checks", () => {
    expect(verdict(PDF_CHECK_INTACT)).toEqual({ kind: "intact", text: "Every signature is intact (2)" });
    expect(verdict(PDF_CHECK_TAMPERED)).toEqual({ kind: "broken", text: "NOT intact: 2 of 2 signatures fail" });
    expect(verdict({ ...PDF_CHECK_INTACT, all_intact: false, verification: { signatures: [], file_len: 10 } }).kind).toBe("unsigned");
    expect(PDF_CHECK_APPENDED.unsigned_tail).toBe(16);
    expect(coverage(PDF_CHECK_APPENDED.verification.signatures[1]!)).toBe("covers its revision; 16 bytes were added later");
  });

  it("shows the unsigned-tail warning", async () => {
    const backend = new FakeBackend({ catalog: WORKSPACE_CATALOG }, { dialog: { "open-pdf": "/tmp/a.pdf" }, pdfChecks: { "/tmp/a.pdf": PDF_CHECK_APPENDED } });
    render(App, { props: { backend, locale: "en-US" } });
    await fireEvent.click(await screen.findByTestId("start-verify"));
    const tail = await screen.findByTestId("pdf-check-tail");
    expect(tail.textContent).toContain("16 bytes were added after the last signature.");
  });
});

describe("signing identities", () => {
  it("refuses a short or mismatched passphrase without calling the back end, then makes the identity", async () => {
    const backend = await openMemo(memoBackend({}));
    await screen.findByTestId("identity-row-ada-lovelace");
    await fireEvent.click(screen.getByTestId("identity-new"));
    const dialog = await screen.findByTestId("new-identity-dialog");
    await fireEvent.input(field("new-identity-name"), { target: { value: "Alan Turing" } });
    await fireEvent.input(field("new-identity-organisation"), { target: { value: "Example Compute Ltd" } });
    await fireEvent.input(field("new-identity-passphrase"), { target: { value: "short" } });
    await fireEvent.input(field("new-identity-confirm"), { target: { value: "short" } });
    await fireEvent.click(screen.getByTestId("new-identity-create"));
    expect(screen.getByTestId("new-identity-passphrase-problem").textContent).toBe("at least 8 characters: it encrypts the private key");
    expect(backend.callsTo("createIdentity")).toEqual([]);

    await fireEvent.input(field("new-identity-passphrase"), { target: { value: "enigma-1940" } });
    await fireEvent.input(field("new-identity-confirm"), { target: { value: "enigma-1941" } });
    await fireEvent.click(screen.getByTestId("new-identity-create"));
    expect(screen.getByTestId("new-identity-confirm-problem").textContent).toBe("the two passphrases differ");
    expect(screen.queryByTestId("new-identity-passphrase-problem")).toBeNull();
    expect(backend.callsTo("createIdentity")).toEqual([]);

    await fireEvent.input(field("new-identity-confirm"), { target: { value: "enigma-1940" } });
    await fireEvent.click(within(dialog).getByTestId("new-identity-create"));
    await waitFor(() => expect(screen.queryByTestId("new-identity-dialog")).toBeNull());
    expect(backend.callsTo("createIdentity")).toEqual([["Alan Turing", "Example Compute Ltd", null, "enigma-1940"]]);
    const row = await screen.findByTestId("identity-row-alan-turing");
    expect(row.textContent).toContain("made here");
    expect(screen.getByTestId("identity-notice").textContent).toContain("Alan Turing, Example Compute Ltd");
    // The new identity can sign at once.
    expect([...(screen.getByTestId("memo-sign-identity") as HTMLSelectElement).options].map((o) => o.value)).toContain("alan-turing");
  });

  it("imports a PKCS#12 identity with its passphrase and exports a certificate, clearing the passphrases", async () => {
    const org: FakeIdentity = { summary: { ...GRACE.summary, id: "example-signing", common_name: "Example Signing", origin: "made elsewhere" }, passphrase: "org-pass-123" };
    const backend = await openMemo(
      memoBackend({}, { identities: [ADA], identityFiles: { "/home/ana/keys/org.p12": org }, dialog: { "import-identity": "/home/ana/keys/org.p12", "export-certificate": "/home/ana/keys/ada.pem" } }),
    );
    await fireEvent.click(await screen.findByTestId("identity-import"));
    const dialog = await screen.findByTestId("import-identity-dialog");
    expect(dialog.textContent).toContain("/home/ana/keys/org.p12");
    await fireEvent.input(field("import-identity-passphrase"), { target: { value: "wrong-pass" } });
    await fireEvent.click(screen.getByTestId("import-identity-confirm"));
    expect((await screen.findByTestId("import-identity-error")).textContent).toContain("the passphrase does not open this PKCS#12 file");
    expect(field("import-identity-passphrase").value).toBe("");
    await fireEvent.input(field("import-identity-passphrase"), { target: { value: "org-pass-123" } });
    await fireEvent.click(screen.getByTestId("import-identity-confirm"));
    expect((await screen.findByTestId("identity-row-example-signing")).textContent).toContain("imported");
    expect(backend.callsTo("importIdentity")).toEqual([
      ["/home/ana/keys/org.p12", "wrong-pass"],
      ["/home/ana/keys/org.p12", "org-pass-123"],
    ]);

    await fireEvent.click(screen.getByTestId("identity-export-ada-lovelace"));
    await screen.findByTestId("export-cert-dialog");
    await fireEvent.input(field("export-cert-passphrase"), { target: { value: "author-pass-2026" } });
    await fireEvent.click(screen.getByTestId("export-cert-confirm"));
    await waitFor(() => expect(screen.queryByTestId("export-cert-dialog")).toBeNull());
    expect(backend.callsTo("chooseFile").at(-1)).toEqual(["export-certificate"]);
    expect(backend.callsTo("exportCertificate")).toEqual([["ada-lovelace", "author-pass-2026", "/home/ana/keys/ada.pem"]]);
    expect(screen.getByTestId("identity-notice").textContent).toBe("Wrote the certificate of Ada Lovelace, Example Compute Ltd (made here) to /home/ana/keys/ada.pem.");
  });

  it("checks a new identity's fields in words", () => {
    const ok = { name: "A", organisation: "B", email: "", passphrase: "12345678", confirm: "12345678" };
    expect(newIdentityProblems(ok)).toEqual({});
    expect(newIdentityProblems({ ...ok, passphrase: "1234567", confirm: "1234567" })).toEqual({ passphrase: "at least 8 characters: it encrypts the private key" });
    expect(newIdentityProblems({ ...ok, confirm: "12345679" })).toEqual({ confirm: "the two passphrases differ" });
    expect(newIdentityProblems({ ...ok, name: " ", email: "not an address" })).toEqual({
      name: "give the signer's name, as it should appear on signatures",
      email: "not an e-mail address (leave it empty if there is none)",
    });
  });
});
