// Exports of production code that no production code uses: read with the TypeScript compiler's type
// checker over the whole project (tsconfig.json), so a use is a reference the compiler resolves to the
// exported declaration — through imports, re-exports (`export { x } from`, `export *`), namespace
// imports (`ns.x`), dynamic `import()` and type positions alike — not a name that happens to match.
//
// An export is *live* when a production file other than its own declaration refers to it (a use in
// its own module counts: the code runs, only the `export` is superfluous). Tests never make an export
// live. Entry points are the roots: `workflows/index.ts` (the worker bundles it and Temporal calls its
// exports by name); the CLI and the scripts are executed as files and export nothing anyone imports.
//
// Activities: a factory of activities that no worker registers is an export only tests import, so it is
// found like any other; and an activity a worker registers must be called by some production code —
// the name a workflow proxies or a direct call (see `unusedActivities`).
import path from 'node:path';
import ts from 'typescript';

/** Folders of production code (everything else the tsconfig includes is tests). */
export const PRODUCTION_DIRS = ['activities', 'cli', 'lib', 'runners', 'schemas', 'temporal-config', 'workers', 'workflows', 'scripts'] as const;

/** Files whose exports are used from outside the TypeScript program (by name, at run time). */
export const ENTRY_FILES = ['workflows/index.ts'] as const;

export interface DeadExport {
  /** Repo-relative file of the declaration. */
  file: string;
  name: string;
  line: number;
  /**
   * `unused`: nothing refers to it; `tests only`: only files under tests/ do (and perhaps its own
   * module); `own module only`: only its own module does (the `export` is what is dead).
   */
  kind: 'unused' | 'tests only' | 'own module only';
}

export interface Analysis {
  program: ts.Program;
  deadExports: DeadExport[];
  /** Registered activities no production code calls (`activity` names of the workers' activity maps). */
  unusedActivities: string[];
}

type Place = 'production' | 'test' | 'other';

