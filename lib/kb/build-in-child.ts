// The knowledge-base build in a child Node process. Introspection already runs in Python processes, but
// chunking and indexing ~17k entries and serialising the index are seconds of synchronous JavaScript:
// on a Temporal worker that would freeze the event loop, so no activity on it could heartbeat. Every
// build a worker may start (a missing or stale KB at run time) comes here; the
// CLI and bootstrap may call buildKb directly.
import { fork } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../paths.js';
import { atNeighbourPriority } from '../process-priority.js';
import { BuildChildMessage, type BuildInChildRequest } from './build-messages.js';
import type { BuildKbOutcome } from './build.js';
import { buildChildEntry as childEntry, kbDir } from './paths.js';

export interface BuildInChildOptions extends BuildInChildRequest {
  onProgress?: (message: string) => void;
}

const inFlight = new Map<string, Promise<BuildKbOutcome>>();

/** buildKb in a child process; concurrent calls for one directory share one child. */
export function buildKbInChild(opts: BuildInChildOptions = {}): Promise<BuildKbOutcome> {
  const dir = path.resolve(opts.dir ?? kbDir());
  let running = inFlight.get(dir);
  if (!running) {
    running = runChild({ ...opts, dir }).finally(() => inFlight.delete(dir));
    inFlight.set(dir, running);
  }
  return running;
}

function runChild({ onProgress, ...request }: BuildInChildOptions & { dir: string }): Promise<BuildKbOutcome> {
  const absolute: BuildInChildRequest = { ...request, manualDirs: request.manualDirs?.map((d) => path.resolve(d)) };
  return new Promise((resolve, reject) => {
    // tsx is resolved from the project root, as bin/physvec.js does; stdout stays clean for `--json` callers.
    // At the neighbours' priority when a raised worker starts it: a build is minutes of CPU, not the worker's own liveness.
    const [execPath, ...execArgv] = atNeighbourPriority([process.execPath, '--import', 'tsx']);
    const child = fork(childEntry, [JSON.stringify(absolute)], {
      cwd: repoRoot,
      execPath,
      execArgv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let settled: BuildKbOutcome | Error | undefined;
    child.on('message', (raw) => {
      const parsed = BuildChildMessage.safeParse(raw);
      if (!parsed.success) {
        settled = new Error(`the knowledge-base build process sent an unreadable message: ${parsed.error.issues[0]?.message}`);
        return;
      }
      const m = parsed.data;
      if (m.type === 'progress') onProgress?.(m.message);
      else if (m.type === 'done') settled = m.outcome as BuildKbOutcome;
      else settled = new Error(m.message);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (settled instanceof Error) reject(settled);
      else if (settled) resolve(settled);
      else reject(new Error(`the knowledge-base build process (${childEntry}) ended with ${signal ?? `exit code ${code}`} before reporting`));
    });
  });
}
