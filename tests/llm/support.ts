// Shared set-up of the LLM tests: a config whose providers point at the loopback fakes, a throw-away
// artifact store, and the activity built on them.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { createLlmActivities } from '../../activities/llm/index.js';
import type { ToolExecutor } from '../../activities/llm/call-llm.js';
import { validateConfig } from '../../lib/config.js';
import type { PhysvecConfig } from '../../schemas/config.js';
import type { LlmRequest } from '../../schemas/llm.js';

export const OPENAI_KEY = 'sk-test-key';
export const GEMINI_KEY = 'gemini-test-key';

export function testConfig(urls: { openai?: string; gemini?: string } = {}, llm: Record<string, unknown> = {}): PhysvecConfig {
  return validateConfig(
    {
      llm: {
        defaultModel: 'openai:fake-gpt',
        providers: {
          openai: { kind: 'openai', apiKeyEnv: 'TEST_OPENAI_KEY', baseUrl: urls.openai ?? 'http://127.0.0.1:9/v1' },
          gemini: { kind: 'gemini', apiKeyEnv: 'TEST_GEMINI_KEY', baseUrl: urls.gemini ?? 'http://127.0.0.1:9' },
          // Same server, a key it refuses: for 401 tests that share one activity set.
          badkey: { kind: 'openai', apiKeyEnv: 'TEST_BAD_KEY', baseUrl: urls.openai ?? 'http://127.0.0.1:9/v1' },
        },
        models: {
          'openai:fake-gpt': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
          'gemini:fake-gemini': { inputPerMTok: 1, outputPerMTok: 4 },
        },
        requestTimeoutMs: 5000,
        ...llm,
      },
    },
    'tests/llm/support.ts',
  );
}

export const testEnv = { TEST_OPENAI_KEY: OPENAI_KEY, TEST_GEMINI_KEY: GEMINI_KEY, TEST_BAD_KEY: 'sk-revoked' };

export function tempStore(): ArtifactStore {
  return new ArtifactStore(mkdtempSync(path.join(os.tmpdir(), 'physvec-llm-store-')));
}

/** A retrieval tool whose answer depends only on its arguments, so replays can be compared. */
export const retrieveTool: ToolExecutor = async (args) => {
  const { query } = args as { query: string };
  return `doc for "${query}": the Heisenberg chain has E0/N = 1/4 - ln 2`;
};

export const retrieveSpec = {
  name: 'retrieve',
  description: 'Search the knowledge base',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
};

export function activities(opts: { config: PhysvecConfig; store?: ArtifactStore; env?: Record<string, string | undefined> }) {
  const store = opts.store ?? tempStore();
  return { store, ...createLlmActivities({ store, config: opts.config, env: opts.env ?? testEnv, tools: { retrieve: retrieveTool } }) };
}

export function request(model: string, over: Partial<LlmRequest> = {}): LlmRequest {
  return {
    key: { role: 'author', stage: 'plan', iteration: 0, seq: 0 },
    model,
    messages: [
      { role: 'system', content: 'You are a physicist.' },
      { role: 'user', content: 'What is the ground-state energy per site of the Heisenberg chain?' },
    ],
    ...over,
  };
}

/** The ApplicationFailure fields a test asserts on. */
export function failureOf(err: unknown): { type?: string; message: string; nonRetryable?: boolean; nextRetryDelay?: unknown; details?: unknown[] } {
  return err as never;
}