export function loadProgram(root: string, extraFiles: Record<string, string> = {}, oldProgram?: ts.Program): ts.Program {
  const configPath = path.join(root, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const extra = new Map(Object.entries(extraFiles).map(([rel, text]) => [path.join(root, rel), text]));
  const host = ts.createCompilerHost(parsed.options, true);
  if (extra.size) {
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (name, lang, onError, create) => (extra.has(name) ? ts.createSourceFile(name, extra.get(name)!, lang, true) : getSourceFile.call(host, name, lang, onError, create));
    host.fileExists = (name) => extra.has(name) || fileExists.call(host, name);
    host.readFile = (name) => extra.get(name) ?? readFile.call(host, name);
  }
  return ts.createProgram({ rootNames: [...parsed.fileNames, ...extra.keys()], options: parsed.options, host, oldProgram });
}

export function analyse(root: string, program: ts.Program): Analysis {
  const checker = program.getTypeChecker();
  const rel = (f: ts.SourceFile) => path.relative(root, f.fileName).split(path.sep).join('/');
  const placeOf = (file: string): Place => {
    if (file.startsWith('tests/')) return 'test';
    return (PRODUCTION_DIRS as readonly string[]).includes(file.split('/')[0]!) ? 'production' : 'other';
  };
  const own = program.getSourceFiles().filter((f) => !f.isDeclarationFile && !f.fileName.includes(`${path.sep}node_modules${path.sep}`) && placeOf(rel(f)) !== 'other');
  const norm = (s: ts.Symbol): ts.Symbol => checker.getExportSymbolOfSymbol(s);

  // The reference graph at the grain of top-level declarations: who (a top-level symbol, or ROOT for a
  // module's executed statements) refers to what. An alias (an import, a re-export) is an edge to
  // each symbol along its chain, so a re-export is live only if something live imports it.
  const ROOT = Symbol('root');
  type User = ts.Symbol | typeof ROOT;
  const edges = new Map<User, Set<ts.Symbol>>();
  /** Places (files) each symbol is referred to from, for the report (`tests only` or `unused`). */
  const usedFrom = new Map<ts.Symbol, Set<string>>();
  const record = (users: User[], s: ts.Symbol | undefined, file: string): void => {
    for (let cur = s, hops = 0; cur && hops < 20; hops++) {
      const n = norm(cur);
      for (const u of users) {
        let out = edges.get(u);
        if (!out) edges.set(u, (out = new Set()));
        out.add(n);
      }
      let from = usedFrom.get(n);
      if (!from) usedFrom.set(n, (from = new Set()));
      from.add(file);
      if (!(n.flags & ts.SymbolFlags.Alias)) break;
      const next = checker.getImmediateAliasedSymbol(n);
      if (!next || next === n) break;
      cur = next;
    }
  };

  const walk = (start: ts.Node, users: User[], file: string): void => {
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) || ts.isImportEqualsDeclaration(node)) return; // bindings are not uses; the local name's uses are
      if (ts.isBindingElement(node)) {
        // `const { a } = obj` / `{ a: b } = obj`: a use of obj's member `a` (activities destructured from a proxy).
        const key = node.propertyName ?? node.name;
        if (ts.isIdentifier(key)) record(users, checker.getTypeAtLocation(node.parent).getProperty(key.text), file);
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
        // `import('./x.js')` (a CLI verb loaded on demand): its result is often typed by shape, which
        // loses the link to the module, so it counts as a use of every export of the module.
        const target = checker.getSymbolAtLocation(node.arguments[0]);
        if (target) for (const e of checker.getExportsOfModule(target)) record(users, e, file);
      }
      if (ts.isIdentifier(node)) {
        const parent = node.parent;
        if (ts.isExportSpecifier(parent)) {
          // `export { a }` / `export { a as b }` without `from`: a use of the module's own `a`.
          if (!parent.parent.parent.moduleSpecifier && (parent.propertyName ?? parent.name) === node) record(users, checker.getExportSpecifierLocalTargetSymbol(parent), file);
          return;
        }
        if (ts.isShorthandPropertyAssignment(parent) && parent.name === node) {
          record(users, checker.getShorthandAssignmentValueSymbol(parent), file);
          return;
        }
        if (isDeclarationName(node)) return;
        record(users, checker.getSymbolAtLocation(node), file);
        // A member reached through a union (`modules[i].register`): each constituent's member is used.
        if (ts.isPropertyAccessExpression(parent) && parent.name === node) {
          const t = checker.getTypeAtLocation(parent.expression);
          if (t.isUnion()) for (const c of t.types) record(users, c.getProperty(node.text), file);
        }
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(start);
  };

  for (const sf of own) {
    const file = rel(sf);
    if (placeOf(file) === 'test') {
      walk(sf, [], file);
      continue;
    }
    for (const st of sf.statements) {
      const declared = topLevelSymbols(checker, st).map(norm);
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          const syms = bindingNames(d.name).map((n) => checker.getSymbolAtLocation(n)).filter((x): x is ts.Symbol => !!x).map(norm);
          walk(d, syms.length ? syms : [ROOT], file);
        }
      } else walk(st, declared.length ? declared : [ROOT], file);
    }
  }

  const exportsOf = (sf: ts.SourceFile): ts.Symbol[] => {
    const moduleSymbol = checker.getSymbolAtLocation(sf);
    // Declared elsewhere and reached through `export *`: judged in the module that declares it.
    return moduleSymbol ? checker.getExportsOfModule(moduleSymbol).filter((e) => (e.declarations ?? []).some((d) => d.getSourceFile() === sf)) : [];
  };
  const isEntry = (file: string) => (ENTRY_FILES as readonly string[]).includes(file);

  // Live: reachable from a module's executed statements or an entry file's exports.
  const live = new Set<ts.Symbol>();
  const queue: ts.Symbol[] = [...(edges.get(ROOT) ?? [])];
  for (const sf of own) if (isEntry(rel(sf))) queue.push(...exportsOf(sf).map(norm));
  while (queue.length) {
    const s = queue.pop()!;
    if (live.has(s)) continue;
    live.add(s);
    for (const t of edges.get(s) ?? []) if (!live.has(t)) queue.push(t);
    if (s.flags & ts.SymbolFlags.Alias) {
      const t = checker.getImmediateAliasedSymbol(s);
      if (t) queue.push(norm(t));
    }
  }

  const deadExports: DeadExport[] = [];
  for (const sf of own) {
    const file = rel(sf);
    if (placeOf(file) !== 'production' || isEntry(file)) continue;
    for (const exp of exportsOf(sf)) {
      if (live.has(norm(exp))) continue;
      const decl = exp.declarations!.find((d) => d.getSourceFile() === sf)!;
      const from = [...(usedFrom.get(norm(exp)) ?? [])];
      deadExports.push({ file, name: exp.name, line: sf.getLineAndCharacterOfPosition(decl.getStart()).line + 1, kind: from.some((f) => placeOf(f) === 'test') ? 'tests only' : 'unused' });
    }
  }

  return { program, deadExports: deadExports.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line), unusedActivities: unusedActivities(root, program, edges, live) };
}

