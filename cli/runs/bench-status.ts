// `bench status <id>`: a running campaign's progress (its progress query), or what the results
// store holds for a closed one.
import { WorkflowNotFoundError } from '@temporalio/client';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { BadInputError } from '../../lib/errors.js';
import { resultsStore } from '../../lib/results/results-config.js';
import { countOf } from '../../lib/results/results-store.js';
import { progressText } from './campaign-follow.js';
import { liveQuery } from './live-query.js';
import { line, printJson } from '../output.js';

export async function benchStatus(campaignId: string, opts: { json?: boolean }): Promise<void> {
  const store = resultsStore();
  const rec = await store.getCampaign(campaignId);
  const stored = rec ? { ...rec, spec: undefined, runs: countOf(await store.campaignRuns(campaignId)) } : null;
  const { client, connection, target } = await connectClient();
  try {
    const handle = client.workflow.getHandle(rec?.workflowId ?? campaignId);
    let workflow: { status: string; startTime: Date; closeTime?: Date } | null = null;
    let progress: unknown = null;
    try {
      const d = await handle.describe();
      workflow = { status: d.status.name, startTime: d.startTime, closeTime: d.closeTime };
      if (d.status.name === 'RUNNING') progress = await liveQuery(handle, target.namespace, d.taskQueue, 'progress', 3000);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    if (!workflow && !stored) throw new BadInputError(`no campaign ${campaignId}: neither Temporal nor the results store ${store.location} knows it`);
    const doc = { campaignId, workflow, progress, store: stored, ui: uiUrl(rec?.workflowId ?? campaignId) };
    if (opts.json) return printJson(doc);
    line(`campaign ${campaignId}: ${workflow ? `workflow ${workflow.status}` : 'workflow no longer kept by Temporal'}${stored ? `, store ${stored.status}` : ''}`);
    if (progress && 'planned' in (progress as object)) line(`  ${progressText(progress as never)}`);
    else if (progress) line(`  progress: ${(progress as { unavailable: string }).unavailable}`);
    if (stored) {
      line(`  recorded ${stored.runs.recorded}/${stored.planned}: done ${stored.runs.done}, error ${stored.runs.error}, skipped ${stored.runs.skipped}`);
      if (stored.reportPath) line(`  report: ${stored.reportPath}`);
    }
    line(`UI: ${doc.ui}`);
  } finally {
    await connection.close();
  }
}
