// How form fields read what the user types and show a stored value. A field keeps the text as
// typed; `parse` says whether it is a value yet (only values are sent), `format` turns a stored
// value into text when the field does not have focus.

import { fractionToPercent, parseDecimalInput, parseIntInput, percentInputToFraction } from "./decimal";

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export type FieldKind<T> = {
  parse(text: string): Parsed<T>;
  format(value: T): string;
  /** The input mode hint for on-screen keyboards and the input's `inputmode`. */
  inputmode?: "decimal" | "numeric" | "text";
};

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(message: string): Parsed<T> => ({ ok: false, message });

/** Text that must not be blank (names, titles); kept as typed. */
export const requiredText: FieldKind<string> = {
  parse: (t) => (t.trim() === "" ? bad("required") : ok(t)),
  format: (v) => v,
};

/** Text kept exactly as typed, empty included (the memo's author, decision, rationale). */
export const plainText: FieldKind<string> = {
  parse: (t) => ok(t),
  format: (v) => v,
};

/** Text that may be empty (stored as null). */
export const optionalText: FieldKind<string | null> = {
  parse: (t) => ok(t.trim() === "" ? null : t),
  format: (v) => v ?? "",
};

/** A decimal number; "." or "," as the point, no thousands separators. */
export const decimal: FieldKind<string> = {
  parse: (t) => {
    const v = parseDecimalInput(t);
    return v === null ? bad(t.trim() === "" ? "required" : "not a number (write e.g. 6.88)") : ok(v);
  },
  format: (v) => v,
  inputmode: "decimal",
};

/** A decimal number or nothing (empty: the engine's default or the catalog's figure). */
export const optionalDecimal: FieldKind<string | null> = {
  parse: (t) => {
    if (t.trim() === "") return ok(null);
    const v = parseDecimalInput(t);
    return v === null ? bad("not a number (write e.g. 6.88)") : ok(v);
  },
  format: (v) => v ?? "",
  inputmode: "decimal",
};

/** A whole number, 0 or more. */
export const integer: FieldKind<number> = {
  parse: (t) => {
    const v = parseIntInput(t);
    return v === null ? bad(t.trim() === "" ? "required" : "a whole number") : ok(v);
  },
  format: (v) => String(v),
  inputmode: "numeric",
};

/** A whole number or nothing. */
export const optionalInteger: FieldKind<number | null> = {
  parse: (t) => {
    if (t.trim() === "") return ok(null);
    const v = parseIntInput(t);
    return v === null ? bad("a whole number") : ok(v);
  },
  format: (v) => (v === null ? "" : String(v)),
  inputmode: "numeric",
};

/** A fraction stored as "0.075", typed and shown as a percentage, "7.5". */
export const percent: FieldKind<string> = {
  parse: (t) => {
    const v = percentInputToFraction(t);
    return v === null ? bad(t.trim() === "" ? "required" : "not a number (write e.g. 7.5)") : ok(v);
  },
  format: (v) => fractionToPercent(v),
  inputmode: "decimal",
};

/** A fraction or nothing, typed as a percentage. */
export const optionalPercent: FieldKind<string | null> = {
  parse: (t) => {
    if (t.trim() === "") return ok(null);
    const v = percentInputToFraction(t);
    return v === null ? bad("not a number (write e.g. 7.5)") : ok(v);
  },
  format: (v) => (v === null ? "" : fractionToPercent(v)),
  inputmode: "decimal",
};

/** A calendar month, YYYY-MM. */
export const yearMonth: FieldKind<string> = {
  parse: (t) => {
    const m = /^\s*(\d{4})-(\d{1,2})\s*$/.exec(t);
    const month = m ? Number(m[2]) : 0;
    return m && month >= 1 && month <= 12 ? ok(`${m[1]}-${String(month).padStart(2, "0")}`) : bad("a month as YYYY-MM");
  },
  format: (v) => v,
};

/** An ISO 4217 currency code: three capital letters (typed in any case). */
export const currencyCode: FieldKind<string> = {
  parse: (t) => {
    const v = t.trim().toUpperCase();
    return /^[A-Z]{3}$/.test(v) ? ok(v) : bad("three letters, e.g. USD or EUR");
  },
  format: (v) => v,
};

/** A choice in a select. */
export type Option = { value: string; label: string; disabled?: boolean };
/** Choices under a heading. */
export type OptionGroup = { label: string; options: Option[] };