function bindingNames(name: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/** The symbols a top-level statement declares (none for executed statements and imports). */
function topLevelSymbols(checker: ts.TypeChecker, st: ts.Statement): ts.Symbol[] {
  const named = (n: ts.Node | undefined) => (n ? checker.getSymbolAtLocation(n) : undefined);
  let out: (ts.Symbol | undefined)[] = [];
  if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st) || ts.isModuleDeclaration(st)) out = [named(st.name)];
  else if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) out = st.exportClause.elements.map((e) => named(e.name));
  else if (ts.isExportDeclaration(st) || ts.isImportDeclaration(st)) out = [];
  return out.filter((x): x is ts.Symbol => !!x);
}

function isDeclarationName(node: ts.Identifier): boolean {
  const p = node.parent as ts.NamedDeclaration;
  if (p.name !== node) return false;
  return ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) || ts.isInterfaceDeclaration(p) || ts.isTypeAliasDeclaration(p) || ts.isEnumDeclaration(p) || ts.isModuleDeclaration(p)
    || ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodDeclaration(p) || ts.isMethodSignature(p)
    || ts.isBindingElement(p) || ts.isEnumMember(p) || ts.isTypeParameterDeclaration(p) || ts.isPropertyAssignment(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p)
    || ts.isFunctionExpression(p) || ts.isClassExpression(p);
}

/**
 * The activities the workers register (the members of each map `workers/activities.ts` returns: the
 * spread factories' results) that no production code refers to — a workflow's proxy call resolves to
 * the member of the activity interface, which is the factory result's member by structure, so both
 * the interface member and the implementation member are consulted by name.
 */
function unusedActivities(root: string, program: ts.Program, edges: Map<ts.Symbol | symbol, Set<ts.Symbol>>, live: Set<ts.Symbol>): string[] {
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(path.join(root, 'workers/activities.ts'));
  if (!sf) return [];
  const registered = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isSpreadAssignment(node) && ts.isObjectLiteralExpression(node.parent)) {
      for (const p of checker.getTypeAtLocation(node.expression).getProperties()) registered.set(p.name, sf.text.slice(node.expression.getStart(), node.expression.getStart() + 40).split('(')[0]!);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (registered.size === 0) throw new Error('workers/activities.ts: found no activity map (spread factories) to check');
  // Names referred to as members anywhere in production code (proxy calls, destructuring, direct calls).
  const used = new Set<string>();
  for (const [user, targets] of edges) {
    // The activity maps' own spreads are the registration, not a call.
    if (typeof user === 'symbol' || !live.has(user) || (user.declarations ?? []).some((d) => d.getSourceFile() === sf)) continue;
    for (const t of targets) if (t.flags & (ts.SymbolFlags.Property | ts.SymbolFlags.Method)) used.add(t.name);
  }
  return [...registered].filter(([name]) => !used.has(name)).map(([name, from]) => `${name} (from ${from})`).sort();
}
