// The sandbox's pure parts: bounded output capture, environment building, mount planning, globs.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { buildSandboxEnv } from '../../runners/sandbox/env.js';
import { matchesAny } from '../../runners/sandbox/glob.js';
import { bwrapMountArgs } from '../../runners/sandbox/mounts.js';
import { HeadTailCapture } from '../../runners/sandbox/output-capture.js';
import { allocateSandboxUid } from '../../runners/sandbox/uid.js';
import { removeStaleWorkDirs, sandboxRoot } from '../../runners/sandbox/workdir.js';
import { useTestStateDir } from '../fixtures/hostile/harness.js';

describe('HeadTailCapture', () => {
  test('keeps a short stream exactly', () => {
    const c = new HeadTailCapture(100);
    for (const s of ['hello ', 'wide ', 'world\n']) c.push(Buffer.from(s));
    assert.equal(c.truncated, false);
    assert.equal(c.content().toString(), 'hello wide world\n');
    assert.equal(c.totalBytes, 17);
    assert.equal(c.tailText(6), 'world\n');
  });

  test('keeps head and tail of a long stream and counts the rest', () => {
    const c = new HeadTailCapture(20);
    let all = '';
    for (let i = 0; i < 1000; i++) {
      const s = `${i},`;
      all += s;
      c.push(Buffer.from(s));
    }
    assert.equal(c.totalBytes, all.length);
    assert.equal(c.truncated, true);
    const text = c.content().toString();
    assert.ok(text.startsWith(all.slice(0, 10)));
    assert.ok(text.endsWith(all.slice(-10)));
    assert.match(text, new RegExp(`${all.length - 20} bytes omitted of ${all.length}`));
    assert.equal(c.tailText(8), all.slice(-8));
  });

  test('exactly at the budget is not truncated', () => {
    const c = new HeadTailCapture(10);
    c.push(Buffer.from('0123456789'));
    assert.equal(c.truncated, false);
    assert.equal(c.content().toString(), '0123456789');
    c.push(Buffer.from('A'));
    assert.equal(c.truncated, true);
  });

  test('a tail cut inside a multi-byte character drops the fragment', () => {
    const c = new HeadTailCapture(1000);
    c.push(Buffer.from('ααα'));
    assert.equal(c.tailText(3), 'α');
  });
});

describe('buildSandboxEnv', () => {
  const parts = { workDir: '/w', privateDir: '/w/.sandbox', tmpDir: '/tmp', pathDirs: ['/venv/bin'] };
  test('inherits only allow-listed names and never secrets', () => {
    const env = buildSandboxEnv({
      ...parts,
      runnerEnv: { MPLBACKEND: 'Agg', SNEAKY_TOKEN: 'x' },
      requestEnv: { PHYSVEC_PARAM: '4' },
      hostEnv: { OPENAI_API_KEY: 'sk', HOME: '/root', LD_PRELOAD: '/x.so', OPENBLAS_CORETYPE: 'Haswell', OMP_NUM_THREADS: '4', PATH: '/evil' },
    });
    assert.equal(env.HOME, '/w');
    assert.equal(env.PATH, '/venv/bin:/usr/local/bin:/usr/bin:/bin');
    assert.equal(env.OPENBLAS_CORETYPE, 'Haswell');
    assert.equal(env.OMP_NUM_THREADS, '4');
    assert.equal(env.PHYSVEC_PARAM, '4');
    assert.equal(env.MPLBACKEND, 'Agg');
    for (const gone of ['OPENAI_API_KEY', 'LD_PRELOAD', 'SNEAKY_TOKEN']) assert.equal(env[gone], undefined, gone);
  });

  test('thread counts default to one, the request may raise them', () => {
    const base = buildSandboxEnv({ ...parts, runnerEnv: {}, requestEnv: {}, hostEnv: {} });
    assert.equal(base.OMP_NUM_THREADS, '1');
    const raised = buildSandboxEnv({ ...parts, runnerEnv: {}, requestEnv: { OMP_NUM_THREADS: '2' }, hostEnv: {} });
    assert.equal(raised.OMP_NUM_THREADS, '2');
  });
});

