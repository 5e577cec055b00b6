// The Memo tab and the PDF check, in jsdom over recorded answers of the real back end (see
// tests/support/recorded.ts): the enterprise-hybrid sample opened as a workspace, signing
// identities made by the real use case, memos written and signed for real, and every PDF check
// the real verifier's. A broken PDF is a real one: bytes appended to a signed file on the host.

import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { tick } from "svelte";
import App from "../src/lib/components/App.svelte";
import { coverage, newIdentityProblems, verdict } from "../src/lib/memo/memo";
import type { TauriBackend } from "../src/lib/ipc/tauri-backend";
import { themeState } from "../src/lib/theme-state.svelte";
import type { EditRequest, IdentitySummary, MemoDraft, SignWith } from "../src/lib/workspace-types";
import { recorded, type Dialog, type RecordedSession } from "./support/recorded";
import { ENTERPRISE, enterpriseSession } from "./support/sessions";

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

// ---- Setting the scene through the real back end ----

const ORG = "Example Compute Ltd";
const ADA = { name: "Ada Lovelace", email: "ada@example.com", passphrase: "author-pass-2026" };
const GRACE = { name: "Grace Hopper", email: null, passphrase: "reviewer-pass-2026" };
const MINUTE = 60_000;
/** Making keys and signing PDFs takes the host server a while in record mode (replay is instant). */
const SLOW = 60_000;
const WAIT = { timeout: 30_000 };

/** Makes the two signing identities (author and reviewer) as the app does. */
async function identities(backend: TauriBackend): Promise<{ ada: IdentitySummary; grace: IdentitySummary }> {
  const ada = await backend.createIdentity(ADA.name, ORG, ADA.email, ADA.passphrase);
  const grace = await backend.createIdentity(GRACE.name, ORG, GRACE.email, GRACE.passphrase);
  return { ada, grace };
}

const signAs = (who: IdentitySummary, passphrase: string, reason: string): SignWith => ({ identity: who.id, passphrase, reason });

/** Saves `memo` over the open workspace's draft as one undo step of its own. */
async function setDraft(backend: TauriBackend, memo: Partial<MemoDraft>): Promise<void> {
  const draft = await backend.memoDraft();
  await backend.applyEdit({ edit: { kind: "memo", memo: { ...draft, ...memo } }, label: "Draft the memo", coalesce: null });
}

const BOARD_DRAFT: Partial<MemoDraft> = { author: "Ada Lovelace", decision: "Buy two DGX H100 for the base load; burst to AWS.", scenarios: ["hybrid", "all-cloud"], recommended: "hybrid" };

/**
 * Writes a memo of the open workspace to `path`, signed by Ada (the author) and a minute later by
 * Grace (the reviewer), as a committee would receive it.
 */
async function twiceSignedMemo(backend: TauriBackend, host: RecordedSession, path: string) {
  const ids = await identities(backend);
  await setDraft(backend, BOARD_DRAFT);
  await host.advance(MINUTE);
  await backend.exportMemo(path, signAs(ids.ada, ADA.passphrase, "Author"));
  await host.advance(MINUTE);
  await backend.signPdf(path, signAs(ids.grace, GRACE.passphrase, "Reviewer: approved"));
  return ids;
}

/** A session with no workspace open (the start screen), where `path` is a memo signed twice. */
async function startScreenWithSignedMemo(path: string, dialog: Dialog) {
  const session = recorded({ dialog });
  const { backend, host } = session;
  await host.workspace("@repo/catalogs/samples/enterprise-hybrid.json", ENTERPRISE);
  await backend.openWorkspace(ENTERPRISE);
  const ids = await twiceSignedMemo(backend, host, path);
  await backend.closeWorkspace();
  return { ...session, ...ids };
}

// ---- The screen ----

async function openMemo(backend: TauriBackend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "5", ctrlKey: true });
  expect(screen.getByTestId("tab-memo").getAttribute("aria-selected")).toBe("true");
  await screen.findByTestId("memo-author");
  return backend;
}

