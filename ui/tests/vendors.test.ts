// The Vendors tab, in jsdom over the FakeBackend holding the enterprise-hybrid workspace; the
// quote preview, the refusal and the scorecard screen are the engine's own answers
// (fixtures/vendors.ts, printed by planner-store's tests/vendors.rs `ui_fixture`).

import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { BackendError } from "../src/lib/backend";
import App from "../src/lib/components/App.svelte";
import type { FakeBackend, FakeOptions } from "../src/lib/ipc/fake-backend";
import { themeState } from "../src/lib/theme-state.svelte";
import { columnLetters, importProblems, vendorProblems } from "../src/lib/vendors/vendors";
import type { EditRequest, ScorecardDraft } from "../src/lib/workspace-types";
import { QUOTE_PREVIEW, QUOTE_REFUSAL, SCORECARD_DRAFT, SCORECARD_VIEW } from "./fixtures/vendors";
import { ehWorkspace, workspaceBackend } from "./support/workspace";

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

/** The broken quote file, as the refusal names it. */
const BROKEN = QUOTE_REFUSAL.details[0]!.file!;

function vendorsBackend(scorecard: Partial<ScorecardDraft> | undefined, options: FakeOptions = {}): FakeBackend {
  return workspaceBackend({
    workspace: ehWorkspace({ scorecard }),
    dialog: { "import-quotes": "/home/ana/rfp/good.csv" },
    quoteFiles: {
      "/home/ana/rfp/good.csv": { preview: QUOTE_PREVIEW },
      [BROKEN]: { error: QUOTE_REFUSAL },
    },
    ...options,
  });
}

async function openVendors(backend: FakeBackend) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "7", ctrlKey: true });
  expect(screen.getByTestId("tab-vendors").getAttribute("aria-selected")).toBe("true");
  await screen.findByTestId("vendors-screen");
  return backend;
}

const field = (id: string) => screen.getByTestId(id) as HTMLInputElement;
const scorecardEdits = (b: FakeBackend) =>
  b
    .callsTo("applyEdit")
    .map((a) => a[0] as EditRequest)
    .filter((r) => r.edit.kind === "scorecard");

describe("vendor logic", () => {
  it("names spreadsheet columns by their letters", () => {
    expect([1, 7, 19, 26, 27, 52, 703].map(columnLetters)).toEqual(["A", "G", "S", "Z", "AA", "AZ", "AAA"]);
  });

  it("reads an import refusal as problems located to row and column", () => {
    const problems = importProblems(new BackendError(QUOTE_REFUSAL));
    expect(problems.length).toBe(QUOTE_REFUSAL.details.length);
    for (const [i, p] of problems.entries()) {
      const d = QUOTE_REFUSAL.details[i]!;
      expect(p.row).toBe(d.line);
      expect(p.where).toBe(`row ${d.line}, column ${columnLetters(d.column!)}`);
      expect(p.field).toBe(d.field);
    }
  });

  it("keys the scorecard's problems by vendor and field", () => {
    const view = { ...SCORECARD_VIEW, vendors: [{ ...SCORECARD_VIEW.vendors[0]!, problems: [{ field: "vendors[0].mfu", message: "the measured MFU is missing" }] }] };
    expect(vendorProblems(view, 0)).toEqual({ mfu: ["the measured MFU is missing"] });
    expect(vendorProblems(view, 1)).toEqual({});
  });
});

