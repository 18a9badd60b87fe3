// Rebuild policy on a manuals-only knowledge base (no Python introspection, so it runs in seconds):
// unchanged → skipped; a manual added or edited → rebuilt and searchable; --force → rebuilt.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { buildKb } from '../../lib/kb/build.js';
import { retrieve } from '../../lib/kb/retrieve.js';
import { KbNotBuiltError, loadKb, parseRetrieveArgs, searchLoaded } from '../../lib/kb/search.js';

test('a manuals-only knowledge base rebuilds exactly when its manuals change', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'physvec-kb-rebuild-'));
  const manuals = path.join(root, 'manuals');
  const dir = path.join(root, 'kb');
  await mkdir(manuals);
  await writeFile(
    path.join(manuals, 'orca-manual.html'),
    '<h1>Geometry optimization</h1><p>Use the <b>!Opt</b> keyword to optimise the geometry.</p><h1>Basis sets</h1><p>def2-TZVP is a triple-zeta basis.</p>',
  );
  // No Python toolchain is read: a runner that is called at all fails the test.
  const runner = { kind: 'execa' as const, run: async () => assert.fail('a manuals-only build ran introspect.py') };
  const opts = { sources: [], manualDirs: [manuals], dir, runner };

  await assert.rejects(loadKb({ dir }), KbNotBuiltError);

  const first = await buildKb(opts);
  assert.equal(first.skipped, false);
  assert.equal(first.reason, 'no previous build');
  assert.equal(first.manifest.chunks.byToolchain.orca, 2);

  const hits = searchLoaded(await loadKb({ dir }), parseRetrieveArgs({ query: 'optimise the geometry', toolchain: 'orca' }));
  assert.equal(hits[0]?.qualifiedName, 'manual:orca-manual.html#Geometry optimization');
  // A filter for another toolchain does not return ORCA's manual.
  assert.deepEqual(searchLoaded(await loadKb({ dir }), parseRetrieveArgs({ query: 'optimise the geometry', toolchain: 'tenpy' })), []);

  const again = await buildKb(opts);
  assert.equal(again.skipped, true);
  assert.equal(again.manifest.fingerprint, first.manifest.fingerprint);

  await writeFile(path.join(manuals, 'itensors-notes.md'), '# Sweeps\nnsweeps sets how many DMRG sweeps ITensorMPS runs; maxdim caps the bond dimension.');
  const changed = await buildKb(opts);
  assert.equal(changed.skipped, false);
  assert.equal(changed.reason, 'manual files changed');
  const text = await retrieve({ query: 'maxdim bond dimension', toolchain: 'ITensors' }, { dir });
  assert.match(text, /manual:itensors-notes\.md#Sweeps/);
  assert.match(text, /maxdim caps the bond dimension/);

  const forced = await buildKb({ ...opts, force: true });
  assert.equal(forced.skipped, false);
  assert.equal(forced.reason, 'forced');
  assert.notEqual(forced.manifest.fingerprint, first.manifest.fingerprint);
});
