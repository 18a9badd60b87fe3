// Read-only verbs start fast because a command line loads only what it runs (issue 24.6): `--help`
// (top-level and per verb) loads the verbs' declarations only — no Temporal SDK, no workers, no
// results store, no run bodies — and `runs`/`status` load Temporal's client but never the worker SDK,
// the workers or the knowledge base. Checked structurally (the modules loaded), never by timing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../lib/paths.js';

async function loadedBy(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; modules: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests/cli/loaded-modules.ts'), ...args], {
    cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let report = '';
  child.stdout!.on('data', (d) => (stdout += d));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d) => (report += d));
  await new Promise((resolve) => child.on('close', resolve));
  const r = JSON.parse(report) as { code: number; modules: string[] };
  return { ...r, stdout };
}

/** Packages and repository folders that must not load for a light command line. */
const HEAVY_FOR_HELP = [/@temporalio\//, /better-sqlite3/, /\/workers\//, /\/activities\//, /\/lib\/kb\//, /\/cli\/runs\/(?!overlap-names)/, /\/lib\/temporal\//];
const HEAVY_FOR_READS = [/@temporalio\/worker\//, /better-sqlite3/, /\/workers\//, /\/activities\//, /\/lib\/kb\//, /webpack/];

function offenders(modules: string[], heavy: RegExp[]): string[] {
  return modules.filter((m) => heavy.some((h) => h.test(m)));
}

for (const args of [['--help'], ['runs', '--help'], ['status', '--help'], ['reproduce', '--help'], ['worker', '--help'], ['view', '--help']]) {
  test(`physvec ${args.join(' ')} loads the declarations only`, async () => {
    const r = await loadedBy(args);
    assert.equal(r.code, 0);
    assert.ok(r.modules.some((m) => m.endsWith('/cli/program.ts')), 'the hook saw the program load');
    assert.deepEqual(offenders(r.modules, HEAVY_FOR_HELP), []);
    if (args[0] === '--help') {
      // Every verb is still listed, with its description.
      for (const verb of ['server', 'worker', 'demo', 'reproduce', 'status', 'runs', 'stop', 'approve', 'resume', 'tasks', 'report', 'cassette', 'toolchains', 'kb', 'results', 'bench', 'schedule', 'view']) {
        assert.match(r.stdout, new RegExp(`^\\s+${verb}\\b`, 'm'), `--help lists ${verb}`);
      }
    }
  });
}

test('physvec runs and status load Temporal\'s client but not the worker SDK, the workers or the knowledge base', async () => {
  // An address nobody answers: the verbs fail fast (one line), after loading what they need.
  const env = { TEMPORAL_ADDRESS: '127.0.0.1:1' };
  for (const args of [['runs'], ['status', 'no-such-run']]) {
    const r = await loadedBy(args, env);
    assert.equal(r.code, 1, `${args.join(' ')} against an unreachable server fails as unreachable`);
    assert.ok(r.modules.some((m) => /@temporalio\/client\//.test(m)), 'the client was loaded');
    assert.deepEqual(offenders(r.modules, HEAVY_FOR_READS), [], args.join(' '));
  }
});
