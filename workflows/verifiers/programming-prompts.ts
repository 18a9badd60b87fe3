// Prompts of the Programming verifier: unit-test entry points, their refine, and the repair of what
// the unit and integration tests found. Large inputs (script, report) are artifact references.
import { tracebackForWriter } from '../../lib/harness/traceback.js';
import type { LlmMessage } from '../../schemas/llm.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { TaskContext, ProgrammingReport } from '../../schemas/pipeline.js';
import { STRUCTURE_RULES } from '../agents/script-structure.js';

/** What every unit harness contains besides the entry point: the writer may call these names and no other. */
function harnessContents(ctx: TaskContext): string {
  const bg = ctx.backgroundNames.length ? `the background functions ${ctx.backgroundNames.join(', ')}` : 'no background function';
  return `Each harness contains exactly: the script's imports and top-level constants, ${bg}, the function under test, and the script's functions that the function under test itself calls. It contains no other element function, no run_ function and no main of the script: your entry point may call only the names listed here and the libraries the script imports.`;
}

function unitSystem(ctx: TaskContext): LlmMessage {
  return { role: 'system', content: `You are the Programming verifier. For each element function under test, write an entry point \`main\` that builds its inputs with the background functions (or minimal direct code), calls the function under test alone with small parameters, and prints its result. Do not call other element functions of the script. ${harnessContents(ctx)}` };
}

export function unitEntriesPrompt(ctx: TaskContext, script: ArtifactRef, functions: string[]): LlmMessage[] {
  const bg: LlmMessage['content'] = ctx.backgroundRef
    ? [{ text: `Background functions from the verifier library (${ctx.backgroundNames.join(', ')}):` }, { artifact: ctx.backgroundRef, label: 'verifier library' }]
    : 'No verifier library is available for this profile: build inputs directly.';
  return [
    unitSystem(ctx),
    { role: 'user', content: bg },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
    { role: 'user', content: `Element functions under test: ${functions.join(', ')}` },
  ];
}

/**
 * The test writer's own repair (paper: "undetermined" tests get a split-refine pass): the tests that
 * failed inside the harness go back to it with their errors, and it rewrites just those entry points.
 * The verifier library's code is sent again only when a failure is inside a background function;
 * otherwise its names are enough to write a call (a refine costs a fraction of the first writing).
 */
export function unitRefinePrompt(ctx: TaskContext, script: ArtifactRef, failures: { function: string; main: string; errors: string; harnessRef?: ArtifactRef }[]): LlmMessage[] {
  const inLibrary = failures.some((f) => /the background function /.test(f.errors));
  const bg: LlmMessage[] = inLibrary
    ? unitEntriesPrompt(ctx, script, []).slice(1, 2)
    : [{ role: 'user', content: ctx.backgroundNames.length ? `Background functions in the harness (the verifier library): ${ctx.backgroundNames.join(', ')}` : 'No verifier library is available for this profile: build inputs directly.' }];
  return [
    { role: 'system', content: `You are the Programming verifier, rewriting unit-test entry points (\`main\`) that failed in their own code. Each must call its function under test alone with small inputs and print the result. ${harnessContents(ctx)}` },
    ...bg,
    // Each harness (the library's code left out) holds what its entry point may use; recorded verdicts without one get the script.
    ...(failures.every((f) => f.harnessRef) ? [] : [{ role: 'user' as const, content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] }]),
    {
      role: 'user',
      content: [
        { text: 'These entry points failed inside the test harness (in the entry point or a background function, not in the function under test), so they tested nothing. Rewrite each of them so it runs and calls its function under test:' },
        ...failures.flatMap((f) => [
          { text: `--- ${f.function}\nyour entry point:\n${f.main}\nits error:\n${tracebackForWriter(f.errors)}${f.harnessRef ? '\nthe harness it ran in (the verifier library\'s code left out):' : ''}` },
          ...(f.harnessRef ? [{ artifact: f.harnessRef, label: `harness of ${f.function}` }] : []),
        ]),
      ],
    },
  ];
}

export function programmingRepairPrompt(script: ArtifactRef, report: ProgrammingReport): LlmMessage[] {
  return [
    { role: 'system', content: `You are the Programming verifier. Fix every problem found by the unit and integration tests at once. Rewrite only the functions that must change, each whole. A unit test judged "undetermined" failed inside its test harness, not in the script: change nothing for it. ${STRUCTURE_RULES}` },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
    { role: 'user', content: [{ text: 'Unit and integration test report:' }, { artifact: report.reportRef, label: 'report' }] },
  ];
}
