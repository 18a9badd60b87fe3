// Store a script and summarise its structure (element functions, run_ call order, problems).
import { createHash } from 'node:crypto';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { ScriptSummary } from '../../schemas/pipeline.js';
import { scriptExtension, type ScriptLanguage, type ScriptStructure } from '../../schemas/script-structure.js';
import { inspectScript, parseScript } from '../../lib/script-analysis/index.js';
import { scriptInterface } from '../../lib/script-analysis/script-interface.js';

export type { ScriptLanguage };
/** A script's file extension (one mapping, schemas/script-structure.ts). */
export const extensionOf = scriptExtension;

export async function summarizeScript(store: ArtifactStore, script: string, language: ScriptLanguage): Promise<ScriptSummary> {
  const { structure, problems } = inspectScript(script, language);
  const scriptRef = await store.put(script, { name: `script.${extensionOf(language)}`, mediaType: 'text/plain' });
  const interfaceRef = structure ? await store.put(scriptInterface(structure), { name: `script-interface.${extensionOf(language)}`, mediaType: 'text/plain' }) : undefined;
  return {
    scriptRef,
    ...(interfaceRef ? { interfaceRef } : {}),
    language,
    elementFunctions: structure?.elementFunctions.map((f) => ({ name: f.name, category: f.category, hash: functionHash(f.source) })) ?? [],
    runFunctions: structure?.runFunctions.map((r) => ({ name: r.name, calls: r.calls.map((c) => c.name) })) ?? [],
    problems: problems.map((p) => ('line' in p && p.line ? `line ${p.line}: ${p.message}` : p.message)),
  };
}

/** A short hash of a function's source: a kept unit test stays valid while its function's hash is the same. */
export function functionHash(source: string): string {
  return createHash('sha256').update(source).digest('hex').slice(0, 16);
}

export async function loadStructure(store: ArtifactStore, summary: ScriptSummary): Promise<{ source: string; structure: ScriptStructure }> {
  const source = await store.getText(summary.scriptRef);
  return { source, structure: parseScript(source, summary.language) };
}
