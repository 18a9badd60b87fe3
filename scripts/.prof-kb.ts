import { readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { tokenize, processTerm } from '../lib/kb/tokenize.js';
import { indexOptions, searchOptions } from '../lib/kb/index-options.js';
const dir = process.argv[2];
const chunks = JSON.parse(readFileSync(dir + '/chunks.json', 'utf8'));
let t = performance.now(); let n = 0;
for (const c of chunks) for (const f of [c.body, c.summary, c.qualifiedName, c.signature]) { for (const tok of tokenize(f)) { processTerm(tok); n++; } }
console.log('tokenize+process', Math.round(performance.now() - t), 'ms', n, 'tokens');
t = performance.now();
const ms = new MiniSearch({ ...indexOptions() }); ms.addAll(chunks);
console.log('index', Math.round(performance.now() - t), 'ms', ms.termCount, 'terms');
t = performance.now();
const ms2 = new MiniSearch({ fields: ['body'], idField: 'id' }); ms2.addAll(chunks);
console.log('index default tokenizer body only', Math.round(performance.now() - t));
for (const prefix of [false, true]) {
  const opts = { ...searchOptions(chunks), prefix: prefix ? (x: string) => x.length >= 5 : false };
  t = performance.now();
  for (let i = 0; i < 20; i++) ms.search('pyscf transform two-electron integrals to molecular orbital basis', opts);
  console.log('search prefix', prefix, (performance.now() - t) / 20, 'ms');
}
