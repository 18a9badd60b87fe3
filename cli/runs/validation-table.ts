// The outcome of one validated script as a table row, and the table itself. A reference is green when
// it passes; a mutant is caught when it is flagged at its expected stage AND the function named is the
// faulty one.
import type { ValidationSummary } from '../../schemas/validation.js';
import type { SuiteEntry } from './validation-suite.js';
import { textTable } from '../text-table.js';

export interface ValidationRow {
  task: string;
  topic: string;
  profile: string;
  script: string;
  kind: 'reference' | 'mutant';
  /** `x/y` assertion variants passed; `not run` for a script that crashed. */
  assertions: string;
  /** Cases that did not pass: assertion ids, `convergence:<k>` (not converged) or `convergence:<k>:own-setting`. */
  failedCases: string[];
  /** Per convergence case: `yes@<value>`, `no`, `own setting off`, or `-` when not run. */
  convergence: string;
  expectedStage: string;
  stage: string;
  expectedFunction: string | null;
  faultyFunction: string | null;
  /** The full script's own run (the suite asks ≤ 2 min for a reference). */
  fullRunMs: number;
  /** The whole validation: full run, variants, convergence, localisation (runs queue for the simulation slots). */
  wallMs: number;
  ok: boolean;
  workflowId: string | null;
  /** Why a row is red, or the evidence behind a catch. */
  detail: string;
}

function convergenceCell(s: ValidationSummary): string {
  if (!s.convergence.length) return '-';
  return s.convergence.map((c) => (c.converged ? (c.ownSetting === false ? `own setting off (conv.@${c.at})` : `yes@${c.at}`) : 'no')).join(', ');
}

function detailOf(s: ValidationSummary): string {
  if (s.stage === 'programming' && !s.executable) return `crash${s.programmingFault ? ` in ${s.programmingFault}` : ''}: ${(s.programmingError ?? '').split('\n').filter(Boolean).slice(-1)[0] ?? ''}`;
  const parts: string[] = [];
  if (s.structureProblems.length) parts.push(`structure check: ${s.structureProblems.join('; ')}`);
  const bad = s.assertions.filter((a) => a.judge !== 'correct');
  if (bad.length) parts.push(bad.map((a) => `${a.case} ${a.judge}: ${a.reason}`).join('; '));
  for (const c of s.convergence) if (!c.converged || c.ownSetting === false) parts.push(`${c.case}: ${c.reason}`);
  if (s.localisation) parts.push(`localisation on ${s.localisation.case}: ${s.localisation.note}`);
  return parts.join(' | ');
}

export function rowOf(entry: SuiteEntry, outcome: { summary?: ValidationSummary; workflowId?: string; error?: string }): ValidationRow {
  const base = {
    task: entry.taskId,
    topic: entry.topic,
    profile: entry.profile,
    script: entry.script,
    kind: entry.kind,
    expectedStage: entry.expected.stage,
    expectedFunction: entry.expected.faultyFunction ?? null,
    workflowId: outcome.workflowId ?? null,
  };
  const s = outcome.summary;
  if (!s) {
    return { ...base, assertions: '-', failedCases: [], convergence: '-', stage: 'error', faultyFunction: null, fullRunMs: 0, wallMs: 0, ok: false, detail: entry.problem ?? outcome.error ?? 'no result' };
  }
  const faultyFunction = s.faultyFunction ?? null;
  const ok = entry.kind === 'reference' ? s.stage === 'passed' : s.stage === entry.expected.stage && faultyFunction === entry.expected.faultyFunction;
  return {
    ...base,
    // A script that does not run is flagged before any assertion (as in the reproduction).
    assertions: s.executable ? `${s.passed}/${s.total}` : 'not run',
    failedCases: [
      ...s.assertions.filter((a) => a.judge !== 'correct').map((a) => a.case),
      ...s.convergence.filter((c) => !c.converged).map((c) => c.case),
      ...s.convergence.filter((c) => c.ownSetting === false).map((c) => `${c.case}:own-setting`),
    ],
    convergence: convergenceCell(s),
    stage: s.stage,
    faultyFunction,
    fullRunMs: s.fullRunMs,
    wallMs: s.wallMs,
    ok,
    detail: detailOf(s),
  };
}

export interface TableSummary {
  references: number;
  green: number;
  mutants: number;
  caught: number;
  wallMs: number;
  ok: boolean;
}

export function summarizeRows(rows: ValidationRow[], wallMs: number): TableSummary {
  const refs = rows.filter((r) => r.kind === 'reference');
  const muts = rows.filter((r) => r.kind === 'mutant');
  return { references: refs.length, green: refs.filter((r) => r.ok).length, mutants: muts.length, caught: muts.filter((r) => r.ok).length, wallMs, ok: rows.every((r) => r.ok) };
}

const COLUMNS: { head: string; cell: (r: ValidationRow) => string }[] = [
  { head: 'task', cell: (r) => r.task },
  { head: 'profile', cell: (r) => r.profile || '-' },
  { head: 'script', cell: (r) => r.script },
  { head: 'assertions', cell: (r) => r.assertions },
  { head: 'convergence', cell: (r) => r.convergence },
  { head: 'stage (expected → got)', cell: (r) => `${r.expectedStage} → ${r.stage}` },
  { head: 'function (expected → got)', cell: (r) => (r.kind === 'reference' && !r.faultyFunction ? '-' : `${r.expectedFunction ?? '-'} → ${r.faultyFunction ?? 'none'}`) },
  { head: 'run s', cell: (r) => (r.fullRunMs / 1000).toFixed(1) },
  { head: 'wall s', cell: (r) => (r.wallMs / 1000).toFixed(1) },
  { head: 'verdict', cell: (r) => (r.kind === 'reference' ? (r.ok ? 'GREEN' : 'RED') : r.ok ? 'CAUGHT' : 'MISSED') },
];

export function formatTable(rows: ValidationRow[], summary: TableSummary): string[] {
  const lines = textTable(COLUMNS.map((c) => c.head), rows.map((r) => COLUMNS.map((c) => c.cell(r))), { rule: true });
  const red = rows.filter((r) => !r.ok);
  if (red.length) {
    lines.push('', 'not as expected:');
    for (const r of red) lines.push(`  ${r.task}/${r.script}: ${r.detail}`);
  }
  lines.push(
    '',
    `references green ${summary.green}/${summary.references}; mutants caught at the right stage with the right function ${summary.caught}/${summary.mutants}; ` +
      `total wall time ${(summary.wallMs / 1000).toFixed(1)} s — ${summary.ok ? 'ALL AS EXPECTED' : 'NOT ALL AS EXPECTED'}`,
  );
  return lines;
}
