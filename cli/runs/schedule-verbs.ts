// The bodies of `physvec schedule create|list|describe|pause|trigger|delete` (cli/commands/schedule.ts
// declares their flags): each connects, acts on the schedule through campaign-schedule.ts and prints
// one line per fact, or one JSON document with --json.
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { resultsStore } from '../../lib/results/results-config.js';
import { checkCampaign, loadCampaignSpecFile } from './campaign-spec.js';
import { createCampaignSchedule, describeSchedule, overlapPolicy, scheduleView, whenText } from './campaign-schedule.js';
import { line, printJson } from '../output.js';

async function withClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const { client, connection } = await connectClient();
  try {
    return await fn(client);
  } finally {
    await connection.close();
  }
}

const schedulesUi = () => `${uiUrl()}/namespaces/${process.env.TEMPORAL_NAMESPACE ?? 'default'}/schedules`;

export async function createSchedule(scheduleId: string, o: { spec: string; cron?: string; every?: string; overlap: string; catchupWindow?: string; paused?: boolean; note?: string; json?: boolean }): Promise<void> {
  overlapPolicy(o.overlap);
  const spec = await loadCampaignSpecFile(o.spec);
  const plan = await checkCampaign(spec, o.spec);
  await withClient(async (client) => {
    await createCampaignSchedule(client, { scheduleId, spec, cron: o.cron, every: o.every, overlap: o.overlap, catchupWindow: o.catchupWindow, paused: o.paused, note: o.note, specFile: path.resolve(o.spec) });
    const { description } = await describeSchedule(client, scheduleId);
    const view = scheduleView(description);
    if (o.json) return printJson({ ...view, planned: plan.length, ui: schedulesUi() });
    line(`schedule ${scheduleId} created${view.paused ? ' (paused)' : ''}: ${o.cron ? `cron "${o.cron}"` : `every ${o.every}`}, overlap ${o.overlap}; each run: a campaign of ${plan.length} runs`);
    if (view.nextActionTimes[0]) line(`next run: ${view.nextActionTimes[0].toISOString()}`);
    if (spec.campaignId) line(`note: the spec's campaignId "${spec.campaignId}" is ignored; each scheduled run is its own campaign (<schedule>-<time>)`);
    line('scheduled runs need a worker polling the queues: `physvec worker`');
    line(`UI: ${schedulesUi()}`);
  });
}

export async function listSchedules(o: { json?: boolean }): Promise<void> {
  await withClient(async (client) => {
    const rows = [];
    for await (const s of client.schedule.list()) rows.push(scheduleView(s));
    if (o.json) return printJson({ schedules: rows });
    if (rows.length === 0) return line('no schedules');
    for (const r of rows) {
      line(`${r.scheduleId}  ${r.workflowType ?? '?'}  ${whenText(r, '(spec set elsewhere)')}  ${r.paused ? 'paused' : 'active'}  next ${r.nextActionTimes[0]?.toISOString() ?? '–'}  recent ${r.recentCampaigns.length}`);
    }
  });
}

export async function showSchedule(scheduleId: string, o: { json?: boolean }): Promise<void> {
  await withClient(async (client) => {
    const { description } = await describeSchedule(client, scheduleId);
    const view = scheduleView(description);
    const stored = (await resultsStore().listCampaigns()).filter((c) => c.scheduleId === scheduleId).map((c) => ({ ...c, spec: undefined }));
    if (o.json) return printJson({ ...view, campaigns: stored, ui: schedulesUi() });
    line(`schedule ${scheduleId}: ${view.paused ? 'paused' : 'active'}${view.note ? ` (${view.note})` : ''}`);
    line(`  when: ${whenText(view, JSON.stringify(description.spec))}; overlap ${view.overlap}; catch-up window ${view.catchupWindowMs} ms`);
    line(`  actions taken: ${view.actionsTaken}; next: ${view.nextActionTimes.map((d) => d.toISOString()).join(', ') || '–'}`);
    for (const r of view.recentCampaigns) line(`  campaign ${r.campaignId} started ${r.takenAt.toISOString()}`);
    for (const c of stored) line(`  stored ${c.campaignId}: ${c.status}${c.reportPath ? `, report ${c.reportPath}` : ''}`);
  });
}

export async function pauseSchedule(scheduleId: string, o: { unpause?: boolean; note?: string; json?: boolean }): Promise<void> {
  await withClient(async (client) => {
    const { handle } = await describeSchedule(client, scheduleId);
    if (o.unpause) await handle.unpause(o.note ?? 'unpaused with physvec schedule pause --unpause');
    else await handle.pause(o.note ?? 'paused with physvec schedule pause');
    if (o.json) return printJson({ scheduleId, paused: !o.unpause });
    line(`schedule ${scheduleId} ${o.unpause ? 'unpaused' : 'paused'}`);
  });
}

export async function triggerSchedule(scheduleId: string, o: { overlap?: string; json?: boolean }): Promise<void> {
  const overlap = o.overlap === undefined ? undefined : overlapPolicy(o.overlap);
  await withClient(async (client) => {
    const { handle } = await describeSchedule(client, scheduleId);
    await handle.trigger(overlap);
    if (o.json) return printJson({ scheduleId, triggered: true });
    line(`schedule ${scheduleId} triggered; \`physvec schedule describe ${scheduleId}\` shows the campaign it started`);
  });
}

export async function deleteSchedule(scheduleId: string, o: { json?: boolean }): Promise<void> {
  await withClient(async (client) => {
    const { handle } = await describeSchedule(client, scheduleId);
    await handle.delete();
    if (o.json) return printJson({ scheduleId, deleted: true });
    line(`schedule ${scheduleId} deleted`);
  });
}
