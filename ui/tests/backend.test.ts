// TauriBackend over a mocked Tauri `invoke`: answers become data, PlannerErrors become
// BackendError, anything else becomes IpcError.

import { describe, expect, it, vi } from "vitest";

const invoke = vi.fn();
vi.mock("@tauri-apps/api/core", () => ({ invoke: (...args: unknown[]) => invoke(...args) }));

const { TauriBackend } = await import("../src/lib/ipc/tauri-backend");
const { BackendError, IpcError, isPlannerError } = await import("../src/lib/backend");
const { FakeBackend } = await import("../src/lib/ipc/fake-backend");
const { FIXTURE_CATALOG, FIXTURE_CATALOG_INVALID } = await import("./fixtures/catalog");
const { EH_SCENARIOS, EH_SETTINGS, EH_WORKLOADS, WORKSPACE_CATALOG } = await import("./fixtures/enterprise-hybrid");

/** The shell rejecting the call with `value` (as Tauri does with a command's Err). */
const rejectWith = (value: unknown) =>
  invoke.mockImplementation(async () => {
    throw value;
  });

describe("TauriBackend", () => {
  it("calls get_catalog and returns the catalog", async () => {
    invoke.mockResolvedValue(FIXTURE_CATALOG);
    await expect(new TauriBackend().getCatalog()).resolves.toBe(FIXTURE_CATALOG);
    expect(invoke).toHaveBeenCalledWith("get_catalog");
  });

  it("throws a BackendError carrying the PlannerError", async () => {
    rejectWith(FIXTURE_CATALOG_INVALID);
    const err = await new TauriBackend().getCatalog().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as InstanceType<typeof BackendError>).error).toEqual(FIXTURE_CATALOG_INVALID);
    expect((err as InstanceType<typeof BackendError>).code).toBe("catalog-invalid");
  });

  it("throws an IpcError for a rejection that is not a PlannerError", async () => {
    rejectWith("command get_catalog not found");
    const err = await new TauriBackend().getCatalog().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IpcError);
    expect((err as Error).message).toContain("command get_catalog not found");

    rejectWith(new TypeError("window.__TAURI_INTERNALS__ is undefined"));
    const err2 = await new TauriBackend().getCatalog().catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(IpcError);
    expect((err2 as Error).message).toContain("__TAURI_INTERNALS__");
  });
});

describe("TauriBackend workspace commands", () => {
  const info = {
    path: "/w/plan.cpw",
    settings: EH_SETTINGS,
    workloads: EH_WORKLOADS,
    scenarios: [{ id: "hybrid", name: "Hybrid", layers: ["owned", "spot", "on-demand"], supplies: ["dgx-h100"], overrides: 0 }],
    view: { selected: ["hybrid"], baseline: null, horizon_months: null },
    history: { can_undo: false, can_redo: false, undo_label: null, redo_label: null, revision: 0 },
    catalog: { version: "2026.11.0", taken: "2026-11-21 10:00", shipped_version: "2026.11.0", newer_available: false },
    read_only: null,
  };

  it("passes the arguments by the names Rust gives them", async () => {
    invoke.mockReset();
    invoke.mockResolvedValue(null);
    const b = new TauriBackend();
    await b.exportComparison("/x.xlsx", "xlsx");
    expect(invoke).toHaveBeenLastCalledWith("export_comparison", { path: "/x.xlsx", format: "xlsx" });
    await b.exportLedger("/l.csv", "hybrid");
    expect(invoke).toHaveBeenLastCalledWith("export_ledger", { path: "/l.csv", scenario: "hybrid" });
    await b.exportScenarios("/s.json", null);
    expect(invoke).toHaveBeenLastCalledWith("export_scenarios", { path: "/s.json", ids: null });
    await b.chooseFile("new-workspace");
    expect(invoke).toHaveBeenLastCalledWith("choose_file", { purpose: "new-workspace" });
    invoke.mockResolvedValue(null);
    await expect(b.undo()).resolves.toBeNull();
    expect(invoke).toHaveBeenLastCalledWith("undo");
    invoke.mockResolvedValue(null);
    await b.sizeWorkload(EH_WORKLOADS[0]!, "nvidia-h100-sxm", 8);
    expect(invoke).toHaveBeenLastCalledWith("size_workload", expect.objectContaining({ accelerator: "nvidia-h100-sxm", gpusPerServer: 8 }));
  });

  it("passes the answers through as Rust sends them: every key present, null when absent (issue #15)", async () => {
    const answer = { workspace: info, launch_error: null, recent: [] };
    invoke.mockResolvedValue(answer);
    const session = await new TauriBackend().session();
    expect(session).toBe(answer);
    expect(session.workspace?.settings.description).toBeNull();
    expect(session.workspace?.workloads[1]?.model?.layers).toBeNull();

    invoke.mockResolvedValue(EH_SCENARIOS[1]);
    const spec = await new TauriBackend().getScenario("all-cloud");
    expect(invoke).toHaveBeenLastCalledWith("get_scenario", { id: "all-cloud" });
    expect(spec).toBe(EH_SCENARIOS[1]);
    expect(spec.facility).toBeNull();
    expect(spec.layers[1]!.price_per_gpu_hour).toBeNull();
  });

  it("sends an edit request as it is and turns a refusal into a BackendError", async () => {
    const request = { edit: { kind: "delete-scenario" as const, id: "hybrid" }, label: "Delete scenario Hybrid", coalesce: null };
    invoke.mockImplementation(async () => {
      throw { code: "not-found", message: "there is no scenario `hybrid`", details: [] };
    });
    const err = await new TauriBackend().applyEdit(request).catch((e: unknown) => e);
    expect(invoke).toHaveBeenLastCalledWith("apply_edit", { request });
    expect(err).toBeInstanceOf(BackendError);
    expect((err as Error).message).toBe("there is no scenario `hybrid`");
    invoke.mockImplementation(async () => {
      throw { code: "no-workspace", message: "No workspace is open", details: [] };
    });
    expect(await new TauriBackend().compare("dark").catch((e: unknown) => e)).toBeInstanceOf(BackendError);
  });
});

