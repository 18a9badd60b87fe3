// The two ways to run runners/kb/introspect.py for lib/kb/build.ts: it imports every public module of a
// package, which executes third-party code, so it belongs in the sandbox with its own work dir; the
// records come back as files. The runner is injected (lib/ does not reach up into the sandbox).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { artifactStore } from '../../lib/artifacts/store.js';
import type { IntrospectRunner, NamedIntrospectRunner } from '../../lib/kb/introspect.js';
import { introspectFiles } from '../../lib/kb/paths.js';
import { venvPython } from '../../lib/paths.js';
import { runSandboxed } from '../sandbox/index.js';

// The environment is rebuilt, not inherited: no API keys reach third-party import-time code.
function scriptEnv(workDir: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: workDir,
    MPLBACKEND: 'Agg',
    JAX_PLATFORMS: 'cpu',
    OMP_NUM_THREADS: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONWARNINGS: 'ignore',
    LANG: 'C.UTF-8',
  };
  if (process.env.OPENBLAS_CORETYPE) env.OPENBLAS_CORETYPE = process.env.OPENBLAS_CORETYPE;
  return env;
}

const STDERR_TAIL = 1500;

export const execaIntrospectRunner: IntrospectRunner = async (args, outputs, timeoutMs) => {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'physvec-kb-introspect-'));
  try {
    for (const f of introspectFiles) await writeFile(path.join(workDir, path.basename(f)), await readFile(f));
    const r = await execa(venvPython, ['introspect.py', ...args], {
      cwd: workDir,
      env: scriptEnv(workDir),
      extendEnv: false,
      timeout: timeoutMs,
      reject: false,
      stdin: 'ignore',
      forceKillAfterDelay: 2000,
    });
    const files: Record<string, string> = {};
    for (const name of outputs) {
      try {
        files[name] = await readFile(path.join(workDir, name), 'utf8');
      } catch {
        /* missing output is reported through ok/error */
      }
    }
    const ok = r.exitCode === 0 && !r.timedOut;
    const error = ok
      ? ''
      : `${r.timedOut ? `timed out after ${timeoutMs} ms` : `exit code ${r.exitCode ?? r.signal}`}: ${String(r.stderr).slice(-STDERR_TAIL)}`;
    return { ok, error, files };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
};

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

// SWITCH POINT: which runner introspection uses. The sandbox is the default; execa (no isolation,
// minimal environment) remains for hosts where the sandbox cannot start.
export const introspectRunner: NamedIntrospectRunner = { kind: 'sandbox', run: sandboxIntrospectRunner };
