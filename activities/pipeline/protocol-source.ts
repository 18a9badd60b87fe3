// The Author's source for a dft_qc task: the article's calculation protocol (its ORCA inputs, as the
// benchmark publishes them), after the TeX or digest when there is one; and, when a substitute stands in
// for ORCA, the keyword-by-keyword translation table from data/protocol-translations. The table is also
// stored as rows for the report.
import path from 'node:path';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { TaskContext } from '../../schemas/pipeline.js';
import type { OrcaProtocol, TranslationRow } from '../../schemas/protocol.js';
import type { LoadedTask } from '../../schemas/task.js';
import type { SubstitutionPlan, ToolchainConfig } from '../../schemas/toolchain.js';
import { BadInputError } from '../../lib/errors.js';
import { loadProtocolFile } from '../../lib/protocols/load-protocol.js';
import { countTranslation, loadTranslationTable, renderTranslationTable, translateProtocol, type TranslationCounts } from '../../lib/protocols/translation.js';
import { getProfile, loadToolchainConfig } from '../../lib/toolchains/config.js';
import { formatProblem } from '../../lib/input-files/problems.js';

export interface ProtocolForAuthor {
  context: NonNullable<TaskContext['protocol']>;
  /** Appended to the Author's source document (absent when no protocol was published). */
  document?: string;
  /** Appended to the Author's request. */
  requestNote?: string;
  /** Appended to the substitution note (the report's first line). */
  substitutionNote?: string;
  rows?: TranslationRow[];
}

/** Undefined for tasks whose layout has no protocol to look for (every topic but QMP-Bench's dft). */
export async function protocolForAuthor(store: ArtifactStore, loaded: LoadedTask, plan: SubstitutionPlan, config: ToolchainConfig = loadToolchainConfig()): Promise<ProtocolForAuthor | undefined> {
  const p = loaded.protocol;
  if (p.path === null) return undefined;
  if (!p.found) return { context: { found: false, tried: (p.tried ?? []).map((f) => path.basename(f)), calculations: 0 } };
  const read = await loadProtocolFile(p.path);
  if (!read.protocol) throw new BadInputError(read.problems.map(formatProblem).join('\n'), p.path);
  const protocol = read.protocol;
  const name = path.basename(p.path);
  const out: ProtocolForAuthor = {
    context: { found: true, file: p.path, tried: [], calculations: protocol.orca_inputs.length },
    document: protocolDocument(protocol, name),
  };
  if (!plan.ok || !plan.substituted) return out;
  const table = loadTranslationTable(plan.original, plan.profile);
  if (!table) return out;
  const from = getProfile(plan.original, config).packageLabel;
  const to = getProfile(plan.profile, config).packageLabel;
  const rows = translateProtocol(protocol, table);
  const counts = countTranslation(rows);
  out.rows = rows;
  out.context.translation = { from: plan.original, to: plan.profile, rowsRef: await store.putJson(rows, 'protocol-translation.json'), counts: { ...counts } };
  out.document +=
    `\n\n## ${from} → ${to} translation of this protocol, item by item\n` +
    `Every ${from} keyword, block and block setting above, with its ${to} counterpart. "equivalent": the same method under ${to}'s name; ` +
    `"nearest": the closest ${to} has (see what differs); "no equivalent": ${to} cannot do this calculation as the article did; "not needed": bookkeeping; "not translated": no rule known, translate it yourself.\n\n` +
    renderTranslationTable(rows, from, to);
  out.requestNote =
    ` The article's calculations were run with ${from}: its protocol is given with the article source, followed by the ${from} → ${to} translation table ` +
    `(${summary(counts)}). Translate each ${from} setting as the table says; where it says "no equivalent", state that in the script's comments and compute the nearest quantity ${to} can.`;
  out.substitutionNote = ` The article's ${from} protocol (${name}, ${protocol.orca_inputs.length} calculations) is translated keyword by keyword for ${to}: ${summary(counts)}; the table is in this report.`;
  return out;
}

function summary(c: TranslationCounts): string {
  return `${c.rows} items: ${c.equivalent} equivalent, ${c.nearest} nearest, ${c.noEquivalent} with no equivalent, ${c.notNeeded} not needed, ${c.notTranslated} not translated`;
}

/** The protocol as the Author reads it: one fenced ORCA input per calculation, with its id and title. */
export function protocolDocument(protocol: OrcaProtocol, fileName: string): string {
  const parts = [
    `# Calculation protocol of the article (${fileName})`,
    `The ORCA inputs the article's authors ran, one per calculation, as published with the benchmark. The coordinate blocks hold placeholders: no coordinates were published.`,
  ];
  protocol.orca_inputs.forEach((c, i) => {
    parts.push(`## ${i + 1}. ${c.id} — ${c.title_of_calculation || '(untitled)'}\n\`\`\`\n${c.input_command.replace(/\r\n?/g, '\n').trim()}\n${(c.xyzfile ?? '').replace(/\r\n?/g, '\n').trim()}\n\`\`\``);
  });
  return parts.join('\n\n');
}
