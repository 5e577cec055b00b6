// Decimal text as typed and as stored: parsing, exact point shifts (percentages), comparison.

import { describe, expect, it } from "vitest";
import {
  compareDecimal,
  fractionToPercent,
  parseDecimalInput,
  parseIntInput,
  percentInputToFraction,
  shiftDecimal,
} from "../src/lib/decimal";
import { decimal, optionalDecimal, optionalPercent, percent, yearMonth, currencyCode } from "../src/lib/fields";

describe("parseDecimalInput", () => {
  it("accepts plain decimals with . or , and canonicalises them", () => {
    expect(parseDecimalInput("6.88")).toBe("6.88");
    expect(parseDecimalInput("6,88")).toBe("6.88");
    expect(parseDecimalInput(" 150000000000 ")).toBe("150000000000");
    expect(parseDecimalInput(".5")).toBe("0.5");
    expect(parseDecimalInput("5.")).toBe("5");
    expect(parseDecimalInput("007.50")).toBe("7.50");
    expect(parseDecimalInput("-1.25")).toBe("-1.25");
    expect(parseDecimalInput("-0")).toBe("0");
  });

  it("refuses what is not a number yet, so nothing half-typed is sent", () => {
    for (const t of ["", "-", ".", ",", "1.2.3", "1,000.5", "1e3", "12a", "--1", "1 000"]) {
      expect(parseDecimalInput(t), t).toBeNull();
    }
  });

  it("reads whole numbers", () => {
    expect(parseIntInput("16")).toBe(16);
    expect(parseIntInput("0")).toBe(0);
    expect(parseIntInput("-1")).toBeNull();
    expect(parseIntInput("1.5")).toBeNull();
    expect(parseIntInput("")).toBeNull();
  });
});

describe("shiftDecimal", () => {
  it("moves the point exactly, without floats", () => {
    expect(shiftDecimal("0.08", 2)).toBe("8");
    expect(shiftDecimal("0.075", 2)).toBe("7.5");
    expect(shiftDecimal("7.5", -2)).toBe("0.075");
    expect(shiftDecimal("0.1", 2)).toBe("10");
    expect(shiftDecimal("0.3", -2)).toBe("0.003");
    expect(shiftDecimal("12345", -3)).toBe("12.345");
    expect(shiftDecimal("0.8653", 2)).toBe("86.53");
    expect(shiftDecimal("-0.05", 2)).toBe("-5");
    expect(shiftDecimal("0", 2)).toBe("0");
    // 0.07 * 100 is 7.000000000000001 in binary floating point; the text shift is exact.
    expect(shiftDecimal("0.07", 2)).toBe("7");
  });

  it("round-trips percentages", () => {
    expect(fractionToPercent("0.4")).toBe("40");
    expect(percentInputToFraction("40")).toBe("0.4");
    expect(percentInputToFraction("7,5")).toBe("0.075");
    expect(percentInputToFraction("abc")).toBeNull();
  });
});

describe("compareDecimal", () => {
  it("orders decimal strings exactly", () => {
    expect(compareDecimal("10", "9.99")).toBe(1);
    expect(compareDecimal("2.250", "2.25")).toBe(0);
    expect(compareDecimal("-1", "0")).toBe(-1);
    expect(compareDecimal("-2", "-10")).toBe(1);
    expect(compareDecimal("0.1", "0.09")).toBe(1);
    expect(compareDecimal("-0.0", "0")).toBe(0);
  });
});

describe("field kinds", () => {
  it("parse what is typed and format what is stored", () => {
    expect(decimal.parse("3,44")).toEqual({ ok: true, value: "3.44" });
    expect(decimal.parse("")).toEqual({ ok: false, message: "required" });
    expect(optionalDecimal.parse("")).toEqual({ ok: true, value: null });
    expect(percent.parse("8")).toEqual({ ok: true, value: "0.08" });
    expect(percent.format("0.08")).toBe("8");
    expect(optionalPercent.format(null)).toBe("");
    expect(yearMonth.parse("2027-1")).toEqual({ ok: true, value: "2027-01" });
    expect(yearMonth.parse("2027-13").ok).toBe(false);
    expect(currencyCode.parse("eur")).toEqual({ ok: true, value: "EUR" });
    expect(currencyCode.parse("EURO").ok).toBe(false);
  });
});
