// `physvec --version` answers without loading any verb's module (issue 24: 8 s at load 7, every
// verb's imports for one line): the process prints package.json's version and exits 0.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { modulesFor } from '../../cli/commands/index.js';
import { repoRoot } from '../../lib/paths.js';

const run = promisify(execFile);

test('--version prints the version and loads no verb module; a verb loads only its own', async () => {
  assert.deepEqual(modulesFor(['--version']), []);
  assert.equal(modulesFor(['status', 'x']).length, 1);
  const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/main.ts'), '--version'], { cwd: repoRoot });
  assert.equal(stdout.trim(), version);
});
