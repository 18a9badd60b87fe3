// Every `callLlm` a workflow made, read back from its history (and its child workflows'): the request
// the workflow sent (role/stage/iteration/seq, model, messages) with what came back — the result, or
// the failure and its details. The history is the one complete list of a run's calls: the cassette
// exporter (cli/cassettes/export.ts) and the evidence report's transcript both read it here.
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { LlmFailureDetails, LlmRequest, LlmResult } from '../../schemas/llm.js';

const LLM_ACTIVITY_TYPE = 'callLlm';

export interface RecordedCall {
  workflowId: string;
  request: LlmRequest;
  /** Present when the call completed. */
  result?: LlmResult;
  /** Present when the call failed for good (after Temporal's retries): its message and, when it carried them, its details. */
  failure?: { message: string; details?: LlmFailureDetails };
}

type Decode = (payloads: Payload[] | null | undefined) => Promise<unknown>;

function decoderOf(client: Client): Decode {
  const converter = client.options.loadedDataConverter;
  return async (payloads) => {
    if (!payloads?.length) return undefined;
    let ps = payloads;
    for (const codec of [...converter.payloadCodecs].reverse()) ps = await codec.decode(ps);
    return converter.payloadConverter.fromPayload(ps[0]!);
  };
}

/** The calls of `workflowId` (a given run, or the latest) in history order; children's after their start event. */
export async function llmCallsInHistory(client: Client, workflowId: string, opts: { runId?: string; children?: boolean } = {}): Promise<RecordedCall[]> {
  const history = await client.workflow.getHandle(workflowId, opts.runId).fetchHistory();
  const decode = decoderOf(client);
  const scheduled = new Map<string, LlmRequest>();
  const out: RecordedCall[] = [];
  for (const ev of history.events ?? []) {
    const s = ev.activityTaskScheduledEventAttributes;
    if (s && s.activityType?.name === LLM_ACTIVITY_TYPE) {
      scheduled.set(String(ev.eventId), LlmRequest.parse(await decode(s.input?.payloads)));
      continue;
    }
    const c = ev.activityTaskCompletedEventAttributes;
    const request = c ? scheduled.get(String(c.scheduledEventId)) : undefined;
    if (c && request) {
      out.push({ workflowId, request, result: LlmResult.parse(await decode(c.result?.payloads)) });
      continue;
    }
    const f = ev.activityTaskFailedEventAttributes;
    const failed = f ? scheduled.get(String(f.scheduledEventId)) : undefined;
    if (f && failed) {
      const details = LlmFailureDetails.safeParse(await decode(f.failure?.applicationFailureInfo?.details?.payloads).catch(() => undefined));
      out.push({ workflowId, request: failed, failure: { message: f.failure?.message ?? 'failed', ...(details.success ? { details: details.data } : {}) } });
      continue;
    }
    const child = ev.childWorkflowExecutionStartedEventAttributes;
    if (child && (opts.children ?? true) && child.workflowExecution?.workflowId) {
      out.push(...(await llmCallsInHistory(client, child.workflowExecution.workflowId, { runId: child.workflowExecution.runId ?? undefined, children: opts.children })));
    }
  }
  return out;
}
