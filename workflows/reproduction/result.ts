// A reproduction's benchmark metrics (framework `physvec`): pure computation over what the run did
// (no commands: committed histories must still replay).
import type { RunMetrics } from '../../schemas/campaign.js';
import type { Verdict } from '../../schemas/verdict.js';
import type { WrittenReport } from '../shared/evidence.js';
import { frameMetrics, type RunFrame } from '../shared/run-frame.js';
import { programmingAccuracy, scientificCounts } from '../shared/run-metrics.js';
import type { RunRecord } from '../shared/run-record.js';
import type { ReproductionProgress } from './progress.js';

export function reproductionMetrics(frame: RunFrame<ReproductionProgress>, record: RunRecord, status: Verdict, message: string | undefined, report: WrittenReport | undefined): RunMetrics {
  const reports = record.programmingReports;
  const lastProgramming = reports[reports.length - 1];
  const firstRunning = reports.find((r) => r.executable);
  return {
    ...frameMetrics(frame, 'physvec', status, message, report),
    executable: lastProgramming?.executable ?? false,
    executableAtIteration: firstRunning ? firstRunning.iteration : null,
    iterations: reports.length,
    ...programmingAccuracy(lastProgramming),
    scientificCompleted: status === 'passed',
    scientificIteration: status === 'passed' ? record.scientificPassedAt : null,
    ...scientificCounts(record.scientificRounds[record.scientificRounds.length - 1]),
  };
}
