// Activities of the campaign workflow (orchestration queue) other than the results store's.
import type { CampaignSpec, RunKey } from '../../schemas/campaign.js';
import { planCampaign } from './plan.js';

export function createCampaignActivities() {
  return {
    planCampaign: (spec: CampaignSpec): Promise<RunKey[]> => planCampaign(spec),
  };
}

export type CampaignActivities = ReturnType<typeof createCampaignActivities>;
