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

/**
 * The script blocks of a Svelte component, or the whole text of a TypeScript file. Everything
 * else in a component is blanked out (newlines kept), so line numbers are the file's.
 */
export function scriptText(path: string, text: string): string {
  if (!path.endsWith(".svelte")) return text;
  const blank = (m: string) => m.replace(/[^\n]/g, " ");
  let out = "";
  let at = 0;
  for (const m of text.matchAll(/(<script\b[^>]*>)([\s\S]*?)(<\/script>)/g)) {
    out += blank(text.slice(at, m.index)) + blank(m[1]!) + m[2]! + ";" + blank(m[3]!).slice(1);
    at = m.index + m[0].length;
  }
  return out + blank(text.slice(at));
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

export type NamedImport = {
  /** The name as exported by the module (`Backend` in `import { type Backend as B }`). */
  name: string;
  /** The imported file relative to the scanned root, without extension; null for packages. */
  target: string | null;
  line: number;
};

/** The names a file imports by name (`import { a, type B } from "..."`), with where from. */
export function namedImportsOf(fileRel: string, text: string): NamedImport[] {
  const source = ts.createSourceFile(fileRel, scriptText(fileRel, text), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: NamedImport[] = [];
  for (const stmt of source.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteralLike(stmt.moduleSpecifier)) continue;
    const bindings = stmt.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const specifier = stmt.moduleSpecifier.text;
    const target = specifier.startsWith(".") ? stripExt(join(dirname(fileRel), specifier)).split(sep).join("/") : null;
    for (const el of bindings.elements) {
      out.push({ name: (el.propertyName ?? el.name).text, target, line: source.getLineAndCharacterOfPosition(el.getStart()).line + 1 });
    }
  }
  return out;
}

export type NameUse = {
  /** The identifier as written. */
  name: string;
  line: number;
  /** How it is used: a member (`x.backend`), a variable, an argument to `new`, a destructured prop, a prop's type. */
  role: "member" | "variable" | "new-argument" | "prop" | "prop-type";
};

/** Every use of the identifiers `names` in a file's script (Svelte: its script blocks), by role. */
export function namesUsedIn(fileRel: string, text: string, names: readonly string[]): NameUse[] {
  const source = ts.createSourceFile(fileRel, scriptText(fileRel, text), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: NameUse[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && names.includes(node.text)) {
      const parent = node.parent;
      const role: NameUse["role"] =
        ts.isPropertyAccessExpression(parent) && parent.name === node ? "member"
        : ts.isNewExpression(parent) && parent.arguments?.includes(node) ? "new-argument"
        : ts.isBindingElement(parent) && (parent.name === node || parent.propertyName === node) ? "prop"
        : ts.isPropertySignature(parent) && parent.name === node ? "prop-type"
        : "variable";
      if (!ts.isImportSpecifier(parent)) out.push({ name: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, role });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A Svelte component's markup: without its script and style blocks and its comments (lines kept). */
export function markupText(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, " ");
  return text
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, blank)
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, blank)
    .replace(/<!--[\s\S]*?-->/g, blank);
}
