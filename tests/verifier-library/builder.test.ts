// The builder's gate: a deliberately broken proposal (a tenpy API that does not exist) is rejected
// with the sandbox's error, malformed proposals never reach the sandbox, a passing one is indexed
// with the toolchain version, and an absent toolchain yields unverified entries, not verified ones.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import { detectToolchain } from '../../activities/toolchains/detect.js';
import { buildVerifierLibrary } from '../../cli/verifier-library/build.js';
import { register } from '../../cli/commands/verifier-library.js';
import { BadInputError } from '../../lib/errors.js';
import { getProfile } from '../../lib/toolchains/config.js';
import { resolveInterpreter } from '../../lib/toolchains/interpreter.js';
import { VerifierIndex } from '../../lib/verifier-library/index-schema.js';
import type { ProposalInput } from '../../lib/verifier-library/proposal.js';

const py = (name: string, source: string, checkSource: string): ProposalInput => ({ name, language: 'python', source, checkSource });

const BROKEN = py(
  'effector_verifier_broken',
  `from tenpy.algorithms import dmrg


def effector_verifier_broken(model, psi0, chi_max=10):
    """Deliberately broken: calls dmrg.run_fast, which tenpy does not have."""
    info = dmrg.run_fast(psi0, model, {"trunc_params": {"chi_max": chi_max}})
    return info["E"], psi0
`,
  `# expected: open 4-site Heisenberg energy -1.6160254
import json
import sys

from tenpy.models.xxz_chain import XXZChain
from tenpy.networks.mps import MPS

from effector_verifier_broken import effector_verifier_broken

model = XXZChain({"L": 4, "Jxx": 1.0, "Jz": 1.0, "hz": 0.0, "bc_MPS": "finite"})
psi = MPS.from_product_state(model.lat.mps_sites(), ["up", "down", "up", "down"], bc="finite")
energy, _ = effector_verifier_broken(model, psi)
ok = abs(energy + 1.6160254037844386) < 1e-8
print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": energy, "ok": ok}))
sys.exit(0 if ok else 1)
`,
);

const PASSING = py(
  'lattice_verifier_pairs',
  `def lattice_verifier_pairs(n):
    """Nearest-neighbour pairs of an open chain."""
    return [(i, i + 1) for i in range(n - 1)]
`,
  `# expected: 3 pairs for 4 sites
import json
from lattice_verifier_pairs import lattice_verifier_pairs
print("PHYSVEC_RESULT " + json.dumps({"name": "pairs", "value": len(lattice_verifier_pairs(4)), "ok": len(lattice_verifier_pairs(4)) == 3}))
`,
);

const WRONG_BUT_EXITS_ZERO = py(
  'observable_verifier_wrong_sign',
  `def observable_verifier_wrong_sign(x):
    """Returns the wrong sign."""
    return -x
`,
  `# expected: returns x
import json
from observable_verifier_wrong_sign import observable_verifier_wrong_sign
print("PHYSVEC_RESULT " + json.dumps({"name": "x", "value": observable_verifier_wrong_sign(1.0), "ok": observable_verifier_wrong_sign(1.0) == 1.0}))
`,
);

const MALFORMED: ProposalInput[] = [
  py('helper_verifier_misc', 'def helper_verifier_misc():\n    return 1\n', '# expected: 1\nprint("PHYSVEC_RESULT 1")\n'),
  py('site_verifier_no_header', 'def site_verifier_no_header():\n    return 1\n', 'print("PHYSVEC_RESULT 1")\n'),
  py('site_verifier_wrong_name', 'def site_verifier_other():\n    return 1\n', '# expected: 1\nprint("PHYSVEC_RESULT 1")\n'),
  py('initialstate_verifier_needs_ghost', 'def initialstate_verifier_needs_ghost():\n    return 1\n', '# expected: 1\n# uses: effector_verifier_ghost\nprint("PHYSVEC_RESULT 1")\n'),
];

