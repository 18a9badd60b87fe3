// Test-writer self-repair against a loopback model that answers by rules, as a real model would (not
// a cassette): the Author's script has one real fault (fixed by one repair). In the "harness fault"
// run the unit-test writer's first entry point for the effector calls a background function the
// harness does not contain; shown its own error, it writes a correct one. That run must use the same
// programming iterations, reach the same unit accuracy and repair the script as often as the run
// whose test writer never made the mistake: an undetermined test is the test's fault, not the script's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatReply } from '../helpers/fake-openai-server.js';
import type { ReceivedRequest } from '../helpers/fake-llm-http.js';
import { GOOD_SCRIPT, PLAN, SUMMARY, byRole, runCleanAndFault } from './rule-model-runs.js';

const GOOD_OBSERVABLE = 'def observable_ground_energy(energies):\n    return float(energies[0])\n';
// The Author's own fault: indexing past the spectrum (a crash the unit and integration tests catch).
const FAULTY_SCRIPT = GOOD_SCRIPT.replace(GOOD_OBSERVABLE, 'def observable_ground_energy(energies):\n    return float(energies[len(energies)])\n');
const ENTRIES: { function: string; main: string }[] = byRole('unit-test-writer').entries;
const BAD_EFFECTOR_ENTRY = { function: 'effector_exact_diagonalization', main: 'def main():\n    H = effector_verifier_missing(2)\n    print(effector_exact_diagonalization(H)[0])\n' };

function promptOf(req: ReceivedRequest): string {
  return JSON.stringify(req.body.messages);
}

/** The rules a model follows: answers by the schema asked for and by what the prompt says. */
function rules(harnessFault: boolean) {
  const log = { refinePrompts: 0, repairs: 0 };
  let n = 0;
  const reply = (req: ReceivedRequest) => {
    n++;
    const usage = { prompt: 800 + Math.round(promptOf(req).length / 4), completion: 120 };
    const schema = req.body.response_format?.json_schema?.name as string;
    const answer = (json: unknown) => chatReply({ content: JSON.stringify(json), usage });
    switch (schema) {
      case 'author-plan':
        return answer(PLAN);
      case 'query-summary':
        return answer(SUMMARY);
      case 'script':
        return answer({ script: FAULTY_SCRIPT, notes: 'numpy only' });
      case 'unit-entries': {
        const text = promptOf(req);
        if (/failed inside the test harness/.test(text)) {
          log.refinePrompts++;
          assert.match(text, /NameError: name 'effector_verifier_missing' is not defined/, 'the writer is shown its own error');
          return answer({ entries: ENTRIES.filter((e) => text.includes(`--- ${e.function}`)) });
        }
        return answer({ entries: harnessFault ? ENTRIES.map((e) => (e.function === BAD_EFFECTOR_ENTRY.function ? BAD_EFFECTOR_ENTRY : e)) : ENTRIES });
      }
      case 'repair': {
        log.repairs++;
        const text = promptOf(req);
        assert.doesNotMatch(text, /effector_verifier_missing/, 'the script repairer never hears of the test writer\'s mistake');
        return answer({ suggestions: ['observable_ground_energy indexes past the spectrum: take the lowest eigenvalue'], functions: [{ name: 'observable_ground_energy', source: GOOD_OBSERVABLE }] });
      }
      case 'variant-mains':
        return answer(byRole('assertion-writer'));
      default:
        return chatReply({ content: `{"error": "no rule for ${schema}"}`, usage });
    }
  };
  return { reply, log, calls: () => n };
}

test('an undetermined unit test is rewritten by its writer and rerun: same iterations, accuracy and repairs as a run without the fault', { timeout: 1_200_000 }, async () => {
  const { clean, fault } = await runCleanAndFault(rules);
  for (const [name, r] of Object.entries({ clean, fault })) assert.equal(r.result.status, 'passed', `${name}: ${r.result.status}: ${r.result.message}`);

  const line = (name: string, r: typeof clean) =>
    `${name}: ${r.result.runMetrics.iterations} programming iterations, unit accuracy ${r.result.runMetrics.unitAccuracy}, ${r.report.repairs.length} script repairs, ${r.requests} model calls, ${r.result.tokens.inputTokens} input + ${r.result.tokens.outputTokens} output tokens`;
  console.log(`unit-test self-repair\n  ${line('clean run        ', clean)}\n  ${line('harness-fault run', fault)}`);

  assert.equal(fault.result.runMetrics.iterations, clean.result.runMetrics.iterations, 'the harness fault consumes no programming iteration');
  assert.equal(clean.result.runMetrics.iterations, 2, 'the Author\'s real fault takes one repair');
  assert.equal(fault.result.runMetrics.unitAccuracy, clean.result.runMetrics.unitAccuracy);
  assert.equal(fault.report.repairs.length, clean.report.repairs.length, 'no script repair for a test\'s fault');
  assert.equal(fault.log.repairs, clean.log.repairs);
  // The writer was shown its error once per iteration (its first answers repeat the mistake), and the rewritten test decided.
  assert.equal(fault.log.refinePrompts, fault.result.runMetrics.iterations);
  assert.equal(clean.log.refinePrompts, 0);
  for (const p of fault.report.programming) {
    const effector = p.judge_result.find((j: { function: string }) => j.function === 'effector_exact_diagonalization');
    assert.equal(effector.judge, 'correct', `iteration ${p.iteration}: the rewritten test ran`);
    assert.equal(effector.refines, 1);
  }
  // The Author's real fault is blamed on its element function in the first iteration.
  const first = clean.report.programming[0].judge_result.find((j: { function: string }) => j.function === 'observable_ground_energy');
  assert.equal(first.judge, 'wrong');
  assert.equal(first.blame, 'observable_ground_energy');
  assert.match(first.errors, /IndexError/);
});
