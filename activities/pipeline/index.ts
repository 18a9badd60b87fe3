// The reproduction workflow's own activities. Light ones run on the orchestration queue; `runJob`
// runs generated scripts in the sandbox on the simulation queue.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { TaskContext, type ScriptSummary } from '../../schemas/pipeline.js';
import { pinnedValue, type RunInputs } from '../../lib/artifacts/run-inputs.js';
import { runInputsNow, runToolchains, runVerifierLibrary, type InputFiles } from '../run-inputs.js';
import type { ToolSpec } from '../../schemas/llm.js';
import { agentOutputSchemas } from '../../schemas/agent-outputs.js';
import { readAnswer, type AnswerRef } from './answers.js';
import { summarizeScript, type ScriptLanguage } from './script-summary.js';
import { prepareTask, type AvailableToolchains, type PrepareInput } from './prepare-task.js';
import { asToolchainBusyFailure } from './toolchain-busy.js';
import { buildUnitJobs, buildLevelJobs, fullScriptJob, judgeProgramming, backgroundFor } from './programming.js';
import { applyRepair } from './repair.js';
import { buildVariantJobs, checkAssertions, mergeQualitative } from './assertions.js';
import { caseCalls } from './call-evidence.js';
import { scoreRubric } from './rubric.js';
import { buildConvergenceJob, convergenceStep } from './convergence.js';
import { writeReport, type ReportInput } from './report.js';
import { checkOwnSetting } from '../validation/own-setting.js';
import { recordVerdict } from '../../lib/telemetry/metrics.js';

export interface PipelineDeps {
  store: ArtifactStore;
  /** What is installed here (for the substitution decision): the named profiles, or all. */
  toolchains?: AvailableToolchains;
  /** The retrieval tool's spec, if a knowledge base is wired. */
  retrieveSpec?: ToolSpec;
  /** The run a step belongs to, for its pinned inputs (default: the executing activity's workflow; none outside one). */
  runInputs?: () => RunInputs | undefined;
  /** Where the pinned checkout files are (default: the checkout's data/). */
  inputFiles?: InputFiles;
}

export const NO_RETRIEVAL: ToolSpec = {
  name: 'retrieve',
  description: 'Search the offline documentation of the simulation toolchains (knowledge base not built: returns nothing).',
  parameters: { type: 'object', properties: { query: { type: 'string' }, toolchain: { type: 'string' } }, required: ['query'], additionalProperties: false },
};

export function createPipelineActivities(deps: PipelineDeps) {
  const { store } = deps;
  const available = deps.toolchains ?? (async () => []);
  const runInputs = deps.runInputs ?? (() => runInputsNow(store));
  const library = (profile: string | undefined) => runVerifierLibrary(runInputs(), profile ?? '', deps.inputFiles);
  const prepare = async (input: PrepareInput): Promise<TaskContext> => {
    const ctx = await prepareTask(store, input, available, await runToolchains(runInputs(), deps.inputFiles)).catch((err: unknown) => {
      throw asToolchainBusyFailure(err);
    });
    // Every library function, exactly those each unit harness contains, for the entry-point writer's prompt.
    const bg = backgroundFor(ctx.profile, await library(ctx.profile));
    if (bg.functions.length) {
      ctx.backgroundRef = await store.put([bg.preamble, ...bg.functions.map((f) => f.source)].join('\n\n'), { name: 'verifier-library.txt' });
      ctx.backgroundNames = bg.names;
    }
    return ctx;
  };
  return {
    /**
     * The task, its rubric, source and protocol as the run first prepared them (issue 25.4): a
     * prepare retried after a deploy (another worker, a changed task file) returns that context.
     */
    async prepareTask(input: PrepareInput): Promise<TaskContext> {
      const inputs = runInputs();
      return inputs ? pinnedValue(inputs, `prepared-task:${JSON.stringify(input)}`, TaskContext, () => prepare(input)) : prepare(input);
    },
    async retrieveToolSpec(): Promise<ToolSpec> {
      return deps.retrieveSpec ?? NO_RETRIEVAL;
    },
    async acceptScript(input: { answer: AnswerRef; language: ScriptLanguage }): Promise<ScriptSummary> {
      const { script } = await readAnswer(store, input.answer, agentOutputSchemas.script, 'script');
      return summarizeScript(store, script, input.language);
    },
    async acceptScriptText(input: { script: string; language: ScriptLanguage }): Promise<ScriptSummary> {
      return summarizeScript(store, input.script, input.language);
    },
    buildUnitJobs: async (input: Parameters<typeof buildUnitJobs>[1]) => buildUnitJobs(store, input, await library(input.profile)),
    buildLevelJobs: (input: { summary: ScriptSummary; unsliced?: string[] }) => buildLevelJobs(store, input),
    fullScriptJob: (input: { summary: ScriptSummary; recordCalls?: boolean }) => fullScriptJob(store, input),
    judgeProgramming: async (input: Parameters<typeof judgeProgramming>[1]) => judgeProgramming(store, input, await library(input.profile)),
    applyRepair: (input: Parameters<typeof applyRepair>[1]) => applyRepair(store, input),
    buildVariantJobs: (input: Parameters<typeof buildVariantJobs>[1]) => buildVariantJobs(store, input),
    async checkAssertions(input: Parameters<typeof checkAssertions>[0]) {
      // With the verdicts, what each variant's functions returned (their call recordings): the suspects' evidence.
      return { ...checkAssertions(input), calls: await caseCalls(store, input.runs) };
    },
    mergeQualitative: (input: Parameters<typeof mergeQualitative>[1]) => mergeQualitative(store, input),
    scoreRubric: (input: Parameters<typeof scoreRubric>[1]) => scoreRubric(store, input),
    buildConvergenceJob: (input: Parameters<typeof buildConvergenceJob>[1]) => buildConvergenceJob(store, input),
    async convergenceStep(input: Parameters<typeof convergenceStep>[0]) {
      return convergenceStep(input);
    },
    /** The suite validation's own-setting check, on a reproduction's final run. */
    async checkOwnSetting(input: Parameters<typeof checkOwnSetting>[0]) {
      return checkOwnSetting(input);
    },
    writeReport: (input: ReportInput) => writeReport(store, input).then((written) => (recordVerdict(input.status), written)),
  };
}


export type PipelineActivities = ReturnType<typeof createPipelineActivities>;
export type { SimulationPipelineActivities } from './simulation-activities.js';
