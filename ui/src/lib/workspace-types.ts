// The workspace data types the UI works with, from the generated IPC bindings (type-only).
//
// Two forms, as for the catalog (catalog-types.ts):
// - Answers the UI only reads (decision view, scenario detail, sizing, compare screen) are the
//   `_Serialize` forms: what Rust sends.
// - Things the UI edits and sends back (settings, workloads, scenarios, the view, edits) and the
//   containers that carry them (workspace info, applied edits, session) are TOTAL objects: every
//   key present, `null` for an absent option. They are made from the `_Deserialize` forms (what
//   Rust accepts), so every total object is accepted as it is. Rust leaves absent options out
//   when it sends them; the Backend implementations fill them in (normalize.ts).

import type {
  AnswerInput_Deserialize,
  Answer_Serialize,
  ChecklistSubject,
  ChecklistView_Serialize,
  Clearance,
  Evidence,
  FamilyView_Serialize,
  Hint,
  ItemStatus,
  ItemView_Serialize,
  LogCheck_Serialize,
  LogProblem,
  SignOff_Serialize,
  SignOffSignature,
  SubjectStatus_Serialize,
  Applied_Deserialize,
  Assumption_Serialize,
  BreakEven,
  CatalogStatus_Deserialize,
  Category,
  CategorySeries,
  Changed_Deserialize,
  CommitTerm,
  CompareScreen_Serialize,
  Comparison_Serialize,
  DataClassification,
  DecisionView_Serialize,
  Difference_Serialize,
  EditRequest_Deserialize,
  Edit_Deserialize,
  ExitClause_Deserialize,
  ExitCost,
  ExitSpec_Deserialize,
  ExitVariantOutcome_Serialize,
  ExitVariantPrice,
  ExportFormat,
  FacilitySpec_Deserialize,
  FilePurpose,
  FinancingMethod,
  FinancingSpec_Deserialize,
  FxRate_Deserialize,
  History_Deserialize,
  Imported_Deserialize,
  LayerExitCosts_Serialize,
  LayerKind,
  LayerPlan,
  LayerSpec_Deserialize,
  MemoryNeed,
  MemoDraft_Deserialize,
  MemoEvent,
  MemoRecord_Serialize,
  Paper,
  PdfCheck_Serialize,
  Published_Serialize,
  SignatureReport_Serialize,
  CertificateInfo_Serialize,
  IdentitySummary_Serialize,
  SignWith,
  Milestone,
  ModelSpec_Deserialize,
  NetworkPlan,
  NetworkSpec_Deserialize,
  Origin_Serialize,
  Override_Deserialize,
  OverrideUsed,
  Parallelism,
  PlacedProblem,
  Precision,
  PricePoint,
  RackPlan,
  RecentFile_Deserialize,
  ScenarioChart,
  ScenarioDetail_Serialize,
  ScenarioExits_Serialize,
  ScenarioFigures_Serialize,
  ScenarioSpec_Deserialize,
  ScenarioSummary,
  Session_Deserialize,
  SizingNote,
  SizingPreview,
  Subject,
  Theme,
  TuningMethod,
  ViewState_Deserialize,
  WorkloadClass,
  WorkloadKind,
  WorkloadSpec_Deserialize,
  WorkspaceInfo_Deserialize,
  WorkspaceSettings_Deserialize,
  ScorecardDraft_Deserialize,
  VendorEntry_Deserialize,
  PerAxis,
  QuotesImported_Deserialize,
  ScorecardView_Serialize,
  VendorStatus_Serialize,
  QuotePreview_Serialize,
  QuoteRow_Serialize,
  QuoteTemplate,
} from "./ipc/bindings";

/** `T` with every key present: optional keys become required, keeping `null` where allowed. */
export type Total<T> = T extends (infer U)[]
  ? Total<U>[]
  : T extends object
    ? { [K in keyof T]-?: Total<Exclude<T[K], undefined>> }
    : T;

/** A decimal number as text, e.g. "6.88" (money, rates and fractions never cross as floats). */
export type Decimal = string;
/** A calendar month, "YYYY-MM". */
export type YearMonth = string;

export type {
  PerAxis,
  QuoteTemplate,
  BreakEven,
  Category,
  CategorySeries,
  CommitTerm,
  DataClassification,
  ExitCost,
  ExitVariantPrice,
  ExportFormat,
  FilePurpose,
  FinancingMethod,
  LayerKind,
  LayerPlan,
  MemoryNeed,
  MemoEvent,
  Milestone,
  NetworkPlan,
  OverrideUsed,
  Paper,
  Parallelism,
  PlacedProblem,
  Precision,
  PricePoint,
  RackPlan,
  ScenarioSummary,
  SignWith,
  SizingNote,
  SizingPreview,
  Subject,
  Theme,
  TuningMethod,
  WorkloadClass,
  WorkloadKind,
};

