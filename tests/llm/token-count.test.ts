// Token counts of responses without usage (activities/llm/token-count.ts): OpenAI models with their
// own encoding, every other family with o200k_base as the documented approximation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens, encodingFor } from '../../activities/llm/token-count.js';

test('each model family is counted with its encoding; unknown families use o200k_base as an approximation', () => {
  for (const m of ['openai:gpt-4o-mini', 'openai:gpt-4.1', 'openai:gpt-5.1', 'openai:o3-mini', 'openrouter:openai/gpt-4o', 'openai:gpt-oss-120b']) {
    assert.deepEqual(encodingFor(m), { encoding: 'o200k_base', own: true }, m);
  }
  for (const m of ['openai:gpt-4', 'openai:gpt-4-turbo', 'openai:gpt-3.5-turbo']) assert.deepEqual(encodingFor(m), { encoding: 'cl100k_base', own: true }, m);
  for (const m of ['gemini:gemini-2.5-pro', 'local:llama-3.1-70b', 'gemini']) assert.deepEqual(encodingFor(m), { encoding: 'o200k_base', own: false }, m);
});

test('counts are the tokenizer\'s, not characters/4; special-token text is counted as text', () => {
  // Code with a Russian comment: the two encodings differ on non-Latin text (o200k's larger vocabulary).
  const code = 'import numpy as np\nH = np.kron(sx, sx) + np.kron(sy, sy)  # Энергия основного состояния цепочки Гейзенберга\n';
  assert.equal(countTokens('openai:gpt-4o', [code, 'ok']), o200k.countTokens(code) + o200k.countTokens('ok'));
  assert.equal(countTokens('openai:gpt-4', [code]), cl100k.countTokens(code));
  assert.notEqual(o200k.countTokens(code), cl100k.countTokens(code), 'the two encodings differ on this text');
  assert.notEqual(countTokens('openai:gpt-4o', [code]), Math.ceil(code.length / 4));
  assert.ok(countTokens('gemini:gemini-2.5-flash', ['the model wrote <|endoftext|> here']) > 5);
});
