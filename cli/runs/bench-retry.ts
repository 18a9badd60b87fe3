// `bench retry <id>`: a closed campaign started again under its own spec after its failed and
// errored runs are forgotten, so exactly those run again.
import { z } from 'zod';
import type { CampaignSpec } from '../../schemas/campaign.js';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { BadInputError } from '../../lib/errors.js';
import { findCampaign, retryPlan, storedSpec } from './campaign-resume.js';
import { checkCampaign } from './campaign-spec.js';
import { pickDefined, startAndFollow } from './bench-follow.js';
import { line, printJson } from '../output.js';

export const BenchRetryFlags = z.object({
  concurrency: z.coerce.number().int().positive().optional(),
  workers: z.enum(['auto', 'in-process', 'external']).default('auto'),
  wait: z.boolean().default(true),
  json: z.boolean().optional(),
});

export type BenchRetryOptions = z.infer<typeof BenchRetryFlags>;

export async function retryBench(campaignId: string, opts: BenchRetryOptions): Promise<void> {
  const say = (s: string) => { if (!opts.json) line(s); };
  const { client, connection, target } = await connectClient();
  try {
    const found = await findCampaign(client, campaignId);
    if (!found.stored) throw new BadInputError(`no campaign ${campaignId} in the results store ${found.store.location} (list them with \`physvec results list\`)`);
    if (found.workflow?.running) throw new BadInputError(`campaign ${campaignId} is still running: retry it once it has closed (\`physvec bench status ${campaignId}\`), or reattach with \`physvec bench run --id ${campaignId}\``);
    const spec: CampaignSpec = { ...storedSpec(found.stored, found.store.location), ...pickDefined({ concurrency: opts.concurrency }) };
    const plan = await checkCampaign(spec, `bench retry ${campaignId}`);
    const { retry } = await retryPlan(found.store, campaignId);
    if (retry.length === 0) {
      if (opts.json) return printJson({ campaignId, retried: [], ui: uiUrl(campaignId) });
      say(`campaign ${campaignId}: no failed or errored run to retry`);
      return;
    }
    say(`campaign ${campaignId}: retrying ${retry.length} failed/errored run(s): ${retry.map((r) => r.key).join(', ')}`);
    await found.store.forgetRuns(campaignId, retry.map((r) => r.key));
    await startAndFollow(client, target.namespace, spec, plan, opts, say, retry.map((r) => r.key));
  } finally {
    await connection.close();
  }
}
