// zod → provider JSON schemas, and answer checking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { answerJsonSchema, openAiJsonSchema } from '../../activities/llm/json-schema.js';
import { checkAnswer } from '../../activities/llm/structured.js';
import { llmOutputSchema, llmOutputSchemas } from '../../schemas/llm-outputs.js';

const S = z.object({ name: z.string(), n: z.number().int().optional(), tags: z.array(z.object({ k: z.enum(['a', 'b']), note: z.string().optional() })) });

test('OpenAI strict: closed objects, all properties required, optional ones nullable', () => {
  const { schema, strict } = openAiJsonSchema(S);
  assert.equal(strict, true);
  assert.equal(schema.$schema, undefined);
  assert.equal(schema.additionalProperties, false);
  assert.deepEqual(schema.required, ['name', 'n', 'tags']);
  const props = schema.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(props.n, { type: ['integer', 'null'] }, 'no ±2^53 bounds, nullable');
  const item = (props.tags!.items as Record<string, unknown>);
  assert.deepEqual(item.required, ['k', 'note']);
  assert.deepEqual((item.properties as Record<string, unknown>).note, { type: ['string', 'null'] });
});

test('schemas strict mode cannot express are sent non-strict', () => {
  const { strict, schema } = openAiJsonSchema(z.object({ scores: z.record(z.string(), z.number()) }));
  assert.equal(strict, false);
  assert.equal(schema.type, 'object');
});

test('every registered output schema converts', () => {
  for (const name of Object.keys(llmOutputSchemas)) {
    assert.equal(answerJsonSchema(llmOutputSchema(name)).type, 'object', name);
  }
  assert.throws(() => llmOutputSchema('nope'), (err: Error) => err.message.startsWith(`unknown outputSchema "nope"; known: ${Object.keys(llmOutputSchemas).join(', ')}`));
});

test('checkAnswer: strict-mode nulls dropped for optional fields, fences accepted, errors name the path', () => {
  assert.deepEqual(checkAnswer('{"name":"x","n":null,"tags":[{"k":"a","note":null}]}', S), { ok: true, value: { name: 'x', tags: [{ k: 'a' }] } });
  assert.deepEqual(checkAnswer('```json\n{"name":"x","tags":[]}\n```', S), { ok: true, value: { name: 'x', tags: [] } });
  const bad = checkAnswer('{"name":"x","tags":[{"k":"c"}]}', S);
  assert.equal(bad.ok, false);
  assert.match((bad as { error: string }).error, /tags\.0\.k/);
  assert.match((checkAnswer('{', S) as { error: string }).error, /not valid JSON/);
});
