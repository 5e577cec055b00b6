// The workspace data types the UI works with, from the generated IPC bindings (type-only).
//
// Every type is the `_Serialize` form: what Rust sends. The wire is total (issue #15): every key
// is present, `null` for an absent option, so the answers are used as they arrive and a thing
// the UI edits (settings, workloads, scenarios, the view, edits) is sent back in the same form,
// which the `_Deserialize` form (what Rust accepts) takes as it is.

import type {
  CatalogFreshness_Serialize,
  CatalogOrigin_Serialize,
  DownloadProgress_Serialize,
  FigureSide,
  Freshness,
  PackPreview_Serialize,
  StaleCount,
  StaleFigure,
  TrustedKey,
  AnswerInput_Serialize,
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
  Applied_Serialize,
  Assumption_Serialize,
  Operations_Serialize,
  ExitRequest_Serialize,
  ExitRequestOutcome_Serialize,
  BreakEven,
  CatalogStatus_Serialize,
  Category,
  CategorySeries,
  Changed_Serialize,
  CommitTerm,
  CompareScreen_Serialize,
  Comparison_Serialize,
  DataClassification,
  DecisionView_Serialize,
  Difference_Serialize,
  EditRequest_Serialize,
  Edit_Serialize,
  ExitClause_Serialize,
  ExitCost,
  ExitSpec_Serialize,
  ExitVariantOutcome_Serialize,
  ExitVariantPrice,
  ExportFormat,
  FacilitySpec_Serialize,
  FilePurpose,
  FinancingMethod,
  FinancingSpec_Serialize,
  FxRate_Serialize,
  History_Serialize,
  Imported_Serialize,
  LayerExitCosts_Serialize,
  LayerKind,
  LayerPlan,
  LayerSpec_Serialize,
  MemoryNeed,
  MemoDraft_Serialize,
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
  ModelSpec_Serialize,
  NetworkPlan,
  NetworkSpec_Serialize,
  Origin_Serialize,
  Override_Serialize,
  OverrideUsed,
  Parallelism,
  PlacedProblem,
  Precision,
  PricePoint,
  RackPlan,
  RecentFile_Serialize,
  ScenarioChart,
  CumulativeSeries,
  MonthlySeries,
  Driver,
  DriverBase,
  DriverKind,
  BaselineLock,
  WhatIf_Serialize,
  WhatIfScreen_Serialize,
  KeptWhatIf_Serialize,
  SampleInfo_Serialize,
  ScenarioDetail_Serialize,
  ScenarioExits_Serialize,
  ScenarioFigures_Serialize,
  ScenarioSpec_Serialize,
  ScenarioSummary,
  Session_Serialize,
  SizingNote,
  SizingPreview,
  ProblemPlace,
  Theme,
  TuningMethod,
  ViewState_Serialize,
  WorkloadClass,
  WorkloadKind,
  WorkloadSpec_Serialize,
  WorkspaceInfo_Serialize,
  WorkspaceSettings_Serialize,
  ScorecardDraft_Serialize,
  VendorEntry_Serialize,
  PerAxis,
  QuotesImported_Serialize,
  ScorecardView_Serialize,
  VendorStatus_Serialize,
  QuotePreview_Serialize,
  QuoteRow_Serialize,
  QuoteTemplate,
  Draft_Serialize,
  DraftFrom,
  LayerForm_Serialize,
  FieldForm,
  FieldInput,
  Reshape,
  TemplateKind,
  DrawnFigure_Serialize,
  RiskView_Serialize,
  RiskProgress,
  RiskRequest,
  Shape,
  TornadoBar,
  Candidate,
  Uncertain,
} from "./ipc/bindings";

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
  ProblemPlace,
  Theme,
  TuningMethod,
  WorkloadClass,
  WorkloadKind,
};

// Edited and sent back: total forms.
/** An exchange rate: market form (base, quote; currency null) or the older form (currency; base
 *  and quote null). */
