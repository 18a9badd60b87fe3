// Runs one physvec command line in this process and prints, as one JSON line on fd 3, every module it
// loaded: the ES modules seen by a load hook (our .ts files, ESM packages) and the CommonJS ones in
// require's cache (Temporal's SDK, better-sqlite3). tests/cli/lazy-verbs.test.ts runs it as a child.
import { register, createRequire } from 'node:module';
import { writeSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';

const seen: string[] = [];
const { port1, port2 } = new MessageChannel();
port1.on('message', (url: string) => seen.push(url));
port1.unref();
const hook = `export async function initialize({ port }) { globalThis.__port = port; }
export async function load(url, context, next) { globalThis.__port.postMessage(url); return next(url, context); }`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { port: port2 }, transferList: [port2] });

const { runPhysvec } = await import('../../cli/program.js');
const code = await runPhysvec(process.argv.slice(2));
await new Promise((r) => setTimeout(r, 50)); // the hook's last messages
const cjs = Object.keys(createRequire(import.meta.url).cache);
writeSync(3, `${JSON.stringify({ code, modules: [...seen, ...cjs] })}\n`);
process.exit(0);
