// zod → the JSON schema each provider accepts for structured answers.
import { z } from 'zod';

type Json = Record<string, unknown>;

/** Plain JSON schema of the answer (output side), without the $schema tag providers reject. */
export function answerJsonSchema(schema: z.ZodType): Json {
  const js = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Json;
  delete js.$schema;
  return dropSafeIntegerBounds(js) as Json;
}

// zod writes ±(2^53-1) bounds on every .int(); they are noise to a model and some providers reject them.
function dropSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropSafeIntegerBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if ((k === 'minimum' || k === 'maximum') && Math.abs(v as number) === Number.MAX_SAFE_INTEGER) continue;
    out[k] = dropSafeIntegerBounds(v);
  }
  return out;
}

const STRICT_UNSUPPORTED = new Set(['propertyNames', 'patternProperties', 'allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties', 'minProperties', 'maxProperties']);

/**
 * OpenAI's strict json_schema: every object closed (additionalProperties false) and every property
 * required, optional ones made nullable (validateAnswer drops the nulls again). Schemas strict mode
 * cannot express (records, allOf…) are sent non-strict: the answer is still validated by zod.
 */
export function openAiJsonSchema(schema: z.ZodType): { schema: Json; strict: boolean } {
  const base = answerJsonSchema(schema);
  let strict = true;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const n = { ...(node as Json) };
    for (const k of Object.keys(n)) if (STRICT_UNSUPPORTED.has(k)) strict = false;
    const isObject = n.type === 'object' || (Array.isArray(n.type) && n.type.includes('object'));
    if (isObject) {
      const props = n.properties as Json | undefined;
      if (!props || (n.additionalProperties !== undefined && n.additionalProperties !== false)) strict = false;
      if (props) {
        const required = new Set((n.required as string[] | undefined) ?? []);
        const closed: Json = {};
        for (const [name, sub] of Object.entries(props)) closed[name] = required.has(name) ? visit(sub) : nullable(visit(sub) as Json);
        n.properties = closed;
        n.required = Object.keys(props);
        n.additionalProperties = false;
      }
    }
    for (const k of ['items', 'anyOf', 'oneOf', 'prefixItems', '$defs', 'definitions']) {
      if (n[k] === undefined) continue;
      n[k] = k === '$defs' || k === 'definitions' ? Object.fromEntries(Object.entries(n[k] as Json).map(([a, b]) => [a, visit(b)])) : visit(n[k]);
    }
    return n;
  };
  const converted = visit(base) as Json;
  return strict ? { schema: converted, strict } : { schema: base, strict };
}

function nullable(s: Json): Json {
  if (typeof s.type === 'string') return { ...s, type: [s.type, 'null'], ...(Array.isArray(s.enum) ? { enum: [...(s.enum as unknown[]), null] } : {}) };
  if (Array.isArray(s.type)) return s.type.includes('null') ? s : { ...s, type: [...(s.type as unknown[]), 'null'] };
  return { anyOf: [s, { type: 'null' }] };
}
