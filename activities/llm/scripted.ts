// The scripted model as a chat session: serves a cassette entry's tool rounds, then its answer.
// No HTTP, no cost; tokens are the entry's recorded `usage` (zero when it has none).
import type { CassetteEntry } from '../../schemas/llm.js';
import type { ChatSession, Turn } from './session.js';

export function scriptedSession(entry: CassetteEntry, cassetteFile: string): ChatSession {
  let round = 0;
  const rounds = entry.rounds ?? [];
  return {
    provider: 'scripted',
    scripted: true,
    async send(): Promise<Turn> {
      const request = { cassette: cassetteFile, role: entry.role, stage: entry.stage, iteration: entry.iteration, seq: entry.seq, round };
      if (round < rounds.length) {
        const toolCalls = rounds[round]!.toolCalls.map((c, i) => ({ id: `scripted-${round}-${i}`, name: c.name, args: c.args }));
        round++;
        return { text: '', toolCalls, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }, request, response: { toolCalls } };
      }
      const text = entry.text ?? JSON.stringify(entry.json);
      const usage = { inputTokens: entry.usage?.inputTokens ?? 0, outputTokens: entry.usage?.outputTokens ?? 0, cachedInputTokens: entry.usage?.cachedInputTokens ?? 0 };
      return { text, json: entry.json, toolCalls: [], usage, request, response: { text, json: entry.json } };
    },
    addToolResults() {},
    addReask() {},
  };
}