const field = (id: string) => screen.getByTestId(id) as HTMLInputElement;
/** The memo edits the screen sent (the setup's draft, sent with no coalesce key, left out). */
const memoEdits = (host: RecordedSession) =>
  host
    .sent("apply_edit")
    .map((a) => a.request as EditRequest)
    .filter((r) => r.edit.kind === "memo" && r.coalesce !== null);
const lastMemo = (host: RecordedSession) => {
  const last = memoEdits(host).at(-1)?.edit;
  return last?.kind === "memo" ? last.memo : null;
};

/**
 * Types `text` into `el` one key at a time, every keystroke before the back end answers any:
 * the first key's edit goes out at once and the others wait behind it, each replacing the one
 * waiting (the queue's coalescing), so the calls made do not depend on how fast answers come.
 */
async function type(el: HTMLInputElement, text: string) {
  el.focus();
  const keys = [...text].map((_, i) => fireEvent.input(el, { target: { value: text.slice(0, i + 1) } }));
  await Promise.all(keys);
  await tick();
}

/** Waits until every edit is saved. */
const saved = () => waitFor(() => expect(screen.getByTestId("saved-state").textContent).toBe("All changes saved"), WAIT);

/** The problems shown under the field whose input has `testid`. */
const problemsOf = (testid: string) =>
  [...(field(testid).closest(".f-control")?.querySelectorAll(".f-problem") ?? [])].map((e) => e.textContent);

describe("memo draft", () => {
  it("sends typing in the decision as memo edits coalesced into one undo step, and undo and redo put the draft back on screen", async () => {
    const { backend, host } = await enterpriseSession();
    await setDraft(backend, { author: "Ada Lovelace", decision: "Rent all capacity.", scenarios: ["hybrid"] });
    await openMemo(backend);
    const decision = field("memo-decision");
    expect(decision.tagName).toBe("TEXTAREA");
    expect(decision.value).toBe("Rent all capacity.");
    expect(screen.getByTestId("undo").getAttribute("title")).toBe("Undo: Draft the memo (Ctrl+Z)");

    await type(decision, "Buy two DGX H100.");
    await saved();
    const sent = memoEdits(host);
    // The first keystroke went out at once; the 16 typed while it was in flight replaced each
    // other in the queue, so only the last text followed.
    expect(sent.map((r) => (r.edit.kind === "memo" ? r.edit.memo.decision : null))).toEqual(["B", "Buy two DGX H100."]);
    for (const r of sent) expect(r).toMatchObject({ label: "Edit memo: decision", coalesce: "memo:decision" });
    // The whole draft goes along, only the decision changed.
    expect(sent[sent.length - 1]!.edit).toEqual({
      kind: "memo",
      memo: { author: "Ada Lovelace", client: "", decision: "Buy two DGX H100.", rationale: "", recommended: null, scenarios: ["hybrid"], paper: "a4" },
    });
    expect((await backend.memoDraft()).decision).toBe("Buy two DGX H100.");
    // One undo step for the typing, on top of the draft's own.
    expect(screen.getByTestId("undo").getAttribute("title")).toBe("Undo: Edit memo: decision (Ctrl+Z)");

    decision.blur();
    await fireEvent.click(screen.getByTestId("undo"));
    await waitFor(() => expect(field("memo-decision").value).toBe("Rent all capacity."));
    expect(screen.getByTestId("undo").getAttribute("title")).toBe("Undo: Draft the memo (Ctrl+Z)");
    expect((await backend.memoDraft()).decision).toBe("Rent all capacity.");
    await fireEvent.click(screen.getByTestId("redo"));
    await waitFor(() => expect(field("memo-decision").value).toBe("Buy two DGX H100."));
    expect(host.sent("undo")).toHaveLength(1);
    expect(host.sent("redo")).toHaveLength(1);
  }, SLOW);

  it("lists the workspace's scenarios in order, says an empty choice means the compare screen's, and recommends among the chosen", async () => {
    const { backend, host } = await enterpriseSession();
    await setDraft(backend, { author: "Ada Lovelace" });
    await openMemo(backend);
    const boxes = within(screen.getByTestId("memo-scenarios")).getAllByRole("checkbox") as HTMLInputElement[];
    expect(boxes.map((b) => b.dataset.testid)).toEqual(["memo-scenario-hybrid", "memo-scenario-all-cloud"]);
    expect(boxes.every((b) => !b.checked)).toBe(true);
    expect(screen.getByTestId("memo-scenarios-note").textContent).toContain("as on the compare screen");
    const recommended = screen.getByTestId("memo-recommended") as HTMLSelectElement;
    expect([...recommended.options].map((o) => o.value)).toEqual(["", "hybrid", "all-cloud"]);

    await fireEvent.click(field("memo-scenario-all-cloud"));
    await saved();
    expect(memoEdits(host)[0]).toMatchObject({ label: "Edit memo: scenarios", coalesce: "memo:scenarios" });
    expect((await backend.memoDraft()).scenarios).toEqual(["all-cloud"]);
    expect([...recommended.options].map((o) => o.value)).toEqual(["", "all-cloud"]);
    expect(screen.getByTestId("memo-scenarios-note").textContent).toContain("compares this scenario");

    // Checked later but listed first: the memo keeps the workspace's order.
    await fireEvent.click(field("memo-scenario-hybrid"));
    await saved();
    expect((await backend.memoDraft()).scenarios).toEqual(["hybrid", "all-cloud"]);
    await fireEvent.change(recommended, { target: { value: "hybrid" } });
    await saved();
    expect(lastMemo(host)?.recommended).toBe("hybrid");
    expect((await backend.memoDraft()).recommended).toBe("hybrid");
    // Leaving the recommended scenario out clears the recommendation in the same edit.
    await fireEvent.click(field("memo-scenario-hybrid"));
    await saved();
    expect(lastMemo(host)).toMatchObject({ scenarios: ["all-cloud"], recommended: null });
    expect(await backend.memoDraft()).toMatchObject({ scenarios: ["all-cloud"], recommended: null });
  }, SLOW);
});

