// Campaign benchmark (not a test): the same 8 PhysVEC reproductions with the scripted model, each
// LLM answer delayed by PHYSVEC_SCRIPTED_LATENCY_MS (default here 1500 ms, a stand-in for a real
// model's latency), run (1) serially, one workflow after another like the authors' shell loop, and
// (2) as one campaign with concurrency 4. Prints both wall times and their ratio.
// Usage: node --import tsx scripts/bench-campaign.ts [--latency-ms 1500] [--concurrency 4] [--runs 8] [--tasks <substr,...>]
// (--tasks narrows the fast subset, e.g. to task_smoke_dimer_pipeline for a quick measurement).
// Uses a throw-away dev server on a free port unless TEMPORAL_ADDRESS names one.
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { answerHelp, benchServer } from './bench-support.js';

answerHelp(import.meta.url);
const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const latencyMs = opt('--latency-ms', Number(process.env.PHYSVEC_SCRIPTED_LATENCY_MS ?? 1500));
const concurrency = opt('--concurrency', 4);
const runs = opt('--runs', 8);
// Before any project module loads: the scripted model reads the latency from the environment.
process.env.PHYSVEC_SCRIPTED_LATENCY_MS = String(latencyMs);

const { Client, Connection } = await import('@temporalio/client');
const { NativeConnection } = await import('@temporalio/worker');
const { freePort } = await import('../lib/net/free-port.js');
const { createWorkers, installRuntime, workflowBundle } = await import('../workers/create-workers.js');
const { defaultSimulationSlots } = await import('../workers/slots.js');
const { CampaignInput } = await import('../schemas/campaign.js');
const { planCampaign } = await import('../activities/campaign/plan.js');
const { childCall } = await import('../workflows/campaign/children.js');
const { taskQueues } = await import('../lib/temporal/task-queues.js');
const { startCampaign } = await import('../cli/runs/campaign-run.js');
const { readdirSync } = await import('node:fs');
const { repoRoot } = await import('../lib/paths.js');

installRuntime();
// The fast subset: tasks with a trial-1 campaign cassette. Each task runs runs/tasks times, every
// trial replaying the same trial-1 cassette, so the serial and campaign runs do identical work.
const tasks = readdirSync(path.join(repoRoot, 'data', 'cassettes', 'campaign'))
  .map((f) => /^(.+)\.t1\.json$/.exec(f)?.[1])
  .filter((x): x is string => !!x)
  .filter((id) => {
    const i = args.indexOf('--tasks');
    return i < 0 || args[i + 1]!.split(',').some((s) => id.includes(s));
  })
  .sort();
if (tasks.length === 0) throw new Error('no campaign cassettes in data/cassettes/campaign');
const trials = Math.ceil(runs / tasks.length);
const spec = CampaignInput.parse({
  label: 'bench-campaign',
  selection: { ids: tasks },
  models: ['scripted:campaign/{task}.t1'],
  frameworks: ['physvec'],
  trials,
  concurrency,
  passCriterion: 'executable',
});
const plan = (await planCampaign(spec)).slice(0, runs);
if (plan.length < runs) throw new Error(`only ${plan.length} runs in the fast subset`);
spec.trials = Math.max(...plan.map((k) => k.trial));

let stopServer: (() => Promise<void>) | undefined;
let address = process.env.TEMPORAL_ADDRESS;
if (!address) {
  const server = await benchServer({ dir: mkdtempSync(path.join(os.tmpdir(), 'physvec-bench-campaign-')), port: await freePort(), uiPort: await freePort() });
  stopServer = server.stop;
  address = server.info.address;
  process.env.TEMPORAL_ADDRESS = address;
}
const connection = await Connection.connect({ address });
const client = new Client({ connection });
const wconn = await NativeConnection.connect({ address });
const [orch, sim] = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
const seconds = (ms: number) => (ms / 1000).toFixed(1);
console.log(`${plan.length} PhysVEC reproductions of ${tasks.join(', ')} (scripted model, ${latencyMs} ms per LLM answer); ${defaultSimulationSlots()} sandbox slots`);

const stamp = Date.now().toString(36);
let serialMs = 0;
let campaignMs = 0;
let campaignCounts = '';
try {
  await orch!.runUntil(sim!.runUntil((async () => {
    // 1. Serially: one reproduction workflow after another, the same inputs the campaign gives its children.
    let t = performance.now();
    for (const [i, key] of plan.entries()) {
      const call = childCall(`bench-serial-${stamp}`, spec, key, taskQueues().orchestration);
      const t0 = performance.now();
      const r = (await client.workflow.execute(call.workflowType, {
        workflowId: call.options.workflowId!,
        taskQueue: call.options.taskQueue!,
        args: call.options.args,
        typedSearchAttributes: call.options.typedSearchAttributes as never,
      })) as { status?: string };
      console.log(`  serial ${i + 1}/${plan.length} ${key.key}: ${r.status} in ${seconds(performance.now() - t0)} s`);
    }
    serialMs = performance.now() - t;

    // 2. The same runs as one campaign, `concurrency` at a time.
    t = performance.now();
    const { handle, campaignId } = await startCampaign(client, { ...spec, campaignId: `bench-campaign-${stamp}` });
    const result = await handle.result();
    campaignMs = performance.now() - t;
    campaignCounts = `${campaignId}: ${JSON.stringify(result.counts)}`;
  })()));
} finally {
  await connection.close();
  await wconn.close();
  await stopServer?.();
}
console.log(`serial (${plan.length} reproductions, one after another): ${seconds(serialMs)} s`);
console.log(`campaign (concurrency ${concurrency}):                     ${seconds(campaignMs)} s  [${campaignCounts}]`);
console.log(`wall-time ratio serial / campaign:                     ${(serialMs / campaignMs).toFixed(2)}×`);
process.exit(0);
