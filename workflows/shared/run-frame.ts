// The frame of every run that asks models (the reproduction and the baselines): its set-up (agents
// and budget, start time, stage clock), the classification of whatever ended it, and its close — the
// evidence report, the run's metrics, then the result or the failure that carries them. The stages in
// between are each workflow's own. Pure orchestration: no command of its own beyond recordEnding's.
import type { Framework, RunMetrics } from '../../schemas/campaign.js';
import type { Verdict, RunStatus } from '../../schemas/verdict.js';
import { Agents, BudgetStop } from './agents.js';
import { endingFailure, unexpectedEnding } from './ending.js';
import { recordEnding, type ReportRequest, type WrittenReport } from './evidence.js';
import { spendOf, type SpendMetrics } from './run-metrics.js';
import { StageClock, type StagePosition, type StageTiming } from './stage-clock.js';

/** Ends a run as `stopped`: a person asked (the `stop` signal). */
export class StopRequested extends Error {
  override name = 'StopRequested';
}

/** Ends a run as `failed` before its last stage: a verifier gave up (the script never ran). */
export class RunEndedFailed extends Error {
  override name = 'RunEndedFailed';
}

export interface Ending {
  status: Verdict;
  message?: string;
  /** What ended the run when it was neither a verdict, the budget nor a stop (an activity out of attempts, a bug, a cancellation). */
  unexpected?: { err: unknown };
}

/** The ending a thrown error means, during `stage`. */
export function endingOf(err: unknown, stage: string): Ending {
  if (err instanceof BudgetStop) return { status: 'budget_exhausted', message: `${err.message}; every artifact so far is kept` };
  if (err instanceof StopRequested) return { status: 'stopped', message: err.message };
  if (err instanceof RunEndedFailed) return { status: 'failed', message: err.message };
  const e = unexpectedEnding(err, stage);
  return { status: e.verdict, message: e.message, unexpected: { err } };
}

export interface FrameProgress extends StagePosition {
  status: RunStatus;
}

export interface RunFrame<P extends FrameProgress> {
  agents: Agents;
  progress: P;
  clock: StageClock;
  startedAt: number;
}

/** Set-up: the agents with their models and budget, the start time, the progress and the stage clock over it. */
export function startFrame<P extends FrameProgress>(
  models: { defaultModel: string; roles?: Record<string, string> },
  budget: { maxTokens?: number; maxUsd?: number },
  makeProgress: (agents: Agents) => P,
  timingsOf?: (progress: P) => StageTiming[],
): RunFrame<P> {
  const agents = new Agents({ defaultModel: models.defaultModel, roles: models.roles ?? {} }, budget);
  const startedAt = Date.now();
  const progress = makeProgress(agents);
  return { agents, progress, clock: new StageClock(progress, timingsOf?.(progress)), startedAt };
}

/** The stages, and the ending they came to or the one a thrown error means. */
export async function runStages<P extends FrameProgress>(frame: RunFrame<P>, stages: () => Promise<Ending>): Promise<Ending> {
  try {
    return await stages();
  } catch (err) {
    return endingOf(err, frame.progress.stage);
  }
}

/** What every run's metrics share: its framework, verdict, spend, wall time, model kind, report. */
export function frameMetrics(
  frame: RunFrame<FrameProgress>,
  framework: Framework,
  status: Verdict,
  message: string | undefined,
  report: WrittenReport | undefined,
  spend: SpendMetrics = spendOf(frame.agents.ledger.total),
): Pick<RunMetrics, 'framework' | 'status' | 'wallMs' | 'scripted' | 'reportPath' | 'message' | keyof SpendMetrics> {
  return {
    framework,
    status,
    ...spend,
    wallMs: Math.max(0, Date.now() - frame.startedAt),
    scripted: frame.agents.scripted,
    reportPath: report?.htmlPath ?? null,
    ...(message ? { message } : {}),
  };
}

/**
 * The close: the stage clock stops, the progress shows the verdict, the evidence report is written
 * (whatever ended the run), the metrics computed; an unexpected ending then fails the workflow with
 * the report's path and the metrics in its details, any other returns the run's result.
 */
export async function closeRun<P extends FrameProgress, R>(
  frame: RunFrame<P>,
  ending: Ending,
  close: {
    /** Before the report: copy into the progress what it shows (message, tokens). */
    beforeReport?: () => void;
    report: (stageReached: string) => ReportRequest;
    metrics: (message: string | undefined, report: WrittenReport | undefined) => RunMetrics;
    result: (out: { stageReached: string; message: string | undefined; report: WrittenReport | undefined; runMetrics: RunMetrics }) => R;
  },
): Promise<R> {
  const { progress } = frame;
  const stageReached = progress.stage;
  frame.clock.stop();
  progress.status = ending.status;
  close.beforeReport?.();
  const { report, message } = await recordEnding(close.report(stageReached), progress.iteration);
  const runMetrics = close.metrics(message, report);
  if (ending.unexpected) throw endingFailure(ending.unexpected.err, `${message}${report ? ` (report: ${report.htmlPath})` : ''}`, { verdict: ending.status, stageReached, report, runMetrics });
  return close.result({ stageReached, message, report, runMetrics });
}