describe("making the memo", () => {
  it("shows the back end's problem with a missing author on the author field", async () => {
    const { backend, host } = await enterpriseSession({ dialog: { "save-memo": "@tmp/decision.pdf" } });
    await setDraft(backend, { author: "", decision: "Buy two DGX H100." });
    await openMemo(backend);
    await fireEvent.click(screen.getByTestId("memo-export"));
    const error = await screen.findByTestId("memo-error", {}, WAIT);
    expect(error.textContent).toContain("The memo cannot be made yet: the memo needs an author: write your name.");
    expect(host.sent("export_memo")).toEqual([{ path: "@tmp/decision.pdf", sign: null }]);
    expect(problemsOf("memo-author")).toEqual(["the memo needs an author: write your name"]);
    expect(field("memo-author").getAttribute("aria-invalid")).toBe("true");
    expect(problemsOf("memo-decision")).toEqual([]);
    expect(screen.queryByTestId("memo-result")).toBeNull();

    // Writing an author clears its problem; the next export goes through.
    await type(field("memo-author"), "Ada Lovelace");
    expect(problemsOf("memo-author")).toEqual([]);
    await fireEvent.click(screen.getByTestId("memo-export"));
    await screen.findByTestId("memo-result", {}, WAIT);
    expect(host.sent("export_memo")).toHaveLength(2);
    expect(screen.getByTestId("memo-result-file").textContent).toBe("@tmp/decision.pdf");
    expect(screen.getByTestId("memo-result-signer").textContent).toContain("not signed");
    expect(screen.getByTestId("memo-result-pages").textContent).toBe("17");
    // The size as the back end measured the file written, in bytes and KiB (the exact count
    // moves with the memo's content, so it is read back, not typed in).
    const size = screen.getByTestId("memo-result-size").textContent ?? "";
    const [, digits, kib] = /^([\d,]+) bytes \((\d+) KiB\)$/.exec(size) ?? [];
    const bytes = Number((digits ?? "").replaceAll(",", ""));
    expect(bytes).toBeGreaterThan(100_000);
    expect(Number(kib)).toBe(Math.round(bytes / 1024));
  }, SLOW);

  it("exports and signs with the chosen identity, passphrase and reason, clears the passphrase, and lists the memo first in the history", async () => {
    const { backend, host } = await enterpriseSession({ dialog: { "save-memo": "@tmp/decision.pdf" } });
    const { ada, grace } = await identities(backend);
    await setDraft(backend, BOARD_DRAFT);
    // An earlier, unsigned memo of the same workspace, an hour before.
    const earlier = await backend.exportMemo("@tmp/draft-1.pdf", null);
    await host.advance(60 * MINUTE);

    await openMemo(backend);
    const identity = (await screen.findByTestId("memo-sign-identity")) as HTMLSelectElement;
    await waitFor(() => expect([...identity.options].map((o) => o.value)).toEqual([ada.id, grace.id]));
    expect(field("memo-sign-reason").value).toBe("Author");

    // Without a passphrase nothing is asked.
    await fireEvent.click(screen.getByTestId("memo-export-signed"));
    expect(problemsOf("memo-sign-passphrase")).toEqual(["the identity's passphrase"]);
    expect(host.sent("choose_file")).toEqual([]);
    expect(host.sent("export_memo")).toHaveLength(1);

    await fireEvent.change(identity, { target: { value: ada.id } });
    await fireEvent.input(field("memo-sign-passphrase"), { target: { value: ADA.passphrase } });
    await fireEvent.input(field("memo-sign-reason"), { target: { value: "Author: for the board" } });
    await fireEvent.click(screen.getByTestId("memo-export-signed"));
    await screen.findByTestId("memo-result", {}, WAIT);
    expect(host.sent("export_memo")).toEqual([
      { path: "@tmp/draft-1.pdf", sign: null },
      { path: "@tmp/decision.pdf", sign: { identity: ada.id, passphrase: ADA.passphrase, reason: "Author: for the board" } },
    ]);
    expect(field("memo-sign-passphrase").value).toBe("");
    expect(screen.getByTestId("memo-result-signer").textContent).toContain("Ada Lovelace, Example Compute Ltd");
    expect(screen.getByTestId("memo-result-signer").textContent).toContain("(Author: for the board)");
    expect(screen.getByTestId("memo-result-signer").textContent).toContain("1 signature in the file");
    expect(screen.getByTestId("memo-result-pages").textContent).toBe("17");
    // A signature is drawn with a new random key, so the file's digest differs at each recording.
    const sha = screen.getByTestId("memo-result-sha256").textContent ?? "";
    expect(sha).toMatch(/^[0-9a-f]{64}$/);

    // The history is read again once the memo is made.
    const historyRows = () => within(screen.getByTestId("memo-history")).getAllByRole("row").slice(1);
    await waitFor(() => expect(historyRows()).toHaveLength(3), WAIT);
    const rows = historyRows();
    expect(rows[0]!.textContent).toContain("2026-11-23 10:00:00");
    expect(rows[0]!.textContent).toContain("signed");
    expect(rows[0]!.textContent).toContain("Ada Lovelace, Example Compute Ltd");
    expect(rows[0]!.textContent).toContain(sha);
    expect(rows[1]!.textContent).toContain("2026-11-23 10:00:00");
    expect(rows[1]!.textContent).toContain("generated");
    expect(rows[2]!.textContent).toContain("2026-11-23 09:00:00");
    expect(rows[2]!.textContent).toContain("draft-1.pdf");
    expect(earlier.record.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[2]!.textContent).toContain(earlier.record.sha256);
  }, SLOW);

  it(
    "signs an existing PDF as a reviewer, and puts a wrong passphrase on the passphrase field, clearing it",
    async () => {
      const { backend, host } = await enterpriseSession({ dialog: { "open-pdf": "@tmp/received.pdf" } });
      const { ada, grace } = await identities(backend);
      await setDraft(backend, BOARD_DRAFT);
      await backend.exportMemo("@tmp/received.pdf", signAs(ada, ADA.passphrase, "Author"));
      await openMemo(backend);
      const identity = screen.getByTestId("review-identity") as HTMLSelectElement;
      await waitFor(() => expect([...identity.options].map((o) => o.value)).toEqual([ada.id, grace.id]));
      await fireEvent.change(identity, { target: { value: grace.id } });
      expect(field("review-reason").value).toBe("Reviewer: approved");
      await fireEvent.input(field("review-passphrase"), { target: { value: "not-the-passphrase" } });
      await fireEvent.click(screen.getByTestId("review-sign"));
      const error = await screen.findByTestId("review-error", {}, WAIT);
      expect(error.textContent).toContain(`Identity \`${grace.id}\`: the passphrase does not open this PKCS#12 file; check the passphrase and try again`);
      // The refusal names the passphrase field, so the problem also stands where it was typed.
      expect(problemsOf("review-passphrase")).toEqual([
        `Identity \`${grace.id}\`: the passphrase does not open this PKCS#12 file; check the passphrase and try again`,
      ]);
      expect(field("review-passphrase").value).toBe("");
      expect(screen.queryByTestId("review-result")).toBeNull();

      await fireEvent.input(field("review-passphrase"), { target: { value: GRACE.passphrase } });
      await fireEvent.click(screen.getByTestId("review-sign"));
      await screen.findByTestId("review-result", {}, WAIT);
      expect(host.sent("sign_pdf")).toEqual([
        { path: "@tmp/received.pdf", sign: { identity: grace.id, passphrase: "not-the-passphrase", reason: "Reviewer: approved" } },
        { path: "@tmp/received.pdf", sign: { identity: grace.id, passphrase: GRACE.passphrase, reason: "Reviewer: approved" } },
      ]);
      expect(screen.getByTestId("review-result-signer").textContent).toContain("Grace Hopper, Example Compute Ltd");
      expect(screen.getByTestId("review-result-signer").textContent).toContain("2 signatures in the file");
      expect(screen.queryByTestId("review-error")).toBeNull();
      expect(field("review-passphrase").value).toBe("");
    },
    SLOW,
  );
});

