// What `physvec tasks validate` reports about a dataset, as one JSON-able document.
import path from 'node:path';
import type { LoadedTask, Problem, TaskCounts } from '../../schemas/task.js';
import type { LoadedDataset, RubricFileStatus } from './dataset.js';

export type SourceState = 'found' | 'not published';
export type RubricState = 'ok' | 'NormCheck failed' | 'invalid' | 'not published';

export interface TaskValidationLine {
  id: string;
  file: string;
  /** False when the task file itself could not be loaded, or it or its rubric has an error. */
  valid: boolean;
  topic: string | null;
  topicFolder: string | null;
  figure: string | null;
  source: SourceState | null;
  /** dft tasks of QMP-Bench: the article's ORCA protocol file; null where the layout has none to look for. */
  protocol: SourceState | null;
  /** When the protocol (or the source) is not published: the file names tried. */
  protocolTried: string[];
  rubric: RubricState | null;
  normCheckTotal: number | null;
  counts: TaskCounts | null;
  problems: Problem[];
}

export interface ValidationSummary {
  taskFiles: number;
  valid: number;
  invalid: number;
  byTopic: Record<string, number>;
  sourceFound: number;
  sourceNotPublished: number;
  protocolFound: number;
  protocolNotPublished: number;
  rubric: Record<RubricState, number>;
  withLimitingCases: number;
  withConvergenceCases: number;
  withScientificResults: number;
  errors: number;
  warnings: number;
}

export interface ValidationReport {
  ok: boolean;
  root: string;
  layout: LoadedDataset['layout'];
  tasks: TaskValidationLine[];
  rubricFiles: RubricFileStatus[];
  problems: Problem[];
  summary: ValidationSummary;
}

export function validationReport(ds: LoadedDataset): ValidationReport {
  const byFile = new Map(ds.tasks.map((t) => [t.file, t]));
  const lines = ds.taskFiles.map((file) => lineFor(file, byFile.get(file), ds.problems));
  const loaded = lines.filter((l) => l.counts !== null);
  const summary: ValidationSummary = {
    taskFiles: lines.length,
    valid: lines.filter((l) => l.valid).length,
    invalid: lines.filter((l) => !l.valid).length,
    byTopic: countBy(ds.tasks.map((t) => t.topic)),
    sourceFound: loaded.filter((l) => l.source === 'found').length,
    sourceNotPublished: loaded.filter((l) => l.source === 'not published').length,
    protocolFound: loaded.filter((l) => l.protocol === 'found').length,
    protocolNotPublished: loaded.filter((l) => l.protocol === 'not published').length,
    rubric: { ok: 0, 'NormCheck failed': 0, invalid: 0, 'not published': 0, ...countBy(loaded.map((l) => l.rubric!)) },
    withLimitingCases: loaded.filter((l) => l.counts!.limitingCases > 0).length,
    withConvergenceCases: loaded.filter((l) => l.counts!.convergenceCases > 0).length,
    withScientificResults: loaded.filter((l) => l.counts!.scientificResults > 0).length,
    errors: ds.problems.filter((p) => p.severity === 'error').length,
    warnings: ds.problems.filter((p) => p.severity === 'warning').length,
  };
  return { ok: summary.errors === 0, root: ds.root, layout: ds.layout, tasks: lines, rubricFiles: ds.rubricFiles, problems: ds.problems, summary };
}

function lineFor(file: string, t: LoadedTask | undefined, all: readonly Problem[]): TaskValidationLine {
  const id = path.basename(file, path.extname(file));
  if (!t) {
    const problems = all.filter((p) => p.file === file);
    return { id, file, valid: false, topic: null, topicFolder: null, figure: null, source: null, protocol: null, protocolTried: [], rubric: null, normCheckTotal: null, counts: null, problems };
  }
  return {
    id: t.id,
    file,
    valid: !t.problems.some((p) => p.severity === 'error'),
    topic: t.topic,
    topicFolder: t.topicFolder,
    figure: t.task.subplot_name,
    source: t.source.found ? 'found' : 'not published',
    protocol: t.protocol.path === null ? null : t.protocol.found ? 'found' : 'not published',
    protocolTried: t.protocol.found ? [] : (t.protocol.tried ?? []).map((p) => path.basename(p)),
    rubric: rubricState(t),
    normCheckTotal: t.rubric.normCheck?.total ?? null,
    counts: t.counts,
    problems: t.problems,
  };
}

function rubricState(t: LoadedTask): RubricState {
  if (!t.rubric.found) return 'not published';
  if (!t.rubric.tree) return 'invalid';
  return t.rubric.normCheck?.ok ? 'ok' : 'NormCheck failed';
}

function countBy(xs: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
