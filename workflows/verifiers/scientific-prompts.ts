// Prompts of the Scientific verifier: rubric grading and its consistency pass, the physical-assertion
// variants, the qualitative judge, and the repair. Truths never reach an agent that edits the script.
import { variantFaultForWriter } from '../../lib/harness/variant-verdict.js';
import type { LlmMessage } from '../../schemas/llm.js';
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { AssertionVerdict, RubricOutcome } from '../../schemas/pipeline.js';
import { rankSuspects, type CaseLocalisation } from '../../lib/verification/suspects.js';
import { STRUCTURE_RULES } from '../agents/script-structure.js';
import { RESULT_MARKER } from '../../schemas/script-markers.js';

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
    { role: 'system', content: `You are the Scientific verifier. For each case write a replacement \`main\` (${language}) ONLY: it sets the case's parameters, calls the script's existing element and run functions unchanged, and prints the asked quantity as \`${RESULT_MARKER} <json>\`.` },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
    { role: 'user', content: cases.map((c) => `${c.id}: ${c.content}`).join('\n') },
  ];
}

/**
 * The variants whose own main failed (or printed nothing usable, or could not be built) go back to
 * their writer with the error; the truths stay hidden as in the first prompt.
 */
export function variantsRefinePrompt(script: ArtifactRef, failures: { case: string; content: string; main: string; errors: string }[], language: string): LlmMessage[] {
  // `script`: the script's interface where there is one (bodies omitted): the failed main already shows how it calls them.
  return [
    ...variantsPrompt(script, failures.map((f) => ({ id: f.case, content: f.content })), language),
    {
      role: 'user',
      content: [
        'These replacement mains failed in their own code (not in the script\'s functions), so they checked nothing. Rewrite each of them so it runs, calls the script\'s functions unchanged and prints the asked quantity:',
        ...failures.map((f) => `--- ${f.case}\nyour main:\n${f.main}\nits error, at ${variantFaultForWriter(f.errors)}`),
      ].join('\n\n'),
    },
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
  // A variant that failed in its own code says nothing about the script: the repairer never hears of it.
  const failedCases = assertions.filter((a) => a.judge !== 'correct' && !a.variantFault).map((a) => {
    const loc = localisation.find((l) => l.case === a.case);
    const lines = [`- ${a.case} failed (${a.judge}): ${a.content}`];
    if (a.observed !== undefined) lines.push(`  printed value: ${JSON.stringify(a.observed)}`);
    if (loc) lines.push(`  the variant's main:\n${indent(loc.main)}`, `  its output (last lines):\n${indent(loc.output || '(nothing printed)')}`);
    return lines.join('\n');
  });
  const suspects = rankSuspects(localisation);
  const passedCount = localisation.filter((l) => l.passed).length;
  const recorded = suspects.some((s) => s.evidence !== 'unrecorded');
  const top = suspects[0];
  const suspectText = suspects.length
    ? [
        recorded
          ? `Suspects, most suspicious first, ranked by the values each function returned in the failing and in the passing variants (recorded while they ran); "cleared by" counts the ${passedCount} passing variants that also call it:`
          : `Suspects, most suspicious first (element functions the failing variants call; "cleared by" counts the ${passedCount} passing variants that also call it):`,
        ...suspects.map((s, i) => `${i + 1}. ${s.function} — called by ${s.failing} failing, cleared by ${s.passing} passing${s.evidence === 'unrecorded' ? '' : `; ${s.why}`}`),
        ...(top && top.evidence === 'introduced' ? [`Top suspect: ${top.function} (${top.why}).`] : []),
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
