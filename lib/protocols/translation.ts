// An article's ORCA protocol translated for a substitute toolchain, item by item, from the data table
// data/protocol-translations/<from>-<to>.json: every `!` keyword, every `%` block and every setting
// of a translatable block becomes one row (merged across the calculations that use it). An item no
// rule knows is a row marked "not translated": nothing is dropped, nothing throws.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BadInputError, badInputFromZod } from '../errors.js';
import { dataDir } from '../paths.js';
import { TranslationTable, type OrcaProtocol, type TranslationRow, type TranslationRule } from '../../schemas/protocol.js';
import { parseOrcaInput, type OrcaInput } from './orca-input.js';

export const translationsDir = path.join(dataDir, 'protocol-translations');

const cache = new Map<string, TranslationTable>();

/** The table translating `from` (a profile name) to `to`, or undefined when there is none. */
export function loadTranslationTable(from: string, to: string, dir = translationsDir): TranslationTable | undefined {
  const file = path.join(dir, `${from}-${to}.json`);
  const hit = cache.get(file);
  if (hit) return hit;
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BadInputError(`${file}: not readable JSON: ${(err as Error).message}`, file);
  }
  const parsed = TranslationTable.safeParse(raw);
  if (!parsed.success) throw badInputFromZod(parsed.error, file);
  if (parsed.data.from !== from || parsed.data.to !== to) {
    throw new BadInputError(`${file}: from/to say ${parsed.data.from} → ${parsed.data.to}, but the file name says ${from} → ${to}; make them agree`, file, 'from');
  }
  cache.set(file, parsed.data);
  return parsed.data;
}

export function translateProtocol(protocol: OrcaProtocol, table: TranslationTable): TranslationRow[] {
  const rows = new Map<string, TranslationRow>();
  const add = (key: string, row: Omit<TranslationRow, 'usedIn'>, calc: string) => {
    const seen = rows.get(key);
    if (seen) {
      if (!seen.usedIn.includes(calc)) seen.usedIn.push(calc);
    } else rows.set(key, { ...row, usedIn: [calc] });
  };
  for (const calc of protocol.orca_inputs) {
    const input = parseOrcaInput(calc.input_command);
    // The multiplicity may sit in the separate coordinate line (`xyzfile`) rather than in the input.
    const ref = referenceOf(input.coordinates || !calc.xyzfile ? input : { ...input, coordinates: parseOrcaInput(calc.xyzfile).coordinates });
    for (const kw of input.keywords) {
      const row = rowFor(table, 'keyword', kw, undefined, '', ref);
      const condition = input.conditions[kw];
      if (condition) row.condition = condition;
      // One row per distinct translation: the same keyword under RKS and under UKS is two rows.
      add(`k:${kw.toLowerCase()}|${row.target}|${condition ?? ''}`, row, calc.id);
    }
    for (const line of input.unparsed) {
      add(`l:${line}`, { kind: 'line', orca: line, category: '?', target: '—', status: 'not translated', differs: 'not an ORCA keyword line or block as the parser reads them: check the input and translate it by hand' }, calc.id);
    }
    for (const block of input.blocks) {
      const blockRow = rowFor(table, 'block', block.name, undefined, '');
      add(`b:${block.name}`, { ...blockRow, orca: `%${block.written}` }, calc.id);
      // A block with no counterpart at all stands for its settings too; listing them would only repeat it.
      if (blockRow.status === 'no equivalent' || blockRow.status === 'not translated') continue;
      for (const s of block.settings) {
        const row = rowFor(table, 'setting', s.key, block.name, s.value);
        add(`s:${block.name}:${s.key}:${s.value.toLowerCase()}`, { ...row, orca: `%${block.written} ${s.written}${s.value ? ` ${s.value}` : ''}` }, calc.id);
      }
    }
  }
  return [...rows.values()];
}

/**
 * The Kohn-Sham reference of one calculation, for `$ref` in targets: what its keywords say, else what its
 * multiplicity implies (ORCA's default: restricted for a singlet, unrestricted otherwise), else `KS`
 * (PySCF's dft.KS picks RKS or UKS by mol.spin) when the multiplicity is a placeholder.
 */
function referenceOf(input: OrcaInput): 'RKS' | 'UKS' | 'ROKS' | 'KS' {
  const kws = new Set(input.keywords.map((k) => k.toUpperCase()));
  if (kws.has('UKS') || kws.has('UHF')) return 'UKS';
  if (kws.has('ROKS') || kws.has('ROHF')) return 'ROKS';
  if (kws.has('RKS') || kws.has('RHF')) return 'RKS';
  const m = Number(input.coordinates?.multiplicity);
  if (Number.isInteger(m) && m >= 1) return m === 1 ? 'RKS' : 'UKS';
  return 'KS';
}

function rowFor(table: TranslationTable, kind: TranslationRule['kind'], written: string, block: string | undefined, value: string, ref = 'KS'): Omit<TranslationRow, 'usedIn'> {
  for (const rule of table.rules) {
    if (rule.kind !== kind || (kind === 'setting' && rule.block !== block)) continue;
    const m = new RegExp(`^(?:${rule.match})$`, 'i').exec(written);
    if (!m) continue;
    const fill = (s: string) => s.replace(/\$(value|ref|\d)/g, (_, g: string) => (g === 'value' ? value : g === 'ref' ? ref : (m[Number(g)] ?? '')));
    const row: Omit<TranslationRow, 'usedIn'> = { kind, orca: written, category: rule.category, target: fill(rule.target), status: rule.status };
    if (rule.differs) row.differs = fill(rule.differs);
    return row;
  }
  return { kind, orca: written, category: '?', target: '—', status: 'not translated', differs: `no rule for this ${kind} in the ${table.from} → ${table.to} table: translate it by hand` };
}

export interface TranslationCounts {
  rows: number;
  equivalent: number;
  nearest: number;
  noEquivalent: number;
  notNeeded: number;
  notTranslated: number;
}

export function countTranslation(rows: readonly TranslationRow[]): TranslationCounts {
  const n = (s: TranslationRow['status']) => rows.filter((r) => r.status === s).length;
  return { rows: rows.length, equivalent: n('equivalent'), nearest: n('nearest'), noEquivalent: n('no equivalent'), notNeeded: n('not needed'), notTranslated: n('not translated') };
}

/** The table as Markdown, for the Author's request and the report. */
export function renderTranslationTable(rows: readonly TranslationRow[], from: string, to: string): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
  const lines = [
    `| ${from} (as written) | used in | what | ${to} | match | what differs |`,
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r.orca)}${r.condition ? ` (only ${cell(r.condition)})` : ''} | ${cell(r.usedIn.join(', '))} | ${cell(r.category)} | ${cell(r.target)} | ${r.status} | ${cell(r.differs ?? '')} |`),
  ];
  return lines.join('\n');
}
