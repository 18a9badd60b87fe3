// What the final run actually ran: the parameters its functions were called with (the runtime's call
// recording, physvec_runtime/calls.py), compared with what the request asked — the task's scaled
// values, or with `--size full` its full-size ones. A parameter is matched by the name of the
// function argument that carries it (L, chi_max, n_iter…, with a few common spellings).
import type { CallsFile, ValueSummary } from '../verification/call-records.js';

type Scalar = number | string;

/** One argument name of the script's functions and the scalar values it was called with. */
export interface ParameterUsed {
  name: string;
  values: Scalar[];
  functions: string[];
}

export interface SizeComparison {
  name: string;
  asked: unknown;
  /** The value of the other size (the full value in a scaled run, the scaled one in a full run). */
  other: unknown;
  used: Scalar[];
  /** `asked`: the run used what was asked; `other`: it used the other size's value; `different`: neither; `not-recorded`: no argument of that name. */
  verdict: 'asked' | 'other' | 'different' | 'not-recorded';
}

const MAX_VALUES = 12;

// Spellings of the same parameter in scripts (normalised: lower case, no underscores).
const ALIASES: Record<string, string[]> = {
  l: ['length', 'nsites', 'numsites', 'nsite', 'chainlength'],
  chimax: ['chi', 'maxchi', 'bonddim', 'bonddimension', 'maxbonddim'],
  niter: ['iterations', 'niterations', 'nsteps', 'steps', 'numiter', 'maxiter'],
  nsamples: ['samples', 'nsample', 'numsamples'],
  nqubits: ['numqubits', 'qubits', 'nqubit'],
  maxsweeps: ['sweeps', 'nsweeps'],
  ndistances: ['npoints', 'ndist'],
};

function norm(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function namesFor(parameter: string): Set<string> {
  const n = norm(parameter);
  return new Set([n, ...(ALIASES[n] ?? [])]);
}

function scalars(s: ValueSummary): Scalar[] {
  if ((s.t === 'num' || s.t === 'str') && (typeof s.v === 'number' || typeof s.v === 'string')) return [s.v];
  if (s.t === 'seq' && Array.isArray(s.items)) return (s.items as ValueSummary[]).flatMap((i) => scalars(i));
  return [];
}

/** Every argument name of the recorded calls with the scalar values passed to it (numbers, strings; lists by their items). */
export function parametersUsed(file: CallsFile): ParameterUsed[] {
  const by = new Map<string, ParameterUsed>();
  for (const c of file.calls) {
    for (const [name, s] of Object.entries(c.args)) {
      const values = scalars(s);
      if (values.length === 0) continue;
      const p = by.get(name) ?? { name, values: [], functions: [] };
      by.set(name, p);
      for (const v of values) if (!p.values.includes(v) && p.values.length < MAX_VALUES) p.values.push(v);
      if (!p.functions.includes(c.fn)) p.functions.push(c.fn);
    }
  }
  return [...by.values()];
}

function same(a: unknown, b: Scalar): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** Whether `used` holds `value` (a list: every item of it). */
function holds(used: Scalar[], value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((v) => holds(used, v));
  return used.some((u) => same(value, u));
}

/** Each asked parameter against the values the run's functions were called with. */
export function compareSize(asked: { size: 'scaled' | 'full'; parameters: { name: string; full: unknown; used: unknown }[] }, used: ParameterUsed[]): SizeComparison[] {
  return asked.parameters.map((p) => {
    const want = asked.size === 'full' ? p.full : p.used;
    const other = asked.size === 'full' ? p.used : p.full;
    const names = namesFor(p.name);
    const values = used.filter((u) => names.has(norm(u.name))).flatMap((u) => u.values);
    const verdict: SizeComparison['verdict'] = values.length === 0 ? 'not-recorded' : holds(values, want) ? 'asked' : holds(values, other) ? 'other' : 'different';
    return { name: p.name, asked: want, other, used: [...new Set(values)].slice(0, MAX_VALUES), verdict };
  });
}

/** The headline warning for parameters the run did not use as asked, or undefined. */
export function sizeWarning(size: 'scaled' | 'full', rows: SizeComparison[]): string | undefined {
  const off = rows.filter((r) => r.verdict === 'other' || r.verdict === 'different');
  if (off.length === 0) return undefined;
  const list = off.map((r) => `${r.name} = ${r.used.map((v) => JSON.stringify(v)).join(', ')} (asked ${JSON.stringify(r.asked)}${r.verdict === 'other' ? `, the ${size === 'full' ? 'scaled' : 'full-size'} value` : ''})`).join('; ');
  return `The final run did not use the ${size === 'full' ? 'full-size' : 'requested'} parameters: its functions were called with ${list}.`;
}
