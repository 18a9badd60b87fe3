// What a test writer is shown when its own harness failed (issue 27.2: a harness fault adds at most
// ~10 % input tokens): the script's interface, one line a function with its body left out, and the
// traceback without the frames that locate nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tracebackForWriter } from '../../lib/harness/traceback.js';
import { variantFaultForWriter, variantFaultReason } from '../../lib/harness/variant-verdict.js';
import { parseScript } from '../../lib/script-analysis/parse-script.js';
import { scriptInterface } from '../../lib/script-analysis/script-interface.js';
import { fixture } from './fixture-scripts.js';

test('a python interface: the preamble, each signature followed by "..." (no body), main whole', () => {
  const { source } = fixture('numpy_tfim_exact.py');
  const structure = parseScript(source, 'python');
  const view = scriptInterface(structure);
  const functions = [...structure.elementFunctions, ...structure.runFunctions, ...structure.otherFunctions];
  assert.ok(functions.length >= 3, 'the fixture has functions to summarise');
  for (const f of functions) assert.ok(view.includes(`${f.signature.trimEnd()} ...\n`), `${f.name}: its signature, then "..."`);
  assert.doesNotMatch(view.replace(structure.main!.source.trimEnd(), ''), /\breturn\b/, 'no body is shown but main\'s');
  assert.ok(view.includes(structure.main!.source.trimEnd()), 'main is shown whole');
  assert.ok(view.length < source.length / 2, `the interface (${view.length} chars) is well under the script (${source.length})`);
});

test('a julia interface: one line a function', () => {
  const { source } = fixture('itensors_hubbard_density.jl');
  const structure = parseScript(source, 'julia');
  const view = scriptInterface(structure);
  assert.ok(structure.elementFunctions.length >= 3, 'the fixture has element functions');
  for (const f of structure.elementFunctions) assert.ok(view.includes(`${f.signature.trimEnd()} … end\n`), `${f.name}: its signature, then "… end"`);
  assert.doesNotMatch(view, /MPO\(|dmrg\(/, 'no body is shown');
});

test("a writer's traceback: base names, no warm-runtime frame, no module frame that only calls main", () => {
  const raw = [
    'Traceback (most recent call last):',
    '  File "/srv/physvec/runners/sandbox/zygote.py", line 212, in run_child',
    '  File "/tmp/physvec-run-x/work/variant_limiting_0.py", line 55, in <module>',
    '    main()',
    '  File "/tmp/physvec-run-x/work/variant_limiting_0.py", line 51, in main',
    '    print("PHYSVEC_RESULT %.12f" % energy[0])',
    '                                   ^^^^^^',
    "NameError: name 'energy' is not defined",
  ].join('\n');
  assert.equal(tracebackForWriter(raw), [
    'Traceback (most recent call last):',
    '  File "variant_limiting_0.py", line 51, in main',
    '    print("PHYSVEC_RESULT %.12f" % energy[0])',
    '                                   ^^^^^^',
    "NameError: name 'energy' is not defined",
  ].join('\n'));
  // A module-level frame that does more than call main is kept: it locates the fault.
  const atModule = '  File "/w/h.py", line 3, in <module>\n    x = run_energy([1.0])[2]\nIndexError: list index out of range';
  assert.equal(tracebackForWriter(atModule), '  File "h.py", line 3, in <module>\n    x = run_energy([1.0])[2]\nIndexError: list index out of range');
});

test("a variant's fault as its writer reads it: the line of its own main, the exit, the trimmed traceback", () => {
  const tail = '  File "/w/variant_limiting_0.py", line 55, in <module>\n    main()\n  File "/w/variant_limiting_0.py", line 51, in main\n    x = energy[0]\nNameError: name \'energy\' is not defined';
  const reason = variantFaultReason("the variant's main (line 3 of it)", { exitCode: 1, stderrTail: tail });
  assert.match(reason, /^the variant failed in the variant's main \(line 3 of it\), not in the script's functions \(exit 1\):\n/, 'the report keeps the whole statement');
  assert.equal(variantFaultForWriter(reason), 'line 3 of your main (exit 1):\n  File "variant_limiting_0.py", line 51, in main\n    x = energy[0]\nNameError: name \'energy\' is not defined');
  const atCall = variantFaultReason("the call of the variant's main", { exitCode: 1, stderrTail: 'TypeError: main() missing 1 required positional argument' });
  assert.equal(variantFaultForWriter(atCall), 'the call of your main (exit 1):\nTypeError: main() missing 1 required positional argument');
});
