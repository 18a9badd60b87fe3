// Shared by the campaign tests: the fast subset (tasks with per-trial campaign cassettes), workers
// in this process or in a child process, and reading a campaign back from the store and Temporal.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, workflowBundle } from '../helpers/temporal.js';
import { createWorkers } from '../../workers/create-workers.js';
import { repoRoot } from '../../lib/paths.js';
import { openResultsDb } from '../../lib/results/db.js';
import { campaignRuns } from '../../lib/results/store.js';
import type { RunRecord } from '../../schemas/campaign.js';

export const CAMPAIGN_MODEL = 'scripted:campaign/{task}.t{trial}';
export const CASSETTE_DIR = path.join(repoRoot, 'data', 'cassettes', 'campaign');

/** Task ids that have a campaign cassette for every trial 1..trials. */
/**
 * Tasks with campaign cassettes whose full PhysVEC run takes tens of minutes on this 2-core machine
 * (qiskit imports in every harness): in the CI campaign only with PHYSVEC_SLOW_TESTS=1.
 */
const SLOW_TASKS = new Set(['task_qsim_trotter_domain_wall']);

export function fastSubset(trials = 2): string[] {
  if (!existsSync(CASSETTE_DIR)) return [];
  const files = new Set(readdirSync(CASSETTE_DIR));
  const ids = [...new Set([...files].map((f) => /^(.+)\.t1\.json$/.exec(f)?.[1]).filter((x): x is string => !!x))];
  return ids
    .filter((id) => Array.from({ length: trials }, (_, i) => `${id}.t${i + 1}.json`).every((f) => files.has(f)))
    .filter((id) => process.env.PHYSVEC_SLOW_TESTS === '1' || !SLOW_TASKS.has(id))
    .sort();
}

/** The quickest task of the subset (the smoke pipeline task when it has cassettes): for tests about orchestration, not physics. */
export function quickTask(): string {
  const ids = fastSubset(2);
  return ids.includes('task_smoke_dimer_pipeline') ? 'task_smoke_dimer_pipeline' : ids[0]!;
}

/** Why the campaign tests cannot run here, or false. */
export function missingPieces(): string | false {
  const missing: string[] = [];
  if (fastSubset().length === 0) missing.push(`no campaign cassettes in ${CASSETTE_DIR}`);
  if (!existsSync(path.join(repoRoot, 'workflows', 'baselines'))) missing.push('no baseline workflows (workflows/baselines/)');
  if (!existsSync(path.join(repoRoot, 'activities', 'results', 'index.ts'))) missing.push('no results activities (activities/results/)');
  return missing.length ? missing.join('; ') : false;
}

/** Runs `fn` while this process runs the production orchestration and simulation workers. */
export async function withWorkers<T>(fn: () => Promise<T>): Promise<T> {
  const address = await ensureServer();
  const wconn = await NativeConnection.connect({ address });
  const [orch, sim] = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  try {
    return await orch!.runUntil(sim!.runUntil(fn()));
  } finally {
    await wconn.close();
  }
}

/** `physvec worker --queue all` in a child process (so a test can kill it with SIGKILL). */
export function spawnWorker(env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), 'worker', '--queue', 'all'], {
    env: { ...process.env, PHYSVEC_LOG_LEVEL: 'ERROR', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export function storedRuns(campaignId: string): RunRecord[] {
  return campaignRuns(openResultsDb(), campaignId);
}

/** Every execution (workflow id, run id) Temporal's visibility lists for a campaign's children. */
export async function childExecutions(client: Client, campaignId: string): Promise<{ workflowId: string; runId: string; type: string; status: string }[]> {
  const out = [];
  for await (const w of client.workflow.list({ query: `CampaignId = "${campaignId}"` })) {
    if (w.type !== 'campaign') out.push({ workflowId: w.workflowId, runId: w.runId, type: w.type, status: w.status.name });
  }
  return out;
}

/** Child-start commands in every run of the campaign workflow (continue-as-new runs included), and how many runs there were. */
export async function childStartsInHistory(client: Client, workflowId: string): Promise<{ starts: string[]; runs: number }> {
  const starts: string[] = [];
  let runs = 0;
  for await (const w of client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
    runs++;
    const history = await client.workflow.getHandle(workflowId, w.runId).fetchHistory();
    for (const e of history.events ?? []) {
      const id = e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
      if (id) starts.push(id);
    }
  }
  return { starts, runs };
}

export { waitFor } from '../helpers/poll.js';
