// The report's section on a dft_qc task's protocol: which file, and with a substitute, the ORCA →
// substitute translation table the Author was given (rows stored by prepareTask).
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { TaskContext } from '../../schemas/pipeline.js';
import { TranslationRow } from '../../schemas/protocol.js';

export interface ProtocolReport {
  json: (NonNullable<TaskContext['protocol']> & { rows?: TranslationRow[] }) | null;
  html: string;
}

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export async function protocolReport(store: ArtifactStore, ctx: TaskContext): Promise<ProtocolReport> {
  const p = ctx.protocol;
  if (!p) return { json: null, html: '' };
  if (!p.found) return { json: p, html: `<h2>Calculation protocol</h2><p id="protocol">Not published (tried ${esc(p.tried.join(', '))}).</p>` };
  const head = `<h2>Calculation protocol</h2><p id="protocol">${esc(p.file)}: ${p.calculations} ORCA calculation(s), given to the Author as its source.</p>`;
  if (!p.translation) return { json: p, html: head };
  const rows = TranslationRow.array().parse(JSON.parse(await store.getText(p.translation.rowsRef)));
  const cls = (s: string) => (s === 'equivalent' || s === 'not needed' ? 'ok' : s === 'nearest' ? 'warn' : 'bad');
  const table =
    `<h3>${esc(p.translation.from)} → ${esc(p.translation.to)} translation given to the Author</h3>` +
    `<table id="protocol-translation"><tr><th>${esc(p.translation.from)} (as written)</th><th>used in</th><th>what</th><th>${esc(p.translation.to)}</th><th>match</th><th>what differs</th></tr>` +
    rows.map((r) => `<tr class="${cls(r.status)}"><td>${esc(r.orca)}</td><td>${esc(r.usedIn.join(', '))}</td><td>${esc(r.category)}</td><td>${esc(r.target)}</td><td>${esc(r.status)}</td><td>${esc(r.differs ?? '')}</td></tr>`).join('') +
    '</table>';
  return { json: { ...p, rows }, html: head + table };
}
