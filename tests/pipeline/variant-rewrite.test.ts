// Assertion-writer self-repair against a loopback model that answers by rules (not a cassette): the
// script is correct, but in the "variant fault" run the writer's first main for the limiting case
// raises a NameError of its own after the script's functions returned correctly. Shown its error, the
// writer rewrites that main. The run must pass in the same scientific iteration as the clean run, with
// no script repair asked (least of all one with no functions) and no iteration spent on the fault.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatReply } from '../helpers/fake-openai-server.js';
import type { ReceivedRequest } from '../helpers/fake-llm-http.js';
import { GOOD_SCRIPT, PLAN, SUMMARY, byRole, runCleanAndFault } from './rule-model-runs.js';

const ENTRIES: { function: string; main: string }[] = byRole('unit-test-writer').entries;
const GOOD_VARIANTS: { variants: { case: string; main: string }[] } = byRole('assertion-writer');
// The script's functions return the right energy; the main then misspells its own variable.
const BAD_VARIANTS = { variants: [{ case: 'limiting:0', main: 'def main():\n    e = run_energy_vs_coupling([2.0])\n    print("PHYSVEC_RESULT %.12f" % energy[0])\n' }] };

function promptOf(req: ReceivedRequest): string {
  return JSON.stringify(req.body.messages);
}

function rules(variantFault: boolean) {
  const log = { variantRewrites: 0, repairs: 0, emptyRepairs: 0 };
  const reply = (req: ReceivedRequest) => {
    const usage = { prompt: 800 + Math.round(promptOf(req).length / 4), completion: 120 };
    const schema = req.body.response_format?.json_schema?.name as string;
    const answer = (json: unknown) => chatReply({ content: JSON.stringify(json), usage });
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
        const text = promptOf(req);
        if (/failed in their own code/.test(text)) {
          log.variantRewrites++;
          assert.match(text, /NameError: name 'energy' is not defined/, 'the writer is shown its own error');
          assert.match(text, /the variant's main/, 'the error is placed in the variant\'s main');
          return answer(GOOD_VARIANTS);
        }
        return answer(variantFault ? BAD_VARIANTS : GOOD_VARIANTS);
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

test('a variant main that fails in its own code is rewritten by its writer, not blamed on the script', { timeout: 1_200_000 }, async () => {
  const { clean, fault } = await runCleanAndFault(rules);
  const line = (name: string, r: typeof clean) =>
    `${name}: status ${r.result.status}, ${r.report.scientific.length} scientific rounds, ${r.log.repairs} repairs asked (${r.log.emptyRepairs} empty), ${r.log.variantRewrites} variant rewrites, ${r.requests} model calls, ${r.result.tokens.inputTokens} input tokens`;
  console.log(`variant self-repair\n  ${line('clean run        ', clean)}\n  ${line('variant-fault run', fault)}`);

  for (const [name, r] of Object.entries({ clean, fault })) assert.equal(r.result.status, 'passed', `${name}: ${r.result.status}: ${r.result.message}`);
  assert.equal(fault.log.repairs, 0, 'no script repair for the variant writer\'s fault');
  assert.equal(clean.log.repairs, 0);
  assert.equal(fault.log.variantRewrites, 1, 'the writer was shown its error once and its rewrite decided');
  assert.equal(clean.log.variantRewrites, 0);
  assert.equal(fault.report.repairs.length, 0);
  assert.equal(fault.requests, clean.requests + 1, 'the fault costs exactly one model call: the rewrite');
});
