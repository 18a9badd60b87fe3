// Validates a rubric tree with errors that name the exact field (see lib/tasks/zod-problems.ts).
import { RubricTree } from '../../schemas/rubric.js';
import { validateWith, type Validated } from '../input-files/zod-problems.js';

const LEAF = 0;
const CATEGORY = 1;

/** A node is meant to be a category when it has array children or a category's keys; else a leaf. */
export function pickRubricBranch(value: unknown): number | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const node = value as Record<string, unknown>;
  if (Array.isArray(node.children)) return CATEGORY;
  if ('issue' in node || (typeof node.children === 'object' && node.children !== null)) return LEAF;
  if ('id' in node || 'statement' in node) return CATEGORY;
  return LEAF;
}

export function parseRubric(value: unknown, file: string): Validated<RubricTree> {
  return validateWith(RubricTree, value, file, pickRubricBranch);
}
