// A cassette from a run: every completed `callLlm` in the workflow's history (and its child
// workflows'), keyed by role/stage/iteration/seq, with the answer, tool rounds and recorded tokens.
// Replaying it with `scripted:<file>` gives the same answers at zero cost. Client-side code (the CLI).
import type { Client } from '@temporalio/client';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { Cassette, type CassetteEntry, type LlmRequest, type LlmResult } from '../../schemas/llm.js';
import { llmCallsInHistory } from '../../lib/temporal/llm-calls.js';
import { callKeyString } from '../../lib/llm/keys.js';

export interface ExportOptions {
  runId?: string;
  /** Needed when answers were too long to travel inline (textRef/parsedRef). */
  store?: ArtifactStore;
  name?: string;
  description?: string;
  /** Follow child workflows (default true). */
  children?: boolean;
}

interface Recorded {
  workflowId: string;
  request: LlmRequest;
  result: LlmResult;
}

export class CassetteExportError extends Error {
  override name = 'CassetteExportError';
}

export async function exportCassette(client: Client, workflowId: string, opts: ExportOptions = {}): Promise<Cassette> {
  const recorded = await collect(client, workflowId, opts.runId, opts.children ?? true);
  const seen = new Map<string, string>();
  const entries: CassetteEntry[] = [];
  for (const r of recorded) {
    const k = callKeyString(r.request.key);
    const first = seen.get(k);
    if (first !== undefined) {
      throw new CassetteExportError(`two LLM calls in this run share the key ${k} (in ${first} and ${r.workflowId}); a cassette could not tell them apart — give them distinct role/stage/iteration/seq`);
    }
    seen.set(k, r.workflowId);
    entries.push(await entryOf(r, opts.store));
  }
  return Cassette.parse({
    name: opts.name ?? workflowId,
    description: opts.description ?? `Exported from workflow ${workflowId}: ${entries.length} LLM call(s).`,
    source: { workflowId, runId: opts.runId, exportedAt: new Date().toISOString() },
    entries,
  });
}

async function collect(client: Client, workflowId: string, runId: string | undefined, children: boolean): Promise<Recorded[]> {
  const calls = await llmCallsInHistory(client, workflowId, { runId, children });
  return calls.flatMap((c) => (c.result ? [{ workflowId: c.workflowId, request: c.request, result: c.result }] : []));
}

async function entryOf({ request, result }: Recorded, store: ArtifactStore | undefined): Promise<CassetteEntry> {
  const need = (what: string) => {
    if (!store) throw new CassetteExportError(`the answer of ${callKeyString(request.key)} is stored as an artifact (${what}); pass the artifact store`);
    return store;
  };
  const text = result.textRef ? await need('textRef').getText(result.textRef) : result.text;
  const json = result.parsedRef ? await need('parsedRef').getJson(result.parsedRef) : result.parsed;
  const rounds: CassetteEntry['rounds'] = [];
  for (const call of result.toolCalls) {
    (rounds[call.round] ??= { toolCalls: [] }).toolCalls.push({ name: call.name, args: call.args });
  }
  const { role, stage, iteration, seq } = request.key;
  return {
    role,
    stage,
    iteration,
    seq,
    ...(rounds.length ? { rounds } : {}),
    text,
    ...(request.outputSchema !== undefined ? { json } : {}),
    usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, cachedInputTokens: result.usage.cachedInputTokens },
  };
}
