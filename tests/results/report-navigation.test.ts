// A referee can navigate the reports: the evidence report and the campaign page, opened in headless
// Chromium from the state directory, have every link (href/src) resolving — relative files exist,
// in-page anchors have their target, the only absolute links are the run's and the campaign's pages
// in the Temporal UI, in its route form with the workflow id (and the run id where known) — and the
// campaign's Runs table, with long model names and workflow ids, fits the page at 1280 px and links
// every recorded run's evidence report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { createResultsActivities } from '../../activities/results/index.js';
import { uiUrl } from '../../lib/temporal/connection.js';
import { chromiumAvailable, launchChromium } from '../helpers/browser.js';
import { run } from './records.js';
import { writeHostileReport } from './hostile-report.js';

const stateDir = mkdtempSync(path.join(os.tmpdir(), 'physvec-report-navigation-'));
const LONG_MODEL = 'openai-compatible:an-unusually-long-provider-model-name-2026-01-01-preview-with-a-suffix';
const runIdOf = (k: number) => `0195b2c4-7f3e-7a1d-9c2e-00000000000${k}`;

/** Every href/src on the page, with what it points at, checked against the file system or the UI route. */
async function unresolvedLinks(page: Page, pageFile: string, workflowIds: string[]): Promise<string[]> {
  const links = await page.evaluate(() => {
    const out: { attr: string; value: string; resolved: string }[] = [];
    for (const el of Array.from(document.querySelectorAll('[href], [src]'))) {
      for (const attr of ['href', 'src']) {
        const value = el.getAttribute(attr);
        if (value !== null) out.push({ attr, value, resolved: new URL(value, document.baseURI).href });
      }
    }
    return out;
  });
  assert.ok(links.length > 0, 'the page has links');
  const ui = new URL(uiUrl());
  const bad: string[] = [];
  for (const l of links) {
    const u = new URL(l.resolved);
    if (l.value.startsWith('#')) {
      if (!(await page.locator(`[id="${l.value.slice(1)}"]`).count())) bad.push(`${l.value}: no element with that id`);
    } else if (u.protocol === 'file:') {
      if (!l.value || l.value.startsWith('/') || l.value.startsWith('file:')) bad.push(`${l.value}: not relative to the report`);
      const file = fileURLToPath(u);
      if (file === pageFile || !existsSync(file)) bad.push(`${l.value}: ${file} does not exist`);
    } else if (u.origin === ui.origin) {
      const m = u.pathname.match(/^\/namespaces\/([^/]+)\/workflows\/([^/]+)(?:\/([^/]+)\/history)?$/);
      if (!m || m[1] !== 'default' || !workflowIds.includes(decodeURIComponent(m[2]!))) bad.push(`${l.value}: not a Temporal UI run page of a known workflow`);
    } else {
      bad.push(`${l.value}: points outside the report folder and the Temporal UI`);
    }
  }
  return bad;
}

test('reports a referee can navigate: every link resolves, the Runs table fits at 1280 px', { timeout: 240_000 }, async (t) => {
  if (!chromiumAvailable()) return t.skip('Debian chromium is not installed (/usr/bin/chromium); bootstrap --test installs it');
  // Three reproductions with evidence reports, one skipped run without; names long enough to overflow a naive table.
  const reports: Awaited<ReturnType<typeof writeHostileReport>>[] = [];
  for (const k of [1, 2, 3]) reports.push(await writeHostileReport({ stateDir, workflowId: `campaign-nightly-navigation/task_hostile_with_a_long_identifier_${k}|${LONG_MODEL}|physvec|t1`, runId: runIdOf(k) }));
  const acts = createResultsActivities();
  const campaignId = 'navigation-1';
  const records = [
    ...reports.map((r, k) => ({ ...run({ campaignId, task: `task_hostile_with_a_long_identifier_${k + 1}`, model: LONG_MODEL, m: { status: 'failed', executable: true, executableAtIteration: 1, reportPath: r.htmlPath, message: `scientific verifier: rubric grade 0.6 — ${'a long message '.repeat(6)}` } }), workflowId: r.workflowId })),
    run({ campaignId, task: 'task_skipped', model: LONG_MODEL, m: null }),
  ];
  await acts.openCampaign({ campaignId, workflowId: `campaign-${campaignId}`, scheduleId: null, label: 'navigation', spec: { models: [LONG_MODEL] }, planned: records.length });
  for (const r of records) await acts.recordRun(r);
  await acts.closeCampaign({ campaignId, status: 'completed' });
  const campaign = await acts.writeCampaignReport({ campaignId });
  const workflowIds = [...records.map((r) => r.workflowId), `campaign-${campaignId}`];

  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));

    await t.test('evidence report', async () => {
      const r = reports[0]!;
      await page.goto(`file://${r.htmlPath}`);
      assert.deepEqual(await unresolvedLinks(page, r.htmlPath, workflowIds), []);
      const ui = await page.locator('#temporal-ui').getAttribute('href');
      assert.equal(ui, `${uiUrl(r.workflowId)}/${r.runId}/history`, 'the run in the Temporal UI, by workflow id and run id');
      for (const href of ['final.py', 'figure.png', 'report.json', 'artifacts/author-script.py', 'artifacts/rubric-1.json', 'artifacts/programming-1.json', 'artifacts/repair-1-programming-1.diff', 'artifacts/final-run/data/energies.csv']) {
        assert.equal(await page.locator(`a[href="${href}"]`).count() > 0, true, `links ${href}`);
      }
      assert.ok(await page.locator('#figure').evaluate((el) => (el as HTMLImageElement).naturalWidth > 0), 'the figure loads from its relative path');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), 'no horizontal overflow at 1280 px');
    });

    await t.test('campaign page', async () => {
      await page.goto(`file://${campaign.htmlPath}`);
      assert.deepEqual(await unresolvedLinks(page, campaign.htmlPath, workflowIds), []);
      const rows = page.locator('#runs-table tbody tr');
      assert.equal(await rows.count(), records.length);
      for (const [i, rec] of records.entries()) {
        const link = rows.nth(i).locator('a.run-report');
        const reportPath = rec.metrics?.reportPath;
        if (!reportPath) {
          assert.equal(await link.count(), 0, `${rec.key}: no report, no link`);
          continue;
        }
        const href = await link.getAttribute('href');
        assert.ok(href && !path.isAbsolute(href), `${rec.key}: a relative link (${href})`);
        assert.equal(path.resolve(path.dirname(campaign.htmlPath), href), reportPath, `${rec.key}: links its own evidence report`);
        assert.equal(await rows.nth(i).locator('a.run-ui').getAttribute('href'), uiUrl(rec.workflowId));
      }
      const fit = await page.evaluate(() => {
        const table = document.getElementById('runs-table')!;
        const section = document.getElementById('runs')!;
        return { table: table.getBoundingClientRect().right, section: section.getBoundingClientRect().right, page: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth };
      });
      assert.ok(fit.table <= fit.section + 0.5, `the Runs table stays inside its section (${JSON.stringify(fit)})`);
      assert.ok(fit.page <= fit.viewport, `no horizontal overflow at 1280 px (${JSON.stringify(fit)})`);
    });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
