// Prompts of the baselines (paper Sec. III.1). ReAct's Author writes the script straight from the task
// (no plan, no documentation queries); its repairer sees only the first runtime error of the last run
// — what a conventional agent loop gets — never unit or integration reports. ReAct-RAG's repairer may
// also search the documentation with the `retrieve` tool.
import type { ArtifactRef } from '../../schemas/artifact.js';
import type { LlmMessage } from '../../schemas/llm.js';
import type { RunDigest, TaskContext } from '../../schemas/pipeline.js';
import { FIGURE_FILE, RESULT_MARKER } from '../../schemas/script-markers.js';

const STRUCTURE = [
  `Write the script with one function per step (site_, lattice_, hamiltonian_, initialstate_, effector_, observable_, item_, plot_ prefixes), run_<name> functions that call them in order, and a main() that writes ${FIGURE_FILE} and prints key numbers as \`${RESULT_MARKER} <json>\` lines.`,
  'Python ends with `if __name__ == "__main__": main()`; Julia ends with `main()`. Keep the run to a few minutes on 2 CPU cores.',
].join('\n');

function taskText(ctx: TaskContext): string {
  return [`Task ${ctx.taskId} (${ctx.topic}): reproduce ${ctx.figure}.`, `User request: ${ctx.request}`, `Language: ${ctx.language}; toolchain: ${ctx.profile}.`].join('\n');
}

/** The baseline Author: one answer, the script (structure-check feedback when it was rejected). */
export function baselineScriptPrompt(ctx: TaskContext, feedback?: string): LlmMessage[] {
  const msgs: LlmMessage[] = [
    { role: 'system', content: `You are a computational physicist writing a simulation script. ${STRUCTURE}` },
    { role: 'user', content: ctx.sourceRef ? [{ text: 'The article (source):' }, { artifact: ctx.sourceRef, label: 'article' }] : 'No article source was published for this task; rely on the request.' },
    { role: 'user', content: `${taskText(ctx)}\nWrite the complete script.` },
  ];
  if (feedback) msgs.push({ role: 'user', content: `Your previous script was rejected by the structure check:\n${feedback}\nWrite it again in the required structure.` });
  return msgs;
}

/** The error a conventional loop feeds back: the exception that stopped the run, from the end of its traceback. */
export function firstRuntimeError(run: RunDigest, maxLines = 25): string {
  if (run.timedOut) return `The script was killed after ${Math.round(run.durationMs / 1000)} s (wall-clock limit) before it finished.`;
  const lines = run.stderrTail.trim().split('\n');
  let start = -1;
  lines.forEach((l, i) => {
    if (l.startsWith('Traceback (most recent call last)')) start = i;
  });
  const tail = (start >= 0 ? lines.slice(start) : lines).slice(-maxLines).join('\n');
  return tail || `The script exited with code ${run.exitCode} and printed no error.`;
}

export function reactRepairPrompt(script: ArtifactRef, error: string, rag: boolean): LlmMessage[] {
  return [
    {
      role: 'system',
      content: [
        'You are repairing a simulation script that failed at run time. Fix the error shown; return every function you change, rewritten whole (functions not listed stay as they are).',
        rag ? 'Use the retrieve tool to look up the library documentation before you change a library call.' : '',
        STRUCTURE,
      ].filter(Boolean).join('\n'),
    },
    { role: 'user', content: [{ text: 'The script:' }, { artifact: script, label: 'script' }] },
    { role: 'user', content: `Running it stopped with this error:\n${error}` },
  ];
}
