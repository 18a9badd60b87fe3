// The campaign report's five figures: our plotting script (runners/plots/campaign_figures.py, trusted
// code, so no sandbox) run with the project venv's matplotlib, reading the metrics JSON and writing
// SVGs, which are then made safe to inline side by side in one HTML page.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { repoRoot, stateDir, venvPython } from '../paths.js';
import type { CampaignMetrics } from '../metrics/types.js';

export const FIGURE_IDS = ['fig5a', 'fig5d', 'fig6a', 'fig6c', 'fig7'] as const;
export type FigureId = (typeof FIGURE_IDS)[number];

export const FIGURE_CAPTIONS: Record<FigureId, string> = {
  fig5a: 'Executability S (share of scripts that run without errors within 8 iterations) by topic, one bar per model × framework (paper Fig. 5a).',
  fig5d: 'Executability vs iteration: share of runs whose full script ran by Programming-verifier iteration k, per framework and topic (paper Fig. 5d).',
  fig6a: 'Mean input tokens T_i, output tokens T_o and tool calls T_c per run, by topic and model × framework; dashed lines are the mean within a topic (paper Fig. 6a).',
  fig6c: 'Pass rate vs number of trials N: fraction of tasks that pass at least once within the first N trials (paper Fig. 6c).',
  fig7: 'Completed tasks: tasks whose results are physically valid, per model × framework, and their cumulative count by Scientific-verifier iteration (paper Fig. 7).',
};

export const FIGURE_SCRIPT = path.join(repoRoot, 'runners', 'plots', 'campaign_figures.py');

export interface RenderedFigures {
  svgs: Partial<Record<FigureId, string>>;
  /** Why figures are missing (no venv, a plotting error), for the report's notices. */
  problems: string[];
  matplotlib: string | null;
}

export async function renderCampaignFigures(metrics: CampaignMetrics, workDir: string, python = venvPython): Promise<RenderedFigures> {
  await fs.mkdir(workDir, { recursive: true });
  const metricsFile = path.join(workDir, 'metrics.json');
  await fs.writeFile(metricsFile, JSON.stringify(metrics));
  const r = await execa(python, [FIGURE_SCRIPT, metricsFile, workDir], {
    reject: false,
    timeout: 120_000,
    stdin: 'ignore',
    // A writable matplotlib cache that persists, so its font cache is built once per state directory.
    env: { MPLBACKEND: 'Agg', MPLCONFIGDIR: path.join(stateDir(), 'cache', 'matplotlib') },
  });
  const problems: string[] = [];
  if (r.failed) problems.push(`the figure script failed (${python} ${path.relative(repoRoot, FIGURE_SCRIPT)}): ${String(r.stderr || r.message || "").trim().split('\n').slice(-3).join(' | ')}`);
  let version: string | null = null;
  try {
    version = (JSON.parse(String(r.stdout).trim().split('\n').at(-1) ?? '{}') as { matplotlib?: string | null }).matplotlib ?? null;
  } catch {
    /* a failed run prints no summary; the problem is reported above */
  }
  const svgs: RenderedFigures['svgs'] = {};
  for (const id of FIGURE_IDS) {
    const file = path.join(workDir, `${id}.svg`);
    try {
      svgs[id] = inlineSvg(await fs.readFile(file, 'utf8'), id);
    } catch {
      if (!r.failed) problems.push(`${id}.svg was not written by the figure script`);
    }
  }
  return { svgs, problems, matplotlib: version };
}

/**
 * An SVG file as an inline element: no XML prolog or DOCTYPE, and every id (with its references)
 * prefixed by the figure id, so five figures on one page cannot pick up each other's clip paths or
 * glyphs.
 */
export function inlineSvg(svg: string, prefix: string): string {
  const start = svg.indexOf('<svg');
  if (start < 0) throw new Error(`${prefix}: not an SVG document`);
  return svg
    .slice(start)
    .replace(/\bid="([^"]+)"/g, (_, id: string) => `id="${prefix}-${id}"`)
    .replace(/url\(#([^)]+)\)/g, (_, id: string) => `url(#${prefix}-${id})`)
    .replace(/\b(xlink:href|href)="#([^"]+)"/g, (_, attr: string, id: string) => `${attr}="#${prefix}-${id}"`)
    .trim();
}
