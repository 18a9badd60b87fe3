// Reads one rubric file: JSON → schema → leaves → NormCheck. A tree that fails NormCheck is an error
// (the grader refuses it), reported with the total so the author can see how far off it is.
import type { RubricLeafSummary, RubricTree } from '../../schemas/rubric.js';
import type { NormCheckResult, Problem } from '../../schemas/task.js';
import { readJsonFile } from '../input-files/json-file.js';
import { errorAt } from '../input-files/problems.js';
import { flattenRubric } from './flatten.js';
import { normCheck, NORM_CHECK_TOLERANCE } from './norm-check.js';
import { parseRubric } from './parse.js';
import { rubricSectionWarnings } from './sections.js';

export interface LoadedRubric {
  tree?: RubricTree;
  leaves?: RubricLeafSummary[];
  normCheck?: NormCheckResult;
  problems: Problem[];
}

export async function loadRubricFile(file: string): Promise<LoadedRubric> {
  const read = await readJsonFile(file);
  if (!read.ok) return { problems: [read.problem] };
  const parsed = parseRubric(read.value, file);
  if (!parsed.ok) return { problems: parsed.problems };
  const leaves = flattenRubric(parsed.data);
  const check = normCheck(leaves);
  const problems = rubricSectionWarnings(parsed.data, file);
  if (!check.ok) {
    problems.push(
        errorAt(
          file,
          `NormCheck failed: the effective leaf weights (products along each path) sum to ${round(check.total)}, ` +
            `expected 1 within ${NORM_CHECK_TOLERANCE}; fix the weights of the categories or leaves`,
          'children',
        ),
    );
  }
  return { tree: parsed.data, leaves, normCheck: check, problems };
}

function round(x: number): string {
  return Number(x.toPrecision(10)).toString();
}
