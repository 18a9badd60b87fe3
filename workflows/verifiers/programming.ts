// The Programming verifier (paper Sec. II): unit and integration tests of the script, verdicts by
// code, and a repair of everything they found — until the script runs and every test passes, or
// `programmingIterations` are spent.
import type { KeptUnitTest, ProgrammingReport, RunDigest } from '../../schemas/pipeline.js';
import type { ReproductionProgress } from '../reproduction/progress.js';
import type { StageEnv } from '../shared/run-record.js';
import { markStage } from '../shared/stage.js';
import { repair } from '../agents/repairer.js';
import { programmingPass } from './programming-pass.js';
import { programmingRepairPrompt } from './programming-prompts.js';

export interface ProgrammingVerdict {
  /** Whether the last script judged runs (all tests passed, or the iterations ran out with it running). */
  executable: boolean;
  fullRun: RunDigest;
}

export async function programmingVerifier(env: StageEnv, progress: ReproductionProgress): Promise<ProgrammingVerdict> {
  const { agents, ctx, limits, runAll, record } = env;
  // Tests the writer had to rewrite, kept while their functions are unchanged (not written again).
  let kept: KeptUnitTest[] = [];
  for (let it = 1; ; it++) {
    env.enter('programming', it);
    const { report, fullRun } = await programmingPass(agents, ctx, record.script, 'programming', it, runAll, { kept });
    kept = report.keep ?? [];
    record.programmingReports.push(report);
    showReport(progress, report);
    // Where in the iteration it is goes in `Stage` (a stage is not a verdict): its script runs, or it is being repaired.
    markStage(`programming: ${report.executable ? 'executable' : 'repairing'}`, it);
    if (report.executable && report.unitAccuracy === 1 && report.integrationAccuracy === 1) return { executable: true, fullRun };
    if (it === limits.programmingIterations) return { executable: report.executable, fullRun };
    const step = await repair(agents, { role: 'repairer', stage: 'programming', iteration: it, script: record.script, prompt: programmingRepairPrompt(record.script.scriptRef, report) });
    if ('applied' in step) {
      record.repairs.push(step.applied);
      record.script = step.applied.outcome.summary;
    }
  }
}

function showReport(progress: ReproductionProgress, report: ProgrammingReport): void {
  progress.unit = report.judge_result.map((u) => ({ function: u.function, judge: u.judge }));
  progress.integration = report.run_functions.map((r) => ({ runFunction: r.run_function, correctRatio: r.correct_ratio, failedLevel: r.failed_level }));
  // Query state only (no command changes): the status and the live view say why the full run failed.
  const fullRunFailure = report.executable ? undefined : report.fullRunError?.split('\n').find((l) => l.trim());
  progress.programmingHistory.push({ iteration: report.iteration, unitAccuracy: report.unitAccuracy, integrationAccuracy: report.integrationAccuracy, executable: report.executable, ...(fullRunFailure ? { fullRunFailure } : {}) });
}
