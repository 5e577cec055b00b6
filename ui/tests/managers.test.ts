// The tab managers on their own, without a window: they hold the screens' state and make every
// back-end call, so their behaviour can be checked here directly (the component tests check the
// same through the screens).

import { describe, expect, it } from "vitest";
import { CompareManager } from "../src/lib/compare/compare-manager.svelte";
import { MemoManager } from "../src/lib/memo/memo-manager.svelte";
import { VerifyPdfManager } from "../src/lib/memo/verify-pdf-manager.svelte";
import { NewWorkspaceManager } from "../src/lib/session/new-workspace-manager.svelte";
import { WorkloadsManager } from "../src/lib/workloads/workloads-manager.svelte";
import { WorkspaceStore } from "../src/lib/workspace.svelte";
import type { Backend } from "../src/lib/backend";
import type { EditRequest, ViewState } from "../src/lib/workspace-types";
import type { RecordedSession } from "./support/recorded";
import { enterpriseSession } from "./support/sessions";

async function openStore(backend: Backend): Promise<WorkspaceStore> {
  const info = (await backend.session()).workspace;
  if (!info) throw new Error("the session opened no workspace");
  return new WorkspaceStore(backend, info);
}

const edits = (host: RecordedSession) => host.sent("apply_edit").map((a) => a.request as EditRequest);

describe("tab managers", () => {
  it("Workloads: a new workload is added, chosen and found by its new id; a delete chooses the next", async () => {
    const { backend, host } = await enterpriseSession();
    const store = await openStore(backend);
    const m = new WorkloadsManager(store);
    const before = m.workloads.map((w) => w.id);
    expect(m.selectedId).toBe(before[0]);

    m.startAdding();
    expect(m.newId).toBe("…");
    m.newName = "Nightly scoring";
    m.newKind = "inference";
    expect(m.newId).toBe("nightly-scoring");
    expect(await m.create()).toBe("nightly-scoring");
    expect(m.adding).toBe(false);
    expect(m.selectedId).toBe("nightly-scoring");
    expect(m.workloads.map((w) => w.id)).toEqual([...before, "nightly-scoring"]);
    expect(edits(host).at(-1)).toMatchObject({ edit: { kind: "put-workload" }, label: "New workload Nightly scoring", coalesce: null });

    m.choose(before[0]!);
    await m.remove();
    expect(edits(host).at(-1)).toMatchObject({ edit: { kind: "delete-workload", id: before[0] } });
    expect(m.selectedId).toBe(before[1]);
    expect(store.notice?.text).toMatch(/^Deleted workload “.+”\. Undo \(Ctrl\+Z\) brings it back\.$/);
  });

  it("Compare: pinning and moving save the view (not an undo step), in the order chosen", async () => {
    const { backend, host } = await enterpriseSession();
    const store = await openStore(backend);
    const m = new CompareManager(store);
    expect(m.view.selected).toEqual(["hybrid", "all-cloud"]);
    m.pin("all-cloud");
    m.move("all-cloud", -1);
    await store.flush();
    const views = host.sent("set_view").map((a) => a.view as ViewState);
    expect(views.at(-1)).toMatchObject({ selected: ["all-cloud", "hybrid"], baseline: "all-cloud" });
    expect(m.view.selected).toEqual(["all-cloud", "hybrid"]);
    expect(edits(host)).toEqual([]);
  });

  it("Memo: signing without an identity or passphrase asks for them before any dialog", async () => {
    const { backend, host } = await enterpriseSession();
    const store = await openStore(backend);
    const m = new MemoManager(store);
    m.draft = await backend.memoDraft();
    await m.exportMemo(true);
    expect(m.author.problems.identity?.[0]).toMatch(/choose the identity/);
    expect(m.author.problems.passphrase).toEqual(["the identity's passphrase"]);
    expect(host.sent("choose_file")).toEqual([]);
    expect(m.busy).toBeNull();
  });

  it("a cancelled file dialog does nothing: new workspace, verify a PDF", async () => {
    const { backend, host } = await enterpriseSession();
    let created = 0;
    const form = new NewWorkspaceManager(backend, () => (created += 1));
    expect(form.canCreate).toBe(false);
    form.title = "  Lab 2027 ";
    expect(form.canCreate).toBe(true);
    await form.create();
    expect(host.sent("choose_file")).toEqual([{ purpose: "new-workspace" }]);
    expect(host.sent("create_workspace")).toEqual([]);
    expect(created).toBe(0);
    expect(form.error).toBeNull();

    const verify = new VerifyPdfManager(backend);
    await verify.verify();
    expect(host.sent("verify_pdf")).toEqual([]);
    expect(verify.check).toBeNull();
    expect(verify.busy).toBe(false);
  });
});
