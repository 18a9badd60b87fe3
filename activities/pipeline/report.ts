// The evidence report of a reproduction: one JSON document and one HTML page in a folder of its own,
// beside the files the page links (figure, final and first scripts, repair diffs, the verifiers'
// reports, the final run's outputs). The page lists every test with its verdict, the diff that
// fixed each failure, every rubric leaf with each repeat's judge and support, assertion values vs
// truths, the convergence sequence, tokens, cost and time per stage, and links the run in the
// Temporal UI. The HTML comes from lib/reports/templates/evidence.eta (escaped by the engine).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { AssertionVerdict, ConvergenceOutcome, ProgrammingReport, RepairRecord, RubricOutcome, RunDigest, TaskContext } from '../../schemas/pipeline.js';
import { FIGURE_FILE } from '../../schemas/script-markers.js';
import { reportDir } from '../../lib/reports/dirs.js';
import { publishFolder, reportBucket } from '../../lib/reports/published.js';
import type { Verdict } from '../../schemas/verdict.js';
import { renderTemplate } from '../../lib/reports/engine.js';
import { runUiUrl } from '../../lib/reports/temporal-link.js';
import { protocolReport } from './report-protocol.js';
import { rubricScorecard } from './report-scorecard.js';
import { ReportFolder, safeRelative, type LinkedFile } from './report-files.js';
import { evidenceView } from './report-view.js';
import { checkFullSize } from '../../lib/tasks/size-check.js';
import { compareSize, parametersUsed, sizeWarning, type ParameterUsed, type SizeComparison } from '../../lib/tasks/size-used.js';
import { readCalls } from './call-evidence.js';
import { llmCallsInHistory, type RecordedCall } from '../../lib/temporal/llm-calls.js';
import { transcriptOf, type Transcript } from './report-transcript.js';

export interface ReportInput {
  workflowId: string;
  status: Verdict;
  message?: string;
  stageReached: string;
  /** Absent when the run ended before its task was prepared (the report then names the task file). */
  context?: TaskContext;
  taskFile?: string;
  models: { defaultModel: string; roles: Record<string, string> };
  authorScriptRef?: ArtifactRef;
  finalScriptRef?: ArtifactRef;
  programmingReports: ProgrammingReport[];
  scientificRounds: { iteration: number; rubric: RubricOutcome; assertions: AssertionVerdict[] }[];
  convergence: ConvergenceOutcome[];
  repairs: RepairRecord[];
  finalRun?: RunDigest;
  progress: {
    scripted: boolean;
    tokens: { inputTokens: number; outputTokens: number; cachedInputTokens: number; toolCalls: number; costUsd: number; llmCalls: number; lostAttempts?: number; lostAttemptsUsageUnknown?: number; estimatedTokens?: number };
    ledger: { byStage: Record<string, { inputTokens: number; outputTokens: number; costUsd: number }>; byRole: Record<string, { inputTokens: number; outputTokens: number; costUsd: number }> };
    timings: { stage: string; startedAt: number; endedAt?: number }[];
    human: { at: number; kind: string; note?: string; stage: string }[];
  };
}

/** "; 1 attempt lost to a worker crash (re-issued), tokens unknown": what re-issued LLM calls cost, as far as known. */
export function lostLine(t: { lostAttempts?: number; lostAttemptsUsageUnknown?: number }): string {
  const n = t.lostAttempts ?? 0;
  if (n === 0) return '';
  const unknown = t.lostAttemptsUsageUnknown ?? 0;
  const tokens = unknown === n ? 'tokens unknown' : unknown === 0 ? 'tokens as reported before the crash (counted above)' : `tokens unknown for ${unknown}, the others' as reported before the crash (counted above)`;
  return `; ${n} LLM attempt${n === 1 ? '' : 's'} lost to worker crashes and re-issued, ${tokens}`;
}

/** Stands in for the task context of a run that ended before `prepareTask` finished. */
function unpreparedContext(taskFile: string | undefined): TaskContext {
  return {
    taskId: taskFile ? path.basename(taskFile).replace(/\.json$/i, '') : '(unknown task)',
    topic: '(not prepared)', figure: taskFile ?? '(unknown task file)', profile: '(not prepared)', language: 'python', request: '',
    substitution: { substituted: false, adaptedLeaves: [] }, sourceKind: 'none',
    rubric: { available: false, leafCount: 0, reason: 'the task was not prepared' },
    limitingCases: [], scientificResults: [], convergenceCases: [], backgroundNames: [],
  };
}

/** The run this activity serves (workflow and run id), or only the workflow id outside an activity (tests). */
function currentRun(workflowId: string): { workflowId: string; runId?: string } {
  try {
    const run = Context.current().info.workflowExecution;
    if (run?.workflowId === workflowId) return { workflowId, runId: run.runId };
  } catch {
    /* not inside an activity: no run id to link */
  }
  return { workflowId };
}

