// No dead code: every export of production code (activities/ cli/ lib/ runners/ schemas/
// temporal-config/ workers/ workflows/ scripts/) is reached from a module's executed statements or
// the workflow bundle's entry, not only from tests; every activity a worker registers is called by
// production code. Read with the TypeScript compiler's type checker (see dead-exports.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { analyse, loadProgram, type DeadExport } from './dead-exports.js';

/**
 * Known dead exports still waiting for another change, each with its reason. Printed on every run;
 * the test fails if one disappears (so the list cannot go stale) or a new one appears.
 */
const ALLOWED: ReadonlyArray<{ export: string; why: string }> = [];

const show = (d: DeadExport) => `${d.file}:${d.line} ${d.name} (${d.kind})`;
const key = (d: DeadExport) => `${d.file} ${d.name}`;

test('no production export is used only by tests or not at all, and every registered activity is called', () => {
  console.log(`# allow-list of dead exports: ${ALLOWED.length === 0 ? 'empty' : ALLOWED.length}`);
  for (const a of ALLOWED) console.log(`# allowed for now: ${a.export} — ${a.why}`);
  const { deadExports, unusedActivities } = analyse(repoRoot, loadProgram(repoRoot));
  const allowed = new Set(ALLOWED.map((a) => a.export));
  assert.deepEqual(deadExports.filter((d) => !allowed.has(key(d))).map(show), [], 'exports no production code uses: remove them (and their tests), or drop the `export`');
  const stale = ALLOWED.filter((a) => !deadExports.some((d) => key(d) === a.export));
  assert.deepEqual(stale.map((a) => a.export), [], 'allow-listed exports that are no longer dead: remove them from ALLOWED');
  assert.deepEqual(unusedActivities, [], 'activities a worker registers that no production code calls');
});

test('a planted unused export, a test-only export, a dead chain and an uncalled activity are found', () => {
  // A small project of the same shape, so the analysis is shown to fail on each kind of violation.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-dead-exports-'));
  try {
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [] }, include: ['lib', 'cli', 'workers', 'workflows', 'activities', 'tests'] }),
      'lib/used.ts': "export const live = 1;\nexport const plantedUnused = 2;\nexport function plantedTestOnly(): number { return 3; }\nexport function plantedChainHead(): number { return plantedChainTail(); }\nexport function plantedChainTail(): number { return 4; }\nexport { live as plantedReexport };\n",
      'lib/barrel.ts': "export { live, plantedTestOnly } from './used.js';\n",
      'activities/act.ts': 'export function createActs() {\n  return { async called(): Promise<number> { return 1; }, async plantedUncalled(): Promise<number> { return 2; } };\n}\nexport type Acts = ReturnType<typeof createActs>;\n',
      'workers/activities.ts': "import { createActs } from '../activities/act.js';\nexport function orchestrationActivities() {\n  return { ...createActs() };\n}\n",
      'workflows/flow.ts': "import type { Acts } from '../activities/act.js';\ndeclare const proxy: Acts;\nexport async function flow(): Promise<number> { return proxy.called(); }\n",
      'workflows/index.ts': "export { flow } from './flow.js';\n",
      'cli/main.ts': "import { live } from '../lib/barrel.js';\nimport { orchestrationActivities } from '../workers/activities.js';\nconsole.log(live, orchestrationActivities());\n",
      'tests/used.test.ts': "import { plantedTestOnly } from '../lib/used.js';\nconsole.log(plantedTestOnly());\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
    const { deadExports, unusedActivities } = analyse(dir, loadProgram(dir));
    assert.deepEqual(deadExports.map((d) => `${d.file} ${d.name} ${d.kind}`), [
      'lib/barrel.ts plantedTestOnly unused',
      'lib/used.ts plantedUnused unused',
      'lib/used.ts plantedTestOnly tests only',
      'lib/used.ts plantedChainHead unused',
      'lib/used.ts plantedChainTail unused',
      'lib/used.ts plantedReexport unused',
    ]);
    assert.deepEqual(unusedActivities, ['plantedUncalled (from createActs)']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
