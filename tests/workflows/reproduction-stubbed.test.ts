// The reproduction workflow against stubbed activities (@temporalio/testing on the test runner's
// Temporal server): its limits, signals and verdicts, in seconds. Each test asserts what ended the
// run, the stage it reached and how many calls it made — numbers the orchestration decides.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { ReproductionInput } from '../../schemas/pipeline.js';
import { queuesOf } from '../../temporal-config/queues.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import { pauseSignal, progressQuery, resumeSignal, stopSignal, type ReproductionProgress } from '../../workflows/reproduction/progress.js';
import { ensureServer, workflowBundle } from '../helpers/temporal.js';
import { waitFor } from '../helpers/poll.js';
import { stubActivities, type Scenario } from './stubs.js';

let env: TestWorkflowEnvironment;

before(async () => {
  env = await TestWorkflowEnvironment.createFromExistingServer({ address: await ensureServer() });
});
after(async () => {
  await env?.teardown();
});

/**
 * Start a reproduction with the scenario's stubs answering, and run `drive` against it. Each run has
 * a queue family of its own (the workflow sends its activities to the family of the queue it runs
 * on), served by workers made for it: runs never see another test's stubs, so tests may run at once.
 */
async function withReproduction<T>(
  scenario: Scenario,
  input: Partial<ReproductionInput>,
  drive: (handle: Awaited<ReturnType<typeof env.client.workflow.start>>, calls: ReturnType<typeof stubActivities>['calls']) => Promise<T>,
): Promise<T> {
  const stubs = stubActivities(scenario);
  const queues = queuesOf(`stubbed-${randomUUID()}`);
  const [orchestration, simulation] = await Promise.all([
    Worker.create({ connection: env.nativeConnection, taskQueue: queues.orchestration, workflowBundle: await workflowBundle(), activities: stubs.light }),
    Worker.create({ connection: env.nativeConnection, taskQueue: queues.simulation, activities: stubs.sim }),
  ]);
  const full: ReproductionInput = { taskFile: '/stub/task.json', models: { defaultModel: 'stub:model', roles: {} }, ...input };
  return orchestration.runUntil(
    simulation.runUntil(async () => {
      const handle = await env.client.workflow.start('reproduction', { taskQueue: queues.orchestration, workflowId: `stubbed-${randomUUID().slice(0, 8)}`, args: [full] });
      return drive(handle, stubs.calls);
    }),
  );
}

const result = (h: { result(): Promise<unknown> }) => h.result() as Promise<ReproductionResult>;
const roles = (calls: { role: string }[], role: string) => calls.filter((c) => c.role === role).length;

test('budget stop: the call that would exceed the budget is never made; the run ends budget_exhausted where it was', async () => {
  // author plan, query summary and the coder's script cost 3 x 200 tokens; the budget is 500.
  await withReproduction({ runsAt: () => true, tokensPerCall: 200 }, { budget: { maxTokens: 500 } }, async (h, calls) => {
    const r = await result(h);
    assert.equal(r.status, 'budget_exhausted', r.message);
    assert.equal(r.stageReached, 'programming');
    assert.match(r.message ?? '', /budget exhausted during stage programming/);
    assert.deepEqual(calls.llm.map((c) => c.role), ['author', 'author', 'coder']);
    assert.equal(r.tokens.inputTokens + r.tokens.outputTokens, 600);
    assert.ok(!calls.activities.includes('judgeProgramming'), 'no programming pass without the unit-test writer');
    assert.equal(calls.activities.at(-1), 'writeReport', 'the report is written after the budget stop');
  });
});

test('a run deadline gives each LLM call the time left to it (a provider outage retries until then); without one, a day', async () => {
  const llmDeadlines = async (input: Partial<ReproductionInput>) =>
    withReproduction({ runsAt: () => true, tokensPerCall: 200 }, { ...input, budget: { maxTokens: 500, ...input.budget } }, async (h) => {
      await result(h);
      const history = await env.client.workflow.getHandle(h.workflowId).fetchHistory();
      return (history.events ?? [])
        .map((e) => e.activityTaskScheduledEventAttributes)
        .filter((a) => a?.activityType?.name === 'callLlm')
        .map((a) => Number(a!.scheduleToCloseTimeout!.seconds));
    });
  const withDeadline = await llmDeadlines({ budget: { deadlineMs: 6 * 3600_000 } });
  assert.equal(withDeadline.length, 3);
  for (const s of withDeadline) assert.ok(s > 6 * 3600 - 120 && s <= 6 * 3600, `each call may retry until the run's deadline: ${s} s`);
  for (const s of await llmDeadlines({})) assert.ok(s > 24 * 3600 - 120 && s <= 24 * 3600, `a run started without a deadline (a campaign child) gets a day: ${s} s`);
});

