// physvec.config.json: the committed file validates; sections are strict, the root tolerant;
// CLI overrides; credential check before a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyCliOverrides, loadConfig, modelsForRoles, roleModel, validateConfig } from '../../lib/config.js';
import { BadInputError } from '../../lib/errors.js';
import { repoRoot } from '../../lib/paths.js';
import { checkCredentials, describeMissingCredentials } from '../../lib/llm/credentials.js';

const committed = () => JSON.parse(readFileSync(path.join(repoRoot, 'physvec.config.json'), 'utf8'));

test('the committed physvec.config.json is valid and prices its default model', () => {
  const c = loadConfig(path.join(repoRoot, 'physvec.config.json'));
  assert.ok(c.llm.providers.openai && c.llm.providers.gemini);
  assert.ok(c.llm.models[c.llm.defaultModel], `the default model ${c.llm.defaultModel} has a price`);
  assert.equal(c.llm.structuredRetries, 3);
  assert.deepEqual(c.budget, { maxTokens: null, maxUsd: null, deadlineHours: 24 });
});

test('the root keeps sections it does not know; a typo inside a section is an error naming the field', () => {
  const withOther = { ...committed(), cluster: { memoryMb: 4096 } };
  assert.deepEqual((validateConfig(withOther) as Record<string, unknown>).cluster, { memoryMb: 4096 });
  const typo = committed();
  typo.llm.structuredRetrys = 2;
  assert.throws(() => validateConfig(typo, 'physvec.config.json'), (err: Error) => err instanceof BadInputError && /physvec\.config\.json: llm: Unrecognized key: "structuredRetrys"/.test(err.message));
  const bad = committed();
  bad.llm.roles = { author: 'nope:model' };
  assert.throws(() => validateConfig(bad, 'f.json'), /f\.json: llm\.roles\.author: unknown provider "nope"/);
});

test('loadConfig reports an unreadable file with the fix', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'physvec-config-'));
  const file = path.join(dir, 'physvec.config.json');
  writeFileSync(file, '{ not json');
  assert.throws(() => loadConfig(file), (err: Error) => err instanceof BadInputError && err.message.includes(file) && /PHYSVEC_CONFIG/.test(err.message));
});

test('--model sets every role, then --role-model overrides single roles; budgets from flags', () => {
  const base = validateConfig({ ...committed(), llm: { ...committed().llm, roles: { 'rubric-grader': 'gemini:gemini-2.5-pro' } } });
  assert.equal(roleModel(base, 'rubric-grader'), 'gemini:gemini-2.5-pro');
  assert.equal(roleModel(base, 'author'), base.llm.defaultModel);
  const c = applyCliOverrides(base, { model: 'openai:gpt-5-mini', roleModel: ['author=qwen:qwen-max'], budgetTokens: 200000, budgetUsd: 2.5, deadlineHours: 6 });
  assert.equal(roleModel(c, 'rubric-grader'), 'openai:gpt-5-mini');
  assert.equal(roleModel(c, 'author'), 'qwen:qwen-max');
  assert.deepEqual(c.budget, { maxTokens: 200000, maxUsd: 2.5, deadlineHours: 6 });
  assert.deepEqual(modelsForRoles(c, ['author', 'coder']).sort(), ['openai:gpt-5-mini', 'qwen:qwen-max']);
  assert.equal(base.llm.defaultModel, committed().llm.defaultModel, 'the input config is not modified');
  assert.throws(() => applyCliOverrides(base, { roleModel: ['author'] }), /--role-model author: expected <role>=<provider:model>/);
  assert.throws(() => applyCliOverrides(base, { model: 'gpt-5' }), /--model: "gpt-5" is not a model string/);
  assert.throws(() => applyCliOverrides(base, { model: 'mistral:large' }), /--model: unknown provider "mistral"/);
  assert.throws(() => applyCliOverrides(base, { budgetUsd: -1 }), /--budget-usd/);
  assert.throws(() => applyCliOverrides(base, { deadlineHours: 0 }), /--deadline-hours: expected a positive number of hours/);
});

test('checkCredentials lists the missing key variables per model; scripted and keyless endpoints need none', () => {
  const c = loadConfig(path.join(repoRoot, 'physvec.config.json'));
  const missing = checkCredentials(['openai:gpt-5.1', 'openai:gpt-5-mini', 'gemini:gemini-2.5-pro', 'scripted:example', 'ollama:llama3'], c, { GEMINI_API_KEY: 'x' });
  assert.deepEqual(missing, [{ envVar: 'OPENAI_API_KEY', models: ['openai:gpt-5.1', 'openai:gpt-5-mini'] }]);
  assert.equal(describeMissingCredentials(missing), 'set OPENAI_API_KEY (needed by openai:gpt-5.1, openai:gpt-5-mini)');
  assert.deepEqual(checkCredentials(['openai:gpt-5.1'], c, { OPENAI_API_KEY: 'sk' }), []);
  assert.throws(() => checkCredentials(['nope:x'], c, {}), (err: Error) => err instanceof BadInputError && /unknown provider "nope"/.test(err.message));
});