describe("FakeBackend workspace", () => {
  const fake = () =>
    new FakeBackend(
      { catalog: WORKSPACE_CATALOG },
      { workspace: { path: "/w/eh.cpw", settings: EH_SETTINGS, workloads: EH_WORKLOADS, scenarios: EH_SCENARIOS, catalog: WORKSPACE_CATALOG }, now: () => clock },
    );
  let clock = 0;

  it("merges edits with one coalesce key within two seconds into one undo step, and undoes it", async () => {
    clock = 1000;
    const b = fake();
    const base = await b.getScenario("hybrid");
    const put = (name: string) => b.applyEdit({ edit: { kind: "put-scenario", scenario: { ...base, name } }, label: `Edit ${name}: name`, coalesce: "hybrid.name" });
    await put("H");
    clock = 1500;
    await put("Hy");
    clock = 2400;
    const last = await put("Hyb");
    expect(last.history).toMatchObject({ can_undo: true, undo_label: "Edit Hyb: name", revision: 3 });
    expect(last.changed).toEqual([{ kind: "scenario", id: "hybrid", summary: expect.objectContaining({ name: "Hyb" }) }]);
    const undone = await b.undo();
    expect(undone?.changed[0]).toMatchObject({ kind: "scenario", id: "hybrid", summary: { name: base.name } });
    expect(undone?.history.can_undo).toBe(false);
    expect(undone?.history.redo_label).toBe("Edit Hyb: name");
    expect(await b.undo()).toBeNull();
    clock = 9000;
    expect((await b.redo())?.changed[0]).toMatchObject({ summary: { name: "Hyb" } });
  });

  it("keeps deleted items' places for undo and cleans the view", async () => {
    const b = fake();
    await b.setView({ selected: ["hybrid", "all-cloud", "nope"], baseline: "nope", horizon_months: 48 });
    expect(b.state?.view).toEqual({ selected: ["hybrid", "all-cloud"], baseline: null, horizon_months: null });
    await b.applyEdit({ edit: { kind: "delete-scenario", id: "hybrid" }, label: "Delete", coalesce: null });
    expect((await b.session()).workspace?.view.selected).toEqual(["all-cloud"]);
    await b.undo();
    expect((await b.session()).workspace?.scenarios.map((s) => s.id)).toEqual(["hybrid", "all-cloud"]);
  });
});

describe("PlannerError shape check", () => {
  it("accepts the back end's error and refuses other values", () => {
    expect(isPlannerError(FIXTURE_CATALOG_INVALID)).toBe(true);
    expect(isPlannerError({ code: "io", message: "x", details: [] })).toBe(true);
    expect(isPlannerError({ code: "workspace-busy", message: "x", details: [] })).toBe(true);
    expect(isPlannerError({ code: "weird", message: "x", details: [] })).toBe(false);
    expect(isPlannerError({ code: "io", message: "x" })).toBe(false);
    expect(isPlannerError("io")).toBe(false);
    expect(isPlannerError(null)).toBe(false);
  });
});

