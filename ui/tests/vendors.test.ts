// The Vendors tab, in jsdom over recorded answers of the real use cases (tests/support/recorded.ts)
// on the enterprise-hybrid workspace: the quote preview and its refusal are the store's reading of
// quote files the test writes where the user picks them, the import is the store's (one scenario
// per vendor, one undo step), and the scorecard is the engine's ranking of vendors entered here.

import { afterEach, describe, expect, it, vi } from "vitest";
import { configure, fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { BackendError } from "../src/lib/backend";
import App from "../src/lib/components/App.svelte";
import type { TauriBackend } from "../src/lib/ipc/tauri-backend";
import { themeState } from "../src/lib/theme-state.svelte";
import { columnLetters, importProblems, vendorProblems } from "../src/lib/vendors/vendors";
import type { EditRequest, ScorecardDraft } from "../src/lib/workspace-types";
import type { RecordedSession } from "./support/recorded";
import { enterpriseSession } from "./support/sessions";

// Recording waits for the real back end (an engine run per answer): give the screens time. Replay
// answers at once, so this only matters when recording.
configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 120_000 });

afterEach(() => {
  themeState.set("system");
  localStorage.clear();
});

const HEADER =
  "vendor,quote_id,offer_kind,accelerator,gpus,currency,price_per_gpu_hour,hardware_price_per_gpu,installation,support_rate_per_year,lead_time_months,commitment_months,interruptions_per_hour,egress_per_tb,sla_uptime,sla_refund_share,response_hours,valid_until,notes";

/** An RFP answer as a buyer fills in the shipped template: four quotes from three vendors, one in EUR. */
const GOOD = "@tmp/rfp/good.csv";
const GOOD_CSV = [
  " Vendor , Quote ID,Offer-Kind,accelerator,gpus,currency,price_per_gpu_hour,hardware_price_per_gpu,installation,support_rate_per_year,lead_time_months,commitment_months,interruptions_per_hour,egress_per_tb,sla_uptime,sla_refund_share,response_hours,valid_until,notes",
  'Nimbus GPU,NG-2027-014,reserved,nvidia-h100-sxm,16,USD,2.95,,,,1,36,,0,99.9%,10%,4,2027-03-31,"3-year term, billed monthly"',
  "Nimbus GPU,NG-2027-015,on-demand,nvidia-h100-sxm,,USD,4.10,,,,,,,0,0.995,0.05,4,2027-03-31,",
  "Spotty Compute,SC-7,spot,nvidia-h100-sxm,64,EUR,1.80,,,,,,0.1,,,,,2027-01-15,",
  "Rackwell Systems,RW-Q-88,owned,nvidia-h100-sxm,16,USD,,31500,20000,12%,4,,,,,,24,2027-02-28,",
  "",
].join("\n");

/** The same answer with a bad cell in each row: a word for a count, a currency sign, a day-first date. */
const BROKEN = "@tmp/rfp/wrong-types.csv";
const BROKEN_CSV = [
  HEADER,
  "Nimbus GPU,NG-2027-014,reserved,nvidia-h100-sxm,sixteen,USD,2.95,,,,1,36,,0,99.9%,10%,4,2027-03-31,",
  "Nimbus GPU,NG-2027-015,on-demand,nvidia-h100-sxm,,USD,$4.10,,,,,,,0,0.995,0.05,4,2027-03-31,",
  "Rackwell Systems,RW-Q-88,owned,nvidia-h100-sxm,16,USD,,31500,20000,12%,4,,,,,,24,31/03/2027,",
  "",
].join("\n");

/** The buyer's scorecard: three vendors priced on the `hybrid` scenario, weights 60/0/0/20/20. */
const SCORECARD: ScorecardDraft = {
  weights: { performance: "60", reliability: "0", cost: "0", service: "20", compliance: "20" },
  vendors: [
    { name: "Alpha", scenario: "hybrid", mfu: "0.5", annual_failure_rate: "0.02", sla: "0.999", sla_refund_share: "0.1", response_hours: "4", expert_hours_per_month: "0", exit_terms_stated: null },
    { name: "Beta", scenario: "hybrid", mfu: "0.4", annual_failure_rate: "0.02", sla: "0.999", sla_refund_share: "0.1", response_hours: "1", expert_hours_per_month: "20", exit_terms_stated: null },
    { name: "Gamma", scenario: "hybrid", mfu: "0.3", annual_failure_rate: "0.02", sla: "0.999", sla_refund_share: "0.1", response_hours: "4", expert_hours_per_month: "0", exit_terms_stated: null },
  ],
};

