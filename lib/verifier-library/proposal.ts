// A proposed verifier function: its source file and its check file, as a hand-written library folder
// holds them or as an LLM would write them. Everything the index records is read from the two texts:
// the element function (one per file, named like the file, with `verifier` in its name), its
// signature and docstring, and the check's `# expected:` and `# uses:` header lines.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseScript } from '../script-analysis/index.js';
import { LANGUAGE_EXTENSION } from './paths.js';
import { RESULT_MARKER } from '../../schemas/script-markers.js';
import { VerifierCategory, type VerifierLanguage } from './index-schema.js';

export interface ProposalInput {
  name: string;
  language: VerifierLanguage;
  source: string;
  checkSource: string;
}

export interface Proposal extends ProposalInput {
  file: string;
  checkFile: string;
  category: VerifierCategory;
  signature: string;
  params: string[];
  doc: string;
  /** Imports and constants above the function, which a harness must carry along. */
  preamble: string;
  /** The function definition alone (with its Julia docstring). */
  functionSource: string;
  expected: string;
  uses: string[];
}

export type ParsedProposal = { ok: true; proposal: Proposal } | { ok: false; name: string; reason: string };

export function parseProposal(input: ProposalInput): ParsedProposal {
  const fail = (reason: string): ParsedProposal => ({ ok: false, name: input.name, reason });
  const ext = LANGUAGE_EXTENSION[input.language];
  if (!/^[a-z][a-z0-9]*_verifier_[a-z0-9_]+$/.test(input.name)) return fail(`"${input.name}" is not of the form <category>_verifier_<what>`);
  const prefix = input.name.slice(0, input.name.indexOf('_'));
  const category = VerifierCategory.safeParse(prefix);
  if (!category.success) return fail(`"${prefix}" is not an element category a verifier function can have (${VerifierCategory.options.join(', ')})`);
  let structure;
  try {
    structure = parseScript(input.source, input.language);
  } catch (err) {
    return fail(`cannot parse ${input.name}${ext}: ${(err as Error).message}`);
  }
  const fn = structure.elementFunctions.find((f) => f.name === input.name);
  if (!fn) return fail(`${input.name}${ext} does not define an element function named ${input.name}`);
  const others = [...structure.elementFunctions, ...structure.runFunctions, ...structure.otherFunctions].filter((f) => f.name !== input.name);
  if (others.length > 0 || structure.main) {
    return fail(`${input.name}${ext} must hold only ${input.name}; it also defines ${[...others.map((f) => f.name), ...(structure.main ? ['main'] : [])].join(', ')}`);
  }
  const header = checkHeader(input.checkSource);
  if (!header.expected) return fail(`${input.name}.check${ext} lacks its "# expected: <what the check asserts>" line`);
  if (!input.checkSource.includes(RESULT_MARKER)) return fail(`${input.name}.check${ext} never prints a ${RESULT_MARKER} line`);
  return {
    ok: true,
    proposal: {
      ...input,
      file: `${input.name}${ext}`,
      checkFile: `${input.name}.check${ext}`,
      category: category.data,
      signature: fn.signature,
      params: fn.params,
      doc: docstring(fn.source, input.language),
      preamble: structure.preamble.source,
      functionSource: fn.source,
      expected: header.expected,
      uses: header.uses,
    },
  };
}

/** `# expected: …` and `# uses: a, b` among the leading comment lines of a check. */
export function checkHeader(checkSource: string): { expected: string | null; uses: string[] } {
  let expected: string | null = null;
  let uses: string[] = [];
  for (const line of checkSource.split('\n')) {
    const t = line.trim();
    if (t === '') continue;
    if (!t.startsWith('#')) break;
    const m = /^#\s*(expected|uses)\s*:\s*(.*)$/.exec(t);
    if (m?.[1] === 'expected') expected = m[2]!.trim();
    if (m?.[1] === 'uses') uses = m[2]!.split(',').map((s) => s.trim()).filter(Boolean);
  }
  return { expected, uses };
}

function docstring(source: string, language: VerifierLanguage): string {
  const m = language === 'python' ? /^\s*def[\s\S]*?:\s*\n\s*(?:"""([\s\S]*?)"""|'''([\s\S]*?)''')/.exec(source) : /^\s*"""([\s\S]*?)"""/.exec(source);
  const text = m ? (m[1] ?? m[2] ?? '') : '';
  return dedent(text).trim();
}

function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.slice(1).filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return [lines[0]!.trim(), ...lines.slice(1).map((l) => l.slice(cut))].join('\n');
}

/** Every `<name>.<ext>` with a `<name>.check.<ext>` beside it; files without a check are reported. */
export async function readProposalFolder(dir: string, language: VerifierLanguage): Promise<{ inputs: ProposalInput[]; missingChecks: string[] }> {
  const ext = LANGUAGE_EXTENSION[language];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { inputs: [], missingChecks: [] };
    throw err;
  }
  const functions = names.filter((n) => n.endsWith(ext) && !n.endsWith(`.check${ext}`)).sort();
  const inputs: ProposalInput[] = [];
  const missingChecks: string[] = [];
  for (const file of functions) {
    const name = file.slice(0, -ext.length);
    if (!names.includes(`${name}.check${ext}`)) {
      missingChecks.push(name);
      continue;
    }
    const [source, checkSource] = await Promise.all([readFile(path.join(dir, file), 'utf8'), readFile(path.join(dir, `${name}.check${ext}`), 'utf8')]);
    inputs.push({ name, language, source, checkSource });
  }
  return { inputs, missingChecks };
}
