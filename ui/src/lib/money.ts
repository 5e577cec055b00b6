// Display of the engine's results: money in the workspace currency, quantities, shares.
// Values arrive as decimal strings already rounded by the engine ("12345.67"); they are handed
// to Intl.NumberFormat AS STRINGS (exact decimal formatting, no binary float) and never used
// for arithmetic here.

import { formatDecimal, MISSING, numberFormat } from "./format";
import { isDecimal, shiftDecimal } from "./decimal";

type Exact = (value: string) => string;

const cache = new Map<string, Intl.NumberFormat>();

function currencyFormat(locale: string, currency: string, fraction: { min: number; max: number } | null): Intl.NumberFormat | null {
  const key = `${locale}|${currency}|${fraction ? `${fraction.min}-${fraction.max}` : "default"}`;
  let nf = cache.get(key);
  if (!nf) {
    try {
      nf = new Intl.NumberFormat(locale, {
        style: "currency",
        currency,
        ...(fraction ? { minimumFractionDigits: fraction.min, maximumFractionDigits: fraction.max } : {}),
      });
    } catch {
      return null;
    }
    cache.set(key, nf);
  }
  return nf;
}

/**
 * An amount in `currency`, e.g. "$1,234,567.89" (en-US) or "1.234.567,89 $" (de-DE); "—" for
 * null. `unit` prices (per GPU-hour, per million tokens) keep up to 4 decimals so small prices
 * stay readable. A currency code Intl does not know is written after the number.
 */
export function formatCurrency(
  value: string | null | undefined,
  currency: string,
  locale: string,
  options: { unit?: boolean; signed?: boolean } = {},
): string {
  if (value === null || value === undefined) return MISSING;
  if (!isDecimal(value)) return value;
  const nf = currencyFormat(locale, currency, options.unit ? { min: 2, max: 4 } : null);
  let text: string;
  if (nf) {
    // Intl.NumberFormat formats a decimal string exactly (ECMA-402 "Intl.NumberFormat v3").
    text = (nf.format as unknown as Exact)(value);
  } else {
    text = `${formatDecimal(value, locale)} ${currency}`;
  }
  if (options.signed && !value.startsWith("-") && !/^0(\.0*)?$/.test(value)) text = `+${text}`;
  return text;
}

/** A plain quantity with grouping, exactly as given ("123456.5" → "123,456.5"), with an optional unit. */
export function formatQuantity(value: string | null | undefined, locale: string, unit?: string): string {
  if (value === null || value === undefined) return MISSING;
  const text = formatDecimal(value, locale);
  return unit ? `${text} ${unit}` : text;
}

/**
 * A quantity rounded for reading, e.g. GB of memory: "80.73741824" → "80.7" with one decimal.
 * Rounds the decimal text itself (Intl on the string, half away from zero), not a float.
 */
export function formatRounded(value: string | null | undefined, locale: string, maxFraction: number, unit?: string): string {
  if (value === null || value === undefined) return MISSING;
  if (!isDecimal(value)) return value;
  const nf = numberFormat(locale, { maximumFractionDigits: maxFraction });
  const text = (nf.format as unknown as Exact)(value);
  return unit ? `${text} ${unit}` : text;
}

/**
 * A fraction as a percentage, exactly: "0.8123" → "81.23 %"; with `maxFraction`, rounded (half
 * away from zero) to that many decimals of the percentage: "0.52173913…" → "52.2 %".
 */
export function formatShare(value: string | null | undefined, locale: string, maxFraction?: number): string {
  if (value === null || value === undefined) return MISSING;
  if (!isDecimal(value)) return value;
  const percent = shiftDecimal(value, 2);
  return maxFraction === undefined ? `${formatDecimal(percent, locale)} %` : formatRounded(percent, locale, maxFraction, "%");
}

/** Kilograms as tonnes, exactly: "12345" kg → "12.345 t". */
export function formatTonnes(kg: string | null | undefined, locale: string): string {
  if (kg === null || kg === undefined) return MISSING;
  if (!isDecimal(kg)) return kg;
  return `${formatDecimal(shiftDecimal(kg, -3), locale)} t`;
}

/** "YYYY-MM" plus `n` months, as "YYYY-MM" (calendar arithmetic on integers, not money). */
export function addMonths(start: string, n: number): string {
  const m = /^(\d{4})-(\d{2})$/.exec(start);
  if (!m) return start;
  const total = Number(m[1]) * 12 + (Number(m[2]) - 1) + n;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`;
}