/**
 * Every LLM call of the run, from its history through the worker's client (the one complete list,
 * failed calls included); outside a worker, or when the history cannot be read, why there is none.
 */
async function historyCalls(workflowId: string): Promise<RecordedCall[] | string> {
  let client;
  try {
    client = Context.current().client;
  } catch {
    return 'the report was written outside a worker (no workflow history to read)';
  }
  // Bounded: the report is written whatever happens, and the worker heartbeats for this activity meanwhile.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`the workflow history was not read within ${HISTORY_WAIT_MS / 1000} s`), HISTORY_WAIT_MS)));
  try {
    return await Promise.race([llmCallsInHistory(client, workflowId, { children: false }), late]);
  } catch (err) {
    return `the workflow history could not be read: ${(err as Error)?.message ?? String(err)}`;
  } finally {
    clearTimeout(timer);
  }
}

const HISTORY_WAIT_MS = 20_000;

/** Tells the server the report activity is alive (no-op outside an activity). */
function beat(): void {
  try {
    Context.current().heartbeat();
  } catch {
    /* not inside an activity */
  }
}

/** Where the transcript's calls come from: the run's history (default), or given (tests). */
interface ReportDeps {
  llmCalls?: (workflowId: string) => Promise<RecordedCall[] | string>;
}

