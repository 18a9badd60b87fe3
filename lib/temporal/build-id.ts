// Which build of physvec this process is: the unit Temporal Worker Versioning pins a run to, so a
// reproduction started by one build is finished by workers of that build (issue 25). A hash of what
// a worker runs as committed (the git trees of the runtime paths below, not the commit: a commit that
// changes only the README, tests or notes is the same build, so a worker restarted after pulling it
// still serves the runs in flight, which would otherwise wait for a worker of the old build for
// ever), with a hash of its uncommitted changes there when there are any (two dirty trees of one
// commit are different builds); PHYSVEC_BUILD_ID overrides it (a packaged install without .git, or
// an operator's own release names).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../paths.js';

export const BUILD_ID_ENV = 'PHYSVEC_BUILD_ID';

// Changes that do not change what a worker runs (state, notes, tests) do not make a new build.
const RUNTIME_PATHS = ['workflows', 'activities', 'workers', 'lib', 'runners', 'schemas', 'temporal-config', 'data', 'rubrics', 'cli', 'package-lock.json'];

/** The build id of the git checkout at `dir` (undefined when it is none, or git is missing). */
export function buildIdOfCheckout(dir: string): string | undefined {
  const git = (args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 }).trim();
  try {
    const trees = git(['ls-tree', 'HEAD', '--', ...RUNTIME_PATHS]);
    if (!trees) return undefined;
    const runtime = createHash('sha256').update(trees).digest('hex').slice(0, 12);
    const diff = git(['diff', 'HEAD', '--', ...RUNTIME_PATHS]);
    return diff ? `${runtime}-dirty-${createHash('sha256').update(diff).digest('hex').slice(0, 8)}` : runtime;
  } catch {
    return undefined; // not a git checkout, or git is missing
  }
}

function fromPackage(): string {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version?: string };
  return `v${pkg.version ?? '0'}`;
}

let cached: string | undefined;
/** This process's build id (computed once). */
export function buildId(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[BUILD_ID_ENV]?.trim();
  if (given) return given;
  cached ??= buildIdOfCheckout(repoRoot) ?? fromPackage();
  return cached;
}
