// Prompts of the PhysVEC agents. Pure string building (deterministic); large inputs (the paper, the
// script, reports) are artifact references resolved by the LLM activity.
import type { LlmMessage } from '../../schemas/llm.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { TaskContext, ProgrammingReport, AssertionVerdict, RubricOutcome } from '../../schemas/pipeline.js';
import { rankSuspects, type CaseLocalisation } from '../../lib/verification/suspects.js';

const STRUCTURE_RULES = [
  'Write the script in the element-function structure:',
  '- element functions named by prefix: site_, lattice_, hamiltonian_, initialstate_, effector_, observable_, item_, plot_; each does one thing and takes everything it needs as parameters;',
  '- run_<name> functions call element functions in order and return the data;',
  '- main() sets the parameters, calls run_/item_ functions, writes figure.png and prints key numbers as `PHYSVEC_RESULT <json>` lines;',
  '- Python ends with `if __name__ == "__main__": main()`; Julia ends with `main()`.',
  'Scale the system down so the whole script runs in a few minutes on 2 CPU cores; say which parameters you scaled.',
].join('\n');

function taskText(ctx: TaskContext): string {
  return [
    `Task ${ctx.taskId} (${ctx.topic}): reproduce ${ctx.figure}.`,
    `User request: ${ctx.request}`,
    `Language: ${ctx.language}; toolchain profile: ${ctx.profile}.`,
  ].join('\n');
}

function source(ctx: TaskContext): LlmMessage['content'] {
  // dft_qc tasks: the source is (or ends with) the article's calculation protocol and its translation table.
  const intro = ctx.sourceKind === 'protocol' ? "The article's calculation protocol (no TeX source was published):" : ctx.protocol?.found ? "The article (source), then its calculation protocol:" : 'The article (source):';
  return ctx.sourceRef ? [{ text: intro }, { artifact: ctx.sourceRef, label: 'article' }] : 'No article source was published for this task; rely on the request.';
}

export function planPrompt(ctx: TaskContext): LlmMessage[] {
  return [
    { role: 'system', content: 'You are the Author agent of PhysVEC, a computational physicist who reproduces figures of quantum many-body papers.' },
    { role: 'user', content: source(ctx) },
    { role: 'user', content: `${taskText(ctx)}\nWrite a free-form plan (system, Hamiltonian, parameters, method, observables, figure) and the documentation queries you need.` },
  ];
}

export function querySummaryPrompt(ctx: TaskContext, plan: string, queries: string[]): LlmMessage[] {
  return [
    { role: 'system', content: `You are the Author agent. Use the retrieve tool to look up the ${ctx.profile} documentation, then summarise what you learned per query.` },
    { role: 'user', content: `${taskText(ctx)}\nPlan:\n${plan}\nQueries:\n${queries.map((q) => `- ${q}`).join('\n')}` },
  ];
}

export function scriptPrompt(ctx: TaskContext, plan: string, summaryJson: string, feedback?: string): LlmMessage[] {
  const msgs: LlmMessage[] = [
    { role: 'system', content: `You are the Author agent. ${STRUCTURE_RULES}` },
    { role: 'user', content: source(ctx) },
    { role: 'user', content: `${taskText(ctx)}\nPlan:\n${plan}\nDocumentation summary:\n${summaryJson}\nWrite the complete script.` },
  ];
  if (feedback) msgs.push({ role: 'user', content: `Your previous script was rejected by the structure check:\n${feedback}\nWrite it again in the required structure.` });
  return msgs;
}

/** What every unit harness contains besides the entry point: the writer may call these names and no other. */
function harnessContents(ctx: TaskContext): string {
  const bg = ctx.backgroundNames.length ? `the background functions ${ctx.backgroundNames.join(', ')}` : 'no background function';
  return `Each harness contains exactly: the script's imports and top-level constants, ${bg}, the function under test, and the script's functions that the function under test itself calls. It contains no other element function, no run_ function and no main of the script: your entry point may call only the names listed here and the libraries the script imports.`;
}

export function unitEntriesPrompt(ctx: TaskContext, script: ArtifactRef, functions: string[]): LlmMessage[] {
  const bg: LlmMessage['content'] = ctx.backgroundRef
    ? [{ text: `Background functions from the verifier library (${ctx.backgroundNames.join(', ')}):` }, { artifact: ctx.backgroundRef, label: 'verifier library' }]
    : 'No verifier library is available for this profile: build inputs directly.';
  return [
    { role: 'system', content: `You are the Programming verifier. For each element function under test, write an entry point \`main\` that builds its inputs with the background functions (or minimal direct code), calls the function under test alone with small parameters, and prints its result. Do not call other element functions of the script. ${harnessContents(ctx)}` },
    { role: 'user', content: bg },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
    { role: 'user', content: `Element functions under test: ${functions.join(', ')}` },
  ];
}

/**
 * The test writer's own repair (paper: "undetermined" tests get a split-refine pass): the tests that
 * failed inside the harness go back to it with their errors, and it rewrites just those entry points.
 */
