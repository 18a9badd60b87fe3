// What every baseline workflow shares (paper Sec. III.1): prepare the task, let the framework produce
// its final script, then score that script ONCE and without repair by the same checks PhysVEC uses —
// one Programming-verifier pass (unit / integration accuracy, executability) and, for a script that
// runs, one scientific pass (rubric + physical assertions judged by code) — and compute RunMetrics.
// The scoring is for comparison only: its LLM spend is reported apart (`runMetrics.scoring`).
import { CancellationScope, defineQuery, setHandler, upsertMemo, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { ArtifactRef } from '../../schemas/artifact.js';
import { BaselineInput, type CampaignChildResult, type Framework, type RunMetrics } from '../../schemas/campaign.js';
import type { UsageTotals } from '../../schemas/llm.js';
import { PipelineLimits, type RepairOutcome, type RunDigest, type ScriptJob, type ScriptSummary, type TaskContext } from '../../schemas/pipeline.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { markStage, markStatus } from '../lib/stage.js';
import { describeFailure, endingFailure, unexpectedEnding } from '../lib/ending.js';
import { programmingPass, type ProgrammingPass, type RunJobs } from '../lib/programming-pass.js';
import { scientificPass, scientificVerdict, type ScientificPass } from '../lib/scientific-pass.js';
import { programmingAccuracy, scientificCounts, splitSpend } from '../lib/run-metrics.js';
import { Agents, BudgetStop } from '../reproduction/agent.js';
import { light, sim } from '../reproduction/activities.js';

/** The stage whose LLM calls belong to the scoring, not to the framework under test. */
export const EVALUATION_STAGE = 'evaluation';

export type BaselineStatus = 'running' | 'passed' | 'failed' | 'budget_exhausted' | 'stopped' | 'error';

/** One run of the full script inside a baseline's own loop. */
export interface BaselineAttempt {
  iteration: number;
  exitCode: number | null;
  timedOut: boolean;
  /** The error fed back to the repairer (absent when the run succeeded). */
  error?: string;
  /** Why the repair that followed could not be applied (the script then stays as it was). */
  repairError?: string;
}

export interface BaselineResult extends CampaignChildResult {
  framework: Framework;
  status: BaselineStatus;
  scripted: boolean;
  authorScriptRef?: ArtifactRef;
  finalScriptRef?: ArtifactRef;
  figureRef?: ArtifactRef;
  report?: { jsonRef: ArtifactRef; htmlRef: ArtifactRef; htmlPath: string; jsonPath: string };
  attempts: BaselineAttempt[];
  tokens: UsageTotals;
  message?: string;
}

export interface BaselineProgress {
  framework: Framework;
  taskId: string;
  stage: string;
  iteration: number;
  status: BaselineStatus;
  attempts: BaselineAttempt[];
  tokens: UsageTotals;
}
export const baselineProgressQuery = defineQuery<BaselineProgress>('progress');

/** What the framework-specific part fills in while it works (kept when the budget stops it midway). */
export interface BaselineState {
  current?: ScriptSummary;
  authorScriptRef?: ArtifactRef;
  attempts: BaselineAttempt[];
  /** First loop iteration whose full script ran; undefined for frameworks without a loop (1-shot). */
  executableAt?: number | null;
  /** A run of exactly `current`, if one happened (reused by the scoring instead of running it again). */
  lastRun?: RunDigest;
  repairs: { stage: string; iteration: number; outcome: RepairOutcome; suggestions: string[] }[];
}

export interface BaselineEnv {
  agents: Agents;
  ctx: TaskContext;
  limits: PipelineLimits;
  runAll: RunJobs;
  enter: (stage: string, iteration?: number) => void;
}

export async function runBaseline(
  framework: Framework,
  rawInput: BaselineInput,
  produce: (env: BaselineEnv, state: BaselineState) => Promise<void>,
): Promise<BaselineResult> {
  const input = BaselineInput.parse(rawInput);
  const limits = PipelineLimits.parse(input.limits);
  const agents = new Agents({ defaultModel: input.models.defaultModel, roles: input.models.roles }, input.budget);
  const startedAt = Date.now();
  upsertSearchAttributes([{ key: SA.Framework, value: framework }]);

  const progress: BaselineProgress = { framework, taskId: '', stage: 'prepare', iteration: 0, status: 'running', attempts: [], tokens: agents.ledger.total };
  setHandler(baselineProgressQuery, () => ({ ...progress, tokens: agents.ledger.total }));
  const timings: { stage: string; startedAt: number; endedAt?: number }[] = [];
  const enter = (stage: string, iteration = 0) => {
    const last = timings[timings.length - 1];
    if (last && last.stage !== stage && last.endedAt === undefined) last.endedAt = Date.now();
    if (!last || last.stage !== stage) timings.push({ stage, startedAt: Date.now() });
    progress.stage = stage;
    progress.iteration = iteration;
    markStage(stage, iteration, 'running');
  };

  let ctx: TaskContext | undefined;
  const runAll: RunJobs = (jobs: ScriptJob[]) => Promise.all(jobs.map((job) => sim.runJob({ job, language: ctx!.language, timeoutMs: limits.runTimeoutMs })));
  const state: BaselineState = { attempts: progress.attempts, repairs: [] };
  let evaluation: ProgrammingPass | undefined;
  let science: ScientificPass | undefined;
  let status: BaselineStatus = 'running';
  let message: string | undefined;
  let unexpected: { err: unknown } | undefined;

  try {
    enter('prepare');
    ctx = await light.prepareTask({ taskFile: input.taskFile, datasetRoot: input.datasetRoot, toolchain: input.toolchain });
    progress.taskId = ctx.taskId;
    await produce({ agents, ctx, limits, runAll, enter }, state);

    // ---- scoring: once, no repair -----------------------------------------------------------
    enter(EVALUATION_STAGE, 1);
    evaluation = await programmingPass(agents, ctx, state.current!, EVALUATION_STAGE, 1, runAll, { fullRun: state.lastRun });
    if (evaluation.report.executable) science = await scientificPass(agents, ctx, state.current!, EVALUATION_STAGE, 1, limits.rubricRepeats, runAll);
    const verdict = science ? scientificVerdict(science) : undefined;
    status = verdict?.passed ? 'passed' : 'failed';
    message = !evaluation.report.executable
      ? `${framework}: the final script does not run${state.attempts.length ? ` after ${state.attempts.length} iteration(s)` : ''}: ${evaluation.report.fullRunError?.split('\n').pop() ?? 'no error text'}`
      : verdict?.passed
        ? `${framework}: the final script runs and passes every scientific check (scored once, comparison only)`
        : `${framework}: the final script runs but fails the scientific checks (${[!verdict?.rubricOk ? 'rubric' : '', !verdict?.assertionsOk ? 'physical assertions' : ''].filter(Boolean).join(', ')})`;
  } catch (err) {
    if (err instanceof BudgetStop) {
      status = 'budget_exhausted';
      message = `${framework}: ${err.message}; every artifact so far is kept`;
    } else {
      const ending = unexpectedEnding(err, progress.stage);
      status = ending.verdict;
      message = `${framework}: ${ending.message}`;
      unexpected = { err };
    }
  }

  // ---- evidence and metrics -------------------------------------------------------------------
  const last = timings[timings.length - 1];
  if (last && last.endedAt === undefined) last.endedAt = Date.now();
  progress.status = status;
  markStage('report', progress.iteration, status);
  const finalRun = evaluation?.fullRun ?? state.lastRun;
  let report: BaselineResult['report'];
  try {
    report = await CancellationScope.nonCancellable(() => light.writeReport({
        workflowId: workflowInfo().workflowId,
        status,
        message,
        stageReached: progress.stage,
        taskFile: input.taskFile,
        context: ctx,
        models: { defaultModel: input.models.defaultModel, roles: input.models.roles },
        authorScriptRef: state.authorScriptRef,
        finalScriptRef: state.current?.scriptRef,
        programmingReports: evaluation ? [evaluation.report] : [],
        scientificRounds: science ? [{ iteration: 1, ...science }] : [],
        convergence: [],
        repairs: state.repairs,
        finalRun,
        progress: { scripted: agents.scripted, tokens: agents.ledger.total, ledger: agents.ledger, timings, human: [] },
      }));
  } catch (err) {
    message = `${message ?? status}; the report could not be written: ${describeFailure(err)}`;
  }
  markStatus(status);
  upsertMemo({ verdict: status, reportPath: report?.htmlPath ?? null });

  const executable = evaluation ? evaluation.report.executable : (state.executableAt ?? null) !== null;
  const spend = splitSpend(agents.ledger, [EVALUATION_STAGE]);
  const runMetrics: RunMetrics = {
    framework,
    status,
    executable,
    // A loop knows where it first ran; a framework without one (1-shot) has only iteration 1.
    executableAtIteration: state.executableAt !== undefined ? state.executableAt : executable ? 1 : null,
    iterations: state.executableAt !== undefined ? state.attempts.length : 1,
    ...programmingAccuracy(evaluation?.report),
    ...spend.own,
    scientificCompleted: status === 'passed',
    scientificIteration: null,
    ...scientificCounts(science ? { rubric: science.rubric, assertions: science.assertions } : undefined),
    ...(science ? {} : { assertionsTotal: ctx ? ctx.limitingCases.length + ctx.scientificResults.length : 0 }),
    wallMs: Math.max(0, Date.now() - startedAt),
    scripted: agents.scripted,
    reportPath: report?.htmlPath ?? null,
    ...(message ? { message } : {}),
    scoring: spend.other,
  };
  if (unexpected) throw endingFailure(unexpected.err, `${message}${report ? ` (report: ${report.htmlPath})` : ''}`, { verdict: status, stageReached: progress.stage, report, runMetrics });
  return {
    workflowId: workflowInfo().workflowId,
    taskId: progress.taskId,
    framework,
    status,
    scripted: agents.scripted,
    authorScriptRef: state.authorScriptRef,
    finalScriptRef: state.current?.scriptRef,
    figureRef: finalRun?.files.find((f) => f.path === 'figure.png')?.ref,
    report,
    attempts: state.attempts,
    tokens: agents.ledger.total,
    runMetrics,
    message,
  };
}
