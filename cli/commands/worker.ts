// physvec worker [--queue orchestration|simulation|all] — run workers until SIGINT/SIGTERM.
import type { Command } from 'commander';
import { z } from 'zod';
import { connectWorker } from '../../lib/temporal/connection.js';
import { runWorkers, installRuntime } from '../../workers/create-workers.js';
import { BadInputError } from '../../lib/errors.js';
import { line } from '../output.js';

const Queue = z.enum(['orchestration', 'simulation', 'large', 'all']);

export function register(program: Command): void {
  program
    .command('worker')
    .description('run workers: orchestration (workflows + LLM calls), simulation (sandbox runs), large (full-size sandbox runs, on bigger hosts), or all (orchestration + simulation) in one process')
    .option('--queue <queue>', 'orchestration | simulation | large | all', 'all')
    .action(async (opts: { queue: string }) => {
      const q = Queue.safeParse(opts.queue);
      if (!q.success) throw new BadInputError(`--queue: expected orchestration, simulation, large or all, got "${opts.queue}"`);
      installRuntime(); // before the first connection creates the runtime
      const { connection, target } = await connectWorker();
      await runWorkers(connection, target.namespace, q.data, () => line(`worker(s) for ${q.data} polling ${target.address} (namespace ${target.namespace}); Ctrl-C to stop`));
      await connection.close();
    });
}
