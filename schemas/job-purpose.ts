// What a sandbox job is for, as a record rather than a string to split apart again: the activities
// that build jobs set it, the sandbox label and run ids are derived from it, and the verdicts read
// it back from the run's digest.
import { z } from 'zod';

export const JobPurpose = z.discriminatedUnion('kind', [
  /** The unit harness of one element function. */
  z.object({ kind: z.literal('unit'), function: z.string() }),
  /** One integration level of a run_ function: levels 1..totalLevels, each introducing element functions. */
  z.object({ kind: z.literal('level'), runFunction: z.string(), level: z.number().int(), totalLevels: z.number().int(), introduces: z.array(z.string()) }),
  /** The whole script as written. */
  z.object({ kind: z.literal('full') }),
  /** The variant main of a physical assertion (`limiting:<k>`, `scientific:<k>`). */
  z.object({ kind: z.literal('assertion'), case: z.string() }),
  /** A convergence variant, at one knob value once the schedule runs it. */
  z.object({ kind: z.literal('convergence'), case: z.string(), value: z.number().optional() }),
]);
export type JobPurpose = z.infer<typeof JobPurpose>;

/** The job's id (sandbox label, run digest id): `unit:f`, `level:run_x:2:3:a+b`, `full`, `limiting:0`, `convergence:0:64`. */
export function jobId(p: JobPurpose): string {
  switch (p.kind) {
    case 'unit': return `unit:${p.function}`;
    case 'level': return `level:${p.runFunction}:${p.level}:${p.totalLevels}:${p.introduces.join('+')}`;
    case 'full': return 'full';
    case 'assertion': return p.case;
    case 'convergence': return p.value === undefined ? p.case : `${p.case}:${p.value}`;
  }
}

/** One line for a person (Temporal UI activity summaries). */
export function describePurpose(p: JobPurpose): string {
  switch (p.kind) {
    case 'unit': return `unit test ${p.function}`;
    case 'level': return `integration ${p.runFunction} level ${p.level}/${p.totalLevels}`;
    case 'full': return 'full script run';
    case 'assertion': return `assertion ${p.case}`;
    case 'convergence': return `convergence ${p.case}${p.value === undefined ? '' : ` at ${p.value}`}`;
  }
}
