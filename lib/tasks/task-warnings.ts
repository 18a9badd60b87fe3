// What is legal in a task file but probably not what its author meant, as warnings: a truth with no
// number and no property code can check (an LLM will judge it), a numeric truth or convergence criterion with no tolerance (a default
// is used: say which), invisible characters in the figure name (kept, but a reader cannot see them).
// And, as errors, what would otherwise be repaired silently: a tolerance that is not a number > 0, a
// figure name that is not one path segment (it names files and folders of the run).
import type { Problem, Task } from '../../schemas/task.js';
import { DEFAULT_CONVERGENCE_TOLERANCE } from './convergence-default.js';
import { escapeInvisible, invisibleCharacters } from './invisible.js';
import { errorAt, warningAt } from '../input-files/problems.js';
import { DEFAULT_TOLERANCE, parseTolerance, parseTruth, toleranceProblem } from './truth.js';

export function taskWarnings(task: Task, file: string): Problem[] {
  const out: Problem[] = [];
  const truthCases = [
    ['LimitingCases', task.LimitingCases ?? []],
    ['ScientificResults', task.ScientificResults ?? []],
  ] as const;
  for (const [field, list] of truthCases) {
    list.forEach((c, i) => {
      const at = `${field}.${i}.truth`;
      const bad = toleranceProblem(c.truth);
      if (bad) {
        out.push(errorAt(file, bad, at));
        return;
      }
      const t = parseTruth(c.truth);
      // A symmetric/constant property is checked by code on the printed values: nothing to warn about.
      if (t.kind === 'qualitative' && !t.property) {
        out.push(
          warningAt(
            file,
            'has no number: it will be judged qualitatively by an LLM (the assertion-judge role, with the printed output in front of it); add a value and a tolerance sentence if one is known',
            at,
          ),
        );
      } else if (t.kind === 'numeric' && !t.tolerance.stated) {
        out.push(warningAt(file, `states no tolerance: the default ${describeTolerance(DEFAULT_TOLERANCE)} is used; add e.g. "The relative error tolerance is +/- 0.05."`, at));
      }
    });
  }
  (task.ConvergenceCases ?? []).forEach((c, i) => {
    const bad = toleranceProblem(c.criteria);
    if (bad) out.push(errorAt(file, bad, `ConvergenceCases.${i}.criteria`));
    else if (!parseTolerance(c.criteria)) {
      out.push(warningAt(file, `states no tolerance: the default ${describeTolerance(DEFAULT_CONVERGENCE_TOLERANCE)} change between steps is used; add e.g. "The relative change tolerance is 0.001."`, `ConvergenceCases.${i}.criteria`));
    }
  });
  const segment = pathSegmentProblem(task.subplot_name);
  if (segment) out.push(errorAt(file, `${segment}; the figure name is used in file and folder names of the run: write it as one name, e.g. "Fig._1_a"`, 'subplot_name'));
  const hidden = invisibleCharacters(task.subplot_name);
  if (hidden.length) {
    out.push(
      warningAt(
        file,
        `contains invisible characters (${hidden.map((h) => `${h.code} at ${h.index}`).join(', ')}): kept as published, shown escaped as "${escapeInvisible(task.subplot_name)}"`,
        'subplot_name',
      ),
    );
  }
  return out;
}

export function describeTolerance(t: { type: string; value: number }): string {
  return `${t.type} ${t.value}${t.type === 'relative' ? ` (${Number((t.value * 100).toPrecision(6))}%)` : ''}`;
}

/** Why a name cannot be one path segment (a separator, `..`, `.`, a NUL), or undefined. */
function pathSegmentProblem(name: string): string | undefined {
  if (/[/\\]/.test(name)) return `"${name}" contains a path separator (${name.includes('/') ? '/' : '\\'})`;
  if (name.includes('..')) return `"${name}" contains ".."`;
  if (name.trim() === '.') return `"${name}" is "."`;
  if (name.includes('\0')) return `"${escapeInvisible(name)}" contains a NUL character`;
  return undefined;
}
