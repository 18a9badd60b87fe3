// The request boundary: bad requests are refused with the field and the fix, before anything runs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BadInputError } from '../../lib/errors.js';
import { parseSandboxRequest } from '../../runners/sandbox/index.js';

const ok = { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: 'print(1)' }] };

function refused(input: unknown, field: RegExp, message: RegExp): void {
  assert.throws(() => parseSandboxRequest(input), (err: unknown) => {
    assert.ok(err instanceof BadInputError, `expected BadInputError, got ${String(err)}`);
    assert.match(err.message, /^sandbox request: /);
    assert.match(err.fieldPath ?? '', field);
    assert.match(err.message, message);
    return true;
  });
}

describe('sandbox request validation', () => {
  test('defaults are filled in', () => {
    const r = parseSandboxRequest(ok);
    assert.equal(r.timeoutMs, 300_000);
    assert.equal(r.memoryMb, 3072);
    assert.equal(r.maxProcesses, 256);
    assert.equal(r.maxOutputBytes, 2 * 1024 * 1024);
    assert.deepEqual(r.args, []);
    assert.deepEqual(r.env, {});
  });

  test('paths that climb out, are absolute or hide in .sandbox are refused', () => {
    refused({ ...ok, files: [...ok.files, { path: '../evil.py', content: '' }] }, /^files\.1\.path$/, /climbs out/);
    refused({ ...ok, files: [...ok.files, { path: 'a/../../b', content: '' }] }, /^files\.1\.path$/, /climbs out/);
    refused({ ...ok, files: [...ok.files, { path: '/etc/passwd', content: '' }] }, /^files\.1\.path$/, /is absolute/);
    refused({ ...ok, files: [...ok.files, { path: '.sandbox/x', content: '' }] }, /^files\.1\.path$/, /reserves/);
    refused({ ...ok, files: [...ok.files, { path: 'a\\b', content: '' }] }, /^files\.1\.path$/, /backslash/);
  });

  test('a file needs exactly one of ref and content', () => {
    refused({ ...ok, files: [{ path: 'main.py' }] }, /^files\.0$/, /exactly one of "ref"/);
  });

  test('the entry must be one of the files and match the language', () => {
    refused({ ...ok, entry: 'other.py' }, /^entry$/, /not among files/);
    refused({ ...ok, language: 'julia' }, /^entry$/, /julia entry ends with \.jl/);
  });

  test('secret-looking and unlisted environment names are refused', () => {
    refused({ ...ok, env: { OPENAI_API_KEY: 'x' } }, /^env\.OPENAI_API_KEY$/, /looks like a secret/);
    refused({ ...ok, env: { PHYSVEC_TOKEN: 'x' } }, /^env\.PHYSVEC_TOKEN$/, /looks like a secret/);
    refused({ ...ok, env: { LD_PRELOAD: '/tmp/x.so' } }, /^env\.LD_PRELOAD$/, /not on the sandbox allow-list/);
    refused({ ...ok, env: { PATH: '/tmp' } }, /^env\.PATH$/, /not on the sandbox allow-list/);
    assert.deepEqual(parseSandboxRequest({ ...ok, env: { PHYSVEC_PARAM: '8', OMP_NUM_THREADS: '2' } }).env, { PHYSVEC_PARAM: '8', OMP_NUM_THREADS: '2' });
  });

  test('unknown fields are refused rather than ignored', () => {
    refused({ ...ok, timeout: 5 }, /^$/, /timeout/);
  });
});
