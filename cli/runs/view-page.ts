// The index page of `physvec view` (lib/reports/templates/index.eta, escaped by the report engine):
// one row per run — verdict, task, model, tokens, cost, stage, build, start and end, a link to its
// evidence report and to its page in the Temporal UI — and the campaigns with their runs beneath.
import { renderTemplate } from '../../lib/reports/engine.js';
import { runUiUrl, uiQueryUrl } from '../../lib/reports/temporal-link.js';
import type { IndexCampaign, IndexRow, RunIndex } from './view-index.js';
import { VIEW_QUERY } from './view-sources.js';

/** `openai:gpt-5.1` → `openai/gpt-5.1`; every `scripted:<cassette>` → `scripted`. */
function modelShown(model: string | null): string {
  if (!model) return '?';
  if (model.startsWith('scripted:')) return 'scripted';
  const i = model.indexOf(':');
  return i > 0 ? `${model.slice(0, i)}/${model.slice(i + 1)}` : model;
}

const GOOD = new Set(['passed', 'completed']);
const PENDING = new Set(['running', 'paused', 'skipped']);
const time = (iso: string | null) => (iso ? iso.replace(/\.\d+Z$/, 'Z') : '–');

function rowView(r: IndexRow, hrefOf: (file: string) => string) {
  const verdict = r.verdict ?? '?';
  return {
    workflowId: r.workflowId,
    verdict,
    cls: GOOD.has(verdict) ? 'ok' : PENDING.has(verdict) ? 'warn' : 'bad',
    task: r.taskId ?? (r.kind === 'campaign' ? `${(r as IndexCampaign).children.length} run(s)` : '?'),
    model: r.kind === 'campaign' ? '' : `${modelShown(r.model)}${r.framework && r.framework !== 'physvec' ? ` (${r.framework})` : ''}`,
    modelId: r.model ?? '',
    tokens: r.tokensIn === null ? '–' : `${r.tokensIn} / ${r.tokensOut ?? 0}`,
    cost: r.costUsd === null ? '–' : `$${r.costUsd.toFixed(4)}`,
    stage: r.stage ?? '–',
    build: r.build ?? '–',
    start: time(r.startTime),
    end: time(r.endTime),
    reportHref: r.reportFile ? hrefOf(r.reportFile) : null,
    uiHref: runUiUrl(r.workflowId, r.runId ?? undefined),
    label: r.kind === 'campaign' ? (r as IndexCampaign).label : null,
  };
}

interface PageFacts {
  generatedAt: string;
  /** The sources read, for the page's first line. */
  sources: string;
  problems: string[];
  /** How the page links a report file: relative to the index (static) or a server path. */
  hrefOf: (file: string) => string;
}

export function renderIndexPage(index: RunIndex, facts: PageFacts): string {
  return renderTemplate('index', {
    generatedAt: facts.generatedAt,
    sources: facts.sources,
    problems: facts.problems,
    uiAll: uiQueryUrl(VIEW_QUERY),
    campaigns: index.campaigns.map((c) => ({ ...rowView(c, facts.hrefOf), children: c.children.map((r) => rowView(r, facts.hrefOf)) })),
    runs: index.runs.map((r) => rowView(r, facts.hrefOf)),
  });
}
