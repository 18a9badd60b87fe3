// ReAct and ReAct-RAG (paper Sec. III.1): the Author writes the script; then, at most `programmingIterations`
// (8) times, run the whole script in the sandbox — if it runs, done; otherwise feed back ONLY the first
// runtime error and let the model repair it. ReAct-RAG offers the `retrieve` tool in every repair
// (its tool calls are the T_c of Fig. 6b). Scoring afterwards is the same for every baseline (run.ts).
import { ActivityFailure } from '@temporalio/workflow';
import type { BaselineInput } from '../../schemas/campaign.js';
import type { ToolSpec } from '../../schemas/llm.js';
import { answerOf } from '../lib/answer.js';
import { writeStructuredScript } from '../lib/author.js';
import { light } from '../reproduction/activities.js';
import { baselineScriptPrompt, firstRuntimeError, reactRepairPrompt } from './prompts.js';
import { runBaseline, type BaselineResult } from './run.js';

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
      const fix = await agents.ask('react-repairer', stage, it, reactRepairPrompt(current.scriptRef, error!, rag), { outputSchema: 'repair', tools });
      let outcome;
      try {
        outcome = await light.applyRepair({ summary: current, answer: answerOf(fix) });
      } catch (err) {
        // A repair that cannot be applied (e.g. it rewrites a function into something else) wastes
        // the iteration, as a broken edit would in any agent loop; the script stays as it was.
        if (!(err instanceof ActivityFailure)) throw err;
        state.attempts[state.attempts.length - 1]!.repairError = (err.cause?.message ?? err.message).slice(0, 500);
        continue;
      }
      state.repairs.push({ stage, iteration: it, outcome, suggestions: (fix.parsed as { suggestions?: string[] } | undefined)?.suggestions ?? [] });
      current = outcome.summary;
      state.current = current;
      state.lastRun = undefined;
    }
  });
}
