// Stubbed activities for workflow tests: every activity the reproduction calls, answering from a
// small scenario (which programming iteration runs, whether the science passes, whether convergence
// ever settles, what each LLM call costs) and counting the calls. No sandbox, no model, no files:
// what is tested is the workflow's orchestration — its stages, limits, signals and verdicts.
import type { LlmRequest, LlmResult } from '../../schemas/llm.js';
import type { AssertionVerdict, ProgrammingReport, RepairOutcome, RunDigest, ScriptJob, ScriptSummary, TaskContext } from '../../schemas/pipeline.js';
import type { JobPurpose } from '../../schemas/job-purpose.js';
import { jobId } from '../../schemas/job-purpose.js';
import { resultLines } from '../../schemas/script-markers.js';

export interface Scenario {
  /** Whether the programming verifier's report at this iteration says the script runs with every test passing. */
  runsAt: (iteration: number) => boolean;
  /** Whether the physical assertions pass at this scientific iteration. */
  sciencePassesAt?: (iteration: number) => boolean;
  /** Whether the convergence step converges (never, by default). */
  converges?: boolean;
  /** Tokens each LLM call costs (input + output). */
  tokensPerCall?: number;
  /** Awaited by judgeProgramming before it answers (lets a test act while a stage is under way). */
  judgeGate?: () => Promise<void>;
}

export interface Calls {
  llm: { role: string; stage: string; iteration: number }[];
  activities: string[];
  repairs: number;
  jobs: ScriptJob[];
}

const ref = (c: string) => ({ sha256: c.repeat(64), bytes: 1 });

const context: TaskContext = {
  taskId: 'task_stub', topic: 'dmrg', figure: 'Fig. 1', profile: 'tenpy', language: 'python', request: 'reproduce Fig. 1',
  substitution: { substituted: false, adaptedLeaves: [] },
  sourceKind: 'none',
  rubric: { available: false, leafCount: 0, reason: 'no rubric in this stub' },
  limitingCases: [{ id: 'limiting:0', content: 'the energy at U=0', truth: '-1.0' }],
  scientificResults: [],
  convergenceCases: [{ id: 'convergence:0', content: 'the ground-state energy', parameter: 'chi', criteria: 'relative change below 1e-3' }],
  backgroundNames: [],
};

const summary: ScriptSummary = {
  scriptRef: ref('a'), language: 'python',
  elementFunctions: [{ name: 'hamiltonian_chain', category: 'hamiltonian' }], runFunctions: [], problems: [],
};

/** A schema-valid answer per output schema (the workflow parses answers with the same schemas). */
const ANSWERS: Record<string, unknown> = {
  'author-plan': { plan: 'a plan', queries: ['how to build a chain'] },
  'query-summary': { summary: [{ query: 'how to build a chain', answer: 'with a lattice' }] },
  script: { script: 'def main():\n    pass\n', notes: 'stub' },
  'unit-entries': { entries: [] },
  repair: { suggestions: ['fix the Hamiltonian sign'], functions: [] },
  'variant-mains': { variants: [{ case: 'limiting:0', main: 'def main():\n    pass\n' }] },
  'convergence-variant': { main: 'def main():\n    pass\n', schedule: { start: 1, factor: 2, max: 64 } },
};

function job(purpose: JobPurpose, file: string): ScriptJob {
  return { id: jobId(purpose), purpose, file, ref: ref('b') };
}