test('pause after a stage, resume, pause by signal, then stop: the run ends stopped at the boundary it paused at', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const scenario: Scenario = { runsAt: () => true, judgeGate: () => gate };
  await withReproduction(scenario, { pauseAfter: ['author'] }, async (h, calls) => {
    const progress = () => h.query(progressQuery) as Promise<ReproductionProgress>;
    await waitFor('the pause after author', async () => ((await progress()).status === 'paused' ? true : undefined), 20_000, 100);
    assert.equal((await progress()).stage, 'author');
    assert.ok(!calls.activities.includes('buildUnitJobs'), 'paused: the programming verifier has not started');
    await h.signal(resumeSignal, 'go on');
    await waitFor('the programming pass', async () => (calls.activities.includes('judgeProgramming') ? true : undefined), 20_000, 50);
    await h.signal(pauseSignal, 'let me look');
    await waitFor('the pause to be recorded', async () => ((await progress()).human.some((e) => e.kind === 'pause') ? true : undefined), 20_000, 50);
    release();
    await waitFor('the pause after programming', async () => ((await progress()).status === 'paused' ? true : undefined), 20_000, 100);
    assert.equal((await progress()).stage, 'programming');
    await h.signal(stopSignal, 'enough');
    const r = await result(h);
    assert.equal(r.status, 'stopped');
    assert.equal(r.stageReached, 'programming');
    assert.equal(r.message, 'enough');
    assert.deepEqual((await progress()).human.map((e) => e.kind), ['resume', 'pause', 'stop']);
    assert.ok(!calls.activities.includes('checkAssertions'), 'stopped before the scientific verifier');
  });
});

test('never executable: the programming verifier repairs after every iteration but the last, then the run fails', async () => {
  await withReproduction({ runsAt: () => false }, { limits: { programmingIterations: 3 } }, async (h, calls) => {
    const r = await result(h);
    assert.equal(r.status, 'failed');
    assert.equal(r.stageReached, 'programming');
    assert.equal(r.message, 'the script did not run after 3 programming iterations');
    assert.equal(calls.activities.filter((a) => a === 'judgeProgramming').length, 3);
    assert.equal(calls.repairs, 2, 'no repair after the last iteration (it would never be run)');
    assert.equal(roles(calls.llm, 'repairer'), 2);
    assert.equal(r.runMetrics.iterations, 3);
    assert.equal(r.runMetrics.executable, false);
    assert.ok(!calls.activities.includes('checkAssertions'));
  });
});

test('convergence limit reached: the knob is raised convergenceMaxSteps times, then the run fails after its final run', async () => {
  await withReproduction({ runsAt: () => true, converges: false }, { limits: { convergenceMaxSteps: 3 } }, async (h, calls) => {
    const r = await result(h);
    assert.equal(r.status, 'failed');
    assert.equal(r.stageReached, 'final');
    assert.equal(r.message, 'a convergence case did not converge');
    const steps = calls.jobs.filter((j) => j.purpose.kind === 'convergence');
    assert.deepEqual(steps.map((j) => j.id), ['convergence:0:1', 'convergence:0:2', 'convergence:0:4']);
    assert.deepEqual(steps.map((j) => j.env?.PHYSVEC_PARAM), ['1', '2', '4']);
    assert.equal(calls.repairs, 0);
    assert.equal(r.runMetrics.scientificCompleted, false);
  });
});

test('control: science that passes at the second iteration after one localised repair, convergence that settles: passed', async () => {
  await withReproduction({ runsAt: () => true, sciencePassesAt: (it) => it >= 2, converges: true }, {}, async (h, calls) => {
    const r = await result(h);
    assert.equal(r.status, 'passed', r.message);
    assert.equal(r.stageReached, 'final');
    assert.equal(calls.repairs, 1);
    assert.deepEqual(calls.llm.filter((c) => c.role === 'repairer').map((c) => [c.stage, c.iteration]), [['scientific', 1]]);
    assert.equal(r.runMetrics.scientificIteration, 2);
    assert.equal(calls.jobs.filter((j) => j.purpose.kind === 'convergence').length, 1, 'converged at the first value');
  });
});
