// The campaign report as one HTML page: inline CSS, the five figures as inline SVG, the metrics, the
// comparison with the previous campaign of the same schedule, and every run with a link to its
// evidence report (relative to this page) and to the run in the Temporal UI. No script, nothing
// fetched from elsewhere. This file turns the data into table cells; templates/campaign.eta lays
// them out, escaping every value.
import path from 'node:path';
import type { CampaignRecord, RunRecord } from '../../schemas/campaign.js';
import type { CampaignMetrics, GroupMetrics } from '../metrics/types.js';
import { TOLERANCE, scopeName, type Comparison } from '../metrics/regressions.js';
import { uiUrl } from '../temporal/connection.js';
import { FIGURE_CAPTIONS, FIGURE_IDS, type FigureId } from './campaign-figures.js';
import { renderTemplate } from './engine.js';
import { reportFolderName } from './dirs.js';

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
  /** The folder the page is written to: run reports are linked relative to it. */
  dir: string;
}

const pct = (x: number | null | undefined) => (x == null ? '–' : `${(100 * x).toFixed(1)}\u00a0%`);
const num = (x: number | null | undefined, digits = 0) => (x == null ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const usd = (x: number | null | undefined) => (x == null ? '–' : `$${x.toFixed(4)}`);

function duration(ms: number | null): string {
  if (ms == null) return '–';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** A table of plain-text cells (the template escapes them), with an optional class per row. */
export interface TextTable { id: string; head: string[]; rows: string[][]; cls?: string[] }

const METRIC_HEAD = ['topic', 'model', 'framework', 'runs', 'tasks', 'S (pass@8)', 'unit acc.', 'integration acc.', 'T_i / run', 'T_o / run', 'T_c / run', 'cost / run', 'wall / run', 'completed tasks'];
function metricsTable(id: string, gs: GroupMetrics[]): TextTable {
  return {
    id, head: METRIC_HEAD,
    rows: gs.map((g) => [
      g.topic === '*' ? 'all' : g.topic, g.model, g.framework, num(g.runs), num(g.tasks), pct(g.S),
      pct(g.unitAccuracy), pct(g.integrationAccuracy), num(g.tokensIn), num(g.tokensOut), num(g.toolCalls, 1),
      usd(g.costUsd), duration(g.wallMs), `${g.completedTasks} / ${g.tasks}`,
    ]),
  };
}

function comparisonView(p: CampaignPage) {
  if (!p.previous || !p.comparison) return null;
  const c = p.comparison;
  const fmt = (metric: string, v: number) => (/^S$|accuracy|pass rate/.test(metric) ? pct(v) : /cost/.test(metric) ? usd(v) : num(v, Number.isInteger(v) ? 0 : 1));
  const rows = (xs: typeof c.regressions) => xs.map((r) => [r.metric, r.scope, fmt(r.metric, r.before), fmt(r.metric, r.after)]);
  const head = ['metric', 'scope', 'before', 'after'];
  return {
    previous: p.previous, comparedScopes: c.comparedScopes,
    tolerance: `Tolerances: S, accuracies and pass rate may drop by ${TOLERANCE.share * 100} points, completed tasks may not drop, per-run tokens, tool calls and cost may rise by ${TOLERANCE.relative * 100} %.`,
    regressions: c.regressions.length ? { id: 'regressions', head, rows: rows(c.regressions), cls: c.regressions.map(() => 'bad') } : null,
    improvements: c.improvements.length ? { id: 'improvements', head, rows: rows(c.improvements), cls: c.improvements.map(() => 'ok') } : null,
    onlyBefore: c.onlyBefore, onlyAfter: c.onlyAfter,
  };
}

/**
 * A run's evidence report, relative to the campaign page (so the state directory can be moved or
 * archived whole), at its place in this state directory's layout (reports/<run>/report.html): the
 * worker that wrote it may have had another state dir, on another host (issue 29.6).
 */
function reportLink(reportPath: string, dir: string): string {
  const name = reportFolderName(reportPath);
  const file = name ? path.join(dir, '..', '..', 'reports', name, 'report.html') : reportPath;
  return path.relative(dir, file).split(path.sep).join('/');
}

/** One row of the Runs table: a few stacked cells, so the table fits the page at 1280 px. */
function runRow(r: RunRecord, dir: string) {
  const x = r.metrics;
  return {
    cls: r.outcome === 'skipped' ? 'skip' : r.outcome === 'error' ? 'bad' : x?.executable ? 'ok' : 'bad',
    task: r.taskId, topicTrial: `${r.topic} · trial ${r.trial}`, model: r.model, framework: r.framework,
    outcome: x?.status ? `${r.outcome} · ${x.status}` : r.outcome,
    executable: x ? (x.executable ? `yes${x.executableAtIteration ? ` (iter. ${x.executableAtIteration})` : ''}` : 'no') : '–',
    accuracy: `${pct(x?.unitAccuracy)} / ${pct(x?.integrationAccuracy)}`,
    completed: x ? (x.scientificCompleted ? 'yes' : 'no') : '–',
    tokens: `${num(x?.tokensIn)} / ${num(x?.tokensOut)} / ${num(x?.toolCalls)}`,
    cost: usd(x?.costUsd), wall: duration(x?.wallMs ?? null),
    workflowId: r.workflowId, ui: uiUrl(r.workflowId),
    report: x?.reportPath ? reportLink(x.reportPath, dir) : null,
    message: x?.message,
  };
}

export function campaignView(p: CampaignPage) {
  const { campaign: c, metrics: m } = p;
  const t = m.totals;
  return {
    title: `Campaign ${c.label ?? c.campaignId}`,
    scripted: t.scripted,
    notices: p.notices,
    campaign: c,
    campaignUi: uiUrl(c.workflowId),
    wall: `${duration(p.wallMs)} (sum over runs ${duration(t.runWallMs)})`,
    runs: `${t.runs} run${t.runs === 1 ? '' : 's'}, ${t.skipped} skipped by early stop, ${t.errors} failed outright; ${t.recorded} recorded of ${t.planned ?? '?'} planned`,
    tokens: `${num(t.tokensIn)} in / ${num(t.tokensOut)} out, ${num(t.toolCalls)} tool calls, ${usd(t.costUsd)}`,
    passCriterion: m.passCriterion,
    spec: JSON.stringify(c.spec, null, 2),
    comparison: comparisonView(p),
    figures: FIGURE_IDS.map((id) => ({ id, label: id.replace('fig', 'Fig. '), caption: FIGURE_CAPTIONS[id], svg: p.svgs[id] ?? null })),
    metricsTable: metricsTable('metrics-table', m.groups),
    byPairTable: metricsTable('metrics-by-pair', m.byModelFramework),
    passAtN: { id: 'pass-at-n', head: ['model', 'framework', 'tasks', 'pass rate'], rows: m.passAtN.map((x) => [x.model, x.framework, num(x.tasks), x.passRate.map((v, i) => `N=${i + 1}: ${pct(v)}`).join(', ') || '–']) },
    completed: { id: 'completed', head: ['model', 'framework', 'completed / tasks', 'cumulative by Scientific iteration'], rows: m.completed.map((x) => [x.model, x.framework, `${x.completed} / ${x.tasks}`, x.byScientificIteration.map((v, i) => `k=${i + 1}: ${v}`).join(', ') || '–']) },
    runRows: p.records.map((r) => runRow(r, p.dir)),
    generatedAt: p.generatedAt,
    scopeNames: scopeName({ topic: 'topic', model: 'model', framework: 'framework' }),
  };
}

export function renderCampaignHtml(p: CampaignPage): string {
  return renderTemplate('campaign', campaignView(p));
}