export function stubActivities(s: Scenario) {
  const calls: Calls = { llm: [], activities: [], repairs: 0, jobs: [] };
  const seen = (name: string) => calls.activities.push(name);
  const tokens = s.tokensPerCall ?? 100;
  const scientificIteration = { n: 0 };
  const light = {
    async prepareTask() { seen('prepareTask'); return context; },
    async retrieveToolSpec() { seen('retrieveToolSpec'); return { name: 'retrieve', description: 'search the docs', parameters: { type: 'object' } }; },
    async acceptScript() { seen('acceptScript'); return summary; },
    async acceptScriptText() { seen('acceptScriptText'); return summary; },
    async buildUnitJobs() { seen('buildUnitJobs'); return []; },
    async buildLevelJobs() { seen('buildLevelJobs'); return []; },
    async fullScriptJob() { seen('fullScriptJob'); return job({ kind: 'full' }, 'main.py'); },
    async judgeProgramming(input: { iteration: number }): Promise<ProgrammingReport> {
      seen('judgeProgramming');
      await s.judgeGate?.();
      const ok = s.runsAt(input.iteration);
      return { iteration: input.iteration, judge_result: [], run_functions: [], untested: [], unitAccuracy: 1, integrationAccuracy: 1, executable: ok, ...(ok ? {} : { fullRunError: 'NameError: x' }), reportRef: ref('c') };
    },
    async applyRepair(input: { summary: ScriptSummary }): Promise<RepairOutcome> {
      seen('applyRepair');
      calls.repairs++;
      return { summary: input.summary, diffRef: ref('d'), diffPreview: '', changedFunctions: ['hamiltonian_chain'], problems: [] };
    },
    async buildVariantJobs() {
      seen('buildVariantJobs');
      return { jobs: [job({ kind: 'assertion', case: 'limiting:0' }, 'variant_limiting_0.py')], problems: [], reach: [] };
    },
    async checkAssertions(): Promise<{ verdicts: AssertionVerdict[]; qualitative: never[] }> {
      seen('checkAssertions');
      const passes = s.sciencePassesAt?.(++scientificIteration.n) ?? true;
      return { verdicts: [{ case: 'limiting:0', content: 'the energy at U=0', truth: '-1.0', judge: passes ? 'correct' : 'wrong', method: 'numeric', reason: passes ? 'matches' : 'off by 2', exitCode: 0 }], qualitative: [] };
    },
    async buildConvergenceJob() {
      seen('buildConvergenceJob');
      return { job: job({ kind: 'convergence', case: 'convergence:0' }, 'convergence_0.py'), values: [1, 2, 4, 8, 16, 32, 64] };
    },
    async convergenceStep(input: { run: RunDigest }) {
      seen('convergenceStep');
      const value = Number(input.run.results[0]);
      return { value, delta: 0.5, converged: s.converges ?? false, reason: s.converges ? 'settled' : 'still moving' };
    },
    async checkOwnSetting() { seen('checkOwnSetting'); return { pass: true, own: [1], reason: 'same' }; },
    async writeReport() { seen('writeReport'); return { jsonRef: ref('e'), htmlRef: ref('f'), htmlPath: '/nonexistent/report.html', jsonPath: '/nonexistent/report.json' }; },
    async callLlm(req: LlmRequest): Promise<LlmResult> {
      calls.llm.push({ role: req.key.role, stage: req.key.stage, iteration: req.key.iteration });
      const parsed = ANSWERS[req.outputSchema ?? ''];
      if (parsed === undefined) throw new Error(`stub: no answer for output schema ${req.outputSchema}`);
      return {
        text: JSON.stringify(parsed), textTruncated: false, parsed, toolCalls: [],
        usage: { inputTokens: tokens / 2, outputTokens: tokens / 2, cachedInputTokens: 0, calls: 1, retries: 0, toolCalls: 0, latencyMs: 1 },
        costUsd: 0, priced: false, model: req.model, provider: 'stub', scripted: false, exchangeRef: ref('9'), attempt: 1,
      };
    },
  };
  const sim = {
    async runJob(input: { job: ScriptJob }): Promise<RunDigest> {
      calls.jobs.push(input.job);
      const param = input.job.env?.PHYSVEC_PARAM;
      const stdout = param ? `PHYSVEC_RESULT ${1 / Number(param)}\n` : '';
      return { id: input.job.id, purpose: input.job.purpose, exitCode: 0, timedOut: false, durationMs: 1, stdoutTail: stdout, stderrTail: '', results: resultLines(stdout), files: [], missingProtections: [] };
    },
  };
  return { light, sim, calls };
}
