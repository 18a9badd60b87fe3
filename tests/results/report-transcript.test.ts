// The evidence report carries the run's LLM transcript by role (issue 29.7): each call's prompt and
// answer in a collapsed <details>, its tokens and whether a scripted model answered; model text
// with <script> is shown as text; a long answer is cut with a link to the whole; the paper sent as an
// artifact is linked, not inlined; a failed call shows its failure and links its recorded exchange.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { PREVIEW_CHARS } from '../../activities/pipeline/report-transcript.js';
import type { RecordedCall } from '../../lib/temporal/llm-calls.js';
import type { LlmResult, LlmUsage } from '../../schemas/llm.js';
import { chromiumAvailable, launchChromium } from '../helpers/browser.js';
import { HOSTILE, writeHostileReport } from './hostile-report.js';

const usage = (i: number, o: number): LlmUsage => ({ inputTokens: i, outputTokens: o, cachedInputTokens: 0, calls: 1, retries: 0, toolCalls: 0, latencyMs: 5 });

async function calls(store: ArtifactStore): Promise<{ calls: RecordedCall[]; long: string; paper: string }> {
  const paper = `\\section{Model} ${'H = J \\sum S_i S_{i+1}. '.repeat(500)}`;
  const paperRef = await store.put(paper, { name: 'paper.tex' });
  const exchange = await store.putJson({ kind: 'physvec.llm-exchange', note: HOSTILE }, 'llm-exchange.json');
  const long = `def test_all():\n${'    assert True  # line\n'.repeat(400)}# the end ${HOSTILE}\n`;
  const result = (model: string, text: string, u: LlmUsage, costUsd: number): LlmResult => ({
    text, textTruncated: false, toolCalls: [], usage: u, costUsd, priced: true, model, provider: model.split(':')[0]!, scripted: model.startsWith('scripted:'), exchangeRef: exchange, attempt: 1,
  });
  const key = (role: string, stage: string, iteration: number) => ({ role, stage, iteration, seq: 0 });
  return {
    paper,
    long,
    calls: [
      { workflowId: 'w', request: { key: key('author', 'author', 0), model: 'scripted:hostile', messages: [{ role: 'system', content: 'You write scripts.' }, { role: 'user', content: [{ text: `Plan it. ${HOSTILE}` }, { artifact: paperRef, label: 'the paper' }] }] }, result: result('scripted:hostile', `My plan: ${HOSTILE}`, usage(120, 30), 0) },
      { workflowId: 'w', request: { key: key('unit-test-writer', 'programming', 1), model: 'openai:gpt-x', messages: [{ role: 'user', content: 'Write the unit test.' }] }, result: result('openai:gpt-x', long, usage(900, 2500), 0.0123) },
      { workflowId: 'w', request: { key: key('repairer', 'programming', 1), model: 'openai:gpt-x', messages: [{ role: 'user', content: 'Repair it.' }] }, failure: { message: `schema: the answer did not match: ${HOSTILE}`, details: { key: key('repairer', 'programming', 1), model: 'openai:gpt-x', usage: usage(400, 60), costUsd: 0.002, exchangeRef: exchange } } },
    ],
  };
}

test('evidence report: the LLM transcript by role, collapsed, escaped, long texts linked', async (t) => {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'physvec-transcript-'));
  const store = new ArtifactStore(path.join(stateDir, 'artifacts'));
  const c = await calls(store);
  const r = await writeHostileReport({ stateDir, llmCalls: () => Promise.resolve(c.calls) });
  const html = readFileSync(r.htmlPath, 'utf8');
  const dir = path.dirname(r.htmlPath);
  for (const role of ['author', 'unit-test-writer', 'repairer']) assert.match(html, new RegExp(`<section class="llm-role" id="role-${role}">`), `a section for ${role}`);
  assert.match(html, /<h3>author: 1 call, 120 input \/ 30 output tokens, \$0\.0000 — scripted model<\/h3>/);
  assert.match(html, /<h3>unit-test-writer: 1 call, 900 input \/ 2500 output tokens, \$0\.0123<\/h3>/);
  assert.equal(html.match(/<details class="llm-call/g)?.length, 3, 'one collapsed block per call');
  assert.doesNotMatch(html, /<details[^>]*\bopen\b/, 'collapsed by default');
  assert.doesNotMatch(html, /<script/i, 'the model text never becomes a script element');
  assert.ok(!html.includes(HOSTILE));
  assert.ok(html.includes('My plan: &lt;script&gt;alert(1)&lt;/script&gt;'), 'the answer is shown as text');
  assert.ok(html.includes('schema: the answer did not match: &lt;script&gt;'), 'the failure is shown as text');
  // The long answer: cut on the page, whole in the linked file.
  const cut = /<p class="cut">cut at \d+ characters: <a href="([^"]+)">the whole answer<\/a><\/p>/.exec(html);
  assert.ok(cut, 'the long answer links its whole text');
  assert.equal(readFileSync(path.join(dir, cut[1]!), 'utf8'), c.long);
  assert.ok(!html.includes(c.long.slice(0, PREVIEW_CHARS + 50).replace(/'/g, '&#39;')), 'no more than the preview is inlined');
  // The paper: a link to one copy, never inlined.
  const paper = /\[the paper, (\d+) bytes: <a href="([^"]+)">/.exec(html);
  assert.ok(paper, 'the artifact part is a link');
  assert.equal(readFileSync(path.join(dir, paper[2]!), 'utf8'), c.paper);
  assert.ok(!html.includes('S_{i+1}. H = J'), 'the paper text is not in the page');
  const exchanges = [...html.matchAll(/<a href="([^"]+)">recorded exchange \(JSON\)<\/a>/g)].map((m) => m[1]!);
  assert.equal(exchanges.length, 3, 'every call, the failed one included, links its exchange');
  for (const e of exchanges) assert.ok(existsSync(path.join(dir, e)), e);
  const json = JSON.parse(readFileSync(r.jsonPath, 'utf8'));
  assert.deepEqual(json.llmTranscript.map((x: { role: string }) => x.role), ['author', 'unit-test-writer', 'repairer']);

  await t.test('in Chromium: the blocks open on a click and the text comes back exactly', async (st) => {
    if (!chromiumAvailable()) return st.skip('Debian chromium is not installed (/usr/bin/chromium); bootstrap --test installs it');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
      await page.goto(`file://${r.htmlPath}`);
      const first = page.locator('#role-author details').first();
      assert.equal(await first.evaluate((d) => (d as HTMLDetailsElement).open), false);
      await first.locator('summary').click();
      assert.equal(await first.locator('.answer pre').textContent(), `My plan: ${HOSTILE}`);
      assert.deepEqual(dialogs, []);
    } finally {
      await browser.close();
    }
  });
});

test('evidence report: without a readable history the transcript says why', async () => {
  const r = await writeHostileReport();
  const html = readFileSync(r.htmlPath, 'utf8');
  assert.match(html, /<h2 id="llm-transcript">LLM transcript<\/h2>\s*<p>Not available: the report was written outside a worker/);
});
