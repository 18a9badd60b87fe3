// How a reproduction ends: the verdict of whatever stopped it, its benchmark metrics and its result.
// Pure computation over what the run did (no commands: committed histories must still replay).
import type { RunMetrics } from '../../schemas/campaign.js';
import { BudgetStop } from '../shared/agents.js';
import { unexpectedEnding } from '../shared/ending.js';
import { programmingAccuracy, scientificCounts, spendOf } from '../shared/run-metrics.js';
import type { LlmLedger } from '../../schemas/llm.js';
import type { RunRecord } from '../shared/run-record.js';
import { StopRequested } from './human.js';
import type { ReproductionStatus } from './progress.js';

export interface Ending {
  status: ReproductionStatus;
  message?: string;
  /** What ended the run when it was neither a verdict, the budget nor a stop signal (activity out of attempts, a bug, a cancellation). */
  unexpected?: { err: unknown };
}

/** The ending a thrown error means; `status`/`message` are what the run had set before it (a verifier that gave up). */
export function endingOf(err: unknown, status: ReproductionStatus, message: string | undefined, stage: string): Ending {
  if (err instanceof BudgetStop) return { status: 'budget_exhausted', message: `${err.message}; every artifact so far is kept` };
  if (err instanceof StopRequested) return { status: status === 'running' ? 'stopped' : status, message: message ?? err.message };
  const ending = unexpectedEnding(err, stage);
  return { status: ending.verdict, message: ending.message, unexpected: { err } };
}

export function reproductionMetrics(
  record: RunRecord,
  run: { status: ReproductionStatus; message?: string; ledger: LlmLedger; scripted: boolean; wallMs: number; reportPath: string | null },
): RunMetrics {
  const reports = record.programmingReports;
  const lastProgramming = reports[reports.length - 1];
  const firstRunning = reports.find((r) => r.executable);
  return {
    framework: 'physvec',
    status: run.status,
    executable: lastProgramming?.executable ?? false,
    executableAtIteration: firstRunning ? firstRunning.iteration : null,
    iterations: reports.length,
    ...programmingAccuracy(lastProgramming),
    ...spendOf(run.ledger.total),
    scientificCompleted: run.status === 'passed',
    scientificIteration: run.status === 'passed' ? record.scientificPassedAt : null,
    ...scientificCounts(record.scientificRounds[record.scientificRounds.length - 1]),
    wallMs: run.wallMs,
    scripted: run.scripted,
    reportPath: run.reportPath,
    ...(run.message ? { message: run.message } : {}),
  };
}
