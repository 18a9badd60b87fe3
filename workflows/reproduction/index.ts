// The PhysVEC reproduction of one task: author → programming verifier → scientific verifier →
// convergence → final run → evidence report. Orchestration only: every LLM call and every script
// run is an activity; scripts, harnesses and reports travel as artifact references.
import { CancellationScope, condition, setHandler, upsertMemo, workflowInfo } from '@temporalio/workflow';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { RunMetrics } from '../../schemas/campaign.js';
import {
  PipelineLimits,
  type AssertionVerdict,
  type ConvergenceOutcome,
  type ProgrammingReport,
  type RepairOutcome,
  type ReproductionInput,
  type RubricOutcome,
  type RunDigest,
  type ScriptSummary,
  type TaskContext,
} from '../../schemas/pipeline.js';
import { emptyLedger } from '../../lib/llm/accounting.js';
import { markStage, markStatus } from '../lib/stage.js';
import { describeFailure, endingFailure, unexpectedEnding } from '../lib/ending.js';
import { answerOf } from '../lib/answer.js';
import { physvecAuthor } from '../lib/author.js';
import { programmingPass } from '../lib/programming-pass.js';
import { lastLines, rankSuspects } from '../../lib/verification/suspects.js';
import { scientificPass, scientificVerdict } from '../lib/scientific-pass.js';
import { programmingAccuracy, scientificCounts, spendOf } from '../lib/run-metrics.js';
import { Agents, BudgetStop } from './agent.js';
import { light, sim } from './activities.js';
import * as P from './prompts.js';
import {
  approveSignal, pauseSignal, progressQuery, replaceScriptUpdate, resumeSignal, stopSignal,
  type HumanEvent, type ReproductionProgress, type ReproductionStatus,
} from './progress.js';

export interface ReproductionResult {
  workflowId: string;
  taskId: string;
  status: ReproductionStatus;
  stageReached: string;
  scripted: boolean;
  finalScriptRef?: ArtifactRef;
  figureRef?: ArtifactRef;
  report?: { jsonRef: ArtifactRef; htmlRef: ArtifactRef; htmlPath: string; jsonPath: string };
  tokens: ReproductionProgress['tokens'];
  /** The run's benchmark metrics (framework `physvec`), as a campaign records them. */
  runMetrics: RunMetrics;
  message?: string;
}

class StopRequested extends Error {}

