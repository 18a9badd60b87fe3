// The scripted model: cassette matching by role/stage/iteration/seq, tool rounds, structured answers,
// zero cost, and clear errors when nothing matches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { activities, failureOf, request, retrieveSpec, testConfig } from './support.js';
import { findEntry, resolveCassettePath } from '../../activities/llm/cassette.js';
import { Cassette } from '../../schemas/llm.js';
import { repoRoot } from '../../lib/paths.js';

const key = (role: string, stage: string, iteration: number, seq: number) => ({ role, stage, iteration, seq });

test('the example cassette in data/cassettes is valid', async () => {
  const { readFile } = await import('node:fs/promises');
  Cassette.parse(JSON.parse(await readFile(path.join(repoRoot, 'data', 'cassettes', 'example.json'), 'utf8')));
});

test('cassette names resolve to data/cassettes/<name>.json; paths to files', () => {
  assert.equal(resolveCassettePath('example'), path.join(repoRoot, 'data', 'cassettes', 'example.json'));
  assert.equal(resolveCassettePath('tests/x.json'), path.join(repoRoot, 'tests', 'x.json'));
  assert.equal(resolveCassettePath('/abs/c.json'), '/abs/c.json');
});

test('matching: exact iteration first, then "*"; seq is explicit or the position in its group', () => {
  const c = Cassette.parse({
    name: 't',
    entries: [
      { role: 'r', stage: 's', iteration: 0, text: 'a0' },
      { role: 'r', stage: 's', iteration: 0, text: 'a1' },
      { role: 'r', stage: 's', iteration: 1, seq: 3, text: 'b3' },
      { role: 'r', stage: 's', iteration: '*', text: 'star0' },
      { role: 'r', stage: 'other', iteration: 0, text: 'o' },
    ],
  });
  assert.equal(findEntry(c, key('r', 's', 0, 0))?.text, 'a0');
  assert.equal(findEntry(c, key('r', 's', 0, 1))?.text, 'a1');
  assert.equal(findEntry(c, key('r', 's', 1, 3))?.text, 'b3');
  assert.equal(findEntry(c, key('r', 's', 1, 0))?.text, 'star0');
  assert.equal(findEntry(c, key('r', 's', 7, 0))?.text, 'star0');
  assert.equal(findEntry(c, key('r', 's', 7, 1)), undefined);
  assert.equal(findEntry(c, key('x', 's', 0, 0)), undefined);
});

test('a scripted call runs the tool rounds, answers, reports the cassette usage at $0, labelled scripted', async () => {
  const { callLlm } = activities({ config: testConfig() });
  const r = await callLlm(request('scripted:example', { tools: [retrieveSpec] }));
  assert.match(r.text, /^Plan: build the S=1\/2 Heisenberg chain/);
  assert.equal(r.scripted, true);
  assert.equal(r.provider, 'scripted');
  assert.equal(r.costUsd, 0);
  assert.equal(r.priced, true);
  assert.deepEqual([r.usage.inputTokens, r.usage.outputTokens, r.usage.calls, r.usage.toolCalls], [1200, 180, 0, 1]);
  assert.match(r.toolCalls[0]!.resultPreview, /doc for "Heisenberg chain ground-state energy DMRG"/);
});

test('scripted structured answers are validated against the outputSchema', async () => {
  const { callLlm } = activities({ config: testConfig() });
  const second = await callLlm(request('scripted:example', { key: key('author', 'plan', 0, 1), outputSchema: 'string-list' }));
  assert.deepEqual(second.parsed, { items: ['Heisenberg chain MPO', 'DMRG convergence in bond dimension'] });
  assert.deepEqual(second.usage.inputTokens, 0);
  const judge = await callLlm(request('scripted:example', { key: key('unit-test-judge', 'programming', 5, 0), outputSchema: 'verdict' }));
  assert.equal((judge.parsed as { verdict: string }).verdict, 'correct');
  await assert.rejects(callLlm(request('scripted:example', { key: key('author', 'plan', 0, 1), outputSchema: 'verdict' })), (err) => {
    assert.equal(failureOf(err).type, 'SchemaValidationError');
    assert.match(failureOf(err).message, /does not fit outputSchema "verdict"/);
    return true;
  });
});

test('no matching entry: a non-retryable error naming role, stage, iteration, seq and the cassette file', async () => {
  const { callLlm } = activities({ config: testConfig() });
  await assert.rejects(callLlm(request('scripted:example', { key: key('author', 'plan', 3, 0) })), (err) => {
    const f = failureOf(err);
    assert.equal(f.type, 'CassetteMismatchError');
    assert.equal(f.nonRetryable, true);
    assert.match(f.message, /no entry for role "author", stage "plan", iteration 3, seq 0/);
    assert.ok(f.message.includes(path.join('data', 'cassettes', 'example.json')));
    assert.match(f.message, /iteration\(s\) 0/);
    return true;
  });
  await assert.rejects(callLlm(request('scripted:example')), (err) => {
    assert.match(failureOf(err).message, /calls tool "retrieve", which the request does not offer/);
    return true;
  });
  await assert.rejects(callLlm(request('scripted:no-such-cassette')), (err) => {
    assert.equal(failureOf(err).type, 'CassetteMismatchError');
    assert.match(failureOf(err).message, /no-such-cassette\.json does not exist/);
    return true;
  });
});

test('an invalid cassette file is reported with the field path', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-cassette-'));
  const file = path.join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify({ name: 'bad', entries: [{ role: 'a', stage: 'b', iteration: -1, text: 'x' }] }));
  const { callLlm } = activities({ config: testConfig() });
  await assert.rejects(callLlm(request(`scripted:${file}`)), (err) => {
    assert.match(failureOf(err).message, /bad\.json: entries\.0\.iteration/);
    return true;
  });
});
