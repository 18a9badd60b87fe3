// Detection runs the real interpreters of this machine: the project venv's Python profiles must be
// found with versions, absent ones reported as "not installed", and a broken one as "unavailable"
// with its reason — never as a crash.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Command } from 'commander';
import { register } from '../../cli/commands/toolchains.js';
import { detectToolchain, detectToolchains } from '../../activities/toolchains/detect.js';
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import { resolveInterpreter } from '../../lib/toolchains/interpreter.js';
import { BadInputError } from '../../lib/errors.js';
import type { z } from 'zod';
import { ToolchainConfig, ToolchainProfile, type ToolchainStatus } from '../../schemas/toolchain.js';

const config = loadToolchainConfig();
const julia = resolveInterpreter('julia');
const orca = resolveInterpreter('orca');

let statuses: Promise<ToolchainStatus[]> | undefined;
/** One real detection of this machine, shared by the tests (each probe imports heavy packages). */
const detected = () => (statuses ??= detectToolchains());

async function toolchainsCommand(args: string[]): Promise<string[]> {
  const out: string[] = [];
  const program = new Command('physvec').exitOverride();
  register(program, { out: (l) => out.push(l), detect: detected });
  await program.parseAsync(['toolchains', ...args], { from: 'user' });
  return out;
}

test('the four Python profiles are available with versions from their own packages', async () => {
  const byName = new Map((await detected()).map((s) => [s.profile, s]));
  const expect: Record<string, string[]> = { tenpy: ['physics-tenpy', 'numpy'], netket: ['netket', 'jax'], qiskit: ['qiskit', 'qiskit-aer'], pyscf: ['pyscf'] };
  for (const [profile, packages] of Object.entries(expect)) {
    const s = byName.get(profile)!;
    assert.equal(s.state, 'available', `${profile}: ${s.reason}`);
    assert.equal(s.available, true);
    for (const p of packages) assert.match(s.versions[p] ?? '', /^\d+\.\d+/, `${profile} reports a version of ${p}`);
    assert.equal(s.version, s.versions[config.profiles.find((x) => x.name === profile)!.primaryPackage]);
    assert.ok(s.interpreter?.endsWith('.venv/bin/python'));
  }
});

test('`toolchains` prints one row per profile: Python ones available with versions, itensors and orca not installed', async (t) => {
  const out = await toolchainsCommand([]);
  assert.match(out[0]!, /^profile\s+status\s+version\s+language\s+topics\s+details$/);
  const row = (name: string) => out.find((l) => l.startsWith(`${name} `)) ?? assert.fail(`no row for ${name}:\n${out.join('\n')}`);
  assert.match(row('tenpy'), /^tenpy\s+available\s+\d+\.\d+\.\d+\s+python\s+dmrg\s+physics-tenpy \d.*substitute for itensors$/);
  assert.match(row('netket'), /^netket\s+available\s+\d+\.\d+\.\d+\s+python\s+nqs\s+netket \d/);
  assert.match(row('qiskit'), /^qiskit\s+available\s+\d+\.\d+\.\d+\s+python\s+qsim\s+.*qiskit-aer \d/);
  assert.match(row('pyscf'), /^pyscf\s+available\s+\d+\.\d+\.\d+\s+python\s+dft\s+pyscf \d.*substitute for orca$/);
  assert.equal(out.length, 1 + config.profiles.length);
  if (julia) t.diagnostic(`julia is on PATH (${julia}); the "not installed" row for itensors is not checked`);
  else assert.match(row('itensors'), /^itensors\s+not installed\s+-\s+julia\s+dmrg\s+`julia` is not on PATH$/);
  if (orca) t.diagnostic(`orca is on PATH (${orca}); the "not installed" row for orca is not checked`);
  else assert.match(row('orca'), /^orca\s+not installed\s+-\s+orca\s+dft\s+`orca` is not on PATH$/);
});

test('`toolchains --json` prints exactly one JSON document with a status per profile', async () => {
  const out = await toolchainsCommand(['--json']);
  const doc = JSON.parse(out.join('\n')) as { toolchains: ToolchainStatus[] };
  assert.deepEqual(doc.toolchains.map((s) => s.profile), config.profiles.map((p) => p.name));
  for (const s of doc.toolchains) assert.equal(s.available, s.state === 'available');
});

