// The summary table `bench run` and `bench report` print: one row per (model, framework) from the
// report's metrics, plus the comparison with the previous campaign when there is one.
import { readFileSync } from 'node:fs';
import type { CampaignMetrics, GroupMetrics } from '../../lib/metrics/types.js';
import { line } from '../output.js';
import { textTable } from '../text-table.js';

export interface CampaignReportJson {
  campaign: { campaignId: string; status: string; planned: number; scheduleId: string | null; label: string | null };
  wallMs: number;
  metrics: CampaignMetrics;
  comparison: { previous: string | null; regressions: { metric: string; scope: string; before: number; after: number }[]; improvements?: unknown[] };
  notices: string[];
}

export function readReportJson(file: string): CampaignReportJson {
  return JSON.parse(readFileSync(file, 'utf8')) as CampaignReportJson;
}

const pct = (v: number | null | undefined) => (v == null ? '–' : `${(100 * v).toFixed(0)}%`);
const num = (v: number | null | undefined, d = 0) => (v == null ? '–' : v.toFixed(d));

export interface SummaryRow {
  model: string;
  framework: string;
  runs: number;
  skipped: number;
  S: number | null;
  unitAccuracy: number | null;
  integrationAccuracy: number | null;
  completedTasks: number;
  tasks: number;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number;
}

export function summaryRows(m: CampaignMetrics): SummaryRow[] {
  return m.byModelFramework.map((g: GroupMetrics) => ({
    model: g.model,
    framework: g.framework,
    runs: g.runs,
    skipped: g.skipped,
    S: g.S,
    unitAccuracy: g.unitAccuracy,
    integrationAccuracy: g.integrationAccuracy,
    completedTasks: g.completedTasks,
    tasks: g.tasks,
    tokensIn: g.tokensIn,
    tokensOut: g.tokensOut,
    costUsd: g.totalCostUsd,
  }));
}

export function printSummary(r: CampaignReportJson): void {
  const rows = summaryRows(r.metrics);
  const header = ['model', 'framework', 'runs', 'skipped', 'S', 'unit', 'integr.', 'completed', 'T_i', 'T_o', 'cost $'];
  const cells = rows.map((x) => [
    x.model, x.framework, String(x.runs), String(x.skipped), pct(x.S), pct(x.unitAccuracy), pct(x.integrationAccuracy),
    `${x.completedTasks}/${x.tasks}`, num(x.tokensIn), num(x.tokensOut), x.costUsd.toFixed(4),
  ]);
  // Names left-aligned, numbers right-aligned.
  for (const l of textTable(header, cells, { align: header.map((_, i) => (i < 2 ? 'left' : 'right')) })) line(l);
  if (r.comparison.previous) {
    line(`compared with ${r.comparison.previous}: ${r.comparison.regressions.length} regression(s)`);
    for (const g of r.comparison.regressions) line(`  ${g.scope} ${g.metric}: ${g.before} → ${g.after}`);
  }
  for (const n of r.notices) line(`note: ${n}`);
}
