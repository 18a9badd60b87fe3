// referenceValidation: one script of the task suite (a reference solution or a mutant) through the
// verifiers' machinery, with the suite's own variant mains in place of the LLM-written ones.
//   programming: the full script runs in the sandbox; a crash is flagged here and the innermost
//                element function of its traceback is named;
//   scientific:  assertion variants (main replaced, element functions verbatim) run in parallel and
//                are compared with the truths by code; then convergence escalation and the own-setting
//                check, as the reproduction does them; a failure is localised differentially against
//                the reference solution.
// Orchestration only: every file read and script run is an activity.
import type { AssertionVerdict, RunDigest } from '../../schemas/pipeline.js';
import type { ValidationInput, ValidationSummary } from '../../schemas/validation.js';
import { markStage } from '../shared/stage.js';
import { light } from './activities.js';
import { escalate, runAssertions, runner } from './checks.js';
import { localise, type FailingCase } from './localise.js';

const DEFAULT_RUN_TIMEOUT_MS = 300_000;

export async function referenceValidation(input: ValidationInput): Promise<ValidationSummary> {
  const started = Date.now();
  markStage('prepare');
  const m = await light.loadValidationMaterial(input);
  const run = runner(m.script.language, input.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS);
  const script = input.edits ? `${input.scriptPath} with ${input.edits.length} mutant edit(s)` : input.scriptPath;
  const base = { task: m.taskId, script, structureProblems: m.script.problems, total: m.cases.length };

  // ---- programming: the script as a whole must run ------------------------------------------
  markStage('programming', 1);
  const fullRun: RunDigest = await run(await light.fullScriptJob({ summary: m.script }));
  const finish = (s: Omit<ValidationSummary, 'task' | 'script' | 'structureProblems' | 'total' | 'wallMs' | 'fullRunMs'>): ValidationSummary => {
    // `Verdict` is passed or failed; where a failing script was caught goes in `Stage`.
    markStage(s.stage === 'passed' ? 'done' : s.stage, 0, s.stage === 'passed' ? 'passed' : 'failed');
    return { ...base, ...s, fullRunMs: fullRun.durationMs, wallMs: Date.now() - started };
  };
  if (fullRun.exitCode !== 0 || fullRun.timedOut) {
    const crash = await light.locateCrash({ summary: m.script, run: fullRun });
    return finish({
      executable: false,
      programmingFault: crash.function,
      programmingError: crash.error.slice(-600),
      faultyFunction: crash.function,
      assertions: [],
      passed: 0,
      convergence: [],
      stage: 'programming',
    });
  }

  // ---- scientific: physical assertions -------------------------------------------------------
  markStage('scientific', 1);
  const verdicts: AssertionVerdict[] = await runAssertions(run, m.script, m);
  const assertions = verdicts.map((v) => ({ case: v.case, judge: v.judge, reason: v.reason.slice(0, 300) }));
  const passed = verdicts.filter((v) => v.judge === 'correct').length;
  let failing: FailingCase | undefined;
  const firstWrong = verdicts.find((v) => v.judge !== 'correct');
  if (firstWrong) failing = { kind: 'assertion', id: firstWrong.case };

  // ---- convergence (only for a script whose assertions pass, as in the reproduction) ----------
  const convergence: ValidationSummary['convergence'] = [];
  if (!failing) {
    for (const [i, c] of m.convergence.entries()) {
      markStage('convergence', i + 1);
      const e = await escalate(run, m.script, c);
      const monitor = c.variant?.schedule.monitor;
      let ownSetting: boolean | null = null;
      let reason = e.reason;
      if (e.converged && monitor) {
        const own = await light.checkOwnSetting({ monitor, criteria: c.criteria, converged: e.value, run: fullRun });
        ownSetting = own.pass;
        reason = `${reason}; ${own.reason}`;
        if (!own.pass) failing ??= { kind: 'own-setting', id: `${c.id}:own-setting`, convergence: c, converged: e.value };
      }
      if (!e.converged) failing ??= { kind: 'escalation', id: c.id, convergence: c };
      convergence.push({ case: c.id, converged: e.converged, at: e.at, ownSetting, reason: reason.slice(0, 400) });
    }
  }

  if (!failing) {
    // A script the structure check rejects would never reach these tests in a reproduction.
    return finish({ executable: true, assertions, passed, convergence, stage: m.script.problems.length ? 'programming' : 'passed' });
  }

  // ---- localisation against the reference ---------------------------------------------------
  markStage('localisation', 1);
  const located = await localise(run, m, failing);
  return finish({ executable: true, assertions, passed, convergence, ...located, stage: 'scientific' });
}
