// Custom search attributes: registered at dev-server start (see server.ts and
// lib/temporal/dev-server.ts, which also migrates older databases) and set by workflows, so runs can be
// filtered in the UI and with `temporal workflow list --query 'Verdict="failed"'`.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const SA = {
  TaskId: defineSearchAttributeKey('TaskId', SearchAttributeType.KEYWORD),
  Topic: defineSearchAttributeKey('Topic', SearchAttributeType.KEYWORD),
  Model: defineSearchAttributeKey('Model', SearchAttributeType.KEYWORD),
  Framework: defineSearchAttributeKey('Framework', SearchAttributeType.KEYWORD),
  Stage: defineSearchAttributeKey('Stage', SearchAttributeType.KEYWORD),
  Iteration: defineSearchAttributeKey('Iteration', SearchAttributeType.INT),
  /**
   * How the run ended: running/paused while it works, then passed, failed, budget_exhausted, stopped
   * or error (completed/failed for campaigns). Not `Status`: a custom attribute of that name replaces
   * the Temporal UI's own status column (temporalio/ui#2577).
   */
  Verdict: defineSearchAttributeKey('Verdict', SearchAttributeType.KEYWORD),
  CampaignId: defineSearchAttributeKey('CampaignId', SearchAttributeType.KEYWORD),
} as const;

/** `name=Type` pairs for `temporal server start-dev --search-attribute`. */
export const SEARCH_ATTRIBUTE_FLAGS: readonly string[] = [
  'TaskId=Keyword',
  'Topic=Keyword',
  'Model=Keyword',
  'Framework=Keyword',
  'Stage=Keyword',
  'Iteration=Int',
  'Verdict=Keyword',
  'CampaignId=Keyword',
];

/** Attributes earlier versions registered and this one removes from an existing dev-server database. */
export const RETIRED_SEARCH_ATTRIBUTES: readonly string[] = ['Status'];
