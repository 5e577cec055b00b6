// The Compliance tab: answering D-1 items with evidence, signing off, the cleared badge on every
// screen that shows the scenario, a sign-off voided by a later answer, and a broken log.
// jsdom over recorded answers of the real use cases (tests/support/recorded.ts): the shipped D-1
// template, the store's clearance rule, its status sentence, its sign-off and its log answer.

import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configure, fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import { themeState } from "../src/lib/theme-state.svelte";
import type { AnswerInput, ChecklistSubject, ItemStatus } from "../src/lib/workspace-types";
import type { Dialog, RecordedSession } from "./support/recorded";
import { enterpriseSession } from "./support/sessions";

// Recording waits for the real back end (an engine run per answer): give the screens time. Replay
// answers at once, so this only matters when recording.
configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 120_000 });

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

/** The evidence file the reviewer attaches, put where the file dialog finds it. */
const EVIDENCE = "@tmp/evidence/eccn-letter.pdf";
const EVIDENCE_TEXT = "%PDF-1.4\nECCN classification letter: 3A090.a, TPP 4800, performance density 5.9\n%%EOF\n";
const EVIDENCE_SHA = createHash("sha256").update(EVIDENCE_TEXT).digest("hex");
/** The recorder's clock starts here (recorded.rs CLOCK_START_MS) and moves only when a test moves it. */
const T0 = "2026-11-23T09:00:00Z";
const HYBRID: ChecklistSubject = { kind: "scenario", id: "hybrid" };

async function openCompliance(options: { dialog?: Dialog } = {}) {
  const session = await enterpriseSession({ dialog: { "attach-evidence": EVIDENCE, ...options.dialog } });
  await session.host.write(EVIDENCE, EVIDENCE_TEXT);
  await renderCompliance(session);
  return session;
}

async function renderCompliance({ backend }: { backend: Awaited<ReturnType<typeof enterpriseSession>>["backend"] }) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "6", ctrlKey: true });
  expect(screen.getByTestId("tab-compliance").getAttribute("aria-selected")).toBe("true");
  await screen.findByTestId("checklist-item-ec-classify");
}

const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;
const answers = (host: RecordedSession) => host.sent("answer_checklist_item");

async function answer(item: string, status: ItemStatus, note: string, attach = false) {
  await fireEvent.click(screen.getByTestId(`answer-open-${item}`));
  await fireEvent.click(screen.getByTestId(`answer-status-${item}-${status}`));
  await fireEvent.input(input(`answer-note-${item}`), { target: { value: note } });
  if (attach) {
    await fireEvent.click(screen.getByTestId(`answer-attach-${item}`));
    await within(screen.getByTestId(`answer-form-${item}`)).findByText(/eccn-letter\.pdf/);
  }
  // The button is disabled while the last answer's statuses are read: the reviewer waits for it.
  const save = screen.getByTestId(`answer-save-${item}`) as HTMLButtonElement;
  await waitFor(() => expect(save.disabled).toBe(false));
  await fireEvent.click(save);
}

const LABEL: Record<ItemStatus, string> = { open: "Open", pass: "Pass", fail: "Fail", "not-applicable": "N/A" };

/** Clicks a button once it is enabled (the screen disables its actions while one is under way). */
async function press(testid: string) {
  const button = screen.getByTestId(testid) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  await fireEvent.click(button);
}

/** Answers an item and waits until the back end's answer shows it. */
async function answered(item: string, status: ItemStatus, note: string, attach = false) {
  await answer(item, status, note, attach);
  await waitFor(() => expect(screen.getByTestId(`item-status-${item}`).textContent).toBe(LABEL[status]));
  await waitFor(() => expect(screen.queryByTestId(`answer-form-${item}`)).toBeNull());
}

/** The items of the shown checklist the template marks blocking that are still open, in order. */
function openBlocking(): string[] {
  return screen
    .getAllByTestId(/^checklist-item-/)
    .filter((li) => li.querySelector(".blocking") !== null && within(li).getByTestId(/^item-status-/).textContent === "Open")
    .map((li) => li.dataset.testid!.replace(/^checklist-item-/, ""));
}

/** Passes every blocking item still open (the reviewer works through the list). */
async function passBlocking(note: string) {
  for (const item of openBlocking()) await answered(item, "pass", note);
  expect(openBlocking()).toEqual([]);
}

