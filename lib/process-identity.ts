// What tells a process apart from a later one that reuses its pid: the kernel's boot id and the
// process's start time. Read by the sandbox's cgroup owner markers and the workers' attempt registry.
import { readFileSync } from 'node:fs';

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Start time of `pid` in clock ticks since boot (field 22 of /proc/<pid>/stat), or null if there is no such process. */
export function startTicks(pid: number | 'self'): string | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  return stat === null ? null : (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null);
}

export function bootId(): string {
  return readOrNull('/proc/sys/kernel/random/boot_id')?.trim() ?? 'unknown-boot';
}
