// The vendor screen's pure logic: the axes in order with their names, a new vendor row, the
// scorecard's problems per vendor and field, and an RFP import refusal read as a list of located
// problems ("row 3, column G (price_per_gpu_hour): …").

import { BackendError } from "../backend";
import type { PerAxis, ScorecardView, VendorEntry } from "../workspace-types";

export type AxisId = keyof PerAxis;

/** The five axes, in the back end's order, with what each measures. */
export const AXES: readonly { id: AxisId; label: string; measures: string }[] = [
  { id: "performance", label: "Performance", measures: "measured MFU" },
  { id: "reliability", label: "Reliability", measures: "annual failure rate, SLA availability and refund" },
  { id: "cost", label: "Cost", measures: "total cost over the horizon, from the engine" },
  { id: "service", label: "Service", measures: "response time and expert hours" },
  { id: "compliance", label: "Compliance", measures: "share of the D-1 checklist passed" },
];

/** A vendor row with nothing entered yet. */
export function emptyVendor(name: string): VendorEntry {
  return {
    name,
    scenario: null,
    mfu: null,
    annual_failure_rate: null,
    sla: null,
    sla_refund_share: null,
    response_hours: null,
    expert_hours_per_month: null,
    exit_terms_stated: null,
  };
}

/** A name not yet on the scorecard: "Vendor 1", "Vendor 2", … */
export function freeVendorName(vendors: readonly VendorEntry[]): string {
  for (let n = vendors.length + 1; ; n += 1) {
    const name = `Vendor ${n}`;
    if (!vendors.some((v) => v.name === name)) return name;
  }
}

/** The problems of vendor `index`, keyed by field (`mfu`, `scenario`, …). */
export function vendorProblems(view: ScorecardView | null, index: number): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const status = view?.vendors[index];
  if (!status) return out;
  const prefix = `vendors[${index}].`;
  for (const p of status.problems) {
    const key = p.field.startsWith(prefix) ? p.field.slice(prefix.length) : p.field;
    (out[key] ??= []).push(p.message);
  }
  return out;
}

/** "A" for column 1, "Z" for 26, "AA" for 27: the letters a spreadsheet shows. */
export function columnLetters(column: number): string {
  let n = column;
  let out = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

export type LocatedProblem = { row: number | null; column: number | null; where: string; field: string | null; message: string };

/**
 * An import refusal's details as located problems, in the order the back end gave them; a
 * failure that is not a refusal (the shell not answering) is one problem without a place.
 */
export function importProblems(error: unknown): LocatedProblem[] {
  if (!(error instanceof BackendError)) {
    return [{ row: null, column: null, where: "", field: null, message: error instanceof Error ? error.message : String(error) }];
  }
  if (error.error.details.length === 0) return [{ row: null, column: null, where: "", field: null, message: error.message }];
  return error.error.details.map((d) => {
    const parts: string[] = [];
    if (d.line !== null) parts.push(`row ${d.line}`);
    if (d.column !== null) parts.push(`column ${columnLetters(d.column)}`);
    return { row: d.line, column: d.column, where: parts.join(", "), field: d.field, message: d.message };
  });
}
