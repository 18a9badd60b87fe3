// Activities of the results store (orchestration queue): the campaign workflow opens its campaign,
// records every run, asks which runs are already recorded (resume, continue-as-new), closes the
// campaign and writes its report. The store is SQLite on this host or keyed objects in a bucket
// (lib/results/results-config.ts); a bad record is a non-retryable BadInputError
// (temporal-config/timeouts.ts), anything else (a bucket that does not answer) is retried by Temporal.
import type { ResultsActivities } from '../../schemas/campaign.js';
import type { ResultsStore } from '../../lib/results/results-store.js';
import { resultsStore } from '../../lib/results/results-config.js';
import { writeCampaignReport } from '../../lib/reports/campaign-report.js';

/** The store is resolved at each call, from the configuration current then (or `store`: a test's). */
export function createResultsActivities(opts: { store?: ResultsStore } = {}): ResultsActivities {
  const store = () => opts.store ?? resultsStore();
  return {
    async openCampaign(rec) {
      await store().openCampaign(rec);
    },
    async recordRun(rec) {
      await store().recordRun(rec);
    },
    async recordedKeys({ campaignId }) {
      return store().recordedKeys(campaignId);
    },
    async closeCampaign({ campaignId, status }) {
      await store().closeCampaign(campaignId, status);
    },
    async writeCampaignReport({ campaignId }) {
      return writeCampaignReport(store(), campaignId);
    },
  };
}
