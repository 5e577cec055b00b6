// The production TauriBackend over recorded answers of the real use cases (see
// support/recorded.ts): every key of an answer arrives, null when absent; refusals arrive as
// BackendErrors with the back end's code and message; arguments go by the names Rust reads (the
// Rust test `recorded_answers` replays these very calls).

import { describe, expect, it } from "vitest";
import { BackendError } from "../src/lib/backend";
import type { EditRequest, ScenarioSpec } from "../src/lib/workspace-types";
import { recorded } from "./support/recorded";

describe("TauriBackend on the real use cases", () => {
  it("creates a workspace, imports a scenario file, and passes total answers through", async () => {
    const { backend, host } = recorded();
    expect(await backend.session()).toEqual({ workspace: null, launch_error: null, recent: [] });
    const info = await backend.createWorkspace("@tmp/plan.cpw", "Lab 2027");
    expect(info.path).toBe("@tmp/plan.cpw");
    expect(info.settings.title).toBe("Lab 2027");
    // The host's clock reads 2026-11-23 09:00 UTC: the horizon starts next month.
    expect(info.settings.start).toBe("2026-12");
    expect(info.settings.description).toBeNull();
    expect(info.catalog).toMatchObject({ taken: "2026-11-23 09:00", newer_available: false });
    expect(info.history).toEqual({ can_undo: false, can_redo: false, undo_label: null, redo_label: null, revision: 0 });

    const imported = await backend.importScenarios("@repo/catalogs/samples/enterprise-hybrid.json");
    expect(imported).toMatchObject({ workloads: 2, scenarios: 2, renamed: [] });
    expect(imported.applied.history.undo_label).toBe("Import enterprise-hybrid.json");
    const spec = await backend.getScenario("all-cloud");
    expect(spec.id).toBe("all-cloud");
    // Absent optional fields arrive as null, not missing.
    expect(spec.facility).toBeNull();
    expect(host.sent("get_scenario")).toEqual([{ id: "all-cloud" }]);
  });

  it("merges edits with one coalesce key less than two seconds apart into one undo step", async () => {
    const { backend, host } = recorded();
    await backend.createWorkspace("@tmp/plan.cpw", "Lab");
    await backend.importScenarios("@repo/catalogs/samples/enterprise-hybrid.json");
    const base: ScenarioSpec = await backend.getScenario("hybrid");
    const put = (name: string): EditRequest => ({ edit: { kind: "put-scenario", scenario: { ...base, name } }, label: `Edit ${name}: name`, coalesce: "hybrid.name" });
    await backend.applyEdit(put("H"));
    await host.advance(500);
    await backend.applyEdit(put("Hy"));
    await host.advance(900);
    const last = await backend.applyEdit(put("Hyb"));
    expect(last.history).toMatchObject({ can_undo: true, undo_label: "Edit Hyb: name" });
    expect(last.changed).toEqual([{ kind: "scenario", id: "hybrid", summary: expect.objectContaining({ name: "Hyb" }) }]);
    const undone = await backend.undo();
    expect(undone?.changed[0]).toMatchObject({ kind: "scenario", id: "hybrid", summary: { name: base.name } });
    expect(undone?.history.undo_label).toBe("Import enterprise-hybrid.json");
    expect(undone?.history.redo_label).toBe("Edit Hyb: name");

    // Two seconds later the same key starts a new step.
    await backend.redo();
    await host.advance(2500);
    const apart = await backend.applyEdit(put("Hybrid 2"));
    expect(apart.history.undo_label).toBe("Edit Hybrid 2: name");
    expect((await backend.undo())?.history.undo_label).toBe("Edit Hyb: name");
  });

  it("turns the back end's refusals into BackendErrors with its code and message", async () => {
    const { backend } = recorded();
    const none = await backend.compare("dark").catch((e: unknown) => e);
    expect(none).toBeInstanceOf(BackendError);
    expect((none as InstanceType<typeof BackendError>).code).toBe("no-workspace");
    await backend.createWorkspace("@tmp/plan.cpw", "Lab");
    const missing = await backend.applyEdit({ edit: { kind: "delete-scenario", id: "hybrid" }, label: "Delete scenario Hybrid", coalesce: null }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(BackendError);
    expect((missing as InstanceType<typeof BackendError>).code).toBe("not-found");
    expect((missing as Error).message).toContain("hybrid");
  });
});
