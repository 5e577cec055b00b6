// Formatting of catalog figures for display. Catalog numbers arrive as decimal strings
// ("3.35", "25000", "0.1346"); they are shown in the user's locale with exactly the
// precision the catalog gives: no rounding, no padding, no float conversion.

import type { Confidence, Figure, Provenance } from "./catalog-types";

/** What a missing optional figure shows. */
export const MISSING = "—";
/** The tooltip of a missing figure. */
export const MISSING_TITLE = "not published / not found in sources";
/** Between the ends of a range. */
export const RANGE_SEPARATOR = "–";

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** The locale to format with: the user's (navigator.language), if the runtime supports it. */
export function userLocale(): string {
  const candidate = typeof navigator !== "undefined" ? navigator.language : undefined;
  return safeLocale(candidate);
}

/** `locale` if Intl supports it, otherwise "en-US". */
export function safeLocale(locale: string | undefined): string {
  if (!locale) return "en-US";
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length > 0 ? locale : "en-US";
  } catch {
    return "en-US";
  }
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** An `Intl.NumberFormat` for `locale` with `options`, made once and kept: making one costs far
 *  more than formatting with it, and a comparison formats hundreds of cells per update. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let nf = numberFormats.get(key);
  if (!nf) {
    nf = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, nf);
  }
  return nf;
}

type Formatters = {
  integer: Intl.NumberFormat;
  decimal: string;
  minus: string;
  fraction: Map<number, Intl.NumberFormat>;
};

const formatterCache = new Map<string, Formatters>();

function formatters(locale: string): Formatters {
  let f = formatterCache.get(locale);
  if (!f) {
    const integer = new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 0 });
    const parts = new Intl.NumberFormat(locale).formatToParts(-1.5);
    f = {
      integer,
      decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
      minus: parts.find((p) => p.type === "minusSign")?.value ?? "-",
      fraction: new Map(),
    };
    formatterCache.set(locale, f);
  }
  return f;
}

/** Digits after the decimal separator, in the locale's numbering system, zeros kept. */
function fractionDigits(f: Formatters, locale: string, digits: string): string {
  // Intl allows at most 21 integer digits; longer fractions are shown as written.
  if (digits.length > 21) return digits;
  let nf = f.fraction.get(digits.length);
  if (!nf) {
    nf = new Intl.NumberFormat(locale, { useGrouping: false, minimumIntegerDigits: digits.length });
    f.fraction.set(digits.length, nf);
  }
  return nf.format(BigInt(digits));
}

/**
 * A decimal string in the locale, with thousands separators and exactly the decimals given:
 * "25000" → "25,000", "3.35" → "3.35", "1.10" → "1.10" (en-US); "0.1346" → "0,1346" (de-DE).
 * Text that is not a plain decimal is returned unchanged.
 */
export function formatDecimal(text: string, locale: string): string {
  const m = DECIMAL.exec(text.trim());
  if (!m) return text;
  const [, sign = "", intDigits = "0", frac] = m;
  const f = formatters(locale);
  let out = f.integer.format(BigInt(intDigits));
  if (frac !== undefined) out += f.decimal + fractionDigits(f, locale, frac);
  return sign === "-" ? f.minus + out : out;
}

/** True when the figure is a single value: low equals high as a number ("80" and "80.0" too). */
export function isPoint(figure: Figure): boolean {
  if (figure.low === figure.high) return true;
  const a = Number(figure.low);
  return Number.isFinite(a) && a === Number(figure.high);
}

/** "3.35" for a point, "25,000–40,000" for a range, "—" when missing. */
export function formatFigure(figure: Figure | null | undefined, locale: string): string {
  if (!figure) return MISSING;
  const low = formatDecimal(figure.low, locale);
  return isPoint(figure) ? low : `${low}${RANGE_SEPARATOR}${formatDecimal(figure.high, locale)}`;
}

/** A money figure with its ISO 4217 code: "25,000–40,000 USD"; "—" when missing. */
export function formatMoney(figure: Figure | null | undefined, currency: string, locale: string): string {
  if (!figure) return MISSING;
  return `${formatFigure(figure, locale)} ${currency}`;
}

/** A figure with an optional unit or currency after it, for labels and the provenance panel. */
export function formatWithUnit(
  figure: Figure | null | undefined,
  locale: string,
  unit?: { currency?: string | undefined; unit?: string | undefined },
): string {
  if (!figure) return MISSING;
  if (unit?.currency) return formatMoney(figure, unit.currency, locale);
  const text = formatFigure(figure, locale);
  if (!unit?.unit) return text;
  return unit.unit === "%" ? `${text} %` : `${text} ${unit.unit}`;
}

const CONFIDENCE: Record<Confidence, { letter: string; label: string; meaning: string }> = {
  primary: {
    letter: "P",
    label: "Primary",
    meaning: "read in a primary source: a vendor datasheet, a government register, an official price feed",
  },
  secondary: {
    letter: "S",
    label: "Secondary",
    meaning: "read only in a secondary source: press, an analyst page, a repository citing the primary",
  },
  estimate: {
    letter: "E",
    label: "Estimate",
    meaning: "derived by arithmetic or not re-verified: check it before relying on it",
  },
};

/** P, S or E. */
export function confidenceLetter(c: Confidence): string {
  return CONFIDENCE[c]?.letter ?? "?";
}

/** Primary, Secondary or Estimate. */
export function confidenceLabel(c: Confidence): string {
  return CONFIDENCE[c]?.label ?? String(c);
}

/** What the confidence level means, in a sentence fragment. */
export function confidenceMeaning(c: Confidence): string {
  return CONFIDENCE[c]?.meaning ?? "";
}

/** The native tooltip of a figure or spec: sources, as-of date and confidence, one per line. */
export function provenanceTitle(p: Provenance): string {
  const sources =
    p.sources.length === 0
      ? "no source listed"
      : p.sources.map((s) => `${s.title} (${s.as_of}${s.undated ? ", undated" : ""})`).join("; ");
  const lines = [`${confidenceLabel(p.confidence)} · as of ${p.as_of}`, `Sources: ${sources}`];
  if (p.note) lines.push(`Note: ${p.note}`);
  lines.push("Click for details");
  return lines.join("\n");
}

/** Count with a noun in singular or plural: "1 offer", "30 offers". */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}

/** The last component of a path, for showing a file without the folders above it. */
export function fileName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== "");
  return parts.length > 0 ? parts[parts.length - 1] : path;
}
