// ReAct and ReAct-RAG (paper Sec. III.1): the Author writes the script; then, at most `programmingIterations`
// (8) times, run the whole script in the sandbox — if it runs, done; otherwise feed back ONLY the first
// runtime error and let the model repair it. ReAct-RAG offers the `retrieve` tool in every repair
// (its tool calls are the T_c of Fig. 6b). Scoring afterwards is the same for every baseline (run.ts).
import type { BaselineInput } from '../../schemas/campaign.js';
import type { ToolSpec } from '../../schemas/llm.js';
import { writeStructuredScript } from '../agents/author.js';
import { repair } from '../agents/repairer.js';
import { light } from '../shared/activities.js';
import { baselineScriptPrompt, firstRuntimeError, reactRepairPrompt } from './prompts.js';
import { runBaseline } from './run.js';
import type { BaselineResult } from './types.js';

export async function reactBaseline(input: BaselineInput): Promise<BaselineResult> {
  const rag = input.rag ?? false;
  // The loop's stage is the framework's name, so ReAct and ReAct-RAG calls never share a cassette key.
  const stage = rag ? 'react-rag' : 'react';
  return runBaseline(stage, input, async ({ agents, ctx, limits, runAll, enter }, state) => {
    state.executableAt = null; // a loop: iterations count from here, even if the budget ends it early
    enter('author');
    let current = await writeStructuredScript(agents, ctx, limits.authorStructureRetries, (feedback) => baselineScriptPrompt(ctx, feedback));
    state.current = current;
    state.authorScriptRef = current.scriptRef;
    const tools: ToolSpec[] | undefined = rag ? [await light.retrieveToolSpec()] : undefined;

    for (let it = 1; it <= limits.programmingIterations; it++) {
      enter(stage, it);
      const [run] = await runAll([await light.fullScriptJob({ summary: current })]);
      state.lastRun = run!;
      const ok = run!.exitCode === 0 && !run!.timedOut;
      const error = ok ? undefined : firstRuntimeError(run!);
      state.attempts.push({ iteration: it, exitCode: run!.exitCode, timedOut: run!.timedOut, error });
      if (ok) {
        state.executableAt = it;
        return;
      }
      // The last iteration's run failed: a repair now would never be run, so there is none.
      if (it === limits.programmingIterations) return;
      const prompt = reactRepairPrompt(current.scriptRef, error!, rag);
      const step = await repair(agents, { role: 'react-repairer', stage, iteration: it, script: current, prompt, tools }, { keepScriptWhenUnappliable: true });
      if ('unapplied' in step) {
        state.attempts[state.attempts.length - 1]!.repairError = step.unapplied;
        continue;
      }
      state.repairs.push(step.applied);
      current = step.applied.outcome.summary;
      state.current = current;
      state.lastRun = undefined;
    }
  });
}
