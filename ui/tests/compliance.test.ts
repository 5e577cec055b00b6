// The Compliance tab: answering D-1 items with evidence, signing off, the cleared badge on every
// screen that shows the scenario, a sign-off voided by a later answer, and a broken log.
// jsdom over the FakeBackend, which applies the store's clearance rule (fake-backend.ts).

import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import { type FakeBackend, type FakeIdentity, type FakeOptions } from "../src/lib/ipc/fake-backend";
import { themeState } from "../src/lib/theme-state.svelte";
import type { LogProblem } from "../src/lib/workspace-types";
import { D1_SUBSET } from "./fixtures/checklist";
import { workspaceBackend } from "./support/workspace";

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

const EVIDENCE = "/home/dana/evidence/eccn-letter.pdf";
const EVIDENCE_SHA = "5f2b8a0c6d1e4f3a9b7c2d8e1f0a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c";

function complianceBackend(options: FakeOptions = {}): FakeBackend {
  return workspaceBackend({
    checklist: D1_SUBSET,
    evidenceFiles: { [EVIDENCE]: { size: 48213, sha256: EVIDENCE_SHA } },
    dialog: { "attach-evidence": EVIDENCE },
    now: () => Date.parse("2026-11-22T10:00:00Z"),
    ...options,
  });
}

async function openCompliance(backend: FakeBackend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "6", ctrlKey: true });
  expect(screen.getByTestId("tab-compliance").getAttribute("aria-selected")).toBe("true");
  await screen.findByTestId("checklist-item-ec-classify");
  return backend;
}

const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

async function answer(item: string, status: "pass" | "fail" | "not-applicable", note: string, attach = false) {
  await fireEvent.click(screen.getByTestId(`answer-open-${item}`));
  await fireEvent.click(screen.getByTestId(`answer-status-${item}-${status}`));
  await fireEvent.input(input(`answer-note-${item}`), { target: { value: note } });
  if (attach) {
    await fireEvent.click(screen.getByTestId(`answer-attach-${item}`));
    await within(screen.getByTestId(`answer-form-${item}`)).findByText(/eccn-letter\.pdf/);
  }
  await fireEvent.click(screen.getByTestId(`answer-save-${item}`));
}

