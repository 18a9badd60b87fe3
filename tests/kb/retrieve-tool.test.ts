// What agents and users get: the retrieve tool (validated args, JSON schema, compact text), the
// `kb search` / `kb build` commands.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Command } from 'commander';
import { register } from '../../cli/commands/kb.js';
import { BadInputError } from '../../lib/errors.js';
import { createKbTools, RETRIEVE_TOOL_SPEC } from '../../lib/kb/tools.js';

const BUILD_TIMEOUT = 10 * 60_000;

test('the retrieve tool spec is a JSON schema an LLM API accepts', () => {
  const p = RETRIEVE_TOOL_SPEC.parameters as { type: string; properties: Record<string, { type?: string; enum?: string[] }>; required?: string[] };
  assert.equal(RETRIEVE_TOOL_SPEC.name, 'retrieve');
  assert.match(RETRIEVE_TOOL_SPEC.description, /tenpy/i);
  assert.equal(p.type, 'object');
  assert.deepEqual(p.required, ['query']);
  assert.equal(p.properties.query?.type, 'string');
  assert.equal(p.properties.k?.type, 'integer');
  assert.ok(!('$schema' in p));
});

test('retrieve answers with qualified names, signatures and docs, filtered by toolchain', { timeout: BUILD_TIMEOUT }, async () => {
  const tools = createKbTools();
  const text = await tools.retrieve({ query: 'Qiskit PauliEvolutionGate Trotter', toolchain: 'qiskit', k: 3 });
  assert.match(text, /^Knowledge base: top 3 for "Qiskit PauliEvolutionGate Trotter" in qiskit/);
  assert.match(text, /\[1\] qiskit\.circuit\.library\.PauliEvolutionGate/);
  assert.match(text, /signature: PauliEvolutionGate\(operator/);
  assert.equal(text.match(/^\[\d\] /gm)?.length, 3);
  assert.ok(text.length < 6000, `answer of ${text.length} chars`);
  assert.doesNotMatch(text, /\((tenpy|netket|pyscf), /);

  // Package spellings are accepted for the toolchain.
  const aer = await tools.retrieve({ query: 'depolarizing error noise model', toolchain: 'qiskit_aer' });
  assert.match(aer, /qiskit_aer\.noise\./);

  await assert.rejects(tools.retrieve({ query: 'dmrg', toolchain: 'fortran' }), (err: Error) => {
    assert.ok(err instanceof BadInputError);
    assert.match(err.message, /retrieve tool arguments: toolchain: /);
    return true;
  });
  await assert.rejects(tools.retrieve({ q: 'dmrg' }), /query/);
});

async function runCli(argv: string[]): Promise<{ out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const program = new Command().exitOverride();
  register(program, { out: (l) => out.push(l), err: (l) => err.push(l) });
  await program.parseAsync(['node', 'physvec', ...argv]);
  return { out, err };
}

test('kb search prints ranked hits; --json prints one document; bad options are bad input', { timeout: BUILD_TIMEOUT }, async () => {
  const human = await runCli(['kb', 'search', 'PySCF unrestricted Kohn-Sham open shell', '--toolchain', 'pyscf', '--k', '4']);
  assert.match(human.out[0]!, /^ 1\. pyscf\.\S+ {2}\[pyscf \w+\] {2}score \d/);
  assert.equal(human.out.filter((l) => /^ \d\. /.test(l)).length, 4);

  const json = await runCli(['kb', 'search', 'tenpy DMRG chi_max and max_sweeps', '--json']);
  const doc = JSON.parse(json.out.join('\n')) as { hits: { qualifiedName: string; toolchain: string; score: number; snippet: string }[]; k: number };
  assert.equal(doc.k, 5);
  assert.equal(doc.hits.length, 5);
  assert.ok(doc.hits.every((h) => h.snippet.length > 0 && h.score > 0));
  assert.ok(doc.hits.slice(0, 3).every((h) => h.toolchain === 'tenpy'), JSON.stringify(doc.hits.map((h) => h.qualifiedName)));

  await assert.rejects(runCli(['kb', 'search', 'dmrg', '--toolchain', 'fortran']), BadInputError);
  await assert.rejects(runCli(['kb', 'search', 'dmrg', '--k', 'many']), BadInputError);
});

// NetKet's drivers are classes behind a metaclass whose __call__ is `(*args: Any, **kwargs: Any) -> ~P`:
// run-time introspection reported that for all of them. The corpus takes signatures from the source
// (griffe), so an Author reads what netket/driver/vmc.py declares.
test("kb search shows a NetKet driver's real signature, not the metaclass wrapper", { timeout: BUILD_TIMEOUT }, async () => {
  const { out } = await runCli(['kb', 'search', 'netket.driver.VMC variational Monte Carlo driver', '--toolchain', 'netket', '--k', '5']);
  const at = out.findIndex((l) => /^ *\d\. netket\.driver\.VMC {2}\[netket class\]/.test(l));
  assert.ok(at >= 0, `netket.driver.VMC not among the hits:\n${out.join('\n')}`);
  const signature = out[at + 1]!.trim();
  assert.match(signature, /^VMC\(hamiltonian\b[^,]*, optimizer\b[^,]*, \*, variational_state\b/, signature);
  assert.match(signature, /preconditioner/);
  assert.doesNotMatch(signature, /\*args|\*\*kwargs|~P/);

  const json = await runCli(['kb', 'search', 'netket.driver.VMC_SR', '--toolchain', 'netket', '--json']);
  const hits = (JSON.parse(json.out.join('\n')) as { hits: { qualifiedName: string; signature: string }[] }).hits;
  const sr = hits.find((h) => h.qualifiedName === 'netket.driver.VMC_SR');
  assert.ok(sr, JSON.stringify(hits.map((h) => h.qualifiedName)));
  assert.match(sr.signature, /\bdiag_shift\b/);
  assert.match(sr.signature, /\bvariational_state\b/);
});

test('kb build --json reports the manifest and, unchanged, a skip', { timeout: BUILD_TIMEOUT }, async () => {
  await runCli(['kb', 'build']);
  const { out } = await runCli(['kb', 'build', '--json']);
  const doc = JSON.parse(out.join('\n')) as { skipped: boolean; manifest: { chunks: { total: number } } };
  assert.equal(doc.skipped, true);
  assert.ok(doc.manifest.chunks.total > 5000);
});
