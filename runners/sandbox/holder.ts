// The warm chain's last process: a shell "holder" that only keeps the run's namespaces and view
// alive. It runs as a uid of its own (uid.ts holderUidOf), so the script, though it sees it (PID 2),
// can neither stop nor trace it: a frozen holder would keep the run going until its timeout. It reports once it runs inside the finished chain; the zygote's run process enters its
// namespaces (zygote.py), and the holder exits with the status the worker hands it.
import { readFileSync, statSync } from 'node:fs';
import type { RunCgroup } from './cgroup.js';
import type { ProcInfo } from './process-tree.js';

/** The fd the holder reports readiness on (3 is bwrap's seccomp filter). */
export const HOLDER_READY_FD = 4;
/**
 * The fd bwrap reports its first process on (`--info-fd`: `"child-pid": N`, written right after its
 * clone, before its set-up), so a run's own chain can have the run process forked into the run's pid
 * namespace while bwrap still builds the view (zygote.py). bwrap closes it in the sandbox.
 */
export const BWRAP_INFO_FD = 5;
/**
 * Prints one byte on fd 4 once it runs inside the finished chain, then exits with what it is told
 * on stdin. The byte is written from a subshell: a builtin's `>&4` in the shell itself points its
 * fd 1 at fd 4 for a moment, and the zygote, taking the holder's fd 1 in that moment, would hand
 * the script the readiness pipe as its stdout (EPIPE once the worker closes it).
 */
const HOLDER_SCRIPT = `(printf r >&${HOLDER_READY_FD}); exec ${HOLDER_READY_FD}>&-; read code; exit "\${code:-125}"`;

/** The holder's command line (the script's argv may follow as ignored arguments, see buildLaunch). */
export function holderArgv(): string[] {
  return ['/bin/sh', '-c', HOLDER_SCRIPT, 'physvec-warm-holder'];
}

/** The holder: the process of the holder's uid in the run's cgroup whose parent is not (its readiness subshell may still be there). */
export function findHolder(cgroup: RunCgroup, uid: number): number | null {
  // Only the run's few processes are read, not the whole /proc.
  const ofRun = cgroup.pids().map(procInfo).filter((p): p is ProcInfo => p !== null && p.uid === uid);
  const pids = new Set(ofRun.map((p) => p.pid));
  const found = ofRun.filter((p) => !pids.has(p.ppid));
  return found.length === 1 ? found[0]!.pid : null;
}

/** Inode of fd `n` of `pid` (the chain's first process holds the run's own stdout/stderr, never redirected). */
export function fdInode(pid: number, n: number): number {
  return statSync(`/proc/${pid}/fd/${n}`).ino;
}

function procInfo(pid: number): ProcInfo | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { pid, ppid: Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]), uid: Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) };
  } catch {
    return null;
  }
}
