// An evidence report built from model output that tries to become markup: the rubric grader's
// answer (scored by the real scoreRubric), a unit test's traceback, the final script and a repair
// suggestion all carry a <script> element, an <img onerror>, double quotes and apostrophes. Written
// with the real writeReport inside a mock activity context (so the run id is known, as in a worker).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { writeReport, type ReportInput } from '../../activities/pipeline/report.js';
import { scoreRubric } from '../../activities/pipeline/rubric.js';
import type { RubricLeafSummary } from '../../schemas/rubric.js';
import type { TaskContext } from '../../schemas/pipeline.js';

export const HOSTILE = `<script>alert(1)</script> "quoted" it's <img src=x onerror="alert(2)">`;
export const TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "script.py", line 12, in build_hamiltonian',
  `    raise ValueError("bad 'J' value: ${HOSTILE}")`,
  `ValueError: bad 'J' value: ${HOSTILE}`,
].join('\n');
export const SCRIPT = [
  'import numpy as np',
  `# ${HOSTILE}`,
  'def build_hamiltonian(L):',
  `    label = "it's a \\"chain\\""`,
  '    return np.zeros((L, L))',
  '',
  'def main():',
  '    print(build_hamiltonian(4))',
].join('\n') + '\n';
/** A 1×1 PNG, so the figure link points at a real image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export const WORKFLOW_ID = 'repro-task_hostile-1';
export const RUN_ID = '0195b2c4-7f3e-7a1d-9c2e-3f1a2b3c4d5e';

/** `store`: the artifact store (default: a directory in the state dir; a bucket-backed one mirrors the report there). */
export async function writeHostileReport(opts: { stateDir?: string; workflowId?: string; runId?: string; checkpointSkipped?: string; llmCalls?: NonNullable<Parameters<typeof writeReport>[2]>['llmCalls']; store?: ArtifactStore } = {}) {
  const stateDir = opts.stateDir ?? mkdtempSync(path.join(os.tmpdir(), 'physvec-hostile-report-'));
  const workflowId = opts.workflowId ?? WORKFLOW_ID;
  const runId = opts.runId ?? RUN_ID;
  process.env.PHYSVEC_STATE_DIR = stateDir;
  const store = opts.store ?? new ArtifactStore(path.join(stateDir, 'artifacts'));
  const leaves: RubricLeafSummary[] = [
    { index: 1, path: ['c1'], category: 'Code correctness', issue: 'Builds the Hamiltonian of the "chain"', weight: 0.5, effectiveWeight: 0.5 },
    { index: 2, path: ['c1'], category: 'Code correctness', issue: "Uses the paper's boundary conditions", weight: 0.3, effectiveWeight: 0.3 },
    { index: 3, path: ['c2'], category: 'Results', issue: 'Prints the energy', weight: 0.2, effectiveWeight: 0.2 },
  ];
  const leavesRef = await store.putJson(leaves, 'rubric-leaves.json');
  // The grader's two repeats, as the LLM answered them (leaf 1 met in both, 2 failed in both, 3 split).
  const answers = [
    { parsed: { judges: [{ index: 1, judge: 1, support: `met: ${HOSTILE}` }, { index: 2, judge: 0, support: "open boundaries aren't set" }, { index: 3, judge: 1, support: 'prints "E ="' }] } },
    { parsed: { judges: [{ index: 1, judge: 1, support: 'met again' }, { index: 2, judge: 0, support: `not met: ${HOSTILE}` }, { index: 3, judge: 0, support: 'no print' }] } },
  ];
  const rubric = await scoreRubric(store, { leavesRef, answers });
  const finalScriptRef = await store.put(SCRIPT, { name: 'final.py' });
  const authorScriptRef = await store.put(SCRIPT.replace('np.zeros', 'np.ones'), { name: 'author.py' });
  const diffRef = await store.put(`--- a/script.py\n+++ b/script.py\n-    return np.ones((L, L))\n+    return np.zeros((L, L))  # ${HOSTILE}\n`, { name: 'repair.diff' });
  const programmingRef = await store.putJson({ judge_result: [{ function: 'build_hamiltonian', errors: TRACEBACK }] }, 'programming-report.json');
  const figureRef = await store.put(PNG, { name: 'figure.png', mediaType: 'image/png' });
  const csvRef = await store.put('L,E\n4,-1.5\n', { name: 'energies.csv' });
  const ctx: TaskContext = {
    taskId: 'task_hostile', topic: 'dmrg', figure: 'Fig. 1 "a"', profile: 'tenpy', language: 'python', request: `Reproduce it. ${HOSTILE}`,
    substitution: { substituted: false, adaptedLeaves: [] }, sourceKind: 'none',
    rubric: { available: true, leavesRef, leafCount: leaves.length, normCheck: true },
    limitingCases: [], scientificResults: [], convergenceCases: [], backgroundNames: [],
  };
  const t0 = Date.parse('2026-01-02T03:04:05.000Z');
  const input: ReportInput = {
    workflowId, status: 'failed', message: `the model said: ${HOSTILE}`, stageReached: 'scientific', context: ctx,
    models: { defaultModel: 'scripted:hostile', roles: {} },
    authorScriptRef, finalScriptRef,
    programmingReports: [{
      iteration: 1,
      judge_result: [
        { target_file_name: 'test_build.py', function: 'build_hamiltonian', judge: 'wrong', errors: TRACEBACK },
        { target_file_name: 'test_main.py', function: 'main', judge: 'correct', errors: '' },
      ],
      run_functions: [], untested: [], unitAccuracy: 0.5, integrationAccuracy: 1, executable: true, reportRef: programmingRef,
    }],
    scientificRounds: [{ iteration: 1, rubric, assertions: [{ case: 'limiting:0', content: 'E at J = 0', truth: 'E = 0', judge: 'wrong', method: 'numeric', observed: [HOSTILE], reason: `differs: ${HOSTILE}`, exitCode: 0 }] }],
    convergence: [],
    repairs: [{
      stage: 'programming', iteration: 1, suggestions: [`Fix it: ${HOSTILE}`],
      outcome: { summary: { scriptRef: finalScriptRef, language: 'python', elementFunctions: [], runFunctions: [], problems: [] }, diffRef, diffPreview: '', changedFunctions: ['build_hamiltonian'], problems: [] },
    }],
    finalRun: {
      id: 'final:1', exitCode: 0, timedOut: false, durationMs: 1200, stdoutTail: '', stderrTail: '', results: [], missingProtections: [],
      files: [{ path: 'figure.png', ref: figureRef }, { path: 'data/energies.csv', ref: csvRef }, { path: '../../escape.csv', ref: csvRef }],
      ...(opts.checkpointSkipped ? { checkpointSkipped: opts.checkpointSkipped } : {}),
    },
    progress: {
      scripted: true,
      tokens: { inputTokens: 100, outputTokens: 50, cachedInputTokens: 0, toolCalls: 0, costUsd: 0, llmCalls: 3 },
      ledger: { byStage: { author: { inputTokens: 100, outputTokens: 50, costUsd: 0 } }, byRole: {} },
      timings: [{ stage: 'author', startedAt: t0, endedAt: t0 + 4000 }, { stage: 'scientific', startedAt: t0 + 4000, endedAt: t0 + 9000 }],
      human: [{ at: t0 + 5000, kind: 'pause', note: HOSTILE, stage: 'scientific' }],
    },
  };
  const env = new MockActivityEnvironment({ workflowExecution: { workflowId, runId } });
  const out: Awaited<ReturnType<typeof writeReport>> = await env.run(() => writeReport(store, input, { llmCalls: opts.llmCalls }));
  return { ...out, stateDir, input, workflowId, runId };
}
