// Scientific-stage harnesses written by an LLM, against a loopback model that answers by rules (not a
// cassette): the script is correct, and the smoke task carries a convergence case. In each fault run
// one writer's first answer fails in its own code — the assertion writer's main for the limiting case
// raises a NameError after the script's functions returned correctly; the convergence writer's main
// raises a NameError of its own; or the convergence writer proposes a schedule with no value. Shown its
// error, the writer rewrites it. Each run must pass like the clean run, with no script repair asked
// (least of all one with no functions), no iteration spent on the fault and the fault's only cost the
// one rewrite (its input-token overhead over the clean run printed per scenario).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chatReply } from '../helpers/fake-openai-server.js';
import type { ReceivedRequest } from '../helpers/fake-llm-http.js';
import { GOOD_SCRIPT, PLAN, SUMMARY, TASK, byRole, promptTokens, runScenarios, tokenOverhead, type RuleRun } from './rule-model-runs.js';

const ENTRIES: { function: string; main: string }[] = byRole('unit-test-writer').entries;
const GOOD_VARIANTS: { variants: { case: string; main: string }[] } = byRole('assertion-writer');
// The script's functions return the right energy; the main then misspells its own variable.
const BAD_VARIANTS = { variants: [{ case: 'limiting:0', main: 'def main():\n    e = run_energy_vs_coupling([2.0])\n    print("PHYSVEC_RESULT %.12f" % energy[0])\n' }] };

// The smoke task with a convergence case: E0(J = 2) as more couplings are sampled (it must not move).
const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-variant-rewrite-'));
const CONVERGENCE_TASK = path.join(dir, 'task_smoke_dimer_convergence.json');
writeFileSync(CONVERGENCE_TASK, JSON.stringify({
  ...JSON.parse(readFileSync(TASK, 'utf8')),
  id: 'task_smoke_dimer_convergence',
  ConvergenceCases: [{ content: 'The ground-state energy of the dimer at J = 2.', parameter: 'The number of couplings sampled between J = 0.5 and J = 2.', criteria: 'The energy is stable within the absolute error tolerance of 1e-9.' }],
}));
const knobMain = (printed: string) => `def main():\n    import os\n    n = int(float(os.environ["PHYSVEC_PARAM"]))\n    e = run_energy_vs_coupling(list(np.linspace(0.5, 2.0, n)))\n    print("PHYSVEC_RESULT %.12f" % ${printed})\n`;
const GOOD_CONVERGENCE = { main: knobMain('e[-1]'), schedule: { start: 2, step: 2, max: 8 } };

const FAULTS = {
  variant: { error: /NameError: name 'energy' is not defined/ },
  'conv-name': { error: /NameError: name 'energies' is not defined/ },
  'conv-schedule': { error: /the schedule has no knob value/ },
} as const;
type Scenario = 'clean' | keyof typeof FAULTS;
const SCENARIOS: Scenario[] = ['clean', 'variant', 'conv-name', 'conv-schedule'];

function promptOf(req: ReceivedRequest): string {
  return JSON.stringify(req.body.messages);
}

