// The build a run is pinned to names what a worker runs, not the commit: a commit that changes only
// the README (or tests, notes) keeps the build, so a worker restarted after pulling it still serves
// the runs in flight. Seen in a kill drill: a README commit made mid-drill gave the restarted
// simulation worker a new build id, and the pinned run's activities waited for a worker of the old
// build for 10 minutes with none polling.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { buildIdOfCheckout } from '../../lib/temporal/build-id.js';

test('a commit of docs or tests keeps the build id; a commit or an uncommitted change of runtime code makes a new one', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-build-id-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], { cwd: dir, stdio: 'ignore' });
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  git('init', '-q');
  write('lib/a.ts', 'export const a = 1;\n');
  write('workflows/w.ts', 'export const w = 1;\n');
  write('README.md', 'one\n');
  git('add', '-A');
  git('commit', '-qm', 'first');
  const first = buildIdOfCheckout(dir);
  assert.match(first ?? '', /^[0-9a-f]{12}$/);

  write('README.md', 'two\n');
  write('tests/x.test.ts', '// a new test\n');
  git('add', '-A');
  git('commit', '-qm', 'docs and tests');
  assert.equal(buildIdOfCheckout(dir), first, 'a README/tests commit is the same build');

  write('lib/a.ts', 'export const a = 2;\n');
  const dirty = buildIdOfCheckout(dir);
  assert.match(dirty ?? '', new RegExp(`^${first}-dirty-[0-9a-f]{8}$`), 'an uncommitted runtime change is a build of its own');
  git('commit', '-qam', 'code');
  const second = buildIdOfCheckout(dir);
  assert.match(second ?? '', /^[0-9a-f]{12}$/);
  assert.notEqual(second, first, 'a runtime commit is a new build');

  assert.equal(buildIdOfCheckout(os.tmpdir()), undefined, 'not a checkout');
});