describe('bwrapMountArgs', () => {
  test('hides the repo and re-exposes the venv inside it and an install under an unreachable directory', (t) => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-mounts-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const locked = path.join(root, 'locked');
    const install = path.join(locked, 'pyenv', 'versions', '3.11');
    const repo = path.join(root, 'repo');
    const venv = path.join(repo, '.venv');
    const state = path.join(repo, 'data', 'state');
    const work = path.join(state, 'sandbox', 'run1');
    for (const d of [install, venv, work]) mkdirSync(d, { recursive: true });
    chmodSync(root, 0o755);
    chmodSync(locked, 0o700);
    const args = bwrapMountArgs({ workDir: work, hide: [state, repo], readPaths: [install, venv], tmpfsBytes: 1 << 20, supportsSize: true, uid: 123_456 });
    const joined = args.join(' ');
    assert.match(joined, /^--ro-bind \/ \/ /);
    assert.ok(joined.includes(`--tmpfs ${locked} `), 'the 0700 directory is covered');
    assert.ok(joined.includes(`--ro-bind ${install} ${install}`), 'the install is bound back read-only');
    assert.ok(joined.includes(`--perms 0755 --dir ${path.join(locked, 'pyenv')} `), 'intermediate dirs are traversable');
    assert.ok(joined.includes(`--tmpfs ${repo} `), 'the repo is hidden');
    assert.ok(!joined.includes(`--tmpfs ${state} `), 'a cover inside a cover is dropped');
    assert.ok(joined.includes(`--ro-bind ${venv} ${venv}`), 'the venv inside the hidden repo is re-exposed');
    for (const d of [path.join(repo, 'data'), state, path.join(state, 'sandbox')]) assert.ok(joined.includes(`--perms 0755 --dir ${d} `), d);
    assert.ok(joined.includes(`--bind ${work} ${work}`));
    const at = (s: string) => args.indexOf(s);
    assert.ok(at(locked) < at(install), 'the cover comes before the bind');
    assert.ok(at(repo) < at(venv) && at(repo) < args.lastIndexOf(work));
    // As the worker's own user nothing unreachable needs re-exposing.
    const asWorker = bwrapMountArgs({ workDir: work, hide: [], readPaths: [install], tmpfsBytes: 1 << 20, supportsSize: false, uid: null }).join(' ');
    assert.ok(!asWorker.includes(locked));
    assert.ok(!asWorker.includes('--size'));
  });
});

describe('matchesAny', () => {
  test('* stays in a segment, ** spans them, no globs match nothing', () => {
    assert.ok(matchesAny('figure.png', ['*.png']));
    assert.ok(!matchesAny('out/figure.png', ['*.png']));
    assert.ok(matchesAny('out/deep/figure.png', ['**/*.png']));
    assert.ok(matchesAny('figure.png', ['**/*.png']));
    assert.ok(matchesAny('data1.csv', ['data?.csv']));
    assert.ok(!matchesAny('dataxcsv', ['data.csv']));
    assert.ok(matchesAny('out/x.csv', ['*.png', 'out/*.csv']));
    assert.ok(!matchesAny('figure.png', []));
  });
});

describe('removeStaleWorkDirs', () => {
  test('removes work dirs untouched for two days and keeps fresh ones', async (t) => {
    useTestStateDir();
    const old = path.join(sandboxRoot(), `old-${process.pid}`);
    const fresh = path.join(sandboxRoot(), `fresh-${process.pid}`);
    mkdirSync(path.join(old, 'sub'), { recursive: true });
    mkdirSync(fresh, { recursive: true });
    t.after(() => rmSync(fresh, { recursive: true, force: true }));
    const threeDaysAgo = new Date(Date.now() - 72 * 3600_000);
    utimesSync(old, threeDaysAgo, threeDaysAgo);
    const removed = await removeStaleWorkDirs();
    assert.ok(removed.includes(old));
    assert.equal(existsSync(old), false);
    assert.equal(existsSync(fresh), true);
  });

  test("removes at once a fresh dir of a run whose worker died, keeps one whose run's uid is held", async (t) => {
    if (process.getuid?.() !== 0) return t.skip('needs root: work dirs are handed to per-run uids only when the worker is root');
    useTestStateDir();
    const held = await allocateSandboxUid();
    const dead = await allocateSandboxUid();
    await dead.release(); // its worker died: nobody holds the uid any more
    const live = path.join(sandboxRoot(), `live-${process.pid}`);
    const orphan = path.join(sandboxRoot(), `orphan-${process.pid}`);
    mkdirSync(path.join(orphan, 'deep'), { recursive: true });
    mkdirSync(live, { recursive: true });
    chownSync(orphan, dead.uid, dead.uid);
    chownSync(live, held.uid, held.uid);
    t.after(async () => {
      await held.release();
      rmSync(live, { recursive: true, force: true });
    });
    const removed = await removeStaleWorkDirs();
    assert.ok(removed.includes(orphan), `the orphan dir of uid ${dead.uid} is removed`);
    assert.equal(existsSync(orphan), false);
    assert.equal(existsSync(live), true, 'a dir whose uid is locked by a live run stays');
  });
});
