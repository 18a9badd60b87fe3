// How a run ends, in one list for every place that says it: the workflows' results and progress, the
// `Verdict` search attribute, RunMetrics.status (results store, campaign report), the evidence
// report and `physvec runs --verdict`. A stage (`programming`, `repairing`…) is never a verdict: it
// goes in the `Stage` attribute.
import { z } from 'zod';

/** How a run (reproduction, baseline, smoke run) ended. Final on every ending (error: workflows/shared/ending.ts). */
export const Verdict = z.enum(['passed', 'failed', 'budget_exhausted', 'stopped', 'error']);
export type Verdict = z.infer<typeof Verdict>;

/** A run's status: `running` or `paused` while it works, then its verdict (the `Verdict` attribute of a run). */
export const RunStatus = z.enum(['running', 'paused', ...Verdict.options]);
export type RunStatus = z.infer<typeof RunStatus>;

/** What a benchmark campaign's `Verdict` attribute says: it runs, then completes (its runs' verdicts are in the store), is stopped or errs. */
export const CampaignVerdict = z.enum(['running', 'completed', 'stopped', 'error']);
export type CampaignVerdict = z.infer<typeof CampaignVerdict>;

/** Every value the `Verdict` search attribute takes. */
export type VerdictAttribute = RunStatus | CampaignVerdict;
