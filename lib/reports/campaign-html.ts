// The campaign report as one self-contained HTML page: inline CSS, the five figures as inline SVG, the
// metrics, the comparison with the previous campaign of the same schedule, and every run. No script,
// no external URL: it opens from disk, from an artifact store or as a mail attachment alike.
import type { CampaignRecord, RunRecord } from '../../schemas/campaign.js';
import type { CampaignMetrics, GroupMetrics } from '../metrics/types.js';
import { TOLERANCE, scopeName, type Comparison } from '../metrics/regressions.js';
import { FIGURE_CAPTIONS, FIGURE_IDS, type FigureId } from './campaign-figures.js';

export interface CampaignPage {
  campaign: CampaignRecord;
  metrics: CampaignMetrics;
  records: RunRecord[];
  previous: CampaignRecord | null;
  comparison: Comparison | null;
  svgs: Partial<Record<FigureId, string>>;
  notices: string[];
  wallMs: number | null;
  generatedAt: string;
}

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const pct = (x: number | null | undefined) => (x == null ? '–' : `${(100 * x).toFixed(1)}\u00a0%`);
const num = (x: number | null | undefined, digits = 0) => (x == null ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const usd = (x: number | null | undefined) => (x == null ? '–' : `$${x.toFixed(4)}`);

export function duration(ms: number | null): string {
  if (ms == null) return '–';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${(ms / 1000).toFixed(1)} s`;
}

const table = (id: string, head: string[], rows: string[][], cls: string[] = []) =>
  `<table id="${id}"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r, i) => `<tr${cls[i] ? ` class="${cls[i]}"` : ''}>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;

function metricsRows(gs: GroupMetrics[]): string[][] {
  return gs.map((g) => [
    esc(g.topic === '*' ? 'all' : g.topic), esc(g.model), esc(g.framework), num(g.runs), num(g.tasks), pct(g.S),
    pct(g.unitAccuracy), pct(g.integrationAccuracy), num(g.tokensIn), num(g.tokensOut), num(g.toolCalls, 1),
    usd(g.costUsd), duration(g.wallMs), `${g.completedTasks} / ${g.tasks}`,
  ]);
}
const METRIC_HEAD = ['topic', 'model', 'framework', 'runs', 'tasks', 'S (pass@8)', 'unit acc.', 'integration acc.', 'T_i / run', 'T_o / run', 'T_c / run', 'cost / run', 'wall / run', 'completed tasks'];

function comparisonSection(p: CampaignPage): string {
  if (!p.previous || !p.comparison) {
    return `<section id="comparison"><h2>Comparison</h2><p class="none">No previous campaign of this schedule${p.campaign.scheduleId ? ` (${esc(p.campaign.scheduleId)})` : ''} or label to compare with: no previous campaign.</p></section>`;
  }
  const c = p.comparison;
  const fmt = (metric: string, v: number) => (/^S$|accuracy|pass rate/.test(metric) ? pct(v) : /cost/.test(metric) ? usd(v) : num(v, Number.isInteger(v) ? 0 : 1));
  const rows = (xs: typeof c.regressions) => xs.map((r) => [esc(r.metric), esc(r.scope), fmt(r.metric, r.before), fmt(r.metric, r.after)]);
  return `<section id="comparison"><h2>Comparison with the previous campaign</h2>
<p>Compared with <b>${esc(p.previous.campaignId)}</b> (${esc(p.previous.label ?? '')} started ${esc(p.previous.startedAt)}, ended ${esc(p.previous.endedAt)}) over ${c.comparedScopes} topic × model × framework groups.
Tolerances: S, accuracies and pass rate may drop by ${TOLERANCE.share * 100} points, completed tasks may not drop, per-run tokens, tool calls and cost may rise by ${TOLERANCE.relative * 100} %.</p>
${c.regressions.length
    ? `<p class="bad"><b>${c.regressions.length} regression${c.regressions.length > 1 ? 's' : ''}</b></p>${table('regressions', ['metric', 'scope', 'before', 'after'], rows(c.regressions), c.regressions.map(() => 'bad'))}`
    : '<p class="ok" id="no-regressions">No regressions.</p>'}
${c.improvements.length ? `<h3>Improvements</h3>${table('improvements', ['metric', 'scope', 'before', 'after'], rows(c.improvements), c.improvements.map(() => 'ok'))}` : ''}
${c.onlyBefore.length ? `<p>Only in the previous campaign (not compared): ${c.onlyBefore.map(esc).join('; ')}</p>` : ''}
${c.onlyAfter.length ? `<p>New in this campaign (not compared): ${c.onlyAfter.map(esc).join('; ')}</p>` : ''}
</section>`;
}

export function renderCampaignHtml(p: CampaignPage): string {
  const { campaign: c, metrics: m } = p;
  const title = `Campaign ${c.label ?? c.campaignId}`;
  const figures = FIGURE_IDS.map((id) =>
    p.svgs[id]
      ? `<figure data-figure="${id}" id="${id}">${p.svgs[id]}<figcaption><b>${id.replace('fig', 'Fig. ')}</b> ${esc(FIGURE_CAPTIONS[id])}</figcaption></figure>`
      : `<figure data-figure="${id}" id="${id}" class="missing"><p>Not rendered (see notices).</p><figcaption><b>${id.replace('fig', 'Fig. ')}</b> ${esc(FIGURE_CAPTIONS[id])}</figcaption></figure>`,
  ).join('\n');
  const passRows = m.passAtN.map((x) => [esc(x.model), esc(x.framework), num(x.tasks), x.passRate.map((v, i) => `N=${i + 1}: ${pct(v)}`).join(', ') || '–']);
  const completedRows = m.completed.map((x) => [esc(x.model), esc(x.framework), `${x.completed} / ${x.tasks}`, x.byScientificIteration.map((v, i) => `k=${i + 1}: ${v}`).join(', ') || '–']);
  const runRows = p.records.map((r) => {
    const x = r.metrics;
    return [
      esc(r.taskId), esc(r.topic), esc(r.model), esc(r.framework), num(r.trial), esc(r.outcome), esc(x?.status ?? ''),
      x ? (x.executable ? 'yes' : 'no') : '–', num(x?.executableAtIteration ?? null), pct(x?.unitAccuracy), pct(x?.integrationAccuracy),
      x ? (x.scientificCompleted ? 'yes' : 'no') : '–', num(x?.tokensIn), num(x?.tokensOut), num(x?.toolCalls), usd(x?.costUsd), duration(x?.wallMs ?? null),
      `<code>${esc(r.workflowId)}</code>${x?.reportPath ? `<br><small>${esc(x.reportPath)}</small>` : ''}${x?.message ? `<br><small>${esc(x.message)}</small>` : ''}`,
    ];
  });
  const runCls = p.records.map((r) => (r.outcome === 'skipped' ? 'skip' : r.outcome === 'error' ? 'bad' : r.metrics?.executable ? 'ok' : 'bad'));
  const t = m.totals;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5rem auto;max-width:1200px;padding:0 1rem;color:#222}
h1{margin-bottom:.2rem} .sub{color:#555;margin-top:0}
.notice{background:#fff4d6;border:1px solid #e0c060;padding:.5rem .8rem;margin:.6rem 0;border-radius:4px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem} dl.facts dt{font-weight:600}
table{border-collapse:collapse;margin:.6rem 0;font-size:.85rem} th,td{border:1px solid #ccc;padding:.2rem .45rem;text-align:left;vertical-align:top}
th{background:#f0f0f0} tr.ok td:first-child{border-left:4px solid #2a8a2a} tr.bad td:first-child{border-left:4px solid #c0392b} tr.skip{color:#888}
p.bad{color:#c0392b} p.ok{color:#2a8a2a} p.none{color:#555}
figure{margin:1.2rem 0;padding:.6rem;border:1px solid #ddd;border-radius:4px;overflow-x:auto} figure svg{max-width:100%;height:auto;display:block}
figcaption{font-size:.85rem;color:#444;margin-top:.4rem} figure.missing{background:#fbeaea}
pre{background:#f7f7f7;padding:.6rem;overflow-x:auto;font-size:.8rem} .scroll{overflow-x:auto}
</style></head><body>
<header>
<h1>${esc(title)}</h1>
<p class="sub">PhysVEC benchmark campaign report${t.scripted ? ' — <b>scripted model</b>' : ''}</p>
${p.notices.map((n) => `<p class="notice">${esc(n)}</p>`).join('\n')}
<dl class="facts">
<dt>Campaign id</dt><dd><code id="campaign-id">${esc(c.campaignId)}</code></dd>
<dt>Workflow</dt><dd><code>${esc(c.workflowId)}</code></dd>
<dt>Schedule</dt><dd>${esc(c.scheduleId ?? 'none')}</dd>
<dt>Label</dt><dd>${esc(c.label ?? 'none')}</dd>
<dt>Status</dt><dd>${esc(c.status)}</dd>
<dt>Started / ended</dt><dd>${esc(c.startedAt)} / ${esc(c.endedAt ?? 'still running')}</dd>
<dt>Wall time</dt><dd id="wall-time">${duration(p.wallMs)} (sum over runs ${duration(t.runWallMs)})</dd>
<dt>Runs</dt><dd>${t.runs} run${t.runs === 1 ? '' : 's'}, ${t.skipped} skipped by early stop, ${t.errors} failed outright; ${t.recorded} recorded of ${t.planned ?? '?'} planned</dd>
<dt>Tokens</dt><dd>${num(t.tokensIn)} in / ${num(t.tokensOut)} out, ${num(t.toolCalls)} tool calls, ${usd(t.costUsd)}</dd>
<dt>Pass criterion</dt><dd>${esc(m.passCriterion)}</dd>
</dl>
<details><summary>Campaign spec</summary><pre id="spec">${esc(JSON.stringify(c.spec, null, 2))}</pre></details>
</header>
${comparisonSection(p)}
<section id="figures"><h2>Figures</h2>
${figures}
</section>
<section id="metrics"><h2>Metrics by topic × model × framework</h2>
<div class="scroll">${table('metrics-table', METRIC_HEAD, metricsRows(m.groups))}</div>
<h3>By model × framework (all topics)</h3>
<div class="scroll">${table('metrics-by-pair', METRIC_HEAD, metricsRows(m.byModelFramework))}</div>
<h3>Pass rate vs number of trials (${esc(m.passCriterion)})</h3>
${table('pass-at-n', ['model', 'framework', 'tasks', 'pass rate'], passRows)}
<h3>Completed tasks (physically valid results)</h3>
${table('completed', ['model', 'framework', 'completed / tasks', 'cumulative by Scientific iteration'], completedRows)}
</section>
<section id="runs"><h2>Runs</h2>
<div class="scroll">${table('runs-table', ['task', 'topic', 'model', 'framework', 'trial', 'outcome', 'status', 'executable', 'exec. at iter.', 'unit acc.', 'integration acc.', 'completed', 'T_i', 'T_o', 'T_c', 'cost', 'wall', 'workflow'], runRows, runCls)}</div>
</section>
<footer><p class="sub">Generated ${esc(p.generatedAt)} by physvec from the results store. Scope names: ${esc(scopeName({ topic: 'topic', model: 'model', framework: 'framework' }))}.</p></footer>
</body></html>
`;
}