/** The enterprise workspace with the quote files in place (`pick`: what the file dialog answers). */
async function vendorsSession(pick: string = GOOD) {
  const session = await enterpriseSession({ dialog: { "import-quotes": pick } });
  // The sample is in USD and has no EUR rate; the buyer enters one so the EUR quote converts.
  const info = (await session.backend.session()).workspace!;
  const fx = [...info.settings.fx, { base: "EUR", quote: "USD", currency: null, rate: "1.08", source: "ECB reference rate 2026-11-20" }];
  await session.backend.applyEdit({ edit: { kind: "settings", settings: { ...info.settings, fx } }, label: "Exchange rate EUR", coalesce: null });
  await session.host.write(GOOD, GOOD_CSV);
  await session.host.write(BROKEN, BROKEN_CSV);
  return session;
}

/**
 * The scorecard above entered before the screen opens, and the D-1 reviews behind its compliance
 * axis: Alpha passed on every item that applies to a vendor and signed off, Beta passed on the
 * blocking items only and signed off, Gamma never reviewed. The items are the shipped template's,
 * as the back end lists them.
 */
async function scorecardSession() {
  const session = await vendorsSession();
  const { backend } = session;
  await backend.applyEdit({ edit: { kind: "scorecard", scorecard: SCORECARD }, label: "Scorecard", coalesce: null });
  const items = (await backend.checklist({ kind: "vendor", id: "Alpha" })).items;
  const blocking = items.filter((i) => i.blocking);
  expect(blocking.length).toBeLessThan(items.length);
  const reviewed: [string, string[]][] = [
    ["Alpha", items.map((i) => i.id)],
    ["Beta", blocking.map((i) => i.id)],
  ];
  for (const [vendor, passed] of reviewed) {
    const subject = { kind: "vendor", id: vendor } as const;
    for (const item of passed) {
      await backend.answerChecklistItem(subject, { item, status: "pass", note: "seen in the RFP answer", reviewer: "Dana Reviewer" }, []);
    }
    const signed = await backend.signOffChecklist(subject, "Dana Reviewer", "", null);
    expect(signed.clearance.cleared).toBe(true);
  }
  return { ...session, items, blocking };
}

async function openVendors({ backend }: { backend: TauriBackend }) {
  render(App, { props: { backend, locale: "en-US" } });
  await screen.findByTestId("ws-title");
  await fireEvent.keyDown(document.body, { key: "7", ctrlKey: true });
  expect(screen.getByTestId("tab-vendors").getAttribute("aria-selected")).toBe("true");
  await screen.findByTestId("vendors-screen");
  // The screen asks for the draft, the quote template and the scorecard when it opens.
  await screen.findByTestId("weights");
  await screen.findByTestId("quote-template-csv");
  await waitFor(() => expect(screen.queryByTestId("ranking") ?? screen.queryByTestId("ranking-none")).not.toBeNull());
  await waitFor(() => expect(screen.getByRole("region", { name: /^Ranking/ }).getAttribute("aria-busy")).toBe("false"));
}

const field = (id: string) => screen.getByTestId(id) as HTMLInputElement;
const scorecardEdits = (host: RecordedSession) =>
  host
    .sent("apply_edit")
    .map((a) => a.request as EditRequest)
    .filter((r) => r.edit.kind === "scorecard");
const lastScorecard = (host: RecordedSession) => {
  const edit = scorecardEdits(host).at(-1)?.edit;
  return edit?.kind === "scorecard" ? edit.scorecard : null;
};

