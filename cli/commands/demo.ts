// physvec demo — the main job on the embedded defaults: dev server (started if needed), workers in
// this process, the bundled task, and where its result and the Temporal UI are.
import path from 'node:path';
import type { Command } from 'commander';
import { repoRoot } from '../../lib/paths.js';
import { startDevServer } from '../../lib/temporal/dev-server.js';
import { connectClient, connectWorker, uiUrl } from '../../lib/temporal/connection.js';
import { createWorkers, installRuntime } from '../../workers/create-workers.js';
import { startSmoke } from '../runs/smoke-run.js';
import { followSmoke } from '../runs/follow.js';
import { artifactStore } from '../../activities/artifacts/store.js';
import { line, EXIT } from '../output.js';

export const DEMO_TASK = path.join(repoRoot, 'data', 'tasks', 'smoke', 'task_smoke_heisenberg_dimer.json');

export function register(program: Command): void {
  program
    .command('demo')
    .description('run the bundled demo task end to end (dev server + in-process workers)')
    .action(async () => {
      const t0 = Date.now();
      const server = process.env.TEMPORAL_ADDRESS ? undefined : await startDevServer();
      if (server) line(`Temporal dev server ${server.alreadyRunning ? 'already running' : 'started'} at ${server.address} (UI ${server.uiUrl})`);
      installRuntime();
      const { connection: wconn, target } = await connectWorker();
      const workers = await createWorkers(wconn, target.namespace, 'all');
      const { client, connection } = await connectClient();
      try {
        const run = async () => {
          const { handle, workflowId } = await startSmoke(client, DEMO_TASK);
          line(`workflow ${workflowId}`);
          const result = await followSmoke(handle);
          const store = artifactStore();
          line(`result: ${result.status}`);
          for (const f of result.run.files ?? []) line(`  produced ${f.path}: ${store.pathOf(f.ref.sha256)}`);
          line(`Temporal UI: ${uiUrl(workflowId)}`);
          line(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
          if (result.status !== 'passed') process.exitCode = EXIT.failed;
        };
        // Both workers run until the demo's workflow has finished.
        const [first, ...rest] = workers;
        await first!.runUntil(async () => {
          await Promise.all(rest.map((w) => w.runUntil(run())));
        });
      } finally {
        await connection.close();
        await wconn.close();
      }
    });
}
