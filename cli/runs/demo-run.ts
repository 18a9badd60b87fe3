// `physvec demo`: the main job on the embedded defaults — dev server (started if needed), workers in
// this process, and the bundled task reproduced end to end with the scripted model; or, with
// `smoke`, the platform's smoke task (one script in the sandbox).
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { startDevServer } from '../../lib/temporal/dev-server.js';
import { connectClient, connectWorker, uiUrl } from '../../lib/temporal/connection.js';
import { createWorkers, installRuntime } from '../../workers/create-workers.js';
import { startSmoke } from './smoke-run.js';
import { followSmoke } from './follow.js';
import { startReproduction } from './reproduction-run.js';
import { followReproduction, printResult } from './follow-reproduction.js';
import { artifactStore } from '../../lib/artifacts/store.js';
import { line, EXIT } from '../output.js';
import { describePriority, raiseOwnPriority } from '../../lib/process-priority.js';

export const SMOKE_TASK = path.join(repoRoot, 'data', 'tasks', 'smoke', 'task_smoke_heisenberg_dimer.json');
export const DEMO_TASK = path.join(repoRoot, 'data', 'tasks', 'dmrg', 'task_dmrg_tezuka_1a.json');
export const DEMO_MODEL = 'scripted:task_dmrg_tezuka_1a';

export async function runDemo(opts: { smoke?: boolean; model?: string }): Promise<void> {
  const t0 = Date.now();
  const server = process.env.TEMPORAL_ADDRESS ? undefined : await startDevServer();
  if (server) line(`Temporal dev server ${server.alreadyRunning ? 'already running' : 'started'} at ${server.address} (UI ${server.uiUrl})`);
  // The client connects first, with its short deadline: an unreachable server is one line at once,
  // before the workers build their bundle and the knowledge base (minutes under load).
  const { client, connection } = await connectClient();
  // The workers run in this process: raised like `physvec worker`'s (lib/process-priority.ts), before the SDK's threads exist.
  const priority = raiseOwnPriority();
  if (priority && !priority.raised) line(`workers: ${describePriority(priority)}`);
  installRuntime();
  const { connection: wconn, target } = await connectWorker().catch(async (err: unknown) => {
    await connection.close();
    throw err;
  });
  const workers = await createWorkers(wconn, target.namespace, 'all');
  const run = async () => {
    if (opts.smoke) {
      const { handle, workflowId } = await startSmoke(client, SMOKE_TASK);
      line(`workflow ${workflowId}`);
      const result = await followSmoke(handle);
      line(`result: ${result.status}`);
      for (const f of result.run.files ?? []) line(`  produced ${f.path}: ${artifactStore().describe(f.ref.sha256)}`);
      line(`Temporal UI: ${uiUrl(workflowId)}`);
      if (result.status !== 'passed') process.exitCode = EXIT.failed;
      return;
    }
    const started = await startReproduction(client, DEMO_TASK, { model: opts.model ?? DEMO_MODEL });
    line(`reproducing ${started.taskId} with ${opts.model ?? `${DEMO_MODEL} (scripted model: recorded answers; execution and verification are real)`}`);
    line(`workflow ${started.workflowId}`);
    line(`Temporal UI: ${uiUrl(started.workflowId)}`);
    const result = await followReproduction(started.handle);
    printResult(result);
    if (result.status !== 'passed') process.exitCode = EXIT.failed;
  };
  try {
    const [first, ...rest] = workers;
    await first!.runUntil(async () => {
      await Promise.all(rest.map((w) => w.runUntil(run())));
    });
    line(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await connection.close();
    await wconn.close();
  }
}
