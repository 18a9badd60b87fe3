// Orchestration overhead of a finished reproduction (not a test): wall time per stage (from its
// report), the time covered by running activities on the critical path (the union of the intervals
// during which at least one activity was executing, from the workflow history), and their ratio.
// Usage: node --import tsx scripts/bench-orchestration.ts <workflow-id>   (or a history JSON file)
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporalTarget } from '../lib/temporal/connection.js';
import { reportDir } from '../lib/reports/dirs.js';
import { answerHelp } from './bench-support.js';

answerHelp(import.meta.url);

type Ts = { seconds?: string | number | null; nanos?: number | null } | string | null | undefined;
const ms = (t: Ts): number => {
  if (!t) return NaN;
  if (typeof t === 'string') return Date.parse(t);
  return Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6;
};

const arg = process.argv[2];
if (!arg) {
  console.error('usage: bench-orchestration.ts <workflow-id | history.json>');
  process.exit(2);
}
/** The parts of a history event (JSON export or SDK proto) this reads. */
type ScheduledRef = { scheduledEventId?: unknown } | null;
interface HistoryEvent {
  eventId?: unknown;
  eventTime?: Ts;
  workflowExecutionStartedEventAttributes?: unknown;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string | null } | null } | null;
  activityTaskStartedEventAttributes?: ScheduledRef;
  activityTaskCompletedEventAttributes?: ScheduledRef;
  activityTaskFailedEventAttributes?: ScheduledRef;
  activityTaskTimedOutEventAttributes?: ScheduledRef;
}
let history: { events: HistoryEvent[] };
if (existsSync(arg)) history = JSON.parse(readFileSync(arg, 'utf8')) as typeof history;
else {
  const t = temporalTarget();
  const client = new Client({ connection: await Connection.connect({ address: t.address }), namespace: t.namespace });
  history = (await client.workflow.getHandle(arg).fetchHistory()) as never;
}
const events = history.events;
const started = new Map<string, number>();
const intervals: [number, number, string][] = [];
const typeOf = new Map<string, string>();
for (const e of events) {
  const id = String(e.eventId);
  if (e.activityTaskScheduledEventAttributes) typeOf.set(id, e.activityTaskScheduledEventAttributes.activityType?.name ?? '?');
  if (e.activityTaskStartedEventAttributes) started.set(String(e.activityTaskStartedEventAttributes.scheduledEventId), ms(e.eventTime));
  const done = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
  if (done) {
    const sid = String(done.scheduledEventId);
    const s = started.get(sid);
    if (s !== undefined) intervals.push([s, ms(e.eventTime), typeOf.get(sid) ?? '?']);
  }
}
intervals.sort((a, b) => a[0] - b[0]);
let covered = 0;
let curStart = -Infinity;
let curEnd = -Infinity;
for (const [s, e] of intervals) {
  if (s > curEnd) {
    if (curEnd > curStart) covered += curEnd - curStart;
    curStart = s;
    curEnd = e;
  } else curEnd = Math.max(curEnd, e);
}
if (curEnd > curStart) covered += curEnd - curStart;
const wall = ms(events[events.length - 1]!.eventTime) - ms(events[0]!.eventTime);
const byType = new Map<string, { n: number; total: number }>();
for (const [s, e, t] of intervals) byType.set(t, { n: (byType.get(t)?.n ?? 0) + 1, total: (byType.get(t)?.total ?? 0) + (e - s) });

const workflowId = events[0]?.workflowExecutionStartedEventAttributes ? (existsSync(arg) ? path.basename(arg, '.json') : arg) : arg;
const reportJson = path.join(reportDir(workflowId), 'report.json');
if (existsSync(reportJson)) {
  const r = JSON.parse(readFileSync(reportJson, 'utf8')) as { stageTimes: { stage: string; seconds: number }[] };
  console.log('wall time per stage:');
  for (const s of r.stageTimes) console.log(`  ${s.stage.padEnd(12)} ${s.seconds.toFixed(1)} s`);
}
console.log('activities:');
for (const [t, v] of byType) console.log(`  ${t.padEnd(22)} ${String(v.n).padStart(4)} runs, ${(v.total / 1000).toFixed(1)} s summed`);
console.log(`workflow wall time:                          ${(wall / 1000).toFixed(1)} s`);
console.log(`time with at least one activity executing:   ${(covered / 1000).toFixed(1)} s (critical path of activity work)`);
console.log(`ratio wall / critical-path activity time:    ${(wall / covered).toFixed(3)} (orchestration overhead ${(((wall - covered) / wall) * 100).toFixed(1)} %)`);
process.exit(0);