describe("RFP quote import", () => {
  it("previews every quote in the workspace's currency, imports it as one step with a scenario per vendor, and undo takes it back", async () => {
    const backend = await openVendors(vendorsBackend(undefined));
    expect(screen.getByTestId("quote-template-csv").textContent).toBe("catalogs/templates/rfp-quotes.csv");
    expect((screen.getByTestId("quotes-base") as HTMLSelectElement).value).toBe("hybrid");
    await fireEvent.click(screen.getByTestId("quotes-choose"));
    const preview = await screen.findByTestId("quotes-preview");
    const rows = within(preview).getAllByTestId("quote-row");
    expect(rows).toHaveLength(4);
    const prices = within(preview).getAllByTestId("quote-price").map((e) => e.textContent?.replace(/\s+/g, " ").trim());
    // The EUR spot quote shown in dollars at the workspace's rate (1.80 × 1.08).
    expect(prices).toEqual(["$2.95/GPU-h", "$4.10/GPU-h", "$1.944/GPU-h (EUR)", "$31,500.00/GPU"]);
    expect(rows[0]!.textContent).toContain("99.9 %");
    expect(backend.callsTo("previewQuotes")).toEqual([["/home/ana/rfp/good.csv"]]);

    await fireEvent.click(screen.getByTestId("quotes-import"));
    await waitFor(() => expect(backend.callsTo("importQuotes")).toEqual([["/home/ana/rfp/good.csv", "hybrid"]]));
    await waitFor(() => expect(screen.getByTestId("notice").textContent).toContain("Imported 4 quotes from 3 vendors"));
    expect(backend.state?.scenarios.map((s) => s.id)).toEqual([
      "hybrid",
      "all-cloud",
      "hybrid-nimbus-gpu",
      "hybrid-spotty-compute",
      "hybrid-rackwell-systems",
    ]);
    expect(screen.getByTestId("tab-scenarios").textContent).toContain("5");
    // The vendors appear on the scorecard with the weakest SLA terms of their quotes.
    await waitFor(() => expect(field("vendor-0-name").value).toBe("Nimbus GPU"));
    expect(field("vendor-0-sla").value).toBe("99.5");
    expect(field("vendor-0-refund").value).toBe("5");
    expect(field("vendor-2-response").value).toBe("24");
    expect((screen.getByTestId("vendor-0-scenario") as HTMLSelectElement).value).toBe("hybrid-nimbus-gpu");
    expect(screen.getByTestId("undo").getAttribute("title")).toBe("Undo: Import quotes good.csv (4 quotes, 3 vendors) (Ctrl+Z)");

    await fireEvent.click(screen.getByTestId("undo"));
    await waitFor(() => expect(screen.queryByTestId("vendor-0")).toBeNull());
    expect(backend.state?.scenarios).toHaveLength(2);
  });

  it("lists every problem of a refused file by row and column and offers no import", async () => {
    const backend = await openVendors(vendorsBackend(undefined, { dialog: { "import-quotes": BROKEN } }));
    await fireEvent.click(screen.getByTestId("quotes-choose"));
    const list = await screen.findByTestId("quotes-problems");
    expect(list.textContent).toContain("nothing was imported");
    const items = within(list).getAllByTestId("quotes-problem");
    expect(items).toHaveLength(QUOTE_REFUSAL.details.length);
    const first = QUOTE_REFUSAL.details[0]!;
    expect(items[0]!.textContent).toContain(`row ${first.line}, column ${columnLetters(first.column!)}`);
    expect(items[0]!.textContent).toContain(first.message);
    expect(screen.queryByTestId("quotes-import")).toBeNull();
    expect(backend.callsTo("importQuotes")).toEqual([]);
  });

  it("names the sheet of a workbook the quotes were read from", async () => {
    const workbook = "/home/ana/rfp/good.xlsx";
    const sheet = 'the sheet "Quotes" (the first visible sheet whose header row matches the template; not read: "Notes")';
    await openVendors(
      vendorsBackend(undefined, {
        dialog: { "import-quotes": workbook },
        quoteFiles: { [workbook]: { preview: { ...QUOTE_PREVIEW, file: workbook, sheet } } },
      }),
    );
    await fireEvent.click(screen.getByTestId("quotes-choose"));
    const preview = await screen.findByTestId("quotes-preview");
    expect(within(preview).getByTestId("quotes-sheet").textContent).toBe(`Read from ${sheet}.`);
  });

  it("shows no sheet line for a CSV file", async () => {
    await openVendors(vendorsBackend(undefined));
    await fireEvent.click(screen.getByTestId("quotes-choose"));
    const preview = await screen.findByTestId("quotes-preview");
    expect(within(preview).queryByTestId("quotes-sheet")).toBeNull();
  });
});

