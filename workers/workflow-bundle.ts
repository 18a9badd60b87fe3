// The workflow bundle workers load. Read from a file built beforehand (PHYSVEC_WORKFLOW_BUNDLE,
// written by scripts/build-workflow-bundle.ts: the test runner builds one for the whole suite), else
// from the bundle cache (node_modules/.cache/physvec) when its content key still matches, else built once per
// process (webpack's chatter kept out of the terminal) and cached for the next start. Building takes
// ~30 s at idle and minutes under load: a `physvec worker` after no code change polls without it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundleOption } from '@temporalio/worker';
import { repoRoot } from '../lib/paths.js';
import { TRACING_WORKFLOW_MODULE, tracingActive } from './telemetry/tracing.js';

export const WORKFLOWS_PATH = path.join(repoRoot, 'workflows', 'index.ts');
export const WORKFLOW_BUNDLE_ENV = 'PHYSVEC_WORKFLOW_BUNDLE';

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };

/** `traced`: with the OpenTelemetry workflow interceptors (workers/telemetry/tracing.ts). */
export function buildWorkflowBundle(traced = tracingActive()): ReturnType<typeof bundleWorkflowCode> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: traced ? [TRACING_WORKFLOW_MODULE] : [], logger: quiet });
}

/**
 * Everything a bundle can contain, hashed: the source folders workflow code imports from (a superset:
 * a change there may rebuild needlessly, never leave a stale bundle) and the locked dependencies.
 */
const SOURCE_DIRS = ['workflows', 'schemas', 'temporal-config', 'lib', 'activities', 'workers'];

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** The content key of the bundle these sources and dependencies would build. */
function bundleContentKey(): string {
  const h = createHash('sha256');
  for (const file of [...SOURCE_DIRS.flatMap((d) => tsFiles(path.join(repoRoot, d))), path.join(repoRoot, 'package-lock.json')]) {
    h.update(path.relative(repoRoot, file)).update('\0');
    if (existsSync(file)) h.update(readFileSync(file));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 24);
}

/**
 * Where cached bundles live: node_modules/.cache (the usual home of build caches), not the state dir,
 * so a worker with a new state dir reuses them too; content-keyed, so sharing one is safe.
 */
const cacheFile = (key: string) => path.join(process.env.PHYSVEC_CACHE_DIR ?? path.join(repoRoot, 'node_modules', '.cache', 'physvec'), 'workflow-bundle', `${key}.js`);

/** The bundle for these sources: the cached file when its key matches, else built now (`onBuild` says so) and cached. */
async function cachedOrBuilt(onBuild: (what: string) => void): Promise<WorkflowBundleOption> {
  const traced = tracingActive();
  const file = cacheFile(`${bundleContentKey()}${traced ? '-traced' : ''}`);
  if (existsSync(file)) return { codePath: file };
  onBuild(`building the workflow bundle (first start after a code change; cached in ${path.dirname(file)})`);
  const { code } = await buildWorkflowBundle(traced);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // Whole or not at all: a worker starting meanwhile never reads half a bundle.
    writeFileSync(`${file}.${process.pid}.tmp`, code);
    renameSync(`${file}.${process.pid}.tmp`, file);
  } catch {
    /* a read-only state dir: this process still has the code */
  }
  return { code };
}

let bundle: Promise<WorkflowBundleOption> | undefined;
/** The bundle this process's workers use (memoised); `onBuild` hears when it has to be built. */
export function workflowBundle(onBuild: (what: string) => void = () => {}): Promise<WorkflowBundleOption> {
  // A prebuilt bundle has no tracing interceptors: a traced worker builds (or finds cached) its own.
  const prebuilt = tracingActive() ? undefined : process.env[WORKFLOW_BUNDLE_ENV];
  bundle ??= prebuilt ? Promise.resolve({ codePath: prebuilt }) : cachedOrBuilt(onBuild);
  return bundle;
}
