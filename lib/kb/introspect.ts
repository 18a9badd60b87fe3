// Running runners/kb/introspect.py: it imports every public module of a package, which executes
// third-party code, so it belongs in the sandbox with its own work dir; the records come back as files.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { artifactStore } from '../artifacts/store.js';
import { runSandboxed } from '../../runners/sandbox/index.js';
import { venvPython } from '../paths.js';
import {
  IntrospectRecord,
  IntrospectVersions,
  type KbToolchain,
} from '../../schemas/kb.js';
import { introspectScript } from './paths.js';
import { INTROSPECT_LIMITS } from './sources.js';

export interface IntrospectRun {
  ok: boolean;
  /** Why it failed (exit code and stderr tail); '' when ok. */
  error: string;
  /** Contents of the requested output files that exist, by work-dir-relative name. */
  files: Record<string, string>;
}

/** Runs the introspection script with `args` in a fresh work dir and returns the named output files. */
export type IntrospectRunner = (args: string[], outputs: string[], timeoutMs: number) => Promise<IntrospectRun>;

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
    await writeFile(path.join(workDir, 'introspect.py'), await readFile(introspectScript));
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
      files: [{ path: 'introspect.py', content: await readFile(introspectScript, 'utf8') }],
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
export const introspectRunner: { kind: 'sandbox' | 'execa'; run: IntrospectRunner } = { kind: 'sandbox', run: sandboxIntrospectRunner };

const VERSIONS_FILE = 'versions.json';
const RECORDS_FILE = 'records.jsonl';

/** Installed versions of the given distributions (null = not installed). */
export async function distributionVersions(dists: string[], runner = introspectRunner.run): Promise<Record<string, string | null>> {
  const r = await runner(['versions', '--out', VERSIONS_FILE, ...dists], [VERSIONS_FILE], 60_000);
  const text = r.files[VERSIONS_FILE];
  if (!r.ok || text === undefined) throw new Error(`reading package versions with ${introspectScript} failed: ${r.error}`);
  return IntrospectVersions.parse(JSON.parse(text));
}

export interface IntrospectOutcome {
  records: IntrospectRecord[];
  /** Lines that did not match the record schema (a script/schema mismatch, not a package problem). */
  badLines: number;
  error: string;
}

export async function introspectToolchain(
  toolchain: KbToolchain,
  packages: string[],
  runner = introspectRunner.run,
): Promise<IntrospectOutcome> {
  const args = [
    'symbols',
    '--out', RECORDS_FILE,
    '--toolchain', toolchain,
    ...packages.flatMap((p) => ['--package', p]),
    '--max-symbols', String(INTROSPECT_LIMITS.maxSymbols),
    '--max-doc-chars', String(INTROSPECT_LIMITS.maxDocChars),
    '--time-budget', String(INTROSPECT_LIMITS.timeBudgetSeconds),
  ];
  // The script stops walking at its own budget; the wall-clock limit only catches a hung import.
  const r = await runner(args, [RECORDS_FILE], (INTROSPECT_LIMITS.timeBudgetSeconds + 60) * 1000);
  const records: IntrospectRecord[] = [];
  let badLines = 0;
  for (const line of (r.files[RECORDS_FILE] ?? '').split('\n')) {
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      badLines++;
      continue;
    }
    const parsed = IntrospectRecord.safeParse(json);
    if (parsed.success) records.push(parsed.data);
    else badLines++;
  }
  return { records, badLines, error: r.error };
}
