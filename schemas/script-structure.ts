// The shape of a generated script as the Programming and Scientific verifiers see it: element
// functions (site_, hamiltonian_, …), run_ functions that call them in order, and main.
// Everything here is plain JSON so it can travel in Temporal payloads or be stored as an artifact.
import { z } from 'zod';

export const ScriptLanguage = z.enum(['python', 'julia']);
export type ScriptLanguage = z.infer<typeof ScriptLanguage>;

/** The file extension of a script in each language (no dot), for every file the pipeline names. */
export const SCRIPT_EXTENSION = { python: 'py', julia: 'jl' } as const satisfies Record<ScriptLanguage, string>;
export type ScriptExtension = (typeof SCRIPT_EXTENSION)[ScriptLanguage];

export function scriptExtension(language: ScriptLanguage): ScriptExtension {
  return SCRIPT_EXTENSION[language];
}

/** The prefixes the Author agent must use; the category is the prefix without its underscore. */
export const ElementCategory = z.enum([
  'site',
  'lattice',
  'hamiltonian',
  'initialstate',
  'effector',
  'observable',
  'item',
  'plot',
]);
export type ElementCategory = z.infer<typeof ElementCategory>;

/** Lines are 1-based and inclusive; offsets are 0-based UTF-16 indices, end exclusive. */
export const Span = z.object({
  startLine: z.number().int().min(1),
  endLine: z.number().int().min(1),
  startOffset: z.number().int().min(0),
  endOffset: z.number().int().min(0),
});
export type Span = z.infer<typeof Span>;

/** A contiguous piece of the script (preamble, entry-point call, other top-level code). */
export const CodeBlock = z.object({ span: Span, source: z.string() });
export type CodeBlock = z.infer<typeof CodeBlock>;

const FunctionBase = z.object({
  name: z.string().min(1),
  /** The def/function line(s) up to the body: `def f(a, b) -> int:` / `function f(a::Int)::MPO`. */
  signature: z.string(),
  params: z.array(z.string()),
  /** Whole definition, including Python decorators and a Julia docstring or macro prefix. */
  span: Span,
  source: z.string(),
  /** Script-defined functions this one refers to by a call, in order of first call. */
  callees: z.array(z.string()),
});

export const ElementFunction = FunctionBase.extend({ category: ElementCategory });
export type ElementFunction = z.infer<typeof ElementFunction>;

export const ElementCall = z.object({
  /** The element function called. */
  name: z.string(),
  /** Line of the call itself. */
  line: z.number().int().min(1),
  /** The whole statement (logical line) holding the call; an integration level cuts after it. */
  statementSource: z.string(),
  statementSpan: Span,
});
export type ElementCall = z.infer<typeof ElementCall>;

export const RunFunction = FunctionBase.extend({
  /** Calls to element functions defined in the script, in source order (nested defs excluded). */
  calls: z.array(ElementCall),
});
export type RunFunction = z.infer<typeof RunFunction>;

export const MainFunction = FunctionBase;
export type MainFunction = z.infer<typeof MainFunction>;

/** Helpers without an element prefix, and top-level classes/structs the functions may need. */
export const OtherFunction = FunctionBase.extend({ kind: z.enum(['function', 'type']) });
export type OtherFunction = z.infer<typeof OtherFunction>;

export const ScriptStructure = z.object({
  language: ScriptLanguage,
  /** The parsed text, kept so harnesses can splice it byte-for-byte. */
  source: z.string(),
  /** Imports and top-level code before the first function. */
  preamble: CodeBlock,
  elementFunctions: z.array(ElementFunction),
  runFunctions: z.array(RunFunction),
  main: MainFunction.nullable(),
  otherFunctions: z.array(OtherFunction),
  /** Top-level statements after the first function that are neither functions nor the entry point. */
  topLevelCode: z.array(CodeBlock),
  /** `if __name__ == "__main__": main()` / a final `main()` in Julia. */
  entryPointCall: CodeBlock.nullable(),
});
export type ScriptStructure = z.infer<typeof ScriptStructure>;

export const StructureProblemCode = z.enum([
  'PARSE_ERROR',
  'NO_ELEMENT_FUNCTIONS',
  'UNKNOWN_ELEMENT_CATEGORY',
  'DUPLICATE_FUNCTION',
  'NO_RUN_FUNCTION',
  'RUN_CALLS_NO_ELEMENT',
  'RUN_NOT_REACHED_FROM_MAIN',
  'MAIN_MISSING',
  'MAIN_CALLS_NO_RUN_OR_ITEM',
  'NO_ENTRY_POINT',
]);
export type StructureProblemCode = z.infer<typeof StructureProblemCode>;

export const StructureProblem = z.object({
  code: StructureProblemCode,
  /** A sentence the Author agent can act on: what is wrong, where, and what to do. */
  message: z.string(),
  /** The function concerned, when there is one. */
  functionName: z.string().optional(),
  line: z.number().int().min(1).optional(),
});
export type StructureProblem = z.infer<typeof StructureProblem>;

// ---- harness inputs and outputs ----

/** A function from the Verifier library used to build the environment around the function under test. */
export const BackgroundFunction = z.object({
  category: ElementCategory,
  source: z.string().min(1),
});
export type BackgroundFunction = z.infer<typeof BackgroundFunction>;

export const UnitHarnessRequest = z.object({
  structure: ScriptStructure,
  /** Name of the element function under test. */
  target: z.string().min(1),
  background: z.array(BackgroundFunction),
  /** Source of a `main` that calls background functions and the target. */
  entryPoint: z.string().min(1),
  language: ScriptLanguage,
  /** Imports the background functions need beyond the script's own preamble. */
  extraPreamble: z.string().optional(),
});
export type UnitHarnessRequest = z.infer<typeof UnitHarnessRequest>;

export const HarnessScript = z.object({
  fileName: z.string(),
  source: z.string(),
});
export type HarnessScript = z.infer<typeof HarnessScript>;

export const IntegrationLevel = HarnessScript.extend({
  runFunction: z.string(),
  /** 1-based; level k keeps the run_ function up to its k-th element-call statement. */
  level: z.number().int().min(1),
  totalLevels: z.number().int().min(1),
  /** Element functions whose calls sit in the statement this level adds. */
  introduces: z.array(z.string()),
  /** Distinct element functions exercised up to this level, in call order. */
  elementFunctionsSoFar: z.array(z.string()),
  /** Printed by the level's main once the truncated chain returned. */
  successMarker: z.string(),
});
export type IntegrationLevel = z.infer<typeof IntegrationLevel>;

export const FunctionReplacement = z.object({
  name: z.string().min(1),
  newSource: z.string().min(1),
});
export type FunctionReplacement = z.infer<typeof FunctionReplacement>;

export const FunctionDifference = z.object({
  name: z.string(),
  change: z.enum(['modified', 'removed', 'added']),
});
export type FunctionDifference = z.infer<typeof FunctionDifference>;
