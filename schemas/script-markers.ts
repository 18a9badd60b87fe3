// What scripts print and write for the platform to read: the markers the prompts ask for, the
// harnesses emit, and the activities and runners parse. One module so a marker is spelled once.

/** A result line: `PHYSVEC_RESULT <json>` (main, variants, convergence steps). */
export const RESULT_MARKER = 'PHYSVEC_RESULT';
/** Printed by an integration level's harness when the level ran to its end. */
export const LEVEL_OK_MARKER = 'PHYSVEC_LEVEL_OK';
/** Environment variable a convergence variant reads its knob value from. */
export const PARAM_ENV = 'PHYSVEC_PARAM';
/** Where the runtime's call recording (physvec_runtime/calls.py) writes each run's calls of the script's functions. */
export const CALLS_FILE = 'physvec_calls.json';
/** The figure a script's main writes (collected from the sandbox as the run's figure). */
export const FIGURE_FILE = 'figure.png';

/** The payloads of every result line in `stdout`, JSON-parsed where they parse (else the raw text). */
export function resultLines(stdout: string): unknown[] {
  const out: unknown[] = [];
  const re = new RegExp(`^${RESULT_MARKER}\\s+(.*)$`);
  for (const line of stdout.split('\n')) {
    const m = re.exec(line.trim());
    if (!m) continue;
    try {
      out.push(JSON.parse(m[1]!));
    } catch {
      out.push(m[1]);
    }
  }
  return out;
}

/** Whether an integration level's output says it ran to its end. */
export function levelCompleted(stdout: string): boolean {
  return stdout.includes(LEVEL_OK_MARKER);
}
