// How lib/kb/build.ts runs runners/kb/introspect.py: it imports every public module of a package, which
// executes third-party code, so it runs in the sandbox with its own work dir; the records come back as
// files. The runner is injected (lib/ does not reach up into the sandbox).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { artifactStore } from '../../lib/artifacts/store.js';
import type { IntrospectRunner, NamedIntrospectRunner } from '../../lib/kb/introspect.js';
import { introspectFiles } from '../../lib/kb/paths.js';
import { runSandboxed } from '../sandbox/index.js';

const STDERR_TAIL = 1500;

/**
 * The sandbox (runners/sandbox): introspect.py is the entry file, the outputs come back as produced
 * files through the artifact store. bwrap, the unprivileged uid and the resource caps apply as for any
 * generated script; what the host lacks is reported by the sandbox, not here.
 */
export const sandboxIntrospectRunner: IntrospectRunner = async (args, outputs, timeoutMs) => {
  const store = artifactStore();
  const result = await runSandboxed(
    {
      language: 'python',
      entry: 'introspect.py',
      files: await Promise.all(introspectFiles.map(async (f) => ({ path: path.basename(f), content: await readFile(f, 'utf8') }))),
      args,
      timeoutMs,
      memoryMb: 4096,
      label: `kb introspect ${args.slice(0, 4).join(' ')}`,
      env: { MPLBACKEND: 'Agg', JAX_PLATFORMS: 'cpu', OMP_NUM_THREADS: '1', PYTHONWARNINGS: 'ignore' },
      collectGlobs: outputs,
    },
    { store },
  );
  const files: Record<string, string> = {};
  for (const f of result.files) if (outputs.includes(f.path)) files[f.path] = await store.getText(f.ref);
  const error = result.ok
    ? ''
    : `${result.timedOut ? `timed out after ${timeoutMs} ms` : `exit code ${result.exitCode ?? result.signal}`}: ${result.stderrTail.slice(-STDERR_TAIL)}`;
  return { ok: result.ok, error, files };
};

// The runner introspection uses; what a host's sandbox lacks is reported by the sandbox.
export const introspectRunner: NamedIntrospectRunner = { kind: 'sandbox', run: sandboxIntrospectRunner };
