// Architecture rules of the UI, checked on every source file under ui/src:
//  1. Only src/lib/ipc/bindings.ts imports "@tauri-apps/*" (so nothing outside src/lib/ipc/ does).
//  2. Only src/lib/ipc/tauri-backend.ts imports runtime values from the bindings; everyone
//     else uses `import type` (erased, so it cannot pull the Tauri runtime in).
//  3. Only src/main.ts imports the Tauri backend; it hands it to the root component.
//  4. Nothing under src imports from the tests (their recorded answers and transport), so the
//     shipped app can never show recorded data.
//  5. Components do no IO: no `.svelte` file uses the back end (a `backend` variable or member,
//     `getBackend`, in its script or its markup) or imports the `Backend` or the workspace store;
//     each gets its tab's manager. The one exception is the root, App.svelte, which receives the
//     Backend as a prop and only hands it to the session (`new AppSession(backend)`).
//  6. Only managers (`*.svelte.ts`, e.g. lib/<tab>/<tab>-manager.svelte.ts) and lib/ipc/ hold a
//     `Backend`: a pure helper (lib/*.ts) cannot call the back end.
//  7. The IPC contract is written once, in the generated bindings: `Backend` (lib/backend.ts) is
//     the type of their `commands` and declares no command by hand, and TauriBackend calls no
//     command by name (it wraps each generated one).

import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { importsOf, markupText, namedImportsOf, namesUsedIn, readSource, sourceFiles } from "./support/imports";

// Vitest runs from the ui/ folder (its config root).
const SRC = resolve(process.cwd(), "src");

const BINDINGS = "lib/ipc/bindings";
const TAURI_BACKEND = "lib/ipc/tauri-backend";

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
      if (/(^|\/)tests\//.test(imp.specifier) || imp.target?.startsWith("../")) {
        found.push(`${where}: the app never imports from the tests`);
      }
    }
  }
  return found;
}

/** The root component: the only one given the Backend, to hand to the session. */
const ROOT = "lib/components/App.svelte";
const BACKEND_MODULE = "lib/backend";
const STORE_MODULE = "lib/workspace"; // workspace.svelte.ts, as import targets are written without extension
const BACKEND_NAMES = ["backend", "getBackend"] as const;

/** The expressions of a component's markup (`{...}`, attribute values included), with their lines. */
function markupExpressions(text: string): { text: string; line: number }[] {
  const markup = markupText(text);
  const out: { text: string; line: number }[] = [];
  let depth = 0;
  let start = 0;
  let line = 1;
  let startLine = 1;
  for (let i = 0; i < markup.length; i += 1) {
    const c = markup[i];
    if (c === "\n") line += 1;
    if (c === "{") {
      if (depth === 0) {
        start = i + 1;
        startLine = line;
      }
      depth += 1;
    } else if (c === "}" && depth > 0) {
      depth -= 1;
      if (depth === 0) out.push({ text: markup.slice(start, i), line: startLine });
    }
  }
  return out;
}

