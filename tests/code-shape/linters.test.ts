// The linters run as tests (issue 28): ESLint with typescript-eslint's type-aware rules
// (eslint.config.js), ruff over all of the repo's Python and mypy --strict over the sandbox runtime
// and the zygote (pyproject.toml). Each fails listing its findings as `file:line rule message`; a
// tool that is not installed (scripts/install-lint-tools.sh puts ruff and mypy into .venv, npm ci
// ESLint into node_modules) is skipped with the reason. The planted-violation tests show that each
// check fails on a real finding, so a green run means the linters ran and found nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';

const ESLINT = path.join(repoRoot, 'node_modules/eslint/bin/eslint.js');
const RUFF = path.join(repoRoot, '.venv/bin/ruff');
const MYPY = path.join(repoRoot, '.venv/bin/mypy');
const missing = (bin: string, how: string): string | false => (existsSync(bin) ? false : `${path.relative(repoRoot, bin)} is not installed (${how})`);
const eslintMissing = missing(ESLINT, 'npm ci');
const pythonLintersMissing = missing(RUFF, 'bash scripts/install-lint-tools.sh') || missing(MYPY, 'bash scripts/install-lint-tools.sh');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], input?: string): Run {
  const r = spawnSync(cmd, args, { cwd: repoRoot, input, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, NO_COLOR: '1' } });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const rel = (file: string): string => path.relative(repoRoot, file) || file;

/** ESLint's JSON report as `file:line rule message` lines. */
function eslintFindings(r: Run): string[] {
  if (r.status !== 0 && r.status !== 1) throw new Error(`eslint exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  const report = JSON.parse(r.stdout) as { filePath: string; messages: { line?: number; ruleId: string | null; message: string }[] }[];
  return report.flatMap((f) => f.messages.map((m) => `${rel(f.filePath)}:${m.line ?? 0} ${m.ruleId ?? 'parse'} ${m.message}`));
}

function eslint(args: string[], input?: string): string[] {
  return eslintFindings(run(process.execPath, [ESLINT, '--format', 'json', ...args], input));
}

/** ruff's JSON report as `file:line code message` lines. */
function ruff(args: string[], input?: string): string[] {
  const r = run(RUFF, ['check', '--output-format', 'json', ...args], input);
  if (r.status !== 0 && r.status !== 1) throw new Error(`ruff exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  const report = JSON.parse(r.stdout) as { filename: string; location: { row: number }; code: string | null; message: string }[];
  return report.map((f) => `${rel(f.filename)}:${f.location.row} ${f.code ?? 'syntax'} ${f.message}`);
}

/** mypy's `file:line: error: …` lines (the config's files unless others are given). */
function mypy(args: string[]): string[] {
  const r = run(MYPY, ['--no-error-summary', '--no-pretty', '--hide-error-context', ...args]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`mypy exited ${r.status}: ${r.stderr.slice(0, 2000)}${r.stdout.slice(0, 2000)}`);
  return r.stdout.split('\n').filter((l) => /^[^:]+:\d+(:\d+)?: error:/.test(l));
}

const listed = (tool: string, findings: string[]): string => `${tool}: ${findings.length} finding(s)\n  ${findings.join('\n  ')}`;

// One type-aware ESLint run (it builds the whole TypeScript program, ~1 min of CPU): the repo, with a
// planted violation inside the project for that run only; it must be the only finding.
test('eslint (type-aware typescript-eslint): no findings, and a planted floating promise is reported', { skip: eslintMissing }, () => {
  const planted = path.join(repoRoot, 'tests/code-shape', `planted-violation-${process.pid}.ts`);
  writeFileSync(planted, 'async function answer(): Promise<number> {\n  return 42;\n}\nanswer();\n');
  let all: string[];
  try {
    all = eslint(['--max-warnings', '0', '.']);
  } finally {
    rmSync(planted, { force: true });
  }
  const plantedAt = rel(planted);
  const found = all.filter((f) => f.startsWith(`${plantedAt}:`));
  assert.ok(found.some((f) => f.includes(':4 @typescript-eslint/no-floating-promises')), listed('eslint on a floating promise', found));
  const findings = all.filter((f) => !f.startsWith(`${plantedAt}:`));
  assert.deepEqual(findings, [], listed('eslint', findings));
});

test('ruff: no findings over the repo\'s Python', { skip: pythonLintersMissing }, () => {
  const findings = ruff(['.']);
  assert.deepEqual(findings, [], listed('ruff', findings));
});

test('mypy --strict: no findings in runners/runtime and runners/sandbox/zygote.py', { skip: pythonLintersMissing }, () => {
  const findings = mypy([]);
  assert.deepEqual(findings, [], listed('mypy', findings));
});

test('ruff and mypy each report a planted violation', { skip: pythonLintersMissing }, () => {
  const pyFound = ruff(['--stdin-filename', 'runners/planted_violation.py', '-'], 'import os\n');
  assert.ok(pyFound.some((f) => f.includes('F401')), listed('ruff on an unused import', pyFound));

  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-mypy-planted-'));
  try {
    const file = path.join(dir, 'planted_violation.py');
    writeFileSync(file, 'def untyped(x):\n    return x\n');
    const typed = mypy([file]);
    assert.ok(typed.some((f) => f.includes('[no-untyped-def]')), listed('mypy --strict on an untyped function', typed));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
