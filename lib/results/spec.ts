// What the report needs from a stored campaign spec (stored as given, so read defensively).
import type { PassCriterion } from '../metrics/types.js';

export function passCriterionOf(spec: unknown): PassCriterion {
  const v = (spec as { passCriterion?: unknown } | null)?.passCriterion;
  return v === 'executable' ? 'executable' : 'scientific'; // CampaignInput's default is 'scientific'
}
