// `physvec status <workflow-id>`: where a run is — status, stage, iteration, verdict and progress.
// Answers within a few seconds even when no worker runs: a closed workflow's outcome is read from
// its history (no query, no worker needed); a running one is queried only when a worker polls its
// task queue, and then with a real gRPC deadline. People get a summary (status-summary.ts); --json the document.
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { liveQuery } from './live-query.js';
import { runBuild, servedByBuilds } from '../../lib/temporal/run-build.js';
import { liveSimulations } from './live-simulations.js';
import { retryingLlmCalls } from './live-llm-calls.js';
import { workflowFailureCause } from '../failure.js';
import { line, printJson } from '../output.js';
import { statusLines } from './status-summary.js';

/** How long a running workflow's progress query may take before status answers without it. */
const QUERY_DEADLINE_MS = 3000;

type Progress = Record<string, unknown> | { unavailable: string };

/** A closed workflow's result, or what its failure comes down to. */
async function closedOutcome(handle: WorkflowHandle): Promise<unknown> {
  try {
    return await handle.result();
  } catch (err) {
    if (err instanceof WorkflowFailedError) return { failed: workflowFailureCause(err) };
    throw err;
  }
}

export async function showWorkflowStatus(workflowId: string, opts: { json?: boolean }): Promise<void> {
  const { client, connection, target } = await connectClient();
  try {
    const handle = client.workflow.getHandle(workflowId);
    const d = await handle.describe();
    const sa = d.typedSearchAttributes;
    const running = d.status.name === 'RUNNING';
    const result = running ? null : await closedOutcome(handle);
    const progress: Progress | null = running ? await liveQuery<Record<string, unknown>>(handle, target.namespace, d.taskQueue, 'progress', QUERY_DEADLINE_MS) : null;
    const summary = {
      workflowId,
      type: d.type,
      status: d.status.name,
      taskId: sa.get(SA.TaskId),
      stage: sa.get(SA.Stage),
      iteration: sa.get(SA.Iteration),
      verdict: sa.get(SA.Verdict),
      model: sa.get(SA.Model),
      build: runBuild(d.searchAttributes),
      servedBy: servedByBuilds(d.searchAttributes),
      startTime: d.startTime,
      closeTime: d.closeTime,
      ui: uiUrl(workflowId),
      progress,
      // Sandbox runs under way, with their scripts' latest progress values (heartbeat details).
      simulations: running ? liveSimulations(d.raw.pendingActivities) : [],
      // LLM calls being retried (a provider outage or throttling): how long, which attempt, why.
      llmCalls: running ? retryingLlmCalls(d.raw.pendingActivities) : [],
      result,
    };
    if (opts.json) return printJson(summary);
    for (const l of statusLines(summary)) line(l);
  } finally {
    await connection.close();
  }
}
