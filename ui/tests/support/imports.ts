// Lists the imports of TypeScript and Svelte source files, for the architecture rules.
// Parses with the TypeScript compiler, so comments and strings cannot fool it.

import ts from "typescript";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

export type ImportRef = {
  /** The module specifier as written. */
  specifier: string;
  /** True for `import type ...` / `export type ... from`: erased at compile time. */
  typeOnly: boolean;
  /** The imported file relative to the scanned root, without extension; null for packages. */
  target: string | null;
  line: number;
};

/** The script blocks of a Svelte component, or the whole text of a TypeScript file. */
export function scriptText(path: string, text: string): string {
  if (!path.endsWith(".svelte")) return text;
  const blocks = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? "");
  return blocks.join("\n;\n");
}

/** The imports and re-exports of one file's source text. */
export function importsOf(fileRel: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(fileRel, scriptText(fileRel, text), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: ImportRef[] = [];
  const add = (spec: ts.Expression, typeOnly: boolean, node: ts.Node) => {
    if (!ts.isStringLiteralLike(spec)) return;
    const specifier = spec.text;
    const target = specifier.startsWith(".")
      ? stripExt(join(dirname(fileRel), specifier)).split(sep).join("/")
      : null;
    out.push({ specifier, typeOnly, target, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node.importClause?.isTypeOnly === true, node);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node.moduleSpecifier, node.isTypeOnly, node);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly, node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg) add(arg, false, node);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg)) add(arg.literal as ts.Expression, true, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function stripExt(path: string): string {
  return path.replace(/\.(ts|js|svelte\.ts|svelte)$/, "");
}

/** Every .ts and .svelte file under `root`, as paths relative to it with "/" separators. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|svelte)$/.test(name)) out.push(relative(root, full).split(sep).join("/"));
    }
  };
  walk(resolve(root));
  return out.sort();
}

export function readSource(root: string, rel: string): string {
  return readFileSync(join(root, rel), "utf8");
}
