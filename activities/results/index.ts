// Activities of the results store (orchestration queue): the campaign workflow opens its campaign,
// records every run, asks which runs are already recorded (resume, continue-as-new), closes the
// campaign and writes its report. SQLite calls are synchronous and short; a bad record is a
// non-retryable BadInputError (temporal-config/timeouts.ts), anything else is retried by Temporal.
import type { ResultsActivities } from '../../schemas/campaign.js';
import { openResultsDb } from '../../lib/results/db.js';
import { closeCampaign, recordedKeys, upsertCampaign, upsertRun } from '../../lib/results/store.js';
import { writeCampaignReport } from '../../lib/reports/campaign-report.js';

/** The store is opened on first use, at the state directory current at that time. */
export function createResultsActivities(opts: { dbFile?: string } = {}): ResultsActivities {
  const db = () => openResultsDb(opts.dbFile);
  return {
    async openCampaign(rec) {
      upsertCampaign(db(), rec);
    },
    async recordRun(rec) {
      upsertRun(db(), rec);
    },
    async recordedKeys({ campaignId }) {
      return recordedKeys(db(), campaignId);
    },
    async closeCampaign({ campaignId, status }) {
      closeCampaign(db(), campaignId, status);
    },
    async writeCampaignReport({ campaignId }) {
      return writeCampaignReport(db(), campaignId);
    },
  };
}
