// Where reports live under the state directory: one folder per reproduction (its evidence report and
// the files it links) and one per campaign. Shared by the activities that write them and the CLI that
// points people at them.
import path from 'node:path';
import { stateDir } from '../paths.js';

const safe = (id: string) => id.replace(/[^A-Za-z0-9._-]/g, '_');

export function reportDir(workflowId: string): string {
  return path.join(stateDir(), 'reports', safe(workflowId));
}

/**
 * The folder name of a run's evidence report from the path a worker recorded (…/reports/<run>/report.html),
 * whichever host and state dir wrote it; undefined for another path.
 */
export function reportFolderName(reportPath: string): string | undefined {
  return /[\\/]reports[\\/]([^\\/]+)[\\/]report\.html$/.exec(reportPath)?.[1];
}

export function campaignDir(campaignId: string): string {
  return path.join(stateDir(), 'campaigns', safe(campaignId));
}
