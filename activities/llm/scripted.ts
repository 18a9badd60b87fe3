// The scripted model as a chat session: serves a cassette entry's tool rounds, then its answer.
// No HTTP, no cost; tokens are the entry's recorded `usage` (zero when it has none).
// PHYSVEC_SCRIPTED_LATENCY_MS (read by the worker, per call) delays each answer by a fixed time, to
// benchmark orchestration under model-like latency; the wait is cancellable and the LLM activity
// keeps heartbeating meanwhile.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CassetteEntry } from '../../schemas/llm.js';
import { ProviderCallError, type ChatSession, type Turn } from './session.js';

export const SCRIPTED_LATENCY_ENV = 'PHYSVEC_SCRIPTED_LATENCY_MS';

/** The artificial latency of scripted answers, in ms (0 when unset); a bad value is an error naming the variable. */
export function scriptedLatencyMs(env: Record<string, string | undefined>): number {
  const raw = env[SCRIPTED_LATENCY_ENV]?.trim();
  if (!raw) return 0;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`${SCRIPTED_LATENCY_ENV}="${raw}" is not a number of milliseconds >= 0; unset it or set e.g. ${SCRIPTED_LATENCY_ENV}=250`);
  return ms;
}

export function scriptedSession(entry: CassetteEntry, cassetteFile: string, opts: { latencyMs?: number } = {}): ChatSession {
  let round = 0;
  const rounds = entry.rounds ?? [];
  return {
    provider: 'scripted',
    scripted: true,
    async send(turn): Promise<Turn> {
      const request = { cassette: cassetteFile, role: entry.role, stage: entry.stage, iteration: entry.iteration, seq: entry.seq, round };
      if (round < rounds.length) {
        const toolCalls = rounds[round]!.toolCalls.map((c, i) => ({ id: `scripted-${round}-${i}`, name: c.name, args: c.args }));
        round++;
        return { text: '', toolCalls, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }, request, response: { toolCalls } };
      }
      if (opts.latencyMs) {
        try {
          await sleep(opts.latencyMs, undefined, { signal: turn.signal });
        } catch (err) {
          throw new ProviderCallError('cancelled', `scripted answer cancelled during its ${opts.latencyMs} ms latency`, request, undefined, undefined, { cause: err });
        }
      }
      const text = entry.text ?? JSON.stringify(entry.json);
      const usage = { inputTokens: entry.usage?.inputTokens ?? 0, outputTokens: entry.usage?.outputTokens ?? 0, cachedInputTokens: entry.usage?.cachedInputTokens ?? 0 };
      return { text, json: entry.json, toolCalls: [], usage, request, response: { text, json: entry.json } };
    },
    addToolResults() {},
    addReask() {},
  };
}

