// The runtime's call recording (physvec_runtime/calls.py, CALLS_FILE) read back: its schema, and the
// compact per-case evidence the suspect ranking works with — for each function a variant called,
// the hashes of the values it returned and which other recorded functions' results it was given.
import { z } from 'zod';

const Summary = z.object({ t: z.string(), h: z.string().optional(), id: z.string().optional(), parts: z.array(z.string()).optional(), v: z.unknown().optional() }).loose();
export type ValueSummary = z.infer<typeof Summary>;

export const CallRecord = z.object({ fn: z.string(), start: z.number(), end: z.number(), args: z.record(z.string(), Summary), out: Summary });
export type CallRecord = z.infer<typeof CallRecord>;

export const CallsFile = z.object({ version: z.literal(1), calls: z.array(CallRecord), counts: z.record(z.string(), z.number()) });
export type CallsFile = z.infer<typeof CallsFile>;

/** What one function did in one run: the values it returned (content hashes) and whose results it was given. */
export const FunctionValues = z.object({
  function: z.string(),
  /** Distinct content hashes of its return values (capped). */
  outs: z.array(z.string()),
  /** Some return value had no content hash (an opaque object): its novelty cannot be told. */
  opaque: z.boolean(),
  /** Recorded functions whose return values (or a part of one) it was called with. */
  from: z.array(z.string()),
});
export type FunctionValues = z.infer<typeof FunctionValues>;

export const CaseCalls = z.object({ case: z.string(), functions: z.array(FunctionValues) });
export type CaseCalls = z.infer<typeof CaseCalls>;

const MAX_OUTS = 24;

function keysOf(s: ValueSummary): string[] {
  return [s.h ?? s.id, ...(s.parts ?? [])].filter((k): k is string => typeof k === 'string');
}

/** The compact evidence of one run's recording. */
export function functionValues(file: CallsFile): FunctionValues[] {
  const by = new Map<string, FunctionValues>();
  const calls = [...file.calls].sort((a, b) => a.start - b.start);
  for (const c of calls) {
    const f = by.get(c.fn) ?? { function: c.fn, outs: [], opaque: false, from: [] };
    by.set(c.fn, f);
    if (c.out.h) {
      if (!f.outs.includes(c.out.h) && f.outs.length < MAX_OUTS) f.outs.push(c.out.h);
    } else f.opaque = true;
    for (const a of Object.values(c.args)) {
      const own = a.h ?? a.id;
      // A parameter value (an integer, a string) is no result handed on; a fractional number may be one.
      const plainParameter = a.t === 'str' || a.t === 'none' || (a.t === 'num' && !(typeof a.v === 'number' && !Number.isInteger(a.v)));
      if (!own || plainParameter) continue;
      for (const earlier of calls) {
        if (earlier.end >= c.start || earlier.fn === c.fn) continue;
        if (keysOf(earlier.out).includes(own) && !f.from.includes(earlier.fn)) f.from.push(earlier.fn);
      }
    }
  }
  return [...by.values()];
}
