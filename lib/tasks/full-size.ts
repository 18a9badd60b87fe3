// `--size full`: a scaled task run with its full-size parameters (`scaled.parameters.*.full`). The
// request the Author reads and the cases the assertion variants are written from get one note that
// names each parameter's full value (and the scaled value it replaces); a task without `scaled` is
// already full size and gets nothing.
import type { TaskSize } from '../../schemas/pipeline.js';
import type { ScaledSpec } from '../../schemas/task.js';

/** The note for a full-size run, or null when the task has no scaled parameters. */
export function fullSizeNote(scaled: ScaledSpec | undefined): string | null {
  const params = Object.entries(scaled?.parameters ?? {});
  if (params.length === 0) return null;
  const list = params.map(([name, p]) => `${name} = ${JSON.stringify(p.full)} (instead of ${JSON.stringify(p.used)})`).join(', ');
  return `Full-size run: use the article's own parameters, ${list}, wherever the request or a case names the scaled values; do not scale the system down.`;
}

/** Request and case texts with the full-size note (unchanged when `size` is scaled or the task is already full size). */
export function applyTaskSize<C extends { content: string }>(size: TaskSize | undefined, scaled: ScaledSpec | undefined, request: string, cases: C[]): { request: string; cases: C[]; note: string | null } {
  const note = size === 'full' ? fullSizeNote(scaled) : null;
  if (!note) return { request, cases, note: null };
  return { request: `${request}\n\n${note}`, cases: cases.map((c) => ({ ...c, content: `${c.content} (${note})` })), note };
}
