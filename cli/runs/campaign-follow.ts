// Live progress of a campaign: a progress bar on a terminal (cli-progress), a plain line whenever
// the counts change otherwise, nothing with --json. The bar counts recorded runs (done, failed and
// skipped) against the plan; continue-as-new is followed transparently (queries go to the latest run).
import cliProgress from 'cli-progress';
import type { WorkflowHandle } from '@temporalio/client';
import type { CampaignProgress } from '../../schemas/campaign.js';
import type { CampaignResult } from '../../workflows/campaign/progress.js';
import { line } from '../output.js';
import { queryWithDeadline } from './live-query.js';

export type FollowMode = 'bar' | 'lines' | 'quiet';

export function followMode(json: boolean | undefined): FollowMode {
  if (json) return 'quiet';
  return process.stderr.isTTY ? 'bar' : 'lines';
}

export function progressText(p: CampaignProgress): string {
  const recorded = p.done + p.failed + p.skipped;
  return `${recorded}/${p.planned} recorded (done ${p.done}, failed ${p.failed}, skipped ${p.skipped}), ${p.running} running, ${p.passes} passed` +
    (p.continuedAsNew ? `, continued-as-new ×${p.continuedAsNew}` : '');
}

export function queryProgress(handle: WorkflowHandle, timeoutMs = 5000): Promise<CampaignProgress> {
  return queryWithDeadline<CampaignProgress>(handle, 'progress', timeoutMs);
}

export async function followCampaign(handle: WorkflowHandle, mode: FollowMode, everyMs = 1000): Promise<CampaignResult> {
  let done = false;
  let bar: cliProgress.SingleBar | undefined;
  let last = '';
  let lastProblem = '';
  const since = Date.now();
  const poll = (async () => {
    while (!done) {
      try {
        const p = await queryProgress(handle, 10_000);
        const recorded = p.done + p.failed + p.skipped;
        if (mode === 'bar' && p.planned > 0) {
          if (!bar) {
            bar = new cliProgress.SingleBar(
              { format: ' {bar} {value}/{total} runs | {running} running | {passes} passed | {failed} failed | {skipped} skipped | {duration_formatted}', hideCursor: true },
              cliProgress.Presets.shades_classic,
            );
            bar.start(p.planned, recorded, p as never);
          }
          bar.setTotal(p.planned);
          bar.update(recorded, p as never);
        } else if (mode === 'lines' && p.planned > 0) {
          const s = progressText(p);
          if (s !== last) line(`  ${s}`);
          last = s;
        }
      } catch (err) {
        // The first workflow task has not run yet, or a worker restarts: try again, and say so when it lasts.
        const problem = (err as Error).message ?? String(err);
        if (mode !== 'quiet' && Date.now() - since > 15_000 && problem !== lastProblem) {
          process.stderr.write(`  (progress not available yet: ${problem.split('\n')[0]})\n`);
          lastProblem = problem;
        }
      }
      if (!done) await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  try {
    return (await handle.result()) as CampaignResult;
  } finally {
    done = true;
    await poll;
    bar?.stop();
  }
}
