// Every worker process watches the attempts the other worker processes of its host hold
// (workers/attempt-registry.ts). When a holder is gone — its pid ended or now belongs to another
// process — its attempts are failed on the server at once, with a retryable WorkerGone failure that
// names the dead worker and who noticed, so the retry starts within seconds of a kill. A worker that
// starts after its host lost every worker does the same before it polls, so recovery without a
// standby is the worker start, not the start plus a heartbeat timeout.
//
// Attempts of another server (the file's address/namespace) are left to a worker of that server. A
// failure the server refuses — an attempt it already ended (timed out, retried, completed), or a task
// token of a server that was at this address before (a dev server restarted on a new store: the
// token's namespace id is unknown) — is forgotten; only a server that did not answer leaves the file
// for the next pass. (Kept, such a file was failed again every second by every worker of the host:
// 361 refused failures a second starved a CI drill tier's simulations 5-fold.) The heartbeat timeout
// stays the safety net for a dead host.
import { readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ActivityNotFoundError, AsyncCompletionClient, Connection } from '@temporalio/client';
import { NamespaceNotFoundError } from '@temporalio/common';
import { infrastructureRetry } from '../lib/temporal/infrastructure-retry.js';
import { FINISHED_SUFFIX, HeldAttempt, registryRoot } from './attempt-registry.js';
import { startTicks } from '../lib/process-identity.js';
import { sendRetryAhead } from './retry-priority.js';
import { routerWithoutSlots, type RetryRouter } from './sandbox-slots.js';
import { inRetryOrder } from './retry-order.js';

export const WORKER_GONE = 'WorkerGone';
export const WATCHDOG_EVERY_MS = 1_000;
/** The line a watchdog prints for each attempt it failed (scripts/drill-load.ts counts them). */
export const WORKER_GONE_LINE = /was held by worker \S+, which is gone: failed it on the server/;
/** Files of another server whose holders died longer ago than this are removed (no worker of that server came back). */
const FOREIGN_STALE_MS = 24 * 3600_000;

export interface WatchdogTarget {
  address: string;
  namespace: string;
  connectionOptions: Record<string, unknown>;
}

/** Holders (`<pid>.<start time>` dirs) whose process is gone. */
export function deadHolders(root: string, self = process.pid): string[] {
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch {
    return [];
  }
  return dirs.filter((d) => {
    const m = /^(\d+)\.(\d+)$/.exec(d);
    if (!m || Number(m[1]) === self) return false;
    return startTicks(Number(m[1])) !== m[2];
  });
}

