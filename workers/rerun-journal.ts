// Results that finished but never reached the server (it was down, or the worker died right after)
// would be re-run by Temporal when the attempt times out: a DMRG final run of an hour, an LLM answer
// paid for twice. So every completed attempt of an activity whose result is worth keeping
// (KEPT_RESULTS) is stored here *before* it is reported: the result goes into the artifact store and
// a journal line (per host, in the state dir, fsync'd) keys it by workflow id / run id / activity id
// with the attempt that produced it. A later attempt of the same activity execution then returns
// that result instead of running again, and says so. What is never short-circuited:
//  - a failed attempt (an exception, a cancellation, a shutdown): nothing is stored, the retry is the point;
//  - light activities (artifact I/O, judging, reports): cheap to re-run, and some read state that may
//    have changed since (the toolchain check, the disk), so a fresh answer is the right one;
//  - another execution: a reset or continued-as-new workflow has a new run id, so a new key.
// A resume from heartbeat details (a sandbox checkpoint, an LLM call's usage so far) only matters
// when no attempt finished; once one has, its result *is* the activity's result.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { stateDir } from '../lib/paths.js';
import type { ArtifactStore } from '../lib/artifacts/store.js';

/** Sandbox runs and LLM calls: expensive, and their result is all the workflow needs of them. */
export const KEPT_RESULTS: ReadonlySet<string> = new Set(['runScript', 'runJob', 'callLlm']);

interface Completion {
  key: string;
  attempt: number;
  at: string;
  /** sha256 of the stored result ({ value }) in the artifact store. */
  result?: string;
  /** Set on the line of an attempt that returned an earlier attempt's stored result. */
  returned?: number;
}

/** Journal lines kept at start (older ones are dropped): far more than a host completes between two outages. */
const KEEP = 5000;

export class RerunJournal {
  private readonly done = new Map<string, Completion>();
  reruns = 0;
  stored = 0;
  reused = 0;

  constructor(readonly file: string = path.join(stateDir(), 'worker', 'completions.jsonl'), private readonly log: (line: string) => void = (l) => console.warn(l)) {
    mkdirSync(path.dirname(file), { recursive: true });
    let lines: string[] = [];
    try {
      lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(-KEEP);
    } catch {
      /* first start on this host */
    }
    for (const line of lines) {
      try {
        const c = JSON.parse(line) as Completion;
        if (c.returned === undefined) this.done.set(c.key, c);
      } catch {
        /* a torn line from a killed worker */
      }
    }
    writeFileSync(file, lines.length ? `${lines.join('\n')}\n` : '');
  }

  static keyOf(info: { workflowExecution?: { workflowId: string; runId: string }; activityId: string }): string {
    return `${info.workflowExecution?.workflowId ?? '-'}/${info.workflowExecution?.runId ?? '-'}/${info.activityId}`;
  }

  /** The stored result of an earlier attempt of this activity execution, if one finished here. */
  storedResult(key: string): { attempt: number; at: string; sha256: string } | undefined {
    const c = this.done.get(key);
    return c?.result ? { attempt: c.attempt, at: c.at, sha256: c.result } : undefined;
  }

  /** Called when an attempt starts: true (and logged) when an earlier attempt of it completed here. */
  starting(key: string, attempt: number, activityType: string): boolean {
    const earlier = this.done.get(key);
    if (!earlier || earlier.attempt >= attempt) return false;
    this.reruns++;
    this.log(`physvec worker: re-running ${activityType} ${key} (attempt ${attempt}): attempt ${earlier.attempt} finished at ${earlier.at} but its result never reached the Temporal server and was not stored; ${this.reruns} re-run(s) counted since this worker started`);
    return true;
  }

  completed(key: string, attempt: number, result?: string): void {
    const c: Completion = { key, attempt, at: new Date().toISOString(), ...(result ? { result } : {}) };
    this.done.set(key, c);
    if (result) this.stored++;
    this.append(c);
  }

  /** An attempt returned the stored result of an earlier one instead of running: journalled and logged. */
  returnedStored(key: string, attempt: number, activityType: string, from: { attempt: number; at: string }): void {
    this.reused++;
    this.append({ key, attempt, at: new Date().toISOString(), returned: from.attempt });
    this.log(`physvec worker: ${activityType} ${key} (attempt ${attempt}) returned the result of attempt ${from.attempt} stored at ${from.at} (it never reached the Temporal server), not re-run; ${this.reused} result(s) returned without re-running since this worker started`);
  }

  /** One line, flushed to disk before the result is reported: a host crash right after must not lose it. */
  private append(c: Completion): void {
    try {
      const fd = openSync(this.file, 'a');
      try {
        writeSync(fd, `${JSON.stringify(c)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      /* the journal must never fail an activity: without it the next attempt re-runs, as Temporal would */
    }
  }
}

/** A stored result as it went in (a JSON round trip, as Temporal's payload converter makes of it anyway). */
interface StoredResult {
  value: unknown;
}

async function readStored(store: ArtifactStore, sha256: string): Promise<StoredResult | undefined> {
  try {
    const r = await store.getJson<StoredResult>(sha256);
    return r && typeof r === 'object' && 'value' in r ? r : undefined;
  } catch {
    return undefined; // gone or torn (a host crash before the file reached the disk): run again
  }
}

export function rerunJournalInterceptor(journal: RerunJournal, store: ArtifactStore): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const { attempt, activityType } = ctx.info;
        const key = RerunJournal.keyOf(ctx.info);
        const keep = KEPT_RESULTS.has(activityType);
        const earlier = keep ? journal.storedResult(key) : undefined;
        const stored = earlier && (await readStored(store, earlier.sha256));
        if (earlier && stored) {
          journal.returnedStored(key, attempt, activityType, earlier);
          return stored.value;
        }
        journal.starting(key, attempt, activityType);
        const result: unknown = await next(input);
        let ref: string | undefined;
        if (keep) {
          // Keyed content (the execution and attempt go in too), so two activities with the same answer get a file each.
          ref = await store.putJson({ key, attempt, activityType, value: result }).then((r) => r.sha256, () => undefined);
        }
        journal.completed(key, attempt, ref);
        return result;
      },
    },
  });
}
