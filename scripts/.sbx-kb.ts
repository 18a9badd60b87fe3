import { sandboxIntrospectRunner, execaIntrospectRunner } from '../lib/kb/introspect.js';
let t = performance.now();
const r = await sandboxIntrospectRunner(['versions', '--out', 'v.json', 'qiskit', 'nope'], ['v.json'], 60000);
console.log(r, Math.round(performance.now() - t));
t = performance.now();
const r2 = await sandboxIntrospectRunner(['symbols', '--out', 'r.jsonl', '--toolchain', 'tenpy', '--package', 'tenpy=physics-tenpy'], ['r.jsonl'], 200000);
console.log(r2.ok, r2.error, Object.keys(r2.files), (r2.files['r.jsonl'] ?? '').length, Math.round(performance.now() - t));
