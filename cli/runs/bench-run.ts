// `bench run`: a new campaign from --spec or flags, checked before any connection; with --id, the
// campaign of that id reattached to while it runs, or resumed under its own spec when closed (the
// workflow skips every run the results store holds).
import { z } from 'zod';
import type { CampaignSpec } from '../../schemas/campaign.js';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { BadInputError } from '../../lib/errors.js';
import { resultsStore } from '../../lib/results/results-config.js';
import { findCampaign, specDifferences, storedSpec } from './campaign-resume.js';
import { checkCampaign, loadCampaignSpecFile, specFromFlags } from './campaign-spec.js';
import { followToReport, pickDefined, startAndFollow } from './bench-follow.js';
import { line, printJson } from '../output.js';
import { flagName } from '../flags.js';

export const BenchRunFlags = z.object({
  spec: z.string().optional(),
  tasks: z.string().optional(),
  topics: z.string().optional(),
  root: z.string().optional(),
  limit: z.coerce.number().int().positive().optional(),
  models: z.string().optional(),
  frameworks: z.string().optional(),
  trials: z.coerce.number().int().positive().optional(),
  concurrency: z.coerce.number().int().positive().optional(),
  stopAfterPasses: z.coerce.number().int().positive().optional(),
  passCriterion: z.enum(['executable', 'scientific']).optional(),
  childrenPerRun: z.coerce.number().int().positive().optional(),
  label: z.string().optional(),
  id: z.string().optional(),
  workers: z.enum(['auto', 'in-process', 'external']).default('auto'),
  wait: z.boolean().default(true),
  json: z.boolean().optional(),
});

export type BenchRunOptions = z.infer<typeof BenchRunFlags>;

export async function runBench(opts: BenchRunOptions): Promise<void> {
  const specFlags = ['tasks', 'topics', 'root', 'limit', 'models', 'frameworks', 'trials', 'concurrency', 'stopAfterPasses', 'passCriterion', 'childrenPerRun', 'label', 'id'] as const;
  let spec: CampaignSpec | undefined;
  if (opts.spec) {
    const clash = specFlags.filter((k) => opts[k] !== undefined);
    if (clash.length) throw new BadInputError(`--spec ${opts.spec}: give the campaign either as a file or as flags, not both (drop ${clash.map(flagName).join(', ')})`);
    spec = await loadCampaignSpecFile(opts.spec);
  } else if (!opts.id || specFlags.some((k) => k !== 'id' && k !== 'concurrency' && k !== 'label' && k !== 'childrenPerRun' && opts[k] !== undefined)) {
    spec = specFromFlags(opts);
  }
  // A new campaign is checked before any connection; an existing one once we know its spec.
  let plan = spec && !opts.id ? await checkCampaign(spec, opts.spec ?? 'bench run') : undefined;
  const say = (s: string) => { if (!opts.json) line(s); };
  const { client, connection, target } = await connectClient();
  try {
    const existing = opts.id ? await findCampaign(client, opts.id) : undefined;
    const known = existing && (existing.workflow || existing.stored) ? existing : undefined;
    if (opts.id && !spec && !known) {
      throw new BadInputError(`--id ${opts.id}: no campaign ${opts.id} to reattach to or resume (neither Temporal nor the results store ${existing!.store.location} knows it); add --tasks/--models… or --spec to start a new campaign under this id`, undefined, 'id');
    }
    const recorded = known?.stored ? storedSpec(known.stored, known.store.location) : undefined;
    if (spec && recorded) {
      const diffs = specDifferences(spec, recorded);
      if (diffs.length) throw new BadInputError(`--id ${opts.id}: campaign ${opts.id} exists with another ${diffs.join(', ')}; drop the other flags to resume it with its own spec, or pick a new --id`, undefined, 'id');
    }
    if (known?.workflow?.running) {
      say(`campaign ${opts.id} is running: reattaching to it (no new workflow started; \`physvec bench status ${opts.id}\` shows it without following)`);
      if (!opts.wait) return opts.json ? printJson({ campaignId: opts.id, reattached: true, ui: uiUrl(opts.id) }) : undefined;
      return await followToReport(client, target.namespace, known.workflow.handle, opts.id!, opts, say, true);
    }
    const base = spec ?? recorded;
    if (!base) throw new BadInputError(`--id ${opts.id}: campaign ${opts.id} is closed and the results store ${resultsStore().location} has no spec for it; give its --tasks/--models… or --spec to run it again`, undefined, 'id');
    const runSpec: CampaignSpec = { ...base, ...(opts.id ? { campaignId: opts.id } : {}), ...(spec ? {} : pickDefined({ concurrency: opts.concurrency, label: opts.label, childrenPerRun: opts.childrenPerRun })) };
    plan ??= await checkCampaign(runSpec, opts.spec ?? 'bench run');
    if (known) {
      const done = new Set(await known.store.recordedKeys(opts.id!));
      const skipped = plan.filter((k) => done.has(k.key)).length;
      if (skipped === plan.length) {
        if (opts.json) return printJson({ campaignId: opts.id, planned: plan.length, recorded: skipped, resumed: false, ui: uiUrl(opts.id!) });
        say(`campaign ${opts.id} is complete: all ${plan.length} runs are recorded, nothing to run (\`physvec bench retry ${opts.id}\` reruns failed ones; \`physvec bench report ${opts.id}\` shows it)`);
        return;
      }
      say(`campaign ${opts.id} resumes: ${skipped} of ${plan.length} runs are recorded and are skipped`);
    }
    await startAndFollow(client, target.namespace, runSpec, plan, opts, say);
  } finally {
    await connection.close();
  }
}
