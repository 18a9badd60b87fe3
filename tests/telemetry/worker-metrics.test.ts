// `physvec worker --metrics` serves the SDK's series and physvec's own on one Prometheus endpoint: a
// worker child process runs a scripted dimer reproduction (LLM calls with recorded token usage, sandbox
// runs, a checkpoint the script saves, a verdict) and /metrics is scraped before, during and after.
// Also: a bad address and a port in use are one clear line and exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { ensureServer, testClient } from '../helpers/temporal.js';
import { spawnWorker } from '../helpers/worker-process.js';
import { waitFor } from '../helpers/poll.js';
import { parsePrometheus, total, type Sample } from '../helpers/prometheus.js';
import { runCli } from '../cli/run-cli.js';
import { startRepro } from '../pipeline/drill-support.js';
import { repoRoot } from '../../lib/paths.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';

const USAGE = { inputTokens: 120, outputTokens: 30, cachedInputTokens: 0 };

/** The dimer cassette with recorded usage on every entry and a `main` that saves a checkpoint (and waits for its snapshot). */
function meteredDimerModel(): { model: string; entries: number } {
  const cassette = JSON.parse(readFileSync(path.join(repoRoot, 'data', 'cassettes', 'task_smoke_dimer_pipeline.json'), 'utf8'));
  for (const e of cassette.entries) e.usage = USAGE;
  const coder = cassette.entries.find((e: { role: string }) => e.role === 'coder');
  const script: string = coder.json.script;
  assert.ok(script.includes('def main():\n'), 'the dimer cassette script has a `def main():`');
  coder.json.script = script.replace('def main():\n', 'def main():\n    __import__("physvec_runtime").save_json("probe.json", {"step": 1})\n    __import__("time").sleep(1.5)\n');
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-metrics-')), 'metered-dimer.json');
  writeFileSync(file, JSON.stringify({ ...cassette, name: 'metered-dimer' }));
  return { model: `scripted:${file}`, entries: cassette.entries.length };
}

async function scrape(port: number): Promise<Sample[]> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  assert.equal(res.status, 200);
  return parsePrometheus(await res.text());
}

