// The call record (physvec_calls.json, a file of the final run's evidence) is the same file every time
// a run is repeated: objects without a content hash are labelled by order of first appearance, not by
// memory address. A demo repeated under load differed from the idle run only by those addresses
// (issue 24), which made "the numbers changed" look true when they had not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { venvPython } from '../../lib/paths.js';
import { CALLS_FILE } from '../../schemas/script-markers.js';
import { PYTHON_RUNTIME_DIR } from '../../runners/sandbox/run-state/paths.js';

const SCRIPT = `
import sys
class Lattice:
    def __init__(self, n): self.n = n
def lattice_chain(n):
    # A different heap layout per run: the addresses of what follows move with it.
    _pad = [bytearray(int(sys.argv[1])) for _ in range(3)]
    return Lattice(n)
def hamiltonian_of(lattice, bonds):
    return {"lattice": lattice, "bonds": bonds, "free": object()}
def observable_size(lattice, model, bonds):
    return lattice.n * len(bonds)
def main():
    lat = lattice_chain(8)
    bonds = [(i, i + 1) for i in range(100)]  # > 64 items: labelled, not hashed
    model = hamiltonian_of(lat, bonds)
    print(observable_size(lat, model, bonds))
import physvec_runtime.calls; physvec_runtime.calls.record(globals(), ["lattice_chain", "hamiltonian_of", "observable_size"])
main()
`;

async function record(pad: number): Promise<{ text: string; doc: any }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'physvec-call-record-'));
  writeFileSync(path.join(dir, 'script.py'), SCRIPT);
  const r = await execa(venvPython, ['script.py', String(pad)], { cwd: dir, reject: false, env: { PYTHONPATH: PYTHON_RUNTIME_DIR } });
  assert.equal(r.exitCode, 0, r.stderr);
  const text = readFileSync(path.join(dir, CALLS_FILE), 'utf8');
  return { text, doc: JSON.parse(text) };
}

test('a repeated run writes the same call record, byte for byte, and labels one object the same throughout', { timeout: 60_000 }, async () => {
  const a = await record(1);
  const b = await record(4_000_017);
  assert.equal(a.text, b.text, 'the call record of a repeated run is the same file');
  const calls = a.doc.calls as { fn: string; args: Record<string, { id?: string; h?: string }>; out: { id?: string; h?: string } }[];
  const lattice = calls.find((c) => c.fn === 'lattice_chain')!.out.id;
  assert.equal(lattice, 'Lattice#1');
  const ham = calls.find((c) => c.fn === 'hamiltonian_of')!;
  const obs = calls.find((c) => c.fn === 'observable_size')!;
  assert.equal(ham.args.lattice!.id, lattice, 'the lattice handed on keeps its label');
  assert.equal(obs.args.lattice!.id, lattice);
  assert.match(ham.args.bonds!.id ?? '', /^seq#\d+$/, 'a long list is labelled');
  assert.equal(obs.args.bonds!.id, ham.args.bonds!.id, 'the same list keeps its label');
  assert.ok(!a.text.includes('@7f'), 'no memory address in the record');
});
