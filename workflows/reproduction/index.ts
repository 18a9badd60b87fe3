// The PhysVEC reproduction of one task (paper Sec. II): prepare → Author → Programming verifier →
// Scientific verifier → convergence → final run → evidence report. Orchestration only: every LLM
// call and every script run is an activity; scripts, harnesses and reports travel as artifact refs.
import { workflowInfo } from '@temporalio/workflow';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { RunMetrics } from '../../schemas/campaign.js';
import type { ReproductionInput } from '../../schemas/pipeline.js';
import type { Verdict } from '../../schemas/verdict.js';
import { FIGURE_FILE } from '../../schemas/script-markers.js';
import { prepareTaskStep } from '../shared/prepare.js';
import type { WrittenReport } from '../shared/evidence.js';
import { closeRun, RunEndedFailed, runStages, type Ending } from '../shared/run-frame.js';
import { runJobs } from '../shared/run-jobs.js';
import { LARGE_RUN_MAX_MS } from '../../temporal-config/timeouts.js';
import type { StageEnv } from '../shared/run-record.js';
import { physvecAuthor } from '../agents/author.js';
import { programmingVerifier } from '../verifiers/programming.js';
import { scientificVerifier } from '../verifiers/scientific.js';
import { convergenceTests } from '../verifiers/convergence.js';
import { finalRun } from './final-run.js';
import { reproductionMetrics } from './result.js';
import { startReproduction, type Reproduction } from './run.js';
import type { ReproductionProgress } from './progress.js';

export interface ReproductionResult {
  workflowId: string;
  taskId: string;
  status: Verdict;
  stageReached: string;
  scripted: boolean;
  finalScriptRef?: ArtifactRef;
  figureRef?: ArtifactRef;
  report?: WrittenReport;
  tokens: ReproductionProgress['tokens'];
  /** The run's benchmark metrics (framework `physvec`), as a campaign records them. */
  runMetrics: RunMetrics;
  message?: string;
}

export async function reproduction(rawInput: ReproductionInput): Promise<ReproductionResult> {
  const r = startReproduction(rawInput);
  return report(r, await runStages(r, () => stages(r)));
}

/** The stages, each verifier's verdict ending the run or letting the next one start. */
async function stages(r: Reproduction): Promise<Ending> {
  const env = await prepareAndAuthor(r);
  const programming = await programmingVerifier(env, r.progress);
  r.record.finalRun = programming.fullRun;
  await r.human.boundary('programming', r.record);
  if (!programming.executable) throw new RunEndedFailed(`the script did not run after ${r.limits.programmingIterations} programming iterations`);
  const scientificPassed = await scientificVerifier(env, r.progress);
  await r.human.boundary('scientific', r.record);
  if (scientificPassed) {
    await convergenceTests(env, r.progress);
    await r.human.boundary('convergence', r.record);
  }
  return finalRun(env, scientificPassed);
}

/** prepare → Author; what every later stage works with. */
async function prepareAndAuthor(r: Reproduction): Promise<StageEnv> {
  const { input, limits, agents, record } = r;
  r.enter('prepare');
  const full = input.size === 'full';
  const ctx = await prepareTaskStep({ taskFile: input.taskFile, datasetRoot: input.datasetRoot, toolchain: input.toolchain, ...(full ? { size: input.size } : {}) }, agents);
  record.ctx = ctx;
  r.progress.taskId = ctx.taskId;
  r.progress.substitution = ctx.substitution.note;
  r.enter('author');
  const script = await physvecAuthor(agents, ctx, limits.authorStructureRetries);
  const authored = Object.assign(record, { ctx, script, authorScriptRef: script.scriptRef });
  await r.human.boundary('author', authored);
  // Full size: simulations on the large queue, each run bounded by the queue's maximum rather than the scaled suite's timeout.
  const runAll = full ? runJobs(ctx.language, LARGE_RUN_MAX_MS, 'large') : runJobs(ctx.language, limits.runTimeoutMs);
  return { agents, ctx, limits, runAll, enter: r.enter, record: authored };
}

/** The evidence report (always, whatever the outcome), then the result — or the failure that carries it. */
function report(r: Reproduction, ending: Ending): Promise<ReproductionResult> {
  const { input, agents, progress, record } = r;
  return closeRun(r, ending, {
    beforeReport: () => {
      progress.message = ending.message;
      r.syncTokens();
    },
    report: (stageReached) => ({
      workflowId: workflowInfo().workflowId,
      status: ending.status, message: ending.message, stageReached,
      taskFile: input.taskFile,
      context: record.ctx,
      models: { defaultModel: input.models.defaultModel, roles: input.models.roles ?? {} },
      authorScriptRef: record.authorScriptRef,
      finalScriptRef: record.script?.scriptRef,
      programmingReports: record.programmingReports, scientificRounds: record.scientificRounds, convergence: record.convergence, repairs: record.repairs,
      finalRun: record.finalRun,
      progress,
    }),
    metrics: (message, written) => reproductionMetrics(r, record, ending.status, message, written),
    result: ({ stageReached, message, report: written, runMetrics }) => ({
      workflowId: workflowInfo().workflowId,
      taskId: progress.taskId,
      status: ending.status,
      stageReached,
      scripted: agents.scripted,
      finalScriptRef: record.script?.scriptRef,
      figureRef: record.finalRun?.files.find((f) => f.path === FIGURE_FILE)?.ref,
      report: written,
      tokens: agents.ledger.total,
      runMetrics,
      message,
    }),
  });
}
