// What a run reads from the checkout is pinned at its first read (issue 25.4): a cassette rewritten
// by a deploy while a reproduction runs does not change the answers that reproduction gets; a run
// started after the deploy reads the new file; racing first reads agree on one pin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { pinnedRead } from '../../lib/artifacts/run-pins.js';
import { CassetteError, loadRunCassette } from '../../activities/llm/cassette.js';
import { repoRoot } from '../../lib/paths.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'physvec-pins-'));

test('a pinned read returns the first content to the same run, the new content to a new run', async () => {
  const dir = tmp();
  const store = new ArtifactStore(path.join(dir, 'artifacts'));
  const file = path.join(dir, 'input.txt');
  writeFileSync(file, 'build A');
  const read = async () => Buffer.from(readFileSync(file));
  const first = await pinnedRead(store, 'run-1', file, read);
  assert.equal(first.content.toString(), 'build A');
  assert.equal(first.pinnedNow, true);
  writeFileSync(file, 'build B'); // the deploy
  const again = await pinnedRead(store, 'run-1', file, read);
  assert.equal(again.content.toString(), 'build A', 'the running run still reads what it first read');
  assert.equal(again.pinnedNow, false);
  assert.equal(again.sha256, first.sha256);
  assert.equal((await pinnedRead(store, 'run-2', file, read)).content.toString(), 'build B', 'a run started after the deploy reads the new file');
});

test('racing first reads of one run agree on one pin', async () => {
  const store = new ArtifactStore(path.join(tmp(), 'artifacts'));
  const reads = await Promise.all(Array.from({ length: 8 }, (_, k) => pinnedRead(store, 'run-race', 'x', async () => Buffer.from(`content ${k}`))));
  const shas = new Set(reads.map((r) => r.sha256));
  assert.equal(shas.size, 1, `one pin for all: ${[...shas].join(', ')}`);
  assert.ok(reads.every((r) => r.content.toString() === reads[0]!.content.toString()));
});

test('a cassette changed mid-run: the run keeps its answers, a new run gets the new ones', async () => {
  const dir = tmp();
  const store = new ArtifactStore(path.join(dir, 'artifacts'));
  const file = path.join(dir, 'cassette.json');
  const original = JSON.parse(readFileSync(path.join(repoRoot, 'data/cassettes/example.json'), 'utf8')) as { entries: { answer?: unknown }[] };
  writeFileSync(file, JSON.stringify(original));
  const before = await loadRunCassette(store, 'reproduce-1', file);
  const changed = structuredClone(original);
  changed.entries = changed.entries.slice(0, 1);
  writeFileSync(file, JSON.stringify(changed));
  const during = await loadRunCassette(store, 'reproduce-1', file);
  assert.deepEqual(during, before, 'the running reproduction sees the cassette it started with');
  const after = await loadRunCassette(store, 'reproduce-2', file);
  assert.equal(after.entries.length, 1, 'a new reproduction sees the deployed cassette');
  await assert.rejects(loadRunCassette(store, 'reproduce-3', path.join(dir, 'missing.json')), (err: unknown) => err instanceof CassetteError && /does not exist/.test(err.message));
});
