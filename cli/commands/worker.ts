// physvec worker [--queue orchestration|simulation|all] — run workers until SIGINT/SIGTERM.
import type { Command } from 'commander';
import { z } from 'zod';
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
      // Imported here, not at the top: `--help` loads only the declarations, not the worker SDK.
      const [{ connectWorker }, { runWorkers, installRuntime, workflowBundle }, { largeQueueLimits, largeQueueSlots }] = await Promise.all([
        import('../../lib/temporal/connection.js'), import('../../workers/create-workers.js'), import('../../workers/large-queue.js'),
      ]);
      installRuntime(); // before the first connection creates the runtime
      const { connection, target } = await connectWorker();
      if (q.data === 'large') {
        // The queue's own limits, so whoever starts a worker on a big host sees what its runs may use.
        const limits = largeQueueLimits();
        line(`large queue: each run up to ${limits.memoryMb} MiB and ${(limits.maxTimeoutMs / 3600_000).toFixed(1)} h (PHYSVEC_LARGE_MEMORY_MB, PHYSVEC_LARGE_MAX_HOURS), ${largeQueueSlots()} at once (PHYSVEC_LARGE_SLOTS)`);
      }
      // The one long start-up step says what it is doing (a cached bundle makes it instant; see workers/workflow-bundle.ts).
      if (q.data === 'orchestration' || q.data === 'all') await workflowBundle((what) => line(`${what}…`));
      await runWorkers(connection, target.namespace, q.data, () => line(`worker(s) for ${q.data} polling ${target.address} (namespace ${target.namespace}); Ctrl-C to stop`));
      await connection.close();
    });
}
