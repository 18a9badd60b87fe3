// `physvec tasks show <task.json>`: what a reproduction of one task would use, before any LLM call and
// without a Temporal server: the source found (or every path tried), for dft_qc tasks the protocol file
// it resolved to and its translation table, and each limiting/convergence/scientific case as the
// scientific verifier will read it (numbers and tolerance, a property checked by code, or an LLM judge).
// It runs the reproduction's own prepareTask against a throw-away artifact store.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../../lib/artifacts/store.js';
import { createPipelineActivities } from '../../activities/pipeline/index.js';
import { detectToolchains } from '../../activities/toolchains/detect.js';
import { loadTaskFile } from '../../lib/tasks/load-task.js';
import { preparedLine } from '../../lib/tasks/prepare-report.js';
import { DEFAULT_CONVERGENCE_TOLERANCE } from '../../lib/tasks/convergence-default.js';
import { describeTolerance } from '../../lib/tasks/task-warnings.js';
import { DEFAULT_TOLERANCE, parseTolerance, parseTruth } from '../../lib/tasks/truth.js';
import { TranslationRow } from '../../schemas/protocol.js';
import type { ToolchainStatus } from '../../schemas/toolchain.js';
import { prepareHere } from './prepare-pass.js';

export interface CaseView {
  content: string;
  truth: string;
  /** How the scientific verifier decides it. */
  checkedBy: string;
}

export interface TaskShow {
  id: string;
  file: string;
  topic: string;
  root: string | null;
  toolchain: string;
  substituteFor?: string;
  needsFlag?: string;
  source: { kind: string; path: string | null; tried?: string[] };
  protocol: { found: boolean; file: string | null; tried?: string[]; calculations?: number } | null;
  translation?: { from: string; to: string; counts: Record<string, number>; rows: TranslationRow[] };
  limitingCases: CaseView[];
  scientificResults: CaseView[];
  convergenceCases: Array<{ content: string; parameter: string; criteria: string; tolerance: string }>;
  rubric: { available: boolean; leaves: number; reason?: string };
  lacks: string[];
}

export interface ShowOptions {
  dataset?: string;
  toolchain?: string[];
  available?: () => Promise<ToolchainStatus[]>;
}

export async function showTask(taskFile: string, opts: ShowOptions = {}): Promise<TaskShow> {
  const loaded = await loadTaskFile(taskFile, opts.dataset ? { datasetRoot: path.resolve(opts.dataset) } : {});
  const statuses = await (opts.available ?? (() => detectToolchains()))();
  const storeDir = await mkdtemp(path.join(os.tmpdir(), 'physvec-show-'));
  try {
    const store = new ArtifactStore(storeDir);
    const activities = createPipelineActivities({ store, toolchains: async () => statuses });
    const { ctx, needsFlag } = await prepareHere(activities, statuses, { file: loaded.file, root: loaded.root, topic: loaded.topic, toolchains: opts.toolchain });
    const line = preparedLine(ctx, loaded.file, ctx.backgroundNames.length);
    const show: TaskShow = {
      id: loaded.id,
      file: loaded.file,
      topic: loaded.topic,
      root: loaded.root,
      toolchain: ctx.profile,
      source: { kind: ctx.sourceKind, path: loaded.source.found ? loaded.source.path : loaded.digest.found ? loaded.digest.path : null, ...(loaded.source.found ? {} : { tried: loaded.source.tried ?? [] }) },
      protocol: ctx.protocol ? { found: ctx.protocol.found, file: ctx.protocol.file ?? null, ...(ctx.protocol.found ? { calculations: ctx.protocol.calculations } : { tried: ctx.protocol.tried }) } : null,
      limitingCases: ctx.limitingCases.map(caseView),
      scientificResults: ctx.scientificResults.map(caseView),
      convergenceCases: ctx.convergenceCases.map((c) => {
        const tol = parseTolerance(c.criteria);
        return { content: c.content, parameter: c.parameter, criteria: c.criteria, tolerance: tol ? describeTolerance(tol) : `none stated: default ${describeTolerance(DEFAULT_CONVERGENCE_TOLERANCE)}` };
      }),
      rubric: { available: ctx.rubric.available, leaves: ctx.rubric.leafCount, ...(ctx.rubric.reason ? { reason: ctx.rubric.reason } : {}) },
      lacks: line.lacks,
    };
    if (line.substituteFor) show.substituteFor = line.substituteFor;
    if (needsFlag) show.needsFlag = needsFlag;
    const tr = ctx.protocol?.translation;
    if (tr) show.translation = { from: tr.from, to: tr.to, counts: tr.counts, rows: TranslationRow.array().parse(JSON.parse(await store.getText(tr.rowsRef))) };
    return show;
  } finally {
    await rm(storeDir, { recursive: true, force: true });
  }
}

function caseView(c: { content: string; truth: string }): CaseView {
  const t = parseTruth(c.truth);
  let checkedBy: string;
  if (t.kind === 'numeric') checkedBy = `by code: ${t.values.join(', ')} within ${describeTolerance(t.tolerance)}${t.tolerance.stated ? '' : ' (default: none stated)'}`;
  else if (t.property) checkedBy = `by code: ${t.property} within ${t.tolerance ? describeTolerance(t.tolerance) : `${describeTolerance(DEFAULT_TOLERANCE)} (default: none stated)`}`;
  else checkedBy = 'by an LLM judge (no number or checkable property)';
  return { content: c.content, truth: c.truth, checkedBy };
}
