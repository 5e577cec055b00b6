// What the provenance panel shows: one figure (or an entry's descriptive fields) with
// everything known about where it comes from.

import type { Provenance } from "./catalog-types";

export type ProvenanceView = {
  /** The entry the figure belongs to ("NVIDIA H100 SXM5"). */
  entry: string;
  /** The entry's catalog id. */
  entryId: string;
  /** A person's name for the field ("Memory"). */
  fieldLabel: string;
  /** The Rust field name ("memory_gb"), or "spec_provenance". */
  field: string;
  /** The formatted value with unit or currency; null for descriptive fields. */
  value: string | null;
  provenance: Provenance;
  /** The entry's free-text notes, shown with its spec provenance. */
  notes?: string | null;
  /** The data-testid of the control that opened the panel, to give focus back on close. */
  origin: string;
};
