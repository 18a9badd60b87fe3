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
    .option('--no-promote', 'serve only the runs pinned to this build (drain an old build); by default new runs go to the build started last')
    .option('--metrics <address>', 'serve Prometheus metrics (SDK and physvec series) at http://<address>/metrics: :PORT or IP:PORT (env PHYSVEC_METRICS, config telemetry.metrics; default off)')
    .option('--nice <n>', 'the workers\' own CPU priority, -20..19 or off (env PHYSVEC_WORKER_NICE; default -20 where permitted: root or CAP_SYS_NICE); sandbox scripts keep the priority the worker was started with')
    .option('--traces <exporter>', 'OpenTelemetry traces: otlp (OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318), console or off (env PHYSVEC_TRACES / OTEL_TRACES_EXPORTER, config telemetry.traces; default off)')
    .action(async (opts: { queue: string; promote: boolean; metrics?: string; traces?: string; nice?: string }) => {
      const q = Queue.safeParse(opts.queue);
      if (!q.success) throw new BadInputError(`--queue: expected orchestration, simulation, large or all, got "${opts.queue}"`);
      // First, before the SDK's threads exist (they inherit it): a busy host must not starve polls and heartbeats.
      const { describePriority, raiseOwnPriority, workerNiceSetting } = await import('../../lib/process-priority.js');
      line(`worker ${describePriority(raiseOwnPriority(workerNiceSetting(opts.nice ?? process.env.PHYSVEC_WORKER_NICE)))}`);
      // Imported here, not at the top: `--help` loads only the declarations, not the worker SDK.
      const [{ connectWorker }, { runWorkers, installRuntime, workflowBundle }, { largeQueueLimits, largeQueueSlots }, { telemetrySettings }, { deploymentOptions }] = await Promise.all([
        import('../../lib/temporal/connection.js'), import('../../workers/create-workers.js'), import('../../workers/large-queue.js'),
        import('../../workers/telemetry/settings.js'), import('../../workers/versioning.js'),
      ]);
      const telemetry = telemetrySettings(opts);
      installRuntime({ telemetry }); // before the first connection creates the runtime
      const { connection, target } = await connectWorker({ onSlow: line });
      if (q.data === 'large') {
        // The queue's own limits, so whoever starts a worker on a big host sees what its runs may use.
        const limits = largeQueueLimits();
        line(`large queue: each run up to ${limits.memoryMb} MiB and ${(limits.maxTimeoutMs / 3600_000).toFixed(1)} h (PHYSVEC_LARGE_MEMORY_MB, PHYSVEC_LARGE_MAX_HOURS), ${largeQueueSlots()} at once (PHYSVEC_LARGE_SLOTS)`);
      }
      // The one long start-up step says what it is doing (a cached bundle makes it instant; see workers/workflow-bundle.ts).
      if (q.data === 'orchestration' || q.data === 'all') await workflowBundle((what) => line(`${what}…`));
      const served = [telemetry.metrics ? `; metrics at http://${telemetry.metrics.bindAddress}/metrics` : '', telemetry.traces !== 'off' ? `; traces to ${telemetry.traces}` : ''].join('');
      const build = describeBuild(deploymentOptions()?.version, opts.promote);
      await runWorkers(connection, target.namespace, q.data, {
        promote: opts.promote,
        say: line,
        onReady: () => line(`worker(s) for ${q.data} polling ${target.address} (namespace ${target.namespace}), ${build}${served}; Ctrl-C to stop`),
      });
      await connection.close();
    });
}

function describeBuild(v: { buildId: string; deploymentName: string } | undefined, promote: boolean): string {
  if (!v) return 'unversioned (PHYSVEC_WORKER_VERSIONING=0)';
  return promote ? `build ${v.buildId} of deployment ${v.deploymentName} (new runs go to it; runs started by other builds stay on theirs)` : `build ${v.buildId} of deployment ${v.deploymentName}, draining (--no-promote: serves only runs pinned to it)`;
}
