// The catalog data types the UI works with. They come from the generated IPC bindings
// (type-only: nothing here pulls the Tauri runtime in). Entry types that the brief does not
// name are derived from `Catalog` itself, so the UI depends on as few generated names as
// possible and follows the Rust model if a type is renamed.

// tauri-specta emits each struct twice, as sent by Rust (`X_Serialize`, optional values are
// `T | null`) and as accepted by Rust (`X_Deserialize`, where they may also be omitted). The UI
// only ever receives these types, so it uses the `_Serialize` forms under their plain names.
import type {
  Accelerator_Serialize as Accelerator,
  Catalog_Serialize as Catalog,
  Confidence,
  ErrorDetail_Serialize as ErrorDetail,
  Family,
  Figure_Serialize as Figure,
  Offer_Serialize as Offer,
  PlannerError_Serialize as PlannerError,
  Provenance_Serialize as Provenance,
  Source_Serialize as Source,
} from "./ipc/bindings";

export type {
  Accelerator,
  Catalog,
  Confidence,
  ErrorDetail,
  Family,
  Figure,
  Offer,
  PlannerError,
  Provenance,
  Source,
};

export type CatalogFile = Catalog["files"][number];
export type Facility = Catalog["facility"];
export type Cooling = Facility["cooling"][number];
export type Upgrade = Facility["upgrades"][number];
export type Colocation = Facility["colocation"][number];
export type ServerSystem = Facility["systems"][number];
export type PueBenchmark = Facility["pue_benchmarks"][number];
export type LeadTime = Facility["lead_times"][number];
export type Fabric = Catalog["fabrics"][number];
export type Region = Catalog["regions"][number];
export type ErrorCode = PlannerError["code"];
