// Histories recorded by earlier builds (the demo reproduction, a reference-validation mutant) replay
// against the current workflow code: a change that would break a run in flight fails here unless it
// is patched (`patched()`) or versioned. Fixtures are kept per build and never rewritten in place
// (tests/helpers/histories.ts); a new build adds its own folder with PHYSVEC_RECORD_HISTORY=1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { repoRoot } from '../../lib/paths.js';
import { workflowBundle } from '../helpers/temporal.js';
import { HISTORIES_DIR } from '../helpers/histories.js';

const builds = readdirSync(HISTORIES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

test('every build\'s committed histories replay against the current workflow code', async (t) => {
  assert.ok(builds.length > 0, `no recorded builds in ${HISTORIES_DIR}`);
  const loose = readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json'));
  assert.deepEqual(loose, [], 'histories live in a folder of the build that recorded them (<date>-<commit>/)');
  const bundle = await workflowBundle();
  const failures: string[] = [];
  let replayed = 0;
  for (const build of builds) {
    const dir = path.join(HISTORIES_DIR, build);
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      const workflowId = `${build}/${path.basename(f, '.json')}`;
      try {
        await Worker.runReplayHistory({ workflowBundle: bundle }, JSON.parse(readFileSync(path.join(dir, f), 'utf8')), workflowId);
        replayed++;
      } catch (err) {
        failures.push(`${workflowId}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  }
  t.diagnostic(`${replayed} histories of ${builds.length} builds replayed (${builds.join(', ')})`);
  assert.deepEqual(failures, [], 'histories of earlier builds no longer replay: patch the change (patched()/deprecatePatch) or version it');
  assert.ok(replayed >= builds.length);
});

test('committed histories are never rewritten in place', { skip: existsSync(path.join(repoRoot, '.git')) ? false : 'not a git checkout: no history to check' }, () => {
  // A fixture is added once; a modification (M) of a file in a build folder means a build's record was replaced.
  const modified = execFileSync('git', ['log', '--diff-filter=M', '--name-only', '--format=%h %s', '--', ':(glob)tests/fixtures/histories/*/*.json'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  assert.equal(modified, '', `replay fixtures were modified after they were added:\n${modified}`);
});
