// Architecture rules of the UI, checked on every source file under ui/src:
//  1. Only src/lib/ipc/bindings.ts imports "@tauri-apps/*".
//  2. Only src/lib/ipc/tauri-backend.ts imports runtime values from the bindings; everyone
//     else uses `import type` (erased, so it cannot pull the Tauri runtime in).
//  3. Only src/main.ts imports the Tauri backend; components receive a `Backend`.
//  4. Nothing under src imports the fake backend: it is for tests and the dev preview only,
//     so the shipped app can never show fixture data.

import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { importsOf, readSource, sourceFiles } from "./support/imports";

// Vitest runs from the ui/ folder (its config root).
const SRC = resolve(process.cwd(), "src");

const BINDINGS = "lib/ipc/bindings";
const TAURI_BACKEND = "lib/ipc/tauri-backend";
const FAKE_BACKEND = "lib/ipc/fake-backend";

/** The rule violations in a set of files (paths relative to src). */
export function violations(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    for (const imp of importsOf(file, text)) {
      const where = `${file}:${imp.line} imports "${imp.specifier}"`;
      if (imp.specifier.startsWith("@tauri-apps/") && file !== `${BINDINGS}.ts`) {
        found.push(`${where}: only ${BINDINGS}.ts may import @tauri-apps/*`);
      }
      if (imp.target === BINDINGS && !imp.typeOnly && file !== `${TAURI_BACKEND}.ts`) {
        found.push(`${where}: use \`import type\`; only ${TAURI_BACKEND}.ts may import runtime values from the bindings`);
      }
      if (imp.target === TAURI_BACKEND && !imp.typeOnly && file !== "main.ts") {
        found.push(`${where}: only main.ts may create the Tauri backend; pass a Backend instead`);
      }
      if (imp.target === FAKE_BACKEND && !imp.typeOnly) {
        found.push(`${where}: the fake backend is for tests only`);
      }
    }
  }
  return found;
}

describe("architecture rules", () => {
  const files = Object.fromEntries(sourceFiles(SRC).map((f) => [f, readSource(SRC, f)]));

  it("scans the real sources", () => {
    const names = Object.keys(files);
    expect(names).toContain("main.ts");
    expect(names).toContain("lib/ipc/bindings.ts");
    expect(names).toContain("lib/ipc/tauri-backend.ts");
    expect(names).toContain("lib/components/CatalogView.svelte");
    expect(names.length).toBeGreaterThan(15);
  });

  it("holds for every file under ui/src", () => {
    expect(violations(files)).toEqual([]);
  });

  it("the bindings themselves import the Tauri API and the Tauri backend imports their commands", () => {
    expect(importsOf("lib/ipc/bindings.ts", files["lib/ipc/bindings.ts"]!).some((i) => i.specifier.startsWith("@tauri-apps/"))).toBe(true);
    expect(
      importsOf("lib/ipc/tauri-backend.ts", files["lib/ipc/tauri-backend.ts"]!).some((i) => i.target === BINDINGS && !i.typeOnly),
    ).toBe(true);
  });

  it("catches each kind of violation", () => {
    const bad = violations({
      "lib/components/Bad.svelte": `<script lang="ts">\n  import { invoke } from "@tauri-apps/api/core";\n  import { commands } from "../ipc/bindings";\n</script>`,
      "lib/mixed.ts": `import { type Catalog } from "./ipc/bindings";\nexport { commands } from "./ipc/bindings";`,
      "lib/dyn.ts": `export const m = () => import("@tauri-apps/api/event");`,
      "lib/components/Uses.svelte": `<script lang="ts">import { TauriBackend } from "../ipc/tauri-backend";</script>`,
      "lib/demo.ts": `import { FakeBackend } from "./ipc/fake-backend.ts";`,
    });
    expect(bad).toHaveLength(7);
    expect(bad.join("\n")).toMatch(/Bad\.svelte:2 imports "@tauri-apps\/api\/core"/);
    expect(bad.join("\n")).toMatch(/Bad\.svelte:3 imports "\.\.\/ipc\/bindings": use `import type`/);
    expect(bad.join("\n")).toMatch(/mixed\.ts:1/);
    expect(bad.join("\n")).toMatch(/mixed\.ts:2/);
    expect(bad.join("\n")).toMatch(/dyn\.ts:1/);
    expect(bad.join("\n")).toMatch(/Uses\.svelte:1 .*only main\.ts/);
    expect(bad.join("\n")).toMatch(/demo\.ts:1 .*tests only/);
  });

  it("renders HTML from a string in one place only: the back end's charts in ChartFrame", () => {
    const withHtml = Object.entries(files)
      .filter(([, text]) => text.includes("{@html"))
      .map(([name]) => name);
    expect(withHtml).toEqual(["lib/components/ChartFrame.svelte"]);
  });

  it("allows type-only imports of the bindings anywhere, and ignores imports in comments and strings", () => {
    expect(
      violations({
        "lib/ok.ts": `import type { Catalog } from "./ipc/bindings";\nexport type { Figure } from "./ipc/bindings";\n// import { commands } from "./ipc/bindings";\nconst s = 'import { invoke } from "@tauri-apps/api/core"';\ntype X = import("./ipc/bindings").Catalog;`,
      }),
    ).toEqual([]);
  });
});
