// Which build of physvec this process is: the unit Temporal Worker Versioning pins a run to, so a
// reproduction started by one build is finished by workers of that build (issue 25). The git commit
// of the checkout, with a hash of its uncommitted changes when there are any (two dirty trees of one
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

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 }).trim();
}

function fromGit(): string | undefined {
  try {
    const commit = git(['rev-parse', '--short=12', 'HEAD']);
    const diff = git(['diff', 'HEAD', '--', ...RUNTIME_PATHS]);
    return diff ? `${commit}-dirty-${createHash('sha256').update(diff).digest('hex').slice(0, 8)}` : commit;
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
  cached ??= fromGit() ?? fromPackage();
  return cached;
}