test('itensors: julia with ITensors/ITensorMPS is detected with their versions', async (t) => {
  if (!julia) return t.skip('julia is not on PATH: the itensors profile cannot be detected here');
  const s = (await detected()).find((x) => x.profile === 'itensors')!;
  assert.equal(s.state, 'available', s.reason);
  assert.match(s.versions.ITensors ?? '', /^\d+\.\d+/);
  assert.match(s.versions.ITensorMPS ?? '', /^\d+\.\d+/);
});

test('orca: the ORCA binary on PATH is detected', async (t) => {
  if (!orca) return t.skip('orca is not on PATH: the orca profile cannot be detected here');
  const s = (await detected()).find((x) => x.profile === 'orca')!;
  assert.notEqual(s.state, 'not installed');
});

const python = config.profiles.find((p) => p.name === 'tenpy')!;
const variant = (over: Partial<z.input<typeof ToolchainProfile>> & { name: string }): ToolchainProfile => ToolchainProfile.parse({ ...python, substitutes: [], ...over });

test('a profile whose packages do not load is "unavailable" with the import error as reason', async () => {
  const s = await detectToolchain(
    variant({ name: 'broken', versionProbe: { argv: ['{interpreter}', '-c', 'import no_such_physics_package_xyz'], output: 'json', timeoutMs: 60_000 } }),
  );
  assert.equal(s.state, 'unavailable');
  assert.equal(s.available, false);
  assert.match(s.reason!, /ModuleNotFoundError: No module named 'no_such_physics_package_xyz'/);
});

test('an absent interpreter is "not installed"; a hanging probe is "timed out" (not "unavailable"); a probe that prints no versions is "unavailable"', async () => {
  const absent = await detectToolchain(variant({ name: 'absent', interpreter: 'no-such-interpreter-xyz' }));
  assert.deepEqual([absent.state, absent.reason], ['not installed', '`no-such-interpreter-xyz` is not on PATH']);
  const missingFile = await detectToolchain(variant({ name: 'gone', interpreter: '.venv/bin/no-such-python' }));
  assert.deepEqual([missingFile.state, missingFile.reason], ['not installed', '.venv/bin/no-such-python does not exist']);
  const hanging = await detectToolchain(
    variant({ name: 'hangs', versionProbe: { argv: ['{interpreter}', '-c', 'import time; time.sleep(30)'], output: 'json', timeoutMs: 500 } }),
  );
  // Tried for 0.5 + 1 + 2 s (tests/toolchains/probe-timeout.test.ts covers the retries): a busy host, not a broken toolchain.
  assert.equal(hanging.state, 'timed out');
  assert.match(hanging.reason!, /did not finish within 0\.5\+1\+2 s at load [\d.]+ on \d+ cores?: .* it was not found missing$/);
  const silent = await detectToolchain(variant({ name: 'silent', versionProbe: { argv: ['{interpreter}', '-c', 'print("hello")'], output: 'json', timeoutMs: 60_000 } }));
  assert.deepEqual([silent.state, silent.reason], ['unavailable', 'the version probe printed no versions: hello']);
  const impostor = await detectToolchain(
    variant({ name: 'impostor', detect: { argv: ['{interpreter}', '--version'], timeoutMs: 30_000, anyExitCode: false, expectPattern: 'O\\s+R\\s+C\\s+A' } }),
  );
  assert.equal(impostor.state, 'unavailable');
  assert.match(impostor.reason!, /does not look like the expected program/);
});

test('a malformed profile file is bad input naming the field', () => {
  const raw = JSON.parse(JSON.stringify(config)) as { profiles: Array<Record<string, unknown>> };
  (raw.profiles[1]!.substitutes as Array<{ for: string }>)[0]!.for = 'juliaa';
  const parsed = ToolchainConfig.safeParse(raw);
  assert.equal(parsed.success, false);
  assert.match(JSON.stringify(parsed.error!.issues), /"juliaa\\" is not a profile/);
  assert.throws(() => loadToolchainConfig('/nonexistent/toolchains.json'), BadInputError);
});