function rules(scenario: Scenario) {
  const log = { rewrites: 0, repairs: 0, emptyRepairs: 0 };
  const rewrite = (text: string) => {
    log.rewrites++;
    assert.ok(scenario !== 'clean');
    assert.match(text, FAULTS[scenario].error, 'the writer is shown its own error');
  };
  const reply = (req: ReceivedRequest) => {
    const usage = { prompt: promptTokens(req), completion: 120 };
    const schema = req.body.response_format?.json_schema?.name as string;
    const answer = (json: unknown) => chatReply({ content: JSON.stringify(json), usage });
    const text = promptOf(req);
    switch (schema) {
      case 'author-plan':
        return answer(PLAN);
      case 'query-summary':
        return answer(SUMMARY);
      case 'script':
        return answer({ script: GOOD_SCRIPT, notes: 'numpy only' });
      case 'unit-entries':
        return answer({ entries: ENTRIES });
      case 'variant-mains': {
        if (/failed in their own code/.test(text)) {
          rewrite(text);
          assert.match(text, /its error, at line 3 of your main \(exit 1\)/, 'the error is placed in the writer\'s own main, at its line');
          return answer(GOOD_VARIANTS);
        }
        return answer(scenario === 'variant' ? BAD_VARIANTS : GOOD_VARIANTS);
      }
      case 'convergence-variant': {
        if (/failed in its own code/.test(text)) {
          rewrite(text);
          return answer(GOOD_CONVERGENCE);
        }
        if (scenario === 'conv-name') return answer({ ...GOOD_CONVERGENCE, main: knobMain('energies[-1]') });
        if (scenario === 'conv-schedule') return answer({ ...GOOD_CONVERGENCE, schedule: { start: 8, step: 2, max: 2 } });
        return answer(GOOD_CONVERGENCE);
      }
      case 'repair': {
        // A model asked to fix a correct script finds nothing to change.
        log.repairs++;
        log.emptyRepairs++;
        return answer({ suggestions: ['the script looks correct'], functions: [] });
      }
      default:
        return chatReply({ content: `{"error": "no rule for ${schema}"}`, usage });
    }
  };
  return { reply, log };
}

type Run = RuleRun<ReturnType<typeof rules>['log']>;

function row(name: string, r: Run, clean: Run): string {
  const overhead = name === 'clean' ? '-' : `${(100 * tokenOverhead(clean, r)).toFixed(1)} %`;
  const stage = name === 'variant' ? 'scientific ' : name === 'clean' ? '-          ' : 'convergence';
  return `${name.padEnd(13)} | ${stage} | ${r.result.status} | ${r.report.scientific.length} scientific rounds (${r.report.scientific.length - clean.report.scientific.length} wasted) | ${r.log.repairs} repairs (${r.log.emptyRepairs} empty) | ${r.log.rewrites} rewrites | ${r.requests} calls | ${r.result.tokens.inputTokens} input tokens | overhead ${overhead}`;
}

test('a variant or convergence main (or schedule) that fails in its own code is rewritten by its writer, not blamed on the script', { timeout: 1_800_000 }, async () => {
  const runs = await runScenarios(rules, SCENARIOS, { task: CONVERGENCE_TASK });
  const { clean } = runs;
  console.log(`scientific-stage harness faults\n${SCENARIOS.map((s) => `  ${row(s, runs[s], clean)}`).join('\n')}`);
  for (const s of SCENARIOS) assert.equal(runs[s].result.status, 'passed', `${s}: ${runs[s].result.status}: ${runs[s].result.message}`);
  assert.equal(clean.log.repairs, 0);
  assert.equal(clean.log.rewrites, 0);
  assert.equal(clean.report.convergence[0].converged, true, 'the clean run\'s convergence case converges');
  for (const s of SCENARIOS.filter((x) => x !== 'clean')) {
    const fault = runs[s];
    assert.equal(fault.log.repairs, 0, `${s}: no script repair for a writer's fault`);
    assert.equal(fault.report.repairs.length, 0, s);
    assert.equal(fault.report.scientific.length, clean.report.scientific.length, `${s}: no scientific iteration spent on the fault`);
    assert.equal(fault.log.rewrites, 1, `${s}: the writer was shown its error once and its rewrite decided`);
    assert.equal(fault.requests, clean.requests + 1, `${s}: the fault costs exactly one model call: the rewrite`);
    const overhead = tokenOverhead(clean, fault);
    assert.ok(overhead <= 0.1, `${s}: the writer's fault costs ${(100 * overhead).toFixed(1)} % more input tokens (goal ≤ 10 %)`);
    assert.equal(fault.report.convergence[0].converged, true, `${s}: the convergence case converged (with the rewrite)`);
  }
});
