// The truth-leak guard at prepare: every text of the task that goes into a script writer's prompt
// (the request, the figure name, the cases' statements, the convergence knobs, the article or our
// digest of it) is checked against every truth — LimitingCases and ScientificResults — before any
// agent is asked anything. A leak here is in our own material (a task file, a digest): a hard error
// that names the file. Values the article itself states are allowed by data/papers/published-values.json.
import path from 'node:path';
import { BadInputError } from '../../lib/errors.js';
import { describeTruthLeaks, findTruthLeaks, type PromptMaterial, type TruthCase } from '../../lib/tasks/truth-leak.js';
import { publishedValues } from '../../lib/tasks/published-values.js';
import { repoRoot } from '../../lib/paths.js';

export interface TaskPromptSources {
  taskFile: string;
  request: string;
  figure: string;
  limitingCases: { id: string; content: string; truth: string }[];
  scientificResults: { id: string; content: string; truth?: string }[];
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

/** Every truth of the task: its limiting cases' and its scientific results'. */
export function truthCasesOf(s: { limitingCases: { id: string; content: string; truth: string }[]; scientificResults: { id: string; content: string; truth?: string }[] }): TruthCase[] {
  return [...s.limitingCases, ...s.scientificResults].filter((c): c is { id: string; content: string; truth: string } => typeof c.truth === 'string').map((c) => ({ id: c.id, truth: c.truth, content: c.content }));
}

/** Throws a BadInputError naming every file that carries a truth. */
export function assertNoTruthLeak(s: TaskPromptSources): void {
  const allowed = s.source ? publishedValues(s.source.file) : [];
  const leaks = findTruthLeaks(promptMaterialOf(s), truthCasesOf(s), s.source?.kind === 'tex' ? s.source.text : undefined, s.request, allowed);
  if (leaks.length) throw new BadInputError(`truth leak: ${describeTruthLeaks(leaks)}`, s.taskFile);
}
