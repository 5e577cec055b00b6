// The workspace window in jsdom over the FakeBackend holding the enterprise-hybrid workspace.

import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import { FakeBackend } from "../src/lib/ipc/fake-backend";
import { emptyLayer, emptyScenario } from "../src/lib/layers";
import { themeState } from "../src/lib/theme-state.svelte";
import type { EditRequest, ScenarioSpec } from "../src/lib/workspace-types";
import { FIXTURE_CATALOG_INVALID } from "./fixtures/catalog";
import { EH_SETTINGS, WORKSPACE_CATALOG } from "./fixtures/enterprise-hybrid";
import { workspaceBackend } from "./support/workspace";

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

async function openApp(backend: FakeBackend = workspaceBackend()) {
  const r = render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  return { backend, ...r };
}

const edits = (b: FakeBackend) => b.callsTo("applyEdit").map((a) => a[0] as EditRequest);
const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

async function type(el: HTMLInputElement, text: string) {
  el.focus();
  for (let i = 1; i <= text.length; i += 1) await fireEvent.input(el, { target: { value: text.slice(0, i) } });
}

describe("start screen", () => {
  it("creates a workspace: title first, then the file dialog, then the workspace", async () => {
    const backend = new FakeBackend(
      { catalog: WORKSPACE_CATALOG },
      {
        recent: [
          { path: "/home/ana/plans/lab.cpw", title: "Lab cluster", opened: "2026-11-20 09:12", exists: true },
          { path: "/mnt/usb/old.cpw", title: "Old plan", opened: "2026-10-02 16:40", exists: false },
        ],
        launchError: { code: "workspace-busy", message: "/home/ana/plans/x.cpw is open in another window.", details: [] },
        dialog: { "new-workspace": "/home/ana/plans/new.cpw" },
      },
    );
    render(App, { props: { backend, locale: "en-US" } });
    await screen.findByTestId("start-screen");
    const card = screen.getByTestId("error-screen");
    expect(card.textContent).toContain("The workspace named at launch could not be opened");
    expect(card.textContent).toContain("is open in another window");
    expect(screen.getByTestId("recent-0").textContent).toContain("Lab cluster");
    expect((screen.getByTestId("recent-1") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("recent-1").textContent).toContain("missing");

    await fireEvent.click(screen.getByTestId("start-new"));
    const title = input("new-title");
    expect(document.activeElement).toBe(title);
    expect((screen.getByTestId("new-create") as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.input(title, { target: { value: "Research cluster 2027" } });
    await fireEvent.click(screen.getByTestId("new-create"));
    await screen.findByTestId("ws-title");
    expect(backend.callsTo("chooseFile")).toEqual([["new-workspace"]]);
    expect(backend.callsTo("createWorkspace")).toEqual([["/home/ana/plans/new.cpw", "Research cluster 2027"]]);
    expect(screen.getByTestId("ws-title").textContent).toContain("Research cluster 2027");
    expect(screen.getByTestId("ws-path").textContent).toBe("new.cpw");
  });

  it("says up front when the shipped catalog is broken, and browses it when it is not", async () => {
    const broken = new FakeBackend({ error: FIXTURE_CATALOG_INVALID });
    const first = render(App, { props: { backend: broken, locale: "en-US" } });
    const card = await screen.findByTestId("error-screen");
    expect(card.textContent).toContain("The catalog the app ships cannot be loaded");
    expect(card.textContent).toContain("accelerator[3].price_usd.low");
    expect(card.textContent).toContain("42");
    first.unmount();

    render(App, { props: { backend: new FakeBackend({ catalog: WORKSPACE_CATALOG }), locale: "en-US" } });
    await fireEvent.click(await screen.findByTestId("start-catalog"));
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    await fireEvent.click(screen.getByTestId("catalog-back"));
    await screen.findByTestId("start-screen");
  });

  it("goes straight to the workspace the session has open", async () => {
    await openApp();
    expect(screen.getByTestId("ws-title").textContent).toContain("Enterprise hybrid");
    expect(screen.getByTestId("saved-state").textContent).toBe("All changes saved");
    expect((screen.getByTestId("undo") as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("scenario editor", () => {
  it("sends each change as a put-scenario edit with a label and a per-field coalesce key", async () => {
    const { backend } = await openApp();
    const name = (await screen.findByTestId("scenario-name")) as HTMLInputElement;
    expect(name.value).toBe("Two DGX H100 for the base, AWS spot and on-demand for bursts");
    await fireEvent.input(name, { target: { value: "Two DGX H100 + cloud burst" } });
    await waitFor(() => expect(edits(backend)).toHaveLength(1));
    const sent = edits(backend)[0]!;
    expect(sent.label).toBe("Edit Two DGX H100 + cloud burst: name");
    expect(sent.coalesce).toBe("hybrid.name");
    expect(sent.edit.kind).toBe("put-scenario");
    const scenario = (sent.edit as { scenario: ScenarioSpec }).scenario;
    expect(scenario.id).toBe("hybrid");
    expect(scenario.name).toBe("Two DGX H100 + cloud burst");
    // The whole scenario goes along, unchanged elsewhere.
    expect(scenario.layers[0]).toMatchObject({ system: "dgx-h100", gpus: 16, installation: "15000" });
    await waitFor(() => expect(screen.getByTestId("scenario-row-hybrid").textContent).toContain("Two DGX H100 + cloud burst"));
    expect(screen.getByTestId("saved-state").textContent).toBe("All changes saved");

    // A number is sent only once it parses; the text typed stays as typed.
    const gpus = input("layer-0-gpus");
    await fireEvent.input(gpus, { target: { value: "2x" } });
    expect(gpus.value).toBe("2x");
    expect(gpus.getAttribute("aria-invalid")).toBe("true");
    await fireEvent.input(gpus, { target: { value: "24" } });
    await waitFor(() => expect(edits(backend)).toHaveLength(2));
    expect(edits(backend)[1]).toMatchObject({ label: "Edit Two DGX H100 + cloud burst: GPUs", coalesce: "hybrid.layers[0].gpus" });
    expect((edits(backend)[1]!.edit as { scenario: ScenarioSpec }).scenario.layers[0]!.gpus).toBe(24);
  });

  it("keeps what is typed in a focused field when an answer changes that field", async () => {
    const { backend } = await openApp();
    await fireEvent.click(screen.getByTestId("tab-workloads"));
    const name = (await screen.findByTestId("workload-name")) as HTMLInputElement;
    await type(name, "Nightly documents");
    await waitFor(() => expect(screen.getByTestId("undo").getAttribute("title")).toContain("Edit Nightly documents: name"));
    // Every keystroke went out, merged into one undo step by its coalesce key.
    expect(new Set(edits(backend).map((e) => e.coalesce))).toEqual(new Set(["workload:batch-inference.name"]));
    expect(backend.state?.undo).toHaveLength(1);

    // Undo from the header (jsdom leaves the focus in the field): the answer renames the
    // workload back, but the field the user is typing in keeps its text.
    expect(document.activeElement).toBe(name);
    await fireEvent.click(screen.getByTestId("undo"));
    await waitFor(() => expect(screen.getByTestId("workload-row-batch-inference").textContent).toContain("Nightly document processing on a 70B model"));
    expect(name.value).toBe("Nightly documents");
    // Once the field is left, it shows the workspace's value.
    name.blur();
    await fireEvent.blur(name);
    expect(name.value).toBe("Nightly document processing on a 70B model");
  });

  it("shows the engine's problems next to the field they name and in a list", async () => {
    await openApp();
    await fireEvent.click(await screen.findByTestId("scenario-row-all-cloud"));
    await waitFor(() => expect(screen.getByTestId("scenario-id").textContent).toBe("all-cloud"));
    const offer = (await screen.findByTestId("layer-1-offer")) as HTMLSelectElement;
    // Pick an offer id the catalog lacks: only reachable by data, so set the value directly.
    const option = document.createElement("option");
    option.value = "no-such-offer";
    offer.append(option);
    await fireEvent.change(offer, { target: { value: "no-such-offer" } });
    const list = await screen.findByTestId("scenario-problems");
    expect(within(list).getAllByTestId("scenario-problems-item").map((li) => li.dataset.field)).toEqual([
      "layers[1].offer",
      "layers[1].accelerator",
      "layers[1].price_per_gpu_hour",
    ]);
    const control = offer.closest(".f-control")!;
    expect(control.textContent).toContain("no offer has id `no-such-offer` in the catalog");
  });

  it("shows the detail: figures, rack plan, assumptions with their origin, overrides badged", async () => {
    await openApp();
    const detail = await screen.findByTestId("scenario-detail");
    await waitFor(() => expect(within(detail).getByTestId("detail-total_cash").textContent).toBe("$2,043,891.89"));
    expect(within(detail).getByTestId("rack-plan-dgx").textContent).toContain("carries it");
    expect(detail.textContent).toContain("20.4 kW per rack is above the typical 20 kW");
    expect(detail.textContent).toContain("north-america-2024h2.per_kw_month");

    await fireEvent.click(screen.getByTestId("scenario-row-all-cloud"));
    await waitFor(() => expect(screen.getByTestId("scenario-id").textContent).toBe("all-cloud"));
    await waitFor(() => expect(screen.getByTestId("layer-0-price-per-gpu-hour-badge").textContent).toBe("override"));
    expect(input("layer-0-price-per-gpu-hour-value").value).toBe("3.44");
  });

  it("creates scenarios from templates and deletes them, undoably", async () => {
    const { backend } = await openApp();
    await fireEvent.click(screen.getByTestId("add-scenario-rent"));
    const row = await screen.findByTestId("scenario-row-rent-nvidia-h100-sxm5-on-demand-aws");
    expect(row.getAttribute("aria-selected")).toBe("true");
    const put = edits(backend).at(-1)!;
    expect(put).toMatchObject({ label: "New scenario Rent NVIDIA H100 SXM5 on demand (AWS)", coalesce: null });
    expect((put.edit as { scenario: ScenarioSpec }).scenario.layers).toEqual([expect.objectContaining({ kind: "on-demand", offer: "aws-p5-h100" })]);
    await waitFor(() => expect(input("scenario-name").value).toBe("Rent NVIDIA H100 SXM5 on demand (AWS)"));

    await fireEvent.click(screen.getByTestId("scenario-delete"));
    await waitFor(() => expect(screen.queryByTestId("scenario-row-rent-nvidia-h100-sxm5-on-demand-aws")).toBeNull());
    expect(screen.getByTestId("notice").textContent).toContain("Undo (Ctrl+Z) brings it back");
  });
});

describe("undo and redo", () => {
  it("Ctrl+Z outside a text field undoes through the back end and updates the list from the answer", async () => {
    const { backend } = await openApp();
    const name = (await screen.findByTestId("scenario-name")) as HTMLInputElement;
    await type(name, "Renamed");
    await waitFor(() => expect(screen.getByTestId("scenario-row-hybrid").textContent).toContain("Renamed"));

    // Inside the text field Ctrl+Z belongs to the field.
    await fireEvent.keyDown(name, { key: "z", ctrlKey: true });
    expect(backend.callsTo("undo")).toHaveLength(0);

    name.blur();
    await fireEvent.keyDown(document.body, { key: "z", ctrlKey: true });
    await waitFor(() => expect(backend.callsTo("undo")).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId("scenario-row-hybrid").textContent).toContain("Two DGX H100 for the base"));
    // The open scenario is reloaded from the back end.
    await waitFor(() => expect(input("scenario-name").value).toBe("Two DGX H100 for the base, AWS spot and on-demand for bursts"));
    expect(screen.getByTestId("redo").getAttribute("title")).toBe("Redo: Edit Renamed: name (Ctrl+Shift+Z or Ctrl+Y)");

    await fireEvent.keyDown(document.body, { key: "y", ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId("scenario-row-hybrid").textContent).toContain("Renamed"));
    expect(backend.callsTo("redo")).toHaveLength(1);
  });
});

describe("a workspace open read-only", () => {
  it("says so and why, offers Save As, and shows a refused change with the reason", async () => {
    const why = "its folder /srv/share is read-only for you, and the workspace keeps its write log beside the file";
    await openApp(workspaceBackend({ readOnly: why }));
    const notice = screen.getByTestId("read-only-notice");
    expect(notice.textContent?.replace(/\s+/g, " ")).toContain(`Opened read-only: ${why}.`);
    expect(within(notice).getByTestId("read-only-save-as").textContent?.trim()).toBe("Save as…");
    expect(screen.getByTestId("saved-state").textContent).toBe("Read-only");
    const name = (await screen.findByTestId("scenario-name")) as HTMLInputElement;
    await type(name, "Renamed");
    const refused = await screen.findByTestId("notice");
    expect(refused.textContent).toContain("is open read-only");
    expect(refused.textContent).toContain(why);
  });

  it("shows no read-only notice on a writable workspace", async () => {
    await openApp();
    expect(screen.queryByTestId("read-only-notice")).toBeNull();
    expect(screen.getByTestId("saved-state").textContent).toBe("All changes saved");
  });
});

describe("compare screen", () => {
  it("shows the decision table with the fixture's totals in the workspace currency, and the charts", async () => {
    const { backend } = await openApp();
    await fireEvent.keyDown(document.body, { key: "3", ctrlKey: true });
    const table = await screen.findByTestId("compare-table");
    expect(within(table).getByTestId("figure-hybrid-total_cash").textContent).toBe("$2,043,891.89");
    expect(within(table).getByTestId("figure-all-cloud-total_cash").textContent).toBe("$2,665,829.76");
    expect(within(table).getByTestId("figure-all-cloud-npv").textContent).toBe("$2,387,801.33");
    expect(within(table).getByTestId("figure-hybrid-owned_utilisation").textContent).toBe("86.53 %");
    expect(within(table).getByTestId("figure-all-cloud-owned_utilisation").textContent).toBe("—");
    expect(within(table).getByTestId("figure-hybrid-emissions_kg").textContent).toBe("209.129 t CO₂e");
    const diff = within(table).getByTestId("figure-all-cloud-difference_total");
    expect(diff.textContent).toBe("+$621,937.87");
    expect(diff.classList.contains("bad")).toBe(true);
    expect(within(table).getByTestId("figure-all-cloud-break_even").textContent).toBe(
      "month 19 (≈ 18.6 months) in 2028-07, Two DGX H100 for the base, AWS spot and on-demand for bursts cheaper after",
    );
    const buyRent = within(table).getByTestId("figure-all-cloud-buy_vs_rent_hours_per_day");
    expect(buyRent.textContent).toBe("17.53 h/dayOwning pays off above 17.53 hours of use per owned GPU per day (of at most 23.28).");
    expect(screen.getByTestId("compare-time").textContent).toBe("computed in 1.0 ms");
    expect(screen.getByTestId("chart-cumulative").querySelector("svg")?.dataset.fixture).toBe("cumulative");
    expect(screen.getByTestId("chart-monthly").querySelector("svg")?.dataset.fixture).toBe("monthly-hybrid");
    await fireEvent.click(screen.getByTestId("monthly-pick-all-cloud"));
    expect(screen.getByTestId("chart-monthly").querySelector("svg")?.dataset.fixture).toBe("monthly-all-cloud");
    expect(backend.callsTo("compare").at(-1)).toEqual(["light"]);
  });

  it("pins the baseline and sets the horizon through setView, and asks again", async () => {
    const { backend } = await openApp();
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await screen.findByTestId("compare-table");
    await fireEvent.click(screen.getByTestId("compare-baseline-all-cloud"));
    await waitFor(() => expect(backend.callsTo("setView")).toHaveLength(1));
    expect(backend.callsTo("setView")[0]).toEqual([{ selected: ["hybrid", "all-cloud"], baseline: "all-cloud", horizon_months: null }]);
    expect(screen.getByTestId("compare-baseline-all-cloud").getAttribute("aria-pressed")).toBe("true");

    for (const n of [12, 24, 36, 60]) {
      await fireEvent.click(screen.getByTestId(`horizon-${n}`));
      await waitFor(() => expect(backend.callsTo("setView").at(-1)).toEqual([{ selected: ["hybrid", "all-cloud"], baseline: "all-cloud", horizon_months: n }]));
      expect(screen.getByTestId(`horizon-${n}`).getAttribute("aria-pressed")).toBe("true");
    }
    await waitFor(() => expect(backend.callsTo("compare").length).toBeGreaterThanOrEqual(2));
  });

  it("picks scenarios in order with the keyboard, at most eight", async () => {
    const { backend } = await openApp();
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await fireEvent.click(await screen.findByTestId("compare-pick-hybrid"));
    await waitFor(() => expect(backend.callsTo("setView").at(-1)).toEqual([{ selected: ["all-cloud"], baseline: null, horizon_months: null }]));
    const picker = screen.getByTestId("compare-picker");
    picker.focus();
    await fireEvent.keyDown(picker, { key: "Home" });
    await fireEvent.keyDown(picker, { key: " " });
    await waitFor(() => expect(backend.callsTo("setView").at(-1)).toEqual([{ selected: ["all-cloud", "hybrid"], baseline: null, horizon_months: null }]));
  });

  it("keeps the last table on screen, dimmed, with a progress line when the back end takes longer than 150 ms", async () => {
    const backend = workspaceBackend({ delays: { compare: 400 } });
    await openApp(backend);
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await screen.findByTestId("compare-table", {}, { timeout: 2000 });
    await fireEvent.click(screen.getByTestId("horizon-24"));
    await screen.findByTestId("compare-progress", {}, { timeout: 1000 });
    expect(screen.getByTestId("compare-table")).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId("compare-progress")).toBeNull(), { timeout: 2000 });
  });

  it("asks for charts in the other theme when the theme changes", async () => {
    const { backend } = await openApp();
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await screen.findByTestId("compare-table");
    themeState.set("dark");
    await waitFor(() => expect(backend.callsTo("compare").at(-1)).toEqual(["dark"]));
  });

  it("exports through the file dialog", async () => {
    const backend = workspaceBackend({ dialog: { "export-xlsx": "/tmp/cmp.xlsx", "export-csv": "/tmp/ledger.csv" } });
    await openApp(backend);
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await screen.findByTestId("compare-table");
    await fireEvent.click(screen.getByTestId("export-xlsx"));
    await waitFor(() => expect(backend.callsTo("exportComparison")).toEqual([["/tmp/cmp.xlsx", "xlsx"]]));
    await fireEvent.click(screen.getByTestId("export-ledger-all-cloud"));
    await waitFor(() => expect(backend.callsTo("exportLedger")).toEqual([["/tmp/ledger.csv", "all-cloud"]]));
    expect(screen.getByTestId("notice").textContent).toContain("/tmp/ledger.csv");
  });
});

describe("10,000 scenarios", () => {
  it("renders only a window of rows and filters fast", async () => {
    const scenarios: ScenarioSpec[] = Array.from({ length: 10_000 }, (_, i) => ({
      ...emptyScenario(`s-${i}`, `Scenario ${i}`),
      layers: [{ ...emptyLayer("od", "on-demand"), offer: "aws-p5-h100" }],
    }));
    const backend = new FakeBackend(
      { catalog: WORKSPACE_CATALOG },
      { workspace: { path: "/w/big.cpw", settings: EH_SETTINGS, scenarios, catalog: WORKSPACE_CATALOG } },
    );
    await openApp(backend);
    const list = screen.getByTestId("scenario-list");
    expect(list.dataset.rows).toBe("10000");
    const rows = list.querySelectorAll('[data-testid^="scenario-row-"]');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(screen.getByTestId("scenario-count").textContent?.trim()).toBe("10,000 scenarios");

    list.focus();
    await fireEvent.keyDown(list, { key: "End" });
    await waitFor(() => expect(screen.getByTestId("scenario-row-s-9999").getAttribute("aria-selected")).toBe("true"));
    expect(list.querySelectorAll('[data-testid^="scenario-row-"]').length).toBeLessThan(60);

    await fireEvent.input(screen.getByTestId("scenario-filter"), { target: { value: "scenario 4242" } });
    expect(screen.getByTestId("scenario-count").textContent?.trim()).toBe("1 of 10,000 scenarios");
    expect(list.querySelectorAll('[data-testid^="scenario-row-"]').length).toBe(1);
  });
});

describe("frame", () => {
  it("switches tabs with Ctrl+1..4, lists the shortcuts on ?, and shows the shipped catalog", async () => {
    const { backend } = await openApp();
    await fireEvent.keyDown(document.body, { key: "1", ctrlKey: true });
    expect(screen.getByTestId("tab-workloads").getAttribute("aria-selected")).toBe("true");
    await screen.findByTestId("workload-row-quarterly-training");
    await fireEvent.keyDown(document.body, { key: "?" });
    const help = screen.getByTestId("shortcuts-help");
    expect(help.textContent).toContain("Ctrl+Shift+Z");
    await fireEvent.keyDown(help, { key: "Escape" });
    expect(screen.queryByTestId("shortcuts-help")).toBeNull();
    await fireEvent.keyDown(document.body, { key: "4", ctrlKey: true });
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    expect(screen.getByTestId("catalog-note").textContent).toContain("own snapshot");
    expect(backend.calls).toBe(1);
  });

  it("adds a workload with an id made from its name", async () => {
    const { backend } = await openApp();
    await fireEvent.click(screen.getByTestId("tab-workloads"));
    await fireEvent.click(await screen.findByTestId("add-workload"));
    await fireEvent.input(input("new-workload-name"), { target: { value: "Support chatbot" } });
    await fireEvent.click(screen.getByTestId("new-workload-create"));
    await screen.findByTestId("workload-row-support-chatbot");
    expect(edits(backend).at(-1)).toMatchObject({ label: "New workload Support chatbot", edit: { kind: "put-workload", workload: { id: "support-chatbot", name: "Support chatbot" } } });
    expect(screen.getByTestId("workload-id").textContent).toBe("support-chatbot");
  });

  it("offers a newer shipped catalog, updates it as an undo step, and offers it again after undo", async () => {
    const backend = workspaceBackend();
    const ws = backend.state!;
    (ws as { catalogStatus: unknown }).catalogStatus = { version: "2026.08.0", taken: "2026-08-02 09:00", shipped_version: "2026.11.0", newer_available: true };
    await openApp(backend);
    const notice = screen.getByTestId("catalog-notice");
    expect(notice.textContent).toContain("The app ships catalog 2026.11.0; this workspace computes with 2026.08.0 (taken 2026-08-02 09:00 UTC)");
    expect(notice.textContent).toContain("undo");
    await fireEvent.click(screen.getByTestId("catalog-update"));
    await waitFor(() => expect(screen.queryByTestId("catalog-notice")).toBeNull());
    expect(screen.getByTestId("undo").getAttribute("title")).toContain("Update catalog 2026.08.0 → 2026.11.0");
    await fireEvent.click(screen.getByTestId("undo"));
    await screen.findByTestId("catalog-notice");
  });

  it("closes the workspace after pending edits, back to the start screen", async () => {
    const { backend } = await openApp();
    await fireEvent.input(await screen.findByTestId("scenario-name"), { target: { value: "Last edit" } });
    await fireEvent.click(screen.getByTestId("menu"));
    await fireEvent.click(screen.getByTestId("menu-close"));
    await screen.findByTestId("start-screen");
    const order = backend.log.map((c) => c.method).filter((m) => m === "applyEdit" || m === "closeWorkspace");
    expect(order).toEqual(["applyEdit", "closeWorkspace"]);
    expect(screen.getByTestId("recent-0").textContent).toContain("Enterprise hybrid");
  });
});

describe("keyboard", () => {
  it("Ctrl+N opens the new-scenario menu on the first template; arrows and Enter choose", async () => {
    const { backend } = await openApp();
    await fireEvent.click(screen.getByTestId("tab-workloads"));
    await fireEvent.keyDown(document.body, { key: "n", ctrlKey: true });
    const first = await screen.findByTestId("new-menu-buy");
    expect(screen.getByTestId("tab-scenarios").getAttribute("aria-selected")).toBe("true");
    await waitFor(() => expect(document.activeElement).toBe(first));
    await fireEvent.keyDown(first, { key: "ArrowDown" });
    await fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByTestId("new-menu-hybrid"));
    await fireEvent.click(document.activeElement!);
    await screen.findByTestId("scenario-row-hybrid-8-nvidia-h100-sxm5-owned-on-demand-aws");
    const put = edits(backend).at(-1)!;
    expect((put.edit as { scenario: ScenarioSpec }).scenario.layers.map((l) => l.kind)).toEqual(["owned", "on-demand"]);
  });

  it("/ focuses the list filter of the screen on view; Escape clears it", async () => {
    await openApp();
    await fireEvent.keyDown(document.body, { key: "/" });
    const filter = input("scenario-filter");
    expect(document.activeElement).toBe(filter);
    await fireEvent.input(filter, { target: { value: "reserved" } });
    expect(screen.queryByTestId("scenario-row-hybrid")).toBeNull();
    await fireEvent.keyDown(filter, { key: "Escape" });
    expect(filter.value).toBe("");
    await screen.findByTestId("scenario-row-hybrid");
    await fireEvent.keyDown(document.body, { key: "3", ctrlKey: true });
    await screen.findByTestId("compare-table");
    await fireEvent.keyDown(document.body, { key: "/" });
    expect(document.activeElement).toBe(screen.getByTestId("compare-filter"));
  });

  it("edits the settings in the panel, saved as one step per field", async () => {
    const { backend } = await openApp();
    await fireEvent.click(screen.getByTestId("settings-open"));
    const panel = screen.getByTestId("settings-panel");
    const discount = within(panel).getByTestId("settings-discount") as HTMLInputElement;
    expect(discount.value).toBe("8");
    await type(discount, "7.5");
    await waitFor(() => expect(edits(backend).at(-1)?.edit).toEqual({ kind: "settings", settings: expect.objectContaining({ discount_rate: "0.075" }) }));
    expect(new Set(edits(backend).map((e) => e.coalesce))).toEqual(new Set(["settings.discount_rate"]));
    await fireEvent.keyDown(panel, { key: "Escape" });
    expect(screen.queryByTestId("settings-panel")).toBeNull();
  });
});