export async function reproduction(rawInput: ReproductionInput): Promise<ReproductionResult> {
  const limits = PipelineLimits.parse(rawInput.limits ?? {});
  const input = { ...rawInput, pauseAfter: rawInput.pauseAfter ?? [], budget: rawInput.budget ?? {} };
  const agents = new Agents({ defaultModel: input.models.defaultModel, roles: input.models.roles ?? {} }, input.budget);
  const now = () => Date.now();
  const startedAt = now();

  const progress: ReproductionProgress = {
    taskId: '', stage: 'prepare', iteration: 0, status: 'running', scripted: false,
    unit: [], integration: [], programmingHistory: [], assertions: [], convergence: [],
    tokens: emptyLedger().total, ledger: emptyLedger(), timings: [], human: [],
  };
  const syncTokens = () => {
    progress.ledger = agents.ledger;
    progress.tokens = agents.ledger.total;
    progress.scripted = agents.scripted;
  };
  setHandler(progressQuery, () => {
    syncTokens();
    return progress;
  });

  // ---- human in the loop --------------------------------------------------------------------
  let stopRequested: string | undefined;
  let pauseRequested = false;
  let resumed = false;
  let pendingScript: ScriptSummary | undefined;
  const human = (kind: HumanEvent['kind'], note?: string): void => {
    progress.human.push({ at: now(), kind, note, stage: progress.stage });
  };
  setHandler(stopSignal, (note) => { stopRequested = note ?? 'stopped by a person'; human('stop', note); });
  setHandler(pauseSignal, (note) => { pauseRequested = true; human('pause', note); });
  setHandler(resumeSignal, (note) => { resumed = true; human('resume', note); });
  setHandler(approveSignal, (note) => human('approve', note));
  setHandler(replaceScriptUpdate, async ({ script, note }) => {
    const summary = await light.acceptScriptText({ script, language: ctx?.language ?? 'python' });
    if (summary.problems.length === 0) {
      pendingScript = summary;
      human('replace-script', note);
    }
    return { accepted: summary.problems.length === 0, problems: summary.problems };
  });

  let ctx: TaskContext | undefined;
  let current!: ScriptSummary;
  const repairs: { stage: string; iteration: number; outcome: RepairOutcome; suggestions: string[] }[] = [];
  const programmingReports: ProgrammingReport[] = [];
  const scientificRounds: { iteration: number; rubric: RubricOutcome; assertions: AssertionVerdict[] }[] = [];
  const convergence: ConvergenceOutcome[] = [];
  let finalRun: RunDigest | undefined;
  let authorScriptRef: ArtifactRef | undefined;
  let status: ReproductionStatus = 'running';
  let message: string | undefined;
  let scientificPassedAt: number | null = null;
  /** What ended the run when it was neither a verdict, the budget nor a stop signal (activity out of attempts, a bug, a cancellation). */
  let unexpected: { err: unknown } | undefined;

  const enter = async (stage: string, iteration = 0) => {
    const last = progress.timings[progress.timings.length - 1];
    if (last && last.stage !== stage && last.endedAt === undefined) last.endedAt = now();
    if (!last || last.stage !== stage) progress.timings.push({ stage, startedAt: now() });
    progress.stage = stage;
    progress.iteration = iteration;
    markStage(stage, iteration, 'running');
    if (stopRequested) throw new StopRequested(stopRequested);
  };
  /** Between stages: honour pause requests and swap in a script a person supplied. */
  const boundary = async (after: string) => {
    if (pauseRequested || input.pauseAfter.includes(after)) {
      progress.status = 'paused';
      markStatus('paused');
      resumed = false;
      await condition(() => resumed || stopRequested !== undefined);
      pauseRequested = false;
      progress.status = 'running';
      markStatus('running');
    }
    if (stopRequested) throw new StopRequested(stopRequested);
    if (pendingScript) {
      current = pendingScript;
      pendingScript = undefined;
    }
  };
  const runAll = (jobs: { id: string; file: string; ref: ArtifactRef; env?: Record<string, string> }[]) =>
    Promise.all(jobs.map((job) => sim.runJob({ job, language: ctx!.language, timeoutMs: limits.runTimeoutMs })));

  try {
    // ---- prepare ------------------------------------------------------------------------------
    await enter('prepare');
    ctx = await light.prepareTask({ taskFile: input.taskFile, datasetRoot: input.datasetRoot, toolchain: input.toolchain });
    progress.taskId = ctx.taskId;
    progress.substitution = ctx.substitution.note;

    // ---- author -------------------------------------------------------------------------------
    await enter('author');
    current = await physvecAuthor(agents, ctx, limits.authorStructureRetries);
    authorScriptRef = current.scriptRef;
    await boundary('author');

    // ---- programming verifier -----------------------------------------------------------------
    let executable = false;
    for (let it = 1; it <= limits.programmingIterations; it++) {
      await enter('programming', it);
      const { report, fullRun } = await programmingPass(agents, ctx, current, 'programming', it, runAll);
      programmingReports.push(report);
      progress.unit = report.judge_result.map((u) => ({ function: u.function, judge: u.judge }));
      progress.integration = report.run_functions.map((r) => ({ runFunction: r.run_function, correctRatio: r.correct_ratio, failedLevel: r.failed_level }));
      progress.programmingHistory.push({ iteration: it, unitAccuracy: report.unitAccuracy, integrationAccuracy: report.integrationAccuracy, executable: report.executable });
      markStage('programming', it, report.executable ? 'executable' : 'repairing');
      if (report.executable && report.unitAccuracy === 1 && report.integrationAccuracy === 1) {
        executable = true;
        finalRun = fullRun;
        break;
      }
      if (it === limits.programmingIterations) {
        executable = report.executable;
        finalRun = fullRun;
        break;
      }
      const fix = await agents.ask('repairer', 'programming', it, P.programmingRepairPrompt(current.scriptRef, report), { outputSchema: 'repair' });
      const outcome = await light.applyRepair({ summary: current, answer: answerOf(fix) });
      repairs.push({ stage: 'programming', iteration: it, outcome, suggestions: (fix.parsed as { suggestions?: string[] } | undefined)?.suggestions ?? [] });
      current = outcome.summary;
    }
    await boundary('programming');
    if (!executable) {
      status = 'failed';
      message = `the script did not run after ${limits.programmingIterations} programming iterations`;
      throw new StopRequested(message);
    }

    // ---- scientific verifier ------------------------------------------------------------------
    let scientificPassed = false;
    for (let it = 1; it <= limits.scientificIterations; it++) {
      await enter('scientific', it);
      const pass = await scientificPass(agents, ctx, current, 'scientific', it, limits.rubricRepeats, runAll);
      const { rubric, assertions } = pass;
      scientificRounds.push({ iteration: it, rubric, assertions });
      progress.rubric = { gradeMean: rubric.gradeMean, failed: rubric.failed.length, available: rubric.available };
      progress.assertions = assertions.map((a) => ({ case: a.case, judge: a.judge }));
      if (scientificVerdict(pass).passed) {
        scientificPassed = true;
        scientificPassedAt = it;
        break;
      }
      if (it === limits.scientificIterations) break;
      // The repairer sees each failing variant and the ranked suspects, and is held to them (the diff is checked).
      const suspects = rankSuspects(pass.localisation).map((s) => s.function);
      const fix = await agents.ask('repairer', 'scientific', it, P.scientificRepairPrompt(current.scriptRef, rubric, assertions, pass.localisation), { outputSchema: 'repair' });
      const outcome = await light.applyRepair({ summary: current, answer: answerOf(fix), ...(suspects.length ? { suspects } : {}) });
      repairs.push({ stage: 'scientific', iteration: it, outcome, suggestions: (fix.parsed as { suggestions?: string[] } | undefined)?.suggestions ?? [] });
      current = outcome.summary;
    }
    await boundary('scientific');

    // ---- convergence --------------------------------------------------------------------------
    if (scientificPassed) {
      for (const [i, c] of ctx.convergenceCases.entries()) {
        await enter('convergence', i + 1);
        const written = await agents.ask('convergence-writer', 'convergence', i + 1, P.convergencePrompt(current.scriptRef, c), { outputSchema: 'convergence-variant' });
        const plan = await light.buildConvergenceJob({ summary: current, answer: answerOf(written), caseId: c.id });
        const outcome: ConvergenceOutcome = { case: c.id, parameter: c.parameter, criteria: c.criteria, sequence: [], converged: false, convergedAt: null, reason: plan.problem ?? 'limit reached before the value stopped moving', ...(plan.monitor ? { monitor: plan.monitor } : {}) };
        progress.convergence.push({ case: c.id, values: [], converged: false });
        if (plan.job) {
          for (let step = 0; step < Math.min(plan.values.length, limits.convergenceMaxSteps); step++) {
            const value = plan.values[step]!;
            const [run] = await runAll([{ ...plan.job, id: `${c.id}:${value}`, env: { PHYSVEC_PARAM: String(value) } }]);
            const judged = await light.convergenceStep({ criteria: c.criteria, previous: outcome.sequence[outcome.sequence.length - 1]?.value, run: run! });
            outcome.sequence.push({ param: value, value: judged.value, delta: judged.delta, exitCode: run!.exitCode });
            progress.convergence[progress.convergence.length - 1]!.values.push(judged.value);
            if (judged.converged) {
              outcome.converged = true;
              outcome.convergedAt = value;
              outcome.reason = judged.reason;
              break;
            }
            if (run!.exitCode !== 0) {
              outcome.reason = `the variant failed at ${value}:\n${lastLines(run!.stderrTail, 12)}`;
              break;
            }
          }
        }
        progress.convergence[progress.convergence.length - 1]!.converged = outcome.converged;
        convergence.push(outcome);
      }
      await boundary('convergence');
    }

    // ---- final run ----------------------------------------------------------------------------
    await enter('final');
    const [run] = await runAll([await light.fullScriptJob({ summary: current })]);
    finalRun = run;
    // A converged escalation only says the value stops moving at large knobs; the script's own setting must give it too.
    for (const c of convergence) {
      if (!c.converged || !c.monitor) continue;
      c.ownSetting = await light.checkOwnSetting({ monitor: c.monitor, criteria: c.criteria, converged: c.sequence[c.sequence.length - 1]?.value, run: run! });
    }
    const converged = convergence.every((c) => c.converged && c.ownSetting?.pass !== false);
    status = scientificPassed && converged && finalRun!.exitCode === 0 ? 'passed' : 'failed';
    if (status === 'failed') message = !scientificPassed ? 'the scientific verifier did not pass within its iteration limit' : !converged ? (convergence.some((c) => c.ownSetting?.pass === false) ? "the script's own setting is not converged" : 'a convergence case did not converge') : 'the final run failed';
  } catch (err) {
    if (err instanceof BudgetStop) {
      status = 'budget_exhausted';
      message = `${err.message}; every artifact so far is kept`;
    } else if (err instanceof StopRequested) {
      if (status === 'running') status = 'stopped';
      message ??= err.message;
    } else {
      const ending = unexpectedEnding(err, progress.stage);
      status = ending.verdict;
      message = ending.message;
      unexpected = { err };
    }
  }

  // ---- report (always, whatever the outcome) --------------------------------------------------
  const stageReached = progress.stage;
  const lastTiming = progress.timings[progress.timings.length - 1];
  if (lastTiming && lastTiming.endedAt === undefined) lastTiming.endedAt = now();
  progress.status = status;
  progress.message = message;
  syncTokens();
  markStage('report', progress.iteration, status);
  // Written whatever ended the run (also after a cancellation), and a report that cannot be written
  // does not hide the verdict: it is said in the message.
  let report: ReproductionResult['report'];
  try {
    report = await CancellationScope.nonCancellable(() => light.writeReport({
      workflowId: workflowInfo().workflowId,
      status, message, stageReached,
      taskFile: input.taskFile,
      context: ctx,
      models: { defaultModel: input.models.defaultModel, roles: input.models.roles ?? {} },
      authorScriptRef,
      finalScriptRef: current?.scriptRef,
      programmingReports, scientificRounds, convergence, repairs,
      finalRun,
      progress,
    }));
  } catch (err) {
    message = `${message ?? status}; the report could not be written: ${describeFailure(err)}`;
  }
  markStatus(status);
  upsertMemo({ verdict: status, reportPath: report?.htmlPath ?? null });
  // Pure computation over what the run did (no commands: committed histories must still replay).
  const lastProgramming = programmingReports[programmingReports.length - 1];
  const firstRunning = programmingReports.find((r) => r.executable);
  const runMetrics: RunMetrics = {
    framework: 'physvec',
    status,
    executable: lastProgramming?.executable ?? false,
    executableAtIteration: firstRunning ? firstRunning.iteration : null,
    iterations: programmingReports.length,
    ...programmingAccuracy(lastProgramming),
    ...spendOf(agents.ledger.total),
    scientificCompleted: status === 'passed',
    scientificIteration: status === 'passed' ? scientificPassedAt : null,
    ...scientificCounts(scientificRounds[scientificRounds.length - 1]),
    wallMs: Math.max(0, now() - startedAt),
    scripted: agents.scripted,
    reportPath: report?.htmlPath ?? null,
    ...(message ? { message } : {}),
  };
  if (unexpected) throw endingFailure(unexpected.err, `${message}${report ? ` (report: ${report.htmlPath})` : ''}`, { verdict: status, stageReached, report, runMetrics });
  return {
    workflowId: workflowInfo().workflowId,
    taskId: progress.taskId,
    status,
    stageReached,
    scripted: agents.scripted,
    finalScriptRef: current?.scriptRef,
    figureRef: finalRun?.files.find((f) => f.path === 'figure.png')?.ref,
    report,
    tokens: agents.ledger.total,
    runMetrics,
    message,
  };
}
