// What the evidence page shows, as plain data for lib/reports/templates/evidence.eta: table rows with
// their verdict classes, the rubric scorecards, the numbered lines of the final script. Formatting
// (numbers, joins) happens here; escaping is the template engine's, on every value.
import type { TaskContext } from '../../schemas/pipeline.js';
import { estimatedNote } from '../../lib/llm/accounting.js';
import type { ReportInput } from './report.js';
import type { ProtocolReport } from './report-protocol.js';
import type { ScorecardLeaf } from './report-scorecard.js';
import { PREVIEW_CHARS, type Transcript } from './report-transcript.js';
import type { LinkedFile } from './report-files.js';
import type { ParameterUsed, SizeComparison } from '../../lib/tasks/size-used.js';

export interface VerdictRow { stage: string; test: string; verdict: string; cls: string; evidence: string; href?: string }

interface ViewInput {
  input: ReportInput;
  ctx: TaskContext;
  notices: string[];
  protocol: ProtocolReport['view'];
  ui: string;
  runId?: string;
  startedAt: number;
  endedAt: number;
  stageTimes: { stage: string; startedAt: string; endedAt: string | null; seconds: number }[];
  diffs: { stage: string; iteration: number; changed: string[]; suggestions: string[]; diff: string; href?: string }[];
  scorecards: (ScorecardLeaf[] | null)[];
  finalScript?: string;
  links: { finalScript?: LinkedFile; authorScript?: LinkedFile; figure?: LinkedFile; programming: (LinkedFile | undefined)[]; rubric: (LinkedFile | undefined)[]; files: LinkedFile[]; missing: string[] };
  lostLine: string;
  /** What the final run was called with (its call recording), and the asked parameters against it. */
  ran: { parameters: ParameterUsed[] | null; size: { asked: 'scaled' | 'full'; parameters: SizeComparison[] } | null };
  /** The LLM calls by role (activities/pipeline/report-transcript.ts). */
  transcript: Transcript;
}

const verdictClass = (v: string) => (v === 'correct' || v === 'passed' || v === 'true' ? 'ok' : v === 'undetermined' ? 'warn' : 'bad');

