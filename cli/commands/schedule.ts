// physvec schedule create|list|describe|pause|trigger|delete — campaigns on a Temporal Schedule
// (cron or interval, overlap policy, catch-up window). Every scheduled run is a campaign in the
// results store whose id is the workflow id the schedule gave it; its report compares it with the
// schedule's previous campaign. Scheduled runs need a worker (`physvec worker`).
import path from 'node:path';
import type { Command } from 'commander';
import { connectClient, uiUrl } from '../../lib/temporal/connection.js';
import { openResultsDb, resultsDbExists } from '../../lib/results/db.js';
import { listCampaigns } from '../../lib/results/store.js';
import { checkCampaign, loadCampaignSpecFile } from '../runs/campaign-spec.js';
import { createCampaignSchedule, describeSchedule, overlapPolicy, scheduleView, whenText, OVERLAP } from '../runs/campaign-schedule.js';
import { line, printJson } from '../output.js';
import type { Client } from '@temporalio/client';

async function withClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const { client, connection } = await connectClient();
  try {
    return await fn(client);
  } finally {
    await connection.close();
  }
}

const schedulesUi = () => `${uiUrl()}/namespaces/${process.env.TEMPORAL_NAMESPACE ?? 'default'}/schedules`;

export function register(program: Command): void {
  const schedule = program.command('schedule').description('run campaigns on a Temporal Schedule (visible in the Temporal UI)');

  schedule
    .command('create <scheduleId>')
    .description('create a schedule that starts a campaign from a spec file on a cron expression or an interval')
    .requiredOption('--spec <campaign.json>', 'campaign JSON file (as for `bench run --spec`)')
    .option('--cron <expr>', 'cron expression, e.g. "0 3 * * 1" (Mondays 03:00 UTC)')
    .option('--every <duration>', 'interval, e.g. 6h, 1d')
    .option('--overlap <policy>', `when a run is still going: ${Object.keys(OVERLAP).join(', ')}`, 'skip')
    .option('--catchup-window <duration>', 'how late a missed run (server down) may still start, e.g. 1h')
    .option('--paused', 'create it paused')
    .option('--note <text>', 'a note shown with the schedule')
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { spec: string; cron?: string; every?: string; overlap: string; catchupWindow?: string; paused?: boolean; note?: string; json?: boolean }) => {
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
    });

  schedule
    .command('list')
    .description('list schedules')
    .option('--json', 'print one JSON document')
    .action(async (o: { json?: boolean }) => {
      await withClient(async (client) => {
        const rows = [];
        for await (const s of client.schedule.list()) rows.push(scheduleView(s));
        if (o.json) return printJson({ schedules: rows });
        if (rows.length === 0) return line('no schedules');
        for (const r of rows) {
          line(`${r.scheduleId}  ${r.workflowType ?? '?'}  ${whenText(r, '(spec set elsewhere)')}  ${r.paused ? 'paused' : 'active'}  next ${r.nextActionTimes[0]?.toISOString() ?? '–'}  recent ${r.recentCampaigns.length}`);
        }
      });
    });

  schedule
    .command('describe <scheduleId>')
    .description("a schedule's spec, policies, state, recent and running campaigns")
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { json?: boolean }) => {
      await withClient(async (client) => {
        const { description } = await describeSchedule(client, scheduleId);
        const view = scheduleView(description);
        const stored = resultsDbExists() ? listCampaigns(openResultsDb()).filter((c) => c.scheduleId === scheduleId).map((c) => ({ ...c, spec: undefined })) : [];
        if (o.json) return printJson({ ...view, campaigns: stored, ui: schedulesUi() });
        line(`schedule ${scheduleId}: ${view.paused ? 'paused' : 'active'}${view.note ? ` (${view.note})` : ''}`);
        line(`  when: ${whenText(view, JSON.stringify(description.spec))}; overlap ${view.overlap}; catch-up window ${view.catchupWindowMs} ms`);
        line(`  actions taken: ${view.actionsTaken}; next: ${view.nextActionTimes.map((d) => d.toISOString()).join(', ') || '–'}`);
        for (const r of view.recentCampaigns) line(`  campaign ${r.campaignId} started ${r.takenAt.toISOString()}`);
        for (const c of stored) line(`  stored ${c.campaignId}: ${c.status}${c.reportPath ? `, report ${c.reportPath}` : ''}`);
      });
    });

  schedule
    .command('pause <scheduleId>')
    .description('pause a schedule (or --unpause it)')
    .option('--unpause', 'resume taking actions')
    .option('--note <text>', 'why')
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { unpause?: boolean; note?: string; json?: boolean }) => {
      await withClient(async (client) => {
        const { handle } = await describeSchedule(client, scheduleId);
        if (o.unpause) await handle.unpause(o.note ?? 'unpaused with physvec schedule pause --unpause');
        else await handle.pause(o.note ?? 'paused with physvec schedule pause');
        if (o.json) return printJson({ scheduleId, paused: !o.unpause });
        line(`schedule ${scheduleId} ${o.unpause ? 'unpaused' : 'paused'}`);
      });
    });

  schedule
    .command('trigger <scheduleId>')
    .description('start one campaign now (the overlap policy applies)')
    .option('--overlap <policy>', `override the overlap policy for this run: ${Object.keys(OVERLAP).join(', ')}`)
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { overlap?: string; json?: boolean }) => {
      const overlap = o.overlap === undefined ? undefined : overlapPolicy(o.overlap);
      await withClient(async (client) => {
        const { handle } = await describeSchedule(client, scheduleId);
        await handle.trigger(overlap);
        if (o.json) return printJson({ scheduleId, triggered: true });
        line(`schedule ${scheduleId} triggered; \`physvec schedule describe ${scheduleId}\` shows the campaign it started`);
      });
    });

  schedule
    .command('delete <scheduleId>')
    .description('delete a schedule (its campaigns stay in the results store)')
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { json?: boolean }) => {
      await withClient(async (client) => {
        const { handle } = await describeSchedule(client, scheduleId);
        await handle.delete();
        if (o.json) return printJson({ scheduleId, deleted: true });
        line(`schedule ${scheduleId} deleted`);
      });
    });
}
