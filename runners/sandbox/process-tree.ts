// Finding and killing everything a run started. With a run cgroup this is exact (everything the
// run forked is in it, daemons too); so is a run-specific uid (locked for this run, see uid.ts, so
// every process of that uid is the run's); without either we follow parent links, which misses
// processes that daemonised before we looked — the isolation report says so.
import { readdirSync, readFileSync } from 'node:fs';
import type { RunCgroup } from './cgroup.js';

export interface ProcInfo {
  pid: number;
  ppid: number;
  uid: number;
}

export function listProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      if (/^State:\s+Z/m.test(status)) continue;
      out.push({ pid: Number(name), ppid, uid });
    } catch {
      // The process exited while we looked.
    }
  }
  return out;
}

export function pidsOfUid(uid: number): number[] {
  return listProcesses().filter((p) => p.uid === uid).map((p) => p.pid);
}

export function descendantsOf(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of listProcesses()) {
    const list = children.get(p.ppid) ?? [];
    list.push(p.pid);
    children.set(p.ppid, list);
  }
  const found: number[] = [];
  const queue = [rootPid];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      found.push(c);
      queue.push(c);
    }
  }
  return found;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** SIGKILL the run's cgroup, the process group led by `pid`, its known descendants and (when given) every process of the run's `uid`, until none is left. */
export async function killRun(pid: number, uid: number | null, cgroup: RunCgroup | null = null): Promise<void> {
  if (cgroup) {
    await cgroup.killAll();
    // Exact: the chain's first process joined the cgroup before it started anything, and a run
    // cannot move itself out (the cgroup files are root's), so the /proc walks below (tens of ms
    // on a busy host, after every run) would find nothing more.
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is already empty.
    }
    killQuietly(pid);
    return;
  }
  const descendants = descendantsOf(pid);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already empty.
  }
  killQuietly(pid);
  for (const d of descendants) killQuietly(d);
  if (uid === null) return;
  // A fork loop can create processes while we kill; repeat until the uid owns nothing.
  for (let round = 0; round < 50; round++) {
    const left = pidsOfUid(uid);
    if (left.length === 0) return;
    for (const p of left) killQuietly(p);
    await new Promise((r) => setTimeout(r, 20));
  }
}
