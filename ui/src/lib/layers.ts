// Supply layers as the editor names them. Which fields a kind takes, an empty layer of it and
// switching a layer's kind are the engine's rules: the back end publishes them (`layerForms`,
// `reshapeScenario`), so the editor shows exactly what the engine accepts.

import type { Catalog } from "./catalog-types";
import { type FieldKind, optionalDecimal } from "./fields";
import type { FieldForm, FieldInput, LayerForm, LayerKind, LayerSpec } from "./workspace-types";

export const LAYER_KIND_LABELS: Record<LayerKind, string> = {
  owned: "Owned",
  reserved: "Reserved",
  spot: "Spot",
  "on-demand": "On-demand",
  pooled: "Pooled",
  "token-metered": "Token-metered",
};

export const LAYER_KIND_HINTS: Record<LayerKind, string> = {
  owned: "Hardware you hold: bought for cash, on a loan, or leased",
  reserved: "Cloud capacity committed for 1 or 3 years, paid whether used or not",
  spot: "Interruptible cloud capacity; serves interruptible, non-steady workloads only",
  "on-demand": "Pay-as-you-go cloud capacity",
  pooled: "A shared cluster billed per GPU-hour used (price required)",
  "token-metered": "An API billed per million tokens; serves inference workloads that name a model",
};

/** The accelerator a layer runs on: named, or through its system or offer. */
export function layerAccelerator(layer: LayerSpec, catalog: Catalog | null): string | null {
  if (layer.accelerator) return layer.accelerator;
  if (layer.system && catalog) {
    const s = catalog.facility.systems.find((x) => x.id === layer.system);
    if (s) return s.accelerator;
  }
  if (layer.offer && catalog) {
    const o = catalog.offers.find((x) => x.id === layer.offer);
    if (o) return o.accelerator;
  }
  return null;
}

/** The form of a layer of `kind` among `forms` (null until the back end has sent them). */
export function formOf(forms: readonly LayerForm[] | null, kind: LayerKind): LayerForm | null {
  return forms?.find((f) => f.kind === kind) ?? null;
}

/** Whether the layer field `field` applies to a layer of `form`'s kind (false while unknown). */
export function takes(form: LayerForm | null, field: keyof LayerSpec): boolean {
  return form?.fields.includes(field) ?? false;
}

/**
 * The fields of a layer's kind that no hand-made widget shows, as the engine's table of layer
 * fields describes them (label, unit, hint); the editor shows each with the same widget.
 */
export function genericFields(form: LayerForm | null): readonly FieldForm[] {
  return form?.generic ?? [];
}

/** How a generic field reads what is typed, by the table's input kind. */
const GENERIC_KINDS: Record<FieldInput, FieldKind<string | null>> = {
  "optional-decimal": optionalDecimal,
};

/** How a generic field reads what is typed. */
export function genericFieldKind(input: FieldInput): FieldKind<string | null> {
  return GENERIC_KINDS[input];
}

/** A generic field's unit with the file's currency in place of `{currency}`. */
export function genericFieldUnit(unit: string, currency: string): string {
  return unit.replaceAll("{currency}", currency);
}

/** The value of the layer field `name` as a generic field holds it (a decimal string or none). */
export function genericFieldValue(layer: LayerSpec, name: string): string | null {
  const v = (layer as unknown as Record<string, unknown>)[name];
  return typeof v === "string" ? v : null;
}

/** Sets the layer field `name` to `value` (a decimal string, or none). */
export function setGenericField(layer: LayerSpec, name: string, value: string | null): void {
  (layer as unknown as Record<string, unknown>)[name] = value;
}
