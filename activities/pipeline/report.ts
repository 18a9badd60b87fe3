// The evidence report of a reproduction: one JSON document and one self-contained HTML page (figure
// inlined) listing every test with its verdict, the diff that fixed each failure, the rubric
// scorecard, assertion values vs truths, the convergence sequence, tokens, cost and time per stage.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { AssertionVerdict, ConvergenceOutcome, ProgrammingReport, RepairOutcome, RubricOutcome, RunDigest, TaskContext } from '../../schemas/pipeline.js';
import { reportDir } from '../../lib/reports/dirs.js';
import { protocolReport } from './report-protocol.js';

export interface ReportInput {
  workflowId: string;
  status: string;
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
  repairs: { stage: string; iteration: number; outcome: RepairOutcome; suggestions: string[] }[];
  finalRun?: RunDigest;
  progress: {
    scripted: boolean;
    tokens: { inputTokens: number; outputTokens: number; cachedInputTokens: number; toolCalls: number; costUsd: number; llmCalls: number; lostAttempts?: number; lostAttemptsUsageUnknown?: number };
    ledger: { byStage: Record<string, { inputTokens: number; outputTokens: number; costUsd: number }>; byRole: Record<string, { inputTokens: number; outputTokens: number; costUsd: number }> };
    timings: { stage: string; startedAt: number; endedAt?: number }[];
    human: { at: number; kind: string; note?: string; stage: string }[];
  };
}

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const verdictClass = (v: string) => (v === 'correct' || v === 'passed' || v === 'true' ? 'ok' : v === 'undetermined' ? 'warn' : 'bad');

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

