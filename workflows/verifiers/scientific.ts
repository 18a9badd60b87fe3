// The Scientific verifier (paper Sec. II): the rubric and the physical assertions over the script,
// and a repair localised to the suspects of the failing assertions — until both pass, or
// `scientificIterations` are spent.
import { patched } from '@temporalio/workflow';
import type { ReproductionProgress } from '../reproduction/progress.js';
import type { StageEnv } from '../shared/run-record.js';
import { rankSuspects } from '../../lib/verification/suspects.js';
import { repair } from '../agents/repairer.js';
import { scientificPass, scientificVerdict } from './scientific-pass.js';
import { scientificRepairPrompt } from './scientific-prompts.js';

/** Whether the script passed, and at which iteration (also kept in `record.scientificPassedAt`). */
export async function scientificVerifier(env: StageEnv, progress: ReproductionProgress): Promise<boolean> {
  const { agents, ctx, limits, runAll, record } = env;
  for (let it = 1; it <= limits.scientificIterations; it++) {
    env.enter('scientific', it);
    const pass = await scientificPass(agents, ctx, record.script, 'scientific', it, limits.rubricRepeats, runAll);
    const { rubric, assertions } = pass;
    record.scientificRounds.push({ iteration: it, rubric, assertions });
    progress.rubric = { gradeMean: rubric.gradeMean, failed: rubric.failed.length, available: rubric.available };
    progress.assertions = assertions.map((a) => ({ case: a.case, judge: a.judge }));
    if (scientificVerdict(pass).passed) {
      record.scientificPassedAt = it;
      return true;
    }
    if (it === limits.scientificIterations) break;
    // The repairer sees each failing variant and the ranked suspects, and is held to them (the diff is checked).
    const suspects = rankSuspects(pass.localisation).map((s) => s.function);
    // What failed is only the writer's variants (no case the script got wrong) and no rubric issue: a
    // repair would be asked for nothing. The next iteration checks the same script with freshly
    // written variants instead. A case the script got wrong is repaired even when nothing localises it.
    const onlyVariantFaults = assertions.every((a) => a.judge === 'correct' || a.variantFault);
    if (onlyVariantFaults && scientificVerdict(pass).rubricOk && patched('no-empty-scientific-repair')) continue;
    const prompt = scientificRepairPrompt(record.script.scriptRef, rubric, assertions, pass.localisation);
    const step = await repair(agents, { role: 'repairer', stage: 'scientific', iteration: it, script: record.script, prompt, suspects });
    if ('applied' in step) {
      record.repairs.push(step.applied);
      record.script = step.applied.outcome.summary;
    }
  }
  return false;
}
