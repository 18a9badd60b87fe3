// Activity proxies of the pipeline workflows (reproduction, baselines, validation): light pipeline steps on the orchestration queue,
// sandbox runs on the simulation queue. Every call carries a one-line summary (Temporal user
// metadata, shown on the workflow's page in the UI): "unit test observable_spin_densities",
// "assertion limiting:2", "prepare task task_dmrg_7_2.json", …
import { proxyActivities, type ActivityInterfaceFor, type ActivityOptions } from '@temporalio/workflow';
import type { PipelineActivities, SimulationPipelineActivities } from '../../activities/pipeline/index.js';
import type { ScriptJob } from '../../schemas/pipeline.js';
import { describePurpose } from '../../schemas/job-purpose.js';
import { LARGE_SANDBOX_ACTIVITY, LIGHT_ACTIVITY, PREPARE_ACTIVITY, SANDBOX_ACTIVITY } from '../../temporal-config/timeouts.js';
import { perQueue } from './queues.js';

type Summarize = (name: string, input: Record<string, unknown> | undefined) => string | undefined;
// executeWithOptions as a property: the SDK's closes over its options and never reads `this`.
type ProxiedActivity = ((...args: unknown[]) => Promise<unknown>) & { executeWithOptions: (options: ActivityOptions, args: unknown[]) => Promise<unknown> };

/** The same proxy, each call scheduled with `summary` (SDK 1.24 ActivityOptions.summary) from its input. */
function withSummaries<A extends object>(proxy: ActivityInterfaceFor<A>, summarize: Summarize): ActivityInterfaceFor<A> {
  return new Proxy(proxy, {
    get(target, name) {
      const fn = (target as unknown as Record<string, ProxiedActivity>)[name as string]!;
      if (typeof name !== 'string') return fn;
      const call = (...args: unknown[]) => {
        const summary = summarize(name, args[0] as Record<string, unknown> | undefined)?.slice(0, 200);
        return summary ? fn.executeWithOptions({ summary }, args) : fn(...args);
      };
      return Object.assign(call, { executeWithOptions: fn.executeWithOptions });
    },
  });
}

/** What a sandbox job is for, from its purpose (histories recorded before jobs carried one: its id). */
export function jobSummary(job: ScriptJob): string {
  return job.purpose ? describePurpose(job.purpose) : job.id;
}

/** An input field as summary text (taskFile, status and caseId are strings). */
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- the fields read are strings in every activity input
const text = (v: unknown): string => String(v ?? '');

const lightSummary: Summarize = (name, input) => {
  const iteration = typeof input?.iteration === 'number' ? ` iteration ${input.iteration}` : '';
  switch (name) {
    case 'prepareTask': return `prepare task ${text(input?.taskFile).split('/').pop()}`;
    case 'writeReport': return `write report (${text(input?.status)})`;
    case 'judgeProgramming': return `judge programming${iteration}`;
    case 'buildConvergenceJob': return `build convergence variant ${text(input?.caseId)}`;
    case 'convergenceStep': return 'judge convergence step';
    default: return name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  }
};

const simSummary: Summarize = (_name, input) => (input?.job ? jobSummary(input.job as ScriptJob) : undefined);

export const light = perQueue((q) => withSummaries(proxyActivities<PipelineActivities>({ ...LIGHT_ACTIVITY, taskQueue: q.orchestration }), lightSummary));
/** The prepare step with its own policy (a busy host's toolchain check is waited for): workflows/shared/prepare.ts. */
export const prepareLight = perQueue((q) => withSummaries(proxyActivities<PipelineActivities>({ ...PREPARE_ACTIVITY, taskQueue: q.orchestration }), lightSummary));
export const sim = perQueue((q) => withSummaries(proxyActivities<SimulationPipelineActivities>({ ...SANDBOX_ACTIVITY, taskQueue: q.simulation }), simSummary));
/** Full-size runs (`--size full`): the large queue, served by bigger hosts (`physvec worker --queue large`). */
export const simLarge = perQueue((q) => withSummaries(proxyActivities<SimulationPipelineActivities>({ ...LARGE_SANDBOX_ACTIVITY, taskQueue: q.large }), simSummary));
