// The child-process end of buildKbInChild (lib/kb/build-in-child.ts): one build, its progress and its
// outcome sent back over the IPC channel, then exit. Chunking 17k docstrings and indexing them is
// seconds of synchronous work; here it blocks this process's event loop, not the worker's.
import { BuildInChildRequest, type BuildChildMessage } from '../../lib/kb/build-messages.js';
import { buildKb } from '../../lib/kb/build.js';
import { introspectRunner } from './introspect-runners.js';

function send(message: BuildChildMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, undefined, {}, () => resolve()));
}

if (!process.send) {
  process.stderr.write('runners/kb/build-child.ts is started by buildKbInChild (lib/kb/build-in-child.ts) with an IPC channel; run `physvec kb build` instead\n');
  process.exit(2);
}

// A parent that dies takes its build with it: nobody is left to read the outcome.
process.on('disconnect', () => process.exit(1));

const request = BuildInChildRequest.parse(JSON.parse(process.argv[2] ?? '{}'));
try {
  const outcome = await buildKb({ ...request, runner: introspectRunner, onProgress: (message) => void send({ type: 'progress', message }) });
  await send({ type: 'done', outcome });
  process.exit(0);
} catch (err) {
  await send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}
