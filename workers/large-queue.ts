// The large simulation queue (`physvec worker --queue large`): full-size runs (`reproduce --size
// full`) on hosts sized for them, with the queue's own sandbox limits, read from this worker's
// environment:
//   PHYSVEC_LARGE_MEMORY_MB  memory of each run as a whole (default: 3/4 of this host's memory)
//   PHYSVEC_LARGE_MAX_HOURS  the longest one run may last (default 24, the sandbox's maximum)
//   PHYSVEC_LARGE_SLOTS      runs at once (default: as many as fit the memory, at most the cores)
// A run's liveness is its heartbeat, not its duration: the maximum only bounds a runaway.
import os from 'node:os';
import { artifactStore } from '../lib/artifacts/store.js';
import { createSandboxActivities, type QueueSandboxLimits } from '../activities/sandbox/run-script.js';
import { instrumentSandbox } from '../activities/sandbox/telemetry.js';
import { createSimulationPipelineActivities } from '../activities/pipeline/simulation-activities.js';
import { LARGE_RUN_MAX_MS } from '../temporal-config/timeouts.js';

const MiB = 1024 * 1024;

function positive(v: string | undefined): number | null {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) && n > 0 ? n : null;
}

export function largeQueueLimits(env: NodeJS.ProcessEnv = process.env): Required<QueueSandboxLimits> {
  const memoryMb = Math.round(positive(env.PHYSVEC_LARGE_MEMORY_MB) ?? (0.75 * os.totalmem()) / MiB);
  const hours = positive(env.PHYSVEC_LARGE_MAX_HOURS);
  return { memoryMb, maxTimeoutMs: Math.min(LARGE_RUN_MAX_MS, hours ? Math.round(hours * 3600_000) : LARGE_RUN_MAX_MS) };
}

export function largeQueueSlots(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.PHYSVEC_LARGE_SLOTS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  return Math.max(1, Math.min(cores, Math.floor(os.totalmem() / (largeQueueLimits(env).memoryMb * MiB))));
}

export function largeSimulationActivities(): Record<string, (...args: never[]) => Promise<unknown>> {
  const store = artifactStore();
  const sandbox = instrumentSandbox(createSandboxActivities(store, { limits: largeQueueLimits() }));
  return { ...sandbox, ...createSimulationPipelineActivities(store, (req) => sandbox.runScript(req as never)) };
}
