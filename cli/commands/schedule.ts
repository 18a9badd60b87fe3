// physvec schedule create|list|describe|pause|trigger|delete — campaigns on a Temporal Schedule
// (cron or interval, overlap policy, catch-up window). Every scheduled run is a campaign in the
// results store whose id is the workflow id the schedule gave it; its report compares it with the
// schedule's previous campaign. Scheduled runs need a worker (`physvec worker`).
import type { Command } from 'commander';
import { OVERLAP_NAMES } from '../runs/overlap-names.js';

// The bodies (Temporal's client and the results store) are imported when a sub-verb runs: `--help` stays light.
const verbs = () => import('../runs/schedule-verbs.js');

export function register(program: Command): void {
  const schedule = program.command('schedule').description('run campaigns on a Temporal Schedule (visible in the Temporal UI)');

  schedule
    .command('create <scheduleId>')
    .description('create a schedule that starts a campaign from a spec file on a cron expression or an interval')
    .requiredOption('--spec <campaign.json>', 'campaign JSON file (as for `bench run --spec`)')
    .option('--cron <expr>', 'cron expression, e.g. "0 3 * * 1" (Mondays 03:00 UTC)')
    .option('--every <duration>', 'interval, e.g. 6h, 1d')
    .option('--overlap <policy>', `when a run is still going: ${OVERLAP_NAMES.join(', ')}`, 'skip')
    .option('--catchup-window <duration>', 'how late a missed run (server down) may still start, e.g. 1h')
    .option('--paused', 'create it paused')
    .option('--note <text>', 'a note shown with the schedule')
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { spec: string; cron?: string; every?: string; overlap: string; catchupWindow?: string; paused?: boolean; note?: string; json?: boolean }) => (await verbs()).createSchedule(scheduleId, o));

  schedule
    .command('list')
    .description('list schedules')
    .option('--json', 'print one JSON document')
    .action(async (o: { json?: boolean }) => (await verbs()).listSchedules(o));

  schedule
    .command('describe <scheduleId>')
    .description("a schedule's spec, policies, state, recent and running campaigns")
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { json?: boolean }) => (await verbs()).showSchedule(scheduleId, o));

  schedule
    .command('pause <scheduleId>')
    .description('pause a schedule (or --unpause it)')
    .option('--unpause', 'resume taking actions')
    .option('--note <text>', 'why')
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { unpause?: boolean; note?: string; json?: boolean }) => (await verbs()).pauseSchedule(scheduleId, o));

  schedule
    .command('trigger <scheduleId>')
    .description('start one campaign now (the overlap policy applies)')
    .option('--overlap <policy>', `override the overlap policy for this run: ${OVERLAP_NAMES.join(', ')}`)
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { overlap?: string; json?: boolean }) => (await verbs()).triggerSchedule(scheduleId, o));

  schedule
    .command('delete <scheduleId>')
    .description('delete a schedule (its campaigns stay in the results store)')
    .option('--json', 'print one JSON document')
    .action(async (scheduleId: string, o: { json?: boolean }) => (await verbs()).deleteSchedule(scheduleId, o));
}
