// Unit-test harness for one element function (paper, Supplemental Material: "Unit test"): the
// script's preamble, background functions from the Verifier library, the function under test
// verbatim, and a main written around them.
import { badInputFromZod, BadInputError } from '../errors.js';
import { type HarnessScript, type ScriptStructure, UnitHarnessRequest } from '../../schemas/script-structure.js';
import { callSites, linesWithin, mentionedNames } from '../script-analysis/calls.js';
import { allFunctions } from '../script-analysis/check-structure.js';
import { lexScript } from '../script-analysis/lex-script.js';
import { unitHarnessFileName } from './file-names.js';
import { parsePart } from './parse-part.js';
import { dedent, entryCallSource } from './source-edits.js';

export const BANNER = {
  background: '# ==== Background functions from the Verifier library ====',
  underTest: '# ==== Element function under test ====',
  dependencies: '# ==== Functions of the original script used by the function under test ====',
  topLevel: '# ==== Top-level definitions of the original script ====',
  workflow: '# ==== Complete workflow/procedure ====',
} as const;

/**
 * Script functions the target needs to run, found by following every name it mentions (calls,
 * functions passed as values, types), minus those the harness defines itself.
 */
function dependencies(structure: ScriptStructure, target: string, providedElsewhere: Set<string>) {
  const lines = lexScript(structure.source, structure.language);
  const functions = allFunctions(structure).filter((f) => f.name !== 'main');
  const names = new Set(functions.map((f) => f.name));
  const needed = new Set<string>();
  const queue = [target];
  while (queue.length) {
    const fn = functions.find((f) => f.name === queue[0]);
    queue.shift();
    if (!fn) continue;
    for (const name of mentionedNames(linesWithin(lines, fn.span.startOffset, fn.span.endOffset), names)) {
      if (name === target || needed.has(name) || providedElsewhere.has(name)) continue;
      needed.add(name);
      queue.push(name);
    }
  }
  // Top-level constants between functions come along; top-level code that runs script functions does not.
  const topLevel = structure.topLevelCode.filter(
    (block) => callSites(linesWithin(lines, block.span.startOffset, block.span.endOffset), names, {
      skipNestedDefinitions: false,
    }).length === 0,
  );
  return {
    functions: functions.filter((f) => needed.has(f.name)).sort((a, b) => a.span.startOffset - b.span.startOffset),
    topLevel,
  };
}

export function buildUnitHarness(input: UnitHarnessRequest): HarnessScript {
  const parsed = UnitHarnessRequest.safeParse(input);
  if (!parsed.success) throw badInputFromZod(parsed.error, 'unit harness request');
  const { structure, target, background, entryPoint, language, extraPreamble } = parsed.data;
  if (language !== structure.language) {
    throw new BadInputError(`harness language ${language} differs from the script's language ${structure.language}`);
  }
  const underTest = structure.elementFunctions.find((f) => f.name === target);
  if (!underTest) {
    const known = structure.elementFunctions.map((f) => f.name).join(', ') || 'none';
    throw new BadInputError(`no element function named \`${target}\` in the script (element functions: ${known})`);
  }

  const provided = new Set<string>();
  background.forEach((b, i) => {
    const names = allFunctions(parsePart(dedent(b.source), language, `background[${i}]`)).map((f) => f.name);
    if (names.length === 0) throw new BadInputError(`background[${i}] (${b.category}) defines no function`, undefined, `background.${i}.source`);
    if (names.includes(target)) {
      throw new BadInputError(`background[${i}] defines \`${target}\`, the function under test; background functions must have their own names`);
    }
    names.forEach((n) => provided.add(n));
  });
  const entry = parsePart(dedent(entryPoint), language, 'entryPoint');
  if (!entry.main) throw new BadInputError('entryPoint must define a function named `main`', undefined, 'entryPoint');
  allFunctions(entry).forEach((f) => provided.add(f.name));

  const deps = dependencies(structure, target, provided);
  const sections: string[] = [];
  if (structure.preamble.source.trim()) sections.push(structure.preamble.source);
  if (extraPreamble?.trim()) sections.push(dedent(extraPreamble));
  if (deps.topLevel.length) sections.push([BANNER.topLevel, ...deps.topLevel.map((b) => b.source)].join('\n'));
  if (background.length) {
    sections.push([BANNER.background, ...background.map((b) => `# ${b.category}\n${dedent(b.source)}\n`)].join('\n').trimEnd());
  }
  sections.push(`${BANNER.underTest}\n${underTest.source}`);
  if (deps.functions.length) sections.push([BANNER.dependencies, ...deps.functions.map((f) => `${f.source}\n`)].join('\n').trimEnd());
  const workflow = [BANNER.workflow, dedent(entryPoint)];
  if (!entry.entryPointCall) workflow.push('', entryCallSource(language));
  sections.push(workflow.join('\n'));

  return { fileName: unitHarnessFileName(target, language), source: `${sections.join('\n\n\n')}\n` };
}

/** The parts a unit harness is assembled from; a failure's innermost harness frame falls in one. */
export type HarnessPart = 'preamble' | 'topLevel' | 'background' | 'underTest' | 'dependencies' | 'workflow';

const PART_OF_BANNER: Record<string, HarnessPart> = {
  [BANNER.background]: 'background',
  [BANNER.underTest]: 'underTest',
  [BANNER.dependencies]: 'dependencies',
  [BANNER.topLevel]: 'topLevel',
  [BANNER.workflow]: 'workflow',
};

/**
 * The part each line of a harness built by buildUnitHarness belongs to (1-based lines; index 0
 * unused). The builder writes one banner per part, so the map is read back from them; the Julia
 * banners are the same comment lines.
 */
export function harnessParts(source: string): HarnessPart[] {
  const parts: HarnessPart[] = ['preamble'];
  let current: HarnessPart = 'preamble';
  for (const line of source.split('\n')) {
    current = PART_OF_BANNER[line.trim()] ?? current;
    parts.push(current);
  }
  return parts;
}
