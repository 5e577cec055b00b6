// The workspace window in jsdom over recorded answers from the real back end (see
// tests/support/recorded.ts): mostly the enterprise-hybrid sample opened at launch.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configure, fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import App from "../src/lib/components/App.svelte";
import type { Backend } from "../src/lib/backend";
import { TauriBackend } from "../src/lib/ipc/tauri-backend";
import { themeState } from "../src/lib/theme-state.svelte";
import type { EditRequest, ScenarioSpec, ViewState } from "../src/lib/workspace-types";
import { recorded, type Dialog, type RecordedSession } from "./support/recorded";
import { ENTERPRISE, enterpriseSession } from "./support/sessions";

// The machine running the tests may be busy: a slow answer is waited for, not taken for a failure.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SAMPLE = "@repo/catalogs/samples/enterprise-hybrid.json";

// ---- Settling: the same calls whether the answers come from the host server or the recording ----

const inFlight = new WeakMap<RecordedSession, () => number>();

/** Counts the calls of `session` still waiting for their answer (see `settle`). */
function tracked<T extends { host: RecordedSession }>(session: T): T {
  const host = session.host;
  const call = host.call.bind(host);
  let waiting = 0;
  host.call = async (command, args) => {
    waiting += 1;
    try {
      return await call(command, args);
    } finally {
      waiting -= 1;
    }
  };
  inFlight.set(host, () => waiting);
  return session;
}

/**
 * Waits until every call is answered and no new one follows: the host server answers in
 * milliseconds, a recording at once, so a test that goes on only once the window is quiet makes
 * the same calls in both modes.
 */
async function settle(host: RecordedSession) {
  const waiting = inFlight.get(host)!;
  let seen = -1;
  await waitFor(
    () => {
      const now = host.calls.length;
      const quiet = waiting() === 0 && now === seen;
      seen = now;
      if (!quiet) throw new Error("calls still in flight");
    },
    { interval: 25, timeout: 10_000 },
  );
}

const session = async (options: { dialog?: Dialog; readOnly?: boolean } = {}) => tracked(await enterpriseSession(options));