test('the builder rejects a broken proposal with the sandbox error and indexes only what passes', { timeout: 300_000 }, async (t) => {
  const status = await detectToolchain(getProfile('tenpy'));
  if (!status.available) return t.skip(`tenpy is ${status.state} here: ${status.reason}`);
  const root = mkdtempSync(path.join(os.tmpdir(), 'physvec-verifier-lib-'));
  const report = await buildVerifierLibrary({
    profile: 'tenpy',
    root,
    statuses: [status],
    extraProposals: [BROKEN, PASSING, WRONG_BUT_EXITS_ZERO, ...MALFORMED],
  });
  assert.equal(report.ok, false);
  const built = report.profiles[0]!;
  const rejected = new Map(built.rejected.map((r) => [r.name, r]));

  const broken = rejected.get('effector_verifier_broken') ?? assert.fail('the broken proposal was not rejected');
  assert.equal(broken.stage, 'check');
  assert.equal(broken.exitCode, 1);
  assert.equal(broken.reason, "the check exited with 1: AttributeError: module 'tenpy.algorithms.dmrg' has no attribute 'run_fast'");
  assert.match(broken.stderrTail!, /Traceback \(most recent call last\)[\s\S]*dmrg\.run_fast/);

  assert.match(rejected.get('observable_verifier_wrong_sign')!.reason, /^the check reported ok: false \(\{"name":"x","value":-1/);
  assert.match(rejected.get('helper_verifier_misc')!.reason, /"helper" is not an element category a verifier function can have/);
  assert.match(rejected.get('site_verifier_no_header')!.reason, /lacks its "# expected: <what the check asserts>" line/);
  assert.match(rejected.get('site_verifier_wrong_name')!.reason, /does not define an element function named site_verifier_wrong_name/);
  assert.match(rejected.get('initialstate_verifier_needs_ghost')!.reason, /uses effector_verifier_ghost, which the tenpy library does not have/);
  for (const m of MALFORMED) assert.equal(rejected.get(m.name)!.stage, 'structure');

  assert.deepEqual(built.kept, ['lattice_verifier_pairs']);
  const written = VerifierIndex.parse(JSON.parse(readFileSync(path.join(root, 'tenpy', 'index.json'), 'utf8')));
  assert.deepEqual(written.map((e) => e.name), ['lattice_verifier_pairs']);
  assert.equal(written[0]!.verifiedWith!.toolchainVersion, status.version);
  assert.equal(written[0]!.verifiedWith!.packages['physics-tenpy'], status.version);
  assert.deepEqual(written[0]!.check, { file: 'lattice_verifier_pairs.check.py', expected: '3 pairs for 4 sites', uses: [], result: { name: 'pairs', value: 3, ok: true }, durationMs: written[0]!.check.durationMs });
});

test('itensors: without julia the Julia functions are indexed as unverified, never as verified', async (t) => {
  const status = await detectToolchain(getProfile('itensors'));
  if (status.available) {
    t.diagnostic('julia with ITensors is installed: the itensors library is checked like the others');
    const report = await buildVerifierLibrary({ profile: 'itensors', write: false, statuses: [status] });
    assert.deepEqual(report.profiles[0]!.rejected, []);
    return;
  }
  const report = await buildVerifierLibrary({ profile: 'itensors', write: false, statuses: [status] });
  const built = report.profiles[0]!;
  assert.equal(report.ok, true);
  assert.deepEqual(built.kept, []);
  assert.ok(built.unverified.length >= 5, 'the hand-written Julia functions are listed');
  for (const e of built.entries) {
    assert.equal(e.status, 'unverified');
    assert.equal(e.verifiedWith, null);
    assert.match(e.note!, /^not run: itensors is not installed here \(`julia` is not on PATH\)$/);
  }
});

test('itensors functions pass their own checks in julia', async (t) => {
  if (!resolveInterpreter('julia')) return t.skip('julia is not on PATH: the itensors (Julia) library cannot be verified here');
  const report = await buildVerifierLibrary({ profile: 'itensors', write: false });
  assert.deepEqual(report.profiles[0]!.rejected, []);
});

test('`verifier-library build`: an unknown profile is bad input; a profile without a library is skipped', async () => {
  const run = async (args: string[]) => {
    const out: string[] = [];
    let code: number | undefined;
    const program = new Command('physvec').exitOverride();
    register(program, { out: (l) => out.push(l), err: () => {}, setExitCode: (c) => (code = c) });
    await program.parseAsync(['verifier-library', 'build', ...args], { from: 'user' });
    return { out, code };
  };
  await assert.rejects(run(['--profile', 'tenpyy']), (e: unknown) => e instanceof BadInputError && /unknown toolchain profile "tenpyy"/.test(e.message));
  const { out, code } = await run(['--profile', 'orca', '--json']);
  const doc = JSON.parse(out.join('\n')) as { ok: boolean; profiles: Array<{ profile: string; skipped?: string }> };
  assert.equal(code, 0);
  assert.deepEqual(doc.profiles.map((p) => [p.profile, p.skipped]), [['orca', 'profile orca has no verifier library']]);
});
