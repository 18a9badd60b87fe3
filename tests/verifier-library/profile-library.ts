// Shared by the per-profile library tests: build one profile's library without writing, and check
// that every proposal executed in the sandbox and passed its own check, and that the committed
// index lists exactly those functions, verified with the toolchain version found here.
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { detectToolchain } from '../../activities/toolchains/detect.js';
import { buildVerifierLibrary } from '../../cli/verifier-library/build.js';
import { getProfile } from '../../lib/toolchains/config.js';
import { loadVerifierIndex } from '../../lib/verifier-library/load.js';

export async function assertProfileLibraryPasses(t: TestContext, profile: string, minimumFunctions: number): Promise<void> {
  const status = await detectToolchain(getProfile(profile));
  if (!status.available) return t.skip(`${profile} is ${status.state} here (${status.reason}); its library cannot be run`);
  const report = await buildVerifierLibrary({
    profile,
    write: false,
    statuses: [status],
    onProgress: (e) => e.kind !== 'profile' && t.diagnostic(e.kind === 'kept' ? `kept ${e.name} (${(e.durationMs / 1000).toFixed(1)} s)` : `REJECTED ${e.name}: ${e.reason}`),
  });
  const built = report.profiles[0]!;
  assert.deepEqual(built.rejected, [], `every ${profile} function passes its own check in the sandbox`);
  assert.ok(built.kept.length >= minimumFunctions, `${profile} has at least ${minimumFunctions} functions (has ${built.kept.length})`);
  const categories = new Set(built.entries.map((e) => e.category));
  for (const c of ['initialstate', 'effector', 'observable', 'hamiltonian']) assert.ok(categories.has(c as never), `${profile} covers ${c}`);
  assert.ok(categories.has('site') || categories.has('lattice'), `${profile} covers site/lattice`);
  for (const e of built.entries) {
    assert.match(e.name, /_verifier_/);
    assert.equal(e.verifiedWith?.toolchainVersion, status.version);
  }
  const committed = loadVerifierIndex(profile);
  assert.deepEqual(
    committed.map((e) => e.name).sort(),
    built.kept,
    `data/verifier-library/${profile}/index.json lists exactly the passing functions (rebuild with \`physvec verifier-library build --profile ${profile}\`)`,
  );
  for (const e of committed) {
    assert.equal(e.status, 'verified');
    assert.equal(e.verifiedWith?.toolchainVersion, status.version, `${e.name} was verified with the installed ${profile} version`);
  }
}
