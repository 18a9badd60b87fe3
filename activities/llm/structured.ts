// Parsing and validating a structured answer, and the feedback that goes with a re-ask.
import type { z } from 'zod';

export type AnswerCheck = { ok: true; value: unknown } | { ok: false; error: string };

/** Models in JSON mode sometimes wrap the object in a ``` fence; accept that, nothing looser. */
function unfence(text: string): string {
  const m = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return m ? m[1]! : text;
}

/** OpenAI strict mode sends optional fields as null; zod's .optional() wants them absent. */
function dropNullProperties(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNullProperties);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, dropNullProperties(x)]));
}

export function describeIssues(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`).join('; ');
}

export function checkAnswer(text: string, schema: z.ZodType, json?: unknown): AnswerCheck {
  let value = json;
  if (value === undefined) {
    try {
      value = JSON.parse(unfence(text));
    } catch (err) {
      return { ok: false, error: `the answer is not valid JSON (${(err as Error).message})` };
    }
  }
  const first = schema.safeParse(value);
  if (first.success) return { ok: true, value: first.data };
  const second = schema.safeParse(dropNullProperties(value));
  if (second.success) return { ok: true, value: second.data };
  return { ok: false, error: `the JSON does not match the schema: ${describeIssues(first.error)}` };
}

export function reaskFeedback(error: string): string {
  return `Your previous answer was rejected: ${error}. Answer again with only a JSON object that matches the required schema, no other text.`;
}
