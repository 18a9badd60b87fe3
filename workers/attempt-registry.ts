// The activity attempts a worker process holds, on disk beside the other workers of this host, so
// that when the process dies (kill -9, OOM) a live worker of the same host can tell the server at
// once (workers/dead-worker-watchdog.ts) instead of the server waiting out a heartbeat timeout. That
// lets heartbeat timeouts be long enough that a starved host cannot fake a death (issue 24.3: at load
// 85 on 2 cores, a live worker's attempt was timed out after 20 s) while kills are still noticed in
// seconds.
//
// Layout: <dir>/<boot id>.<pid namespace>.<host name>/<pid>.<start time>/<attempt>.json, where <dir>
// is host-wide (the system's temp dir, per user; PHYSVEC_ATTEMPTS_DIR), so workers with state dirs
// of their own still see each other. Boot id, pid namespace and host name say which pids a watchdog
// may judge (the same kernel and pid numbering; a container with a host name of its own stands for
// another host); the process start time (/proc/<pid>/stat, field 22) tells a dead holder from a new
// process that reuses its pid. Each file holds what failing the attempt needs: its task token and
// the server it came from.
import { mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { bootId, startTicks } from '../lib/process-identity.js';
import { HEARTBEAT_TIMEOUT_MS } from '../temporal-config/timeouts.js';
import { retryRankOf } from './retry-order.js';

export const HeldAttempt = z.object({
  taskToken: z.string().min(1),
  address: z.string(),
  namespace: z.string(),
  workflowId: z.string(),
  activityId: z.string(),
  activityType: z.string(),
  attempt: z.number().int(),
  holder: z.string(),
  startedAt: z.number(),
  /** The recovery queue the holder's build serves for this attempt's queue (absent: older builds, or none). */
  recoveryQueue: z.string().optional(),
  /** Whole-script run 2, integration level 1, unit harness 0 (workers/retry-order.ts); absent: not known. */
  rank: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
});
export type HeldAttempt = z.infer<typeof HeldAttempt>;

/** The pids this process can judge: same kernel boot, same pid namespace, same host name. */
export function hostScope(): string {
  const boot = bootId();
  let pidNs = 'pid';
  try {
    pidNs = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? pidNs;
  } catch {
    /* no ns link: one namespace assumed */
  }
  return `${boot}.${pidNs}.${os.hostname()}`;
}

export const ATTEMPTS_DIR_ENV = 'PHYSVEC_ATTEMPTS_DIR';
/** A finished attempt's file, kept until its result has surely reached the server (or the heartbeat timeout ended it). */
export const FINISHED_SUFFIX = '.done.json';
const FINISHED_KEEP_MS = HEARTBEAT_TIMEOUT_MS;

export function registryRoot(): string {
  const base = process.env[ATTEMPTS_DIR_ENV] || path.join(os.tmpdir(), `physvec-attempts-${os.userInfo().uid}`);
  return path.join(base, hostScope());
}

/** This process's attempts. */
export class AttemptRegistry {
  readonly dir: string;
  constructor(readonly root = registryRoot(), pid = process.pid) {
    this.dir = path.join(root, `${pid}.${startTicks(pid) ?? '0'}`);
  }

  /**
   * Make this process's dir before it polls, so that a death is seen even when it held nothing yet
   * (a poll it had out may still be answered by the server: workers/undelivered-attempt-sweeper.ts).
   */
  announce(): void {
    try {
      mkdirSync(this.dir, { recursive: true });
    } catch {
      /* the registry only speeds recovery up */
    }
  }

  /**
   * Record an attempt while it runs; the returned function marks it finished. A finished attempt is
   * kept for FINISHED_KEEP_MS (as `<id>.done.json`): its result is handed to the SDK, which sends it
   * when it can — on a busy host seconds later — and a worker killed in between leaves an attempt the
   * server still waits for (failing it then is harmless: a delivered one is refused as not found,
   * and the retry of an undelivered one returns the stored result, workers/rerun-journal.ts). Never
   * throws: the registry only speeds recovery up.
   */
  hold(a: HeldAttempt): () => void {
    const id = createHash('sha1').update(a.taskToken).digest('hex').slice(0, 16);
    const file = path.join(this.dir, `${id}.json`);
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(file, JSON.stringify(a));
    } catch {
      return () => undefined;
    }
    return () => {
      try {
        renameSync(file, path.join(this.dir, `${id}${FINISHED_SUFFIX}`));
      } catch {
        rmSync(file, { force: true });
      }
      this.forgetFinished();
    };
  }

  /** Finished attempts older than FINISHED_KEEP_MS go. */
  forgetFinished(now = Date.now()): void {
    try {
      for (const f of readdirSync(this.dir)) {
        if (!f.endsWith(FINISHED_SUFFIX)) continue;
        const p = path.join(this.dir, f);
        if (now - statSync(p).mtimeMs > FINISHED_KEEP_MS) rmSync(p, { force: true });
      }
    } catch {
      /* removed meanwhile */
    }
  }
}

/** Records every attempt of this worker in `registry` while it runs. */
export function attemptRegistryInterceptor(registry: AttemptRegistry, server: { address: string; namespace: string }, recoveryQueueFor: (taskQueue: string) => string | undefined = () => undefined): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const i = ctx.info;
        const release = registry.hold({
          taskToken: Buffer.from(i.taskToken).toString('base64'),
          ...server,
          workflowId: i.workflowExecution?.workflowId ?? '',
          activityId: i.activityId,
          activityType: i.activityType,
          attempt: i.attempt,
          holder: `${process.pid}@${os.hostname()}`,
          startedAt: Date.now(),
          recoveryQueue: recoveryQueueFor(i.taskQueue),
          rank: retryRankOf(input.args),
        });
        try {
          return await next(input);
        } finally {
          release();
        }
      },
    },
  });
}
