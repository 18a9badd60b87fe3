// PhysVEC-1-shot (paper Sec. III.1): the raw output of PhysVEC's Author agent (plan, documentation
// queries through `retrieve`, script), without any verification-and-correction iteration. Its one
// scoring pass gives the "before" markers of Fig. 5b/c.
import type { BaselineInput } from '../../schemas/campaign.js';
import { physvecAuthor } from '../agents/author.js';
import { runBaseline } from './run.js';
import type { BaselineResult } from './types.js';

export async function oneShotBaseline(input: BaselineInput): Promise<BaselineResult> {
  return runBaseline('1-shot', input, async ({ agents, ctx, limits, enter }, state) => {
    enter('author');
    const script = await physvecAuthor(agents, ctx, limits.authorStructureRetries);
    state.current = script;
    state.authorScriptRef = script.scriptRef;
  });
}
