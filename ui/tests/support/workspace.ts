// A FakeBackend holding the enterprise-hybrid workspace (real engine output, see
// fixtures/enterprise-hybrid.ts), for the component tests.

import { FakeBackend, type FakeOptions, type FakeWorkspaceInit } from "../../src/lib/ipc/fake-backend";
import type { ScenarioDetail } from "../../src/lib/workspace-types";
import {
  EH_COMPARISON,
  EH_DETAIL_BAD_OFFER,
  EH_DETAIL_HYBRID,
  EH_SCENARIOS,
  EH_SETTINGS,
  EH_SIZING_BATCH_INFERENCE_H100,
  EH_WORKLOADS,
  WORKSPACE_CATALOG,
} from "../fixtures/enterprise-hybrid";

/** A stand-in for a chart the back end draws: it says it is one, so no test mistakes it for data. */
export const testSvg = (name: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" data-fixture="${name}"><text>TEST FIXTURE CHART ${name}</text></svg>`;

const NO_DETAIL: ScenarioDetail = { figures: null, layer_plans: [], sizing: [], assumptions: [], problems: [] };

/** The enterprise-hybrid workspace as the fake opens it (`extra`: e.g. a memo draft). */
export function ehWorkspace(extra: Partial<FakeWorkspaceInit> = {}): FakeWorkspaceInit {
  return {
    path: "/home/ana/plans/enterprise.cpw",
    settings: EH_SETTINGS,
    workloads: EH_WORKLOADS,
    scenarios: EH_SCENARIOS,
    catalog: WORKSPACE_CATALOG,
    view: { selected: ["hybrid", "all-cloud"], baseline: null, horizon_months: null },
    ...extra,
  };
}

export function workspaceBackend(options: FakeOptions = {}): FakeBackend {
  return new FakeBackend(
    { catalog: WORKSPACE_CATALOG },
    {
      workspace: ehWorkspace(),
      comparison: EH_COMPARISON,
      charts: {
        cumulative_svg: testSvg("cumulative"),
        monthly_svgs: [
          { scenario: "hybrid", svg: testSvg("monthly-hybrid") },
          { scenario: "all-cloud", svg: testSvg("monthly-all-cloud") },
        ],
      },
      detail: (s) => (s.id === "hybrid" ? EH_DETAIL_HYBRID : s.layers.some((l) => l.offer === "no-such-offer") ? EH_DETAIL_BAD_OFFER : NO_DETAIL),
      sizing: (w) => (w.model ? { ...EH_SIZING_BATCH_INFERENCE_H100, workload: w.id } : null),
      ...options,
    },
  );
}
