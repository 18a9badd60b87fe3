// From the definitions and top-level statements a language parser found to a ScriptStructure:
// roles by name prefix, spans, who calls whom, and the element calls of each run_ function.
import type {
  ElementCall,
  ElementFunction,
  MainFunction,
  OtherFunction,
  RunFunction,
  ScriptLanguage,
  ScriptStructure,
} from '../../schemas/script-structure.js';
import { callSites, linesWithin } from './calls.js';
import { roleOf } from './categories.js';
import type { CodeLine } from './code-model.js';
import { LineIndex } from './source-text.js';

export interface RawDefinition {
  name: string;
  kind: 'function' | 'type';
  signature: string;
  params: string[];
  start: number;
  end: number;
}

export interface RawStatement {
  start: number;
  end: number;
}

export function assembleStructure(
  source: string,
  language: ScriptLanguage,
  lines: CodeLine[],
  definitions: RawDefinition[],
  statements: RawStatement[],
): ScriptStructure {
  const index = new LineIndex(source);
  const block = (start: number, end: number) => ({ span: index.span(start, end), source: source.slice(start, end) });
  const functionNames = new Set(definitions.filter((d) => d.kind === 'function').map((d) => d.name));
  const elementNames = new Set([...functionNames].filter((n) => roleOf(n).kind === 'element'));

  const firstDefinition = definitions.length ? Math.min(...definitions.map((d) => d.start)) : source.length;
  let preambleEnd = firstDefinition;
  while (preambleEnd > 0 && /\s/.test(source[preambleEnd - 1]!)) preambleEnd--;

  const elementFunctions: ElementFunction[] = [];
  const runFunctions: RunFunction[] = [];
  const otherFunctions: OtherFunction[] = [];
  let main: MainFunction | null = null;

  for (const def of definitions) {
    const fnLines = linesWithin(lines, def.start, def.end);
    const others = new Set([...functionNames].filter((n) => n !== def.name));
    const callees = [...new Set(callSites(fnLines, others, { skipNestedDefinitions: false }).map((c) => c.name))];
    const base = {
      name: def.name,
      signature: def.signature,
      params: def.params,
      span: index.span(def.start, def.end),
      source: source.slice(def.start, def.end),
      callees,
    };
    if (def.kind === 'type') {
      otherFunctions.push({ ...base, kind: 'type' });
      continue;
    }
    const role = roleOf(def.name);
    if (role.kind === 'element') elementFunctions.push({ ...base, category: role.category });
    else if (role.kind === 'run') {
      const calls: ElementCall[] = callSites(fnLines, elementNames, { skipNestedDefinitions: true }).map((site) => {
        const statementStart = site.line.tokens[0]!.start;
        return {
          name: site.name,
          line: index.lineOf(site.token.start),
          statementSource: source.slice(statementStart, site.line.end),
          statementSpan: index.span(statementStart, site.line.end),
        };
      });
      runFunctions.push({ ...base, calls });
    } else if (role.kind === 'main' && main === null) main = base;
    else otherFunctions.push({ ...base, kind: 'function' });
  }

  let entryPointCall: ScriptStructure['entryPointCall'] = null;
  const topLevelCode: ScriptStructure['topLevelCode'] = [];
  for (const statement of statements) {
    const stmtLines = linesWithin(lines, statement.start, statement.end);
    const callsMain = callSites(stmtLines, new Set(['main']), { skipNestedDefinitions: true }).length > 0;
    if (callsMain && entryPointCall === null) entryPointCall = block(statement.start, statement.end);
    else if (statement.start >= firstDefinition) topLevelCode.push(block(statement.start, statement.end));
  }

  return {
    language,
    source,
    preamble: block(0, preambleEnd),
    elementFunctions,
    runFunctions,
    main,
    otherFunctions,
    topLevelCode,
    entryPointCall,
  };
}

/** Index of the bracket closing the one at `open`. */
export function matchingBracket(tokens: CodeLine['tokens'], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!.text;
    if (t === '(' || t === '[' || t === '{') depth++;
    else if ((t === ')' || t === ']' || t === '}') && --depth === 0) return i;
  }
  return tokens.length - 1;
}