export type FxRate = FxRate_Serialize;
/** A user's value in place of the catalog's; `currency` null: in the workspace's currency. */
export type Override = Override_Serialize;
export type WorkspaceSettings = WorkspaceSettings_Serialize;
export type ViewState = ViewState_Serialize;
export type ModelSpec = ModelSpec_Serialize;
export type WorkloadSpec = WorkloadSpec_Serialize;
export type FinancingSpec = FinancingSpec_Serialize;
export type ExitSpec = ExitSpec_Serialize;
export type ExitClause = ExitClause_Serialize;
export type LayerSpec = LayerSpec_Serialize;
export type FacilitySpec = FacilitySpec_Serialize;
export type NetworkSpec = NetworkSpec_Serialize;
export type ScenarioSpec = ScenarioSpec_Serialize;
/** What the editor shows for one kind of supply layer: the fields it takes, an empty layer of it. */
export type LayerForm = LayerForm_Serialize;
/** How the editor shows a layer field no hand-made widget shows (the engine's table of fields). */
export type { FieldForm, FieldInput };
/** A new scenario the engine drafted, and what it could not choose. */
export type Draft = Draft_Serialize;
export type { DraftFrom, Reshape, TemplateKind };
export type MemoDraft = MemoDraft_Serialize;
export type Edit = Edit_Serialize;
export type EditRequest = EditRequest_Serialize;

// Containers of edited things: total forms too.
export type History = History_Serialize;
export type CatalogStatus = CatalogStatus_Serialize;
export type WorkspaceInfo = WorkspaceInfo_Serialize;
export type Changed = Changed_Serialize;
export type Applied = Applied_Serialize;
export type Imported = Imported_Serialize;
export type RecentFile = RecentFile_Serialize;
export type Session = Session_Serialize;

// Catalog packs and freshness (issue #18): read-only answers.
export type CatalogFreshness = CatalogFreshness_Serialize;
export type CatalogOrigin = CatalogOrigin_Serialize;
export type DownloadProgress = DownloadProgress_Serialize;
export type PackPreview = PackPreview_Serialize;
export type { FigureSide, Freshness, StaleCount, StaleFigure, TrustedKey };

// Read-only answers: as Rust sends them.
export type Difference = Difference_Serialize;
export type ScenarioFigures = ScenarioFigures_Serialize;
export type DecisionView = DecisionView_Serialize;
export type Comparison = Comparison_Serialize;
export type Origin = Origin_Serialize;
export type Assumption = Assumption_Serialize;
export type ScenarioDetail = ScenarioDetail_Serialize;
/** What the plan does month by month (issue #20): dispatch, bridges, spot arithmetic, GPUs needed. */
export type Operations = Operations_Serialize;
/** One way out of a scenario and its price against staying (issue #19). */
export type ExitRequest = ExitRequest_Serialize;
export type ExitRequestOutcome = ExitRequestOutcome_Serialize;
export type ScenarioExits = ScenarioExits_Serialize;
export type LayerExitCosts = LayerExitCosts_Serialize;
export type ExitVariantOutcome = ExitVariantOutcome_Serialize;
export type MonthlyChart = MonthlySeries;
/** The points of the compare screen's charts, the same the memo's charts draw (issue #17). */
export type { CumulativeSeries, MonthlySeries, ScenarioChart };
/** Workshop what-if drivers, the comparison with them applied, a kept what-if (issue #17). */
export type { Driver, DriverBase, DriverKind, BaselineLock };
export type WhatIf = WhatIf_Serialize;
export type WhatIfScreen = WhatIfScreen_Serialize;
export type KeptWhatIf = KeptWhatIf_Serialize;
/** A sample workspace shipped with the app (start screen). */
export type SampleInfo = SampleInfo_Serialize;
/** A risk analysis of the compare selection (issue #16), as kept in the workspace. */
export type RiskView = RiskView_Serialize;
export type DrawnFigure = DrawnFigure_Serialize;
export type { TornadoBar, RiskProgress, RiskRequest, Shape, Candidate, Uncertain };
export type CompareScreen = CompareScreen_Serialize;

// The vendor side (issue #6): the scorecard is edited and sent back; the screen, the quote
// preview and the template location are read-only answers.
export type ScorecardDraft = ScorecardDraft_Serialize;
export type VendorEntry = VendorEntry_Serialize;
export type QuotesImported = QuotesImported_Serialize;
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
/** A sign-off; its signature is null when attributed by name only. */
export type SignOff = SignOff_Serialize;
export type ChecklistView = ChecklistView_Serialize;
export type ItemView = ItemView_Serialize;
export type FamilyView = FamilyView_Serialize;
export type ChecklistAnswer = Answer_Serialize;
export type SubjectStatus = SubjectStatus_Serialize;
export type LogCheck = LogCheck_Serialize;
export type AnswerInput = AnswerInput_Serialize;
export type { ChecklistSubject, Clearance, Evidence, Hint, ItemStatus, LogProblem, SignOffSignature };