/** The attempt a registry file records; undefined when it cannot be read (half-written by a process killed mid-write, or removed meanwhile). */
function readHeld(file: string): HeldAttempt | undefined {
  try {
    return HeldAttempt.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

export class DeadWorkerWatchdog {
  private client: AsyncCompletionClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly target: WatchdogTarget,
    private readonly say: (line: string) => void,
    private readonly root = registryRoot(),
    /** Called once per dead worker, by the one watchdog that removed its dir, with its identity (pid@host). */
    private readonly onGone?: (identity: string) => void,
    /** Where the retries of one pass wait (workers/sandbox-slots.ts); default: a process without sandbox slots'. */
    private readonly newRouter: () => RetryRouter = routerWithoutSlots,
  ) {}

  /** One pass now (awaited: a starting worker clears what its dead predecessors held before it polls), then one every WATCHDOG_EVERY_MS. */
  async start(): Promise<void> {
    await this.pass();
    this.timer = setInterval(() => void this.pass(), WATCHDOG_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.client?.connection.close().catch(() => undefined);
  }

  /** Fail what dead holders held. Passes never overlap. */
  pass(): Promise<void> {
    this.running ??= this.sweep().finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweep(): Promise<void> {
    const route = this.newRouter();
    const refused: Error[] = [];
    const holders = deadHolders(this.root);
    // All the dead holders' attempts of this pass, failed in retry order (workers/retry-order.ts): the
    // order they are failed in is the order their retries queue in, and a restarted worker has fewer
    // slots than a kill can leave retries.
    const found: { file: string; holder: string; held: HeldAttempt | undefined }[] = [];
    for (const holder of holders) {
      let files: string[];
      try {
        files = readdirSync(path.join(this.root, holder)).filter((f) => f.endsWith('.json'));
      } catch {
        continue;
      }
      for (const f of files) found.push({ file: path.join(this.root, holder, f), holder, held: readHeld(path.join(this.root, holder, f)) });
    }
    const ordered = inRetryOrder(found.filter((x) => x.held).map((x) => ({ ...x, rank: x.held!.rank, attempt: x.held!.attempt, startedAt: x.held!.startedAt })));
    for (const x of found) if (!x.held) rmSync(x.file, { force: true }); // half-written by a process killed mid-write
    for (const x of ordered) {
      // A server that did not answer will not answer the next file either: the next pass tries them all again.
      if (!(await this.failOne(x.file, x.held!, x.holder, route, refused))) return this.sayRefused(refused);
    }
    for (const holder of holders) {
      try {
        rmdirSync(path.join(this.root, holder));
        this.onGone?.(`${holder.split('.')[0]}@${os.hostname()}`);
      } catch {
        /* not empty (another server's attempts), already removed by another watchdog, or not readable */
      }
    }
    this.sayRefused(refused);
  }

  private sayRefused(refused: Error[]): void {
    if (refused.length) {
      const kinds = new Map<string, number>();
      for (const r of refused) kinds.set(r.name, (kinds.get(r.name) ?? 0) + 1);
      const counted = [...kinds].map(([name, n]) => `${n} ${name}`).join(', ');
      this.say(`physvec worker: forgot ${refused.length} attempt(s) of dead workers that the server at ${this.target.address} refused (${counted}; e.g. ${refused[0]!.message}): not this server's, or already ended`);
    }
  }

  /** False when the server did not answer (the file stays for the next pass). */
  private async failOne(file: string, held: HeldAttempt, holder: string, route: RetryRouter, refused: Error[]): Promise<boolean> {
    if (held.address !== this.target.address || held.namespace !== this.target.namespace) {
      if (Date.now() - held.startedAt > FOREIGN_STALE_MS) rmSync(file, { force: true });
      return true;
    }
    const what = `${held.activityType} (workflow ${held.workflowId}, activity ${held.activityId}, attempt ${held.attempt})`;
    const by = `${process.pid}@${os.hostname()}`;
    try {
      const client = await this.completionClient();
      await sendRetryAhead(client.connection, this.target.namespace, held, by, route(held.recoveryQueue), held.rank);
      await client.fail(
        Buffer.from(held.taskToken, 'base64'),
        infrastructureRetry(`the worker ${held.holder} running this attempt is gone (process ${holder.split('.')[0]} ended); noticed by worker ${by}, retried`, WORKER_GONE),
      );
      const finished = file.endsWith(FINISHED_SUFFIX) ? ' (it had finished, but its result had not reached the server; the retry returns the stored result)' : '';
      this.say(`physvec worker: ${what} was held by worker ${held.holder}, which is gone: failed it on the server so it is retried now${finished}`);
    } catch (err) {
      if (!(await this.refusedByServer(err))) return false;
      if (!(err instanceof ActivityNotFoundError)) refused.push(err instanceof Error ? err : new Error(String(err)));
    }
    rmSync(file, { force: true });
    return true;
  }

  /**
   * Whether failing an attempt went wrong because the server refused it (then trying again cannot
   * help) rather than because it did not answer. The completion client keeps the gRPC status only for
   * "not found" and an unknown namespace; for any other error the server is asked once whether it answers.
   */
  private async refusedByServer(err: unknown): Promise<boolean> {
    if (err instanceof ActivityNotFoundError || err instanceof NamespaceNotFoundError) return true;
    if (!this.client) return false; // never connected
    try {
      await this.client.connection.withDeadline(Date.now() + 5_000, () => this.client!.connection.workflowService.getSystemInfo({}));
      return true;
    } catch {
      return false;
    }
  }

  private async completionClient(): Promise<AsyncCompletionClient> {
    if (!this.client) {
      const connection = await Connection.connect({ connectTimeout: 5_000, ...this.target.connectionOptions } as Parameters<typeof Connection.connect>[0]);
      this.client = new AsyncCompletionClient({ connection, namespace: this.target.namespace });
    }
    return this.client;
  }
}
