// The LLM transcript of a run for its evidence report, grouped by agent role (like `inspect view`):
// each call's prompt as the workflow sent it and the answer (or the failure), its tokens, cost and
// whether a scripted model answered. The page shows at most PREVIEW_CHARS of any one text; the
// rest is a file in the report's folder the page links (a paper's TeX, a long script), and every
// call links its whole recorded exchange (HTTP requests, tool calls) — nothing multi-MB is inlined.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { callKeyString } from '../../lib/llm/keys.js';
import { isScriptedModel } from '../../lib/llm/model-id.js';
import type { RecordedCall } from '../../lib/temporal/llm-calls.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { LlmMessage } from '../../schemas/llm.js';
import { safeRelative, type ReportFolder } from './report-files.js';

/** Characters of one prompt message or answer shown on the page; the whole text is a linked file. */
export const PREVIEW_CHARS = 4000;

interface Shown {
  text: string;
  /** The text was cut to PREVIEW_CHARS: `href` has all of it. */
  cut: boolean;
  href?: string;
}

interface MessagePart extends Partial<Shown> {
  /** An artifact part (big content the activity read from the store): shown as a link, never inlined. */
  artifact?: { label: string; bytes: number; href?: string };
}

interface TranscriptCall {
  id: string;
  key: string;
  model: string;
  scripted: boolean;
  outcome: 'ok' | 'failed';
  tokens: { inputTokens: number; outputTokens: number; costUsd: number } | null;
  messages: { role: LlmMessage['role']; parts: MessagePart[] }[];
  answer: Shown | null;
  error: string | null;
  toolCalls: number;
  exchangeHref?: string;
}

interface TranscriptRole {
  role: string;
  calls: TranscriptCall[];
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  scripted: boolean;
}

/** What the report shows: the calls by role, or why there is no transcript. */
export type Transcript = { available: true; roles: TranscriptRole[] } | { available: false; reason: string };

/** Shows `full`, cut to PREVIEW_CHARS with the whole text written beside the page. */
async function shown(folder: ReportFolder, full: string, href: string, what: string): Promise<Shown> {
  if (full.length <= PREVIEW_CHARS) return { text: full, cut: false };
  const file = await folder.write(href, full, what);
  return { text: full.slice(0, PREVIEW_CHARS), cut: true, href: file.href };
}

async function messageView(folder: ReportFolder, m: LlmMessage, base: string, k: number) {
  const parts = typeof m.content === 'string' ? [{ text: m.content }] : m.content;
  const out: MessagePart[] = [];
  for (const [j, p] of parts.entries()) {
    if ('text' in p) out.push(await shown(folder, p.text, `${base}.message-${k + 1}.${j + 1}.txt`, `prompt message ${k + 1} of ${base}`));
    else out.push({ artifact: { label: p.label ?? p.artifact.name ?? p.artifact.sha256.slice(0, 12), bytes: p.artifact.bytes, href: (await inputCopy(folder, p.artifact))?.href } });
  }
  return { role: m.role, parts: out };
}

/** An artifact a prompt referred to, copied once under its hash (many calls send the same paper). */
function inputCopy(folder: ReportFolder, ref: ArtifactRef) {
  const name = safeRelative(ref.name ?? 'input').replace(/\//g, '_');
  return folder.copyOnce(ref, `artifacts/llm/inputs/${ref.sha256.slice(0, 12)}-${name}`, `LLM input ${ref.name ?? ref.sha256.slice(0, 12)}`);
}

async function answerText(store: ArtifactStore, call: RecordedCall): Promise<string | null> {
  const r = call.result;
  if (!r) return null;
  if (r.textRef) return store.getText(r.textRef).catch(() => `${r.text}\n[the whole answer (${r.textRef!.bytes} bytes) is not in the artifact store]`);
  return r.text;
}

async function callView(store: ArtifactStore, folder: ReportFolder, call: RecordedCall, n: number): Promise<TranscriptCall> {
  const { request, result, failure } = call;
  const key = callKeyString(request.key);
  const base = `artifacts/llm/${String(n).padStart(3, '0')}-${safeRelative(key).replace(/\//g, '-')}`;
  const messages = [];
  for (const [k, m] of request.messages.entries()) messages.push(await messageView(folder, m, base, k));
  const full = await answerText(store, call);
  const exchangeRef = result?.exchangeRef ?? failure?.details?.exchangeRef;
  const usage = result?.usage ?? failure?.details?.usage;
  return {
    id: `llm-${n}`,
    key,
    model: result?.model ?? request.model,
    scripted: result?.scripted ?? isScriptedModel(request.model),
    outcome: result ? 'ok' : 'failed',
    tokens: usage ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: result?.costUsd ?? failure?.details?.costUsd ?? 0 } : null,
    messages,
    answer: full === null ? null : await shown(folder, full, `${base}.answer.txt`, `answer of ${key}`),
    error: failure?.message ?? null,
    toolCalls: result?.toolCalls.length ?? 0,
    exchangeHref: exchangeRef ? (await folder.copy(exchangeRef, `${base}.exchange.json`, `recorded exchange of ${key}`))?.href : undefined,
  };
}

/** The calls grouped by role, in the order each role first spoke; files written into `folder`. */
export async function transcriptOf(store: ArtifactStore, folder: ReportFolder, calls: RecordedCall[], beat: () => void = () => undefined): Promise<Transcript> {
  const roles = new Map<string, TranscriptRole>();
  for (const [i, call] of calls.entries()) {
    beat();
    const v = await callView(store, folder, call, i + 1);
    const role = call.request.key.role;
    const r = roles.get(role) ?? { role, calls: [], inputTokens: 0, outputTokens: 0, costUsd: 0, scripted: true };
    r.calls.push(v);
    r.inputTokens += v.tokens?.inputTokens ?? 0;
    r.outputTokens += v.tokens?.outputTokens ?? 0;
    r.costUsd += v.tokens?.costUsd ?? 0;
    r.scripted &&= v.scripted;
    roles.set(role, r);
  }
  return { available: true, roles: [...roles.values()] };
}
