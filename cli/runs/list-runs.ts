// The body of `physvec runs` (cli/commands/runs.ts declares its flags): the visibility query for the
// filters, the rows newest first, a table or one JSON document.
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { RunStatus } from '../../schemas/verdict.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { runBuild } from '../../lib/temporal/run-build.js';
import { canonicalTopic, describeKnownTopics } from '../../lib/tasks/topics.js';
import { BadInputError } from '../../lib/errors.js';
import { line, printJson } from '../output.js';
import { textTable } from '../text-table.js';

/** The values the verdict search attribute of a run takes (running/paused while it works). */
const VERDICTS: readonly string[] = RunStatus.options;
/** Workflow types that are one reproduction of one task (PhysVEC and the baselines). */
const RUN_TYPES = ['reproduction', 'smokeReproduction', 'reactBaseline', 'oneShotBaseline'] as const;

const quote = (v: string) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`;
const anyOf = (name: string, values: readonly string[]) => (values.length === 1 ? `${name} = ${quote(values[0]!)}` : `${name} IN (${values.map(quote).join(', ')})`);

/** The visibility query for the flags (also printed with --json, for `temporal workflow list --query`). */
function runsQuery(f: { verdict: string[]; topic: string[]; task?: string }): string {
  for (const v of f.verdict) {
    if (!VERDICTS.includes(v)) throw new BadInputError(`--verdict ${v}: use one of ${VERDICTS.join(', ')}`, undefined, 'verdict');
  }
  const topics = f.topic.map((t) => {
    const c = canonicalTopic(t);
    if (!c) throw new BadInputError(`--topic ${t}: unknown topic; use one of ${describeKnownTopics()}`, undefined, 'topic');
    return c;
  });
  const parts = [anyOf('WorkflowType', RUN_TYPES)];
  if (f.verdict.length) parts.push(anyOf(SA.Verdict.name, f.verdict));
  if (topics.length) parts.push(anyOf(SA.Topic.name, topics));
  if (f.task) parts.push(`${SA.TaskId.name} = ${quote(f.task)}`);
  return parts.join(' AND ');
}

function row(w: WorkflowExecutionInfo) {
  const sa = w.typedSearchAttributes;
  const end = w.closeTime ?? new Date();
  return {
    workflowId: w.workflowId,
    type: w.type,
    status: w.status.name,
    taskId: sa.get(SA.TaskId) ?? null,
    topic: sa.get(SA.Topic) ?? null,
    framework: sa.get(SA.Framework) ?? null,
    model: sa.get(SA.Model) ?? null,
    verdict: sa.get(SA.Verdict) ?? null,
    stage: sa.get(SA.Stage) ?? null,
    build: runBuild(w.searchAttributes),
    startTime: w.startTime,
    closeTime: w.closeTime ?? null,
    durationMs: end.getTime() - w.startTime.getTime(),
  };
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** List the runs the filters select (flags already validated by the verb). */
export async function listRuns(f: { verdict: string[]; topic: string[]; task?: string; limit: number; json?: boolean }): Promise<void> {
  const query = runsQuery(f);
  const { client, connection } = await connectClient();
  try {
    const rows = [];
    for await (const w of client.workflow.list({ query, pageSize: Math.min(f.limit, 100) })) {
      rows.push(row(w));
      if (rows.length >= f.limit) break;
    }
    if (f.json) return printJson({ query, runs: rows });
    if (rows.length === 0) return line(`no runs match (${query})`);
    const cells = rows.map((r) => [r.workflowId, r.taskId ?? '?', r.framework && r.framework !== 'physvec' ? `${r.model ?? '?'} (${r.framework})` : r.model ?? '?', r.verdict ?? r.status.toLowerCase(), r.stage ?? '-', r.build, r.startTime.toISOString().replace(/\.\d+Z$/, 'Z'), duration(r.durationMs)]);
    const head = ['id', 'task', 'model', 'verdict', 'stage', 'build', 'start', 'duration'];
    for (const l of textTable(head, cells)) line(l);
    line(`${rows.length} run(s)${rows.length >= f.limit ? ` (first ${f.limit}; --limit for more)` : ''}; open one with \`physvec status <id>\` or ${uiUrl()}`);
  } finally {
    await connection.close();
  }
}
