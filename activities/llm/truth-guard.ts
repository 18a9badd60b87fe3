// The leak guard on every prompt to a role that writes scripts (author, coder, repairer, assertion
// writer, convergence writer; SCRIPT_WRITING_ROLES): before the prompt is sent, each of its parts is
// checked against every truth of the task. What is checked: our own text (templates, the task's
// statements, digests, plans) and what the script printed. What is not: the script itself (label
// `script`) — a model wrote it, so a truth value in it is the model's physics, not our leak.
// Decision (README "Truth-leak guard"): a truth's claim sentence in a prompt can only come from our
// code, so it is a hard error (a physvec bug: the call fails, non-retryable, naming role, case and
// part). A value (number, rounded form, formula) is redacted to [withheld] and the redaction logged:
// it may be a coincidence of what a script printed (a failing variant printing another case's value),
// which must not end a run, and the model still never reads it. Task material was checked at prepare.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import { findTruthLeaks, type TruthLeak } from '../../lib/tasks/truth-leak.js';
import type { ContentPart, LlmMessage, TruthGuard } from '../../schemas/llm.js';

/** Parts never checked: text a model wrote (the script and what replaces its functions). */
const MODEL_WRITTEN_LABELS = new Set(['script']);

export const WITHHELD = '[withheld]';

export class TruthLeakBug extends Error {
  override name = 'TruthLeakBug';
}

export interface GuardedPrompt {
  messages: LlmMessage[];
  redacted: TruthLeak[];
}

function redact(text: string, leaks: TruthLeak[]): string {
  let out = text;
  for (const l of leaks) if (l.match) for (const form of [l.match, l.match.replace(/-/g, '\u2212')]) out = out.split(form).join(WITHHELD);
  return out;
}

/** The prompt with every truth value withheld; throws TruthLeakBug when a claim sentence is found. */
export async function guardPrompt(messages: LlmMessage[], store: ArtifactStore, guard: TruthGuard, who: string): Promise<GuardedPrompt> {
  const article = guard.articleRef ? await store.getText(guard.articleRef) : undefined;
  const redacted: TruthLeak[] = [];
  const check = (text: string, where: string): string => {
    const leaks = findTruthLeaks([{ file: where, text }], guard.cases, article, guard.request, guard.allowed);
    const sentence = leaks.find((l) => l.kind === 'sentence');
    if (sentence) throw new TruthLeakBug(`truth leak in the prompt to ${who} (a physvec bug, not the model's): ${where} carries the claim of ${sentence.case} ("${sentence.found}")`);
    if (leaks.length === 0) return text;
    redacted.push(...leaks);
    const clean = redact(text, leaks);
    // A form we could not cut out (a LaTeX formula rewritten before it was evaluated) fails the call instead.
    const left = findTruthLeaks([{ file: where, text: clean }], guard.cases, article, guard.request, guard.allowed);
    if (left.length) throw new TruthLeakBug(`truth leak in the prompt to ${who}: ${where} carries ${left[0]!.case}'s value (${left[0]!.found}) in a form that could not be withheld`);
    return clean;
  };
  const out: LlmMessage[] = [];
  for (const [i, m] of messages.entries()) {
    if (typeof m.content === 'string') {
      out.push({ role: m.role, content: check(m.content, `message ${i + 1}`) });
      continue;
    }
    const parts: ContentPart[] = [];
    for (const [k, p] of m.content.entries()) {
      const where = `message ${i + 1} part ${k + 1}`;
      if ('text' in p) parts.push({ text: check(p.text, where) });
      else if (p.label && MODEL_WRITTEN_LABELS.has(p.label)) parts.push(p);
      else {
        const body = await store.getText(p.artifact);
        const checked = check(body, `${where} (${p.label ?? 'artifact'})`);
        parts.push(checked === body ? p : { text: p.label ? `${p.label}\n${checked}` : checked });
      }
    }
    out.push({ role: m.role, content: parts });
  }
  return { messages: out, redacted };
}
