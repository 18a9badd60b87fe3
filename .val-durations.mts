import { Connection, Client } from '@temporalio/client';
const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
const client = new Client({ connection });
for await (const wf of client.workflow.list({ query: `WorkflowType="referenceValidation"` })) {
  const h = client.workflow.getHandle(wf.workflowId);
  const hist = await h.fetchHistory();
  const sched = new Map<string, string>();
  const rows: string[] = [];
  for (const e of hist.events ?? []) {
    if (e.activityTaskScheduledEventAttributes) sched.set(String(e.eventId), e.activityTaskScheduledEventAttributes.activityType?.name ?? '');
    const c = e.activityTaskCompletedEventAttributes;
    if (c && sched.get(String(c.scheduledEventId)) === 'runJob') {
      const payload = c.result?.payloads?.[0];
      const r = JSON.parse(Buffer.from(payload!.data!).toString());
      rows.push(`${r.id}:${(r.durationMs/1000).toFixed(1)}s(rc=${r.exitCode})`);
    }
  }
  console.log(wf.workflowId, wf.status.name, ((wf.closeTime?.getTime() ?? Date.now()) - wf.startTime.getTime())/1000, '\n   ', rows.join(' '));
}
await connection.close();
