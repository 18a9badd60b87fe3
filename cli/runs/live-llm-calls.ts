// LLM calls of a workflow that are being retried, read from its pending activities (describe() →
// pendingActivities): the attempt, the previous attempt's failure and when the next one starts come
// from the server; which call it is and since when its provider has been failing come from the
// call's heartbeat details (activities/llm/attempt-ledger.ts). So `physvec status` and the progress
// line of a foreground reproduce say "provider unavailable for 4m10s, retrying (attempt 17)" while a
// provider outage is ridden out, without asking the workflow.
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { LlmCallDetails } from '../../schemas/llm-call-details.js';
import { LLM_ERROR } from '../../lib/llm/failures.js';

type PendingActivity = temporal.api.workflow.v1.IPendingActivityInfo;

export interface RetryingLlmCall {
  call: string | null;
  attempt: number;
  /** How long the provider has been failing transiently (null: the last failure was of another kind). */
  unavailableMs: number | null;
  nextAttemptInMs: number | null;
  lastFailure: { type: string | null; message: string } | null;
  line: string;
}

function details(a: PendingActivity): LlmCallDetails | null {
  const payload = a.heartbeatDetails?.payloads?.[0];
  if (!payload) return null;
  try {
    return LlmCallDetails.safeParse(defaultPayloadConverter.fromPayload(payload as Payload)).data ?? null;
  } catch {
    return null;
  }
}

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** A proto timestamp in ms (null when absent). */
function ms(t: { seconds?: unknown; nanos?: number | null } | null | undefined): number | null {
  if (!t?.seconds) return null;
  return Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
}

export function retryingLine(c: Omit<RetryingLlmCall, 'line'>): string {
  const what = c.unavailableMs !== null ? `provider unavailable for ${duration(c.unavailableMs)}, retrying` : 'retrying';
  const next = c.nextAttemptInMs !== null && c.nextAttemptInMs > 0 ? `; next in ${duration(c.nextAttemptInMs)}` : '';
  const failure = c.lastFailure ? ` — last failure${c.lastFailure.type ? ` [${c.lastFailure.type}]` : ''}: ${c.lastFailure.message.slice(0, 300)}` : '';
  return `LLM call${c.call ? ` ${c.call}` : ''}: ${what} (attempt ${c.attempt}${next})${failure}`;
}

/** callLlm activities among `pending` that are past their first attempt (a retry under way or waiting). */
export function retryingLlmCalls(pending: readonly PendingActivity[] | null | undefined, now: number = Date.now()): RetryingLlmCall[] {
  const out: RetryingLlmCall[] = [];
  for (const a of pending ?? []) {
    if (a.activityType?.name !== 'callLlm' || (a.attempt ?? 1) < 2) continue;
    const d = details(a);
    const f = a.lastFailure;
    const type = f?.applicationFailureInfo?.type ?? null;
    const since = d?.unavailableSince;
    const base = {
      call: d?.call ?? null,
      attempt: a.attempt ?? 1,
      unavailableMs: since !== undefined && (type === LLM_ERROR.transient || type === null) ? now - since : null,
      nextAttemptInMs: (() => { const t = ms(a.nextAttemptScheduleTime); return t === null ? null : t - now; })(),
      lastFailure: f?.message ? { type, message: f.message.replace(/ — provider unavailable for .*$/, '') } : null,
    };
    out.push({ ...base, line: retryingLine(base) });
  }
  return out;
}
