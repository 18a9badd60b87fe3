// The term rewrites of a substitution (data/toolchains.json → substitutes[].rubricRewrites), applied in
// order to rubric leaves and to leftover mentions of the original package in the Author's request.
import type { TextRewrite } from '../../schemas/toolchain.js';

export function rewriteText(text: string, rewrites: readonly TextRewrite[]): string {
  let out = text;
  for (const r of rewrites) out = out.replace(new RegExp(r.pattern, 'g'), r.replacement);
  return out;
}
