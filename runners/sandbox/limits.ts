// Per-process resource caps, applied with prlimit and inherited by every process of the run. They
// are the second line of defence: the run as a whole is limited by its cgroup (memory, processes,
// see cgroup.ts) and the disk watchdog (watchdog.ts).
//
// Memory is capped with RLIMIT_DATA (heap and private writable mappings, Linux >= 4.7), not
// RLIMIT_AS: address space also counts shared libraries and reserved-but-untouched regions, and
// importing jax + qiskit_aer alone reserves ~3.2 GB of it (with RLIMIT_AS = 3 GiB `import
// qiskit_aer` fails with "failed to map segment"), while their data stays under 1 GB. A 4 GiB
// array under a 3 GiB RLIMIT_DATA is refused with MemoryError, which is what a script author
// expects from a memory limit.
import type { SandboxRequest } from '../../schemas/sandbox.js';

const MiB = 1024 * 1024;
/** No single file written by a script may exceed this or the run's disk cap (SIGXFSZ). */
export const MAX_FILE_BYTES = 4096 * MiB;
/** Seconds between RLIMIT_CPU's soft (SIGXCPU, catchable) and hard (SIGKILL) limits. */
const CPU_GRACE_S = 5;

export type Limits = Pick<SandboxRequest, 'memoryMb' | 'cpuSeconds' | 'maxProcesses' | 'diskMb'>;

/** The same caps as resource.RLIMIT_* name → [soft, hard], for the warm start (zygote.py sets them itself). */
export function warmRlimits(limits: Limits): Record<string, [number, number]> {
  const data = limits.memoryMb * MiB;
  const fsize = Math.min(MAX_FILE_BYTES, limits.diskMb * MiB);
  return {
    RLIMIT_DATA: [data, data],
    RLIMIT_NPROC: [limits.maxProcesses, limits.maxProcesses],
    RLIMIT_FSIZE: [fsize, fsize],
    RLIMIT_CORE: [0, 0],
    ...(limits.cpuSeconds !== undefined ? { RLIMIT_CPU: [limits.cpuSeconds, limits.cpuSeconds + CPU_GRACE_S] as [number, number] } : {}),
  };
}

export function prlimitArgs(prlimit: string, limits: Limits): string[] {
  const data = limits.memoryMb * MiB;
  const fsize = Math.min(MAX_FILE_BYTES, limits.diskMb * MiB);
  const args = [
    prlimit,
    `--data=${data}:${data}`,
    `--nproc=${limits.maxProcesses}:${limits.maxProcesses}`,
    `--fsize=${fsize}:${fsize}`,
    '--core=0:0',
  ];
  if (limits.cpuSeconds !== undefined) args.push(`--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + CPU_GRACE_S}`);
  args.push('--');
  return args;
}

/**
 * Size of the in-memory /tmp and /dev/shm: tmpfs pages are not charged to RLIMIT_DATA, so they get
 * their own cap; they are charged to the run's memory cgroup, which covers them as a whole.
 */
export function tmpfsBytes(limits: Limits): number {
  return Math.min(1024, Math.max(64, Math.floor(limits.memoryMb / 2))) * MiB;
}

const MINUTE_MS = 60_000;

/**
 * The wall-clock guard of a run whose CPU limit is `timeoutMs`: by default the larger of 3× the
 * limit and the limit + 30 min (a run at 1/3 of a core still finishes; a short run still survives
 * half an hour of a saturated host), at most 72 h. Its expiry is the host's fault, not the script's.
 */
export function wallGuardMs(req: Pick<SandboxRequest, 'timeoutMs' | 'wallGuardMs'>): number {
  return req.wallGuardMs ?? Math.min(72 * 60 * MINUTE_MS, Math.max(3 * req.timeoutMs, req.timeoutMs + 30 * MINUTE_MS));
}
