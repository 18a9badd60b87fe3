// What every baseline workflow shares (paper Sec. III.1): prepare the task, let the framework produce
// its final script, then score that script once without repair (scoring.ts) and compute RunMetrics.
import { setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { BaselineInput, type Framework, type RunMetrics } from '../../schemas/campaign.js';
import { PipelineLimits, type TaskContext } from '../../schemas/pipeline.js';
import { FIGURE_FILE } from '../../schemas/script-markers.js';
import { SA } from '../../temporal-config/search-attributes.js';
import type { Verdict } from '../../schemas/verdict.js';
import type { WrittenReport } from '../shared/evidence.js';
import { programmingAccuracy, scientificCounts, splitSpend } from '../shared/run-metrics.js';
import { prepareTaskStep } from '../shared/prepare.js';
import { runJobs } from '../shared/run-jobs.js';
import { closeRun, frameMetrics, runStages, startFrame, type Ending, type RunFrame } from '../shared/run-frame.js';
import { EVALUATION_STAGE, scoreOnce, type Scoring } from './scoring.js';
import { baselineProgressQuery, type BaselineEnv, type BaselineProgress, type BaselineResult, type BaselineState } from './types.js';

interface BaselineRun extends RunFrame<BaselineProgress> {
  framework: Framework;
  input: ReturnType<typeof BaselineInput.parse>;
  state: BaselineState;
  scoring: Scoring;
  ctx?: TaskContext;
}

export async function runBaseline(
  framework: Framework,
  rawInput: BaselineInput,
  produce: (env: BaselineEnv, state: BaselineState) => Promise<void>,
): Promise<BaselineResult> {
  const input = BaselineInput.parse(rawInput);
  const limits = PipelineLimits.parse(input.limits);
  const frame = startFrame(input.models, input.budget, (agents): BaselineProgress => ({ framework, taskId: '', stage: 'prepare', iteration: 0, status: 'running', attempts: [], tokens: agents.ledger.total }));
  const { agents, clock, progress } = frame;
  upsertSearchAttributes([{ key: SA.Framework, value: framework }]);
  setHandler(baselineProgressQuery, () => ({ ...progress, tokens: agents.ledger.total }));
  const run: BaselineRun = { ...frame, framework, input, state: { attempts: progress.attempts, repairs: [] }, scoring: {} };
  const ending = await runStages(run, async () => {
    clock.enter('prepare');
    const ctx = (run.ctx = await prepareTaskStep({ taskFile: input.taskFile, datasetRoot: input.datasetRoot, toolchain: input.toolchain }, agents));
    progress.taskId = ctx.taskId;
    const env: BaselineEnv = { agents, ctx, limits, runAll: runJobs(ctx.language, limits.runTimeoutMs), enter: (stage, iteration) => clock.enter(stage, iteration) };
    await produce(env, run.state);
    return scoreOnce(env, run.state.current!, run.state, run.scoring);
  });
  return finish(run, { ...ending, message: `${framework}: ${ending.message}` });
}

/** Evidence and metrics: the report, the run's metrics (the scoring's spend apart), the result. */
function finish(run: BaselineRun, ending: Ending): Promise<BaselineResult> {
  const { framework, input, agents, progress, state, scoring, ctx } = run;
  const finalRun = scoring.evaluation?.fullRun ?? state.lastRun;
  return closeRun(run, ending, {
    report: (stageReached) => ({
      workflowId: workflowInfo().workflowId,
      status: ending.status, message: ending.message, stageReached,
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
    }),
    metrics: (message, report) => baselineMetrics(run, ending.status, message, report),
    result: ({ message, report, runMetrics }) => ({
      workflowId: workflowInfo().workflowId, taskId: progress.taskId, framework, status: ending.status, scripted: agents.scripted,
      authorScriptRef: state.authorScriptRef, finalScriptRef: state.current?.scriptRef,
      figureRef: finalRun?.files.find((f) => f.path === FIGURE_FILE)?.ref,
      report, attempts: state.attempts, tokens: agents.ledger.total, runMetrics, message,
    }),
  });
}

function baselineMetrics(run: BaselineRun, status: Verdict, message: string | undefined, report: WrittenReport | undefined): RunMetrics {
  const { framework, agents, state, scoring: { evaluation, science }, ctx } = run;
  const executable = evaluation ? evaluation.report.executable : (state.executableAt ?? null) !== null;
  const spend = splitSpend(agents.ledger, [EVALUATION_STAGE]);
  return {
    ...frameMetrics(run, framework, status, message, report, spend.own),
    executable,
    // A loop knows where it first ran; a framework without one (1-shot) has only iteration 1.
    executableAtIteration: state.executableAt !== undefined ? state.executableAt : executable ? 1 : null,
    iterations: state.executableAt !== undefined ? state.attempts.length : 1,
    ...programmingAccuracy(evaluation?.report),
    scientificCompleted: status === 'passed',
    scientificIteration: null,
    ...scientificCounts(science ? { rubric: science.rubric, assertions: science.assertions } : undefined),
    ...(science ? {} : { assertionsTotal: ctx ? ctx.limitingCases.length + ctx.scientificResults.length : 0 }),
    scoring: spend.other,
  };
}
