// Campaign schedules through Temporal's Schedules API: each action starts a `campaign` workflow
// whose id the server derives from the schedule (`<scheduleId>-<time>`), and that workflow id is
// the campaign's id in the results store. Schedules show in the Temporal UI under Schedules.
import {
  ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy,
  type Client, type ScheduleDescription, type ScheduleHandle, type ScheduleSummary,
} from '@temporalio/client';
import { msToNumber } from '@temporalio/common/lib/time.js';
import type { CampaignSpec } from '../../schemas/campaign.js';
import { BadInputError } from '../../lib/errors.js';
import { taskQueues } from '../../lib/temporal/task-queues.js';
import type { campaign } from '../../workflows/campaign/index.js';
import type { OverlapName } from './overlap-names.js';

export const OVERLAP = {
  skip: ScheduleOverlapPolicy.SKIP,
  'buffer-one': ScheduleOverlapPolicy.BUFFER_ONE,
  'buffer-all': ScheduleOverlapPolicy.BUFFER_ALL,
  'allow-all': ScheduleOverlapPolicy.ALLOW_ALL,
  'cancel-other': ScheduleOverlapPolicy.CANCEL_OTHER,
  'terminate-other': ScheduleOverlapPolicy.TERMINATE_OTHER,
} as const satisfies Record<OverlapName, ScheduleOverlapPolicy>;

export interface CreateScheduleOptions {
  scheduleId: string;
  spec: CampaignSpec;
  cron?: string;
  every?: string;
  overlap?: string;
  catchupWindow?: string;
  paused?: boolean;
  note?: string;
  /** Where the spec came from, kept in the schedule's memo for `describe`. */
  specFile?: string;
}

function duration(flag: string, v: string): number {
  let n: number;
  try {
    n = msToNumber(v as never);
  } catch {
    n = NaN;
  }
  if (!Number.isFinite(n) || n <= 0) throw new BadInputError(`${flag} ${v}: not a duration; write e.g. 30s, 15m, 6h, 1d`, undefined, flag);
  return n;
}

export function overlapPolicy(name: string | undefined): ScheduleOverlapPolicy {
  if (name === undefined) return ScheduleOverlapPolicy.SKIP;
  if (!Object.hasOwn(OVERLAP, name)) throw new BadInputError(`--overlap ${name}: use one of ${Object.keys(OVERLAP).join(', ')}`, undefined, 'overlap');
  return OVERLAP[name as OverlapName];
}

export async function createCampaignSchedule(client: Client, o: CreateScheduleOptions): Promise<ScheduleHandle> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(o.scheduleId)) {
    throw new BadInputError(`schedule id "${o.scheduleId}": use letters, digits, '.', '_' and '-' (it prefixes every campaign id)`);
  }
  if ((o.cron === undefined) === (o.every === undefined)) throw new BadInputError('give exactly one of --cron <expr> and --every <duration>');
  if (o.cron !== undefined && !/^@\w+|^(\S+\s+){4,6}\S+$/.test(o.cron.trim())) {
    throw new BadInputError(`--cron "${o.cron}": expected five fields (minute hour day-of-month month day-of-week), e.g. "0 3 * * 1", or @daily/@hourly`);
  }
  const every = o.every !== undefined ? duration('--every', o.every) : undefined;
  const catchupWindow = o.catchupWindow !== undefined ? duration('--catchup-window', o.catchupWindow) : undefined;
  // Each scheduled run is its own campaign: a fixed campaignId would make every run the same one.
  const { campaignId: _fixed, ...spec } = o.spec;
  try {
    return await client.schedule.create<typeof campaign>({
      scheduleId: o.scheduleId,
      spec: o.cron !== undefined ? { cronExpressions: [o.cron.trim()] } : { intervals: [{ every: every! }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'campaign',
        workflowId: o.scheduleId,
        taskQueue: taskQueues().orchestration,
        args: [spec],
      },
      policies: { overlap: overlapPolicy(o.overlap), ...(catchupWindow !== undefined ? { catchupWindow } : {}) },
      state: { paused: !!o.paused, note: o.note ?? (o.paused ? 'created paused' : undefined) },
      memo: { cron: o.cron ?? null, every: o.every ?? null, specFile: o.specFile ?? null, label: spec.label ?? null },
    });
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) throw new BadInputError(`schedule ${o.scheduleId} exists already; delete it first (\`physvec schedule delete ${o.scheduleId}\`) or pick another id`);
    const msg = (err as Error).message ?? String(err);
    // The client and the server both refuse a bad spec (a TypeError, or gRPC INVALID_ARGUMENT): name the flag and the fix.
    if (err instanceof TypeError || /invalid|cron|parse|range/i.test(msg)) {
      throw new BadInputError(`${o.cron !== undefined ? `--cron "${o.cron}"` : `--every ${o.every}`}: ${msg.split('\n')[0]}; write five fields (minute 0-59, hour 0-23, day-of-month 1-31, month 1-12, day-of-week 0-6), e.g. "0 3 * * 1", or @daily/@hourly`);
    }
    throw err;
  }
}

/** A schedule handle that exists, or a BadInputError naming the id. */
export async function describeSchedule(client: Client, scheduleId: string): Promise<{ handle: ScheduleHandle; description: ScheduleDescription }> {
  const handle = client.schedule.getHandle(scheduleId);
  try {
    return { handle, description: await handle.describe() };
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) throw new BadInputError(`no schedule ${scheduleId} (see \`physvec schedule list\`)`);
    throw err;
  }
}

/** When a schedule acts, as `create` was told (`otherwise` for a schedule made outside physvec). */
export function whenText(view: { cron: string | null; every: string | null }, otherwise: string): string {
  return view.cron ? `cron "${view.cron}"` : view.every ? `every ${view.every}` : otherwise;
}

/** The JSON-friendly view `list`/`describe` print. */
export function scheduleView(s: ScheduleSummary | ScheduleDescription) {
  const memo = (s.memo ?? {}) as { cron?: string | null; every?: string | null; specFile?: string | null; label?: string | null };
  const d = s as Partial<ScheduleDescription>;
  return {
    scheduleId: s.scheduleId,
    workflowType: s.action?.workflowType ?? null,
    cron: memo.cron ?? null,
    every: memo.every ?? null,
    specFile: memo.specFile ?? null,
    label: memo.label ?? null,
    paused: s.state.paused,
    note: s.state.note ?? null,
    overlap: d.policies?.overlap ?? null,
    catchupWindowMs: d.policies?.catchupWindow ?? null,
    actionsTaken: d.info?.numActionsTaken ?? null,
    recentCampaigns: s.info.recentActions.map((a) => ({ campaignId: a.action.workflow.workflowId, scheduledAt: a.scheduledAt, takenAt: a.takenAt })),
    runningCampaigns: d.info?.runningActions?.map((a) => a.workflow.workflowId) ?? null,
    nextActionTimes: s.info.nextActionTimes.slice(0, 5),
    campaignSpec: (d.action as { args?: unknown[] } | undefined)?.args?.[0] ?? null,
  };
}
