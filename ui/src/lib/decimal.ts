// Decimal text as the user types it and as the back end wants it ("6.88", never a float).
// Everything here works on the digits as text: no value passes through a binary float.

const INPUT = /^([+-]?)(\d*)(?:[.,](\d*))?$/;

/**
 * The canonical decimal string for what the user typed, or null when it is not a number yet.
 * Accepts "." or "," as the decimal point (one of them, once) and no thousands separators:
 * "6.88" → "6.88", "6,88" → "6.88", ".5" → "0.5", "5." → "5", "-0" → "0", "007" → "7".
 * Refuses "", "-", ".", "1.2.3", "1,000.5", "1e3", " 12 " is trimmed first.
 */
export function parseDecimalInput(text: string): string | null {
  const m = INPUT.exec(text.trim());
  if (!m) return null;
  const [, sign = "", intRaw = "", fracRaw = ""] = m;
  if (intRaw === "" && fracRaw === "") return null;
  const int = intRaw.replace(/^0+(?=\d)/, "") || "0";
  const out = fracRaw === "" ? int : `${int}.${fracRaw}`;
  const zero = /^0(\.0*)?$/.test(out);
  return sign === "-" && !zero ? `-${out}` : out;
}

/** A whole number typed by the user, or null: digits only (no sign, no point), at most 9 of them. */
export function parseIntInput(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,9}$/.test(t)) return null;
  return Number(t);
}

/** True when `text` is a plain decimal string as the back end writes it ("-12.50"). */
export function isDecimal(text: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(text);
}

/**
 * Moves the decimal point of a canonical decimal string `places` to the right (negative: to the
 * left), exactly: shift("0.08", 2) = "8", shift("7.5", -2) = "0.075", shift("0.4", 2) = "40".
 * Used to show fractions as percentages and back. Returns the input unchanged if it is not a
 * plain decimal.
 */
export function shiftDecimal(text: string, places: number): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return text;
  const [, sign = "", int = "0", frac = ""] = m;
  let digits = int + frac;
  let point = int.length + places;
  if (point < 0) {
    digits = "0".repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += "0".repeat(point - digits.length);
  const head = digits.slice(0, point).replace(/^0+(?=\d)/, "") || "0";
  const tail = digits.slice(point).replace(/0+$/, "");
  const out = tail === "" ? head : `${head}.${tail}`;
  return sign === "-" && !/^0(\.0*)?$/.test(out) ? `-${out}` : out;
}

/** A fraction ("0.075") as a percentage ("7.5"). */
export function fractionToPercent(fraction: string): string {
  return shiftDecimal(fraction, 2);
}

/** A percentage the user typed ("7,5") as the fraction the back end stores ("0.075"); null if not a number. */
export function percentInputToFraction(text: string): string | null {
  const p = parseDecimalInput(text);
  return p === null ? null : shiftDecimal(p, -2);
}

/**
 * Compares two plain decimal strings exactly: -1, 0 or 1. Text that is not a decimal sorts as
 * if it were zero (callers pass back-end values, which always are).
 */
export function compareDecimal(a: string, b: string): number {
  const parse = (t: string) => {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(t.trim());
    if (!m) return { neg: false, int: "0", frac: "" };
    const int = (m[2] ?? "0").replace(/^0+(?=\d)/, "");
    const frac = (m[3] ?? "").replace(/0+$/, "");
    const zero = int === "0" && frac === "";
    return { neg: m[1] === "-" && !zero, int, frac };
  };
  const x = parse(a);
  const y = parse(b);
  if (x.neg !== y.neg) return x.neg ? -1 : 1;
  const magnitude = () => {
    if (x.int.length !== y.int.length) return x.int.length < y.int.length ? -1 : 1;
    if (x.int !== y.int) return x.int < y.int ? -1 : 1;
    const n = Math.max(x.frac.length, y.frac.length);
    const fx = x.frac.padEnd(n, "0");
    const fy = y.frac.padEnd(n, "0");
    return fx === fy ? 0 : fx < fy ? -1 : 1;
  };
  const c = magnitude();
  return x.neg ? -c : c;
}

/** The sign of a decimal string: -1, 0 or 1. */
export function signOf(text: string): number {
  return compareDecimal(text, "0");
}