function verdictRows(v: ViewInput): VerdictRow[] {
  const { input } = v;
  const programming = input.programmingReports.flatMap((r, k) => {
    const stage = `programming ${r.iteration}`;
    const href = v.links.programming[k]?.href;
    return [
      ...r.judge_result.map((u) => ({ stage, test: `unit ${u.function}`, verdict: u.judge, cls: verdictClass(u.judge), evidence: u.errors, href })),
      ...r.run_functions.map((f) => ({ stage, test: `integration ${f.run_function}`, verdict: `correct_ratio ${f.correct_ratio.toFixed(3)}`, cls: f.correct_ratio === 1 ? 'ok' : 'bad', evidence: f.error_analysis, href })),
      { stage, test: 'full script', verdict: r.executable ? 'runs' : 'fails', cls: r.executable ? 'ok' : 'bad', evidence: r.fullRunError ?? '', href },
    ];
  });
  const scientific = input.scientificRounds.flatMap((s) => {
    const stage = `scientific ${s.iteration}`;
    const r = s.rubric;
    return [
      {
        stage, test: 'rubric', verdict: r.available ? `grade ${r.gradeMean?.toFixed(3)}` : 'not available',
        cls: !r.available ? 'warn' : r.failed.length === 0 ? 'ok' : 'bad',
        evidence: r.available ? (r.failed.length ? `failed: ${r.failed.map((f) => `#${f.index} ${f.issue}`).join('; ')}` : 'every leaf met') : r.reason ?? '',
        href: r.available ? `#rubric-${s.iteration}` : undefined,
      },
      ...s.assertions.map((a) => ({
        stage, test: `${a.case} (${a.method})`, verdict: a.judge, cls: verdictClass(a.judge),
        evidence: `${a.content}\ntruth: ${a.truth}\nobserved: ${JSON.stringify(a.observed ?? null)}\n${a.reason}`,
      })),
    ];
  });
  const convergence = input.convergence.map((c) => ({
    stage: 'convergence', test: c.case, verdict: c.converged ? `converged at ${c.convergedAt}` : c.writerFault ? "excluded (the writer's variant failed)" : 'not converged', cls: c.converged && c.ownSetting?.pass !== false ? 'ok' : 'bad',
    evidence: `${c.parameter} → ${c.sequence.map((s) => `${s.param}: ${JSON.stringify(s.value)}`).join(', ')}\n${c.reason}${c.ownSetting ? `\nown setting ${c.ownSetting.pass ? 'converged' : 'NOT converged'}: ${c.ownSetting.reason}` : ''}`,
  }));
  const f = v.input.finalRun;
  // The final run gets a row when it did not simply run: a kill says why, next to its output.
  const final: VerdictRow[] = f && (f.exitCode !== 0 || f.killed)
    ? [{ stage: 'final', test: 'final run', verdict: f.killed ?? (f.exitCode === 0 ? 'runs' : `fails (exit ${f.exitCode})`), cls: 'bad', evidence: [f.killed, f.stderrTail.split('\n').slice(-12).join('\n')].filter(Boolean).join('\n') }]
    : [];
  // A checkpoint skipped at a limit: a retried final run would have started over.
  if (f?.checkpointSkipped) final.push({ stage: 'final', test: 'checkpoint', verdict: 'not saved', cls: 'warn', evidence: f.checkpointSkipped });
  return [...programming, ...scientific, ...convergence, ...final];
}

const shown = (values: unknown[]) => values.map((x) => JSON.stringify(x)).join(', ');

function ranView(ran: ViewInput['ran']) {
  if (!ran.parameters) return null;
  const asked = (ran.size?.parameters ?? []).map((r) => ({ name: r.name, asked: JSON.stringify(r.asked), used: r.used.length ? shown(r.used) : '(no argument of that name)', verdict: r.verdict, cls: r.verdict === 'asked' ? 'ok' : r.verdict === 'not-recorded' ? 'warn' : 'bad' }));
  return { size: ran.size?.asked ?? null, asked, others: ran.parameters.map((p) => ({ name: p.name, values: shown(p.values), functions: p.functions.join(', ') })) };
}

export function evidenceView(v: ViewInput) {
  const { input, ctx } = v;
  const t = input.progress.tokens;
  return {
    notices: v.notices,
    title: `physvec report ${ctx.taskId}`,
    ctx,
    status: input.status,
    message: input.message,
    workflowId: input.workflowId,
    runId: v.runId,
    ui: v.ui,
    stageReached: input.stageReached,
    startedAt: new Date(v.startedAt).toISOString(),
    endedAt: new Date(v.endedAt).toISOString(),
    wallSeconds: ((v.endedAt - v.startedAt) / 1000).toFixed(1),
    models: [`default ${input.models.defaultModel}`, ...Object.entries(input.models.roles).map(([role, m]) => `${role} ${m}`)].join('; '),
    protocol: v.protocol,
    links: v.links,
    rows: verdictRows(v),
    scorecards: input.scientificRounds.map((s, k) => ({
      iteration: s.iteration, rubric: s.rubric, leaves: v.scorecards[k], href: v.links.rubric[k]?.href,
      grades: s.rubric.grades.map((g) => g.toFixed(3)).join(', '),
    })),
    diffs: v.diffs,
    tokens: `${input.progress.scripted ? 'scripted model: ' : ''}input ${t.inputTokens}, output ${t.outputTokens}, cached ${t.cachedInputTokens}, tool calls ${t.toolCalls}, LLM calls ${t.llmCalls}, $${t.costUsd.toFixed(4)}${estimatedNote(t)}${v.lostLine}`,
    stages: v.stageTimes.map((s) => {
      const u = input.progress.ledger.byStage[s.stage];
      return { ...s, inputTokens: u?.inputTokens ?? 0, outputTokens: u?.outputTokens ?? 0, usd: (u?.costUsd ?? 0).toFixed(4), seconds: s.seconds.toFixed(1) };
    }),
    human: input.progress.human.map((h) => ({ ...h, at: new Date(h.at).toISOString() })),
    ran: ranView(v.ran),
    scriptLines: v.finalScript === undefined ? null : v.finalScript.replace(/\n$/, '').split('\n'),
    transcript: v.transcript,
    previewChars: PREVIEW_CHARS,
  };
}
