// The human summary `physvec status <id>` prints (the whole document stays behind --json): what the
// run is, where it is, the verdicts so far per stage, the live simulation line, tokens and dollars,
// when it started and how long it has taken, and the UI link — a dozen lines instead of ~250 of JSON.
// Pure: it formats what workflow-status.ts gathered (progress query or result, search attributes).
import type { ReproductionProgress } from '../../workflows/reproduction/progress.js';

export interface StatusFacts {
  workflowId: string;
  type: string;
  status: string;
  taskId?: string;
  stage?: string;
  iteration?: number;
  verdict?: string;
  model?: string;
  startTime: Date;
  closeTime?: Date;
  ui: string;
  progress: Record<string, unknown> | { unavailable: string } | null;
  simulations: { line: string }[];
  /** LLM calls retrying a provider fault ("provider unavailable for 4m10s, retrying (attempt 17)"). */
  llmCalls?: { line: string }[];
  /** The build the run is pinned to, and every build that served it (more than one after an upgrade). */
  build?: string;
  servedBy?: string[];
  result: unknown;
}

type Tokens = ReproductionProgress['tokens'];
type Failed = { message: string; activity?: string; type?: string };

const pct = (x: number) => `${Math.round(100 * x)} %`;

/** "3m12s", "1h05m", "40s". */
function elapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function tokensText(t: Tokens): string {
  return `${t.inputTokens} in, ${t.outputTokens} out, ${t.llmCalls} LLM calls (${t.toolCalls} tool calls), $${t.costUsd.toFixed(4)}${t.scriptedCalls ? ` (${t.scriptedCalls} scripted)` : ''}`;
}

/** The verdicts each stage has reached so far, one short phrase per stage. */
function verdictsSoFar(p: Partial<ReproductionProgress>): string[] {
  const out: string[] = [];
  for (const h of p.programmingHistory ?? []) {
    out.push(`programming #${h.iteration}: unit ${pct(h.unitAccuracy)}, integration ${pct(h.integrationAccuracy)}, ${h.executable ? 'executable' : 'not executable'}`);
  }
  if (p.rubric) out.push(`scientific rubric: ${p.rubric.available ? `grade ${p.rubric.gradeMean?.toFixed(2) ?? '?'}, ${p.rubric.failed} failed` : 'not available'}`);
  if (p.assertions?.length) {
    const correct = p.assertions.filter((a) => a.judge === 'correct').length;
    out.push(`scientific assertions: ${correct}/${p.assertions.length} correct`);
  }
  if (p.convergence?.length) out.push(`convergence: ${p.convergence.filter((c) => c.converged).length}/${p.convergence.length} converged`);
  return out;
}

/** The summary's lines. */
export function statusLines(f: StatusFacts): string[] {
  const p = f.progress && !('unavailable' in f.progress) ? (f.progress as Partial<ReproductionProgress>) : undefined;
  const result = (f.result ?? undefined) as (Partial<{ status: string; message: string; tokens: Tokens; report: { htmlPath: string }; stageReached: string }> & { failed?: Failed }) | undefined;
  const state = f.status === 'RUNNING' ? `RUNNING${p?.status === 'paused' || f.verdict === 'paused' ? ', PAUSED (continue: physvec resume ' + f.workflowId + ')' : ''}` : f.status;
  const lines = [`${f.workflowId} (${f.type}): ${state}${f.verdict && f.status !== 'RUNNING' ? `, verdict ${f.verdict}` : ''}`];
  const task = f.taskId ?? p?.taskId ?? (result as { taskId?: string } | undefined)?.taskId;
  if (task || f.model) lines.push(`  task       ${task ?? '-'}${f.model ? `   model ${f.model}` : ''}${p?.substitution ? `   (${p.substitution})` : ''}`);
  if (f.build) lines.push(`  build      ${f.build}${(f.servedBy?.length ?? 0) > 1 ? ` (served by ${f.servedBy!.join(', ')})` : ''}`);
  const stage = p?.stage ?? f.stage ?? result?.stageReached;
  if (stage) lines.push(`  stage      ${stage}${(p?.iteration ?? f.iteration) ? `, iteration ${p?.iteration ?? f.iteration}` : ''}`);
  const verdicts = p ? verdictsSoFar(p) : [];
  verdicts.forEach((v, i) => lines.push(`  ${i === 0 ? 'verdicts  ' : '          '} ${v}`));
  for (const s of f.simulations) lines.push(`  simulation ${s.line}`);
  for (const c of f.llmCalls ?? []) lines.push(`  ${c.line}`);
  const tokens = p?.tokens ?? result?.tokens;
  if (tokens) lines.push(`  tokens     ${tokensText(tokens)}`);
  for (const h of p?.human ?? []) lines.push(`  person     ${h.kind} at ${h.stage}${h.note ? ` ("${h.note}")` : ''}`);
  const end = f.closeTime ?? new Date();
  lines.push(`  started    ${f.startTime.toISOString().replace(/\.\d+Z$/, 'Z')}, ${f.closeTime ? 'took' : 'running for'} ${elapsed(end.getTime() - f.startTime.getTime())}`);
  if (f.progress && 'unavailable' in f.progress) lines.push(`  progress   ${String(f.progress.unavailable)}`);
  if (result?.failed) lines.push(`  failed     ${result.failed.activity ? `in activity ${result.failed.activity}: ` : ''}${result.failed.message}${result.failed.type ? ` [${result.failed.type}]` : ''}`);
  else if (result?.status) lines.push(`  result     ${result.status}${result.message ? ` — ${result.message}` : ''}`);
  if (result?.report?.htmlPath) lines.push(`  report     ${result.report.htmlPath}`);
  if (f.status === 'RUNNING') lines.push(`  stop it    physvec stop ${f.workflowId}`);
  lines.push(`  UI         ${f.ui}`);
  lines.push(`  (all of it: physvec status ${f.workflowId} --json)`);
  return lines;
}
