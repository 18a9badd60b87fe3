// Benchmark campaigns: what one run of (task, model, framework, trial) yields, what a campaign is
// asked to do, and what the results store keeps. Shared by the baseline workflows, the reproduction,
// the campaign workflow, the results store and the campaign report.
import { z } from 'zod';
import { Verdict } from './verdict.js';

/** The paper's frameworks: PhysVEC and its three baselines (Sec. III, Fig. 5a). */
export const Framework = z.enum(['physvec', 'react', 'react-rag', '1-shot']);
export type Framework = z.infer<typeof Framework>;
export const FRAMEWORKS = Framework.options;

/**
 * Per-run metrics, computed by the run's own workflow (reproduction or baseline) from what it did.
 * Definitions follow the paper:
 *  - executable: the final script runs without a runtime exception within the iteration limit (pass@8);
 *  - executableAtIteration: first iteration (1-based) whose full script ran; null when never;
 *    1-shot has only iteration 1. Executability vs iteration (Fig. 5d) = share of runs with
 *    executableAtIteration <= k;
 *  - unitAccuracy: fraction of element functions judged correct in isolation (unit test) for the
 *    final script; integrationAccuracy: mean correct_ratio over run_ functions (null for dft input
 *    files / scripts without run_ functions). Baselines get one verifier pass without repair;
 *    1-shot's values are the "before" markers of Fig. 5b/c;
 *  - tokensIn/tokensOut/toolCalls: T_i, T_o, T_c summed over every LLM call of the run, failed
 *    attempts included;
 *  - scientificCompleted: the run yields physically valid results (rubric + assertions pass on the
 *    final script; for physvec also convergence) — Fig. 7a; scientificIteration: the Scientific
 *    verifier iteration at which that happened (Fig. 7b), null for baselines or when not completed.
 */
export const RunMetrics = z.object({
  framework: Framework,
  status: Verdict,
  executable: z.boolean(),
  executableAtIteration: z.number().int().positive().nullable(),
  iterations: z.number().int().nonnegative(),
  unitAccuracy: z.number().min(0).max(1).nullable(),
  integrationAccuracy: z.number().min(0).max(1).nullable(),
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  llmCalls: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  scientificCompleted: z.boolean(),
  scientificIteration: z.number().int().positive().nullable(),
  assertionsPassed: z.number().int().nonnegative(),
  assertionsTotal: z.number().int().nonnegative(),
  rubricGrade: z.number().nullable(),
  wallMs: z.number().nonnegative(),
  scripted: z.boolean(),
  reportPath: z.string().nullable(),
  message: z.string().optional(),
  /**
   * Baselines only: what their one scoring pass (stage `evaluation`: unit-test entries, rubric grading,
   * assertion variants) spent. Not part of tokensIn/tokensOut/toolCalls/llmCalls/costUsd, which count
   * the framework's own calls (the paper's baselines have no such LLM-assisted scoring).
   */
  scoring: z
    .object({ tokensIn: z.number().int().nonnegative(), tokensOut: z.number().int().nonnegative(), toolCalls: z.number().int().nonnegative(), llmCalls: z.number().int().nonnegative(), costUsd: z.number().nonnegative() })
    .optional(),
});
export type RunMetrics = z.infer<typeof RunMetrics>;

/** The result every campaign child returns (reproduction results carry it as `runMetrics`). */
export interface CampaignChildResult {
  workflowId: string;
  taskId: string;
  runMetrics: RunMetrics;
}

/** Where a campaign's tasks come from: our suite (`data/tasks`) or a QMP-Bench-layout root, filtered. */
export const TaskSelection = z.object({
  root: z.string().default('data/tasks'),
  /** Substrings of task ids (any match keeps the task); empty keeps all. */
  ids: z.array(z.string()).default([]),
  topics: z.array(z.enum(['dmrg', 'nqs', 'qsim', 'dft'])).default([]),
  limit: z.number().int().positive().optional(),
});
export type TaskSelection = z.infer<typeof TaskSelection>;