export async function writeReport(store: ArtifactStore, input: ReportInput): Promise<{ jsonRef: ArtifactRef; htmlRef: ArtifactRef; htmlPath: string; jsonPath: string }> {
  const ctx = input.context ?? unpreparedContext(input.taskFile);
  const firstLine = [
    ctx.substitution.substituted ? ctx.substitution.note : undefined,
    input.progress.scripted ? 'Produced with the scripted model (recorded/hand-written LLM answers); execution, verification and metrics are real.' : undefined,
  ].filter(Boolean) as string[];
  const protocol = await protocolReport(store, ctx);
  const stageTimes = input.progress.timings.map((t) => ({ stage: t.stage, seconds: ((t.endedAt ?? t.startedAt) - t.startedAt) / 1000 }));
  const diffs = await Promise.all(input.repairs.map(async (r) => ({ stage: r.stage, iteration: r.iteration, changed: r.outcome.changedFunctions, ...(r.outcome.suspects ? { suspects: r.outcome.suspects, unsuspectedChanges: r.outcome.unsuspectedChanges ?? [] } : {}), suggestions: r.suggestions, diff: await store.getText(r.outcome.diffRef) })));
  const finalScript = input.finalScriptRef ? await store.getText(input.finalScriptRef) : undefined;
  const figure = input.finalRun?.files.find((f) => f.path === 'figure.png');
  const figureB64 = figure ? (await store.get(figure.ref)).toString('base64') : undefined;
  const json = {
    kind: 'physvec.reproduction-report',
    version: 1,
    notices: firstLine,
    workflowId: input.workflowId,
    task: { id: ctx.taskId, topic: ctx.topic, figure: ctx.figure, profile: ctx.profile, request: ctx.request, substitution: ctx.substitution, rubricFile: ctx.rubric.file, protocol: protocol.json },
    status: input.status,
    message: input.message,
    stageReached: input.stageReached,
    taskPrepared: input.context !== undefined,
    models: input.models,
    programming: input.programmingReports.map(({ reportRef: _r, ...rest }) => rest),
    scientific: input.scientificRounds,
    convergence: input.convergence,
    repairs: diffs,
    finalRun: input.finalRun ? { exitCode: input.finalRun.exitCode, durationMs: input.finalRun.durationMs, results: input.finalRun.results, files: input.finalRun.files.map((f) => ({ path: f.path, sha256: f.ref.sha256 })), missingProtections: input.finalRun.missingProtections } : null,
    tokens: input.progress.tokens,
    tokensByStage: input.progress.ledger.byStage,
    tokensByRole: input.progress.ledger.byRole,
    stageTimes,
    human: input.progress.human,
    artifacts: { finalScript: input.finalScriptRef?.sha256, authorScript: input.authorScriptRef?.sha256, figure: figure?.ref.sha256 },
  };

  const row = (cells: unknown[], cls = '') => `<tr class="${cls}">${cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`;
  const progRows = input.programmingReports.flatMap((r) => [
    ...r.judge_result.map((u) => row([`programming ${r.iteration}`, `unit ${u.function}`, u.judge, u.errors], verdictClass(u.judge))),
    ...r.run_functions.map((f) => row([`programming ${r.iteration}`, `integration ${f.run_function}`, `correct_ratio ${f.correct_ratio.toFixed(3)}`, f.error_analysis], f.correct_ratio === 1 ? 'ok' : 'bad')),
    row([`programming ${r.iteration}`, 'full script', r.executable ? 'runs' : 'fails', r.fullRunError ?? ''], r.executable ? 'ok' : 'bad'),
  ]);
  const sciRows = input.scientificRounds.flatMap((s) => [
    row([`scientific ${s.iteration}`, 'rubric', s.rubric.available ? `grade ${s.rubric.gradeMean?.toFixed(3)}` : 'not available', s.rubric.available ? s.rubric.failed.map((f) => `#${f.index} ${f.issue}`).join('; ') : s.rubric.reason], !s.rubric.available ? 'warn' : s.rubric.failed.length === 0 ? 'ok' : 'bad'),
    ...s.assertions.map((a) => row([`scientific ${s.iteration}`, `${a.case} (${a.method})`, a.judge, `${a.content} | truth: ${a.truth} | observed: ${JSON.stringify(a.observed ?? null)} | ${a.reason}`], verdictClass(a.judge))),
  ]);
  const convRows = input.convergence.map((c) => row(['convergence', c.case, c.converged ? `converged at ${c.convergedAt}` : 'not converged', `${c.parameter} → ${c.sequence.map((s) => `${s.param}: ${JSON.stringify(s.value)}`).join(', ')} | ${c.reason}${c.ownSetting ? ` | own setting ${c.ownSetting.pass ? 'converged' : 'NOT converged'}: ${c.ownSetting.reason}` : ''}`], c.converged && c.ownSetting?.pass !== false ? 'ok' : 'bad'));
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>physvec report ${esc(ctx.taskId)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;font-size:13px}
tr.ok td:nth-child(3){background:#d9f2d9}tr.bad td:nth-child(3){background:#f8d0d0}tr.warn td:nth-child(3){background:#fff2c2}.notice{background:#fff2c2;padding:6px 10px;border:1px solid #e0c060}
pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}.status{font-size:20px;font-weight:bold}</style></head><body>
${firstLine.map((l) => `<p class="notice">${esc(l)}</p>`).join('')}
<h1>Reproduction of ${esc(ctx.figure)} — ${esc(ctx.taskId)}</h1>
<p class="status" id="status">Status: ${esc(input.status)}${input.message ? ` — ${esc(input.message)}` : ''}</p>
<p>Workflow <code>${esc(input.workflowId)}</code>; topic ${esc(ctx.topic)}; toolchain ${esc(ctx.profile)}; stage reached: ${esc(input.stageReached)}.</p>
${ctx.substitution.substituted ? `<h2>Toolchain substitution</h2><p>Request given to the Author:</p><pre id="adapted-request">${esc(ctx.request)}</pre>
<table id="adapted-rubric"><tr><th>rubric issue</th><th>original</th><th>adapted for ${esc(ctx.profile)}</th></tr>${ctx.substitution.adaptedLeaves.map((l) => `<tr><td>${l.index}</td><td>${esc(l.from)}</td><td>${esc(l.to)}</td></tr>`).join('')}</table>` : ''}
${protocol.html}
<h2>Figure</h2>${figureB64 ? `<img id="figure" alt="reproduced figure" style="max-width:700px" src="data:image/png;base64,${figureB64}">` : '<p>No figure was produced.</p>'}
<h2>Verdicts</h2><table id="verdicts"><tr><th>stage</th><th>test</th><th>verdict</th><th>evidence</th></tr>${progRows.join('')}${sciRows.join('')}${convRows.join('')}</table>
<h2>Repairs</h2>${diffs.map((d) => `<h3>${esc(d.stage)} iteration ${d.iteration}: ${esc(d.changed.join(', '))}</h3><ul>${d.suggestions.map((s) => `<li>${esc(s)}</li>`).join('')}</ul><pre>${esc(d.diff)}</pre>`).join('') || '<p>None.</p>'}
<h2>Tokens and cost</h2><p>${input.progress.scripted ? '<b>scripted model</b>: ' : ''}input ${input.progress.tokens.inputTokens}, output ${input.progress.tokens.outputTokens}, cached ${input.progress.tokens.cachedInputTokens}, tool calls ${input.progress.tokens.toolCalls}, LLM calls ${input.progress.tokens.llmCalls}, $${input.progress.tokens.costUsd.toFixed(4)}${lostLine(input.progress.tokens)}</p>
<table><tr><th>stage</th><th>input tokens</th><th>output tokens</th><th>USD</th><th>wall time (s)</th></tr>${stageTimes.map((t) => { const u = input.progress.ledger.byStage[t.stage]; return `<tr><td>${esc(t.stage)}</td><td>${u?.inputTokens ?? 0}</td><td>${u?.outputTokens ?? 0}</td><td>${(u?.costUsd ?? 0).toFixed(4)}</td><td>${t.seconds.toFixed(1)}</td></tr>`; }).join('')}</table>
<h2>Human interventions</h2>${input.progress.human.length ? `<ul>${input.progress.human.map((h) => `<li>${esc(new Date(h.at).toISOString())} ${esc(h.kind)} at ${esc(h.stage)} ${esc(h.note ?? '')}</li>`).join('')}</ul>` : '<p>None.</p>'}
<h2>Final script</h2><pre>${esc(finalScript ?? '(none)')}</pre>
</body></html>`;
  const dir = reportDir(input.workflowId);
  await fs.mkdir(dir, { recursive: true });
  const jsonPath = path.join(dir, 'report.json');
  const htmlPath = path.join(dir, 'report.html');
  await fs.writeFile(jsonPath, JSON.stringify(json, null, 2));
  await fs.writeFile(htmlPath, html);
  if (figureB64) await fs.writeFile(path.join(dir, 'figure.png'), Buffer.from(figureB64, 'base64'));
  if (finalScript) await fs.writeFile(path.join(dir, `final.${ctx.language === 'julia' ? 'jl' : 'py'}`), finalScript);
  return { jsonRef: await store.putJson(json, 'report.json'), htmlRef: await store.put(html, { name: 'report.html', mediaType: 'text/html' }), htmlPath, jsonPath };
}
