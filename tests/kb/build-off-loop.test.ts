// Issue 15, item 2: a knowledge-base build never runs on a worker's event loop. Measured side by side on
// one synthetic corpus (a few thousand manual sections: no Python, the same chunk-and-index work a real
// build does): the same build in this process freezes a 10 ms timer for as long as indexing takes; in
// the child the timer keeps ticking. And the worker cannot build in-process at all: nothing it loads
// reaches lib/kb/build.ts except as a type.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { buildKbInChild } from '../../lib/kb/build-in-child.js';
import { buildKb } from '../../lib/kb/build.js';
import { loadKb, parseRetrieveArgs, searchLoaded } from '../../lib/kb/search.js';
import { repoRoot } from '../../lib/paths.js';
import { introspectRunner } from '../../runners/kb/introspect-runners.js';
import { importsOf, tsFilesUnder } from '../code-shape/imports.js';

const SECTIONS = 4000;
const WORDS = 'lattice spin chain operator basis orbital energy sweep truncation bond dimension estimator sampler gradient'.split(' ');

async function syntheticManuals(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const lines: string[] = [];
  for (let i = 0; i < SECTIONS; i++) {
    const words = Array.from({ length: 60 }, (_, j) => `${WORDS[(i * 7 + j * 3) % WORDS.length]}${(i + j) % 97}`);
    lines.push(`## Keyword option_${i}`, '', `The option_${i} keyword sets ${words.join(' ')}.`, '');
  }
  await writeFile(path.join(dir, 'orca-synthetic.md'), lines.join('\n'));
}

/** Runs `work` while a 10 ms interval records the longest gap between its ticks. */
async function longestTimerGap(work: () => Promise<unknown>): Promise<{ maxGapMs: number; ticks: number; ms: number }> {
  let last = performance.now();
  let maxGapMs = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    ticks++;
  }, 10);
  const t0 = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return { maxGapMs, ticks, ms: performance.now() - t0 };
}

test('a build in the child process leaves the event loop free; the same build in-process blocks it', { timeout: 10 * 60_000 }, async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'physvec-kb-offloop-'));
  try {
    const manuals = path.join(root, 'manuals');
    await syntheticManuals(manuals);
    const common = { sources: [], manualDirs: [manuals], force: true };

    const inProcess = await longestTimerGap(() => buildKb({ ...common, runner: introspectRunner, dir: path.join(root, 'in-process') }));
    const progress: string[] = [];
    const child = await longestTimerGap(() => buildKbInChild({ ...common, dir: path.join(root, 'child'), onProgress: (m) => progress.push(m) }));
    console.log(
      `# longest 10 ms timer gap: in-process build ${Math.round(inProcess.maxGapMs)} ms (of ${Math.round(inProcess.ms)} ms), ` +
        `child build ${Math.round(child.maxGapMs)} ms (of ${Math.round(child.ms)} ms, ${child.ticks} ticks)`,
    );
    // The in-process figure is the yardstick of what blocking looks like on this machine right now.
    assert.ok(inProcess.maxGapMs > 200, `the synthetic build did not block long enough to compare (${Math.round(inProcess.maxGapMs)} ms)`);
    assert.ok(child.maxGapMs * 4 < inProcess.maxGapMs, `child build: timer gap ${Math.round(child.maxGapMs)} ms vs ${Math.round(inProcess.maxGapMs)} ms in-process`);

    // The child's build is a real one: its progress came back over IPC and the result answers queries.
    assert.ok(progress.some((m) => /indexed \d+ chunks/.test(m)), JSON.stringify(progress));
    const hits = searchLoaded(await loadKb({ dir: path.join(root, 'child') }), parseRetrieveArgs({ query: 'option_3210 keyword', toolchain: 'orca', k: 1 }));
    assert.equal(hits[0]?.qualifiedName, 'manual:orca-synthetic.md#Keyword option_3210');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a failing child build rejects with its own message, not a hang', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'physvec-kb-offloop-'));
  try {
    const notADir = path.join(root, 'file');
    await writeFile(notADir, 'x');
    await assert.rejects(buildKbInChild({ sources: [], manualDirs: [], dir: notADir }), /EEXIST|ENOTDIR|not a directory/);
    // loadKb's automatic build goes through the child as well; with nothing to build from it still fails cleanly.
    await assert.rejects(loadKb({ dir: notADir, autoBuild: true }));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('nothing a worker process loads imports lib/kb/build.ts at run time (builds go through the child)', () => {
  const files = tsFilesUnder(repoRoot, ['workers', 'workflows', 'activities', 'lib', 'runners', 'schemas', 'temporal-config']);
  const runtimeImports = new Map(files.map((f) => [f, importsOf(repoRoot, f).filter((e) => !e.typeOnly).map((e) => e.to)]));
  const reached = new Set<string>();
  const visit = (f: string): void => {
    if (reached.has(f) || !runtimeImports.has(f)) return;
    reached.add(f);
    for (const to of runtimeImports.get(f)!) visit(to);
  };
  for (const entry of tsFilesUnder(repoRoot, ['workers'])) visit(entry);
  assert.ok(reached.has('lib/kb/build-in-child.ts'), 'the worker reaches the child-process build');
  assert.ok(!reached.has('lib/kb/build.ts'), 'a worker module imports lib/kb/build.ts: a build would run on its event loop');
});
