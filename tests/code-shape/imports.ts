// The import graph of the project's own .ts files, read with the TypeScript compiler's parser (no type
// checking, so it takes well under a second): each import's target file and whether it is type-only
// (erased at run time, so it costs nothing and is invisible to the Temporal bundler).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Repo-relative path of the importing file. */
  from: string;
  /** Repo-relative path of the imported .ts file, or the bare module name (`node:fs`, `zod`). */
  to: string;
  typeOnly: boolean;
  line: number;
}

export function tsFilesUnder(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(root, rel))) {
      const r = path.posix.join(rel, name);
      if (statSync(path.join(root, r)).isDirectory()) {
        if (name !== 'node_modules') walk(r);
      } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(r);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

function allTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return false; // `import './x.js'` runs the module
    if (clause.isTypeOnly) return true;
    if (clause.name) return false;
    const bindings = clause.namedBindings;
    return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** Resolves `./x.js` (the NodeNext spelling) to the repo-relative `.ts` file; bare names stay as they are. */
function resolveSpecifier(fromFile: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  return joined.replace(/\.js$/, '.ts');
}

export function importsOf(root: string, file: string): ImportEdge[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (spec: string, typeOnly: boolean, node: ts.Node): void => {
    edges.push({ from: file, to: resolveSpecifier(file, spec), typeOnly, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, allTypeOnly(node), node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) add(arg.text, false, node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}
