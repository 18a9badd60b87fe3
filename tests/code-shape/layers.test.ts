// Layers point one way: cli → workers → workflows / activities → runners → lib → schemas. A file may
// import its own layer or a lower one, never a higher one; workflows and activities share a rank
// but do not import each other (workflows see activities only through type-only imports, which the
// Temporal bundler erases). Workflow code must also stay bundleable and deterministic: everything it
// reaches at run time lies in workflows/, lib/, schemas/ or temporal-config/ and imports no Node built-in (the bundler
// rejects those) nor any package outside the short list below. The lib/ folders form no cycle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { repoRoot } from '../../lib/paths.js';
import { importsOf, tsFilesUnder, type ImportEdge } from './imports.js';

// temporal-config/ (queues, timeouts, search attributes) is pure data beside schemas/.
const RANK: Record<string, number> = { schemas: 0, 'temporal-config': 0, lib: 1, runners: 2, activities: 3, workflows: 3, workers: 4, cli: 5 };
const LAYERS = Object.keys(RANK);

/** Packages workflow code may reach at run time (all deterministic and bundle-safe). */
const WORKFLOW_PACKAGES = new Set(['@temporalio/workflow', '@temporalio/common', 'zod']);

/**
 * Known violations still waiting for another change, each with its reason. The test prints them on
 * every run and fails if one disappears (so the list cannot go stale) or a new one appears.
 */
const ALLOWED: ReadonlyArray<{ edge: string; why: string }> = [
  // (none left: lib/kb's sandboxed introspection moved to runners/kb/, stream D)
];

const layerOf = (file: string): string | undefined => {
  const top = file.split('/')[0]!;
  return top in RANK ? top : undefined;
};

const edges: ImportEdge[] = tsFilesUnder(repoRoot, LAYERS).flatMap((f) => importsOf(repoRoot, f));
const show = (e: ImportEdge): string => `${e.from} → ${e.to}`;
const where = (e: ImportEdge): string => `${e.from}:${e.line} imports ${e.to}${e.typeOnly ? ' (type-only)' : ''}`;

function layerViolations(): ImportEdge[] {
  return edges.filter((e) => {
    const a = layerOf(e.from);
    const b = layerOf(e.to);
    if (!a || !b || a === b) return false;
    if (a === 'workflows' && b === 'activities') return !e.typeOnly;
    if (RANK[b]! === RANK[a]!) return true; // activities → workflows
    return RANK[b]! > RANK[a]!;
  });
}

test('no lower layer imports a higher one', () => {
  const found = layerViolations();
  const allowed = new Set(ALLOWED.map((a) => a.edge));
  for (const a of ALLOWED) console.log(`# allowed for now: ${a.edge} — ${a.why}`);
  const unexpected = found.filter((e) => !allowed.has(show(e)));
  assert.deepEqual(unexpected.map(where), [], 'imports against the layer order (cli → workers → workflows/activities → runners → lib → schemas)');
  const stale = ALLOWED.filter((a) => !found.some((e) => show(e) === a.edge));
  assert.deepEqual(stale.map((a) => a.edge), [], 'allow-listed imports that no longer exist: remove them from ALLOWED');
});

test('workflow code reaches at run time only workflows/, lib/, schemas/, temporal-config/ and bundle-safe packages', () => {
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const byFile = new Map<string, ImportEdge[]>();
  for (const e of edges) byFile.set(e.from, [...(byFile.get(e.from) ?? []), e]);
  const bad: string[] = [];
  const seen = new Set<string>();
  const queue = [...byFile.keys()].filter((f) => f.startsWith('workflows/'));
  while (queue.length) {
    const f = queue.shift()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const e of byFile.get(f) ?? []) {
      if (e.typeOnly) continue;
      const layer = layerOf(e.to);
      if (layer) {
        if (!['workflows', 'lib', 'schemas', 'temporal-config'].includes(layer)) bad.push(`${where(e)}: outside workflows/, lib/, schemas/, temporal-config/`);
        else queue.push(e.to);
      } else if (builtins.has(e.to)) bad.push(`${where(e)}: a Node built-in, which the workflow bundler rejects`);
      else if (!WORKFLOW_PACKAGES.has(e.to)) bad.push(`${where(e)}: package not in WORKFLOW_PACKAGES`);
    }
  }
  assert.ok(seen.size > 10, `the walk found the workflow files (${seen.size})`);
  assert.deepEqual(bad, []);
});

test('activities/ holds no code that only the CLI uses', () => {
  const cliOnly: string[] = [];
  for (const f of new Set(edges.map((e) => e.from))) {
    if (!f.startsWith('activities/')) continue;
    const importers = edges.filter((e) => e.to === f).map((e) => e.from);
    if (importers.length > 0 && importers.every((i) => i.startsWith('cli/'))) cliOnly.push(`${f} (imported only by ${[...new Set(importers)].join(', ')})`);
  }
  assert.deepEqual(cliOnly, [], 'move CLI-only code to cli/ (or lib/ if it is shared)');
});

test('lib/ folders import each other without a cycle', () => {
  const folderOf = (f: string): string => f.split('/').slice(0, 2).join('/').replace(/\.ts$/, '');
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!e.from.startsWith('lib/') || !e.to.startsWith('lib/')) continue;
    const a = folderOf(e.from);
    const b = folderOf(e.to);
    if (a !== b) graph.set(a, new Set([...(graph.get(a) ?? []), b]));
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (n: string, stack: string[]): void => {
    if (state.get(n) === 'done') return;
    if (state.get(n) === 'open') {
      cycles.push([...stack.slice(stack.indexOf(n)), n].join(' → '));
      return;
    }
    state.set(n, 'open');
    for (const m of graph.get(n) ?? []) visit(m, [...stack, n]);
    state.set(n, 'done');
  };
  for (const n of [...graph.keys()].sort()) visit(n, []);
  assert.deepEqual(cycles, []);
});

test('the checker sees a planted violation (so the tests above can fail)', () => {
  const planted: ImportEdge = { from: 'runners/sandbox/run.ts', to: 'activities/x.ts', typeOnly: true, line: 1 };
  edges.push(planted);
  try {
    assert.ok(layerViolations().includes(planted));
  } finally {
    edges.pop();
  }
  const typeOnlyFromWorkflow: ImportEdge = { from: 'workflows/x.ts', to: 'activities/x.ts', typeOnly: true, line: 1 };
  edges.push(typeOnlyFromWorkflow);
  try {
    assert.ok(!layerViolations().includes(typeOnlyFromWorkflow), 'type-only imports of activities from workflows are allowed');
  } finally {
    edges.pop();
  }
});
