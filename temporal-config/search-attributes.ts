// Custom search attributes: registered at dev-server start (see server.ts) and set by workflows,
// so runs can be filtered in the UI and with `temporal workflow list --query 'Topic="dmrg"'`.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const SA = {
  TaskId: defineSearchAttributeKey('TaskId', SearchAttributeType.KEYWORD),
  Topic: defineSearchAttributeKey('Topic', SearchAttributeType.KEYWORD),
  Model: defineSearchAttributeKey('Model', SearchAttributeType.KEYWORD),
  Framework: defineSearchAttributeKey('Framework', SearchAttributeType.KEYWORD),
  Stage: defineSearchAttributeKey('Stage', SearchAttributeType.KEYWORD),
  Iteration: defineSearchAttributeKey('Iteration', SearchAttributeType.INT),
  Status: defineSearchAttributeKey('Status', SearchAttributeType.KEYWORD),
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
  'Status=Keyword',
  'CampaignId=Keyword',
];