/** Back-end use outside the managers: violations of rules 5 and 6 in a set of files (paths relative to src). */
export function ioViolations(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    if (file.endsWith(".svelte")) {
      for (const use of namesUsedIn(file, text, BACKEND_NAMES)) {
        const handedOn = file === ROOT && use.name === "backend" && (use.role === "prop" || use.role === "prop-type" || use.role === "new-argument");
        if (!handedOn) {
          found.push(`${file}:${use.line} uses \`${use.name}\`${use.role === "member" ? " (a member)" : ""}: components do no IO; only ${ROOT} hands the Backend to the session`);
        }
      }
      for (const expr of markupExpressions(text)) {
        if (/(?<![\w$])(?:backend|getBackend)(?![\w$])/.test(expr.text)) {
          found.push(`${file}:${expr.line} uses the back end in its markup: components do no IO; call their manager`);
        }
      }
      for (const imp of namedImportsOf(file, text)) {
        if (imp.target === BACKEND_MODULE && imp.name === "Backend" && file !== ROOT) {
          found.push(`${file}:${imp.line} imports Backend: components get their manager, not the back end`);
        }
        if (imp.target === STORE_MODULE) {
          found.push(`${file}:${imp.line} imports ${imp.name} from the workspace store: components get their tab's manager`);
        }
      }
    } else if (!file.endsWith(".svelte.ts") && !file.startsWith("lib/ipc/") && file !== "main.ts") {
      for (const imp of namedImportsOf(file, text)) {
        if (imp.target === BACKEND_MODULE && imp.name === "Backend") {
          found.push(`${file}:${imp.line} imports Backend: only managers (*.svelte.ts) and lib/ipc/ talk to the back end`);
        }
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
      "lib/demo.ts": `import { recorded } from "../../tests/support/recorded";`,
    });
    expect(bad).toHaveLength(7);
    expect(bad.join("\n")).toMatch(/Bad\.svelte:2 imports "@tauri-apps\/api\/core"/);
    expect(bad.join("\n")).toMatch(/Bad\.svelte:3 imports "\.\.\/ipc\/bindings": use `import type`/);
    expect(bad.join("\n")).toMatch(/mixed\.ts:1/);
    expect(bad.join("\n")).toMatch(/mixed\.ts:2/);
    expect(bad.join("\n")).toMatch(/dyn\.ts:1/);
    expect(bad.join("\n")).toMatch(/Uses\.svelte:1 .*only main\.ts/);
    expect(bad.join("\n")).toMatch(/demo\.ts:1 .*never imports from the tests/);
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

  it("the Backend is the generated commands' type: no command is written by hand", () => {
    const backend = files[`${BACKEND_MODULE}.ts`]!;
    const tauri = files[`${TAURI_BACKEND}.ts`]!;
    expect(backend).toMatch(/^import type \{ commands \} from "\.\/ipc\/bindings";$/m);
    expect(backend).toMatch(/^export type Backend = \{\n\s+\[K in keyof Commands\]/m);
    expect(backend.split("\n").filter((line) => /^\s+\w+\(.*\):\s*Promise</.test(line))).toEqual([]);
    expect(tauri.split("\n").filter((line) => /\bcommands\.\w+\s*\(|__TAURI_INVOKE|"[a-z]+(_[a-z]+)+"/.test(line))).toEqual([]);
    expect(tauri).toMatch(/Object\.keys\(commands\)/);
  });

  it("components do no IO: holds for every file under ui/src", () => {
    expect(ioViolations(files)).toEqual([]);
    // The rule has something to hold on: the root hands the back end on, and the managers use it.
    expect(namesUsedIn(ROOT, files[ROOT]!, ["backend"]).map((u) => u.role)).toContain("new-argument");
    const managers = Object.keys(files).filter((f) => /^lib\/[a-z-]+\/[a-z-]+-manager\.svelte\.ts$/.test(f));
    expect(managers.length).toBeGreaterThanOrEqual(9);
    const components = Object.keys(files).filter((f) => f.endsWith(".svelte"));
    expect(components.length).toBeGreaterThan(30);
  });

  it("catches each kind of back-end use outside the managers", () => {
    const bad = ioViolations({
      "lib/components/Calls.svelte": `<script lang="ts">\n  let { manager } = $props();\n  async function go() {\n    await manager.backend.getCatalog();\n  }\n</script>`,
      "lib/components/Markup.svelte": `<script lang="ts">\n  let { store } = $props();\n</script>\n\n<button onclick={() => store.backend.undo()}>Undo</button>`,
      "lib/components/Prop.svelte": `<script lang="ts">\n  import type { Backend } from "../backend";\n  let { backend }: { backend: Backend } = $props();\n</script>`,
      "lib/components/Ctx.svelte": `<script lang="ts">\n  const b = getBackend();\n</script>`,
      "lib/components/Store.svelte": `<script lang="ts">\n  import type { WorkspaceStore } from "../workspace.svelte";\n</script>`,
      "lib/components/App.svelte": `<script lang="ts">\n  let { backend } = $props();\n  const session = new AppSession(backend);\n  onMount(() => backend.session());\n</script>`,
      "lib/flows.ts": `import type { Backend } from "./backend";\nexport const open = (b: Backend) => b.chooseFile("open-workspace");`,
    });
    const text = bad.join("\n");
    expect(text).toMatch(/Calls\.svelte:4 uses `backend` \(a member\)/);
    expect(text).toMatch(/Markup\.svelte:5 uses the back end in its markup/);
    expect(text).toMatch(/Prop\.svelte:2 imports Backend: components get their manager/);
    expect(text).toMatch(/Prop\.svelte:3 uses `backend`/);
    expect(text).toMatch(/Ctx\.svelte:2 uses `getBackend`/);
    expect(text).toMatch(/Store\.svelte:2 imports WorkspaceStore from the workspace store/);
    expect(text).toMatch(/App\.svelte:4 uses `backend`/);
    expect(text).toMatch(/flows\.ts:1 imports Backend: only managers/);
    // Prop.svelte: the prop and its type (2 uses) and the import; App.svelte: only the call.
    expect(bad).toHaveLength(9);
  });

  it("allows the root to hand the back end to the session, managers to hold it, and the words in markup", () => {
    expect(
      ioViolations({
        "lib/components/App.svelte": `<script lang="ts">\n  import type { Backend } from "../backend";\n  let { backend }: { backend: Backend } = $props();\n  const session = untrack(() => new AppSession(backend));\n</script>`,
        "lib/components/Time.svelte": `<script lang="ts">\n  // backend.compare() is asked by the manager\n  let { manager } = $props();\n</script>\n<!-- {backend.x()} -->\n<p>The back end took {manager.result.backend_ms} ms; "backend" is a word here.</p>`,
        "lib/compare/compare-manager.svelte.ts": `import type { Backend } from "../backend";\nexport class M { constructor(readonly backend: Backend) {} }`,
        "lib/ipc/other.ts": `import { type Backend } from "../backend";`,
      }),
    ).toEqual([]);
  });
});

describe("the UI's tests run on the product's answers", () => {
  // Every back-end answer a UI test sees is recorded from the real use cases (support/recorded.ts;
  // the Rust test `recorded_answers` keeps the recordings current), so no rule of the product is
  // written again in TypeScript: no test module implements the Backend, and only backend.test.ts
  // (TauriBackend's error mapping, on shapes only) replaces Tauri's `invoke` itself.
  const TESTS = resolve(process.cwd(), "tests");
  const testFiles = sourceFiles(TESTS).filter((f) => f.endsWith(".ts"));

  it("no test module implements the Backend", () => {
    const doubles = testFiles.filter((f) => /implements\s+Backend\b|:\s*Backend\s*=\s*\{/.test(readSource(TESTS, f)));
    expect(doubles).toEqual([]);
  });

  it("only the recorded transport, and backend.test.ts for the error mapping, stand in for invoke", () => {
    const mocking = testFiles.filter((f) => f !== "architecture.test.ts" && readSource(TESTS, f).includes('vi.mock("@tauri-apps/api/core"')).sort();
    expect(mocking).toEqual(["backend.test.ts", "support/setup.ts"]);
  });

  it("the recorded answers exist for the tests that use them", () => {
    const users = testFiles.filter((f) => f.endsWith(".test.ts") && /recorded\(|enterpriseSession\(/.test(readSource(TESTS, f)));
    expect(users.length).toBeGreaterThanOrEqual(9);
    const folders = readdirSync(resolve(TESTS, "recorded"));
    expect(users.filter((f) => !folders.includes(f.replace(/\.test\.ts$/, "")))).toEqual([]);
  });
});
