// The tab managers on their own, without a window: they hold the screens' state and make every
// back-end call, so their behaviour can be checked here directly (the component tests check the
// same through the screens).

import { describe, expect, it, vi } from "vitest";
import { CompareManager } from "../src/lib/compare/compare-manager.svelte";
import { MemoManager } from "../src/lib/memo/memo-manager.svelte";
import { VerifyPdfManager } from "../src/lib/memo/verify-pdf-manager.svelte";
import type { ScenarioEditorManager } from "../src/lib/scenarios/scenario-editor-manager.svelte";
import { ScenariosManager } from "../src/lib/scenarios/scenarios-manager.svelte";
import { NewWorkspaceManager } from "../src/lib/session/new-workspace-manager.svelte";
import { WorkloadsManager } from "../src/lib/workloads/workloads-manager.svelte";
import { WorkspaceStore } from "../src/lib/workspace.svelte";
import type { Backend } from "../src/lib/backend";
import type { EditRequest, ScenarioSpec, ViewState } from "../src/lib/workspace-types";
import type { RecordedSession } from "./support/recorded";
import { enterpriseSession } from "./support/sessions";

async function openStore(backend: Backend): Promise<WorkspaceStore> {
  const info = (await backend.session()).workspace;
  if (!info) throw new Error("the session opened no workspace");
  return new WorkspaceStore(backend, info);
}

/** Waits until the editor's edits, detail and exit costs are all answered. */
async function settled(e: ScenarioEditorManager): Promise<void> {
  for (let i = 0; i < 1000; i += 1) {
    await new Promise((r) => setTimeout(r, 2));
    if (!e.busy) return;
  }
  throw new Error("the scenario editor did not settle");
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
    m.newKind = "inference";
    m.newName = "Nightly scoring";
    await vi.waitFor(() => expect(m.newId).toBe("nightly-scoring"));
    expect(host.sent("draft_workload")).toEqual([{ name: "Nightly scoring", kind: "inference" }]);
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

  it("Scenario editor: the form waits for the workspace's catalog (before it, every catalog item would read 'not in the catalog'), or shows it failed", async () => {
    const { backend } = await enterpriseSession();
    const store = await openStore(backend);
    const m = new ScenariosManager(store);
    const e = m.openEditor(m.selectedId!);
    await e.load();
    await settled(e);
    expect(e.spec?.id).toBe(m.selectedId);
    expect(store.catalog).toBeNull();
    expect(e.ready).toBe(false);
    await store.loadCatalog();
    expect(store.catalog?.accelerators.length).toBeGreaterThan(0);
    expect(e.ready).toBe(true);

    // A catalog that cannot be loaded: the form shows, saying so, rather than waiting forever.
    const failing = Object.create(backend) as Backend;
    failing.workspaceCatalog = () => Promise.reject(new Error("the catalog snapshot is unreadable"));
    const broken = new WorkspaceStore(failing, store.info);
    const e2 = new ScenariosManager(broken).openEditor(m.selectedId!);
    await e2.load();
    await settled(e2);
    expect(e2.ready).toBe(false);
    await broken.loadCatalog();
    expect(broken.catalog).toBeNull();
    expect(e2.catalogError).toBeInstanceOf(Error);
    expect(e2.ready).toBe(true);
  });

  it("Scenarios: a template, a copy, a new layer, a layer's kind and a facility are the engine's drafts", async () => {
    const { backend, host } = await enterpriseSession();
    const store = await openStore(backend);
    await store.loadCatalog();
    expect(store.layerForms?.map((f) => [f.kind, f.cloud])).toEqual([
      ["owned", false],
      ["reserved", true],
      ["spot", true],
      ["on-demand", true],
      ["pooled", false],
      ["token-metered", false],
    ]);
    const m = new ScenariosManager(store);

    // Buy on the sample's catalog: a priced training accelerator in its catalog system, in a
    // room whose cooling carries a DGX H100's 10.2 kW (contained air at its typical 20 kW a rack).
    expect(await m.create("buy")).toBe("buy-8-nvidia-h100-sxm5");
    expect(m.notes).toEqual([]);
    const made = edits(host).at(-1)!;
    expect(made).toMatchObject({ label: "New scenario Buy 8 × NVIDIA H100 SXM5", coalesce: null });
    const buy = (made.edit as { scenario: ScenarioSpec }).scenario;
    // Delivered after the catalog's GPU lead time, bridged on demand until then (issue #20).
    expect(buy.layers).toEqual([
      expect.objectContaining({ id: "owned", kind: "owned", accelerator: "nvidia-h100-sxm", system: "dgx-h100", gpus: 8, lead_time_source: "datacenter-gpus" }),
      expect.objectContaining({ id: "bridge", kind: "on-demand", exit: { month: 6, fee: "0" } }),
    ]);
    expect(buy.facility).toMatchObject({ region: "us", cooling: "contained-air", kw_per_rack_limit: "20" });
    expect(host.sent("draft_scenario")).toEqual([{ from: { kind: "template", template: "buy" } }]);

    expect(await m.duplicate()).toBe("buy-8-nvidia-h100-sxm5-copy");
    expect(edits(host).at(-1)).toMatchObject({ label: "Duplicate Buy 8 × NVIDIA H100 SXM5" });
    expect(m.selectedId).toBe("buy-8-nvidia-h100-sxm5-copy");

    const e = m.openEditor("buy-8-nvidia-h100-sxm5-copy");
    await e.load();
    await settled(e);
    e.newLayerKind = "spot";
    await e.addLayer();
    await settled(e);
    expect(e.spec?.layers.map((l) => [l.id, l.kind, l.offer])).toEqual([
      ["owned", "owned", null],
      ["bridge", "on-demand", "aws-p5-h100"],
      ["spot", "spot", "aws-p5-h100"],
    ]);
    await e.changeLayerKind(0, "reserved");
    await settled(e);
    expect(e.spec?.layers[0]).toMatchObject({ kind: "reserved", system: null, gpus: 8, term: "1y", accelerator: "nvidia-h100-sxm" });
    await store.flush();
    const saved = edits(host).at(-1)!;
    expect(saved).toMatchObject({ label: "Edit Buy 8 × NVIDIA H100 SXM5 (copy): kind", coalesce: "buy-8-nvidia-h100-sxm5-copy.layers[0].kind" });
    expect(host.sent("reshape_scenario").map((a) => a.change)).toEqual([
      { kind: "add-layer", layer_kind: "spot" },
      { kind: "layer-kind", index: 0, layer_kind: "reserved" },
    ]);
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
