// Replay fixtures: workflow histories recorded by a build, kept per build and never rewritten, so
// the suite replays every earlier build's histories against the current workflow code (a change
// that would break runs in flight fails tests/pipeline/replay.test.ts unless patched or versioned).
//   tests/fixtures/histories/<date>-<commit that recorded them>/<name>.json
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { repoRoot } from '../../lib/paths.js';

export const HISTORIES_DIR = path.join(repoRoot, 'tests', 'fixtures', 'histories');

/** PHYSVEC_RECORD_HISTORY=1: keep `history` as a fixture of this build (a new folder; an existing file is never replaced). */
export function recordHistoryIfAsked(name: string, history: temporal.api.history.v1.IHistory): void {
  if (!process.env.PHYSVEC_RECORD_HISTORY) return;
  const commit = execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const dir = path.join(HISTORIES_DIR, `${new Date().toISOString().slice(0, 10)}-${commit}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.json`), historyToJSON(history), { flag: 'wx' });
}

/** The newest build's recording of `name`: by date, then by the recording commit's time. */
export function latestHistory(name: string): string {
  const committedAt = (build: string) => Number(execFileSync('git', ['log', '-1', '--format=%ct', build.split('-').pop()!], { cwd: repoRoot, encoding: 'utf8' }).trim() || 0);
  const builds = readdirSync(HISTORIES_DIR)
    .filter((d) => existsSync(path.join(HISTORIES_DIR, d, `${name}.json`)))
    .sort((a, b) => a.slice(0, 10).localeCompare(b.slice(0, 10)) || committedAt(a) - committedAt(b));
  if (builds.length === 0) throw new Error(`no recorded history ${name}.json under ${HISTORIES_DIR}`);
  return path.join(HISTORIES_DIR, builds.at(-1)!, `${name}.json`);
}
