// With PHYSVEC_ATTEMPT_LINES=1 (scripts/drill-load.ts) a worker also says when its own process was
// held up: the event loop's longest delay and the time its threads waited on a run queue (the
// scheduler's record, /proc/self/task/*/schedstat) in each window where either passed a threshold.
// A drill can then tell a starved worker from a late server when an attempt times out.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const STALL_LINE = /physvec worker: held up on (\d+): event loop delayed up to (\d+) ms, threads waited (\d+) ms on a run queue in (\d+) s/;

/** ns the threads of a process (this one by default) have waited on a run queue so far. */
export function runQueueWaitNs(pid: number | 'self' = 'self'): number {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1] ?? 0);
      } catch {
        // The thread ended while we looked.
      }
    }
  } catch {
    // No /proc: the event loop's delay is still measured.
  }
  return ns;
}

/** Starts the window checks (unref'd: they never keep a worker alive); returns their stop. */
export function startStallLines(print: (line: string) => void, windowMs = 10_000, thresholdMs = 1_000): () => void {
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  let lastWait = runQueueWaitNs();
  const timer = setInterval(() => {
    const wait = runQueueWaitNs();
    const waitedMs = Math.round((wait - lastWait) / 1e6);
    const maxMs = Math.round(delay.max / 1e6);
    lastWait = wait;
    delay.reset();
    if (maxMs > thresholdMs || waitedMs > thresholdMs) {
      print(`physvec worker: held up on ${process.pid}: event loop delayed up to ${maxMs} ms, threads waited ${waitedMs} ms on a run queue in ${Math.round(windowMs / 1000)} s (load ${os.loadavg()[0]!.toFixed(1)})`);
    }
  }, windowMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    delay.disable();
  };
}
