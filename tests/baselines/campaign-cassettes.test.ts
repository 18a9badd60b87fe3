// The campaign cassettes (data/cassettes/campaign): valid, found from the campaign's model id
// `scripted:campaign/{task}.t{trial}`, non-zero usage everywhere, and the artificial latency of the
// scripted model (PHYSVEC_SCRIPTED_LATENCY_MS) delays answers, can be cancelled, and rejects bad values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { loadCassette, resolveCassettePath } from '../../activities/llm/cassette.js';
import { scriptedLatencyMs, scriptedSession } from '../../activities/llm/scripted.js';
import { ProviderCallError } from '../../activities/llm/session.js';

const dir = path.join(repoRoot, 'data', 'cassettes', 'campaign');

test('campaign cassettes: one per (task, trial), resolved from campaign/<task>.t<trial>, usage on every answer', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  assert.ok(files.length >= 4, `cassettes in ${dir}: ${files.join(', ')}`);
  for (const f of files) {
    const m = /^(task_[a-z0-9_]+)\.t(\d+)\.json$/.exec(f);
    assert.ok(m, `${f}: named <task>.t<trial>.json`);
    const file = resolveCassettePath(`campaign/${m[1]}.t${m[2]}`);
    assert.equal(file, path.join(dir, f));
    const c = loadCassette(file);
    for (const e of c.entries) assert.ok((e.usage?.inputTokens ?? 0) > 0 && (e.usage?.outputTokens ?? 0) > 0, `${f}: ${e.role}/${e.stage}/${e.iteration} has usage`);
    const roles = new Set(c.entries.map((e) => `${e.role}/${e.stage}`));
    for (const need of ['coder/author', 'unit-test-writer/programming', 'unit-test-writer/evaluation', 'assertion-writer/evaluation']) assert.ok(roles.has(need), `${f}: has ${need}`);
    if (m[2] === '1') for (const need of ['repairer/programming', 'repairer/scientific', 'react-repairer/react', 'react-repairer/react-rag']) assert.ok(roles.has(need), `${f}: has ${need}`);
    // ReAct-RAG's repairs retrieve; ReAct's never do (it is offered no tool).
    for (const e of c.entries.filter((x) => x.role === 'react-repairer')) assert.equal(!!e.rounds?.length, e.stage === 'react-rag', `${f}: ${e.stage} iteration ${e.iteration}`);
  }
  // Paths keep working: a `.json` spec is relative to the repository root, a plain name is in data/cassettes.
  assert.equal(resolveCassettePath('tests/x.json'), path.join(repoRoot, 'tests', 'x.json'));
  assert.equal(resolveCassettePath('example'), path.join(repoRoot, 'data', 'cassettes', 'example.json'));
  assert.equal(resolveCassettePath('no-such-dir/x'), path.join(repoRoot, 'no-such-dir', 'x'));
});

const entry = { role: 'r', stage: 's', iteration: 0, json: { ok: true }, usage: { inputTokens: 10, outputTokens: 2 } };

test('PHYSVEC_SCRIPTED_LATENCY_MS: delays the scripted answer, cancellable, bad values named', async () => {
  assert.equal(scriptedLatencyMs({}), 0);
  assert.equal(scriptedLatencyMs({ PHYSVEC_SCRIPTED_LATENCY_MS: ' 250 ' }), 250);
  assert.throws(() => scriptedLatencyMs({ PHYSVEC_SCRIPTED_LATENCY_MS: 'fast' }), /PHYSVEC_SCRIPTED_LATENCY_MS="fast" is not a number/);
  assert.throws(() => scriptedLatencyMs({ PHYSVEC_SCRIPTED_LATENCY_MS: '-5' }), /PHYSVEC_SCRIPTED_LATENCY_MS/);

  const t0 = performance.now();
  const turn = await scriptedSession(entry, 'x.json', { latencyMs: 300 }).send({ toolChoice: 'auto' });
  const waited = performance.now() - t0;
  assert.ok(waited >= 290, `answered after ${waited} ms`);
  assert.deepEqual(turn.json, { ok: true });
  assert.equal(turn.usage.inputTokens, 10);

  const t1 = performance.now();
  assert.ok((await scriptedSession(entry, 'x.json').send({ toolChoice: 'auto' })).json);
  assert.ok(performance.now() - t1 < 100, 'no latency unless asked');

  const abort = new AbortController();
  setTimeout(() => abort.abort(), 50);
  await assert.rejects(scriptedSession(entry, 'x.json', { latencyMs: 10_000 }).send({ toolChoice: 'auto', signal: abort.signal }), (err: unknown) => err instanceof ProviderCallError && err.kind === 'cancelled');
});
