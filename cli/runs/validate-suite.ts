// `physvec tasks validate <root> --run`: every reference solution and every mutant of the suite through
// the verifiers (one referenceValidation workflow each, a bounded number at a time), then a table:
// references must pass, mutants must be flagged at their expected stage with the faulty function named.
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { LoadedDataset } from '../../lib/tasks/dataset.js';
import type { ValidationReport } from '../../lib/tasks/validation-report.js';
import { mapLimit } from '../../lib/toolchains/map-limit.js';
import { startDevServer } from '../../lib/temporal/dev-server.js';
import { connectClient } from '../../lib/temporal/connection.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import { queuedRunAttributes } from './queued-attributes.js';
import { defaultSimulationSlots } from '../../workers/slots.js';
import type { referenceValidation } from '../../workflows/validation/index.js';
import { EXIT } from '../output.js';
import { entryLabel, suiteEntries, type SuiteEntry, type SuiteSelection } from './validation-suite.js';
import { formatTable, rowOf, summarizeRows, type TableSummary, type ValidationRow } from './validation-table.js';
import { withWorkersIfNeeded, type WorkerMode } from './workers-on-demand.js';

export interface SuiteRunOptions extends SuiteSelection {
  json: boolean;
  out: (line: string) => void;
  /** Progress and notices (stderr by default, so `--json` keeps stdout to one document). */
  err?: (line: string) => void;
  /** Validations in flight at once (default: the simulation slots of this machine). */
  concurrency?: number;
  /** Wall-clock limit of each sandbox run (default: the workflow's, 300 s). */
  runTimeoutMs?: number;
  workers?: WorkerMode;
}

export interface SuiteRunResult {
  rows: ValidationRow[];
  summary: TableSummary;
  withoutReference: string[];
  datasetOk: boolean;
  exitCode: number;
}

/** Starts one validation and waits for its row (a failed workflow is a red row, not an exception). */
export async function validateEntry(client: Client, entry: SuiteEntry): Promise<ValidationRow> {
  if (entry.problem) return rowOf(entry, {});
  const workflowId = `validate-${entry.taskId}-${entry.script}-${randomUUID().slice(0, 8)}`;
  try {
    const handle = await client.workflow.start<typeof referenceValidation>('referenceValidation', {
      workflowId,
      taskQueue: taskQueues().orchestration,
      args: [entry.input],
      workflowExecutionTimeout: '3h',
      typedSearchAttributes: queuedRunAttributes({ taskId: entry.taskId, topic: entry.topic, framework: 'physvec-validation' }),
    });
    return rowOf(entry, { summary: await handle.result(), workflowId });
  } catch (err) {
    const cause = (err as { cause?: Error }).cause;
    return rowOf(entry, { workflowId, error: `${(err as Error).message}${cause ? `: ${cause.message}` : ''}` });
  }
}

export async function validateSuite(dataset: LoadedDataset, report: Pick<ValidationReport, 'ok'>, opts: SuiteRunOptions): Promise<SuiteRunResult> {
  const err = opts.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  const progress = opts.json ? err : opts.out;
  const suite = await suiteEntries(dataset, opts);
  if (!suite.entries.length) {
    err(`nothing to validate${opts.only?.length ? ` (--only ${opts.only.join(', ')} matched no reference or mutant)` : ' (no task has a reference solution)'}`);
    return { rows: [], summary: summarizeRows([], 0), withoutReference: suite.withoutReference, datasetOk: report.ok, exitCode: EXIT.badInput };
  }
  if (suite.withoutReference.length) progress(`no reference solution (not validated): ${suite.withoutReference.join(', ')}`);
  if (!process.env.TEMPORAL_ADDRESS) {
    const server = await startDevServer();
    progress(`Temporal dev server ${server.alreadyRunning ? 'already running' : 'started'} at ${server.address}`);
  }
  const concurrency = Math.max(1, opts.concurrency ?? defaultSimulationSlots());
  const { client, connection, target } = await connectClient();
  const t0 = Date.now();
  try {
    progress(`validating ${suite.entries.length} scripts (${suite.entries.filter((e) => e.kind === 'reference').length} references), ${concurrency} at a time`);
    let done = 0;
    const rows = await withWorkersIfNeeded(client, target.namespace, opts.workers ?? 'auto', () =>
      mapLimit(suite.entries, concurrency, async (entry) => {
        const row = await validateEntry(client, opts.runTimeoutMs ? { ...entry, input: { ...entry.input, runTimeoutMs: opts.runTimeoutMs } } : entry);
        done += 1;
        const verdict = row.kind === 'reference' ? (row.ok ? 'GREEN' : 'RED') : row.ok ? 'CAUGHT' : 'MISSED';
        progress(`[${done}/${suite.entries.length}] ${entryLabel(entry)}: ${row.stage}${row.faultyFunction ? ` (${row.faultyFunction})` : ''}, assertions ${row.assertions}, ${(row.wallMs / 1000).toFixed(1)} s — ${verdict}`);
        return row;
      }),
      progress,
    );
    const summary = summarizeRows(rows, Date.now() - t0);
    const exitCode = !summary.ok ? EXIT.failed : report.ok ? EXIT.ok : EXIT.badInput;
    return { rows, summary, withoutReference: suite.withoutReference, datasetOk: report.ok, exitCode };
  } finally {
    await connection.close();
  }
}

/** The `--run` runner of `tasks validate`: prints the table (or one JSON document) and returns the exit code. */
export async function runSuiteValidation(dataset: LoadedDataset, report: ValidationReport, opts: SuiteRunOptions): Promise<number> {
  const result = await validateSuite(dataset, report, opts);
  if (opts.json) {
    opts.out(JSON.stringify({ rows: result.rows, summary: result.summary, withoutReference: result.withoutReference, datasetOk: result.datasetOk }, null, 2));
  } else if (result.rows.length) {
    opts.out('');
    for (const l of formatTable(result.rows, result.summary)) opts.out(l);
    if (!result.datasetOk) opts.out('some task files are invalid (see the errors above): exit code 2 unless a script is red');
  }
  return result.exitCode;
}
