// The catalog browser mounted in jsdom with the in-memory backend and the TEST FIXTURE catalog.

import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/svelte";
import { CatalogManager } from "../src/lib/catalog/catalog-manager.svelte";
import Browser from "../src/lib/components/Browser.svelte";
import { FakeBackend } from "../src/lib/ipc/fake-backend";
import { IpcError } from "../src/lib/backend";
import { FIXTURE_CATALOG, FIXTURE_CATALOG_INVALID } from "./fixtures/catalog";
import { THEME_STORAGE_KEY } from "../src/lib/theme";

function renderBrowser(backend = new FakeBackend({ catalog: FIXTURE_CATALOG })) {
  return render(Browser, { props: { manager: new CatalogManager(backend), locale: "en-US" } });
}

const rowIds = (container: HTMLElement, prefix: string) =>
  [...container.querySelectorAll<HTMLElement>(`[data-testid^="${prefix}"]`)].map((el) =>
    el.dataset.testid!.slice(prefix.length),
  );

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe("catalog browser", () => {
  it("shows a loading state, then the accelerators grouped by family", async () => {
    renderBrowser(new FakeBackend({ catalog: FIXTURE_CATALOG }, { delayMs: 5 }));
    expect(screen.getByTestId("loading").textContent).toContain("Loading the catalog");

    const row = await screen.findByTestId("acc-row-nvidia-h100-sxm");
    expect(row.textContent).toContain("NVIDIA H100 SXM5");
    expect(within(row).getByTestId("fig-nvidia-h100-sxm-memory_gb").textContent).toContain("80");
    expect(row.textContent).toContain("HBM3");
    expect(within(row).getByTestId("fig-nvidia-h100-sxm-bandwidth_tbps").textContent).toContain("3.35");
    expect(within(row).getByTestId("fig-nvidia-h100-sxm-price_usd").textContent).toContain("25,000–40,000");

    const groups = [...document.querySelectorAll<HTMLElement>('tbody[data-testid^="group-"]')];
    expect(groups.map((g) => g.dataset.testid)).toEqual(["group-training", "group-domestic", "group-cloud-only"]);
    expect(groups[0]!.querySelector("tr.group")!.textContent).toMatch(/Large-scale training\s*2/);
  });

  it("shows the catalog versions and the counts in the status line", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    const versions = screen.getByTestId("catalog-versions");
    expect(versions.textContent).toContain("accelerators.toml");
    expect(versions.textContent).toContain("2026.11.0");
    expect(screen.getByTestId("status").textContent).toContain(
      "4 accelerators · 3 offers · 7 facility entries · 1 fabric · 2 regions",
    );
  });

  it("marks missing figures and confidence levels", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-google-tpu-v5p");
    const missing = screen.getByTestId("fig-google-tpu-v5p-price_usd");
    expect(missing.tagName).toBe("SPAN");
    expect(missing.textContent).toBe("—");
    expect(missing.getAttribute("title")).toBe("not published / not found in sources");

    const estimate = screen.getByTestId("fig-amd-mi300x-price_usd");
    expect(estimate.classList.contains("conf-estimate")).toBe(true);
    expect(estimate.textContent).toContain("E");
    expect(screen.getByTestId("fig-nvidia-h100-sxm-memory_gb").textContent).toContain("P");
  });

  it("opens a figure's provenance on click, with every source, and closes it with Escape", async () => {
    renderBrowser();
    const button = await screen.findByTestId("fig-nvidia-h100-sxm-memory_gb");
    expect(button.tagName).toBe("BUTTON");
    expect(button.getAttribute("title")).toContain("G. K. Lockwood, H100 notes");

    await fireEvent.click(button);
    const panel = screen.getByTestId("provenance");
    expect(panel.textContent).toContain("NVIDIA H100 SXM5");
    expect(panel.textContent).toContain("memory_gb");
    expect(within(panel).getByTestId("provenance-value").textContent).toBe("80 GB");
    expect(panel.textContent).toContain("Primary");
    expect(panel.textContent).toContain("2026-11");
    const sources = within(panel).getAllByTestId("provenance-source");
    expect(sources).toHaveLength(1);
    expect(sources[0]!.textContent).toContain("G. K. Lockwood, H100 notes (cites the NVIDIA H100 whitepaper)");
    expect(sources[0]!.textContent).toContain("https://glennklockwood.com/garden/processors/h100");
    expect(sources[0]!.textContent).toContain("undated source");
    expect(panel.querySelector("a")).toBeNull();

    await fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByTestId("provenance")).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId("fig-nvidia-h100-sxm-memory_gb"));
  });

  it("shows a range's note and several sources in the panel", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    await fireEvent.click(screen.getByTestId("fig-nvidia-h100-sxm-price_usd"));
    const panel = screen.getByTestId("provenance");
    expect(within(panel).getByTestId("provenance-value").textContent).toBe("25,000–40,000 USD");
    expect(panel.textContent).toContain("2023 analyst range");
    expect(panel.textContent).toContain("Secondary");
    expect(panel.textContent).toContain("Epoch AI, Machine learning hardware data");
  });

  it("opens the spec provenance and the entry's notes from the sources button", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    await fireEvent.click(screen.getByTestId("src-nvidia-h100-sxm"));
    const panel = screen.getByTestId("provenance");
    expect(panel.textContent).toContain("spec_provenance");
    expect(panel.textContent).toContain("G. K. Lockwood, H100 notes");
    expect(panel.textContent).toContain("The reference training part");
  });

  it("shows an entry's notes with its figures' provenance", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    await fireEvent.click(screen.getByTestId("tab-offers"));
    const row = screen.getByTestId("offer-row-aws-p5-h100-us-east-1");
    expect(row.querySelector(".has-note")?.getAttribute("title")).toBe("Instance price divided by 8 GPUs.");
    await fireEvent.click(within(row).getByTestId("fig-aws-p5-h100-us-east-1-spot_per_gpu_hour"));
    const panel = screen.getByTestId("provenance");
    expect(within(panel).getByTestId("provenance-value").textContent).toBe("2.00–2.50 USD");
    expect(panel.textContent).toContain("Spot, per GPU-h");
    expect(panel.textContent).toContain("Instance price divided by 8 GPUs.");
    expect(panel.textContent).toContain("Spot price history aggregator");
    expect(panel.textContent).toContain("no address");
  });

  it("formats numbers in the given locale, keeping the catalog's precision", async () => {
    render(Browser, { props: { manager: new CatalogManager(new FakeBackend({ catalog: FIXTURE_CATALOG })), locale: "de-DE" } });
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    expect(screen.getByTestId("fig-nvidia-h100-sxm-price_usd").textContent).toContain("25.000–40.000");
    expect(screen.getByTestId("fig-amd-mi300x-bf16_tflops").textContent).toContain("1.307,4");
    await fireEvent.click(screen.getByTestId("tab-regions"));
    expect(screen.getByTestId("fig-de-tariff_per_kwh").textContent).toContain("0,1346");
  });

  it("sorts by a column header, missing values last, and sets aria-sort", async () => {
    const { container } = renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    const header = screen.getByTestId("sort-price_usd");
    await fireEvent.click(header);
    expect(header.closest("th")!.getAttribute("aria-sort")).toBe("ascending");
    expect(rowIds(container, "acc-row-")).toEqual(["amd-mi300x", "nvidia-h100-sxm", "huawei-ascend-910b", "google-tpu-v5p"]);
    await fireEvent.click(header);
    expect(header.closest("th")!.getAttribute("aria-sort")).toBe("descending");
    expect(rowIds(container, "acc-row-")).toEqual(["nvidia-h100-sxm", "amd-mi300x", "huawei-ascend-910b", "google-tpu-v5p"]);

    const sources = screen.getByTestId("sort-sources");
    await fireEvent.click(sources);
    expect(rowIds(container, "acc-row-")).toEqual(["nvidia-h100-sxm", "amd-mi300x", "huawei-ascend-910b", "google-tpu-v5p"]);

    const name = screen.getByTestId("sort-name");
    await fireEvent.click(name);
    expect(header.closest("th")!.getAttribute("aria-sort")).toBe("none");
    expect(rowIds(container, "acc-row-")).toEqual(["amd-mi300x", "nvidia-h100-sxm", "huawei-ascend-910b", "google-tpu-v5p"]);
  });

  it("filters by free text and by family chips", async () => {
    const { container } = renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    const filter = screen.getByTestId("filter") as HTMLInputElement;
    await fireEvent.input(filter, { target: { value: "ascend" } });
    expect(rowIds(container, "acc-row-")).toEqual(["huawei-ascend-910b"]);
    expect(screen.getByTestId("filter-count").textContent).toMatch(/1 of 4/);

    await fireEvent.keyDown(filter, { key: "Escape" });
    expect(filter.value).toBe("");
    expect(rowIds(container, "acc-row-")).toHaveLength(4);

    await fireEvent.click(screen.getByTestId("family-cloud-only"));
    expect(screen.getByTestId("family-cloud-only").getAttribute("aria-pressed")).toBe("true");
    expect(rowIds(container, "acc-row-")).toEqual(["google-tpu-v5p"]);
    await fireEvent.click(screen.getByTestId("family-all"));
    expect(rowIds(container, "acc-row-")).toHaveLength(4);
  });

  it("switches tabs by click, arrow keys and Alt+number (Ctrl+number belongs to the workspace tabs), and focuses the filter with /", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    const tabs = screen.getByRole("tablist");
    expect(within(tabs).getAllByRole("tab")).toHaveLength(5);
    expect(screen.getByTestId("tab-accelerators").getAttribute("aria-selected")).toBe("true");

    await fireEvent.click(screen.getByTestId("tab-offers"));
    const offer = screen.getByTestId("offer-row-aws-p5-h100-us-east-1");
    expect(offer.textContent).toContain("NVIDIA H100 SXM5");
    expect(within(offer).getByTestId("fig-aws-p5-h100-us-east-1-on_demand_per_gpu_hour").textContent).toContain("6.88");
    expect(offer.textContent).toContain("USD");
    expect(screen.queryByTestId("acc-row-nvidia-h100-sxm")).toBeNull();

    await fireEvent.keyDown(screen.getByTestId("tab-offers"), { key: "ArrowRight" });
    expect(screen.getByTestId("tab-facility").getAttribute("aria-selected")).toBe("true");
    expect(document.activeElement).toBe(screen.getByTestId("tab-facility"));
    expect(screen.getByTestId("cooling-row-direct-to-chip").textContent).toContain("50–150");
    expect(screen.getByTestId("lead-time-row-switchgear").textContent).toContain("46–48");

    await fireEvent.keyDown(window, { key: "5", ctrlKey: true });
    expect(screen.getByTestId("tab-facility").getAttribute("aria-selected")).toBe("true");
    await fireEvent.keyDown(window, { key: "5", altKey: true });
    expect(screen.getByTestId("tab-regions").getAttribute("aria-selected")).toBe("true");
    expect(screen.getByTestId("region-row-de").textContent).toContain("0.1346");
    expect(screen.getByTestId("region-row-de").textContent).toContain("EUR");
    expect(screen.getByTestId("fig-us-va-grid_gco2_per_kwh").textContent).toBe("—");

    await fireEvent.keyDown(window, { key: "4", altKey: true });
    expect(screen.getByTestId("fabric-row-ib-ndr-400").textContent).toContain("InfiniBand");

    await fireEvent.keyDown(document.body, { key: "/" });
    expect(document.activeElement).toBe(screen.getByTestId("filter"));
  });

  it("shows the catalog-invalid screen with every detail and nothing else", async () => {
    renderBrowser(new FakeBackend({ error: FIXTURE_CATALOG_INVALID }));
    const screenEl = await screen.findByTestId("error-screen");
    expect(screenEl.querySelector("h1")!.textContent).toBe("The catalog could not be loaded");
    expect(screen.getByTestId("error-message").textContent).toContain("The catalog has 2 errors");
    const rows = within(screen.getByTestId("error-details")).getAllByTestId("error-detail");
    expect(rows).toHaveLength(2);
    const cells = [...rows[0]!.querySelectorAll("td")].map((td) => td.textContent);
    expect(cells).toEqual([
      "accelerators.toml",
      "42",
      "13",
      "accelerator[3].price_usd.low",
      "malformed-number",
      "`25,000` is not a number: write plain decimals with a `.` point, e.g. 25000",
    ]);
    expect(screen.queryByRole("tablist")).toBeNull();
    expect(screen.queryByTestId("filter")).toBeNull();
  });

  it("shows other back-end errors with their message", async () => {
    renderBrowser(new FakeBackend({ error: { code: "io", message: "catalogs/ cannot be read: permission denied", details: [] } }));
    const el = await screen.findByTestId("error-screen");
    expect(el.dataset.code).toBe("io");
    expect(el.textContent).toContain("permission denied");
    expect(screen.queryByTestId("error-details")).toBeNull();
  });

  it("shows a failure of the channel itself, and can retry", async () => {
    const backend = new FakeBackend({ throws: new IpcError("The desktop shell did not answer get_catalog: boom", "boom") });
    renderBrowser(backend);
    const el = await screen.findByTestId("error-screen");
    expect(el.textContent).toContain("could not reach its back end");
    expect(el.textContent).toContain("boom");
    await fireEvent.click(screen.getByRole("button", { name: "Reload the catalog" }));
    await screen.findByTestId("error-screen");
    expect(backend.calls).toBe(2);
  });

  it("toggles the theme and remembers the choice", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    const toggle = screen.getByTestId("theme-toggle");
    expect(toggle.textContent).toContain("System");
    await fireEvent.click(toggle);
    expect(document.documentElement.dataset.theme).toBe("light");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
    await fireEvent.click(toggle);
    expect(document.documentElement.dataset.theme).toBe("dark");
    await fireEvent.click(toggle);
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });
});
