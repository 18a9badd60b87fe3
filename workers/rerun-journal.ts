// Results that finished but never reached the server (it was down, or the worker died right after)
// are re-run by Temporal when the attempt times out. That must not pass silently: every activity that
// completes here is journalled (per host, in the state dir), and an attempt of an activity whose
// earlier attempt is in the journal is logged as a re-run and counted.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { stateDir } from '../lib/paths.js';

interface Completion {
  key: string;
  attempt: number;
  at: string;
}

/** Journal lines kept at start (older ones are dropped): far more than a host completes between two outages. */
const KEEP = 5000;

export class RerunJournal {
  private readonly done = new Map<string, Completion>();
  reruns = 0;

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
        this.done.set(c.key, c);
      } catch {
        /* a torn line from a killed worker */
      }
    }
    writeFileSync(file, lines.length ? `${lines.join('\n')}\n` : '');
  }

  static keyOf(info: { workflowExecution?: { workflowId: string; runId: string }; activityId: string }): string {
    return `${info.workflowExecution?.workflowId ?? '-'}/${info.workflowExecution?.runId ?? '-'}/${info.activityId}`;
  }

  /** Called when an attempt starts: true (and logged) when an earlier attempt of it completed here. */
  starting(key: string, attempt: number, activityType: string): boolean {
    const earlier = this.done.get(key);
    if (!earlier || earlier.attempt >= attempt) return false;
    this.reruns++;
    this.log(`physvec worker: re-running ${activityType} ${key} (attempt ${attempt}): attempt ${earlier.attempt} finished at ${earlier.at} but its result never reached the Temporal server; ${this.reruns} re-run(s) counted since this worker started`);
    return true;
  }

  completed(key: string, attempt: number): void {
    const c: Completion = { key, attempt, at: new Date().toISOString() };
    this.done.set(key, c);
    try {
      appendFileSync(this.file, `${JSON.stringify(c)}\n`);
    } catch {
      /* the journal is diagnostics: never fail an activity over it */
    }
  }
}

export function rerunJournalInterceptor(journal: RerunJournal): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const key = RerunJournal.keyOf(ctx.info);
        journal.starting(key, ctx.info.attempt, ctx.info.activityType);
        const result = await next(input);
        journal.completed(key, ctx.info.attempt);
        return result;
      },
    },
  });
}
