// The editor's generic layer fields: what the engine's table of layer fields describes is what
// the widget reads, shows and writes.

import { describe, expect, it } from "vitest";
import { genericFieldKind, genericFieldUnit, genericFieldValue, genericFields, setGenericField } from "../src/lib/layers";
import type { FieldForm, LayerForm, LayerSpec } from "../src/lib/workspace-types";

const charge: FieldForm = {
  name: "running_cost_per_month",
  label: "Running cost a month",
  input: "optional-decimal",
  unit: "{currency} a month",
  hint: "Support and other fixed charges",
  testid: "running-cost-month",
  change: "running cost a month",
};

describe("generic layer fields", () => {
  it("lists the form's generic fields, none when the form has none or is not loaded", () => {
    const form = { kind: "on-demand", cloud: true, fields: [], generic: [charge] } as unknown as LayerForm;
    expect(genericFields(form)).toEqual([charge]);
    expect(genericFields({ ...form, generic: undefined } as unknown as LayerForm)).toEqual([]);
    expect(genericFields(null)).toEqual([]);
  });

  it("reads an optional decimal as the other decimal fields do", () => {
    const kind = genericFieldKind("optional-decimal");
    expect(kind.parse("1250.50")).toEqual({ ok: true, value: "1250.50" });
    expect(kind.parse("")).toEqual({ ok: true, value: null });
    expect(kind.parse("abc").ok).toBe(false);
    expect(kind.format(null)).toBe("");
  });

  it("puts the file's currency in the unit", () => {
    expect(genericFieldUnit(charge.unit, "EUR")).toBe("EUR a month");
    expect(genericFieldUnit("per GPU-hour", "EUR")).toBe("per GPU-hour");
  });

  it("reads and writes the layer field the row names", () => {
    const layer = { id: "od", kind: "on-demand", running_cost_per_month: null } as unknown as LayerSpec;
    expect(genericFieldValue(layer, "running_cost_per_month")).toBeNull();
    setGenericField(layer, "running_cost_per_month", "900");
    expect(genericFieldValue(layer, "running_cost_per_month")).toBe("900");
    setGenericField(layer, "running_cost_per_month", null);
    expect(genericFieldValue(layer, "running_cost_per_month")).toBeNull();
  });
});