describe("verifying a PDF", () => {
  it(
    "reports an intact two-signature memo from the start screen, no workspace needed",
    async () => {
      const { backend, host, ada } = await startScreenWithSignedMemo("@tmp/memo.pdf", { "open-pdf": "@tmp/memo.pdf" });
      render(App, { props: { backend, locale: "en-US" } });
      await fireEvent.click(await screen.findByTestId("start-verify"));
      const dialog = await screen.findByTestId("verify-dialog", {}, WAIT);
      expect(host.sent("verify_pdf")).toEqual([{ path: "@tmp/memo.pdf" }]);
      const v = within(dialog).getByTestId("pdf-check-verdict");
      expect(v.dataset.verdict).toBe("intact");
      expect(v.textContent).toContain("Every signature is intact (2)");
      expect(within(dialog).queryByTestId("pdf-check-tail")).toBeNull();

      expect(within(dialog).getByTestId("pdf-signature-0-signer").textContent).toBe("Ada Lovelace");
      expect(within(dialog).getByTestId("pdf-signature-0-reason").textContent).toBe("Author");
      expect(within(dialog).getByTestId("pdf-signature-0-time").textContent).toBe("2026-11-23 09:01:00 UTC");
      // The reviewer's signature is an incremental update of 34,304 bytes after the author's.
      expect(within(dialog).getByTestId("pdf-signature-0-covers").textContent).toContain("covers its revision; 34,304 bytes were added later");
      expect(within(dialog).getByTestId("pdf-signature-0-state").textContent).toBe("✓ Intact");
      expect(within(dialog).getByTestId("pdf-signature-1-signer").textContent).toBe("Grace Hopper");
      expect(within(dialog).getByTestId("pdf-signature-1-reason").textContent).toBe("Reviewer: approved");
      expect(within(dialog).getByTestId("pdf-signature-1-time").textContent).toBe("2026-11-23 09:02:00 UTC");
      expect(within(dialog).getByTestId("pdf-signature-1-covers").textContent).toContain("covers the whole file");
      expect(within(dialog).getByTestId("pdf-signature-1-state").textContent).toBe("✓ Intact");

      const cert = within(dialog).getByTestId("pdf-signature-0-certificate").textContent ?? "";
      expect(cert).toContain("Example Compute Ltd");
      // The certificate's serial number is drawn at random when the identity is made: its form only.
      expect(cert).toMatch(/\b[0-9a-f]{32}\b/);
      expect(cert).toContain("2026-11-23 to 2029-11-22");
      expect(cert).toContain("EC P-256");
      // The fingerprint is the one the identity was made with.
      expect(within(dialog).getByTestId("pdf-signature-0-fingerprint").textContent).toBe(ada.sha256);
      expect(within(dialog).getByTestId("pdf-signature-0-self-signed").textContent).toBe("self-signed");
      expect(within(dialog).getByTestId("pdf-signature-0-digest").textContent).toContain("✓");
    },
    SLOW,
  );

  it(
    "reports a memo changed after signing as NOT intact with each signature's problem, and warns of bytes added after the last signature",
    async () => {
      const { backend, host } = await enterpriseSession({ dialog: { "open-pdf": "@tmp/received.pdf" } });
      await twiceSignedMemo(backend, host, "@tmp/received.pdf");
      // Someone changes the signed file. Only bytes after the signatures can be changed on the
      // host (append), not bytes inside a signed range, so the break the verifier finds is an
      // unsigned tail, not a digest mismatch (which no host step can make).
      await host.append("@tmp/received.pdf", "% changed after signing\n");
      await openMemo(backend);
      await fireEvent.click(screen.getByTestId("verify-open"));
      const dialog = await screen.findByTestId("verify-dialog", {}, WAIT);
      const v = within(dialog).getByTestId("pdf-check-verdict");
      expect(v.dataset.verdict).toBe("broken");
      expect(v.textContent).toContain("NOT intact: 2 of 2 signatures fail");
      expect(within(dialog).getByTestId("pdf-check-tail").textContent).toContain("24 bytes were added after the last signature.");
      for (const i of [0, 1]) {
        expect(within(dialog).getByTestId(`pdf-signature-${i}-state`).textContent).toBe("✗ NOT intact");
        // The signed bytes are untouched and the signature verifies: what fails is the file's end.
        expect(within(dialog).getByTestId(`pdf-signature-${i}-digest`).textContent).toContain("✓");
        expect(within(dialog).getByTestId(`pdf-signature-${i}-signature`).textContent).toContain("✓ verifies with the certificate's key");
        expect(within(dialog).getByTestId(`pdf-signature-${i}-problems`).textContent).toMatch(
          /modified after signing: the file does not end with a complete revision: bytes after the last %%EOF were added \(the file ends at byte \d{6}\)/,
        );
      }
      expect(within(dialog).getByTestId("pdf-signature-1-covers").textContent).toContain("covers its revision; 24 bytes were added later");
      await fireEvent.keyDown(dialog, { key: "Escape" });
      expect(screen.queryByTestId("verify-dialog")).toBeNull();
      expect(host.sent("verify_pdf")).toEqual([{ path: "@tmp/received.pdf" }]);
    },
    SLOW,
  );

  it(
    "words the verdict, coverage and unsigned tail of real checks",
    async () => {
      const { backend, host } = await enterpriseSession();
      await twiceSignedMemo(backend, host, "@tmp/memo.pdf");
      await host.copy("@tmp/memo.pdf", "@tmp/appended.pdf");
      await host.append("@tmp/appended.pdf", "% sixteen bytes\n");
      await backend.exportMemo("@tmp/plain.pdf", null);

      const intact = await backend.verifyPdf("@tmp/memo.pdf");
      const appended = await backend.verifyPdf("@tmp/appended.pdf");
      const plain = await backend.verifyPdf("@tmp/plain.pdf");
      expect(verdict(intact)).toEqual({ kind: "intact", text: "Every signature is intact (2)" });
      expect(verdict(appended)).toEqual({ kind: "broken", text: "NOT intact: 2 of 2 signatures fail" });
      expect(verdict(plain)).toEqual({ kind: "unsigned", text: "No signature: this PDF is not signed" });
      expect(intact.unsigned_tail).toBe(0);
      expect(coverage(intact.verification.signatures[0]!)).toBe("covers its revision; 34,304 bytes were added later");
      expect(coverage(intact.verification.signatures[1]!)).toBe("covers the whole file");
      expect(appended.unsigned_tail).toBe(16);
      expect(coverage(appended.verification.signatures[1]!)).toBe("covers its revision; 16 bytes were added later");
      expect(coverage(appended.verification.signatures[0]!)).toBe("covers its revision; 34,320 bytes were added later");
    },
    SLOW,
  );

  it(
    "shows the unsigned-tail warning",
    async () => {
      const { backend, host } = await startScreenWithSignedMemo("@tmp/a.pdf", { "open-pdf": "@tmp/a.pdf" });
      await host.append("@tmp/a.pdf", "% sixteen bytes\n");
      render(App, { props: { backend, locale: "en-US" } });
      await fireEvent.click(await screen.findByTestId("start-verify"));
      const tail = await screen.findByTestId("pdf-check-tail", {}, WAIT);
      expect(tail.textContent).toContain("16 bytes were added after the last signature.");
      expect(host.sent("verify_pdf")).toEqual([{ path: "@tmp/a.pdf" }]);
    },
    SLOW,
  );
});

