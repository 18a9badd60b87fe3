// Platform benchmark (not a test): set-up time (warm; cold with --cold), dev-server start-to-ready,
// and the overhead of a sandboxed print() through Temporal vs the venv's Python run directly.
// Prints ratios measured side by side in one run.  Usage: node --import tsx scripts/bench-platform.ts [--cold] [--runs N]
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { execa } from 'execa';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, bundleWorkflowCode } from '@temporalio/worker';
import { repoRoot, venvPython } from '../lib/paths.js';
import { freePort } from '../lib/net/free-port.js';
import { createWorkers, installRuntime } from '../workers/create-workers.js';
import { artifactStore } from '../lib/artifacts/store.js';
import { taskQueues } from '../lib/temporal/task-queues.js';
import { runSandboxed } from '../runners/sandbox/index.js';
import { answerHelp, benchServer, median } from './bench-support.js';

answerHelp(import.meta.url);
installRuntime();
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 10;
const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function timeBootstrap(): Promise<number> {
  const t = Date.now();
  await execa('bash', ['scripts/bootstrap.sh'], { cwd: repoRoot, stdio: 'inherit' });
  return Date.now() - t;
}

if (args.includes('--cold')) {
  // Cold: throw away every installed thing the bootstrap made (npm's and pip's download caches stay, as on any machine that has run npm/pip before).
  rmSync(path.join(repoRoot, '.stamps'), { recursive: true, force: true });
  rmSync(path.join(repoRoot, '.venv'), { recursive: true, force: true });
  rmSync(path.join(repoRoot, 'node_modules'), { recursive: true, force: true });
  console.log(`cold set-up: ${seconds(await timeBootstrap())} s`);
}
console.log(`warm set-up: ${seconds(await timeBootstrap())} s`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-bench-'));
const { info, stop: stopServer } = await benchServer({ dir, port: await freePort(), uiPort: await freePort() });
console.log(`dev server start-to-ready: ${seconds(info.readyMs)} s`);

const address = info.address;
const connection = await Connection.connect({ address });
const client = new Client({ connection });
const wconn = await NativeConnection.connect({ address });
const workers = await createWorkers(wconn, 'default', 'all', {
  workflowBundle: await bundleWorkflowCode({ workflowsPath: path.join(repoRoot, 'workflows/index.ts'), logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } }),
});
const script = 'print("hello")\n';
const ref = await artifactStore().put(script, { name: 'main.py' });

const direct: number[] = [];
const sandboxOnly: number[] = [];
const viaTemporal: number[] = [];
const [orch, sim] = workers;
await orch!.runUntil(sim!.runUntil((async () => {
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await execa(venvPython, ['-c', script]);
    direct.push(performance.now() - t);

    t = performance.now();
    await runSandboxed({ language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: script }] } as never, { store: artifactStore() });
    sandboxOnly.push(performance.now() - t);

    t = performance.now();
    const h = await client.workflow.start('smokeReproduction', {
      workflowId: `bench-${Date.now()}-${i}`,
      taskQueue: taskQueues().orchestration,
      args: [{ taskId: 'bench', topic: 'bench', request: { language: 'python', entry: 'main.py', files: [{ path: 'main.py', ref }] } }],
    });
    await h.result();
    viaTemporal.push(performance.now() - t);
  }
})()));
console.log(`print() directly with the venv's python: median ${median(direct).toFixed(0)} ms over ${runs} runs`);
console.log(`print() in the sandbox (no Temporal):     median ${median(sandboxOnly).toFixed(0)} ms`);
console.log(`print() through Temporal + sandbox:       median ${median(viaTemporal).toFixed(0)} ms`);
console.log(`overhead ratio (Temporal+sandbox / direct): ${(median(viaTemporal) / median(direct)).toFixed(2)}`);
console.log(`overhead ratio (sandbox / direct):          ${(median(sandboxOnly) / median(direct)).toFixed(2)}`);
await connection.close();
await wconn.close();
await stopServer();