test('a worker with --metrics serves SDK and physvec series with plausible values during and after a run', { timeout: 600_000 }, async (t) => {
  await ensureServer();
  const port = await getPort();
  const { proc, exited, output } = spawnWorker(['--queue', 'all', '--metrics', `127.0.0.1:${port}`]);
  const { client, connection } = await testClient();
  try {
    await waitFor('the worker to poll', async () => (/polling/.test(output()) ? true : undefined), 180_000, 200);
    assert.match(output(), new RegExp(`metrics at http://127\\.0\\.0\\.1:${port}/metrics`), 'the worker says where its metrics are');
    const idle = await scrape(port);
    assert.equal(total(idle, 'physvec_sandbox_runs_total'), 0, 'no sandbox run before the reproduction');

    const { model, entries } = meteredDimerModel();
    const handle = await startRepro(client, { model });
    // During the run: the first sandbox runs are counted before the workflow ends.
    const during = await waitFor('sandbox runs on /metrics during the run', async () => {
      const s = await scrape(port);
      return total(s, 'physvec_sandbox_runs_total') > 0 ? s : undefined;
    }, 300_000, 250);
    const result = (await handle.result()) as ReproductionResult;
    assert.equal(result.status, 'passed', result.message);
    const s = await scrape(port);
    const names = new Set(s.map((x) => x.name));
    t.diagnostic(`series: ${[...names].filter((n) => !/_bucket$/.test(n)).sort().join(' ')}`);
    t.diagnostic(`sandbox runs ${total(s, 'physvec_sandbox_runs_total')} (${total(s, 'physvec_sandbox_run_seconds_sum').toFixed(1)} s), LLM calls ${total(s, 'physvec_llm_calls_total')}, checkpoint bytes ${total(s, 'physvec_checkpoint_uploaded_bytes_total')}`);

    // The SDK runtime's own series (Core): task schedule-to-start latency, slots, pollers, requests.
    for (const n of ['temporal_workflow_task_schedule_to_start_latency_count', 'temporal_activity_schedule_to_start_latency_count', 'temporal_worker_task_slots_available', 'temporal_num_pollers', 'temporal_request_total']) {
      assert.ok(names.has(n), `SDK series ${n} (have: ${[...names].filter((x) => x.startsWith('temporal_')).sort().join(', ')})`);
    }
    assert.ok(total(s, 'temporal_activity_schedule_to_start_latency_count') > 0);
    assert.ok(total(s, 'temporal_workflow_task_schedule_to_start_latency_count') > 0);

    // Sandbox runs: every one counted by outcome, with its wall time; how each interpreter started.
    const runs = total(s, 'physvec_sandbox_runs_total');
    assert.ok(runs >= 3, `sandbox runs ${runs}`);
    assert.ok(total(s, 'physvec_sandbox_runs_total', { outcome: 'ok', language: 'python' }) >= 1);
    assert.ok(runs >= total(during, 'physvec_sandbox_runs_total'), 'counters only grow');
    assert.equal(total(s, 'physvec_sandbox_run_seconds_count'), runs, 'one duration per run');
    assert.ok(total(s, 'physvec_sandbox_run_seconds_sum') > 1.5, 'the final run alone sleeps 1.5 s');
    assert.ok(total(s, 'physvec_sandbox_run_seconds_bucket', { le: '+Inf' }) === runs);
    const starts = total(s, 'physvec_sandbox_starts_total', { path: 'warm' }) + total(s, 'physvec_sandbox_starts_total', { path: 'cold' });
    assert.ok(starts > 0 && starts <= runs, `warm + cold starts ${starts} of ${runs} runs`);

    // The checkpoint the script saved reached the artifact store.
    assert.ok(total(s, 'physvec_checkpoint_snapshots_total') >= 1);
    assert.ok(total(s, 'physvec_checkpoint_uploaded_bytes_total') >= '{"step": 1}'.length);

    // LLM calls by provider, model and role, with the cassette's recorded tokens (scripted: free).
    const calls = total(s, 'physvec_llm_calls_total', { provider: 'scripted', model, outcome: 'ok' });
    assert.ok(calls >= entries, `LLM calls ${calls} (cassette entries ${entries})`);
    assert.ok(total(s, 'physvec_llm_calls_total', { role: 'coder' }) >= 1);
    assert.equal(total(s, 'physvec_llm_tokens_total', { provider: 'scripted', kind: 'input' }), calls * USAGE.inputTokens);
    assert.equal(total(s, 'physvec_llm_tokens_total', { provider: 'scripted', kind: 'output' }), calls * USAGE.outputTokens);
    assert.equal(total(s, 'physvec_llm_call_cost_usd_count'), calls);
    assert.equal(total(s, 'physvec_llm_call_cost_usd_sum'), 0, 'the scripted model costs nothing');
    assert.ok(total(s, 'physvec_llm_call_seconds_sum') > 0);

    // The ending.
    assert.equal(total(s, 'physvec_verdicts_total', { verdict: 'passed' }), 1);

    // The Grafana dashboard charts series this endpoint serves (histograms by their _bucket; failure
    // counters appear with the first failure).
    const dashboard = readFileSync(path.join(repoRoot, 'docs', 'grafana-physvec.json'), 'utf8');
    const charted = new Set([...dashboard.matchAll(/\b((?:physvec|temporal)_[a-z_]+)\{/g)].map((m) => m[1]!));
    assert.ok(charted.size >= 15, `series in the dashboard: ${charted.size}`);
    const served = (n: string) => names.has(n) || (n.endsWith('_bucket') && names.has(n.replace(/_bucket$/, '_count')));
    assert.deepEqual([...charted].filter((n) => !served(n) && !/failure_total$/.test(n)), [], 'dashboard series the worker does not serve');
  } finally {
    proc.kill('SIGTERM');
    await exited;
    await connection.close();
  }
});

test('a bad --metrics address (flag, environment, config file) and a port in use are one line each, exit 2', async () => {
  const bad = await runCli(['worker', '--metrics', 'metrics.example:9464']);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--metrics: "metrics\.example" is not an IP address.*e\.g\. :9464/);
  const busy = createServer();
  const port = await getPort();
  await new Promise<void>((r) => busy.listen(port, '127.0.0.1', r));
  try {
    const inUse = await runCli(['worker', '--metrics', `127.0.0.1:${port}`]);
    assert.equal(inUse.code, 2, inUse.stderr);
    assert.match(inUse.stderr, new RegExp(`--metrics: cannot serve metrics on 127\\.0\\.0\\.1:${port}: the port is in use`));
    assert.equal(inUse.stderr.trim().split('\n').length, 1, inUse.stderr);
  } finally {
    busy.close();
  }
  const env = await runCli(['worker'], { PHYSVEC_METRICS: '9464' });
  assert.equal(env.code, 2, env.stderr);
  assert.match(env.stderr, /PHYSVEC_METRICS: "9464" is not an address/);
  // The config file's telemetry section, named with its file.
  const config = JSON.parse(readFileSync(path.join(repoRoot, 'physvec.config.json'), 'utf8'));
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'physvec-metrics-config-')), 'physvec.config.json');
  writeFileSync(file, JSON.stringify({ ...config, telemetry: { metrics: ':99999', traces: 'off' } }));
  const fromFile = await runCli(['worker'], { PHYSVEC_CONFIG: file });
  assert.equal(fromFile.code, 2, fromFile.stderr);
  assert.match(fromFile.stderr, /physvec\.config\.json: telemetry\.metrics: port 99999 is out of range/);
});