describe("vendor logic", () => {
  it("names spreadsheet columns by their letters", () => {
    expect([1, 7, 19, 26, 27, 52, 703].map(columnLetters)).toEqual(["A", "G", "S", "Z", "AA", "AZ", "AAA"]);
  });

  it("reads an import refusal as problems located to row and column", async () => {
    const { backend } = await vendorsSession();
    const refusal = await backend.previewQuotes(BROKEN).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(BackendError);
    const error = (refusal as BackendError).error;
    expect(error.code).toBe("invalid-input");
    expect(error.details).toHaveLength(3);
    const problems = importProblems(refusal);
    expect(problems.length).toBe(error.details.length);
    for (const [i, p] of problems.entries()) {
      const d = error.details[i]!;
      expect(p.row).toBe(d.line);
      expect(p.where).toBe(`row ${d.line}, column ${columnLetters(d.column!)}`);
      expect(p.field).toBe(d.field);
    }
    // The cells written wrong above, each found where it is.
    expect(problems.map((p) => [p.where, p.field])).toEqual([
      ["row 2, column E", "gpus"],
      ["row 3, column G", "price_per_gpu_hour"],
      ["row 4, column R", "valid_until"],
    ]);
  });

  it("keys the scorecard's problems by vendor and field", async () => {
    const { backend } = await vendorsSession();
    // A vendor entered without its measured MFU, next to one with every figure.
    const draft: ScorecardDraft = { ...SCORECARD, vendors: [{ ...SCORECARD.vendors[0]!, mfu: null }, SCORECARD.vendors[1]!] };
    await backend.applyEdit({ edit: { kind: "scorecard", scorecard: draft }, label: "Scorecard", coalesce: null });
    const view = await backend.scorecardView();
    expect(view.vendors[0]!.problems.map((p) => p.field)).toEqual(["vendors[0].mfu"]);
    expect(vendorProblems(view, 0)).toEqual({ mfu: [view.vendors[0]!.problems[0]!.message] });
    expect(vendorProblems(view, 0).mfu![0]).toMatch(/MFU/);
    expect(vendorProblems(view, 1)).toEqual({});
  });
});

