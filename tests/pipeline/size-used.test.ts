// The report states what was actually run (issue 27.7): the final run records the calls of the
// script's functions, and the report lists the parameters they were called with and compares each
// parameter the request asked (the task's scaled values, or with --size full its full-size ones). A
// full-size request answered with the scaled chain (L = 12, chi_max = 32 instead of 200) is a
// headline warning in report.json and report.html; the same run asked at the scaled size is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { repoRoot, venvPython } from '../../lib/paths.js';
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import { prepareTask } from '../../activities/pipeline/prepare-task.js';
import { fullScriptJob } from '../../activities/pipeline/programming.js';
import { summarizeScript } from '../../activities/pipeline/script-summary.js';
import { digestRun } from '../../activities/pipeline/run-job.js';
import { writeReport } from '../../activities/pipeline/report.js';
import { CALLS_FILE } from '../../schemas/script-markers.js';
import { PYTHON_RUNTIME_DIR } from '../../runners/sandbox/run-state/paths.js';
import type { ToolchainStatus } from '../../schemas/toolchain.js';
import type { RunDigest } from '../../schemas/pipeline.js';

const TASK = path.join(repoRoot, 'data', 'tasks', 'dmrg', 'task_dmrg_tezuka_1a.json');
const SCRIPT = readFileSync(path.join(repoRoot, 'tests/fixtures/suspects/hubbard_chain_scaled.py'), 'utf8');

const installed = async (profiles?: readonly string[]): Promise<ToolchainStatus[]> =>
  loadToolchainConfig().profiles.filter((p) => !profiles || profiles.includes(p.name)).map((p) => ({ profile: p.name, language: p.language, topics: p.topics, detectMs: 1, interpreter: '/x', available: true, state: 'available' as const, versions: { [p.primaryPackage]: '1.0' }, version: '1.0' }));

const progress = { scripted: false, tokens: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, toolCalls: 0, costUsd: 0, llmCalls: 0 }, ledger: { byStage: {}, byRole: {} }, timings: [{ stage: 'final', startedAt: Date.now() }], human: [] };

test('the report lists the parameters the final run used and flags a full-size request run at the scaled size', { timeout: 120_000 }, async () => {
  const store = new ArtifactStore(mkdtempSync(path.join(tmpdir(), 'physvec-size-used-')));
  const summary = await summarizeScript(store, SCRIPT, 'python');
  const job = await fullScriptJob(store, { summary, recordCalls: true });
  assert.notDeepEqual(job.ref, summary.scriptRef, 'the final run records its calls');
  assert.deepEqual((await fullScriptJob(store, { summary })).ref, summary.scriptRef, 'other full runs are the script as it is');
  const dir = mkdtempSync(path.join(tmpdir(), 'physvec-size-used-run-'));
  writeFileSync(path.join(dir, job.file), await store.getText(job.ref));
  const r = await execa(venvPython, [job.file], { cwd: dir, reject: false, env: { PYTHONPATH: PYTHON_RUNTIME_DIR } });
  assert.equal(r.exitCode, 0, r.stderr);
  const calls = await store.put(readFileSync(path.join(dir, CALLS_FILE), 'utf8'), { name: CALLS_FILE });
  const finalRun: RunDigest = digestRun('full', { exitCode: 0, timedOut: false, durationMs: 1, stdoutTail: r.stdout, stderrTail: '', files: [{ path: CALLS_FILE, ref: calls }] } as never, { kind: 'full' });

  const reports: Record<string, { json: any; html: string }> = {};
  for (const size of ['full', 'scaled'] as const) {
    const context = await prepareTask(store, { taskFile: TASK, ...(size === 'full' ? { size } : {}) }, installed);
    assert.equal(context.sizeAsked?.size, size);
    const written = await writeReport(store, {
      workflowId: `size-used-${size}-${process.pid}`, status: 'passed', stageReached: 'final', context, models: { defaultModel: 'scripted:x', roles: {} },
      finalScriptRef: summary.scriptRef, programmingReports: [], scientificRounds: [], convergence: [], repairs: [], finalRun, progress,
    });
    reports[size] = { json: JSON.parse(readFileSync(written.jsonPath, 'utf8')), html: readFileSync(written.htmlPath, 'utf8') };
  }
  const full = reports.full!;
  const row = (name: string) => full.json.sizeUsed.parameters.find((p: { name: string }) => p.name === name);
  assert.deepEqual({ verdict: row('L').verdict, used: row('L').used }, { verdict: 'other', used: [12] }, 'L = 12 ran where 200 was asked');
  assert.equal(row('chi_max').verdict, 'other');
  assert.equal(row('N_up').verdict, 'not-recorded', 'a parameter no function takes is said to be unrecorded, not guessed');
  assert.match(full.json.notices[0], /^The final run did not use the full-size parameters: its functions were called with L = 12 \(asked 200, the scaled value\); chi_max = 32 \(asked 200, the scaled value\)/);
  assert.ok(full.json.parametersUsed.some((p: { name: string; values: unknown[] }) => p.name === 't' && p.values[0] === 1), 'every parameter is listed');
  assert.match(full.html, /Parameters the final run used/);
  assert.match(full.html, /<td>L<\/td><td>200<\/td><td>12<\/td><td>other<\/td>/);
  assert.ok(full.html.indexOf('did not use the full-size parameters') < full.html.indexOf('<h2>'), 'a headline, above the sections');

  const scaled = reports.scaled!;
  assert.equal(scaled.json.sizeUsed.parameters.find((p: { name: string }) => p.name === 'L').verdict, 'asked');
  assert.ok(!scaled.json.notices.some((n: string) => /did not use/.test(n)), 'the scaled request was honoured');
});