describe("D-1 checklist", () => {
  it("clears a scenario once every blocking item passes with evidence and a reviewer signs off, and says so on every screen", async () => {
    const backend = await openCompliance(complianceBackend());
    const hybrid = backend.state!.scenarios.find((s) => s.id === "hybrid")!;
    expect(screen.getByTestId("checklist-name").textContent).toContain(hybrid.name);
    // Only the items that apply to a scenario: the vendor-only item is not listed.
    expect(screen.queryByTestId("checklist-item-ec-iaas-due-diligence")).toBeNull();
    expect(screen.getByTestId("checklist-item-ec-diffusion-not-relied-on")).toBeTruthy();
    // A family the template has no sourced item for is shown with its gap note.
    expect(screen.getByTestId("family-gap-disposal").textContent).toContain("give no item for disposal");
    await waitFor(() => expect(screen.getByTestId("compliance-badge-scenario-hybrid").dataset.cleared).toBe("no"));
    expect(screen.getByTestId("tab-compliance-count").textContent).toBe("0/2 cleared");

    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    // A status other than open needs a note or a file: the back end's refusal is shown, nothing recorded.
    await fireEvent.click(screen.getByTestId("answer-open-ec-classify"));
    await fireEvent.click(screen.getByTestId("answer-save-ec-classify"));
    expect((await screen.findByTestId("checklist-action-error")).textContent).toContain("say why");
    expect(backend.state!.checklistLog).toHaveLength(0);
    await fireEvent.click(within(screen.getByTestId("answer-form-ec-classify")).getByText("Cancel"));

    await answer("ec-classify", "pass", "3A090.a per the vendor's classification letter", true);
    await waitFor(() => expect(screen.getByTestId("item-status-ec-classify").textContent).toBe("Pass"));
    const classify = screen.getByTestId("checklist-item-ec-classify");
    expect(classify.textContent).toContain("eccn-letter.pdf");
    expect(classify.textContent).toContain(EVIDENCE_SHA.slice(0, 12));
    expect(classify.textContent).toContain("Dana Reviewer, 2026-11-22T10:00:00Z");
    expect(backend.callsTo("answerChecklistItem").at(-1)).toEqual([
      { kind: "scenario", id: "hybrid" },
      { item: "ec-classify", status: "pass", note: "3A090.a per the vendor's classification letter", reviewer: "Dana Reviewer" },
      [EVIDENCE],
    ]);

    // Signing off with a blocking item open is refused, naming it.
    await fireEvent.click(screen.getByTestId("signoff-submit"));
    expect((await screen.findByTestId("checklist-action-error")).textContent).toContain("ec-2023-parameters");

    await answer("ec-2023-parameters", "pass", "performance density below the 2023 threshold");
    await waitFor(() => expect(screen.getByTestId("item-status-ec-2023-parameters").textContent).toBe("Pass"));
    expect(screen.getByTestId("checklist-clearance").textContent).toContain("Not signed off.");
    await fireEvent.input(input("signoff-note"), { target: { value: "D-1 review for the board" } });
    await fireEvent.click(screen.getByTestId("signoff-submit"));

    await waitFor(() => expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("yes"));
    expect(screen.getByTestId("checklist-clearance").textContent).toContain("Cleared.");
    expect(screen.getByTestId("signoff-state").textContent).toContain("Signed off by Dana Reviewer at 2026-11-22T10:00:00Z");
    expect(screen.getByTestId("compliance-badge-scenario-hybrid").dataset.cleared).toBe("yes");
    expect(screen.getByTestId("compliance-badge-scenario-all-cloud").dataset.cleared).toBe("no");
    expect(screen.getByTestId("tab-compliance-count").textContent).toBe("1/2 cleared");

    // The scenario list, the compare screen and the memo screen show the same.
    await fireEvent.keyDown(document.body, { key: "2", ctrlKey: true });
    expect((await screen.findByTestId("clearance-hybrid")).dataset.cleared).toBe("yes");
    expect(screen.getByTestId("clearance-all-cloud").dataset.cleared).toBe("no");
    await fireEvent.keyDown(document.body, { key: "5", ctrlKey: true });
    expect((await screen.findByTestId("memo-clearance-hybrid")).dataset.cleared).toBe("yes");
    expect(screen.getByTestId("memo-clearance-all-cloud").dataset.cleared).toBe("no");
  });

  it("voids the sign-off when an answer changes after it, and keeps the earlier answer in the item's history", async () => {
    const backend = await openCompliance(complianceBackend());
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await answer("ec-classify", "pass", "classified");
    await waitFor(() => expect(screen.getByTestId("item-status-ec-classify").textContent).toBe("Pass"));
    await answer("ec-2023-parameters", "fail", "density above the threshold");
    await waitFor(() => expect(screen.getByTestId("item-status-ec-2023-parameters").textContent).toBe("Fail"));
    // A failed item may be signed (the record says it failed) but does not clear.
    await fireEvent.click(screen.getByTestId("signoff-submit"));
    await waitFor(() => expect(screen.getByTestId("signoff-state").textContent).toContain("Signed off by Dana Reviewer"));
    expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("no");
    expect(screen.getByTestId("checklist-clearance").textContent).toContain("Failed blocking items: Classification uses the October 2023 parameters");

    await answer("ec-2023-parameters", "pass", "re-classified after the vendor's revised letter");
    await waitFor(() => expect(screen.getByTestId("signoff-state").textContent).toContain("no longer covers the answers"));
    expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("no");
    const item = screen.getByTestId("checklist-item-ec-2023-parameters");
    expect(item.textContent).toContain("1 earlier answer(s)");
    expect(item.textContent).toContain("Fail by Dana Reviewer");
    expect(backend.state!.checklistLog).toHaveLength(4);
  });

  it("reviews a vendor on the items that apply to vendors", async () => {
    await openCompliance(complianceBackend());
    await fireEvent.input(input("vendor-name"), { target: { value: "Example Cloud" } });
    await fireEvent.click(screen.getByTestId("vendor-add"));
    await waitFor(() => expect(screen.getByTestId("checklist-name").textContent).toContain("Example Cloud"));
    expect(screen.getByTestId("checklist-item-ec-iaas-due-diligence")).toBeTruthy();
    expect(screen.queryByTestId("checklist-item-ec-diffusion-not-relied-on")).toBeNull();
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await answer("ec-iaas-due-diligence", "pass", "policy statement checks seen");
    // Once it has a record the vendor is listed with its status.
    expect((await screen.findByTestId("compliance-subject-vendor-Example Cloud")).textContent).toContain("Not cleared");
  });

  it("shows a broken log by its entry, clears nothing and records nothing on top of it", async () => {
    const problem: LogProblem = {
      position: 3,
      seq: 3,
      at: "2026-11-22T09:00:02Z",
      actor: "Dana Reviewer",
      action: "answer",
      subject: "scenario:hybrid",
      problem: "its content does not match its hash",
      message:
        "/home/ana/plans/enterprise.cpw: the checklist log is broken at entry 3 (seq 3: answer on scenario:hybrid by Dana Reviewer at 2026-11-22T09:00:02Z): its content does not match its hash.",
    };
    const backend = await openCompliance(complianceBackend({ logProblem: problem }));
    expect(screen.getByTestId("log-problem").textContent).toContain("broken at entry 3 (seq 3");
    expect(screen.getByTestId("checklist-clearance").textContent).toContain("The checklist log is broken");
    await fireEvent.click(screen.getByTestId("verify-log"));
    expect((await screen.findByTestId("verify-result")).textContent).toContain("broken at entry 3 (seq 3");
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await answer("ec-classify", "pass", "classified");
    expect((await screen.findByTestId("checklist-action-error")).textContent).toContain("Nothing was recorded");
    expect(backend.state!.checklistLog).toHaveLength(0);
  });

  it("verifies an intact log and counts its entries and evidence files", async () => {
    await openCompliance(complianceBackend());
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await answer("ec-classify", "pass", "classified", true);
    await waitFor(() => expect(screen.getByTestId("item-status-ec-classify").textContent).toBe("Pass"));
    await fireEvent.click(screen.getByTestId("verify-log"));
    expect((await screen.findByTestId("verify-result")).textContent).toMatch(/^Intact: 1 entry, 1 evidence file\(s\), 0 signed sign-off\(s\) verified\./);
  });

  it("signs a sign-off with the reviewer's key when an identity is chosen, and never keeps the passphrase", async () => {
    const dana: FakeIdentity = {
      summary: {
        id: "dana-reviewer",
        common_name: "Dana Reviewer",
        organisation: "Example Compute Ltd",
        email: null,
        issuer: "O=Example Compute Ltd,CN=Dana Reviewer",
        not_before: "2026-11-22T09:00:00Z",
        not_after: "2029-11-21T09:00:00Z",
        sha256: "9c1d0e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7",
        self_signed: true,
        origin: "made here",
      },
      passphrase: "reviewer-pass-2026",
    };
    const backend = await openCompliance(complianceBackend({ identities: [dana] }));
    await fireEvent.input(input("reviewer-name"), { target: { value: "Dana Reviewer" } });
    await answer("ec-classify", "pass", "classified");
    await waitFor(() => expect(screen.getByTestId("item-status-ec-classify").textContent).toBe("Pass"));
    await answer("ec-2023-parameters", "pass", "checked");
    await waitFor(() => expect(screen.getByTestId("item-status-ec-2023-parameters").textContent).toBe("Pass"));
    const select = (await screen.findByTestId("signoff-identity")) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    await fireEvent.change(select, { target: { value: "dana-reviewer" } });
    // A key without its passphrase cannot sign.
    expect((screen.getByTestId("signoff-submit") as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.input(input("signoff-passphrase"), { target: { value: "wrong-pass" } });
    await fireEvent.click(screen.getByTestId("signoff-submit"));
    expect((await screen.findByTestId("checklist-action-error")).textContent).toMatch(/passphrase/i);
    expect(input("signoff-passphrase").value).toBe("");
    await fireEvent.input(input("signoff-passphrase"), { target: { value: "reviewer-pass-2026" } });
    await fireEvent.click(screen.getByTestId("signoff-submit"));
    await waitFor(() => expect(screen.getByTestId("checklist-badge").dataset.cleared).toBe("yes"));
    expect(screen.getByTestId("signoff-signature").textContent).toContain("Signed with the key of Dana Reviewer, Example Compute Ltd");
    expect(backend.callsTo("signOffChecklist").at(-1)).toEqual([
      { kind: "scenario", id: "hybrid" },
      "Dana Reviewer",
      "",
      { identity: "dana-reviewer", passphrase: "reviewer-pass-2026", reason: "D-1 sign-off" },
    ]);
  });
});