describe("RFP quote import", () => {
  it("previews every quote in the workspace's currency, imports it as one step with a scenario per vendor, and undo takes it back", async () => {
    const session = await vendorsSession();
    const { host } = session;
    await openVendors(session);
    expect(screen.getByTestId("quote-template-csv").textContent).toBe("@repo/catalogs/templates/rfp-quotes.csv");
    expect((screen.getByTestId("quotes-base") as HTMLSelectElement).value).toBe("hybrid");
    expect(screen.getByTestId("tab-scenarios").textContent).toContain("2");
    await fireEvent.click(screen.getByTestId("quotes-choose"));
    const preview = await screen.findByTestId("quotes-preview");
    const rows = within(preview).getAllByTestId("quote-row");
    expect(rows).toHaveLength(4);
    const prices = within(preview).getAllByTestId("quote-price").map((e) => e.textContent?.replace(/\s+/g, " ").trim());
    // The EUR spot quote shown in dollars at the workspace's rate (1.80 × 1.08).
    expect(prices).toEqual(["$2.95/GPU-h", "$4.10/GPU-h", "$1.944/GPU-h (EUR)", "$31,500.00/GPU"]);
    expect(rows[0]!.textContent).toContain("99.9 %");
    expect(host.sent("choose_file")).toEqual([{ purpose: "import-quotes" }]);
    expect(host.sent("preview_quotes")).toEqual([{ path: GOOD }]);

    await fireEvent.click(screen.getByTestId("quotes-import"));
    await waitFor(() => expect(host.sent("import_quotes")).toEqual([{ path: GOOD, base: "hybrid" }]));
    await waitFor(() => expect(screen.getByTestId("notice").textContent).toContain("Imported 4 quotes from 3 vendors"));
    await waitFor(() => expect(screen.getByTestId("tab-scenarios").textContent).toContain("5"));
    // The vendors appear on the scorecard with the weakest SLA terms of their quotes.
    await waitFor(() => expect(field("vendor-0-name").value).toBe("Nimbus GPU"));
    expect(field("vendor-0-sla").value).toBe("99.5");
    expect(field("vendor-0-refund").value).toBe("5");
    expect(field("vendor-2-response").value).toBe("24");
    expect((screen.getByTestId("vendor-0-scenario") as HTMLSelectElement).value).toBe("hybrid-nimbus-gpu");
    expect([...(screen.getByTestId("vendor-0-scenario") as HTMLSelectElement).options].map((o) => o.value)).toEqual(
      expect.arrayContaining(["hybrid", "all-cloud", "hybrid-nimbus-gpu", "hybrid-spotty-compute", "hybrid-rackwell-systems"]),
    );
    expect(screen.getByTestId("undo").getAttribute("title")).toBe("Undo: Import quotes good.csv (4 quotes, 3 vendors) (Ctrl+Z)");

    await fireEvent.click(screen.getByTestId("undo"));
    await waitFor(() => expect(screen.queryByTestId("vendor-0")).toBeNull());
    await waitFor(() => expect(screen.getByTestId("tab-scenarios").textContent).toContain("2"));
    expect(host.sent("undo")).toHaveLength(1);
  });

  it("lists every problem of a refused file by row and column and offers no import", async () => {
    const session = await vendorsSession(BROKEN);
    await openVendors(session);
    await fireEvent.click(screen.getByTestId("quotes-choose"));
    const list = await screen.findByTestId("quotes-problems");
    expect(list.textContent).toContain("nothing was imported");
    const items = within(list).getAllByTestId("quotes-problem");
    expect(items).toHaveLength(3);
    expect(items.map((i) => [i.dataset.row, i.dataset.column])).toEqual([
      ["2", "5"],
      ["3", "7"],
      ["4", "18"],
    ]);
    expect(items[0]!.textContent).toContain("row 2, column E");
    expect(items[0]!.textContent).toContain("`sixteen` is not a whole number");
    expect(items[1]!.textContent).toContain("`$4.10` is not a number");
    expect(items[2]!.textContent).toContain("`31/03/2027` is not a date");
    expect(screen.queryByTestId("quotes-import")).toBeNull();
    expect(session.host.sent("preview_quotes")).toEqual([{ path: BROKEN }]);
    expect(session.host.sent("import_quotes")).toEqual([]);
  });

  it("names the sheet of a workbook the quotes were read from", async () => {
    // Not produced for real: a workbook is a zip archive, the host's `write` puts UTF-8 text only,
    // and the repository ships no .xlsx quote file to `copy`; so no real answer has a `sheet` to
    // show. The smallest honest part that is real: a file named .xlsx that is not a workbook is
    // refused by the store, with the refusal shown, no preview and so no sheet line.
    const workbook = "@tmp/rfp/good.xlsx";
    const session = await vendorsSession(workbook);
    await session.host.write(workbook, GOOD_CSV);
    await openVendors(session);
    await fireEvent.click(screen.getByTestId("quotes-choose"));
    const list = await screen.findByTestId("quotes-problems");
    expect(list.textContent).toContain("good.xlsx");
    expect(screen.queryByTestId("quotes-preview")).toBeNull();
    expect(screen.queryByTestId("quotes-sheet")).toBeNull();
    expect(screen.queryByTestId("quotes-import")).toBeNull();
    expect(session.host.sent("preview_quotes")).toEqual([{ path: workbook }]);
  });

  it("marks a quote whose validity has ended by the day of the preview as expired", async () => {
    const session = await vendorsSession();
    // From 2026-11-23 09:00 to 2027-01-16 09:00 (UTC): Spotty Compute's quote was valid until 2027-01-15.
    await session.host.advance(54 * 24 * 3_600_000);
    await openVendors(session);
    await fireEvent.click(screen.getByTestId("quotes-choose"));
    const preview = await screen.findByTestId("quotes-preview");
    const rows = within(preview).getAllByTestId("quote-row");
    const expired = rows.map((r) => [(r as HTMLTableRowElement).cells[1]?.textContent, within(r).queryByTestId("quote-expired") !== null]);
    expect(expired).toEqual([
      ["NG-2027-014", false],
      ["NG-2027-015", false],
      ["SC-7", true],
      ["RW-Q-88", false],
    ]);
  });

  it("shows no sheet line for a CSV file", async () => {
    await openVendors(await vendorsSession());
    await fireEvent.click(screen.getByTestId("quotes-choose"));
    const preview = await screen.findByTestId("quotes-preview");
    expect(within(preview).getAllByTestId("quote-row")).toHaveLength(4);
    expect(within(preview).queryByTestId("quotes-sheet")).toBeNull();
  });
});