export async function writeReport(store: ArtifactStore, input: ReportInput, deps: ReportDeps = {}): Promise<{ jsonRef: ArtifactRef; htmlRef: ArtifactRef; htmlPath: string; jsonPath: string }> {
  const ctx = input.context ?? unpreparedContext(input.taskFile);
  const endedAt = Date.now();
  const startedAt = Math.min(endedAt, ...input.progress.timings.map((t) => t.startedAt));
  const run = currentRun(input.workflowId);
  const ui = runUiUrl(run.workflowId, run.runId);
  const notices = [
    ctx.substitution.substituted ? ctx.substitution.note : undefined,
    input.progress.scripted ? 'Produced with the scripted model (recorded/hand-written LLM answers); execution, verification and metrics are real.' : undefined,
  ].filter(Boolean) as string[];
  const protocol = await protocolReport(store, ctx);
  const stageTimes = input.progress.timings.map((t) => ({ stage: t.stage, startedAt: iso(t.startedAt), endedAt: t.endedAt ? iso(t.endedAt) : null, seconds: ((t.endedAt ?? t.startedAt) - t.startedAt) / 1000 }));

  // The folder: every file the page links, copied out of the store under a readable name.
  const dir = reportDir(input.workflowId);
  const folder = new ReportFolder(dir, store);
  await folder.reset();
  const ext = ctx.language === 'julia' ? 'jl' : 'py';
  const finalScript = input.finalScriptRef ? await store.getText(input.finalScriptRef) : undefined;
  // A full-size run says what it ran: a script without the full-size values is a headline warning.
  const sizeCheck = ctx.fullSize && finalScript !== undefined ? checkFullSize(finalScript, ctx.fullSize.parameters) : undefined;
  if (sizeCheck?.warning) notices.unshift(sizeCheck.warning);
  // What the final run was actually called with (its call recording), against what the request asked.
  const ran = await ranWith(store, ctx, input.finalRun);
  if (ran.warning) notices.unshift(ran.warning);
  const finalLink = input.finalScriptRef ? await folder.copy(input.finalScriptRef, `final.${ext}`, 'final script') : undefined;
  const authorLink = input.authorScriptRef ? await folder.copy(input.authorScriptRef, `artifacts/author-script.${ext}`, "the Author's first script") : undefined;
  const figure = input.finalRun?.files.find((f) => f.path === FIGURE_FILE);
  const figureLink = figure ? await folder.copy(figure.ref, FIGURE_FILE, 'figure of the final run') : undefined;
  const programmingLinks: (LinkedFile | undefined)[] = [];
  for (const r of input.programmingReports) programmingLinks.push(await folder.copy(r.reportRef, `artifacts/programming-${r.iteration}.json`, `Programming verifier report, iteration ${r.iteration}`));
  const rubricLinks: (LinkedFile | undefined)[] = [];
  for (const s of input.scientificRounds) rubricLinks.push(s.rubric.reportRef ? await folder.copy(s.rubric.reportRef, `artifacts/rubric-${s.iteration}.json`, `rubric grading, scientific iteration ${s.iteration}`) : undefined);
  const diffs = [];
  for (const [k, r] of input.repairs.entries()) {
    const link = await folder.copy(r.outcome.diffRef, `artifacts/repair-${k + 1}-${r.stage}-${r.iteration}.diff`, `repair ${k + 1} (${r.stage} iteration ${r.iteration})`);
    diffs.push({ stage: r.stage, iteration: r.iteration, changed: r.outcome.changedFunctions, ...(r.outcome.suspects ? { suspects: r.outcome.suspects, unsuspectedChanges: r.outcome.unsuspectedChanges ?? [] } : {}), suggestions: r.suggestions, diff: await store.getText(r.outcome.diffRef), href: link?.href });
  }
  // figure.png is linked once, beside the page.
  for (const f of input.finalRun?.files ?? []) if (f !== figure) await folder.copy(f.ref, `artifacts/final-run/${safeRelative(f.path)}`, `final run output ${f.path}`);
  const scorecards = await Promise.all(input.scientificRounds.map((s) => rubricScorecard(store, ctx.rubric.leavesRef, s.rubric)));
  const calls = await (deps.llmCalls ?? historyCalls)(input.workflowId);
  const transcript: Transcript = typeof calls === 'string' ? { available: false, reason: calls } : await transcriptOf(store, folder, calls, beat);

  const json = {
    kind: 'physvec.reproduction-report',
    version: 2,
    notices,
    workflowId: input.workflowId,
    runId: run.runId ?? null,
    temporalUi: ui,
    startedAt: iso(startedAt),
    endedAt: iso(endedAt),
    task: { id: ctx.taskId, topic: ctx.topic, figure: ctx.figure, profile: ctx.profile, request: ctx.request, substitution: ctx.substitution, rubricFile: ctx.rubric.file, protocol: protocol.json },
    status: input.status,
    message: input.message,
    stageReached: input.stageReached,
    taskPrepared: input.context !== undefined,
    models: input.models,
    programming: input.programmingReports.map(({ reportRef: _r, keep: _k, ...rest }) => rest),
    scientific: input.scientificRounds.map((s, i) => ({ ...s, scorecard: scorecards[i] })),
    convergence: input.convergence,
    repairs: diffs,
    sizeCheck: sizeCheck ?? null,
    parametersUsed: ran.parameters,
    sizeUsed: ran.size,
    finalRun: input.finalRun ? { exitCode: input.finalRun.exitCode, ...(input.finalRun.killed ? { killed: input.finalRun.killed } : {}), ...(input.finalRun.checkpointSkipped ? { checkpointSkipped: input.finalRun.checkpointSkipped } : {}), durationMs: input.finalRun.durationMs, results: input.finalRun.results, files: input.finalRun.files.map((f) => ({ path: f.path, sha256: f.ref.sha256 })), missingProtections: input.finalRun.missingProtections } : null,
    tokens: input.progress.tokens,
    tokensByStage: input.progress.ledger.byStage,
    tokensByRole: input.progress.ledger.byRole,
    stageTimes,
    human: input.progress.human,
    llmTranscript: transcript.available ? transcript.roles.map((r) => ({ ...r, calls: r.calls.map(({ messages: _m, answer: _a, ...c }) => c) })) : { unavailable: transcript.reason },
    artifacts: { finalScript: input.finalScriptRef?.sha256, authorScript: input.authorScriptRef?.sha256, figure: figure?.ref.sha256 },
    files: folder.files,
    missingFiles: folder.missing,
  };
  const html = renderTemplate('evidence', evidenceView({
    input, ctx, notices, protocol: protocol.view, ui, runId: run.runId, startedAt, endedAt, stageTimes, diffs, scorecards,
    finalScript, links: { finalScript: finalLink, authorScript: authorLink, figure: figureLink, programming: programmingLinks, rubric: rubricLinks, files: folder.files, missing: folder.missing },
    lostLine: lostLine(input.progress.tokens),
    ran,
    transcript,
  }));
  const jsonPath = path.join(dir, 'report.json');
  const htmlPath = path.join(dir, 'report.html');
  await fs.writeFile(jsonPath, JSON.stringify(json, null, 2));
  await fs.writeFile(htmlPath, html);
  // With the artifact store in a bucket, the folder goes there too: `physvec report` on any host finds it.
  const bucket = reportBucket(store);
  if (bucket) await publishFolder(bucket, dir);
  return { jsonRef: await store.putJson(json, 'report.json'), htmlRef: await store.put(html, { name: 'report.html', mediaType: 'text/html' }), htmlPath, jsonPath };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The parameters the final run's functions were called with, and each asked parameter against them (null without a recording). */
async function ranWith(store: ArtifactStore, ctx: TaskContext, run: ReportInput['finalRun']): Promise<{ parameters: ParameterUsed[] | null; size: { asked: 'scaled' | 'full'; parameters: SizeComparison[] } | null; warning?: string }> {
  const calls = run ? await readCalls(store, run) : undefined;
  if (!calls) return { parameters: null, size: null };
  const parameters = parametersUsed(calls);
  if (!ctx.sizeAsked) return { parameters, size: null };
  const rows = compareSize(ctx.sizeAsked, parameters);
  const warning = sizeWarning(ctx.sizeAsked.size, rows);
  return { parameters, size: { asked: ctx.sizeAsked.size, parameters: rows }, ...(warning ? { warning } : {}) };
}
