// The sandbox's public surface.
export { runSandboxed, parseSandboxRequest, newRunId, SandboxCancelledError, SandboxWallGuardError, type RunSandboxOptions } from './run.js';
export { HostDisk, HostDiskFullError, hostDiskFor, describeShortage, type FreeSpaceProbe } from './host-disk.js';
export { probeIsolation, type IsolationProbe } from './probe.js';
export { planIsolation, isolationModeFromEnv, type IsolationMode, type IsolationPlan } from './plan.js';
export { HOST_ENV_PASSTHROUGH, buildSandboxEnv } from './env.js';
export { sandboxRoot } from './workdir.js';
export { availableRunners, runnerFor, RunnerUnavailableError, type RunnerAvailability } from '../languages/index.js';
export { announceSandboxProtections, describeSandboxProtections } from './announce.js';
export { warmUpSandbox } from './prestart.js';
export { ChainLostError } from './launcher.js';
