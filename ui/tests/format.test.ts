import { describe, expect, it } from "vitest";
import { formatSize } from "../src/lib/memo/memo";
import {
  MISSING,
  fileName,
  confidenceLetter,
  formatDecimal,
  formatFigure,
  formatMoney,
  formatWithUnit,
  isPoint,
  provenanceTitle,
  safeLocale,
} from "../src/lib/format";
import type { Figure, Provenance } from "../src/lib/catalog-types";

const provenance: Provenance = {
  sources: [
    { id: "klockwood-h100", title: "G. K. Lockwood, H100 notes", url: "https://example.org/h100", as_of: "2026-11", undated: true },
    { id: "epoch-trends", title: "Epoch AI hardware data", url: null, as_of: "2025-01", undated: false },
  ],
  as_of: "2026-11",
  confidence: "secondary",
  note: "2023 analyst range",
};
const fig = (low: string, high = low): Figure => ({ low, high, provenance });

describe("formatDecimal", () => {
  it("adds thousands separators and keeps the decimals given", () => {
    expect(formatDecimal("25000", "en-US")).toBe("25,000");
    expect(formatDecimal("3.35", "en-US")).toBe("3.35");
    expect(formatDecimal("1.10", "en-US")).toBe("1.10");
    expect(formatDecimal("0.1346", "en-US")).toBe("0.1346");
    expect(formatDecimal("1307.4", "en-US")).toBe("1,307.4");
    expect(formatDecimal("270000", "en-US")).toBe("270,000");
    expect(formatDecimal("80", "en-US")).toBe("80");
  });

  it("does not round numbers with more digits than a float holds", () => {
    expect(formatDecimal("12345678901234567890.123456789012345", "en-US")).toBe(
      "12,345,678,901,234,567,890.123456789012345",
    );
  });

  it("follows the locale's separators", () => {
    expect(formatDecimal("25000.5", "de-DE")).toBe("25.000,5");
    expect(formatDecimal("0.1346", "de-DE")).toBe("0,1346");
    expect(formatDecimal("1234.05", "fr-FR")).toMatch(/^1\s234,05$/u);
  });

  it("returns text that is not a plain decimal unchanged", () => {
    expect(formatDecimal("n/a", "en-US")).toBe("n/a");
    expect(formatDecimal("1e5", "en-US")).toBe("1e5");
  });

  it("falls back to en-US for a locale the runtime does not know", () => {
    expect(safeLocale(undefined)).toBe("en-US");
    expect(safeLocale("not a locale!")).toBe("en-US");
    expect(safeLocale("de-DE")).toBe("de-DE");
  });
});

describe("formatFigure", () => {
  it("shows a point as one number", () => {
    expect(formatFigure(fig("3.35"), "en-US")).toBe("3.35");
    expect(isPoint(fig("80", "80.0"))).toBe(true);
    expect(formatFigure(fig("80", "80.0"), "en-US")).toBe("80");
  });

  it("shows a range with an en dash", () => {
    expect(formatFigure(fig("25000", "40000"), "en-US")).toBe("25,000–40,000");
    expect(formatFigure(fig("1.1", "1.25"), "en-US")).toBe("1.1–1.25");
    expect(isPoint(fig("1", "2"))).toBe(false);
  });

  it("shows a missing figure as a dash", () => {
    expect(formatFigure(null, "en-US")).toBe(MISSING);
    expect(formatFigure(undefined, "en-US")).toBe("—");
  });
});

describe("formatMoney", () => {
  it("puts the currency code after the amount, keeping its precision", () => {
    expect(formatMoney(fig("6.88"), "USD", "en-US")).toBe("6.88 USD");
    expect(formatMoney(fig("25000", "40000"), "USD", "en-US")).toBe("25,000–40,000 USD");
    expect(formatMoney(fig("0.1346"), "EUR", "de-DE")).toBe("0,1346 EUR");
    expect(formatMoney(fig("4.00"), "USD", "en-US")).toBe("4.00 USD");
  });

  it("shows a missing amount as a dash without a currency", () => {
    expect(formatMoney(null, "USD", "en-US")).toBe("—");
  });

  it("formats units and percentages for the provenance panel", () => {
    expect(formatWithUnit(fig("80"), "en-US", { unit: "GB" })).toBe("80 GB");
    expect(formatWithUnit(fig("72"), "en-US", { unit: "%" })).toBe("72 %");
    expect(formatWithUnit(fig("2.00", "2.50"), "en-US", { currency: "USD", unit: "x" })).toBe("2.00–2.50 USD");
    expect(formatWithUnit(null, "en-US", { unit: "GB" })).toBe("—");
  });
});

describe("confidence and tooltips", () => {
  it("marks each confidence level with a letter", () => {
    expect(confidenceLetter("primary")).toBe("P");
    expect(confidenceLetter("secondary")).toBe("S");
    expect(confidenceLetter("estimate")).toBe("E");
  });

  it("puts sources, dates, confidence and note in the native tooltip", () => {
    const t = provenanceTitle(provenance);
    expect(t).toContain("Secondary · as of 2026-11");
    expect(t).toContain("G. K. Lockwood, H100 notes (2026-11, undated)");
    expect(t).toContain("Epoch AI hardware data (2025-01)");
    expect(t).toContain("Note: 2023 analyst range");
  });
});

describe("fileName", () => {
  it("keeps only the last path component, for either separator", () => {
    expect(fileName("/work/main/catalogs/accelerators.toml")).toBe("accelerators.toml");
    expect(fileName("C:\\catalogs\\offers.toml")).toBe("offers.toml");
    expect(fileName("regions.toml")).toBe("regions.toml");
    expect(fileName("catalogs/")).toBe("catalogs");
  });
});

describe("file sizes", () => {
  it("gives the exact count and a rounded KiB or MiB", () => {
    expect(formatSize(1, "en-US")).toBe("1 byte");
    expect(formatSize(1023, "en-US")).toBe("1,023 bytes");
    expect(formatSize(199_767, "en-US")).toBe("199,767 bytes (195 KiB)");
    expect(formatSize(199_767, "de-DE")).toBe("199.767 bytes (195 KiB)");
    expect(formatSize(3 * 1024 * 1024 + 512 * 1024, "en-US")).toBe("3,670,016 bytes (3.5 MiB)");
  });
});
