import { readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { tokenize, processTerm } from '../lib/kb/tokenize.js';
import { indexOptions } from '../lib/kb/index-options.js';
const dir = process.argv[2];
const chunks = JSON.parse(readFileSync(dir + '/chunks.json', 'utf8'));
let t = performance.now(); let n = 0;
for (const c of chunks) for (const f of [c.body, c.summary, c.qualifiedName, c.signature]) { for (const tok of tokenize(f)) { n++; } }
console.log('tokenize', Math.round(performance.now() - t), 'ms', n, 'tokens');
t = performance.now();
for (const c of chunks) for (const f of [c.body, c.summary, c.qualifiedName, c.signature]) { for (const tok of tokenize(f)) { processTerm(tok); } }
console.log('tokenize+process', Math.round(performance.now() - t), 'ms');
t = performance.now();
const ms = new MiniSearch({ ...indexOptions() }); ms.addAll(chunks);
console.log('index', Math.round(performance.now() - t), 'ms', ms.termCount, 'terms');
t = performance.now();
const ms2 = new MiniSearch({ fields: ['body'], idField: 'id' }); ms2.addAll(chunks);
console.log('index default tokenizer body only', Math.round(performance.now() - t));
for (const fields of [['body'], ['summary','signature','members','section'], ['name','qualifiedName','aliases']]) {
  t = performance.now();
  const m = new MiniSearch({ ...indexOptions(), fields }); m.addAll(chunks);
  console.log('mine', fields.join(','), Math.round(performance.now() - t));
}
