// The report's section on a dft_qc task's protocol: which file, and with a substitute, the ORCA →
// substitute translation table the Author was given (rows stored by prepareTask). Returns data; the
// evidence template (lib/reports/templates/protocol.eta) lays it out.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { TaskContext } from '../../schemas/pipeline.js';
import { TranslationRow } from '../../schemas/protocol.js';

type Protocol = NonNullable<TaskContext['protocol']>;

export interface ProtocolReport {
  json: (Protocol & { rows?: TranslationRow[] }) | null;
  /** What the page shows; null when the task has no protocol. */
  view: { found: false; tried: string[] } | { found: true; file?: string; calculations: number; translation?: { from: string; to: string; rows: (TranslationRow & { cls: string })[] } } | null;
}

const cls = (s: string) => (s === 'equivalent' || s === 'not needed' ? 'ok' : s === 'nearest' ? 'warn' : 'bad');

export async function protocolReport(store: ArtifactStore, ctx: TaskContext): Promise<ProtocolReport> {
  const p = ctx.protocol;
  if (!p) return { json: null, view: null };
  if (!p.found) return { json: p, view: { found: false, tried: p.tried } };
  const head = { found: true as const, file: p.file, calculations: p.calculations };
  if (!p.translation) return { json: p, view: head };
  const rows = TranslationRow.array().parse(JSON.parse(await store.getText(p.translation.rowsRef)));
  return {
    json: { ...p, rows },
    view: { ...head, translation: { from: p.translation.from, to: p.translation.to, rows: rows.map((r) => ({ ...r, cls: cls(r.status) })) } },
  };
}
