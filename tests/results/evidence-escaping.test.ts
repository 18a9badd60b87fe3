// Model-written text cannot become markup in the evidence report: a rubric grader's support, a unit
// test's traceback, the final script, a repair suggestion, an assertion's observed value and the
// run's message all carry <script>, <img onerror>, double quotes and apostrophes (tests/results/
// hostile-report.ts). The page source holds them only escaped, and in headless Chromium they come
// back as the exact text, nothing runs, tracebacks keep their lines and the script its line numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromiumAvailable, launchChromium } from '../helpers/browser.js';
import { HOSTILE, SCRIPT, TRACEBACK, writeHostileReport } from './hostile-report.js';

const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; it&#39;s &lt;img src=x onerror=&quot;alert(2)&quot;&gt;';

test('evidence report: <script>, quotes and apostrophes from the model are escaped everywhere', async (t) => {
  const r = await writeHostileReport();
  const html = readFileSync(r.htmlPath, 'utf8');
  assert.doesNotMatch(html, /<script/i, 'no script element at all (the page has none of its own)');
  assert.doesNotMatch(html, /<img src=x/i, 'the injected image is not an element');
  assert.ok(!html.includes(HOSTILE), 'the hostile text never appears unescaped');
  assert.doesNotMatch(html, /it's/, "no raw apostrophe from the model's text");
  // Each place the model's text reaches: message, traceback (×2 lines), support (×2), assertion reason,
  // repair suggestion, diff, human note, final script.
  const count = html.split(ESCAPED).length - 1;
  assert.ok(count >= 9, `the escaped text appears in every place it was put (${count})`);
  assert.match(html, /<td><pre class="tb">repeat 1: met: &lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;quoted&quot; it&#39;s/, 'rubric support escaped in its cell');
  assert.match(html, /Uses the paper&#39;s boundary conditions/, 'apostrophe in a rubric issue');
  const json = JSON.parse(readFileSync(r.jsonPath, 'utf8'));
  assert.equal(json.scientific[0].scorecard[0].supports[0], `met: ${HOSTILE}`, 'report.json keeps the raw text (JSON is not HTML)');

  await t.test('in Chromium the text round-trips, nothing runs, lines are kept', async (st) => {
    if (!chromiumAvailable()) return st.skip('Debian chromium is not installed (/usr/bin/chromium); bootstrap --test installs it');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const dialogs: string[] = [];
      const errors: string[] = [];
      page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`file://${r.htmlPath}`);
      assert.equal(await page.locator('script').count(), 0);
      assert.equal(await page.locator('img').count(), 1, 'only the figure is an image');
      // The full scorecard: every leaf (met, failed, split) with each repeat's support.
      const leafRows = page.locator('#scorecard-1 tr:not(:first-child)');
      assert.equal(await leafRows.count(), 3, 'all three leaves, not only the failed one');
      assert.deepEqual(await page.locator('#scorecard-1 tr').evaluateAll((rows) => rows.slice(1).map((r) => r.className)), ['met', 'failed', 'split']);
      assert.equal(await page.locator('#scorecard-1 tr.met td:nth-child(5) pre').first().textContent(), `repeat 1: met: ${HOSTILE}`);
      assert.equal(await page.locator('#scorecard-1 tr.failed td:nth-child(5) pre').nth(1).textContent(), `repeat 2: not met: ${HOSTILE}`);
      // The traceback is preformatted and keeps its four lines.
      const tb = page.locator('#verdicts pre.tb').first();
      assert.equal(await tb.textContent(), TRACEBACK);
      assert.equal((await tb.innerText()).split('\n').length, TRACEBACK.split('\n').length);
      assert.equal(await tb.evaluate((el) => getComputedStyle(el).whiteSpace), 'pre-wrap');
      // The final script with its line numbers: one numbered line per script line, text intact.
      const lines = SCRIPT.replace(/\n$/, '').split('\n');
      assert.deepEqual(await page.locator('#final-script .ln').allTextContents(), lines.map((_, i) => String(i + 1)));
      assert.equal(await page.locator('#L2').textContent(), `2# ${HOSTILE}`);
      assert.equal(await page.locator('#L4').textContent(), `4    label = "it's a \\"chain\\""`);
      assert.match(await page.locator('#status').textContent() ?? '', new RegExp(`the model said: ${HOSTILE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.equal(await page.locator('#started-at').textContent(), '2026-01-02T03:04:05.000Z');
      assert.match(await page.locator('#ended-at').textContent() ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);
      assert.deepEqual(dialogs, [], 'no alert fired');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
