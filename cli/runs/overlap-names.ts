// The names of a schedule's overlap policies, in a module of their own: `physvec schedule --help`
// lists them without loading Temporal's client (campaign-schedule.ts maps each to its policy).
export const OVERLAP_NAMES = ['skip', 'buffer-one', 'buffer-all', 'allow-all', 'cancel-other', 'terminate-other'] as const;
export type OverlapName = (typeof OVERLAP_NAMES)[number];
