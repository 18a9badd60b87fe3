// planCampaign: the selection crossed with models × frameworks × trials, trial-major and stable,
// keys sanitised and unique; bad selections are BadInputErrors naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { planCampaign } from '../../activities/campaign/plan.js';
import { CampaignInput } from '../../schemas/campaign.js';
import { BadInputError } from '../../lib/errors.js';
import { qmpBenchRoot } from '../../lib/paths.js';
import { childWorkflowId, modelForRun, runKeyOf } from '../../lib/campaign/keys.js';

const spec = (over: Record<string, unknown>) => CampaignInput.parse({ selection: {}, models: ['scripted:campaign/{task}.t{trial}'], ...over });

test('trial-major order over tasks × models × frameworks, sanitised unique keys', async () => {
  const keys = await planCampaign(spec({
    selection: { ids: ['dimer_pipeline', 'heisenberg_chain'] },
    models: ['scripted:campaign/{task}.t{trial}', 'openai:gpt-5.1'],
    frameworks: ['physvec', '1-shot'],
    trials: 2,
  }));
  assert.equal(keys.length, 2 * 2 * 2 * 2);
  assert.deepEqual(keys.slice(0, 8).map((k) => k.trial), [1, 1, 1, 1, 1, 1, 1, 1], 'every group gets its first trial before any second trial');
  assert.deepEqual(keys.slice(8).map((k) => k.trial), [2, 2, 2, 2, 2, 2, 2, 2]);
  assert.equal(new Set(keys.map((k) => k.key)).size, keys.length, 'keys are unique');
  for (const k of keys) {
    assert.equal(k.key, runKeyOf(k.taskId, k.model, k.framework, k.trial));
    assert.equal(k.key.split('/').length, 4, `${k.key}: '/' only separates the four parts`);
    assert.ok(existsSync(k.taskFile));
  }
  assert.equal(keys[0]!.taskId, 'task_dmrg_heisenberg_chain', 'the dataset order (topic folder, then file) is kept');
  assert.equal(keys[0]!.topic, 'dmrg');
  assert.equal(modelForRun(keys[0]!.model, keys[0]!.taskId, 2), 'scripted:campaign/task_dmrg_heisenberg_chain.t2');
  assert.equal(childWorkflowId('c1', keys[0]!.key), `c1--${keys[0]!.key}`);
  const again = await planCampaign(spec({ selection: { ids: ['dimer_pipeline', 'heisenberg_chain'] }, models: ['scripted:campaign/{task}.t{trial}', 'openai:gpt-5.1'], frameworks: ['physvec', '1-shot'], trials: 2 }));
  assert.deepEqual(again, keys, 'the plan is stable');
});

test('topics and limit filter the suite', async () => {
  const keys = await planCampaign(spec({ selection: { topics: ['qsim'], limit: 2 } }));
  assert.equal(keys.length, 2);
  assert.ok(keys.every((k) => k.topic === 'qsim'));
});

test('bad selections name the field and what to do', async () => {
  await assert.rejects(planCampaign(spec({ selection: { ids: ['no_such_task_anywhere'] } })), (e: Error) => e instanceof BadInputError && /selection\.ids/.test(e.message));
  await assert.rejects(planCampaign(spec({ selection: { ids: ['dimer_pipeline'], topics: ['qsim'] } })), (e: Error) => e instanceof BadInputError && /selection\.topics.*topics present: dmrg/.test(e.message));
  await assert.rejects(planCampaign(spec({ selection: { root: '/nonexistent/dataset' } })), (e: Error) => e instanceof BadInputError && /selection\.root/.test(e.message));
  await assert.rejects(planCampaign({ ...spec({}), models: ['a:b', 'a:b'] }), (e: Error) => e instanceof BadInputError && /models: "a:b" is listed twice/.test(e.message));
  assert.equal(CampaignInput.safeParse({ selection: { topics: ['chemistry'] }, models: ['x:y'] }).success, false, 'an unknown topic is refused by the schema');
});

test('a QMP-Bench root is read as published', { skip: existsSync(qmpBenchRoot) ? false : `QMP-Bench is not at ${qmpBenchRoot}` }, async () => {
  const keys = await planCampaign(spec({ selection: { root: qmpBenchRoot, topics: ['nqs'], limit: 3 }, frameworks: ['react'] }));
  assert.equal(keys.length, 3);
  assert.ok(keys.every((k) => k.topic === 'nqs' && k.framework === 'react' && k.taskFile.startsWith(qmpBenchRoot)));
});
