// The truth-leak guard at prepare: every text of the task that goes into a script writer's prompt
// (the request, the figure name, the cases' statements, the convergence knobs, the article or our
// digest of it) is checked against the LimitingCases truths before any agent is asked anything.
import path from 'node:path';
import { BadInputError } from '../../lib/errors.js';
import { describeTruthLeaks, findTruthLeaks, type PromptMaterial, type TruthCase } from '../../lib/tasks/truth-leak.js';
import { repoRoot } from '../../lib/paths.js';

export interface TaskPromptSources {
  taskFile: string;
  request: string;
  figure: string;
  limitingCases: { id: string; content: string; truth: string }[];
  scientificResults: { id: string; content: string }[];
  convergenceCases: { id: string; content: string; parameter: string; criteria: string }[];
  /** What the author reads as the article: the TeX (`tex`) or our digest (`digest`). */
  source?: { file: string; text: string; kind: 'tex' | 'digest' };
}

function shown(file: string): string {
  const rel = path.relative(repoRoot, file);
  return rel.startsWith('..') ? file : rel;
}

/** The texts a script writer's prompt is built from, each with the file it comes from. */
export function promptMaterialOf(s: TaskPromptSources): PromptMaterial[] {
  const taskFile = shown(s.taskFile);
  const material: PromptMaterial[] = [
    { file: `${taskFile} (User_requests)`, text: s.request },
    { file: `${taskFile} (subplot_name)`, text: s.figure },
    ...[...s.limitingCases, ...s.scientificResults].map((c) => ({ file: `${taskFile} (${c.id} content)`, text: c.content })),
    ...s.convergenceCases.map((c) => ({ file: `${taskFile} (${c.id})`, text: `${c.content}\n${c.parameter}\n${c.criteria}` })),
  ];
  if (s.source) material.push({ file: shown(s.source.file), text: s.source.text });
  return material;
}

/** Throws a BadInputError naming every file that carries a limiting-case truth. */
export function assertNoTruthLeak(s: TaskPromptSources): void {
  const truths: TruthCase[] = s.limitingCases.map((c) => ({ id: c.id, truth: c.truth, content: c.content }));
  const leaks = findTruthLeaks(promptMaterialOf(s), truths, s.source?.kind === 'tex' ? s.source.text : undefined, s.request);
  if (leaks.length) throw new BadInputError(`truth leak: ${describeTruthLeaks(leaks)}`, s.taskFile);
}