export const CampaignInput = z.object({
  /** Stable id; defaults to the workflow id. Scheduled runs get `<scheduleId>-<timestamp>`. */
  campaignId: z.string().optional(),
  label: z.string().optional(),
  selection: TaskSelection,
  /**
   * Model ids (`provider:model`). In a `scripted:` model the placeholders `{task}` and `{trial}`
   * are replaced per run, e.g. `scripted:campaign/{task}.t{trial}` → data/cassettes/campaign/<task>.t1.json.
   */
  models: z.array(z.string()).min(1),
  frameworks: z.array(Framework).min(1).default(['physvec']),
  trials: z.number().int().positive().default(1),
  concurrency: z.number().int().positive().default(2),
  /** Stop further trials of a (task, model, framework) once this many of its runs passed. */
  stopAfterPasses: z.number().int().positive().optional(),
  /** What counts as a pass for early stop and pass@N: executability or scientific completion. */
  passCriterion: z.enum(['executable', 'scientific']).default('scientific'),
  toolchain: z.string().optional(),
  /** `full`: PhysVEC runs use the tasks' full-size parameters and the large simulation queue (as `reproduce --size full`). */
  size: z.enum(['scaled', 'full']).optional(),
  limits: z.record(z.string(), z.number()).default({}),
  budget: z.object({ maxTokens: z.number().positive().optional(), maxUsd: z.number().positive().optional() }).default({}),
  /** Children launched per workflow run before continue-as-new (keeps histories small). */
  childrenPerRun: z.number().int().positive().default(40),
});
export type CampaignInput = z.input<typeof CampaignInput>;
export type CampaignSpec = z.infer<typeof CampaignInput>;

/** One planned run of a campaign. `key` is unique in the campaign and names the child workflow. */
export const RunKey = z.object({
  key: z.string(),
  taskId: z.string(),
  taskFile: z.string(),
  topic: z.string(),
  model: z.string(),
  framework: Framework,
  trial: z.number().int().positive(),
});
export type RunKey = z.infer<typeof RunKey>;

/** A row of the results store: the run's key, its metrics, and where it came from. */
export const RunRecord = RunKey.extend({
  campaignId: z.string(),
  workflowId: z.string(),
  /** `done` with metrics, `error` when the child failed outright (metrics then describe the failure), `skipped` by early stop. */
  outcome: z.enum(['done', 'error', 'skipped']),
  metrics: RunMetrics.nullable(),
  recordedAt: z.string(),
});
export type RunRecord = z.infer<typeof RunRecord>;

export const CampaignRecord = z.object({
  campaignId: z.string(),
  workflowId: z.string(),
  scheduleId: z.string().nullable(),
  label: z.string().nullable(),
  spec: z.unknown(),
  status: z.enum(['running', 'completed', 'failed']),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  planned: z.number().int().nonnegative(),
  reportPath: z.string().nullable(),
});
export type CampaignRecord = z.infer<typeof CampaignRecord>;

export interface CampaignProgress {
  campaignId: string;
  planned: number;
  done: number;
  running: number;
  skipped: number;
  failed: number;
  passes: number;
  continuedAsNew: number;
  inFlight: string[];
}

/**
 * Input of the baseline workflows `reactBaseline` (rag=false: ReAct, rag=true: ReAct-RAG) and
 * `oneShotBaseline` (PhysVEC-1-shot; `rag` ignored). Same task/model fields as ReproductionInput.
 */
export const BaselineInput = z.object({
  taskFile: z.string(),
  datasetRoot: z.string().optional(),
  toolchain: z.string().optional(),
  models: z.object({ defaultModel: z.string(), roles: z.record(z.string(), z.string()).default({}) }),
  budget: z.object({ maxTokens: z.number().positive().optional(), maxUsd: z.number().positive().optional() }).default({}),
  limits: z.record(z.string(), z.number()).default({}),
  rag: z.boolean().default(false),
});
export type BaselineInput = z.input<typeof BaselineInput>;

export interface CampaignReportResult {
  campaignId: string;
  htmlPath: string;
  jsonPath: string;
  /** Figure ids rendered, e.g. fig5a, fig5d, fig6a, fig6c, fig7. */
  figures: string[];
  comparedWith: string | null;
  regressions: { metric: string; scope: string; before: number; after: number }[];
}

/** Activities of the results store (orchestration queue). All writes are idempotent upserts. */
export interface ResultsActivities {
  openCampaign(rec: { campaignId: string; workflowId: string; scheduleId: string | null; label: string | null; spec: unknown; planned: number }): Promise<void>;
  recordRun(rec: RunRecord): Promise<void>;
  /** Keys already recorded for this campaign (a resumed or continued campaign skips them). */
  recordedKeys(req: { campaignId: string }): Promise<string[]>;
  closeCampaign(req: { campaignId: string; status: 'completed' | 'failed' }): Promise<void>;
  writeCampaignReport(req: { campaignId: string }): Promise<CampaignReportResult>;
}