describe("D-1 checklist", () => {
  it("clears a scenario once every blocking item passes with evidence and a reviewer signs off, and says so on every screen", async () => {
    const { host } = await openCompliance();
    expect(screen.getByTestId("checklist-name").textContent).toBe("Two DGX H100 for the base, AWS spot and on-demand for bursts scenario");
    // Only the items that apply to a scenario: the vendor-only item is not listed.
    expect(screen.queryByTestId("checklist-item-ec-iaas-due-diligence")).toBeNull();
    expect(screen.getByTestId("checklist-item-ec-diffusion-not-relied-on")).toBeTruthy();
    // Every family has sourced items (issue #19): the disposal family's blocking item is listed.
    expect(screen.getByTestId("checklist-item-disp-sanitisation-method")).toBeTruthy();
    expect(screen.queryByTestId("family-gap-disposal")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("compliance-badge-scenario-hybrid").dataset.cleared).toBe("no"));
    await waitFor(() =>
      expect(screen.getByTestId("compliance-badge-scenario-hybrid").title).toBe(
        "D-1 checklist not cleared: 12 blocking item(s) open, no sign-off covering the answers; 0 of 29 items answered",
      ),
    );
    expect(screen.getByTestId("tab-compliance-count").textContent).toBe("0/2 cleared");

    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    // A status other than open needs a note or a file: the back end's refusal is shown, nothing recorded.
    await fireEvent.click(screen.getByTestId("answer-open-ec-classify"));
    await fireEvent.click(screen.getByTestId("answer-save-ec-classify"));
    expect((await screen.findByTestId("checklist-action-error")).textContent).toContain("say why");
    expect(screen.getByTestId("item-status-ec-classify").textContent).toBe("Open");
    await fireEvent.click(within(screen.getByTestId("answer-form-ec-classify")).getByText("Cancel"));

    await answered("ec-classify", "pass", "3A090.a per the vendor's classification letter", true);
    const classify = screen.getByTestId("checklist-item-ec-classify");
    expect(classify.textContent).toContain("eccn-letter.pdf");
    // The digest the store computed of the file's bytes.
    expect(classify.textContent).toContain(EVIDENCE_SHA.slice(0, 12));
    expect(classify.textContent).toContain(`Dana Reviewer, ${T0}`);
    expect(answers(host).at(-1)).toEqual({
      subject: HYBRID,
      answer: { item: "ec-classify", status: "pass", note: "3A090.a per the vendor's classification letter", reviewer: "Dana Reviewer" } satisfies AnswerInput,
      evidence: [EVIDENCE],
    });
    // The refused answer was sent too, and recorded nothing.
    expect(answers(host)).toHaveLength(2);

    // Signing off with a blocking item open is refused, naming them.
    await press("signoff-submit");
    const refusal = (await screen.findByTestId("checklist-action-error")).textContent;
    expect(refusal).toContain("blocking items are still open: ec-2023-parameters, ec-prc-chips");

    await passBlocking("checked against the deal");
    expect(answers(host)).toHaveLength(13);
    expect(screen.getByTestId("checklist-clearance").textContent).toContain("Not signed off.");
    await waitFor(() =>
      expect(screen.getByTestId("compliance-badge-scenario-hybrid").title).toBe(
        "D-1 checklist not cleared: no sign-off covering the answers; 12 of 29 items answered",
      ),
    );
    // The reviewer signs off an hour later.
    await host.advance(3_600_000);
    await fireEvent.input(input("signoff-note"), { target: { value: "D-1 review for the board" } });
    await press("signoff-submit");

    await waitFor(() => expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("yes"));
    expect(screen.getByTestId("checklist-clearance").textContent).toContain("Cleared.");
    expect(screen.getByTestId("signoff-state").textContent).toContain("Signed off by Dana Reviewer at 2026-11-23T10:00:00Z");
    expect(screen.getByTestId("signoff-state").textContent).toContain("“D-1 review for the board”");
    expect(screen.getByTestId("compliance-badge-scenario-hybrid").dataset.cleared).toBe("yes");
    await waitFor(() =>
      expect(screen.getByTestId("compliance-badge-scenario-hybrid").title).toBe(
        "D-1 checklist cleared: signed off by Dana Reviewer at 2026-11-23T10:00:00Z; 12 of 29 items answered",
      ),
    );
    expect(screen.getByTestId("compliance-badge-scenario-all-cloud").dataset.cleared).toBe("no");
    expect(screen.getByTestId("tab-compliance-count").textContent).toBe("1/2 cleared");
    expect(host.sent("sign_off_checklist").at(-1)).toEqual({ subject: HYBRID, reviewer: "Dana Reviewer", note: "D-1 review for the board", sign: null });

    // The scenario list, the compare screen and the memo screen show the same.
    await fireEvent.keyDown(document.body, { key: "2", ctrlKey: true });
    expect((await screen.findByTestId("clearance-hybrid")).dataset.cleared).toBe("yes");
    expect(screen.getByTestId("clearance-all-cloud").dataset.cleared).toBe("no");
    await fireEvent.keyDown(document.body, { key: "5", ctrlKey: true });
    expect((await screen.findByTestId("memo-clearance-hybrid")).dataset.cleared).toBe("yes");
    expect(screen.getByTestId("memo-clearance-all-cloud").dataset.cleared).toBe("no");
  });

  it("voids the sign-off when an answer changes after it, and keeps the earlier answer in the item's history", async () => {
    const { host } = await openCompliance();
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await answered("ec-2023-parameters", "fail", "density above the threshold");
    await passBlocking("classified");
    // A failed item may be signed (the record says it failed) but does not clear.
    await press("signoff-submit");
    await waitFor(() => expect(screen.getByTestId("signoff-state").textContent).toContain("Signed off by Dana Reviewer"));
    expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("no");
    expect(screen.getByTestId("checklist-clearance").textContent).toContain("Failed blocking items: Classification uses the October 2023 parameters.");
    await waitFor(() =>
      expect(screen.getByTestId("checklist-badge").title).toBe(
        "D-1 checklist not cleared: 1 blocking item(s) failed; 12 of 29 items answered",
      ),
    );

    await host.advance(86_400_000);
    await answer("ec-2023-parameters", "pass", "re-classified after the vendor's revised letter");
    await waitFor(() => expect(screen.getByTestId("signoff-state").textContent).toContain("The sign-off by Dana Reviewer no longer covers the answers."));
    expect(screen.getByTestId("checklist-clearance").textContent).toContain("The sign-off no longer covers the answers (an answer changed after it): sign off again.");
    expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("no");
    await waitFor(() =>
      expect(screen.getByTestId("checklist-badge").title).toBe(
        "D-1 checklist not cleared: no sign-off covering the answers; 12 of 29 items answered",
      ),
    );
    const item = screen.getByTestId("checklist-item-ec-2023-parameters");
    expect(item.textContent).toContain("Dana Reviewer, 2026-11-24T09:00:00Z");
    expect(item.textContent).toContain("1 earlier answer(s)");
    expect(item.textContent).toContain(`Fail by Dana Reviewer, ${T0}: “density above the threshold”`);
    // Every answer and the sign-off are in the log: 13 answers, 1 sign-off.
    await fireEvent.click(screen.getByTestId("verify-log"));
    expect((await screen.findByTestId("verify-result")).textContent).toMatch(/^Intact: 14 entries, 0 evidence file\(s\), 0 signed sign-off\(s\) verified\./);
  });

  it("reviews a vendor on the items that apply to vendors", async () => {
    await openCompliance();
    await fireEvent.input(input("vendor-name"), { target: { value: "Example Cloud" } });
    await fireEvent.click(screen.getByTestId("vendor-add"));
    await waitFor(() => expect(screen.getByTestId("checklist-name").textContent).toContain("Example Cloud"));
    expect(screen.getByTestId("checklist-item-ec-iaas-due-diligence")).toBeTruthy();
    expect(screen.queryByTestId("checklist-item-ec-diffusion-not-relied-on")).toBeNull();
    // No record yet: the vendor is not listed.
    expect(screen.queryByTestId("compliance-subject-vendor-Example Cloud")).toBeNull();
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await answer("ec-iaas-due-diligence", "pass", "policy statement checks seen");
    // Once it has a record the vendor is listed with its status.
    const listed = await screen.findByTestId("compliance-subject-vendor-Example Cloud");
    expect(listed.textContent).toContain("Not cleared");
    expect(within(listed).getByTitle(/^D-1 checklist not cleared: /).title).toBe(
      "D-1 checklist not cleared: 10 blocking item(s) open, no sign-off covering the answers; 1 of 20 items answered",
    );
  });

  it("records nothing in a workspace opened read-only, and shows the refusal", async () => {
    // The fake's broken-log case is not produced for real: breaking the hash chain means editing a
    // row of the workspace's SQLite file, and the host's controls only write UTF-8 text, append
    // to a file or copy whole files (each copy is a consistent database), and the repository
    // ships no tampered workspace. What is real here: a workspace opened read-only (`--read-only`)
    // refuses to record an answer, shows the refusal, keeps the item open and the log intact.
    const session = await enterpriseSession({ readOnly: true });
    await renderCompliance(session);
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await answer("ec-classify", "pass", "classified");
    const refusal = (await screen.findByTestId("checklist-action-error")).textContent;
    expect(refusal).toContain("read-only");
    expect(refusal).toContain("record a checklist change in it");
    expect(screen.getByTestId("item-status-ec-classify").textContent).toBe("Open");
    expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("no");
    expect(answers(session.host)).toHaveLength(1);
    await fireEvent.click(screen.getByTestId("verify-log"));
    expect((await screen.findByTestId("verify-result")).textContent).toMatch(/^Intact: 0 entries, 0 evidence file\(s\), 0 signed sign-off\(s\) verified\./);
  });

  it("verifies an intact log and counts its entries and evidence files", async () => {
    await openCompliance();
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await answered("ec-classify", "pass", "classified", true);
    await fireEvent.click(screen.getByTestId("verify-log"));
    expect((await screen.findByTestId("verify-result")).textContent).toMatch(/^Intact: 1 entry, 1 evidence file\(s\), 0 signed sign-off\(s\) verified\./);
  });

  it("signs a sign-off with the reviewer's key when an identity is chosen, and never keeps the passphrase", async () => {
    const session = await enterpriseSession();
    // The reviewer made a signing identity on the Memo tab earlier.
    const dana = await session.backend.createIdentity("Dana Reviewer", "Example Compute Ltd", null, "reviewer-pass-2026");
    expect(dana.id).toBe("dana-reviewer");
    await renderCompliance(session);
    const { host } = session;
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await passBlocking("checked");
    const select = (await screen.findByTestId("signoff-identity")) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    await fireEvent.change(select, { target: { value: dana.id } });
    // A key without its passphrase cannot sign.
    expect((screen.getByTestId("signoff-submit") as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.input(input("signoff-passphrase"), { target: { value: "wrong-pass" } });
    await press("signoff-submit");
    expect((await screen.findByTestId("checklist-action-error")).textContent).toMatch(/passphrase/i);
    expect(input("signoff-passphrase").value).toBe("");
    expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("no");
    await fireEvent.input(input("signoff-passphrase"), { target: { value: "reviewer-pass-2026" } });
    await press("signoff-submit");
    await waitFor(() => expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("yes"));
    expect(screen.queryByTestId("signoff-passphrase")).toBeNull();
    const signature = screen.getByTestId("signoff-signature").textContent;
    expect(signature).toContain("Signed with the key of Dana Reviewer, Example Compute Ltd");
    expect(signature).toContain(`certificate SHA-256 ${dana.sha256.slice(0, 16)}…`);
    expect(host.sent("sign_off_checklist")).toEqual([
      { subject: HYBRID, reviewer: "Dana Reviewer", note: "", sign: { identity: dana.id, passphrase: "wrong-pass", reason: "D-1 sign-off" } },
      { subject: HYBRID, reviewer: "Dana Reviewer", note: "", sign: { identity: dana.id, passphrase: "reviewer-pass-2026", reason: "D-1 sign-off" } },
    ]);
    await fireEvent.click(screen.getByTestId("verify-log"));
    expect((await screen.findByTestId("verify-result")).textContent).toMatch(/^Intact: 13 entries, 0 evidence file\(s\), 1 signed sign-off\(s\) verified\./);
  });
});
