// Issue 24.7: a worker that is killed or stopped leaves no Python tracebacks behind. Its warm python
// (and the per-run children it forked) write their reports to the worker; with the worker gone that
// write fails, and they must end quietly instead of printing BrokenPipeError tracebacks.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot, venvPython } from '../../lib/paths.js';

test('a warm python whose worker is gone ends without a traceback', { timeout: 60_000 }, async () => {
  const zygote = spawn(venvPython, ['-u', path.join(repoRoot, 'runners/sandbox/zygote.py'), ''], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  zygote.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const [ready] = (await once(zygote.stdout, 'data')) as [Buffer];
  assert.match(ready.toString(), /"ready": true/, `the warm python started: ${ready.toString()} ${stderr}`);
  // The worker's end of the report pipe goes away, as when the worker is SIGKILLed mid-run ...
  zygote.stdout.destroy();
  // ... and a request the zygote must answer arrives: the answer meets a closed pipe.
  zygote.stdin.write('go run-without-arm payload\n');
  const [code, signal] = (await once(zygote, 'exit')) as [number | null, string | null];
  assert.doesNotMatch(stderr, /Traceback|BrokenPipeError/, 'no traceback on the terminal');
  assert.equal(signal, null, `ended by itself, not by a signal: ${signal}`);
  assert.equal(code, 0);
});
