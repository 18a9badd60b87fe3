// The whole test suite: one real Temporal dev server for all tests (unless TEMPORAL_ADDRESS points
// at one already), a throw-away state directory, then node's test runner over tests/**/*.test.ts.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../lib/paths.js';
import { startDevServer, stopDevServer } from '../lib/temporal/dev-server.js';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'fixtures' && name !== 'helpers') out.push(...findTests(p));
    } else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out.sort();
}

const filters = process.argv.slice(2);
const files = findTests(path.join(repoRoot, 'tests')).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
const env = { ...process.env };
let serverDir: string | undefined;
if (!env.TEMPORAL_ADDRESS) {
  serverDir = mkdtempSync(path.join(os.tmpdir(), 'physvec-test-server-'));
  const port = Number(env.PHYSVEC_TEST_TEMPORAL_PORT ?? 17233);
  const uiPort = port + 1000;
  const info = await startDevServer({ dir: serverDir, port, uiPort });
  console.log(`# test Temporal dev server at ${info.address} (UI ${info.uiUrl}), ready in ${info.readyMs} ms`);
  env.TEMPORAL_ADDRESS = info.address;
  env.PHYSVEC_UI_PORT = String(uiPort);
  env.PHYSVEC_TEST_SERVER_DIR = serverDir;
}
env.PHYSVEC_STATE_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'physvec-test-state-'));

const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env,
  cwd: repoRoot,
});
if (serverDir) await stopDevServer({ dir: serverDir, port: Number(env.TEMPORAL_ADDRESS!.split(':')[1]) });
process.exit(r.status ?? 1);
