// Well-behaved scripts: files in, results and figures out, the environment a script may rely on.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { availableRunners, runSandboxed, sandboxRoot } from '../../runners/sandbox/index.js';
import { hostileScript, testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

describe('sandbox runs of ordinary scripts', () => {
  test('numpy + matplotlib: the PNG and the JSON are collected, the input is not', async () => {
    const result = await runSandboxed(
      { language: 'python', entry: 'plot.py', files: [hostileScript('plot-numpy.py', 'plot.py')], timeoutMs: 120_000, label: 'plot' },
      { store },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.equal(result.ok, true);
    assert.equal(result.label, 'plot');
    assert.match(result.stdoutTail, /PHYSVEC_RESULT \{"name": "integral", "value": 3\.14/);
    const byPath = new Map(result.files.map((f) => [f.path, f.ref]));
    assert.deepEqual([...byPath.keys()].sort(), ['figure.png', 'result.json']);
    const png = await store.get(byPath.get('figure.png')!);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(byPath.get('figure.png')!.mediaType, 'image/png');
    const json = await store.getJson<{ integral: number }>(byPath.get('result.json')!);
    assert.ok(Math.abs(json.integral - Math.PI) < 1e-3);
    assert.ok(!existsSync(`${sandboxRoot()}/${result.runId}`), 'the work dir is removed after its files are stored');
  });

  test('inputs by artifact reference, subdirectories, args and allow-listed env reach the script', async () => {
    const inputRef = await store.put('forty-two\n', { name: 'input.txt' });
    const result = await runSandboxed(
      {
        language: 'python',
        entry: 'main.py',
        files: [hostileScript('print-env.py'), { path: 'data/input.txt', ref: inputRef }],
        args: ['PHYSVEC_PARAM', 'OMP_NUM_THREADS', 'MPLBACKEND', 'JAX_PLATFORMS'],
        env: { PHYSVEC_PARAM: '16', OMP_NUM_THREADS: '2' },
        timeoutMs: 30_000,
      },
      { store },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.match(result.stdoutTail, /PHYSVEC_PARAM=16\nOMP_NUM_THREADS=2\nMPLBACKEND=Agg\nJAX_PLATFORMS=cpu\n/);
    assert.match(result.stdoutTail, /HOME_IS_CWD True/);
    assert.match(result.stdoutTail, /INPUT forty-two/);
    assert.deepEqual(result.files, []);
  });

  test('collectGlobs picks files; symlinks are never followed into the store', async () => {
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('symlink-out.py')], timeoutMs: 30_000 },
      { store },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.deepEqual(result.files.map((f) => f.path), ['honest.txt']);
    assert.deepEqual(result.skippedFiles.map((s) => [s.path, s.reason]).sort(), [['rootdir', 'not-a-regular-file'], ['shadow.txt', 'not-a-regular-file']]);
    const globbed = await runSandboxed(
      { language: 'python', entry: 'plot.py', files: [hostileScript('plot-numpy.py', 'plot.py')], collectGlobs: ['*.json'], timeoutMs: 120_000 },
      { store },
    );
    assert.deepEqual(globbed.files.map((f) => f.path), ['result.json']);
  });

  test('a failing script is reported, not thrown', async () => {
    const result = await runSandboxed(
      { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'import sys\nprint("partial")\nraise SystemExit(3)\n' }], timeoutMs: 30_000 },
      { store },
    );
    assert.equal(result.exitCode, 3);
    assert.equal(result.ok, false);
    assert.equal(result.killedReason, null);
    assert.equal(result.stdoutTail, 'partial\n');
  });

  test('heartbeats report elapsed time and output bytes', async () => {
    const beats: { elapsedMs: number; stdoutBytes: number }[] = [];
    await runSandboxed(
      { language: 'python', entry: 'main.py', files: [hostileScript('sleep-then-exit.py')], args: ['2'], timeoutMs: 30_000 },
      { store, heartbeatMs: 300, onHeartbeat: (h) => beats.push(h) },
    );
    assert.ok(beats.length >= 3, `${beats.length} heartbeats`);
    assert.ok(beats.at(-1)!.elapsedMs > beats[0]!.elapsedMs);
    assert.ok(beats.at(-1)!.stdoutBytes > 0);
  });

  test('PHYSVEC_KEEP_SANDBOX=1 keeps the work dir', async () => {
    process.env.PHYSVEC_KEEP_SANDBOX = '1';
    try {
      const result = await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'open("out.txt","w").write("x")' }] }, { store });
      assert.ok(result.workDir);
      assert.deepEqual(readdirSync(result.workDir!).filter((n) => !n.startsWith('.')).sort(), ['main.py', 'out.txt']);
    } finally {
      delete process.env.PHYSVEC_KEEP_SANDBOX;
    }
  });
});

describe('runners', () => {
  test('python is available with its version', async () => {
    const runners = await availableRunners();
    const py = runners.find((r) => r.language === 'python')!;
    assert.equal(py.available, true, py.reason ?? '');
    assert.match(py.version ?? '', /^3\.\d+/);
    assert.deepEqual(runners.map((r) => r.language).sort(), ['julia', 'orca', 'python']);
  });

  test('julia runs a script in the sandbox', async (t) => {
    const julia = (await availableRunners()).find((r) => r.language === 'julia')!;
    if (!julia.available) return t.skip(`julia unavailable: ${julia.reason}`);
    const result = await runSandboxed(
      { language: 'julia', entry: 'main.jl', files: [{ path: 'main.jl', content: 'println("sum=", sum(1:10))\n' }], timeoutMs: 120_000 },
      { store },
    );
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.match(result.stdoutTail, /sum=55/);
  });

  test('orca runs an input in the sandbox', async (t) => {
    const orca = (await availableRunners()).find((r) => r.language === 'orca')!;
    if (!orca.available) return t.skip(`orca unavailable: ${orca.reason}`);
    const input = '! HF def2-SVP\n* xyz 0 1\nH 0 0 0\nH 0 0 0.74\n*\n';
    const result = await runSandboxed({ language: 'orca', entry: 'h2.inp', files: [{ path: 'h2.inp', content: input }], timeoutMs: 300_000 }, { store });
    assert.equal(result.exitCode, 0, result.stderrTail);
    assert.match(result.stdoutTail, /ORCA TERMINATED NORMALLY/);
  });

  test('asking for an absent toolchain fails with the reason', async (t) => {
    const julia = (await availableRunners()).find((r) => r.language === 'julia')!;
    if (julia.available) return t.skip('julia is installed here');
    await assert.rejects(
      runSandboxed({ language: 'julia', entry: 'main.jl', files: [{ path: 'main.jl', content: '' }] }, { store }),
      /no julia runner on this host: `julia` is not on PATH/,
    );
  });
});
