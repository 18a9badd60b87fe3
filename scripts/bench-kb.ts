// Knowledge-base benchmark: corpus size, build and index time, query latency, recall@5 on the labelled
// set. `node --import tsx scripts/bench-kb.ts [--force] [--json] [--misses] [--sweep]`
// --sweep re-scores the set with each ranking knob halved/doubled/switched off: recall that holds across
// the neighbourhood is a property of the method, not of a lucky setting.
import MiniSearch from 'minisearch';
import { buildKb } from '../lib/kb/build.js';
import { FIELD_BOOSTS, indexOptions, type SearchTuning } from '../lib/kb/index-options.js';
import { evaluateRecall, loadLabelledQueries, unreachableTargets } from '../lib/kb/recall.js';
import { loadKb } from '../lib/kb/search.js';
import { introspectRunner } from '../runners/kb/introspect-runners.js';
import type { KbChunk } from '../schemas/kb.js';
import { answerHelp } from './bench-support.js';

answerHelp(import.meta.url);

const argv = new Set(process.argv.slice(2));
const json = argv.has('--json');
const log = (s: string) => {
  if (!json) console.log(s);
};

const t0 = performance.now();
const built = await buildKb({ force: argv.has('--force'), runner: introspectRunner, onProgress: (m) => log(`  build: ${m}`) });
const buildWallMs = Math.round(performance.now() - t0);
const tl = performance.now();
const kb = await loadKb();
const loadMs = Math.round(performance.now() - tl);

// Index time measured here, on the loaded chunks, so the figure is from this machine now.
const ti = performance.now();
new MiniSearch<KbChunk>(indexOptions()).addAll(kb.chunks);
const reindexMs = Math.round(performance.now() - ti);

const set = await loadLabelledQueries();
const filtered = evaluateRecall(kb, set.queries, 5, true);
const unfiltered = evaluateRecall(kb, set.queries, 5, false);
const unreachable = unreachableTargets(kb, set.queries);
const m = kb.manifest;

const summary = {
  chunks: m.chunks.total,
  chunksByToolchain: m.chunks.byToolchain,
  toolchains: Object.fromEntries(Object.entries(m.toolchains).map(([k, v]) => [k, { ...v.packages, symbols: v.symbols, cached: v.cached }])),
  build: { skipped: built.skipped, reason: built.reason, thisRunMs: buildWallMs, lastBuildMs: m.buildMs, runner: m.runner },
  indexMs: reindexMs,
  loadMs,
  queries: set.queries.length,
  latencyMs: { median: round(filtered.medianMs), p95: round(filtered.p95Ms) },
  recallAt5: round(filtered.recall),
  mrrAt5: round(filtered.mrr),
  recallAt5Unfiltered: round(unfiltered.recall),
  misses: filtered.outcomes.filter((o) => o.firstRelevantRank === null).map((o) => ({ id: o.id, top: o.top })),
  unreachableTargets: unreachable,
};

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

if (json) {
  console.log(JSON.stringify(summary, null, 2));
} else {
  log(`corpus: ${summary.chunks} chunks (${Object.entries(summary.chunksByToolchain).map(([k, v]) => `${k} ${v}`).join(', ')})`);
  log(`versions: ${Object.entries(m.toolchains).map(([k, v]) => `${k} ${Object.entries(v.packages).map(([d, ver]) => `${d}=${ver}`).join('+')}`).join('; ')}`);
  log(`build: ${built.skipped ? 'skipped (up to date)' : `rebuilt (${built.reason})`} in ${buildWallMs} ms now; last full build ${m.buildMs} ms via ${m.runner}`);
  log(`index build (MiniSearch, ${summary.chunks} chunks): ${reindexMs} ms; load from disk: ${loadMs} ms`);
  log(`query latency over ${set.queries.length} queries: median ${summary.latencyMs.median} ms, p95 ${summary.latencyMs.p95} ms`);
  log(`recall@5: ${summary.recallAt5} (with the query's toolchain, as agents call it); ${summary.recallAt5Unfiltered} over all toolchains; MRR@5 ${summary.mrrAt5}`);
  if (unreachable.length) log(`labels naming nothing in the corpus: ${JSON.stringify(unreachable)}`);
  if (argv.has('--misses')) {
    for (const o of filtered.outcomes) {
      log(`${o.firstRelevantRank ? `ok@${o.firstRelevantRank}` : 'MISS'}  ${o.id}: ${o.top.join(' | ')}`);
    }
  }
}

if (argv.has('--sweep')) {
  const variants: [string, SearchTuning][] = [['defaults', {}]];
  for (const [field, boost] of Object.entries(FIELD_BOOSTS)) {
    variants.push([`${field} x0.5`, { boosts: { [field]: boost / 2 } }], [`${field} x2`, { boosts: { [field]: boost * 2 } }]);
  }
  variants.push(['no acronyms', { acronymBoost: 1e-9 }], ['acronyms x2', { acronymBoost: 8 }], ['module weight 1', { moduleWeight: 1 }], ['module weight 0.5', { moduleWeight: 0.5 }]);
  const rows = variants.map(([name, t]) => ({ name, recall: evaluateRecall(kb, set.queries, 5, true, t).recall }));
  const values = rows.map((r) => r.recall);
  if (json) console.log(JSON.stringify({ sweep: rows }, null, 2));
  else {
    for (const r of rows) log(`  sweep ${r.name.padEnd(20)} recall@5 ${r.recall.toFixed(3)}`);
    log(`sweep: recall@5 between ${Math.min(...values).toFixed(3)} and ${Math.max(...values).toFixed(3)} over ${rows.length} settings`);
  }
}