async function openApp(s: { backend: Backend; host: RecordedSession }) {
  const r = render(App, { props: { backend: s.backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await settle(s.host);
  return { ...s, ...r };
}

const edits = (host: RecordedSession) => host.sent("apply_edit").map((a) => a.request as EditRequest);
const views = (host: RecordedSession) => host.sent("set_view").map((a) => a.view as ViewState);
const themes = (host: RecordedSession) => host.sent("compare").map((a) => a.theme);
const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

/** Types `text` one key at a time, each key's edit answered before the next key. */
async function type(host: RecordedSession, el: HTMLInputElement, text: string) {
  el.focus();
  for (let i = 1; i <= text.length; i += 1) {
    await fireEvent.input(el, { target: { value: text.slice(0, i) } });
    await settle(host);
  }
}

describe("start screen", () => {
  it("creates a workspace: title first, then the file dialog, then the workspace", async () => {
    const { backend, host } = tracked(recorded({ dialog: { "new-workspace": "@tmp/new.cpw" } }));
    // A recent entry whose file has gone (an unplugged drive): no control removes a file, so the
    // entry is put in the app's recent list (in its configuration folder) as the app leaves it.
    await host.write("@tmp/config/recent-workspaces.json", JSON.stringify([{ path: "/mnt/usb/old.cpw", title: "Old plan", opened: "2026-10-02 16:40" }]));
    // A workspace opened before, which the app puts first in the list.
    await host.workspace(SAMPLE, "@tmp/lab.cpw", "Lab cluster");
    await host.launch("@tmp/lab.cpw");
    // The app starts again (nothing open), named a workspace that is not there.
    await host.catalog("@repo/catalogs");
    await host.launch("@tmp/gone.cpw");

    render(App, { props: { backend, locale: "en-US" } });
    await screen.findByTestId("start-screen");
    await settle(host);
    const card = screen.getByTestId("error-screen");
    expect(card.textContent).toContain("The workspace named at launch could not be opened");
    expect(card.textContent).toContain("@tmp/gone.cpw: cannot open the workspace");
    expect(screen.getByTestId("recent-0").textContent).toContain("Lab cluster");
    expect((screen.getByTestId("recent-0") as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByTestId("recent-1") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("recent-1").textContent).toContain("Old plan");
    expect(screen.getByTestId("recent-1").textContent).toContain("missing");

    await fireEvent.click(screen.getByTestId("start-new"));
    const title = input("new-title");
    expect(document.activeElement).toBe(title);
    expect((screen.getByTestId("new-create") as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.input(title, { target: { value: "Research cluster 2027" } });
    await fireEvent.click(screen.getByTestId("new-create"));
    await screen.findByTestId("ws-title");
    await settle(host);
    expect(host.sent("choose_file")).toEqual([{ purpose: "new-workspace" }]);
    expect(host.sent("create_workspace")).toEqual([{ path: "@tmp/new.cpw", title: "Research cluster 2027" }]);
    expect(screen.getByTestId("ws-title").textContent).toContain("Research cluster 2027");
    expect(screen.getByTestId("ws-path").textContent).toBe("new.cpw");
  });

  it("says up front when the shipped catalog is broken, and browses it when it is not", async () => {
    const { backend, host } = tracked(recorded());
    // The shipped catalog with a fabric whose price is written with a thousands separator.
    await host.copy("@repo/catalogs", "@tmp/cat");
    await host.append(
      "@tmp/cat/fabrics.toml",
      [
        "",
        "[[fabric]]",
        'id = "broken-fabric"',
        'name = "A fabric with a malformed price"',
        'technology = "roce"',
        "port_gbps = 400",
        'pools = ["training"]',
        'currency = "USD"',
        'src = "luxoptx-800g"',
        'conf = "estimate"',
        'per_port_cost = { low = "25,000", high = 30000 }',
        "switch_radix = 64",
        "switch_cost = { low = 1000, high = 2000 }",
        "optic_cost = { low = 100, high = 200 }",
        "",
      ].join("\n"),
    );
    await host.catalog("@tmp/cat");
    const first = render(App, { props: { backend, locale: "en-US" } });
    const card = await screen.findByTestId("error-screen");
    await settle(host);
    expect(card.textContent).toContain("The catalog the app ships cannot be loaded");
    // The problem as the catalog loader reports it: file, line, column, field and what is wrong.
    const problem = within(card).getByTestId("error-detail");
    expect(problem.textContent).toContain("@tmp/cat/fabrics.toml");
    expect(problem.textContent).toContain("106");
    expect(problem.textContent).toContain("malformed-number");
    expect(problem.textContent).toContain("`25,000` is not a number");
    expect(host.sent("create_workspace")).toEqual([]);
    first.unmount();

    // Started again with the catalog as shipped.
    await host.catalog("@repo/catalogs");
    render(App, { props: { backend: new TauriBackend(), locale: "en-US" } });
    await fireEvent.click(await screen.findByTestId("start-catalog"));
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    await settle(host);
    await fireEvent.click(screen.getByTestId("catalog-back"));
    await screen.findByTestId("start-screen");
    await settle(host);
  });

  it("goes straight to the workspace the session has open", async () => {
    await openApp(await session());
    expect(screen.getByTestId("ws-title").textContent).toContain("Enterprise hybrid: owned base load for batch inference, cloud burst for training");
    expect(screen.getByTestId("ws-path").textContent).toBe("enterprise.cpw");
    expect(screen.getByTestId("saved-state").textContent).toBe("All changes saved");
    // The only step so far is the import that made the workspace from the sample.
    expect((screen.getByTestId("undo") as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByTestId("undo").getAttribute("title")).toContain("Import enterprise-hybrid.json");
    expect((screen.getByTestId("redo") as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("scenario editor", () => {
  it("sends each change as a put-scenario edit with a label and a per-field coalesce key", async () => {
    const { host } = await openApp(await session());
    const name = (await screen.findByTestId("scenario-name")) as HTMLInputElement;
    expect(name.value).toBe("Two DGX H100 for the base, AWS spot and on-demand for bursts");
    await fireEvent.input(name, { target: { value: "Two DGX H100 + cloud burst" } });
    await waitFor(() => expect(edits(host)).toHaveLength(1));
    await settle(host);
    const sent = edits(host)[0]!;
    expect(sent.label).toBe("Edit Two DGX H100 + cloud burst: name");
    expect(sent.coalesce).toBe("hybrid.name");
    expect(sent.edit.kind).toBe("put-scenario");
    const scenario = (sent.edit as { scenario: ScenarioSpec }).scenario;
    expect(scenario.id).toBe("hybrid");
    expect(scenario.name).toBe("Two DGX H100 + cloud burst");
    // The whole scenario goes along, unchanged elsewhere.
    expect(scenario.layers[0]).toMatchObject({ id: "dgx", kind: "owned", system: "dgx-h100", gpus: 16, installation: "15000", serves: ["batch-inference"] });
    expect(scenario.layers.map((l) => l.kind)).toEqual(["owned", "spot", "on-demand"]);
    await waitFor(() => expect(screen.getByTestId("scenario-row-hybrid").textContent).toContain("Two DGX H100 + cloud burst"));
    expect(screen.getByTestId("saved-state").textContent).toBe("All changes saved");
    expect(screen.getByTestId("undo").getAttribute("title")).toContain("Edit Two DGX H100 + cloud burst: name");

    // A number is sent only once it parses; the text typed stays as typed.
    const gpus = input("layer-0-gpus");
    await fireEvent.input(gpus, { target: { value: "2x" } });
    expect(gpus.value).toBe("2x");
    expect(gpus.getAttribute("aria-invalid")).toBe("true");
    await settle(host);
    expect(edits(host)).toHaveLength(1);
    await fireEvent.input(gpus, { target: { value: "24" } });
    await waitFor(() => expect(edits(host)).toHaveLength(2));
    await settle(host);
    expect(edits(host)[1]).toMatchObject({ label: "Edit Two DGX H100 + cloud burst: GPUs", coalesce: "hybrid.layers[0].gpus" });
    expect((edits(host)[1]!.edit as { scenario: ScenarioSpec }).scenario.layers[0]!.gpus).toBe(24);
    expect(screen.getByTestId("undo").getAttribute("title")).toContain("Edit Two DGX H100 + cloud burst: GPUs");
  });

  it("keeps what is typed in a focused field when an answer changes that field", async () => {
    const { host } = await openApp(await session());
    await fireEvent.click(screen.getByTestId("tab-workloads"));
    const name = (await screen.findByTestId("workload-name")) as HTMLInputElement;
    await settle(host);
    await type(host, name, "Nightly documents");
    await waitFor(() => expect(screen.getByTestId("undo").getAttribute("title")).toContain("Edit Nightly documents: name"));
    // Every keystroke went out, merged into one undo step by its coalesce key (the host's clock
    // stands still, well inside the 2 s that merge edits).
    expect(edits(host)).toHaveLength("Nightly documents".length);
    expect(new Set(edits(host).map((e) => e.coalesce))).toEqual(new Set(["workload:batch-inference.name"]));

    // Undo from the header (jsdom leaves the focus in the field): the answer renames the
    // workload back, but the field the user is typing in keeps its text.
    expect(document.activeElement).toBe(name);
    await fireEvent.click(screen.getByTestId("undo"));
    await waitFor(() => expect(screen.getByTestId("workload-row-batch-inference").textContent).toContain("Nightly document processing on a 70B model"));
    await settle(host);
    expect(host.sent("undo")).toHaveLength(1);
    // One undo took back all the keystrokes: next in line is the import.
    expect(screen.getByTestId("undo").getAttribute("title")).toContain("Import enterprise-hybrid.json");
    expect(name.value).toBe("Nightly documents");
    // Once the field is left, it shows the workspace's value.
    name.blur();
    await fireEvent.blur(name);
    expect(name.value).toBe("Nightly document processing on a 70B model");
  });

  it("shows the engine's problems next to the field they name and in a list", async () => {
    const { host } = await openApp(await session());
    await fireEvent.click(await screen.findByTestId("scenario-row-all-cloud"));
    await waitFor(() => expect(screen.getByTestId("scenario-id").textContent).toBe("all-cloud"));
    const offer = (await screen.findByTestId("layer-1-offer")) as HTMLSelectElement;
    await settle(host);
    // Pick an offer id the catalog lacks: only reachable by data, so set the value directly.
    const option = document.createElement("option");
    option.value = "no-such-offer";
    offer.append(option);
    await fireEvent.change(offer, { target: { value: "no-such-offer" } });
    const list = await screen.findByTestId("scenario-problems");
    await settle(host);
    expect(within(list).getAllByTestId("scenario-problems-item").map((li) => li.dataset.field)).toEqual([
      "layers[1].offer",
      "layers[1].accelerator",
      "layers[1].price_per_gpu_hour",
    ]);
    const control = offer.closest(".f-control")!;
    expect(control.textContent).toContain("no offer has id `no-such-offer` in the catalog");
  });

  it("shows the detail: figures, rack plan, assumptions with their origin, overrides badged", async () => {
    const { host } = await openApp(await session());
    const detail = await screen.findByTestId("scenario-detail");
    await waitFor(() => expect(within(detail).getByTestId("detail-total_cash").textContent).toBe("$2,073,591.89"));
    expect(within(detail).getByTestId("rack-plan-dgx").textContent).toContain("carries it");
    expect(detail.textContent).toContain("20.4 kW per rack is above the typical 20 kW");
    expect(detail.textContent).toContain("north-america-2024h2.per_kw_month");

    await fireEvent.click(screen.getByTestId("scenario-row-all-cloud"));
    await waitFor(() => expect(screen.getByTestId("scenario-id").textContent).toBe("all-cloud"));
    await waitFor(() => expect(screen.getByTestId("layer-0-price-per-gpu-hour-badge").textContent).toBe("override"));
    await settle(host);
    expect(input("layer-0-price-per-gpu-hour-value").value).toBe("3.44");
  });

  it("creates scenarios from templates and deletes them, undoably", async () => {
    const { host } = await openApp(await session());
    await fireEvent.click(screen.getByTestId("add-scenario-rent"));
    const row = await screen.findByTestId("scenario-row-rent-nvidia-h100-sxm5-on-demand-aws");
    await settle(host);
    expect(row.getAttribute("aria-selected")).toBe("true");
    const put = edits(host).at(-1)!;
    expect(put).toMatchObject({ label: "New scenario Rent NVIDIA H100 SXM5 on demand (AWS)", coalesce: null });
    expect((put.edit as { scenario: ScenarioSpec }).scenario.layers).toEqual([expect.objectContaining({ kind: "on-demand", offer: "aws-p5-h100" })]);
    await waitFor(() => expect(input("scenario-name").value).toBe("Rent NVIDIA H100 SXM5 on demand (AWS)"));

    await fireEvent.click(screen.getByTestId("scenario-delete"));
    await waitFor(() => expect(screen.queryByTestId("scenario-row-rent-nvidia-h100-sxm5-on-demand-aws")).toBeNull());
    await settle(host);
    expect(edits(host).at(-1)).toMatchObject({ edit: { kind: "delete-scenario", id: "rent-nvidia-h100-sxm5-on-demand-aws" } });
    expect(screen.getByTestId("notice").textContent).toContain("Undo (Ctrl+Z) brings it back");
    // The scenario before it in the list is chosen and opened (at once, or after the editor's
    // short pause between switches: waited for either way).
    await waitFor(() => expect(input("scenario-name").value).toBe("Reserved H100 for the base, on-demand for bursts"));
    await settle(host);
    expect(host.sent("get_scenario").at(-1)).toEqual({ id: "all-cloud" });
  });
});

describe("undo and redo", () => {
  it("Ctrl+Z outside a text field undoes through the back end and updates the list from the answer", async () => {
    const { host } = await openApp(await session());
    const name = (await screen.findByTestId("scenario-name")) as HTMLInputElement;
    await type(host, name, "Renamed");
    await waitFor(() => expect(screen.getByTestId("scenario-row-hybrid").textContent).toContain("Renamed"));

    // Inside the text field Ctrl+Z belongs to the field.
    await fireEvent.keyDown(name, { key: "z", ctrlKey: true });
    await settle(host);
    expect(host.sent("undo")).toHaveLength(0);

    name.blur();
    await fireEvent.keyDown(document.body, { key: "z", ctrlKey: true });
    await waitFor(() => expect(host.sent("undo")).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId("scenario-row-hybrid").textContent).toContain("Two DGX H100 for the base"));
    // The open scenario is reloaded from the back end.
    await waitFor(() => expect(input("scenario-name").value).toBe("Two DGX H100 for the base, AWS spot and on-demand for bursts"));
    await settle(host);
    expect(screen.getByTestId("redo").getAttribute("title")).toBe("Redo: Edit Renamed: name (Ctrl+Shift+Z or Ctrl+Y)");

    await fireEvent.keyDown(document.body, { key: "y", ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId("scenario-row-hybrid").textContent).toContain("Renamed"));
    await settle(host);
    expect(host.sent("redo")).toHaveLength(1);
    expect(screen.getByTestId("undo").getAttribute("title")).toContain("Edit Renamed: name");
  });
});

describe("a workspace open read-only", () => {
  it("says so and why, offers Save As, and shows a refused change with the reason", async () => {
    const why = "it was opened read-only on request";
    const { host } = await openApp(await session({ readOnly: true }));
    const notice = screen.getByTestId("read-only-notice");
    expect(notice.textContent?.replace(/\s+/g, " ")).toContain(`Opened read-only: ${why}.`);
    expect(within(notice).getByTestId("read-only-save-as").textContent?.trim()).toBe("Save as…");
    expect(screen.getByTestId("saved-state").textContent).toBe("Read-only");
    const name = (await screen.findByTestId("scenario-name")) as HTMLInputElement;
    await fireEvent.input(name, { target: { value: "Renamed" } });
    const refused = await screen.findByTestId("notice");
    await settle(host);
    expect(edits(host)).toHaveLength(1);
    expect(refused.textContent).toContain("is open read-only");
    expect(refused.textContent).toContain(why);
  });

  it("shows no read-only notice on a writable workspace", async () => {
    await openApp(await session());
    expect(screen.queryByTestId("read-only-notice")).toBeNull();
    expect(screen.getByTestId("saved-state").textContent).toBe("All changes saved");
  });
});

describe("compare screen", () => {
  it("shows the decision table with the sample's totals in the workspace currency, and the charts", async () => {
    const { host } = await openApp(await session());
    await fireEvent.keyDown(document.body, { key: "3", ctrlKey: true });
    const table = await screen.findByTestId("compare-table");
    await settle(host);
    expect(within(table).getByTestId("figure-hybrid-total_cash").textContent).toBe("$2,073,591.89");
    expect(within(table).getByTestId("figure-all-cloud-total_cash").textContent).toBe("$2,665,829.76");
    expect(within(table).getByTestId("figure-all-cloud-npv").textContent).toBe("$2,387,801.33");
    expect(within(table).getByTestId("figure-hybrid-owned_utilisation").textContent).toBe("86.53 %");
    expect(within(table).getByTestId("figure-all-cloud-owned_utilisation").textContent).toBe("—");
    expect(within(table).getByTestId("figure-hybrid-emissions_kg").textContent).toBe("302.751 t CO₂eof which 93.621 t CO₂e rented: estimate");
    const diff = within(table).getByTestId("figure-all-cloud-difference_total");
    // All cloud costs more than hybrid by the difference of the two totals.
    expect(diff.textContent).toBe("+$592,237.87");
    expect(diff.classList.contains("bad")).toBe(true);
    expect(within(table).getByTestId("figure-all-cloud-break_even").textContent).toBe(
      "month 19 (≈ 18.6 months) in 2028-07, Two DGX H100 for the base, AWS spot and on-demand for bursts cheaper after",
    );
    const buyRent = within(table).getByTestId("figure-all-cloud-buy_vs_rent_hours_per_day");
    expect(buyRent.textContent).toBe(
      "10.96 h/dayOwning pays off above 10.96 hours of use per owned GPU per day (of at most 23.28): owning costs USD 81,509.29 per GPU over 36 months whatever the use, plus USD 0.09 per hour of use; renting the same work on on-demand costs USD 6.88 per owned-GPU-hour.",
    );
    // The recorder writes the measured time as 0 (it differs on every machine).
    expect(screen.getByTestId("compare-time").textContent).toBe("computed in 0 ms");
    // The charts plot the points the back end sent (tests/charts.test.ts checks the canvas);
    // their text summary names each line with its last value.
    const summary = screen.getByTestId("chart-cumulative-summary").textContent ?? "";
    expect(summary).toContain("Two DGX H100 for the base, AWS spot and on-demand for bursts (reference):");
    expect(summary).toContain("Reserved H100 for the base, on-demand for bursts:");
    const monthly = () => screen.getByTestId("chart-monthly");
    expect(monthly().textContent).toContain("Two DGX H100 for the base, AWS spot and on-demand for bursts: cash per month by category, USD");
    expect(within(monthly()).getByText("Hardware")).toBeTruthy();
    const hybridCategories = screen.getByTestId("chart-monthly-summary").textContent;
    await fireEvent.click(screen.getByTestId("monthly-pick-all-cloud"));
    expect(screen.getByTestId("chart-monthly-summary").textContent).not.toBe(hybridCategories);
    expect(monthly().textContent).toContain("Reserved H100 for the base, on-demand for bursts: cash per month by category, USD");
    expect(screen.getByTestId("monthly-pick-all-cloud").getAttribute("aria-pressed")).toBe("true");
    await settle(host);
    expect(themes(host).at(-1)).toBe("light");
  });

  it("pins the baseline and sets the horizon through setView, and asks again", async () => {
    const { host } = await openApp(await session());
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await screen.findByTestId("compare-table");
    await settle(host);
    const compares = host.sent("compare").length;
    await fireEvent.click(screen.getByTestId("compare-baseline-all-cloud"));
    await waitFor(() => expect(views(host)).toHaveLength(1));
    await settle(host);
    expect(views(host)[0]).toEqual({ selected: ["hybrid", "all-cloud"], baseline: "all-cloud", horizon_months: null });
    expect(screen.getByTestId("compare-baseline-all-cloud").getAttribute("aria-pressed")).toBe("true");

    for (const n of [12, 24, 36, 60]) {
      await fireEvent.click(screen.getByTestId(`horizon-${n}`));
      await waitFor(() => expect(views(host).at(-1)).toEqual({ selected: ["hybrid", "all-cloud"], baseline: "all-cloud", horizon_months: n }));
      await settle(host);
      expect(screen.getByTestId(`horizon-${n}`).getAttribute("aria-pressed")).toBe("true");
    }
    expect(host.sent("compare").length).toBeGreaterThan(compares);
  });

  it("picks scenarios in order with the keyboard, at most eight", async () => {
    const { host } = await openApp(await session());
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await fireEvent.click(await screen.findByTestId("compare-pick-hybrid"));
    await waitFor(() => expect(views(host).at(-1)).toEqual({ selected: ["all-cloud"], baseline: null, horizon_months: null }));
    await settle(host);
    const picker = screen.getByTestId("compare-picker");
    picker.focus();
    await fireEvent.keyDown(picker, { key: "Home" });
    await fireEvent.keyDown(picker, { key: " " });
    await waitFor(() => expect(views(host).at(-1)).toEqual({ selected: ["all-cloud", "hybrid"], baseline: null, horizon_months: null }));
    await settle(host);
  });

  it("keeps the last table on screen, dimmed, with a progress line when the back end takes longer than 150 ms", async () => {
    const s = await session();
    // The real answer, held back 400 ms on its way to the window (as a slow machine would). The
    // Backend's members are properties (it is the generated commands' type), so the override is one.
    class SlowCompare extends TauriBackend {
      override compare: TauriBackend["compare"] = async (...args) => {
        const answer = await super.compare(...args);
        await new Promise((r) => setTimeout(r, 400));
        return answer;
      };
    }
    const { host } = await openApp({ ...s, backend: new SlowCompare() });
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await screen.findByTestId("compare-table");
    await settle(host);
    await fireEvent.click(screen.getByTestId("horizon-24"));
    await screen.findByTestId("compare-progress");
    expect(screen.getByTestId("compare-table")).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId("compare-progress")).toBeNull());
    await settle(host);
  });

  it("asks for charts in the other theme when the theme changes", async () => {
    const { host } = await openApp(await session());
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await screen.findByTestId("compare-table");
    await settle(host);
    expect(themes(host).at(-1)).toBe("light");
    expect(screen.getByTestId("chart-cumulative").dataset.theme).toBe("light");
    themeState.set("dark");
    await waitFor(() => expect(themes(host).at(-1)).toBe("dark"));
    await settle(host);
    expect(screen.getByTestId("chart-cumulative").dataset.theme).toBe("dark");
  });

  it("exports through the file dialog", async () => {
    const { host } = await openApp(await session({ dialog: { "export-xlsx": "@tmp/cmp.xlsx", "export-csv": "@tmp/ledger.csv" } }));
    await fireEvent.click(screen.getByTestId("tab-compare"));
    await screen.findByTestId("compare-table");
    await settle(host);
    await fireEvent.click(screen.getByTestId("export-xlsx"));
    await waitFor(() => expect(host.sent("export_comparison")).toEqual([{ path: "@tmp/cmp.xlsx", format: "xlsx" }]));
    await settle(host);
    await fireEvent.click(screen.getByTestId("export-ledger-all-cloud"));
    await waitFor(() => expect(host.sent("export_ledger")).toEqual([{ path: "@tmp/ledger.csv", scenario: "all-cloud" }]));
    await settle(host);
    expect(host.sent("choose_file")).toEqual([{ purpose: "export-xlsx" }, { purpose: "export-csv" }]);
    expect(screen.getByTestId("notice").textContent).toContain("@tmp/ledger.csv");
  });
});

describe("10,000 scenarios", () => {
  it("renders only a window of rows and filters fast", async () => {
    // A scenario file with 10,000 one-layer scenarios, made into a workspace as the sample is.
    const file = {
      format_version: 1,
      title: "Ten thousand scenarios",
      currency: "USD",
      start: "2027-01",
      horizon_months: 36,
      discount_rate: "0.08",
      workloads: [],
      scenarios: Array.from({ length: 10_000 }, (_, i) => ({ id: `s-${i}`, name: `Scenario ${i}`, layers: [{ id: "od", kind: "on-demand", offer: "aws-p5-h100" }] })),
    };
    const s = tracked(recorded());
    await s.host.write("@tmp/big.json", JSON.stringify(file));
    await s.host.workspace("@tmp/big.json", "@tmp/big.cpw");
    await s.host.launch("@tmp/big.cpw");
    const { host } = await openApp(s);
    const list = screen.getByTestId("scenario-list");
    expect(list.dataset.rows).toBe("10000");
    const rows = list.querySelectorAll('[data-testid^="scenario-row-"]');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(screen.getByTestId("scenario-count").textContent?.trim()).toBe("10,000 scenarios");

    list.focus();
    await fireEvent.keyDown(list, { key: "End" });
    await waitFor(() => expect(screen.getByTestId("scenario-row-s-9999").getAttribute("aria-selected")).toBe("true"));
    await settle(host);
    expect(list.querySelectorAll('[data-testid^="scenario-row-"]').length).toBeLessThan(60);

    await fireEvent.input(screen.getByTestId("scenario-filter"), { target: { value: "scenario 4242" } });
    expect(screen.getByTestId("scenario-count").textContent?.trim()).toBe("1 of 10,000 scenarios");
    expect(list.querySelectorAll('[data-testid^="scenario-row-"]').length).toBe(1);
    await settle(host);
  });
});

describe("frame", () => {
  it("switches tabs with Ctrl+1..4, lists the shortcuts on ?, and shows the workspace's catalog with its origin", async () => {
    const { backend, host } = await openApp(await session());
    await fireEvent.keyDown(document.body, { key: "1", ctrlKey: true });
    expect(screen.getByTestId("tab-workloads").getAttribute("aria-selected")).toBe("true");
    await screen.findByTestId("workload-row-quarterly-training");
    await settle(host);
    await fireEvent.keyDown(document.body, { key: "?" });
    const help = screen.getByTestId("shortcuts-help");
    expect(help.textContent).toContain("Ctrl+Shift+Z");
    await fireEvent.keyDown(help, { key: "Escape" });
    expect(screen.queryByTestId("shortcuts-help")).toBeNull();
    await fireEvent.keyDown(document.body, { key: "4", ctrlKey: true });
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    await settle(host);
    expect(screen.getByTestId("catalog-note").textContent).toContain("own snapshot");
    // The workspace's snapshot (not the shipped catalog), as the workspace loaded it on opening,
    // and where it came from, asked for once when the tab first shows.
    expect(host.sent("get_catalog")).toHaveLength(0);
    expect(host.sent("workspace_catalog")).toHaveLength(1);
    expect(host.sent("catalog_freshness")).toHaveLength(1);
    const freshness = await backend.catalogFreshness();
    expect(screen.getByTestId("catalog-origin").textContent).toContain(freshness.origin.statement);
    expect(screen.getByTestId("catalog-stale-count").textContent).toContain(`${freshness.stale.length} figures older than 6 months`);
    // Each stale figure the accelerators tab shows is marked, and no other figure is.
    const stale = new Set(freshness.stale.filter((s) => s.kind === "accelerator").map((s) => `fig-${s.entry}-${s.field}`));
    const figures = [...document.querySelectorAll<HTMLElement>("[data-testid^='fig-']")].map((e) => e.dataset.testid!);
    const marked = figures.filter((id) => screen.queryByTestId(`stale-${id}`) !== null);
    expect(marked.length).toBeGreaterThan(0);
    expect(marked).toEqual(figures.filter((id) => stale.has(id)));
  });

  it("adds a workload with an id made from its name", async () => {
    const { host } = await openApp(await session());
    await fireEvent.click(screen.getByTestId("tab-workloads"));
    await fireEvent.click(await screen.findByTestId("add-workload"));
    await settle(host);
    await fireEvent.input(input("new-workload-name"), { target: { value: "Support chatbot" } });
    await settle(host);
    // The id the engine will give it, shown as it is named.
    expect(screen.getByText("support-chatbot", { selector: ".f-hint .mono" })).toBeTruthy();
    await fireEvent.click(screen.getByTestId("new-workload-create"));
    await screen.findByTestId("workload-row-support-chatbot");
    await settle(host);
    expect(edits(host).at(-1)).toMatchObject({ label: "New workload Support chatbot", coalesce: null, edit: { kind: "put-workload", workload: { id: "support-chatbot", name: "Support chatbot" } } });
    expect(screen.getByTestId("workload-id").textContent).toBe("support-chatbot");
  });

  it("offers a newer shipped catalog, updates it as an undo step, and offers it again after undo", async () => {
    const { backend, host } = tracked(recorded());
    // The workspace is made with the catalog 2026.11.0 as the repository ships it; a day later the
    // app ships the same catalog with its fabrics file raised to 2026.12.0.
    await host.workspace(SAMPLE, ENTERPRISE);
    await host.advance(24 * 3600 * 1000);
    const fabrics = readFileSync(resolve(REPO, "catalogs/fabrics.toml"), "utf8");
    expect(fabrics).toContain('version = "2026.11.0"');
    await host.copy("@repo/catalogs", "@tmp/newer");
    await host.write("@tmp/newer/fabrics.toml", fabrics.replace('version = "2026.11.0"', 'version = "2026.12.0"'));
    await host.catalog("@tmp/newer");
    await host.launch(ENTERPRISE);
    await openApp({ backend, host });
    const notice = screen.getByTestId("catalog-notice");
    expect(notice.textContent).toContain("The app ships catalog 2026.12.0; this workspace computes with 2026.11.0 (taken 2026-11-23 09:00 UTC)");
    expect(notice.textContent).toContain("undo");
    await fireEvent.click(screen.getByTestId("catalog-update"));
    await waitFor(() => expect(screen.queryByTestId("catalog-notice")).toBeNull());
    await settle(host);
    expect(host.sent("update_catalog")).toHaveLength(1);
    expect(screen.getByTestId("undo").getAttribute("title")).toContain("Update catalog 2026.11.0 → 2026.12.0");
    await fireEvent.click(screen.getByTestId("undo"));
    await screen.findByTestId("catalog-notice");
    await settle(host);
    expect(screen.getByTestId("catalog-notice").textContent).toContain("The app ships catalog 2026.12.0; this workspace computes with 2026.11.0");
  });

  it("closes the workspace after pending edits, back to the start screen", async () => {
    const { host } = await openApp(await session());
    await fireEvent.input(await screen.findByTestId("scenario-name"), { target: { value: "Last edit" } });
    await fireEvent.click(screen.getByTestId("menu"));
    await fireEvent.click(screen.getByTestId("menu-close"));
    await screen.findByTestId("start-screen");
    await settle(host);
    const order = host.calls.map((c) => c.command).filter((m) => m === "apply_edit" || m === "close_workspace");
    expect(order).toEqual(["apply_edit", "close_workspace"]);
    expect(edits(host)[0]).toMatchObject({ label: "Edit Last edit: name", coalesce: "hybrid.name" });
    expect(screen.getByTestId("recent-0").textContent).toContain("Enterprise hybrid");
  });
});

describe("keyboard", () => {
  it("Ctrl+N opens the new-scenario menu on the first template; arrows and Enter choose", async () => {
    const { host } = await openApp(await session());
    await fireEvent.click(screen.getByTestId("tab-workloads"));
    await settle(host);
    await fireEvent.keyDown(document.body, { key: "n", ctrlKey: true });
    const first = await screen.findByTestId("new-menu-buy");
    expect(screen.getByTestId("tab-scenarios").getAttribute("aria-selected")).toBe("true");
    await waitFor(() => expect(document.activeElement).toBe(first));
    await settle(host);
    await fireEvent.keyDown(first, { key: "ArrowDown" });
    await fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByTestId("new-menu-hybrid"));
    await fireEvent.click(document.activeElement!);
    await screen.findByTestId("scenario-row-hybrid-8-nvidia-h100-sxm5-owned-on-demand-aws");
    await settle(host);
    const put = edits(host).at(-1)!;
    expect((put.edit as { scenario: ScenarioSpec }).scenario.layers.map((l) => l.kind)).toEqual(["owned", "on-demand"]);
  });

  it("/ focuses the list filter of the screen on view; Escape clears it", async () => {
    const { host } = await openApp(await session());
    await fireEvent.keyDown(document.body, { key: "/" });
    const filter = input("scenario-filter");
    expect(document.activeElement).toBe(filter);
    await fireEvent.input(filter, { target: { value: "reserved" } });
    expect(screen.queryByTestId("scenario-row-hybrid")).toBeNull();
    expect(screen.getByTestId("scenario-row-all-cloud")).toBeTruthy();
    await fireEvent.keyDown(filter, { key: "Escape" });
    expect(filter.value).toBe("");
    await screen.findByTestId("scenario-row-hybrid");
    await settle(host);
    await fireEvent.keyDown(document.body, { key: "3", ctrlKey: true });
    await screen.findByTestId("compare-table");
    await settle(host);
    await fireEvent.keyDown(document.body, { key: "/" });
    expect(document.activeElement).toBe(screen.getByTestId("compare-filter"));
  });

  it("edits the settings in the panel, saved as one step per field", async () => {
    const { host } = await openApp(await session());
    await fireEvent.click(screen.getByTestId("settings-open"));
    const panel = screen.getByTestId("settings-panel");
    const discount = within(panel).getByTestId("settings-discount") as HTMLInputElement;
    expect(discount.value).toBe("8");
    await type(host, discount, "7.5");
    await waitFor(() => expect(edits(host).at(-1)?.edit).toEqual({ kind: "settings", settings: expect.objectContaining({ discount_rate: "0.075" }) }));
    expect(new Set(edits(host).map((e) => e.coalesce))).toEqual(new Set(["settings.discount_rate"]));
    await waitFor(() => expect(screen.getByTestId("undo").getAttribute("title")).toBe("Undo: Edit settings: discount rate (Ctrl+Z)"));
    // "7" and "7.5" went out ("7." reads as the 7 already sent), both under one coalesce key.
    expect(edits(host).map((e) => (e.edit as { settings: { discount_rate: string } }).settings.discount_rate)).toEqual(["0.07", "0.075"]);
    await fireEvent.keyDown(panel, { key: "Escape" });
    expect(screen.queryByTestId("settings-panel")).toBeNull();
    await settle(host);
  });
});
