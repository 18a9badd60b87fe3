// From a campaign's run records to every metric of the campaign report (pure; no I/O).
import { FRAMEWORKS, type Framework, type RunRecord } from '../../schemas/campaign.js';
import { groupBy, groupMetrics, happened } from './groups.js';
import { completedTasks, passRateByTrials } from './pass-at-n.js';
import type { CampaignMetrics, PassCriterion } from './types.js';

const byFramework = (a: Framework, b: Framework) => FRAMEWORKS.indexOf(a) - FRAMEWORKS.indexOf(b);
const uniq = (xs: string[]) => [...new Set(xs)].sort();

export function computeCampaignMetrics(records: RunRecord[], opts: { passCriterion?: PassCriterion; planned?: number | null } = {}): CampaignMetrics {
  const passCriterion = opts.passCriterion ?? 'scientific';
  const topics = uniq(records.map((r) => r.topic));
  const models = uniq(records.map((r) => r.model));
  const frameworks = [...new Set(records.map((r) => r.framework))].sort(byFramework);
  const sep = '\u0000';

  const groups = [...groupBy(records, (r) => [r.topic, r.model, r.framework].join(sep))].map(([k, rs]) => {
    const [topic, model, framework] = k.split(sep) as [string, string, Framework];
    return groupMetrics({ topic, model, framework }, rs);
  });
  const pairs = groupBy(records, (r) => [r.model, r.framework].join(sep));
  const byModelFramework = [...pairs].map(([k, rs]) => {
    const [model, framework] = k.split(sep) as [string, Framework];
    return groupMetrics({ topic: '*', model, framework }, rs);
  });
  const byTopicFramework = [...groupBy(records, (r) => [r.topic, r.framework].join(sep))].map(([k, rs]) => {
    const [topic, framework] = k.split(sep) as [string, Framework];
    return groupMetrics({ topic, model: '*', framework }, rs);
  });
  const passAtN = [...pairs].map(([k, rs]) => {
    const [model, framework] = k.split(sep) as [string, Framework];
    return { model, framework, tasks: new Set(rs.map((r) => r.taskId)).size, passRate: passRateByTrials(rs, passCriterion) };
  });
  const completed = [...pairs].map(([k, rs]) => {
    const [model, framework] = k.split(sep) as [string, Framework];
    return { model, framework, ...completedTasks(rs) };
  });

  const order = <T extends { topic?: string; model: string; framework: Framework }>(xs: T[]) =>
    xs.sort((a, b) => (a.topic ?? '').localeCompare(b.topic ?? '') || a.model.localeCompare(b.model) || byFramework(a.framework, b.framework));
  const ran = records.filter(happened);
  const ms = ran.flatMap((r) => (r.metrics ? [r.metrics] : []));
  const total = (f: (m: (typeof ms)[number]) => number) => ms.reduce((s, m) => s + f(m), 0);
  return {
    passCriterion,
    topics,
    models,
    frameworks,
    groups: order(groups),
    byModelFramework: order(byModelFramework),
    byTopicFramework: order(byTopicFramework),
    passAtN: order(passAtN),
    completed: order(completed),
    totals: {
      planned: opts.planned ?? null,
      recorded: records.length,
      runs: ran.length,
      skipped: records.length - ran.length,
      errors: records.filter((r) => r.outcome === 'error').length,
      tokensIn: total((m) => m.tokensIn),
      tokensOut: total((m) => m.tokensOut),
      toolCalls: total((m) => m.toolCalls),
      costUsd: total((m) => m.costUsd),
      runWallMs: total((m) => m.wallMs),
      scripted: ms.some((m) => m.scripted) || records.some((r) => r.model.startsWith('scripted:')),
    },
  };
}
