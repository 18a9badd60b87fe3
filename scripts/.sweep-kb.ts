import { loadKb, } from '../lib/kb/search.js';
import { loadLabelledQueries, canonicalizer, hitAnswers } from '../lib/kb/recall.js';
import { analyseQuery } from '../lib/kb/query.js';
import { searchPlan, type SearchTuning } from '../lib/kb/index-options.js';
const kb = await loadKb();
const set = await loadLabelledQueries();
const canon = canonicalizer(kb);
function run(t: SearchTuning) {
  const ranks: (number|null)[] = [];
  for (const q of set.queries) {
    const a = analyseQuery(q.query);
    const plan = searchPlan(kb.chunks, a, (c) => c.toolchain === q.toolchain || c.toolchain === 'general', t);
    const res = kb.index.search(plan.query, plan.options);
    const seen = new Set<string>(); let rank: number | null = null;
    for (const r of res) { const c = kb.chunks[r.id as number]!; if (seen.has(c.qualifiedName)) continue; seen.add(c.qualifiedName); if (hitAnswers({ qualifiedName: c.qualifiedName, aliases: c.aliases }, q.targets, canon)) { rank = seen.size; break; } if (seen.size >= 5) break; }
    ranks.push(rank);
  }
  const even = ranks.filter((_, i) => i % 2 === 0), odd = ranks.filter((_, i) => i % 2 === 1);
  const rec = (r: (number|null)[]) => (r.filter((x) => x !== null).length / r.length).toFixed(3);
  return `all ${rec(ranks)} even ${rec(even)} odd ${rec(odd)} misses ${set.queries.filter((_, i) => ranks[i] === null).map((q) => q.id).join(',')}`;
}
const grid: [string, SearchTuning][] = [
  ['default', {}],
  ['name3 qn1 al0.5', { boosts: { name: 3, qualifiedName: 1, aliases: 0.5 } }],
  ['name4 qn1.5', { boosts: { name: 4, qualifiedName: 1.5 } }],
  ['name3 qn1 al0.5 sum3', { boosts: { name: 3, qualifiedName: 1, aliases: 0.5, summary: 3 } }],
  ['name2 qn1 al0.5 sum2', { boosts: { name: 2, qualifiedName: 1, aliases: 0.5, summary: 2 } }],
  ['name6 sum4', { boosts: { summary: 4 } }],
  ['body 0.5', { boosts: { body: 0.5 } }],
  ['body 1.5', { boosts: { body: 1.5 } }],
  ['acr 2', { acronymBoost: 2 }],
  ['acr 8', { acronymBoost: 8 }],
  ['acr 0', { acronymBoost: 0.0001 }],
  ['mod 1', { moduleWeight: 1 }],
  ['mod 0.5', { moduleWeight: 0.5 }],
];
for (const [name, t] of grid) console.log(name.padEnd(26), run(t));