describe("FakeBackend", () => {
  it("returns a copy of its catalog so tests cannot change each other's data", async () => {
    const backend = new FakeBackend({ catalog: FIXTURE_CATALOG });
    const a = await backend.getCatalog();
    a.accelerators.pop();
    const b = await backend.getCatalog();
    expect(b.accelerators).toHaveLength(FIXTURE_CATALOG.accelerators.length);
    expect(backend.calls).toBe(2);
  });

  it("throws its error as a BackendError", async () => {
    const err = await new FakeBackend({ error: FIXTURE_CATALOG_INVALID }).getCatalog().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
  });
});

const { PDF_CHECK_INTACT } = await import("./fixtures/memo");

describe("TauriBackend memo commands", () => {
  const sign = { identity: "ada-lovelace", passphrase: "author-pass-2026", reason: "Author" };

  it("passes the memo, signing and identity arguments by the names Rust gives them", async () => {
    invoke.mockReset();
    invoke.mockResolvedValue(null);
    const b = new TauriBackend();
    await b.exportCertificate("ada-lovelace", "author-pass-2026", "/k/ada.pem");
    expect(invoke).toHaveBeenLastCalledWith("export_certificate", { identity: "ada-lovelace", passphrase: "author-pass-2026", path: "/k/ada.pem" });
    const identity = {
      id: "ada-lovelace",
      common_name: null,
      organisation: null,
      email: null,
      issuer: "CN=Ada",
      not_before: "2026-11-22T11:32:44Z",
      not_after: "2029-11-21T11:32:44Z",
      sha256: "fd7d",
      self_signed: true,
      origin: "made here",
    };
    invoke.mockResolvedValue(identity);
    await expect(b.createIdentity("Ada", "Example", null, "author-pass-2026")).resolves.toBe(identity);
    expect(invoke).toHaveBeenLastCalledWith("create_identity", { name: "Ada", organisation: "Example", email: null, passphrase: "author-pass-2026" });
    await b.importIdentity("/k/org.p12", "pw-123456");
    expect(invoke).toHaveBeenLastCalledWith("import_identity", { path: "/k/org.p12", passphrase: "pw-123456" });
    await b.chooseFile("save-memo");
    expect(invoke).toHaveBeenLastCalledWith("choose_file", { purpose: "save-memo" });
  });

  it("passes the memo answers through as Rust sends them: the draft, records, published memos and checks", async () => {
    invoke.mockReset();
    const b = new TauriBackend();
    const draft = { author: "Ada", client: "", decision: "Buy.", rationale: "", recommended: null, scenarios: [], paper: "a4" };
    invoke.mockResolvedValue(draft);
    await expect(b.memoDraft()).resolves.toBe(draft);
    expect(invoke).toHaveBeenLastCalledWith("memo_draft");

    const record = {
      event: "generated",
      at: "2026-11-22 10:00:00",
      file: "/m.pdf",
      sha256: "ab",
      pages: 9,
      scenarios: ["hybrid"],
      signer: null,
      certificate_sha256: null,
      reason: null,
      signatures: 0,
    };
    const published = { record, charts: 3, size: 225035 };
    invoke.mockResolvedValue(published);
    await expect(b.exportMemo("/m.pdf", sign)).resolves.toBe(published);
    expect(invoke).toHaveBeenLastCalledWith("export_memo", { path: "/m.pdf", sign });
    invoke.mockResolvedValue([record]);
    await expect(b.memoRecords()).resolves.toEqual([record]);

    invoke.mockResolvedValue(PDF_CHECK_INTACT);
    await expect(b.verifyPdf("/m.pdf")).resolves.toBe(PDF_CHECK_INTACT);
    expect(invoke).toHaveBeenLastCalledWith("verify_pdf", { path: "/m.pdf" });
  });

  it("passes an undone memo change through as a total draft", async () => {
    invoke.mockReset();
    const answer = {
      history: { can_undo: true, can_redo: false, revision: 3, undo_label: "Edit memo: author", redo_label: null },
      label: "Edit memo: author",
      changed: [{ kind: "memo", memo: { author: "Ada", client: "", decision: "", rationale: "", recommended: null, scenarios: [], paper: "letter" } }],
    };
    invoke.mockResolvedValue(answer);
    await expect(new TauriBackend().undo()).resolves.toBe(answer);
  });
});
