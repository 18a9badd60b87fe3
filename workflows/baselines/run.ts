// What every baseline workflow shares (paper Sec. III.1): prepare the task, let the framework produce
// its final script, then score that script once without repair (scoring.ts) and compute RunMetrics.
import { setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { BaselineInput, type Framework, type RunMetrics } from '../../schemas/campaign.js';
import { PipelineLimits, type TaskContext } from '../../schemas/pipeline.js';
import { FIGURE_FILE } from '../../schemas/script-markers.js';
import { SA } from '../../temporal-config/search-attributes.js';
import { endingFailure, unexpectedEnding } from '../shared/ending.js';
import { recordEnding, type WrittenReport } from '../shared/evidence.js';
import { programmingAccuracy, scientificCounts, splitSpend } from '../shared/run-metrics.js';
import { Agents, BudgetStop } from '../shared/agents.js';
import { light } from '../shared/activities.js';
import { runJobs } from '../shared/run-jobs.js';
import { StageClock } from '../shared/stage-clock.js';
import { EVALUATION_STAGE, scoreOnce, type Scoring } from './scoring.js';
import { baselineProgressQuery, type BaselineEnv, type BaselineProgress, type BaselineResult, type BaselineState, type BaselineStatus } from './types.js';

export { EVALUATION_STAGE } from './scoring.js';
export { baselineProgressQuery } from './types.js';
export type { BaselineAttempt, BaselineEnv, BaselineProgress, BaselineResult, BaselineState, BaselineStatus } from './types.js';

interface BaselineRun {
  framework: Framework;
  input: ReturnType<typeof BaselineInput.parse>;
  agents: Agents;
  progress: BaselineProgress;
  clock: StageClock;
  state: BaselineState;
  scoring: Scoring;
  ctx?: TaskContext;
  startedAt: number;
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
  const clock = new StageClock(progress);
  const run: BaselineRun = { framework, input, agents, progress, clock, state: { attempts: progress.attempts, repairs: [] }, scoring: {}, startedAt };
  let ending: { status: BaselineStatus; message?: string; unexpected?: { err: unknown } };
  try {
    clock.enter('prepare');
    const ctx = (run.ctx = await light.prepareTask({ taskFile: input.taskFile, datasetRoot: input.datasetRoot, toolchain: input.toolchain }));
    progress.taskId = ctx.taskId;
    const env: BaselineEnv = { agents, ctx, limits, runAll: runJobs(ctx.language, limits.runTimeoutMs), enter: (stage, iteration) => clock.enter(stage, iteration) };
    await produce(env, run.state);
    ending = await scoreOnce(env, run.state.current!, run.state, run.scoring);
  } catch (err) {
    if (err instanceof BudgetStop) ending = { status: 'budget_exhausted', message: `${err.message}; every artifact so far is kept` };
    else {
      const e = unexpectedEnding(err, progress.stage);
      ending = { status: e.verdict, message: e.message, unexpected: { err } };
    }
  }
  return finish(run, { ...ending, message: `${framework}: ${ending.message}` });
}

/** Evidence and metrics: the report, the run's metrics (the scoring's spend apart), the result. */
async function finish(run: BaselineRun, ending: { status: BaselineStatus; message: string; unexpected?: { err: unknown } }): Promise<BaselineResult> {
  const { framework, input, agents, progress, state, scoring, ctx } = run;
  const { status } = ending;
  run.clock.stop();
  progress.status = status;
  const finalRun = scoring.evaluation?.fullRun ?? state.lastRun;
  const { report, message } = await recordEnding({
    workflowId: workflowInfo().workflowId,
    status, message: ending.message, stageReached: progress.stage,
    taskFile: input.taskFile,
    context: ctx,
    models: { defaultModel: input.models.defaultModel, roles: input.models.roles },
    authorScriptRef: state.authorScriptRef,
    finalScriptRef: state.current?.scriptRef,
    programmingReports: scoring.evaluation ? [scoring.evaluation.report] : [],
    scientificRounds: scoring.science ? [{ iteration: 1, ...scoring.science }] : [],
    convergence: [],
    repairs: state.repairs,
    finalRun,
    progress: { scripted: agents.scripted, tokens: agents.ledger.total, ledger: agents.ledger, timings: run.clock.timings, human: [] },
  }, progress.iteration);
  const runMetrics = baselineMetrics(run, status, message, report);
  if (ending.unexpected) throw endingFailure(ending.unexpected.err, `${message}${report ? ` (report: ${report.htmlPath})` : ''}`, { verdict: status, stageReached: progress.stage, report, runMetrics });
  return {
    workflowId: workflowInfo().workflowId, taskId: progress.taskId, framework, status, scripted: agents.scripted,
    authorScriptRef: state.authorScriptRef, finalScriptRef: state.current?.scriptRef,
    figureRef: finalRun?.files.find((f) => f.path === FIGURE_FILE)?.ref,
    report, attempts: state.attempts, tokens: agents.ledger.total, runMetrics, message,
  };
}

function baselineMetrics(run: BaselineRun, status: BaselineStatus, message: string | undefined, report: WrittenReport | undefined): RunMetrics {
  const { framework, agents, state, scoring: { evaluation, science }, ctx } = run;
  const executable = evaluation ? evaluation.report.executable : (state.executableAt ?? null) !== null;
  const spend = splitSpend(agents.ledger, [EVALUATION_STAGE]);
  return {
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
    wallMs: Math.max(0, Date.now() - run.startedAt),
    scripted: agents.scripted,
    reportPath: report?.htmlPath ?? null,
    ...(message ? { message } : {}),
    scoring: spend.other,
  };
}