describe("vendor scorecard", () => {
  it("shows the engine's ranking with per-axis scores and the stability in words", async () => {
    const session = await scorecardSession();
    await openVendors(session);
    const ranking = await screen.findByTestId("ranking");
    const rows = within(ranking).getAllByTestId("ranking-row");
    expect(rows.map((r) => r.querySelector("th")?.textContent?.trim())).toEqual(["Alpha", "Beta", "Gamma"]);
    // Every scenario serves the whole demand: no vendor is marked partial.
    expect(within(ranking).queryAllByTestId("ranking-unmet")).toEqual([]);
    expect(within(ranking).getAllByTestId("ranking-score").map((e) => e.textContent)).toEqual(["0.8", "0.61", "0"]);
    // Compliance counts the share passed of a cleared vendor: Alpha all, Beta the blocking items
    // (11 of the 20 items that apply to a vendor), Gamma nothing.
    expect(within(ranking).getAllByTestId("ranking-compliance").map((e) => e.textContent)).toEqual(["1", "0.55", "0"]);
    expect(within(ranking).getAllByTestId("ranking-service").map((e) => e.textContent)).toEqual(["0", "1", "0"]);
    expect(screen.getByTestId("stability").textContent).toContain(
      // Alpha 0.8 − x against Beta 0.61 + 0.5x (performance 1 and 0.5, service 0 and 1): x = 0.19 ÷ 1.5.
      "Moving 12.7 points of weight from performance to service would put Beta level with Alpha on top",
    );
    expect(screen.getByTestId("weight-share-performance").textContent).toBe("60 %");
    // Gamma has no checklist review: it says so rather than show a share.
    expect(screen.getByTestId("vendor-2-compliance").textContent).toContain("not reviewed");
    expect(screen.getByTestId("vendor-0-compliance").textContent).toContain("100 %");
    expect(screen.getByTestId("vendor-1-compliance").textContent).toContain(`${Math.round((1000 * session.blocking.length) / session.items.length) / 10} %`);
    // Every vendor is priced on the same scenario, so the engine gives each the same total.
    expect(["vendor-0-tco", "vendor-1-tco", "vendor-2-tco"].map((id) => screen.getByTestId(id).textContent)).toEqual(["$2,073,591.89", "$2,073,591.89", "$2,073,591.89"]);
  });

  it("saves a weight as typed, coalesced per axis, and asks the engine again", async () => {
    const session = await scorecardSession();
    const { host } = session;
    await openVendors(session);
    await screen.findByTestId("ranking");
    const before = host.sent("scorecard_view").length;
    const edits = scorecardEdits(host).length;
    const cost = field("weight-cost");
    cost.focus();
    await fireEvent.input(cost, { target: { value: "1" } });
    await fireEvent.input(cost, { target: { value: "15" } });
    await waitFor(() => expect(lastScorecard(host)?.weights.cost).toBe("15"));
    const sent = scorecardEdits(host).slice(edits);
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) expect(r).toMatchObject({ label: "Edit scorecard: weights.cost", coalesce: "scorecard:weights.cost" });
    await waitFor(() => expect(host.sent("scorecard_view").length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.getByTestId("weight-share-performance").textContent).toBe("52.2 %"));
    // The keystrokes are one undo step: one undo brings the weight back to what it was.
    expect(screen.getByTestId("undo").getAttribute("title")).toBe("Undo: Edit scorecard: weights.cost (Ctrl+Z)");
    cost.blur();
    await fireEvent.click(screen.getByTestId("undo"));
    await waitFor(() => expect(field("weight-cost").value).toBe("0"));
    expect(host.sent("undo")).toHaveLength(1);
  });

  it("adds a vendor, saves its measured MFU as a fraction, and removes it", async () => {
    const session = await vendorsSession();
    const { host } = session;
    await openVendors(session);
    expect(screen.getByTestId("ranking-none").textContent).toContain("No vendors yet");
    await fireEvent.click(screen.getByTestId("vendor-add"));
    await waitFor(() => expect(lastScorecard(host)?.vendors.map((v) => v.name)).toEqual(["Vendor 1"]));
    const mfu = await screen.findByTestId("vendor-0-mfu");
    (mfu as HTMLInputElement).focus();
    await fireEvent.input(mfu, { target: { value: "42" } });
    await waitFor(() => expect(lastScorecard(host)?.vendors[0]?.mfu).toBe("0.42"));
    await fireEvent.click(screen.getByTestId("vendor-0-remove"));
    await waitFor(() => expect(lastScorecard(host)?.vendors).toEqual([]));
    await waitFor(() => expect(screen.queryByTestId("vendor-0")).toBeNull());
    // The removal is saved (the undo menu names it) and the engine asked again.
    await waitFor(() => expect(screen.getByTestId("undo").getAttribute("title")).toBe("Undo: Edit scorecard: vendors (Ctrl+Z)"));
    await waitFor(() => expect(screen.getByRole("region", { name: /^Ranking/ }).getAttribute("aria-busy")).toBe("false"));
    expect(screen.getByTestId("ranking-none").textContent).toContain("No vendors yet");
  });
});
