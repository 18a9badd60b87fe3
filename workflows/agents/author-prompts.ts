// Prompts of the Author agent (paper Sec. II): plan, documentation queries, script. Pure string
// building (deterministic); large inputs (the paper) are artifact references resolved by the LLM activity.
import type { LlmMessage } from '../../schemas/llm.js';
import type { TaskContext } from '../../schemas/pipeline.js';
import { STRUCTURE_RULES } from './script-structure.js';
import { RUNTIME_RULES } from './runtime-rules.js';

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
    { role: 'system', content: `You are the Author agent. ${STRUCTURE_RULES}${ctx.language === 'python' ? `\n${RUNTIME_RULES}` : ''}` },
    { role: 'user', content: source(ctx) },
    { role: 'user', content: `${taskText(ctx)}\nPlan:\n${plan}\nDocumentation summary:\n${summaryJson}\nWrite the complete script.` },
  ];
  if (feedback) msgs.push({ role: 'user', content: `Your previous script was rejected by the structure check:\n${feedback}\nWrite it again in the required structure.` });
  return msgs;
}