// Edited and sent back: total forms.
/** An exchange rate: market form (base, quote; currency null) or the older form (currency; base
 *  and quote null). */
export type FxRate = Total<FxRate_Deserialize>;
/** A user's value in place of the catalog's; `currency` null: in the workspace's currency. */
export type Override = Total<Override_Deserialize>;
export type WorkspaceSettings = Total<WorkspaceSettings_Deserialize>;
export type ViewState = Total<ViewState_Deserialize>;
export type ModelSpec = Total<ModelSpec_Deserialize>;
export type WorkloadSpec = Total<WorkloadSpec_Deserialize>;
export type FinancingSpec = Total<FinancingSpec_Deserialize>;
export type ExitSpec = Total<ExitSpec_Deserialize>;
export type ExitClause = Total<ExitClause_Deserialize>;
export type LayerSpec = Total<LayerSpec_Deserialize>;
export type FacilitySpec = Total<FacilitySpec_Deserialize>;
export type NetworkSpec = Total<NetworkSpec_Deserialize>;
export type ScenarioSpec = Total<ScenarioSpec_Deserialize>;
export type MemoDraft = Total<MemoDraft_Deserialize>;
export type Edit = Total<Edit_Deserialize>;
export type EditRequest = Total<EditRequest_Deserialize>;

// Containers of edited things: total forms too.
export type History = Total<History_Deserialize>;
export type CatalogStatus = Total<CatalogStatus_Deserialize>;
export type WorkspaceInfo = Total<WorkspaceInfo_Deserialize>;
export type Changed = Total<Changed_Deserialize>;
export type Applied = Total<Applied_Deserialize>;
export type Imported = Total<Imported_Deserialize>;
export type RecentFile = Total<RecentFile_Deserialize>;
export type Session = Total<Session_Deserialize>;

// Read-only answers: as Rust sends them.
export type Difference = Difference_Serialize;
export type ScenarioFigures = ScenarioFigures_Serialize;
export type DecisionView = DecisionView_Serialize;
export type Comparison = Comparison_Serialize;
export type Origin = Origin_Serialize;
export type Assumption = Assumption_Serialize;
export type ScenarioDetail = ScenarioDetail_Serialize;
export type ScenarioExits = ScenarioExits_Serialize;
export type LayerExitCosts = LayerExitCosts_Serialize;
export type ExitVariantOutcome = ExitVariantOutcome_Serialize;
export type MonthlyChart = ScenarioChart;
export type CompareScreen = CompareScreen_Serialize;

// The vendor side (issue #6): the scorecard is edited and sent back; the screen, the quote
// preview and the template location are read-only answers.
export type ScorecardDraft = Total<ScorecardDraft_Deserialize>;
export type VendorEntry = Total<VendorEntry_Deserialize>;
export type QuotesImported = Total<QuotesImported_Deserialize>;
export type ScorecardView = ScorecardView_Serialize;
export type VendorStatus = VendorStatus_Serialize;
export type QuotePreview = QuotePreview_Serialize;
export type QuoteRow = QuoteRow_Serialize;

// The decision memo: records, checks and identities are read-only answers.
export type MemoRecord = MemoRecord_Serialize;
export type Published = Published_Serialize;
export type PdfCheck = PdfCheck_Serialize;
export type SignatureReport = SignatureReport_Serialize;
export type CertificateInfo = CertificateInfo_Serialize;
export type IdentitySummary = IdentitySummary_Serialize;

// The compliance checklists (issue #6): what the back end answers is read as sent; what a
// reviewer enters is total.
/** A sign-off with its signature always present (null when attributed by name only). */
export type SignOff = Omit<SignOff_Serialize, "signature"> & { signature: SignOffSignature | null };
export type ChecklistView = Omit<ChecklistView_Serialize, "signoff"> & { signoff: SignOff | null };
export type ItemView = ItemView_Serialize;
export type FamilyView = FamilyView_Serialize;
export type ChecklistAnswer = Answer_Serialize;
export type SubjectStatus = SubjectStatus_Serialize;
export type LogCheck = LogCheck_Serialize;
export type AnswerInput = Total<AnswerInput_Deserialize>;
export type { ChecklistSubject, Clearance, Evidence, Hint, ItemStatus, LogProblem, SignOffSignature };
