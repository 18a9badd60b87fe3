// The set-up of the LLM tests that run callLlm under Temporal: both loopback providers (OpenAI and
// Gemini wire formats) and a client of the test server.
import type { Client } from '@temporalio/client';
import { testClient } from '../helpers/temporal.js';
import { startFakeOpenAI } from '../helpers/fake-openai-server.js';
import { startFakeGemini } from '../helpers/fake-gemini-server.js';
import { GEMINI_KEY, OPENAI_KEY } from './support.js';

export interface FakesOnTemporal {
  openai: Awaited<ReturnType<typeof startFakeOpenAI>>;
  gemini: Awaited<ReturnType<typeof startFakeGemini>>;
  client: Client;
  close(): Promise<void>;
}

export async function startFakesOnTemporal(): Promise<FakesOnTemporal> {
  const openai = await startFakeOpenAI({ apiKey: OPENAI_KEY });
  const gemini = await startFakeGemini({ apiKey: GEMINI_KEY });
  const { client, connection } = await testClient();
  return {
    openai,
    gemini,
    client,
    async close() {
      await openai.close();
      await gemini.close();
      await connection.close();
    },
  };
}