describe("signing identities", () => {
  it(
    "refuses a short or mismatched passphrase without calling the back end, then makes the identity",
    async () => {
      const { backend, host } = await enterpriseSession();
      const { ada } = await identities(backend);
      await openMemo(backend);
      await screen.findByTestId(`identity-row-${ada.id}`);
      await fireEvent.click(screen.getByTestId("identity-new"));
      const dialog = await screen.findByTestId("new-identity-dialog");
      await fireEvent.input(field("new-identity-name"), { target: { value: "Alan Turing" } });
      await fireEvent.input(field("new-identity-organisation"), { target: { value: ORG } });
      await fireEvent.input(field("new-identity-passphrase"), { target: { value: "short" } });
      await fireEvent.input(field("new-identity-confirm"), { target: { value: "short" } });
      await fireEvent.click(screen.getByTestId("new-identity-create"));
      expect(screen.getByTestId("new-identity-passphrase-problem").textContent).toBe("at least 8 characters: it encrypts the private key");
      // Only the setup's two identities were asked for.
      expect(host.sent("create_identity")).toHaveLength(2);

      await fireEvent.input(field("new-identity-passphrase"), { target: { value: "enigma-1940" } });
      await fireEvent.input(field("new-identity-confirm"), { target: { value: "enigma-1941" } });
      await fireEvent.click(screen.getByTestId("new-identity-create"));
      expect(screen.getByTestId("new-identity-confirm-problem").textContent).toBe("the two passphrases differ");
      expect(screen.queryByTestId("new-identity-passphrase-problem")).toBeNull();
      expect(host.sent("create_identity")).toHaveLength(2);

      await fireEvent.input(field("new-identity-confirm"), { target: { value: "enigma-1940" } });
      await fireEvent.click(within(dialog).getByTestId("new-identity-create"));
      await waitFor(() => expect(screen.queryByTestId("new-identity-dialog")).toBeNull(), WAIT);
      expect(host.sent("create_identity").slice(2)).toEqual([{ name: "Alan Turing", organisation: ORG, email: null, passphrase: "enigma-1940" }]);
      // The new identity, by the id made from its name.
      const row = await screen.findByTestId("identity-row-alan-turing");
      expect(row.textContent).toContain("Alan Turing");
      expect(row.textContent).toContain("made here");
      expect(screen.getByTestId("identity-notice").textContent).toContain("Alan Turing, Example Compute Ltd");
      // The new identity can sign at once.
      expect([...(screen.getByTestId("memo-sign-identity") as HTMLSelectElement).options].map((o) => o.value)).toContain("alan-turing");
    },
    SLOW,
  );

  it(
    "imports a PKCS#12 identity with its passphrase and exports a certificate, clearing the passphrases",
    async () => {
      const { backend, host } = await enterpriseSession({ dialog: { "import-identity": "@tmp/keys/org.p12", "export-certificate": "@tmp/keys/ada.pem" } });
      const ada = await backend.createIdentity(ADA.name, ORG, ADA.email, ADA.passphrase);
      // The organisation's PKCS#12 file: the host can only make one by making an identity (kept
      // as <id>.p12 in the identities folder, <id> the slug of its name), copied out of the folder.
      const org = await backend.createIdentity("Example Signing", ORG, null, "org-pass-123");
      await host.copy("@tmp/config/identities/example-signing.p12", "@tmp/keys/org.p12");
      await openMemo(backend);
      await screen.findByTestId(`identity-row-${org.id}`);

      await fireEvent.click(await screen.findByTestId("identity-import"));
      const dialog = await screen.findByTestId("import-identity-dialog");
      expect(dialog.textContent).toContain("@tmp/keys/org.p12");
      await fireEvent.input(field("import-identity-passphrase"), { target: { value: "wrong-pass" } });
      await fireEvent.click(screen.getByTestId("import-identity-confirm"));
      expect((await screen.findByTestId("import-identity-error", {}, WAIT)).textContent).toContain("the passphrase does not open this PKCS#12 file");
      expect(field("import-identity-passphrase").value).toBe("");
      await fireEvent.input(field("import-identity-passphrase"), { target: { value: "org-pass-123" } });
      await fireEvent.click(screen.getByTestId("import-identity-confirm"));
      // Its name is taken by the identity it was copied from, so the import gets the next id.
      const imported = await screen.findByTestId(`identity-row-${org.id}-2`, {}, WAIT);
      expect(imported.textContent).toContain("Example Signing");
      expect(imported.textContent).toContain("imported");
      expect(host.sent("import_identity")).toEqual([
        { path: "@tmp/keys/org.p12", passphrase: "wrong-pass" },
        { path: "@tmp/keys/org.p12", passphrase: "org-pass-123" },
      ]);

      await fireEvent.click(screen.getByTestId(`identity-export-${ada.id}`));
      await screen.findByTestId("export-cert-dialog");
      await fireEvent.input(field("export-cert-passphrase"), { target: { value: ADA.passphrase } });
      await fireEvent.click(screen.getByTestId("export-cert-confirm"));
      await waitFor(() => expect(screen.queryByTestId("export-cert-dialog")).toBeNull(), WAIT);
      expect(host.sent("choose_file").at(-1)).toEqual({ purpose: "export-certificate" });
      expect(host.sent("export_certificate")).toEqual([{ identity: ada.id, passphrase: ADA.passphrase, path: "@tmp/keys/ada.pem" }]);
      expect(screen.getByTestId("identity-notice").textContent).toBe("Wrote the certificate of Ada Lovelace, Example Compute Ltd (made here) to @tmp/keys/ada.pem.");
    },
    SLOW,
  );

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
