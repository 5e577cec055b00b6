// The catalog browser mounted in jsdom over recorded answers of the real back end: the catalog
// the app ships (catalogs/*.toml) as `get_catalog` reads it, and its refusals produced for real
// (a catalog folder with broken entries, a folder that is not there).

import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/svelte";
import { CatalogManager } from "../src/lib/catalog/catalog-manager.svelte";
import Browser from "../src/lib/components/Browser.svelte";
import { TauriBackend } from "../src/lib/ipc/tauri-backend";
import type { Backend } from "../src/lib/backend";
import { THEME_STORAGE_KEY } from "../src/lib/theme";
import { recorded } from "./support/recorded";

function renderBrowser(backend: Backend = recorded().backend, locale = "en-US") {
  return render(Browser, { props: { manager: new CatalogManager(backend), locale } });
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
    renderBrowser();
    expect(screen.getByTestId("loading").textContent).toContain("Loading the catalog");

    const row = await screen.findByTestId("acc-row-nvidia-h100-sxm");
    expect(row.textContent).toContain("NVIDIA H100 SXM5");
    expect(within(row).getByTestId("fig-nvidia-h100-sxm-memory_gb").textContent).toContain("80");
    expect(row.textContent).toContain("HBM3");
    expect(within(row).getByTestId("fig-nvidia-h100-sxm-bandwidth_tbps").textContent).toContain("3.35");
    expect(within(row).getByTestId("fig-nvidia-h100-sxm-price_usd").textContent).toContain("25,000–40,000");

    const groups = [...document.querySelectorAll<HTMLElement>('tbody[data-testid^="group-"]')];
    expect(groups.map((g) => g.dataset.testid)).toEqual([
      "group-training",
      "group-inference",
      "group-edge",
      "group-domestic",
      "group-consumer",
      "group-cloud-only",
    ]);
    expect(groups[0]!.querySelector("tr.group")!.textContent).toMatch(/Large-scale training\s*13/);
    expect(groups[5]!.querySelector("tr.group")!.textContent).toMatch(/Cloud-only \(TPU\)\s*3/);
  });

  it("shows the catalog versions and the counts in the status line", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    const versions = screen.getByTestId("catalog-versions");
    expect(versions.textContent).toContain("accelerators.toml");
    expect(versions.textContent).toContain("2026.11.0");
    expect(screen.getByTestId("status").textContent).toContain(
      "27 accelerators · 47 offers · 31 facility entries · 3 fabrics · 20 regions",
    );
  });

  it("marks missing figures and confidence levels", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-google-tpu-v5p");
    const missing = screen.getByTestId("fig-google-tpu-v5p-price_usd");
    expect(missing.tagName).toBe("SPAN");
    expect(missing.textContent).toBe("—");
    expect(missing.getAttribute("title")).toBe("not published / not found in sources");

    const estimate = screen.getByTestId("fig-nvidia-h200-sxm-price_usd");
    expect(estimate.classList.contains("conf-estimate")).toBe(true);
    expect(estimate.textContent).toContain("E");
    expect(screen.getByTestId("fig-nvidia-h100-sxm-price_usd").classList.contains("conf-secondary")).toBe(true);
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
    expect(panel.textContent).toContain("Quotes range from 25-30k (2023 analyst estimate via Epoch");
    expect(panel.textContent).toContain("Secondary");
    const sources = within(panel).getAllByTestId("provenance-source");
    expect(sources).toHaveLength(6);
    expect(sources[0]!.textContent).toContain("Epoch AI, training-cost-trends repository");
    expect(sources[3]!.textContent).toContain("stratrix");
    expect(sources[3]!.textContent).toContain("no address");
  });

  it("opens the spec provenance and the entry's notes from the sources button", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    await fireEvent.click(screen.getByTestId("src-nvidia-h100-sxm"));
    const panel = screen.getByTestId("provenance");
    expect(panel.textContent).toContain("spec_provenance");
    expect(panel.textContent).toContain("G. K. Lockwood, H100 notes");
    expect(panel.textContent).toContain("Announced March 2022, shipping in volume from 2023.");
  });

  it("shows an entry's notes with its figures' provenance", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    await fireEvent.click(screen.getByTestId("tab-offers"));
    const row = screen.getByTestId("offer-row-aws-p4d-a100-40gb");
    expect(row.querySelector(".has-note")?.getAttribute("title")).toMatch(/^Capacity Blocks were 1\.844 per GPU-hour \(14\.75 per instance\)/);
    await fireEvent.click(within(row).getByTestId("fig-aws-p4d-a100-40gb-spot_per_gpu_hour"));
    const panel = screen.getByTestId("provenance");
    expect(within(panel).getByTestId("provenance-value").textContent).toBe("1.25–1.875 USD");
    expect(panel.textContent).toContain("Spot, per GPU-h");
    expect(panel.textContent).toContain("10-15 USD per instance-hour / 8");
    expect(panel.textContent).toContain("Capacity Blocks were 1.844 per GPU-hour");
    expect(panel.textContent).toContain("Third-party reading of p4d.24xlarge spot prices");
    expect(panel.textContent).toContain("no address");
  });

  it("formats numbers in the given locale, keeping the catalog's precision", async () => {
    renderBrowser(recorded().backend, "de-DE");
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    expect(screen.getByTestId("fig-nvidia-h100-sxm-price_usd").textContent).toContain("25.000–40.000");
    expect(screen.getByTestId("fig-nvidia-rtx-5090-bf16_tflops").textContent).toContain("209,5");
    await fireEvent.click(screen.getByTestId("tab-regions"));
    expect(screen.getByTestId("fig-de-tariff_per_kwh").textContent).toContain("0,1346");
  });

  it("sorts by a column header within each family, missing values last, and sets aria-sort", async () => {
    const { container } = renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    // The large-scale training group: the 13 rows in catalog order, six of them priced.
    const group = (family: string) => rowIds(container.querySelector<HTMLElement>(`[data-testid="group-${family}"]`)!, "acc-row-");
    const training = () => group("training");
    const unpriced = ["nvidia-h100-pcie", "nvidia-h800-sxm", "nvidia-b300", "nvidia-a100-40gb-sxm", "nvidia-a100-80gb-sxm", "amd-mi325x", "amd-mi355x"];
    const header = screen.getByTestId("sort-price_usd");
    await fireEvent.click(header);
    expect(header.closest("th")!.getAttribute("aria-sort")).toBe("ascending");
    // 15,000 · 15,625 · 25,000–40,000 · 27,778–43,056 · 28,000–42,000 · 40,000–70,000, then the unpriced.
    expect(training()).toEqual(["amd-mi300x", "intel-gaudi-3", "nvidia-h100-sxm", "nvidia-gb200", "nvidia-h200-sxm", "nvidia-b200", ...unpriced]);
    expect(group("edge")).toEqual(["huawei-atlas-300i-duo", "nvidia-jetson-agx-orin-64gb"]);
    expect(group("consumer")).toEqual(["nvidia-rtx-4090", "nvidia-rtx-5090"]);
    await fireEvent.click(header);
    expect(header.closest("th")!.getAttribute("aria-sort")).toBe("descending");
    expect(training()).toEqual(["nvidia-b200", "nvidia-h200-sxm", "nvidia-gb200", "nvidia-h100-sxm", "intel-gaudi-3", "amd-mi300x", ...unpriced]);
    expect(group("consumer")).toEqual(["nvidia-rtx-5090", "nvidia-rtx-4090"]);
    expect(group("cloud-only")).toEqual(["google-tpu-v5e", "google-tpu-v5p", "google-tpu-v6e"]);

    // By sources: primary specifications first.
    await fireEvent.click(screen.getByTestId("sort-sources"));
    expect(training()).toEqual([
      "nvidia-h100-sxm",
      "nvidia-h100-pcie",
      "nvidia-b200",
      "nvidia-a100-40gb-sxm",
      "nvidia-a100-80gb-sxm",
      "nvidia-h200-sxm",
      "nvidia-h800-sxm",
      "nvidia-gb200",
      "nvidia-b300",
      "amd-mi300x",
      "amd-mi325x",
      "amd-mi355x",
      "intel-gaudi-3",
    ]);

    const name = screen.getByTestId("sort-name");
    await fireEvent.click(name);
    expect(header.closest("th")!.getAttribute("aria-sort")).toBe("none");
    expect(training()).toEqual([
      "amd-mi300x",
      "amd-mi325x",
      "amd-mi355x",
      "intel-gaudi-3",
      "nvidia-a100-40gb-sxm",
      "nvidia-a100-80gb-sxm",
      "nvidia-b200",
      "nvidia-b300",
      "nvidia-gb200",
      "nvidia-h100-pcie",
      "nvidia-h100-sxm",
      "nvidia-h200-sxm",
      "nvidia-h800-sxm",
    ]);
    // Numbers in names sort as numbers: H20 before H100 NVL.
    expect(group("inference")).toEqual([
      "nvidia-h20",
      "nvidia-h100-nvl",
      "nvidia-l4",
      "nvidia-l40s",
      "nvidia-t4",
    ]);
  });

  it("filters by free text and by family chips", async () => {
    const { container } = renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    const filter = screen.getByTestId("filter") as HTMLInputElement;
    await fireEvent.input(filter, { target: { value: "ascend" } });
    // The Atlas 300I Duo matches too: its form factor reads "two Ascend 310-class chips".
    expect(rowIds(container, "acc-row-")).toEqual(["huawei-atlas-300i-duo", "huawei-ascend-910b", "huawei-ascend-910c"]);
    expect(screen.getByTestId("filter-count").textContent).toMatch(/3 of 27/);

    await fireEvent.keyDown(filter, { key: "Escape" });
    expect(filter.value).toBe("");
    expect(rowIds(container, "acc-row-")).toHaveLength(27);

    await fireEvent.click(screen.getByTestId("family-cloud-only"));
    expect(screen.getByTestId("family-cloud-only").getAttribute("aria-pressed")).toBe("true");
    expect(rowIds(container, "acc-row-")).toEqual(["google-tpu-v5e", "google-tpu-v5p", "google-tpu-v6e"]);
    await fireEvent.click(screen.getByTestId("family-all"));
    expect(rowIds(container, "acc-row-")).toHaveLength(27);
  });

  it("switches tabs by click, arrow keys and Alt+number (Ctrl+number belongs to the workspace tabs), and focuses the filter with /", async () => {
    renderBrowser();
    await screen.findByTestId("acc-row-nvidia-h100-sxm");
    const tabs = screen.getByRole("tablist");
    expect(within(tabs).getAllByRole("tab")).toHaveLength(5);
    expect(screen.getByTestId("tab-accelerators").getAttribute("aria-selected")).toBe("true");

    await fireEvent.click(screen.getByTestId("tab-offers"));
    const offer = screen.getByTestId("offer-row-aws-p5-h100");
    expect(offer.textContent).toContain("NVIDIA H100 SXM5");
    expect(within(offer).getByTestId("fig-aws-p5-h100-on_demand_per_gpu_hour").textContent).toContain("6.88");
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
    expect(screen.getByTestId("fig-us-iowa-grid_gco2_per_kwh").textContent).toBe("—");

    await fireEvent.keyDown(window, { key: "4", altKey: true });
    expect(screen.getByTestId("fabric-row-ib-ndr-400").textContent).toContain("InfiniBand");

    await fireEvent.keyDown(document.body, { key: "/" });
    expect(document.activeElement).toBe(screen.getByTestId("filter"));
  });

  it("shows the catalog-invalid screen with every detail and nothing else", async () => {
    // A copy of the shipped catalog with one broken entry appended to two of its files, as
    // someone editing the TOML by hand might leave it.
    const { backend, host } = recorded();
    await host.copy("@repo/catalogs", "@tmp/cat");
    await host.append(
      "@tmp/cat/accelerators.toml",
      '\n[[accelerator]]\nid = "test-broken"\nname = "A broken entry"\nvendor = "Test"\nfamily = "training"\nsrc = "klockwood-h100"\nconf = "primary"\nmemory_gb = 80\nprice_usd = { low = "25,000", high = 40000 }\n',
    );
    await host.append(
      "@tmp/cat/offers.toml",
      '\n[[offer]]\nid = "test-offer"\nprovider = "AWS"\nprovider_kind = "hyperscaler"\naccelerator = "nvidia-h100-sxm"\nsku = "x"\ngpus_per_instance = 8\nregion = "us"\ncurrency = "USD"\nsrc = "aws-ondemand-feed"\nconf = "primary"\non_demand_per_gpu_hour = "6,88"\n',
    );
    await host.catalog("@tmp/cat");
    renderBrowser(backend);
    const screenEl = await screen.findByTestId("error-screen");
    expect(screenEl.querySelector("h1")!.textContent).toBe("The catalog could not be loaded");
    expect(screen.getByTestId("error-message").textContent).toContain("The catalog has 2 errors");
    const rows = within(screen.getByTestId("error-details")).getAllByTestId("error-detail");
    expect(rows).toHaveLength(2);
    const cells = (i: number) => [...rows[i]!.querySelectorAll("td")].map((td) => td.textContent);
    const notANumber = "is not a number: write digits with a '.' decimal point and no thousands separators, units or symbols, e.g. 3.35 or 25000";
    expect(cells(0)).toEqual([
      "@tmp/cat/accelerators.toml",
      "979",
      "21",
      "accelerator[27].price_usd.low",
      "malformed-number",
      `\`25,000\` ${notANumber}`,
    ]);
    expect(cells(1)).toEqual(["@tmp/cat/offers.toml", "888", "26", "offer[47].on_demand_per_gpu_hour", "malformed-number", `\`6,88\` ${notANumber}`]);
    expect(screen.queryByRole("tablist")).toBeNull();
    expect(screen.queryByTestId("filter")).toBeNull();
  });

  it("shows other back-end errors with their message", async () => {
    // The catalog folder the app was started with is not there.
    const { backend, host } = recorded();
    await host.catalog("@tmp/no-such-catalog");
    renderBrowser(backend);
    const el = await screen.findByTestId("error-screen");
    expect(el.dataset.code).toBe("io");
    expect(el.querySelector("h1")!.textContent).toBe("The catalog files could not be read");
    expect(screen.getByTestId("error-message").textContent).toBe(
      "@tmp/no-such-catalog: cannot open the catalog folder: No such file or directory (os error 2); check the path (it should hold accelerators.toml, offers.toml, ...)",
    );
    // The one detail names the folder, with no line or field.
    const rows = within(screen.getByTestId("error-details")).getAllByTestId("error-detail");
    expect([...rows[0]!.querySelectorAll("td")].map((td) => td.textContent)).toEqual([
      "@tmp/no-such-catalog",
      "—",
      "—",
      "—",
      "—",
      "cannot open the catalog folder: No such file or directory (os error 2); check the path (it should hold accelerators.toml, offers.toml, ...)",
    ]);
    expect(screen.queryByRole("tablist")).toBeNull();
  });

  it("shows a failure of the channel itself, and can retry", async () => {
    // Not a recorded answer: this is the desktop shell not answering at all, which no back-end
    // answer can be. The production TauriBackend is used with no session started, so the
    // test's `invoke` rejects (as Tauri's does when the shell is gone) and nothing is recorded.
    const backend = new TauriBackend();
    const load = vi.spyOn(backend, "getCatalog");
    renderBrowser(backend);
    const el = await screen.findByTestId("error-screen");
    expect(el.dataset.code).toBe("ipc");
    expect(el.textContent).toContain("could not reach its back end");
    expect(el.textContent).toContain("The desktop shell did not answer get_catalog");
    await fireEvent.click(screen.getByRole("button", { name: "Reload the catalog" }));
    await screen.findByTestId("error-screen");
    expect(load).toHaveBeenCalledTimes(2);
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
