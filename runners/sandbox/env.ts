// The script's environment is built, never inherited: a few names may pass through from the
// worker (locale, BLAS tuning the operator set on purpose), the runner adds its own, the request
// adds allow-listed names. Anything that looks like a secret is dropped at every step, so API keys
// the worker holds never reach a script.
import path from 'node:path';
import { SECRET_ENV_NAME } from '../../schemas/sandbox.js';

/** Worker variables a script may inherit (operator tuning; no credentials). */
export const HOST_ENV_PASSTHROUGH = [
  'LANG', 'LC_ALL', 'TZ',
  'OPENBLAS_CORETYPE', 'OPENBLAS_L2_SIZE', 'OPENBLAS_NUM_THREADS',
  'OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'XLA_FLAGS',
] as const;

const SYSTEM_PATH = ['/usr/local/bin', '/usr/bin', '/bin'];

export interface EnvParts {
  workDir: string;
  privateDir: string;
  tmpDir: string;
  pathDirs: string[];
  runnerEnv: Record<string, string>;
  requestEnv: Record<string, string>;
  hostEnv?: NodeJS.ProcessEnv;
}

export function buildSandboxEnv(parts: EnvParts): Record<string, string> {
  const host = parts.hostEnv ?? process.env;
  const env: Record<string, string> = {
    PATH: [...new Set([...parts.pathDirs, ...SYSTEM_PATH])].join(path.delimiter),
    HOME: parts.workDir,
    USER: 'sandbox',
    LOGNAME: 'sandbox',
    TMPDIR: parts.tmpDir,
    XDG_CACHE_HOME: path.join(parts.privateDir, 'cache'),
    LANG: 'C.UTF-8',
    // One thread per library unless someone asks: parallel sandbox slots already fill the cores.
    OMP_NUM_THREADS: '1',
    OPENBLAS_NUM_THREADS: '1',
    MKL_NUM_THREADS: '1',
  };
  for (const name of HOST_ENV_PASSTHROUGH) {
    const v = host[name];
    if (v !== undefined && v !== '') env[name] = v;
  }
  Object.assign(env, parts.runnerEnv, parts.requestEnv);
  for (const name of Object.keys(env)) if (SECRET_ENV_NAME.test(name)) delete env[name];
  return env;
}