export function unitRefinePrompt(ctx: TaskContext, script: ArtifactRef, failures: { function: string; main: string; errors: string }[]): LlmMessage[] {
  return [
    ...unitEntriesPrompt(ctx, script, failures.map((f) => f.function)),
    {
      role: 'user',
      content: [
        'These entry points failed inside the test harness (in the entry point or a background function, not in the function under test), so they tested nothing. Rewrite each of them so it runs and calls its function under test:',
        ...failures.map((f) => `--- ${f.function}\nyour entry point:\n${f.main}\nits error:\n${f.errors}`),
      ].join('\n\n'),
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

export function rubricPrompt(script: ArtifactRef, leaves: ArtifactRef): LlmMessage[] {
  return [
    { role: 'system', content: 'You are the Scientific verifier grading a script against a rubric. For every issue decide judge=1 if the code satisfies it, else 0, and give the code evidence as support.' },
    { role: 'user', content: [{ text: 'Rubric issues (1-based index, issue):' }, { artifact: leaves, label: 'rubric' }] },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
  ];
}

export function rubricConsistencyPrompt(leaves: ArtifactRef, judgesJson: string): LlmMessage[] {
  return [
    { role: 'system', content: 'Check that each judge agrees with its own support; correct the judge where the support contradicts it. Return every issue.' },
    { role: 'user', content: [{ text: 'Rubric issues:' }, { artifact: leaves, label: 'rubric' }, { text: `Judgements:\n${judgesJson}` }] },
  ];
}

/** The script writer sees each case's content only — never its truth. */
export function variantsPrompt(script: ArtifactRef, cases: { id: string; content: string }[], language: string): LlmMessage[] {
  return [
    { role: 'system', content: `You are the Scientific verifier. For each case write a replacement \`main\` (${language}) ONLY: it sets the case's parameters, calls the script's existing element and run functions unchanged, and prints the asked quantity as \`PHYSVEC_RESULT <json>\`.` },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
    { role: 'user', content: cases.map((c) => `${c.id}: ${c.content}`).join('\n') },
  ];
}

export function qualitativePrompt(items: { case: string; content: string; truth: string; output: string }[]): LlmMessage[] {
  return [
    { role: 'system', content: 'Judge whether each output satisfies its expected qualitative property. Answer correct, wrong or undetermined with a reason citing the numbers.' },
    { role: 'user', content: items.map((i) => `${i.case}\nasked: ${i.content}\nexpected: ${i.truth}\noutput:\n${i.output}`).join('\n\n') },
  ];
}

/**
 * The truths stay hidden from the agent that edits the script: per failing case it sees the case's
 * statement, the variant's main and what it printed, and the suspects — the element functions the
 * failing variants call, ranked below those that passing variants also call. It may change suspects only.
 */
export function scientificRepairPrompt(script: ArtifactRef, rubric: RubricOutcome, assertions: AssertionVerdict[], localisation: CaseLocalisation[] = []): LlmMessage[] {
  const failedLeaves = rubric.failed.map((f) => `- rubric issue ${f.index}: ${f.issue} (grader's evidence: ${f.support})`);
  const failedCases = assertions.filter((a) => a.judge !== 'correct').map((a) => {
    const loc = localisation.find((l) => l.case === a.case);
    const lines = [`- ${a.case} failed (${a.judge}): ${a.content}`];
    if (a.observed !== undefined) lines.push(`  printed value: ${JSON.stringify(a.observed)}`);
    if (loc) lines.push(`  the variant's main:\n${indent(loc.main)}`, `  its output (last lines):\n${indent(loc.output || '(nothing printed)')}`);
    return lines.join('\n');
  });
  const suspects = rankSuspects(localisation);
  const passedCount = localisation.filter((l) => l.passed).length;
  const suspectText = suspects.length
    ? [
        `Suspects, most suspicious first (element functions the failing variants call; "cleared by" counts the ${passedCount} passing variants that also call it):`,
        ...suspects.map((s, i) => `${i + 1}. ${s.function} — called by ${s.failing} failing, cleared by ${s.passing} passing`),
        'Change only suspects (and the run_/main code that calls them); leave every other element function as it is.',
      ].join('\n')
    : '';
  return [
    { role: 'system', content: `You are the Scientific verifier. Fix every physics problem found, at once. Rewrite only the functions that must change, each whole. ${STRUCTURE_RULES}` },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
    { role: 'user', content: ['Failed rubric issues:', ...failedLeaves, 'Failed physical assertions:', ...failedCases, suspectText].filter((x) => x !== '').join('\n') },
  ];
}

function indent(text: string): string {
  return text.replace(/\s+$/, '').split('\n').map((l) => `    ${l}`).join('\n');
}

export function convergencePrompt(script: ArtifactRef, c: { id: string; content: string; parameter: string; criteria: string }): LlmMessage[] {
  return [
    { role: 'system', content: 'You are the Scientific verifier running a convergence test. Write a replacement `main` that reads the knob from the environment variable PHYSVEC_PARAM, runs the calculation and prints the monitored value as `PHYSVEC_RESULT <number>`; propose the schedule of knob values, and name (`monitor`) the `PHYSVEC_RESULT` line of the script\'s own main that prints the same quantity at the script\'s own setting, so the two can be compared.' },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
    { role: 'user', content: `${c.id}\nmonitor: ${c.content}\nknob: ${c.parameter}\ncriterion: ${c.criteria}` },
  ];
}
