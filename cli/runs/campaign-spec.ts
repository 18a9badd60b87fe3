// A campaign spec from a JSON file or from `bench run` flags, checked before anything starts: the
// shape (zod, errors name the file and the field), the selection (planned here with the same code
// the workflow's plan activity runs), the model names, API keys and, for scripted models, that
// every run has its cassette.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CampaignInput, type CampaignSpec, type RunKey } from '../../schemas/campaign.js';
import { BadInputError, badInputFromZod } from '../../lib/errors.js';
import { readJsonFile } from '../../lib/input-files/json-file.js';
import { formatProblem } from '../../lib/input-files/problems.js';
import { canonicalTopic } from '../../lib/tasks/topics.js';
import { repoRoot } from '../../lib/paths.js';
import { assertKnownProvider, loadConfig } from '../../lib/config.js';
import { isScriptedModel, parseModelId } from '../../lib/llm/model-id.js';
import { checkCredentials, describeMissingCredentials } from '../../lib/llm/credentials.js';
import { resolveCassettePath } from '../../activities/llm/cassette.js';
import { planCampaign } from '../../activities/campaign/plan.js';
import { modelForRun } from '../../lib/campaign/keys.js';
import { badFlags } from '../flags.js';
import { FIRST_CALLS, checkCassette } from './preflight.js';

/** Without an API key, campaigns replay the per-task, per-trial campaign cassettes. */
export const DEFAULT_CAMPAIGN_MODEL = 'scripted:campaign/{task}.t{trial}';

/** A relative root: against `base` (the spec file's folder, or the shell's directory) when it exists there, else the project's. */
function absoluteRoot(root: string, base: string): string {
  if (path.isAbsolute(root)) return root;
  const near = path.resolve(base, root);
  return existsSync(near) ? near : path.resolve(repoRoot, root);
}

export async function loadCampaignSpecFile(file: string): Promise<CampaignSpec> {
  const abs = path.resolve(file);
  const read = await readJsonFile(abs);
  if (!read.ok) throw new BadInputError(`${formatProblem(read.problem)}${read.problem.message === 'file not found' ? ' (give --spec a campaign JSON file)' : ''}`, abs);
  const parsed = CampaignInput.safeParse(read.value);
  if (!parsed.success) throw badInputFromZod(parsed.error, abs);
  return { ...parsed.data, selection: { ...parsed.data.selection, root: absoluteRoot(parsed.data.selection.root, path.dirname(abs)) } };
}

export interface CampaignFlags {
  tasks?: string;
  topics?: string;
  root?: string;
  limit?: number;
  models?: string;
  frameworks?: string;
  trials?: number;
  concurrency?: number;
  stopAfterPasses?: number;
  passCriterion?: string;
  childrenPerRun?: number;
  label?: string;
  id?: string;
}

const list = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

export function specFromFlags(f: CampaignFlags): CampaignSpec {
  const raw = {
    campaignId: f.id,
    label: f.label,
    selection: { root: absoluteRoot(f.root ?? 'data/tasks', process.cwd()), ids: list(f.tasks), topics: list(f.topics).map((t) => canonicalTopic(t) ?? t), limit: f.limit },
    models: f.models ? list(f.models) : [DEFAULT_CAMPAIGN_MODEL],
    frameworks: f.frameworks ? list(f.frameworks) : undefined,
    trials: f.trials,
    concurrency: f.concurrency,
    stopAfterPasses: f.stopAfterPasses,
    passCriterion: f.passCriterion,
    childrenPerRun: f.childrenPerRun,
  };
  const parsed = CampaignInput.safeParse(raw);
  if (!parsed.success) throw badFlags(parsed.error, { selection: '--tasks/--topics/--root/--limit', campaignId: '--id' });
  return parsed.data;
}

/** Everything that can be checked before the workflow starts; returns the plan the workflow will make. */
export async function checkCampaign(spec: CampaignSpec, where = 'campaign'): Promise<RunKey[]> {
  const config = loadConfig();
  spec.models.forEach((m, i) => assertKnownProvider(config, m, `${where}: models.${i}`));
  const missing = checkCredentials(spec.models, config);
  if (missing.length) {
    throw new BadInputError(`${where}: missing API keys for the campaign's models:\n${describeMissingCredentials(missing)}\nor use the scripted model ${DEFAULT_CAMPAIGN_MODEL}`);
  }
  let plan: RunKey[];
  try {
    plan = await planCampaign(spec);
  } catch (err) {
    if (err instanceof BadInputError) throw new BadInputError(`${where}: ${err.message}`, err.file, err.fieldPath);
    throw err;
  }
  const noCassette = new Set<string>();
  const checked = new Set<string>();
  for (const k of plan) {
    if (!isScriptedModel(k.model)) continue;
    const model = modelForRun(k.model, k.taskId, k.trial);
    const file = resolveCassettePath(parseModelId(model).model, config.llm.cassettesDir);
    if (!existsSync(file)) noCassette.add(`${model} → ${file}`);
    else if (!checked.has(`${file} ${k.framework}`)) {
      // It parses and answers the first call of this run's framework (the rest depends on the run).
      checked.add(`${file} ${k.framework}`);
      checkCassette(model, config.llm.cassettesDir, FIRST_CALLS[k.framework] ?? [], `${where}: run ${k.key}: model`);
    }
  }
  if (noCassette.size) {
    throw new BadInputError(
      `${where}: the scripted model has no cassette for ${noCassette.size} run(s) — narrow the selection (--tasks) or the trials to what data/cassettes holds, or record cassettes:\n  ` +
        `${[...noCassette].slice(0, 8).join('\n  ')}${noCassette.size > 8 ? '\n  …' : ''}`,
    );
  }
  return plan;
}
