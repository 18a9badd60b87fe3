// What every benchmark script shares: `--help` answered from the script's own header comment before
// anything starts, and a throw-away Temporal dev server that is stopped on any exit — the end of the
// run, SIGINT/SIGTERM, an uncaught exception or rejection.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startDevServer, stopDevServer } from '../lib/temporal/dev-server.js';

/** With `--help` or `-h`: print the script's header comment (its usage) and exit 0, having started nothing. */
export function answerHelp(scriptUrl: string): void {
  const args = process.argv.slice(2);
  if (!args.includes('--help') && !args.includes('-h')) return;
  const header: string[] = [];
  for (const l of readFileSync(fileURLToPath(scriptUrl), 'utf8').split('\n')) {
    if (!l.startsWith('//')) break;
    header.push(l.replace(/^\/\/ ?/, ''));
  }
  console.log(header.join('\n'));
  process.exit(0);
}

const cleanups = new Set<() => Promise<void>>();
let handlersInstalled = false;

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const runAll = async () => {
    for (const c of [...cleanups]) await c().catch((err: Error) => console.error(`bench clean-up: ${err.message}`));
  };
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      console.error(`bench: ${signal}, stopping what it started`);
      void runAll().finally(() => process.exit(code));
    });
  }
  const crash = (err: unknown) => {
    console.error(err);
    void runAll().finally(() => process.exit(1));
  };
  process.once('uncaughtException', crash);
  process.once('unhandledRejection', crash);
}

/** Run `stop` once on whichever comes first: the returned function, a signal, a crash. */
export function onAnyExit(stop: () => Promise<void>): () => Promise<void> {
  installHandlers();
  let done: Promise<void> | undefined;
  const once = () => {
    done ??= stop().finally(() => cleanups.delete(once));
    return done;
  };
  cleanups.add(once);
  return once;
}

/** A throw-away dev server in `dir`, stopped on any exit; `stop()` stops it now (once). */
export async function benchServer(server: { dir: string; port: number; uiPort: number }): Promise<{ info: Awaited<ReturnType<typeof startDevServer>>; stop: () => Promise<void> }> {
  const stop = onAnyExit(async () => {
    await stopDevServer({ dir: server.dir, port: server.port });
  });
  const info = await startDevServer(server);
  return { info, stop };
}

/** The median of trials (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
