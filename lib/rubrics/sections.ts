// The four top sections every QMP-Bench rubric has (code correctness, model, calculation method,
// parameters), recognised by their statements as the published files word them ("Code correctness",
// "Calculate the correctness of the model", "Correctness of calculation method", "Correctness of
// parameter settings"). A rubric lacking one still grades, but probably lost a section.
import type { RubricTree } from '../../schemas/rubric.js';
import type { Problem } from '../../schemas/task.js';
import { warningAt } from '../input-files/problems.js';
import { isRubricLeaf } from './flatten.js';

export const RUBRIC_SECTIONS = ['code correctness', 'model', 'method', 'parameters'] as const;
export type RubricSection = (typeof RUBRIC_SECTIONS)[number];

/** The section a top category's statement names, in this order of precedence, or undefined. */
export function sectionOf(statement: string): RubricSection | undefined {
  if (/\bcode\b/i.test(statement)) return 'code correctness';
  if (/\bparameters?\b/i.test(statement)) return 'parameters';
  if (/\bmodel\b/i.test(statement)) return 'model';
  if (/\b(?:method|calculation|algorithm)s?\b/i.test(statement)) return 'method';
  return undefined;
}

export function rubricSectionWarnings(tree: RubricTree, file: string): Problem[] {
  const found = new Set<RubricSection>();
  for (const node of tree.children) {
    if (isRubricLeaf(node)) continue;
    const s = sectionOf(node.statement);
    if (s) found.add(s);
  }
  const missing = RUBRIC_SECTIONS.filter((s) => !found.has(s));
  if (missing.length === 0) return [];
  return [
    warningAt(
      file,
      `lacks the rubric section${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')} (a QMP-Bench rubric has four top categories: ` +
        `code correctness, model, method, parameters); it still grades, but add the missing section${missing.length > 1 ? 's' : ''} or check the statements`,
      'children',
    ),
  ];
}