describe("vendor scorecard", () => {
  it("shows the engine's ranking with per-axis scores and the stability in words", async () => {
    await openVendors(vendorsBackend(SCORECARD_DRAFT, { scorecardView: () => SCORECARD_VIEW }));
    const ranking = await screen.findByTestId("ranking");
    const rows = within(ranking).getAllByTestId("ranking-row");
    expect(rows.map((r) => r.querySelector("th")?.textContent?.trim())).toEqual(["Alpha", "Beta", "Gamma"]);
    // Every scenario serves the whole demand: no vendor is marked partial.
    expect(within(ranking).queryAllByTestId("ranking-unmet")).toEqual([]);
    expect(within(ranking).getAllByTestId("ranking-score").map((e) => e.textContent)).toEqual(["0.8", "0.7", "0"]);
    expect(within(ranking).getAllByTestId("ranking-service").map((e) => e.textContent)).toEqual(["0", "1", "0"]);
    expect(screen.getByTestId("stability").textContent).toContain(
      "Moving 6.7 points of weight from performance to service would put Beta level with Alpha on top",
    );
    expect(screen.getByTestId("weight-share-performance").textContent).toBe("60 %");
    // Gamma has no checklist review: it says so rather than show a share.
    expect(screen.getByTestId("vendor-2-compliance").textContent).toContain("not reviewed");
    expect(screen.getByTestId("vendor-0-compliance").textContent).toContain("100 %");
    expect(screen.getByTestId("vendor-0-tco").textContent).toMatch(/^\$[\d,]+\.\d\d$/);
  });

  it("saves a weight as typed, coalesced per axis, and asks the engine again", async () => {
    const backend = await openVendors(vendorsBackend(SCORECARD_DRAFT, { scorecardView: () => SCORECARD_VIEW }));
    await screen.findByTestId("ranking");
    const before = backend.callsTo("scorecardView").length;
    const cost = field("weight-cost");
    cost.focus();
    await fireEvent.input(cost, { target: { value: "1" } });
    await fireEvent.input(cost, { target: { value: "15" } });
    await waitFor(() => expect(backend.state?.scorecard.weights.cost).toBe("15"));
    const sent = scorecardEdits(backend);
    for (const r of sent) expect(r).toMatchObject({ label: "Edit scorecard: weights.cost", coalesce: "scorecard:weights.cost" });
    expect(backend.state?.undo.filter((s) => s.label === "Edit scorecard: weights.cost")).toHaveLength(1);
    await waitFor(() => expect(backend.callsTo("scorecardView").length).toBeGreaterThan(before));
  });

  it("adds a vendor, saves its measured MFU as a fraction, and removes it", async () => {
    const backend = await openVendors(vendorsBackend(undefined));
    expect(screen.getByTestId("ranking-none").textContent).toContain("No vendors yet");
    await fireEvent.click(screen.getByTestId("vendor-add"));
    await waitFor(() => expect(backend.state?.scorecard.vendors.map((v) => v.name)).toEqual(["Vendor 1"]));
    const mfu = await screen.findByTestId("vendor-0-mfu");
    (mfu as HTMLInputElement).focus();
    await fireEvent.input(mfu, { target: { value: "42" } });
    await waitFor(() => expect(backend.state?.scorecard.vendors[0]?.mfu).toBe("0.42"));
    await fireEvent.click(screen.getByTestId("vendor-0-remove"));
    await waitFor(() => expect(backend.state?.scorecard.vendors).toEqual([]));
  });
});
