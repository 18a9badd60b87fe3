// Structured answers of the PhysVEC agents (registered by name in schemas/llm-outputs.ts).
// Field descriptions reach the model through the JSON schema.
import { z } from 'zod';

const FunctionSource = z.object({
  name: z.string().describe('the function name exactly as in the script'),
  source: z.string().describe('the complete new definition of that function, and nothing else'),
});

export const agentOutputSchemas = {
  'author-plan': z.object({
    plan: z.string().describe('free-form plan: system, Hamiltonian, parameters (scaled if needed), method, observables, figure'),
    queries: z.array(z.string()).describe('questions to ask the library documentation before writing code'),
  }),
  'query-summary': z.object({
    summary: z.array(z.object({ query: z.string(), answer: z.string() })).describe('what the documentation said, per query'),
  }),
  script: z.object({
    script: z.string().describe('the complete script in the element-function structure'),
    notes: z.string().describe('one paragraph: what the script computes and which parameters were scaled'),
  }),
  'unit-entries': z.object({
    entries: z
      .array(z.object({ function: z.string(), main: z.string().describe('a complete `main` definition that builds inputs with the background functions, calls the function under test and prints its result') }))
      .describe('one entry point per element function under test'),
  }),
  repair: z.object({
    suggestions: z.array(z.string()).describe('the repair suggestion list: one item per problem found, with its location'),
    functions: z.array(FunctionSource).describe('every function that must change, rewritten whole; functions not listed stay byte-identical'),
  }),
  'rubric-judges': z.object({
    judges: z
      .array(z.object({ index: z.number().int().describe('1-based issue index'), judge: z.union([z.literal(0), z.literal(1)]), support: z.string().describe('the code evidence') }))
      .describe('one judgement per rubric issue'),
  }),
  'variant-mains': z.object({
    variants: z
      .array(z.object({ case: z.string().describe('the case id as given, e.g. limiting:0'), main: z.string().describe('a complete replacement `main` definition only') }))
      .describe('one replacement main per case'),
  }),
  'qualitative-verdicts': z.object({
    verdicts: z.array(z.object({ case: z.string(), judge: z.enum(['correct', 'wrong', 'undetermined']), reason: z.string() })),
  }),
  'convergence-variant': z.object({
    // The instructions (convergence-prompts.ts) say what the main and the monitor are: the schema does
    // not repeat them, since it is billed with every call (a rewrite's included).
    main: z.string().describe('the replacement `main`'),
    schedule: z.object({
      start: z.number().describe('first value of the knob'),
      factor: z.number().optional().describe('multiply each step (or: step)'),
      step: z.number().optional().describe('add each step'),
      max: z.number().describe('the largest value to try'),
    }),
    monitor: z.string().optional().describe("the name in the script's own matching `PHYSVEC_RESULT` line"),
  }),
} satisfies Record<string, z.ZodType>;
