// Why a script is not in the structure the verifiers need, one precise reason per problem, so the
// Author agent can be sent back with something it can fix.
import type {
  ScriptLanguage,
  ScriptStructure,
  StructureProblem,
} from '../../schemas/script-structure.js';
import { ElementCategory } from '../../schemas/script-structure.js';
import { intendedCategory, roleOf } from './categories.js';
import { parseScript } from './parse-script.js';
import { ScriptSyntaxError } from './source-text.js';

const PREFIXES = ElementCategory.options.map((c) => `${c}_`).join(', ');

/** Every function of the script, in the order the structure lists them. */
export function allFunctions(structure: ScriptStructure) {
  return [
    ...structure.elementFunctions,
    ...structure.runFunctions,
    ...(structure.main ? [structure.main] : []),
    ...structure.otherFunctions,
  ];
}

/** Functions reachable from `from` through calls, `from` excluded. */
export function reachableFrom(structure: ScriptStructure, from: string): Set<string> {
  const callees = new Map(allFunctions(structure).map((f) => [f.name, f.callees]));
  const seen = new Set<string>();
  const queue = [...(callees.get(from) ?? [])];
  while (queue.length) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...(callees.get(name) ?? []));
  }
  return seen;
}

export function checkStructure(structure: ScriptStructure): StructureProblem[] {
  const problems: StructureProblem[] = [];
  const { main } = structure;

  for (const fn of structure.otherFunctions) {
    const intended = fn.kind === 'function' ? intendedCategory(fn.name) : null;
    if (!intended) continue;
    problems.push({
      code: 'UNKNOWN_ELEMENT_CATEGORY',
      message: `\`${fn.name}\` (line ${fn.span.startLine}) looks like an element function but its prefix is not one of ${PREFIXES}; rename it to \`${intended.rename}\` (and its calls).`,
      functionName: fn.name,
      line: fn.span.startLine,
    });
  }

  if (structure.elementFunctions.length === 0) {
    problems.push({
      code: 'NO_ELEMENT_FUNCTIONS',
      message: `The script defines no element functions. Put each step (sites, lattice, Hamiltonian, initial state, solver, observables, data item, plot) in its own top-level function whose name starts with ${PREFIXES}.`,
    });
  }

  const counts = new Map<string, number[]>();
  for (const fn of allFunctions(structure)) counts.set(fn.name, [...(counts.get(fn.name) ?? []), fn.span.startLine]);
  for (const [name, lines] of counts) {
    if (lines.length < 2) continue;
    problems.push({
      code: 'DUPLICATE_FUNCTION',
      message: `\`${name}\` is defined ${lines.length} times (lines ${lines.join(', ')}); define each function once so it can be tested and repaired on its own.`,
      functionName: name,
      line: lines[1],
    });
  }

  if (structure.runFunctions.length === 0) {
    problems.push({
      code: 'NO_RUN_FUNCTION',
      message: 'The script has no run_ function. Add a function named run_<what> that calls the element functions in order (sites → Hamiltonian → initial state → effector → observables) and returns the results.',
    });
  }
  for (const run of structure.runFunctions) {
    if (run.calls.length) continue;
    problems.push({
      code: 'RUN_CALLS_NO_ELEMENT',
      message: `\`${run.name}\` (line ${run.span.startLine}) calls no element function defined in the script; a run_ function must compose the element functions step by step.`,
      functionName: run.name,
      line: run.span.startLine,
    });
  }

  if (!main) {
    problems.push({
      code: 'MAIN_MISSING',
      message: 'The script has no `main` function. Put parameters and the calls to run_/item_/plot_ functions in `main` and call it at the end of the script.',
    });
    return problems;
  }

  const reachable = reachableFrom(structure, main.name);
  const callsRunOrItem = main.callees.some((n) => {
    const role = roleOf(n);
    return role.kind === 'run' || (role.kind === 'element' && role.category === 'item');
  });
  if (!callsRunOrItem) {
    problems.push({
      code: 'MAIN_CALLS_NO_RUN_OR_ITEM',
      message: `\`main\` (line ${main.span.startLine}) calls no run_ or item_ function; main should set parameters and obtain results through run_/item_ functions.`,
      functionName: main.name,
      line: main.span.startLine,
    });
  }
  for (const run of structure.runFunctions) {
    if (reachable.has(run.name)) continue;
    problems.push({
      code: 'RUN_NOT_REACHED_FROM_MAIN',
      message: `\`${run.name}\` is never called from \`main\` (directly or through item_ functions), so it cannot be integration-tested with main's parameters; call it or remove it.`,
      functionName: run.name,
      line: run.span.startLine,
    });
  }
  if (!structure.entryPointCall) {
    problems.push({
      code: 'NO_ENTRY_POINT',
      message:
        structure.language === 'python'
          ? 'The script never calls `main`; end it with `if __name__ == "__main__":` followed by an indented `main()`.'
          : 'The script never calls `main`; end it with a top-level `main()` line.',
    });
  }
  return problems;
}

/** Parse and check in one go; a syntax error becomes a PARSE_ERROR problem instead of an exception. */
export function inspectScript(
  source: string,
  language: ScriptLanguage,
): { structure: ScriptStructure | null; problems: StructureProblem[] } {
  try {
    const structure = parseScript(source, language);
    return { structure, problems: checkStructure(structure) };
  } catch (err) {
    if (!(err instanceof ScriptSyntaxError)) throw err;
    return { structure: null, problems: [{ code: 'PARSE_ERROR', message: err.message, line: err.line }] };
  }
}
