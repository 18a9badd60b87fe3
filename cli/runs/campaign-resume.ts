// `bench run --id <id>` for a campaign that exists, and `bench retry <id>`, the way eval tools resume:
// a running campaign is reattached to (followed, workers started here if none polls); a closed one is
// started again under its id with its own spec, and the workflow skips every run the results store
// holds; a retry forgets the failed and errored runs first, so exactly those run again.
import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { CampaignInput, type CampaignRecord, type CampaignSpec, type RunRecord } from '../../schemas/campaign.js';
import { BadInputError, describeZodError } from '../../lib/errors.js';
import { resultsStore } from '../../lib/results/results-config.js';
import type { ResultsStore } from '../../lib/results/results-store.js';

export interface ExistingCampaign {
  campaignId: string;
  /** The workflow, when Temporal still knows it. */
  workflow: { handle: WorkflowHandle; running: boolean; status: string } | null;
  stored: CampaignRecord | null;
  /** The results store it was looked up in (SQLite here, or the bucket). */
  store: ResultsStore;
}

export async function findCampaign(client: Client, campaignId: string): Promise<ExistingCampaign> {
  const store = resultsStore();
  const stored = await store.getCampaign(campaignId);
  const handle = client.workflow.getHandle(stored?.workflowId ?? campaignId);
  let workflow: ExistingCampaign['workflow'] = null;
  try {
    const d = await handle.describe();
    if (d.type !== 'campaign') throw new BadInputError(`--id ${campaignId}: workflow ${campaignId} is a ${d.type}, not a campaign; pick another id`, undefined, 'id');
    workflow = { handle, running: d.status.name === 'RUNNING', status: d.status.name };
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  return { campaignId, workflow, stored, store };
}

/** The spec a campaign was recorded with. */
export function storedSpec(rec: CampaignRecord, where: string): CampaignSpec {
  const parsed = CampaignInput.safeParse(rec.spec);
  if (!parsed.success) throw new BadInputError(`campaign ${rec.campaignId}: the spec in the results store ${where} no longer validates (${describeZodError(parsed.error, 'spec').split('\n')[0]}); start a new campaign with another --id`);
  return { ...parsed.data, campaignId: rec.campaignId };
}

/** Fields that decide which runs a campaign has; concurrency, label and childrenPerRun may change on resume. */
const PLAN_FIELDS = ['selection', 'models', 'frameworks', 'trials', 'stopAfterPasses', 'passCriterion', 'toolchain', 'limits', 'budget'] as const;

/** The plan fields in which `given` differs from the campaign's recorded spec. */
export function specDifferences(given: CampaignSpec, recorded: CampaignSpec): string[] {
  const norm = (v: unknown) => JSON.stringify(v ?? null, (_k: string, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
  return PLAN_FIELDS.filter((k) => norm(given[k]) !== norm(recorded[k]));
}

/** Runs a retry reruns: the child failed outright, or its reproduction ended failed or in error. */
export function retryable(r: RunRecord): boolean {
  return r.outcome === 'error' || r.metrics?.status === 'failed' || r.metrics?.status === 'error';
}

export async function retryPlan(store: ResultsStore, campaignId: string): Promise<{ runs: RunRecord[]; retry: RunRecord[] }> {
  const runs = await store.campaignRuns(campaignId);
  return { runs, retry: runs.filter(retryable) };
}
